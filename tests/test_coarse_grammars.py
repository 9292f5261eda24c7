"""The coarse grammars read every hand exactly as the record grammars do.

A coarse grammar may only be faster: on every sample, corpus and generated hand it must build
the identical `Hand`, and on a hand mangled at random (characters deleted, changed or put in) it
must either build the record grammar's hand or fail, so that the record grammar's error is told.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest
from lark import Lark

from evaluator.variants import VARIANTS
from grammar.barge_parser import READER
from grammar.errors import HandSyntaxError
from pipeline.generate.output import make_hand
from pipeline.model import Hand
from pipeline.sources import native_header, read_blocks
from pipeline.writer import write_hand

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
# Characters that make or break the coarse lines: separators, digits, suits, names' ends.
MANGLE = " :[]()#*,.-\n\t0123456789sdhcAKTx?"


def _native_texts() -> Iterator[str]:
    paths = sorted((ROOT / "sample_histories").glob("*.bhh"))
    if CORPUS.is_dir():
        paths += sorted(CORPUS.rglob("*.bhh"))
    for path in paths:
        for block in read_blocks(path):
            if native_header(block.text):
                yield block.text


def _generated_texts() -> Iterator[str]:
    for index, variant in enumerate(sorted(VARIANTS)):
        yield write_hand(make_hand(17, variant, index)[0])


def _record(text: str) -> Hand | str:
    """The record grammar's hand, or its error message."""
    try:
        return READER.parse_record(text)
    except HandSyntaxError as exc:
        return str(exc)


def _coarse(kind: str) -> Lark:
    """The coarse parser with plain Lark, or with the compiled plugin where it is installed."""
    parser = READER.coarse_lark if kind == "plain" else READER.coarse_compiled
    if parser is None:
        pytest.skip("the compiled Lark plugin is not installed")
    return parser


def _agrees(coarse: Lark, text: str) -> None:
    """The coarse parser builds the record grammar's hand, or fails where the record one may."""
    record = _record(text)
    try:
        hand = coarse.parse(text)
    except Exception:  # noqa: BLE001 - any failure sends the hand to the record grammar
        return
    assert hand == record, text


TEXTS = [*_native_texts(), *_generated_texts()]


def test_the_coarse_grammar_reads_most_lines_as_one_token() -> None:
    coarse = READER.coarse_lark
    assert coarse is not None
    hand = TEXTS[0]
    counts = [sum(1 for _ in parser.parse_interactive(hand).iter_parse())
              for parser in (coarse, READER.lark)]
    assert counts[0] * 2 < counts[1]


@pytest.mark.parametrize("kind", ["plain", "compiled"])
def test_coarse_and_record_build_the_same_hands(kind: str) -> None:
    coarse = _coarse(kind)
    for text in TEXTS:
        record = _record(text)
        assert isinstance(record, Hand), record
        assert coarse.parse(text) == record, text


@pytest.mark.parametrize("kind", ["plain", "compiled"])
def test_mangled_hands_read_the_same_or_fail(kind: str) -> None:
    coarse = _coarse(kind)
    rng = Random(17)
    for _ in range(1500):
        text = rng.choice(TEXTS)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text))
            change = rng.choice(("delete", "replace", "insert"))
            new = "" if change == "delete" else rng.choice(MANGLE)
            text = text[:at] + new + text[at + (change != "insert"):]
        _agrees(coarse, text)


def test_errors_are_the_record_grammars() -> None:
    text = TEXTS[0].replace(": calls ", ": calls x", 1).replace(": folds", ": flods", 1)
    with pytest.raises(HandSyntaxError) as told:
        READER.parse(text)
    assert str(told.value) == _record(text)
