"""Reads Bovada, Ignition and Bodog hand histories: a file's hand blocks, and one block into a `Hand`.

The LALR parser applies `BovadaTransformer` while it parses; errors are `HandSyntaxError`s with the
line, the column and what was expected, and a hand cut off before its summary is refused with that
reason. The reader is documented in docs/interop.md (Bovada, Ignition and Bodog).

>>> hand = parse_bovada(EXAMPLE)
>>> hand.hand_id, hand.variant, hand.site, hand.currency, hand.button_seat
('BOV-3340409736', 'texas_holdem', 'Ignition', 'USD', 6)
>>> [(a.kind, a.player) for a in hand.actions if a.kind in ("post", "fold")][1:3]
[('post', 'Hero'), ('fold', 'Dealer (3340409736)')]
>>> [b.line for b in split_bovada(EXAMPLE.splitlines(keepends=True) + ["\\n"] + EXAMPLE.splitlines())]
[1, 21]
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from grammar.bovada_transformer import BOVADA, BovadaTransformer
from grammar.pokerstars_assembly import CUT_OFF
from grammar.reading import HandReader
from pipeline.model import Hand
from pipeline.sources import split_blocks

GRAMMAR = Path(__file__).with_name("bovada.lark")

EXAMPLE = """\
Ignition Hand #3340409736 TBL#10916521 HOLDEM No Limit - 2016-08-09 12:41:32
Seat 1: Small Blind ($50.65 in chips)
Seat 4: Big Blind [ME] ($50 in chips)
Seat 6: Dealer ($49.25 in chips)
Dealer : Set dealer [6]
Small Blind : Small Blind $0.25
Big Blind  [ME] : Big blind $0.50
*** HOLE CARDS ***
Small Blind : Card dealt to a spot [9c Th]
Big Blind  [ME] : Card dealt to a spot [9d 9s]
Dealer : Card dealt to a spot [4c Kd]
Dealer : Folds
Small Blind : Folds
Big Blind  [ME] : Does not show [9d 9s] (High Card)
Big Blind  [ME] : Hand result $0.75
*** SUMMARY ***
Total Pot($0.75)
Seat+1: Small Blind Folded before the FLOP
Seat+4: Big Blind $0.75 [Does not show]
"""

# What each named terminal means to someone fixing a history by hand.
_DESCRIPTIONS = {
    "SITE": "a hand header such as 'Bovada Hand #'",
    "GAME": "a game such as HOLDEM or OMAHA HiLo",
    "STRUCTURE": "No Limit, Pot Limit or Fixed Limit",
    "TOURNEY_KIND": "the tournament's structure or speed, such as Turbo",
    "TOURNEY_ID": "a tournament number",
    "MVS": "'[MVS]'",
    "DATE": "a date YYYY-MM-DD",
    "TIME": "a time HH:MM:SS",
    "ZONE": "a time zone such as UTC",
    "SEAT_NUMBER": "'Seat N:'",
    "STUD_SEAT": "'Seat+N:'",
    "NAME": "a position such as Big Blind or UTG+1",
    "STREET_NAME": "a street name such as FLOP",
    "INFO": "a table's information line",
    "TABLE_NOTE": "a line about the table (arrivals, departures)",
    "SET_DEALER": "'Set dealer'",
    "SMALL_BLIND": "'Small Blind'",
    "BIG_BLIND": "'Big blind'",
    "FOLDS": "'Folds'",
    "CHECKS": "'Checks'",
    "CALLS": "'Calls'",
    "BETS": "'Bets'",
    "RAISES": "'Raises'",
    "ALL_IN": "'All-in'",
    "ALL_IN_RAISE": "'All-in(raise)'",
    "SHOWDOWN": "'Showdown'",
    "POT_WORD": "'-Side pot'",
    "HAND_RESULT": "'Hand result'",
    "PRIZE": "a prize or ranking",
    "PRESENCE": "a player's coming or going",
    "DESCRIPTION": "a hand description in parentheses",
    "SUMMARY": "'*** SUMMARY ***'",
    "SUMMARY_SEAT": "a seat's summary",
    "CARD": "a card such as Ah, Td",
    "MONEY": "an amount",
    "INT": "a whole number",
    "_NL": "the end of the line",
    "$END": "the end of the hand",
}


def _cut_off(lines: list[str], line: int) -> bool:
    """An error on the last line of a hand with no summary: the file was cut there."""
    return line >= len(lines) and not any(row.strip() == "*** SUMMARY ***" for row in lines)


READER = HandReader(GRAMMAR, BovadaTransformer, _DESCRIPTIONS, CUT_OFF, _cut_off)


def parse_bovada(text: str) -> Hand:
    """Parse one hand block; line numbers in errors count from the block's first line."""
    return READER.parse(text.replace("\u00a0", " ").lstrip("\ufeff"))


def is_header(line: str) -> bool:
    return BOVADA.header.match(line.strip().lstrip("\ufeff")) is not None


def sniff(head: str) -> bool:
    """A Bovada, Ignition or Bodog history: its first non-blank line is such a hand's header."""
    return next((is_header(line) for line in head.splitlines() if line.strip()), False)


split_bovada = partial(split_blocks, starts=is_header)
