"""Reads 888poker hand histories (and those of its Cassava software and regional sites): a file's hand
blocks, and one block into a `Hand`.

The LALR parser applies `Poker888Transformer` while it parses, and `grammar.pokerstars_assembly`
builds the hand. Errors are `HandSyntaxError`s with the line, the column and what was expected; a
hand cut off before its summary, or one 888 cancelled, is refused with that reason. The reader is
documented in docs/interop.md (888poker).

>>> hand = parse_888(EXAMPLE)
>>> hand.hand_id, hand.variant, hand.structure, hand.currency, [a.kind for a in hand.actions]
('888-1', 'texas_holdem', 'no-limit', 'USD', ['post', 'post', 'deal', 'raise', 'fold', 'return'])
>>> [b.line for b in split_888(["#Game No : 1", "a", "#Game No : 2", "b", "", "", "#Game No : 3"])]
[1, 3, 7]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from grammar.poker888_transformer import DIALECT, Poker888Transformer
from grammar.pokerstars_assembly import CUT_OFF
from grammar.reading import HandReader
from pipeline.model import Hand
from pipeline.sources import Block, split_blocks

GRAMMAR = Path(__file__).with_name("poker888.lark")
# A hand's first line: "#Game No : 418361264", or its title when a file leaves that line out.
_GAME_NUMBER = re.compile(r"#Game No : \d+\s*$")

EXAMPLE = """\
#Game No : 1
***** 888poker Hand History for Game 1 *****
$1/$2 Blinds No Limit Holdem - *** 24 04 2025 17:21:34
Table Olga 6 Max (Real Money)
Seat 1 is the button
Total number of players : 2
Seat 1: Ann ( $200 )
Seat 2: Bo ( $200 )
Ann posts small blind [$1]
Bo posts big blind [$2]
** Dealing down cards **
Dealt to Ann [ Ah, Kd ]
Ann raises [$5]
Bo folds
** Summary **
Ann did not show his hand
Ann collected [ $4 ]
"""

# What each named terminal means to someone fixing a history by hand.
_DESCRIPTIONS = {
    "SITE": "the site's name in '***** 888poker Hand History for Game N *****'",
    "INT": "a whole number",
    "MONEY": "an amount",
    "STRUCTURE": "No Limit, Pot Limit or Fix Limit",
    "GAME": "a game such as Holdem or Omaha",
    "JACKPOT": "'Jackpot table'",
    "DATE": "a date DD MM YYYY",
    "TIME": "a time HH:MM:SS",
    "TABLE_NAME": "a table name",
    "TOURNAMENT": "'Tournament #'",
    "BUY_IN": "a buy-in such as '$10 + $1'",
    "MAX_SEATS": "the table size such as '6 Max'",
    "KIND": "(Real Money) or (Practice Play)",
    "SEAT_NAME": "a player's name followed by their stack in parentheses",
    "STREET": "a street such as 'Dealing flop'",
    "SUMMARY": "'** Summary **'",
    "ACTOR": "a player's name followed by what they do",
    "DEALT_NAME": "a player's name followed by cards",
    "DESCRIPTION": "a hand's cards such as '(Hi: Jd, Jc, 2d, 2s, Ks)'",
    "CARD": "a card such as Ah, Td",
    "_NL": "the end of the line",
    "$END": "the end of the hand",
}


def _cut_off(lines: list[str], line: int) -> bool:
    """An error on the last line of a hand with no summary: the file was cut there."""
    return line >= len(lines) and not any(row.strip() == "** Summary **" for row in lines)


READER = HandReader(GRAMMAR, Poker888Transformer, _DESCRIPTIONS, CUT_OFF, _cut_off)


def parse_888(text: str) -> Hand:
    """Parse one hand block; line numbers in errors count from the block's first line."""
    return READER.parse(text.lstrip("\ufeff"))


def _starts(line: str) -> bool:
    return _GAME_NUMBER.match(line.lstrip("\ufeff")) is not None


def sniff(head: str) -> bool:
    """An 888poker history: it opens with a hand's title ("***** 888poker Hand History for Game N *****"),
    alone or after its "#Game No : N" line (PartyPoker writes that line too, with a title naming no site)."""
    lines = [line.strip().lstrip("\ufeff") for line in head.splitlines() if line.strip()][:2]
    if lines and _starts(lines[0]):
        lines = lines[1:]
    return bool(lines) and DIALECT.header.match(lines[0]) is not None


def split_888(lines: Iterable[str]) -> Iterator[Block]:
    """Hand blocks: runs of non-blank lines, also cut where a "#Game No" line begins the next hand."""
    return split_blocks(lines, _starts)
