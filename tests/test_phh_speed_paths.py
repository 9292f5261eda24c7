"""The PHH reader's fast paths give what the slow ones gave: all of a hand's action strings read in
one parse (`parse_steps`) against each string read alone (`parse_step`), with the errors still
told string by string, where they were; the TOML that PHH files use read without tomllib
(`toml_subset`) against tomllib, and everything else still read (or refused) by tomllib.

The hands are the shared PHH corpus (`../shared/corpus/phh`, skipped when absent) and generated
hands of the PHH games.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from grammar.errors import HandSyntaxError
from grammar.phh_parser import EXAMPLE, parse_phh, parse_step, parse_steps, split_phh, toml_subset
from grammar.phh_play import Step, read_step
from grammar.phh_toml import read_toml
from pipeline.generate.output import Request, generate
from pipeline.phh_writer import PHH_VARIANTS
from pipeline.sources import read_blocks
from tests.conftest import SHARED

PHH_CORPUS = SHARED / "corpus" / "phh"
GENERATED = 20  # hands per PHH game
GAMES = tuple(sorted({variant for variant, _ in PHH_VARIANTS.values()}))


def blocks_of(folder: Path, pattern: str) -> list[str]:
    return [block.text for path in sorted(folder.rglob(pattern)) for block in read_blocks(path, split_phh)]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("phh-generated")
    generate(Request(GAMES, hands=GENERATED, seed=3, form="phh"), folder)
    return blocks_of(folder, "*.phhs")


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    if not PHH_CORPUS.is_dir():
        pytest.skip(f"the shared PHH corpus is not at {PHH_CORPUS}")
    return blocks_of(PHH_CORPUS, "*.phh")


def error_of(text: str) -> HandSyntaxError:
    with pytest.raises(HandSyntaxError) as caught:
        parse_phh(text)
    return caught.value


# ---- the action strings, one parse a hand ---------------------------------------------------

@pytest.mark.parametrize("pure", ["", "1"])  # with Lark's compiled plugin, and without
@pytest.mark.parametrize("hands", ["generated", "corpus"])
def test_a_hand_read_in_one_parse_is_its_strings_read_alone(
        hands: str, pure: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BARGE_PURE", pure)
    texts: list[str] = request.getfixturevalue(hands)
    assert texts
    for text in texts:
        strings = tomllib.loads(text)["actions"]
        assert parse_steps(strings) == [parse_step(s) for s in strings]


def lark_step(text: str) -> Step | str:
    try:
        return parse_step(text)
    except HandSyntaxError:
        return "error"


def test_the_usual_strings_read_without_the_grammar_as_with_it(generated: list[str]) -> None:
    """`read_step` (one regular expression) reads the strings written the usual way, and what it
    reads is what the grammar reads; a string mangled at random places it reads the same or
    leaves to the grammar, which then reads it or tells the error."""
    strings = list(dict.fromkeys(s for text in generated for s in tomllib.loads(text)["actions"]))
    for text in strings:
        assert read_step(text) == lark_step(text), text
    rng = random.Random(1)
    alphabet = [*" \t\r\n#-.?0129pdfbcrhsmAKTcdx\u00a0\u0663\x0b", "p1", "cbr", "cc", "sm", "sd", "db", "dh",
                "pb", " # x", "??", "Ac"]
    read = 0
    for _ in range(20_000):
        text = rng.choice(strings)
        for _ in range(rng.randint(1, 3)):
            at, cut = rng.randrange(len(text) + 1), rng.choice((0, 0, 1, 2))
            text = text[:at] + rng.choice(alphabet) * (cut != 2) + text[at + cut:]
        fast = read_step(text)
        if fast is not None:
            read += 1
            assert fast == lark_step(text), text
    assert read > 1_000, "the mangled strings still include usual ones"


def test_strings_that_are_not_actions_are_not_read_together() -> None:
    assert parse_steps([]) == []
    strings = ["p1 f", "", "# a note"]
    assert parse_steps(strings) == [parse_step(s) for s in strings]
    # "p1" and "f" joined would be a fold; each alone is an error.
    assert parse_steps(["p1", "f"]) is None
    # A newline inside a string is a space there, and would end a line of the joined text.
    assert parse_steps(["p1 cbr\n7000"]) is None
    assert parse_step("p1 cbr\n7000") == parse_step("p1 cbr 7000")
    assert parse_steps(["p1 f # tanked\n", "p2 cc"]) is None
    assert parse_step("p1 f # tanked\n") == parse_step("p1 f # tanked")


def test_an_error_in_the_third_string_is_placed_in_it() -> None:
    exc = error_of(EXAMPLE.replace('"d dh p3 7h6h"', '"d dh p3 7h6x"'))
    assert (exc.message, exc.line, exc.column, exc.expected) == (
        "unexpected '7h6x' in action 'd dh p3 7h6x'", 8, 44, ("cards such as AcKs or ????",))


def test_an_error_in_a_string_with_a_commentary_is_placed_in_it() -> None:
    exc = error_of(EXAMPLE.replace('"p2 f"', '"p2 fold # tanked, then folded"'))
    assert (exc.message, exc.line, exc.column, exc.expected) == (
        "unexpected 'fold' in action 'p2 fold # tanked, then folded'", 9, 38,
        ("'cbr'", "'cc'", "'f'", "'pb'", "'sd'", "'sm'"))
    exc = error_of(EXAMPLE.replace('"p2 f"', '"p2 f p3 cc # two actions"'))
    assert (exc.message, exc.line, exc.column, exc.expected) == (
        "unexpected 'p3' in action 'p2 f p3 cc # two actions'", 9, 40,
        ("'# commentary'", "the end of the action"))
    exc = error_of(EXAMPLE.replace('"d db 4h"', '"p1 cbr 1.555 # c"'))
    assert (exc.message, exc.line, exc.column, exc.expected) == (
        "amount 1.555 has more than two decimals", 11, 11, ("an amount with at most two decimals",))


def test_the_first_bad_string_is_told_whatever_its_fault() -> None:
    exc = error_of(EXAMPLE.replace('"p2 f"', '"p4 f"').replace('"d db Jh"', '"d db Jh1"'))
    assert (exc.message, exc.line, exc.column) == ("p4 in 'p4 f': the hand has 3 players", 9, 35)
    exc = error_of(EXAMPLE.replace('"p2 f"', '"p2 x"').replace('"d db Jh"', '"p5 f"'))
    assert (exc.message, exc.line, exc.column) == ("unexpected 'x' in action 'p2 x'", 9, 38)


def test_a_newline_in_a_string_cannot_join_or_split_strings() -> None:
    play = parse_phh(EXAMPLE).actions
    assert parse_phh(EXAMPLE.replace('"p3 cbr 7000"', '"p3 cbr\\n7000"')).actions == play
    assert parse_phh(EXAMPLE.replace('"p2 f"', '"p2 f\\n"')).actions == play
    # A commentary ends at a newline, so what follows it in the string is an error in that string.
    exc = error_of(EXAMPLE.replace('"p2 f"', '"p2 f # tanked\\np1 cc"'))
    assert (exc.line, exc.expected) == (9, ("the end of the action",))


# ---- the TOML that PHH files are written in -------------------------------------------------

def same_as_tomllib(text: str) -> None:
    """`read_toml` gives what tomllib gives, the types included (1, 1.0 and True are ==), or its
    error; `toml_subset` reads it only where tomllib reads it the same."""
    try:
        expected = repr(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        assert toml_subset(text) is None
        with pytest.raises(tomllib.TOMLDecodeError) as caught:
            read_toml(text)
        assert str(caught.value) == str(exc)
        return
    fast = toml_subset(text)
    assert fast is None or repr(fast) == expected, text
    assert repr(read_toml(text)) == expected


@pytest.mark.parametrize("hands", ["generated", "corpus"])
def test_the_toml_of_phh_files_reads_as_tomllib_reads_it(hands: str, request: pytest.FixtureRequest) -> None:
    texts: list[str] = request.getfixturevalue(hands)
    for text in texts:
        same_as_tomllib(text)
    # Only the play a writer carried whole (`_barge_actions`, inline tables) is left to tomllib.
    assert all(toml_subset(t) is not None for t in texts if "{" not in t)
    assert sum(toml_subset(t) is not None for t in texts) > len(texts) * 3 // 4


OUTSIDE_THE_SUBSET = [
    'a = {b = 1}',                      # an inline table
    "[1]\na = 1",                        # a table
    "[[a]]\nb = 1",                      # an array of tables
    "a.b = 1",                           # a dotted key
    '"a" = 1',                           # a quoted key
    "a = 1979-05-27",                    # a date
    "a = 1979-05-27T07:32:00",           # a date and time
    "a = 07:32:00.5",                    # a time with a fraction
    "a = 7:32:00",
    "a = 24:00:00",
    "a = '''x'''",                       # multi-line strings
    'a = """x"""',
    r'a = "tab\tand \"quotes\""',        # escapes
    r'a = "\u00e9"',
    r'a = "p1 f\n"',
    "a = 0x1F", "a = 0o17", "a = 0b1",   # other bases
    "a = 1_000", "a = 1_0.5",            # underscores
    "a = inf", "a = -nan", "a = +inf",
    "a = [[1, 2], [3]]",                 # nested arrays
    "a = [1, {b = 2}]",
    "a = 1\na = 2",                      # a repeated key: an error
    "a = 1\r\nb = 2",                    # CRLF
    "\ufeffa = 1",
    "a = 01", "a = 1.", "a = .5", "a = 1e", "a = +",
    "a = True", "a = truex", "a = 1 2", "a =", "= 1", "a",
    "a = [1, 2", "a = [,]", "a = [1,,2]", "a = ]",
    'a = "unclosed', "a = 'unclosed",
    'a = "bell\x07"', "a = 'del\x7f'", "# comment \x00",
    "a = [\n  1, # one\n  2,\n]",        # inside the subset, for contrast
    "a = ['x', \"y\", true, -1, +2, 0.5, 1e3, -1.5E-2, 12:00:59]  # all the kinds\n",
    "", "\n\n# only comments\n  \n",
]


@pytest.mark.parametrize("text", OUTSIDE_THE_SUBSET)
def test_toml_outside_the_subset_goes_to_tomllib(text: str) -> None:
    same_as_tomllib(text)


def test_mangled_phh_toml_reads_as_tomllib_reads_it(generated: list[str]) -> None:
    """Characters that matter to TOML put in, taken out or changed at random places of real hands:
    the subset never reads a document otherwise than tomllib does, or one tomllib refuses."""
    rng = random.Random(5)
    documents = [EXAMPLE, *generated[::40]]
    for _ in range(3000):
        text = rng.choice(documents)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            cut = rng.choice((0, 0, 1, 2))
            text = text[:at] + rng.choice("\"'[]{},.=#:+-_ \t\n\r\\0159aeEtfx\x00\x7f") * (cut != 2) \
                + text[at + cut:]
        same_as_tomllib(text)
