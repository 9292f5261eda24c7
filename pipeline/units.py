"""The unit a hand's amounts are counted in, so that no figure adds amounts of two units.

A cash game's chips are money: its unit is the currency's ISO 4217 code ("USD", "EUR"), "play"
for play money, or "chips" when the history does not say which money. A tournament's chips are
worth nothing outside it: its unit is "T:<site>:<tournament>" (the chips of that one tournament;
the event's name stands in for a tournament number the history lacks), and so is a live event's
when no currency is given. docs/format.md ("Units") states every reader's choices.

>>> hand_unit("cash", "PokerStars", None, None, "EUR")
'EUR'
>>> hand_unit("tournament", "PokerStars", "2475523986", None, "INR")
'T:PokerStars:2475523986'
>>> unit_label('T:PokerStars:2475523986'), unit_label('T::WSOP Event #58'), unit_label('play')
('T chips (PokerStars #2475523986)', 'T chips (WSOP Event #58)', 'play chips')
"""

from __future__ import annotations

from pipeline.model import PLAY_MONEY, Hand

UNKNOWN_MONEY = "chips"  # a cash game whose history names no currency
TOURNAMENT_PREFIX = "T:"
_CHIP_GAMES = frozenset({"tournament", "sit_and_go"})
_SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3", "INR": "\u20b9", "CNY": "\u00a5"}


def hand_unit(game_type: str | None, site: str | None, tournament: str | None, event: str | None,
              currency: str | None) -> str:
    """The unit of a hand of this game type, site, tournament, event and currency."""
    if game_type in _CHIP_GAMES or (game_type == "live_event" and currency is None):
        return f"{TOURNAMENT_PREFIX}{site or ''}:{tournament or event or ''}"
    return currency or UNKNOWN_MONEY


def unit_of(hand: Hand) -> str:
    """`hand_unit` of a hand model."""
    return hand_unit(hand.game_type, hand.site, hand.tournament, hand.event, hand.currency)


def unit_label(unit: str) -> str:
    """The unit in a person's words: "$", "€", "T chips (PokerStars #123)", "play chips"."""
    if unit.startswith(TOURNAMENT_PREFIX):
        site, _, key = unit[len(TOURNAMENT_PREFIX):].partition(":")
        number = "#" if key.isdigit() else ""  # a tournament number, else the event's name
        return f"T chips ({site + ' ' if site else ''}{number}{key})"
    if unit == PLAY_MONEY:
        return "play chips"
    return _SYMBOLS.get(unit, unit)
