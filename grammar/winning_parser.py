"""Reads the Winning Poker Network's hand histories (Americas Cardroom and its skins) in their modern
shape: a file's hand blocks, and one block into a `Hand`.

The LALR parser applies `WinningTransformer` while it parses, so no parse tree is built. Errors are
`HandSyntaxError`s with the line, the column and what was expected; a hand cut off before its summary
is refused with that reason. The reader is documented in docs/interop.md (Winning Poker Network).

>>> hand = parse_winning(EXAMPLE)
>>> hand.hand_id, hand.variant, hand.site, hand.currency, [a.kind for a in hand.actions]
('WPN-1', 'texas_holdem', 'Winning Poker Network', 'USD', ['post', 'post', 'raise', 'fold', 'return'])
>>> [b.line for b in split_winning(["Hand #1 - x", "a", "Hand #2 - y", "", "b", "Game started at: 2016/8/2"])]
[1, 3, 6]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from grammar.errors import HandSyntaxError
from grammar.pokerstars_assembly import CUT_OFF
from grammar.pokerstars_dialects import WINNING
from grammar.pokerstars_names import unmask
from grammar.reading import HandReader
from grammar.winning_transformer import UNNAMED, WinningClassicTransformer, WinningTransformer
from pipeline.model import Hand
from pipeline.sources import Block

GRAMMAR = Path(__file__).with_name("winning.lark")
CLASSIC_GRAMMAR = Path(__file__).with_name("winning_classic.lark")
# The older shape's first line
CLASSIC = re.compile(r"Game started at: \d{4}/")
# Its seat lines give the names: "Seat 1: Sean LeBlanc (100)."
_SEATED = re.compile(r"^Seat \d+: (.+?) \(\$?\d[\d,.]*\)\.[ \t]*$", re.M)
# A line that leaves its player's name out: "Player  has big blind (2)", "returned to" at its end
_UNNAMED = re.compile(r"^(\*?Player) (?= )|(?<=returned to)([ \t]*)$", re.M)
_SPACE = "\ue006"
# A UTF-16 file with an odd byte at its end: the byte decodes as the replacement character.
_LOST_BYTE = "\ufffd"  # grammar.pokerstars_names' mask of a space in a name

EXAMPLE = """\
Hand #1 - Holdem(No Limit) - $0.01/$0.02 - 2019/11/08 04:43:23 UTC
Miramar 9-max Seat #1 is the button
Seat 1: Ann ($2.00)
Seat 2: Bo ($2.00)
Ann posts the small blind $0.01
Bo posts the big blind $0.02
*** HOLE CARDS ***
Ann raises $0.05 to $0.06
Bo folds
Uncalled bet ($0.04) returned to Ann
Ann does not show
*** SUMMARY ***
Total pot $0.04
Seat 1: Ann (button) (small blind) did not show and won $0.04
Seat 2: Bo (big blind) folded on the Pre-Flop
"""

_DESCRIPTIONS = {
    "SITE": "a hand header such as 'Hand #1'",
    "INT": "a whole number",
    "TOURNEY": "'Tournament #'",
    "GAME": "a game such as Holdem",
    "STRUCTURE": "Fixed Limit, Pot Limit or No Limit",
    "LEVEL": "'Level'",
    "MONEY": "an amount",
    "DATE": "a date YYYY/MM/DD",
    "TIME": "a time HH:MM:SS",
    "ZONE": "a time zone such as UTC",
    "TABLE_NAME": "a table name followed by its size such as 6-max",
    "MAX_SEATS": "the table size such as 6-max",
    "SEAT": "'Seat'",
    "NAME": "a player's name",
    "MARKER": "a street marker such as *** FLOP ***",
    "POT_SO_FAR": "the pot so far such as 'Main pot $1.00'",
    "CARD": "a card such as Ah, Td",
    "DESCRIPTION": "a hand description in parentheses",
    "HAND_TEXT": "a hand description",
    "FOLD_POINT": "the street such as Pre-Flop",
    "POT_NAME": "a pot such as 'main pot'",
    "SUMMARY": "'*** SUMMARY ***'",
    "_NL": "the end of the line",
    "$END": "the end of the hand",
}


def _cut_off(lines: list[str], line: int) -> bool:
    """An error on the last line of a hand with no summary: the file was cut there."""
    return line >= len(lines) and not any(row.strip() == "*** SUMMARY ***" for row in lines)


def _classic_cut_off(lines: list[str], line: int) -> bool:
    """An error on the last line of a hand that never ends ("Game ended at"): the file was cut there."""
    return line >= len(lines) and not any(row.startswith("Game ended at:") for row in lines)


READER = HandReader(GRAMMAR, WinningTransformer, _DESCRIPTIONS, CUT_OFF, _cut_off)
CLASSIC_READER = HandReader(CLASSIC_GRAMMAR, WinningClassicTransformer, _DESCRIPTIONS, CUT_OFF,
                            _classic_cut_off)


def _mask(text: str) -> str:
    """The older shape's lines with each seated name that holds a space written as one word where a
    name stands (after "Seat N: ", "Player ", "returned to "), the columns unchanged, and a name a
    line leaves out written as `UNNAMED` (one character more on that line)."""
    names = sorted({n for n in _SEATED.findall(text) if " " in n}, key=len, reverse=True)
    if names:
        found = re.compile(r"(^Seat \d+: |^\*?Player |returned to )(" + "|".join(map(re.escape, names))
                           + r")(?= )", re.M)
        text = found.sub(lambda m: m.group(1) + m.group(2).replace(" ", _SPACE), text)
    return _UNNAMED.sub(lambda m: (m.group(1) or "") + " " + UNNAMED, text)


def parse_winning(text: str) -> Hand:
    """Parse one hand block, of either shape; line numbers in errors count from the block's first line."""
    text = text.replace("\u00a0", " ").lstrip("\ufeff")
    if not CLASSIC.match(text):
        return READER.parse(text)
    masked = _mask(text)
    try:
        return CLASSIC_READER.parse(masked)
    except HandSyntaxError as exc:
        raise HandSyntaxError(unmask(exc.message).replace(UNNAMED, ""), exc.line, exc.column,
                              exc.expected) from None


def _header(line: str) -> bool:
    line = line.strip().lstrip("\ufeff")
    return WINNING.header.match(line) is not None or CLASSIC.match(line) is not None


def sniff(head: str) -> bool:
    """A Winning Poker Network history: its first non-blank line is a hand header of either shape."""
    return _header(next((line for line in head.splitlines() if line.strip()), ""))


def split_winning(lines: Iterable[str]) -> Iterator[Block]:
    """Hand blocks: each from a header to the next one. Blank lines end no hand: the files write hands
    one after the other, with or without blank lines between them, and the older shape's UTF-16 files
    a blank line between every two lines. A lost byte at the end of a UTF-16 file is no line."""
    current: list[str] = []
    start = 0
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if line.strip() == _LOST_BYTE:
            continue
        if current and _header(line):
            yield Block(start, "\n".join(current) + "\n")
            current = []
        if not line.strip():
            continue
        if not current:
            start = number
        current.append(line)
    if current:
        yield Block(start, "\n".join(current) + "\n")
