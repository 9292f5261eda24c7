"""Reads one hand of the native BARGE format into a `Hand`, or raises `HandSyntaxError`.

The LALR parser applies `BargeTransformer` while it parses, so no parse tree is built.

>>> hand = parse_hand(EXAMPLE)
>>> hand.variant, [a.kind for a in hand.actions]
('texas_holdem', ['post', 'post', 'raise', 'fold', 'return'])
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lark import Lark, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from grammar.barge_transformer import BargeTransformer
from grammar.errors import HandSyntaxError
from pipeline.model import Hand

GRAMMAR = Path(__file__).with_name("barge.lark")
HEADER_PREFIX = "BARGE Hand #"

EXAMPLE = """\
BARGE Hand #demo-1: texas_holdem no-limit (blinds 100/200)
Seat 1: Ann (5,000 in chips)
Seat 2: Bo (5,000 in chips)
Ann: posts small blind 100
Bo: posts big blind 200
*** HOLE CARDS ***
Ann: raises 400 to 600
Bo: folds
Uncalled bet (400) returned to Ann
Ann collected 400 from pot
"""

# What each named terminal means to someone fixing a history by hand.
_DESCRIPTIONS = {
    "CARD": "a card such as Ah, Td or ??",
    "NUMBER": "an amount",
    "INT": "a whole number",
    "HAND_ID": "a hand number",
    "VARIANT": "a variant id such as texas_holdem",
    "STRUCTURE": "limit, pot-limit or no-limit",
    "DATE": "a date YYYY-MM-DD",
    "TIME": "a time HH:MM:SS",
    "TEXT": "text",
    "PROFILE": "a rules profile such as barge-2025",
    "OPTION_KEY": "a rules option name",
    "OPTION_VALUE": "a rules option value",
    "TABLE_NAME": "a table name",
    "MAX_SEATS": "the table size such as 9-max",
    "SITTING_OUT": "'is sitting out'",
    "ALL_IN": "'and is all-in'",
    "FACE": "'up' or 'down'",
    "STREET_NAME": "a street name such as FLOP",
    "BOARD_NAME": "a board name",
    "DESCRIPTION": "a hand description in parentheses",
    "PORTION": "the portion in parentheses, such as (high)",
    "SEAT": "'Seat'",
    "DEALER": "'Dealer:'",
    "NOTE": "'Note:'",
    "FLOOR": "'Floor:'",
    "ACTOR": "a player's name followed by ':'",
    "SEAT_NAME": "a player's name followed by their stack in parentheses",
    "DEALT_NAME": "a player's name followed by cards",
    "COLLECTOR": "a player's name followed by 'collected'",
    "FINAL_NAME": "a player's name followed by 'ends with'",
    "LINE_NAME": "a player's name",
    "_NL": "the end of the line",
    "$END": "the end of the hand",
}


@cache
def _parser() -> Lark:
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        transformer=BargeTransformer(),
        cache=False,
    )


def _describe(name: str) -> str:
    if name in _DESCRIPTIONS:
        return _DESCRIPTIONS[name]
    try:
        pattern = _parser().get_terminal(name).pattern
    except KeyError:
        return name
    return f"'{pattern.value}'" if pattern.type == "str" else name


def _expected(names: set[str] | frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted({_describe(n) for n in names}))


def _word_at(text: str, line: int, column: int) -> str:
    """The whole word around an error position, so "too" is reported rather than its "o"."""
    row = (text.splitlines() or [""])[line - 1] if line - 1 < len(text.splitlines()) else ""
    lo = hi = max(column - 1, 0)
    if lo >= len(row):
        return ""
    while lo > 0 and row[lo - 1] not in " [(":
        lo -= 1
    while hi < len(row) and row[hi] not in " ])":
        hi += 1
    word = row[lo:hi]
    return word if len(word) <= 40 else word[:37] + "..."


def _end_error(text: str, expected: set[str] | frozenset[str]) -> HandSyntaxError:
    lines = text.splitlines() or [""]
    return HandSyntaxError("the hand ends too early", len(lines), len(lines[-1]) + 1, _expected(expected))


def _convert(exc: UnexpectedInput, text: str) -> HandSyntaxError:
    if isinstance(exc, UnexpectedEOF):
        return _end_error(text, set(exc.expected))
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        return _end_error(text, exc.accepts or exc.expected)
    line, column = exc.line or 1, exc.column or 1
    if isinstance(exc, UnexpectedCharacters):
        expected = _expected(exc.allowed or set())
    else:
        assert isinstance(exc, UnexpectedToken)
        expected = _expected(exc.accepts or exc.expected)
    word = _word_at(text, line, column)
    return HandSyntaxError(f"unexpected {repr(word) if word else 'end of the line'}", line, column, expected)


def parse_hand(text: str) -> Hand:
    """Parse one hand block; line numbers in errors count from the block's first line."""
    if not text.endswith("\n"):
        text += "\n"
    try:
        hand = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _convert(exc, text) from None
    assert isinstance(hand, Hand)  # the transformer's `start` builds it
    return hand
