"""Reads one PHH hand (the PokerKit hand-history standard) into a `Hand`, or raises
`HandSyntaxError` with the line, the column and what was expected.

A block is a `.phh` file or one `[N]` section of a `.phhs` bulk file.  The container is TOML
(`phh_toml`: the TOML that PHH files use, anything else by `tomllib`); the strings of
`actions` are read by `phh_play.read_steps`, or by the grammar `phh_actions.lark` (all of a
hand's in one parse; `phh_transformer` turns them into steps), and the errors are told here; the
fields and the play become the hand in `phh_hand` and `phh_play`.  How PHH fields map onto the
model, the seat and button convention and the hand ids: docs/interop.md, "PHH".

>>> hand = parse_phh(EXAMPLE)
>>> hand.variant, hand.structure, hand.button_seat, [s.player for s in hand.seats]
('texas_holdem', 'no-limit', 3, ['Phil Ivey', 'Patrik Antonius', 'Tom Dwan'])
>>> [a.kind for a in hand.actions if a.player == "Tom Dwan"]
['ante', 'deal', 'raise', 'call', 'call', 'raise', 'call', 'show']
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lark import PostLex

from grammar.errors import HandSyntaxError
from grammar.phh_hand import BARGE_PREFIX as BARGE_PREFIX  # read by the writer from here
from grammar.phh_hand import PLAY_COLUMNS as PLAY_COLUMNS  # named by the writer
from grammar.phh_hand import REQUIRED, Located, hand_of, setup_of
from grammar.phh_hand import metadata_fields as metadata_fields  # read by the writer from here
from grammar.phh_play import PHH_VARIANTS, Step, read_steps
from grammar.phh_toml import read_toml
from grammar.phh_toml import toml_subset as toml_subset  # read by the tests from here too
from grammar.phh_transformer import StepTransformer
from grammar.reading import HandReader
from pipeline.model import Hand
from pipeline.sources import Block

GRAMMAR = Path(__file__).with_name("phh_actions.lark")
EXAMPLE = """\
# A big pot between Dwan and Ivey (phh-std, "Motivational Examples").
variant = "NT"
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = [
  "d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h6h",
  "p3 cbr 7000", "p1 cbr 23000", "p2 f", "p3 cc",
  "d db Jc3d5c", "p1 cbr 35000", "p3 cc",
  "d db 4h", "p1 cbr 90000", "p3 cbr 232600", "p1 cbr 1067100", "p3 cc",
  "p1 sm Ac2d", "p3 sm 7h6h",
  "d db Jh",
]
event = "Million Dollar Cash Game"
year = 2009
players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]
"""

_DESCRIPTIONS = {
    "PLAYER": "a player such as p1",
    "CARDS": "cards such as AcKs or ????",
    "AMOUNT": "an amount",
    "DEALER": "'d' (the dealer)",
    "DASH": "'-' (the cards already dealt)",
    "COMMENTARY": "'# commentary'",
    "$END": "the end of the action",
    **{f"_{verb.upper()}": f"'{verb}'" for verb in ("db", "dh", "pb", "cbr", "cc", "f", "sd", "sm")},
}


# ---- errors ---------------------------------------------------------------------------------

def _toml_error(exc: tomllib.TOMLDecodeError, text: str) -> HandSyntaxError:
    message = str(exc)
    match = re.search(r"\(at line (\d+), column (\d+)\)|\(at end of document\)", message)
    reason = message[:match.start()].strip() if match else message
    if match and match.group(1):
        line, column = int(match.group(1)), int(match.group(2))
    else:
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    expected: tuple[str, ...]
    if reason.startswith("Expected "):
        expected = (reason[len("Expected "):],)
    elif "nclosed array" in reason:
        expected = ("',' or ']' closing the array",)
    elif "nclosed inline table" in reason:
        expected = ("',' or '}' closing the table",)
    elif "nterminated string" in reason or "string" in reason.lower():
        expected = ("the closing quote of the string",)
    else:
        expected = ("a TOML value: a number, a \"string\", an [array] or true/false",) \
            if "value" in reason.lower() else ("a 'key = value' line or a [section] header",)
    return HandSyntaxError(f"not valid TOML: {reason}", line, column, expected)


# ---- the action notation --------------------------------------------------------------------

ACTIONS = HandReader(GRAMMAR, StepTransformer, _DESCRIPTIONS)


class _OneString(PostLex):
    """Reads one string alone: its newlines are dropped before the parser sees them, so that
    they are the spaces they always were and a string is one `line`, whatever it holds."""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return (token for token in stream if token.type != "_NL")


@cache
def _one_string() -> Lark:
    """The grammar of `ACTIONS` for one string at a time: where a hand's strings cannot be read
    together, and for the errors, which are told string by string."""
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                transformer=StepTransformer(), postlex=_OneString(), cache=False)


def _describe(names: Iterable[str]) -> tuple[str, ...]:
    # A string alone may always hold a newline (it is dropped), so "_NL" is in every expected
    # set; it is never what a string lacks.
    return ACTIONS.expected(set(names) - {"_NL"})


def _step_error(exc: UnexpectedInput, text: str, line: int, column: int) -> HandSyntaxError:
    names: Iterable[str] = ()
    if isinstance(exc, UnexpectedEOF):
        names = exc.expected
    elif isinstance(exc, UnexpectedToken):
        names = exc.accepts or exc.expected
    elif isinstance(exc, UnexpectedCharacters):
        names = exc.allowed or ()
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        end = len(text.rstrip()) + 1
        return HandSyntaxError(f"action {text!r} ends too early", line, column + end - 1, _describe(names))
    where = (exc.column or 1) if "\n" not in text else 1
    rest = text[where - 1:].split()
    return HandSyntaxError(f"unexpected {rest[0] if rest else ''!r} in action {text!r}", line,
                           column + where - 1, _describe(names))


def parse_step(text: str, line: int = 1, column: int = 1) -> Step:
    """One string of `actions`; errors are placed at `line`/`column` + the offset in the string."""
    try:
        steps = _one_string().parse(text)
    except UnexpectedInput as exc:
        raise _step_error(exc, text, line, column) from None
    except HandSyntaxError as exc:  # an amount with too many decimals
        raise HandSyntaxError(exc.message, line, column + exc.column - 1, exc.expected) from None
    assert isinstance(steps, list) and len(steps) == 1
    return steps[0]


def parse_steps(texts: list[str]) -> list[Step] | None:
    """All the strings of `actions`: by `phh_play.read_steps` when they are written the usual way,
    else in one parse of the grammar, joined by newlines, with Lark's compiled plugin where
    `grammar.reading` uses it; None when one of them is not an action (each is then read alone,
    to tell where) or holds a newline itself (which would end its line: it is read alone, where
    a newline is a space)."""
    steps = read_steps(texts)
    if steps is not None:
        return steps
    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1:
        return None
    compiled = ACTIONS.fast()
    try:
        parsed = (compiled or ACTIONS.lark).parse(joined)
    except Exception:  # a bad string, or the plugin failing: told string by string, by plain Lark
        return None
    assert isinstance(parsed, list) and len(parsed) == len(texts)
    return parsed


# ---- the strings of `actions` ---------------------------------------------------------------

def _steps(data: Mapping[str, Any], n: int, where: Located) -> list[Step]:
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise where.error("actions", "actions must be an array of strings", ('["d dh p1 AcKs", ...]',))
    together = parse_steps(actions)
    # Where each string is: only an error needs it, so a hand read together does not look.
    places = _places(where, len(actions)) if together is None else []
    steps = []
    for k, text in enumerate(actions):
        # Read alone, in order, a string's error comes before the next string is read.
        step = together[k] if together is not None else parse_step(text, *places[k])
        if step.player is not None and step.player >= n:
            line, column = (places or _places(where, len(actions)))[k]
            raise HandSyntaxError(f"p{step.player + 1} in {text!r}: the hand has {n} players", line, column,
                                  (f"p1 to p{n}",))
        steps.append(step)
    return steps


def _places(where: Located, count: int) -> list[tuple[int, int]]:
    """(line, column) of each of the `count` strings of `actions` (of the key, past those found)."""
    places = where.strings("actions")
    return places + [where.key("actions")] * (count - len(places))


# ---- the hand -------------------------------------------------------------------------------

def _document(text: str) -> dict[str, Any]:
    try:
        data = read_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(exc, text) from None
    if "variant" not in data:
        tables = [v for v in data.values() if isinstance(v, dict)]
        if len(data) == 1 and len(tables) == 1:
            data = tables[0]  # one [N] section of a .phhs file
    if "variant" not in data:
        raise HandSyntaxError("no PHH hand here: a hand starts with its variant", 1, 1,
                              ('variant = "NT" (or another PHH variant code)',
                               "one [N] section of a .phhs file"))
    return data


def play_end(text: str) -> tuple[int, int]:
    """Where the play of a PHH hand stops: the line and column of the last string of `actions`
    (of the `actions` key when it is empty), for a hand cut off there (`pipeline.formats`)."""
    where = Located(text)
    places = where.strings("actions")
    return places[-1] if places else where.key("actions")


def parse_phh(text: str) -> Hand:
    """Parse one PHH hand (a `.phh` file or one `[N]` section); lines count from the block."""
    data = _document(text)
    where = Located(text)
    code = data["variant"]
    if code not in PHH_VARIANTS:
        raise where.error("variant", f"unknown PHH variant {code!r}", tuple(PHH_VARIANTS))
    for name in REQUIRED[code]:
        if name not in data:
            raise HandSyntaxError(f"missing field {name}, which variant {code} requires", 1, 1,
                                  (f"{name} = ...",))
    setup, stakes = setup_of(data, code, where)
    steps = _steps(data, len(setup.names), where)
    return hand_of(data, code, setup, stakes, steps, where)




# ---- files ----------------------------------------------------------------------------------

_SECTION = re.compile(
    r"""^[ \t]*\[[ \t]*(?:[A-Za-z0-9\-][\w\-]*|"[^"\n]*"|'[^'\n]*')[ \t]*\][ \t]*(?:#.*)?$""")
