"""Reads PartyPoker hand histories in their classic layout: a file's hand blocks, and one block into a
`Hand`.

The LALR parser applies `PartyPokerTransformer` while it parses; 888poker's reading and
`grammar.pokerstars_assembly` build the hand. Errors are `HandSyntaxError`s with the line, the column
and what was expected. The reader is documented in docs/interop.md (PartyPoker).

>>> hand = parse_partypoker(EXAMPLE)
>>> hand.hand_id, hand.variant, hand.structure, hand.currency, hand.rake
('PP-1', 'texas_holdem', 'no-limit', 'USD', 0)
>>> [b.line for b in split_partypoker(["", "Game #1 starts.", "", "#Game No : 1", "a", "Game #2 starts."])]
[2, 6]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from grammar.partypoker_transformer import PartyPokerTransformer
from grammar.pokerstars_assembly import CUT_OFF
from grammar.reading import HandReader
from pipeline.model import Hand
from pipeline.sources import Block

GRAMMAR = Path(__file__).with_name("partypoker.lark")
# A hand's first line: "Game #N starts.", else "#Game No : N", else its title.
# "for Game 9582251255", the newer "For Game 1770659766668adeb0h5qfm"; a conversion names its site after
_TITLE = re.compile(r"\*{5} Hand History (?:for Game \d+|For Game \w+) \*{5}(?: \([\w ]+\))?\s*$")
_FIRST = re.compile(rf"\s*(?:Game #\d+ starts\.|#Game No : \d+|{_TITLE.pattern})")

EXAMPLE = """\
Game #1 starts.

#Game No : 1
***** Hand History for Game 1 *****
$2 USD NL Texas Hold'em - Monday, August 30, 16:08:09 EDT 2010
Table Speed #1769729 (Real Money)
Seat 1 is the button
Total number of players : 2/9
Seat 1: Ann ( $2 USD )
Seat 2: Bo ( $2 USD )
Ann posts small blind [$0.01 USD].
Bo posts big blind [$0.02 USD].
** Dealing down cards **
Dealt to Ann [  Ah Kd ]
Ann raises [$0.05 USD]
Bo folds
Ann does not show cards.
Ann wins $0.04 USD
"""

# What each named terminal means to someone fixing a history by hand.
_DESCRIPTIONS = {
    "INT": "a whole number",
    "MONEY": "an amount",
    "CODE": "a currency such as USD",
    "STRUCTURE": "NL, PL or FL",
    "GAME": "a game such as Texas Hold'em or Omaha",
    "WEEKDAY": "a day of the week",
    "MONTH": "a month",
    "TIME": "a time HH:MM:SS",
    "ZONE": "a time zone",
    "TABLE_NAME": "a table name",
    "KIND": "(Real Money) or (Play Money)",
    "SEAT": "'Seat'",
    "SEAT_NAME": "a player's name followed by their stack in parentheses",
    "STREET": "a street such as 'Dealing Flop'",
    "ACTOR": "a player's name followed by what they do",
    "DEALT_NAME": "a player's name followed by cards",
    "CARD": "a card such as Ah, Td",
    "NOTE": "a note such as 'has joined the table'",
    "_NL": "the end of the line",
    "$END": "the end of the hand",
}


def _cut_off(lines: list[str], line: int) -> bool:
    """An error on the last line of a hand where no pot was won: the file was cut there."""
    return line >= len(lines) and not any(" wins " in row for row in lines)


READER = HandReader(GRAMMAR, PartyPokerTransformer, _DESCRIPTIONS, CUT_OFF, _cut_off)


def parse_partypoker(text: str) -> Hand:
    """Parse one hand block; line numbers in errors count from the block's first line."""
    return READER.parse(text.lstrip("\ufeff"))


def sniff(head: str) -> bool:
    """A PartyPoker history in its classic layout: its first hand's title names no site."""
    lines = [line.replace("\x00", "").strip().lstrip("\ufeff") for line in head.splitlines()
             if line.replace("\x00", "").strip()][:3]
    return any(_TITLE.match(line) for line in lines) and bool(lines) and _FIRST.match(lines[0]) is not None


def split_partypoker(lines: Iterable[str]) -> Iterator[Block]:
    """Hand blocks, from each hand's first line to the next's: blank lines stand inside a hand
    (after "Game #N starts."), so they do not end one. Lines before the first hand are a block of
    their own, refused as what they are."""
    current: list[str] = []
    start, previous = 1, ""
    for number, raw in enumerate(lines, 1):
        # The client writes a NUL byte before some hands' first line: it is no part of the text.
        line = raw.rstrip("\r\n").replace("\x00", "")
        # "#Game No" and the title open a hand unless the line before already opened it
        opens = _FIRST.match(line.lstrip("\ufeff")) is not None and not _FIRST.match(previous)
        if opens and any(r.strip() for r in current):
            yield Block(start, "\n".join(current).strip("\n") + "\n")
            current = []
        if not current:
            start = number
        if line.strip() or current:
            current.append(line)
            previous = line.lstrip("\ufeff") if line.strip() else previous
        else:
            start = number + 1
    if any(r.strip() for r in current):
        yield Block(start, "\n".join(current).strip("\n") + "\n")
