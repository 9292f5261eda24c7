"""The coarse grammars read every hand exactly as the record grammars do.

A coarse grammar may only be faster: on every sample, corpus and generated hand (native, and
the PokerStars and GGPoker corpus) it must build the identical `Hand`, and on a hand mangled at
random (characters deleted, changed or put in) it must either build the record grammar's hand or
fail, so that the record grammar's error is told.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import pytest
from lark import Lark

from benchmarks.parsing import native_hands, site_hands
from evaluator.variants import VARIANTS
from grammar.barge_parser import READER
from grammar.errors import HandSyntaxError
from grammar.pokerstars_parser import GG_READER, PS_READER
from grammar.reading import HandReader
from pipeline.generate.output import make_hand
from pipeline.model import Hand
from pipeline.writer import write_hand

# Characters that make or break the coarse lines: separators, digits, suits, names' ends.
MANGLE = " :[]()#*,.-\n\t0123456789sdhcAKTx?"


def _generated_texts() -> Iterator[str]:
    for index, variant in enumerate(sorted(VARIANTS)):
        yield write_hand(make_hand(17, variant, index)[0])


def _record(reader: HandReader, text: str) -> Hand | str:
    """The record grammar's hand, or its error message."""
    try:
        return reader.parse_record(text)
    except HandSyntaxError as exc:
        return str(exc)


def _coarse(reader: HandReader, kind: str) -> Lark:
    """The coarse parser with plain Lark, or with the compiled plugin where it is installed."""
    parser = reader.coarse_lark if kind == "plain" else reader.coarse_compiled
    if parser is None:
        pytest.skip("the compiled Lark plugin is not installed")
    return parser


def _agrees(reader: HandReader, coarse: Lark, text: str) -> None:
    """The coarse parser builds the record grammar's hand, or fails where the record one may."""
    record = _record(reader, text)
    try:
        hand = coarse.parse(text)
    except Exception:  # any failure sends the hand to the record grammar
        return
    assert hand == record, text


TEXTS = [*native_hands(), *_generated_texts()]
# Each reader with a coarse grammar, and its hands.
READERS = {"native": (READER, TEXTS),
           "pokerstars": (PS_READER.reader, site_hands(PS_READER, "pokerstars")),
           "ggpoker": (GG_READER.reader, site_hands(GG_READER, "ggpoker"))}


def test_the_coarse_grammar_reads_most_lines_as_one_token() -> None:
    coarse = READER.coarse_lark
    assert coarse is not None
    counts = [sum(sum(1 for _ in parser.parse_interactive(hand).iter_parse()) for hand in TEXTS)
              for parser in (coarse, READER.lark)]
    assert counts[0] * 3 < counts[1]


@pytest.mark.parametrize("kind", ["plain", "compiled"])
@pytest.mark.parametrize("name", sorted(READERS))
def test_coarse_and_record_build_the_same_hands(name: str, kind: str) -> None:
    reader, texts = READERS[name]
    coarse = _coarse(reader, kind)
    for text in texts:
        record = _record(reader, text)
        if isinstance(record, Hand) or name == "native":  # the corpus keeps some broken hands
            assert coarse.parse(text) == record, text
        else:
            _agrees(reader, coarse, text)


@pytest.mark.parametrize("kind", ["plain", "compiled"])
@pytest.mark.parametrize("name", sorted(READERS))
def test_mangled_hands_read_the_same_or_fail(name: str, kind: str) -> None:
    reader, texts = READERS[name]
    if not texts:
        pytest.skip("the shared corpus is not beside this repository")
    coarse = _coarse(reader, kind)
    rng = Random(17)
    for _ in range(1000):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text))
            change = rng.choice(("delete", "replace", "insert"))
            new = "" if change == "delete" else rng.choice(MANGLE)
            text = text[:at] + new + text[at + (change != "insert"):]
        _agrees(reader, coarse, text)


# The native lines read as one token each besides the play's: the header, the metadata and table
# lines, the returned bet and the summary's marker.
_HEADER_LINES = ("BARGE Hand #", "Event:", "Tournament:", "Level:", "Site:", "Game:", "Currency:",
                 "Table '", "Uncalled bet (", "*** SUMMARY ***")


def test_mangled_header_lines_read_the_same_or_fail() -> None:
    rng = Random(23)
    coarse = _coarse(READER, "plain")
    for _ in range(1500):
        lines = rng.choice(TEXTS).splitlines(keepends=True)
        targets = [i for i, line in enumerate(lines) if line.startswith(_HEADER_LINES)]
        for _ in range(rng.randint(1, 2)):
            i = rng.choice(targets)
            at = rng.randrange(len(lines[i]))
            change = rng.choice(("delete", "replace", "insert"))
            new = "" if change == "delete" else rng.choice(MANGLE + "'/")
            lines[i] = lines[i][:at] + new + lines[i][at + (change != "insert"):]
        _agrees(READER, coarse, "".join(lines))


def test_errors_are_the_record_grammars() -> None:
    text = TEXTS[0].replace(": calls ", ": calls x", 1).replace(": folds", ": flods", 1)
    with pytest.raises(HandSyntaxError) as told:
        READER.parse(text)
    assert str(told.value) == _record(READER, text)
