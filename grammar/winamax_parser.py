"""Reads Winamax hand histories: a file's hand blocks, and one block into a `Hand`.

The LALR parser applies `WinamaxTransformer` while it parses; errors are `HandSyntaxError`s with
the line, the column and what was expected, and a hand cut off before its summary is refused
with that reason. The reader is documented in docs/interop.md (Winamax).

>>> hand = parse_winamax(EXAMPLE)
>>> hand.hand_id, hand.variant, hand.site, hand.currency
('WMX-6935619-5785-1419437602', 'omaha', 'Winamax', 'EUR')
>>> [a.kind for a in hand.actions]
['post', 'post', 'deal', 'raise', 'fold', 'fold', 'return']
>>> [b.line for b in split_winamax(EXAMPLE.splitlines(keepends=True) + ["\\n", "\\n"] + EXAMPLE.splitlines())]
[1, 20]
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from grammar.errors import HandSyntaxError
from grammar.pokerstars_assembly import CUT_OFF
from grammar.pokerstars_names import WINAMAX as NAMES
from grammar.pokerstars_names import unmask
from grammar.reading import HandReader
from grammar.winamax_transformer import WINAMAX, WinamaxTransformer
from pipeline.model import Hand
from pipeline.sources import split_blocks

GRAMMAR = Path(__file__).with_name("winamax.lark")

EXAMPLE = "Winamax Poker - CashGame - HandId: #6935619-5785-1419437602 - Omaha pot limit (2€/4€) - " + """\
2014/12/24 16:13:22 UTC
Table: 'Wloclawek' 5-max (real money) Seat #3 is the button
Seat 3: Incognito 3 (1268.38€)
Seat 4: Incognito 4 (679€)
Seat 5: Hero (474.50€)
*** ANTE/BLINDS ***
Incognito 4 posts small blind 2€
Hero posts big blind 4€
Dealt to Hero [4c Qc 4h Qd]
*** PRE-FLOP ***
Incognito 3 raises 8€ to 12€
Incognito 4 folds
Hero folds
Incognito 3 collected 18€ from pot
*** SUMMARY ***
Total pot 18€ | No rake
Seat 3: Incognito 3 (button) won 18€
"""

# What each named terminal means to someone fixing a history by hand.
_DESCRIPTIONS = {
    "SITE": "'Winamax Poker'",
    "CASH_GAME": "'CashGame'",
    "FAST_ROOM": "'Go Fast'",
    "TOURNAMENT": "'Tournament'",
    "QUOTED": "a name in double quotes",
    "BUY_IN": "a buy-in",
    "HAND_NUMBER": "a hand number such as #6935619-5785-1419437602",
    "GAME": "a game such as Holdem or Omaha",
    "STRUCTURE": "no limit, pot limit or fixed limit",
    "DATE": "a date YYYY/MM/DD",
    "TIME": "a time HH:MM:SS",
    "ZONE": "a time zone such as UTC",
    "TABLE": "'Table:'",
    "TABLE_NAME": "a table name in quotes",
    "MAX_SEATS": "the table size such as 6-max",
    "TABLE_KIND": "(real money) or (play money)",
    "SEAT_WORD": "'Seat'",
    "NAME": "a player's name",
    "STREET_NAME": "a street name such as FLOP",
    "SUMMARY": "'*** SUMMARY ***'",
    "COLLECTOR": "a player's name followed by 'collected'",
    "ACTOR": "a player's name followed by what they do",
    "OUT_OF_POSITION": "'out of position'",
    "DENIES": "'denies'",
    "BLIND": "small blind or big blind",
    "ALL_IN": "'and is all-in'",
    "CARD_WORD": "'cards'",
    "DESCRIPTION": "a hand description in parentheses",
    "HALF": "(HI) or (LO)",
    "ROLE": "a role such as (button)",
    "FOLD_POINT": "when the player folded, such as 'on the flop'",
    "HAND_TEXT": "a hand description",
    "NO_RAKE": "'No rake'",
    "ROUNDED": "a rounded amount such as 6.02k",
    "CARD": "a card such as Ah, Td",
    "UNNAMED_CARD": "an unseen card (X)",
    "MONEY": "an amount",
    "INT": "a whole number",
    "_NL": "the end of the line",
    "$END": "the end of the hand",
}


def _cut_off(lines: list[str], line: int) -> bool:
    """An error on the last line of a hand with no summary: the file was cut there."""
    return line >= len(lines) and not any(row.strip() == "*** SUMMARY ***" for row in lines)


READER = HandReader(GRAMMAR, WinamaxTransformer, _DESCRIPTIONS, CUT_OFF, _cut_off)


def parse_winamax(text: str) -> Hand:
    """Parse one hand block; line numbers in errors count from the block's first line."""
    text = text.replace("\u00a0", " ").lstrip("\ufeff")
    masked = NAMES.mask(text)  # a seated name is one word wherever it stands (grammar.pokerstars_names)
    try:
        return READER.parse(masked)
    except HandSyntaxError as exc:
        raise HandSyntaxError(unmask(exc.message), exc.line, exc.column, exc.expected) from None


def is_header(line: str) -> bool:
    return WINAMAX.header.match(line.strip().lstrip("\ufeff")) is not None


def sniff(head: str) -> bool:
    """A Winamax history: its first non-blank line is a Winamax hand's header."""
    return next((is_header(line) for line in head.splitlines() if line.strip()), False)


split_winamax = partial(split_blocks, starts=is_header)