_VARIANT_LINE = re.compile(r"""^[ \t]*variant[ \t]*=[ \t]*["']""", re.M)
_ACTIONS_LINE = re.compile(r"^[ \t]*actions[ \t]*=[ \t]*\[", re.M)
_FIRST_SECTION = re.compile(r"^[ \t]*\[[ \t]*1[ \t]*\][ \t]*$", re.M)


def sniff(head: str) -> bool:
    """A PHH file: TOML with `variant = "..."` and `actions = [`, or a `.phhs` `[1]` section."""
    if not _VARIANT_LINE.search(head):
        return False
    return bool(_ACTIONS_LINE.search(head) or _FIRST_SECTION.search(head))


def _starts_section(line: str) -> bool:
    """A `[N]` header starts a hand; `[_name]` (a user-defined table) belongs to the hand."""
    return bool(_SECTION.match(line)) and not line.strip().lstrip("[").strip().startswith(("_", '"_', "'_"))


def split_phh(lines: Iterable[str]) -> Iterator[Block]:
    """One block per `[N]` section of a `.phhs` file: the lines after its header, so that the same
    hand at another place of another file is the same text (a duplicate, not a clash); a `.phh`
    file, without sections, is one block.  Comments and blank lines before the first section
    belong to no hand."""
    current: list[str] = []
    start = 1
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n").lstrip("\ufeff") if number == 1 else raw.rstrip("\r\n")
        if _starts_section(line):
            if any(_content(x) for x in current):
                yield Block(start, "\n".join(current) + "\n")
            current, start = [], number + 1
            continue
        current.append(line)
    if any(_content(x) for x in current):
        yield Block(start, "\n".join(current) + "\n")


def _content(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")
