"""Reads one hand of the native BARGE format into a `Hand`, or raises `HandSyntaxError`.

The LALR parser applies `BargeTransformer` while it parses, so no parse tree is built.

>>> hand = parse_hand(EXAMPLE)
>>> hand.variant, [a.kind for a in hand.actions]
('texas_holdem', ['post', 'post', 'raise', 'fold', 'return'])
"""

from __future__ import annotations

from pathlib import Path

from grammar.barge_transformer import BargeTransformer
from grammar.coarse import CoarseBargeTransformer
from grammar.reading import HandReader
from pipeline.model import Hand

GRAMMAR = Path(__file__).with_name("barge.lark")
COARSE_GRAMMAR = Path(__file__).with_name("barge_coarse.lark")
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
    "_BUTTON_SEAT": "'Seat #N is the button'",
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


READER = HandReader(GRAMMAR, BargeTransformer, _DESCRIPTIONS,
                    coarse=(COARSE_GRAMMAR, CoarseBargeTransformer))


def parse_hand(text: str) -> Hand:
    """Parse one hand block; line numbers in errors count from the block's first line."""
    return READER.parse(text)
