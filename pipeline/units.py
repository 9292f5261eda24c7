"""The unit a hand's amounts are counted in, and how an amount is written in it, so that no figure
adds amounts of two units and every figure says which it is in.

A cash game's chips are money: its unit is the currency's ISO 4217 code ("USD", "EUR"), "play"
for play money, or "chips" when the history does not say which money. A tournament's chips are
worth nothing outside it: its unit is "T:<site>:<tournament>" (the chips of that one tournament;
the event's name stands in for a tournament number the history lacks), and so is a live event's
when no currency is given. docs/format.md ("Units") states every reader's choices. The command
line and the dashboard name units and write amounts with `Unit`.

>>> hand_unit("cash", "PokerStars", None, None, "EUR")
'EUR'
>>> hand_unit("tournament", "PokerStars", "2475523986", None, "INR")
'T:PokerStars:2475523986'
>>> unit_label('T:PokerStars:2475523986'), unit_label('T::WSOP Event #58'), unit_label('play')
('T chips of PokerStars #2475523986', 'T chips of WSOP Event #58', 'play money')
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.model import PLAY_MONEY, Hand

UNKNOWN_MONEY = "chips"  # a cash game whose history names no currency; every hand of an old database
TOURNAMENT_PREFIX = "T:"
_CHIP_GAMES = frozenset({"tournament", "sit_and_go"})
SIGNS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3", "INR": "\u20b9", "JPY": "\u00a5", "CNY": "CN\u00a5",
         "CAD": "C$", "AUD": "A$"}
GAME_TYPE_NAMES = {"cash": "Cash games", "tournament": "Tournaments", "sit_and_go": "Sit & Go",
                   "home_game": "Home games", "live_event": "Live events"}


def hand_unit(game_type: str | None, site: str | None, tournament: str | None, event: str | None,
              currency: str | None) -> str:
    """The unit of a hand of this game type, site, tournament, event and currency."""
    if game_type in _CHIP_GAMES or (game_type == "live_event" and currency is None):
        return f"{TOURNAMENT_PREFIX}{site or ''}:{tournament or event or ''}"
    return currency or UNKNOWN_MONEY


def unit_of(hand: Hand) -> str:
    """`hand_unit` of a hand model."""
    return hand_unit(hand.game_type, hand.site, hand.tournament, hand.event, hand.currency)


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: `code` as stored in `hands.unit`."""

    code: str

    @property
    def tournament(self) -> bool:
        """Whether these are the chips of one tournament."""
        return self.code.startswith(TOURNAMENT_PREFIX)

    @property
    def name(self) -> str:
        """The unit in words, for the filters, headings and the command line.

        >>> [Unit(c).name for c in ("USD", "CHF", "play", "chips")]
        ['$ (USD)', 'CHF', 'play money', 'chips']
        >>> Unit("T:PokerStars:2475523986").name, Unit("T::Main Event").name
        ('T chips of PokerStars #2475523986', 'T chips of Main Event')
        """
        if self.tournament:
            site, _, key = self.code.removeprefix(TOURNAMENT_PREFIX).partition(":")
            number = "#" if key.isdigit() else ""  # a tournament number, else the event's name
            return f"T chips of {site + ' ' if site else ''}{number}{key}"
        if self.code == PLAY_MONEY:
            return "play money"
        sign = SIGNS.get(self.code)
        return f"{sign} ({self.code})" if sign else self.code

    @property
    def short(self) -> str:
        """The unit beside a chart's axis or a heading: "$", "T chips", "play chips".

        >>> Unit("EUR").short, Unit("T:PokerStars:7").short, Unit("play").short
        ('€', 'T chips', 'play chips')
        """
        if self.tournament:
            return "T chips"
        if self.code in (PLAY_MONEY, UNKNOWN_MONEY):
            return "play chips" if self.code == PLAY_MONEY else UNKNOWN_MONEY
        return SIGNS.get(self.code, self.code)

    def amount(self, value: float | None) -> str | None:
        """An amount in this unit: money with its sign and two decimals, tournament chips whole,
        play money and unknown chips whole unless they have cents; None stays None.

        >>> Unit("USD").amount(1234.5), Unit("EUR").amount(-12), Unit("CHF").amount(3)
        ('$1,234.50', '-€12.00', '3.00 CHF')
        >>> Unit("T::9").amount(1500.4), Unit("play").amount(20), Unit("chips").amount(2.5)
        ('1,500 T chips', '20 play chips', '2.50 chips')
        """
        if value is None:
            return None
        sign = "-" if value < 0 else ""
        size = abs(value)
        if self.tournament:
            return f"{round(value):,} T chips"
        if self.code in (PLAY_MONEY, UNKNOWN_MONEY):
            written = f"{size:,.0f}" if float(size).is_integer() else f"{size:,.2f}"
            return f"{sign}{written} {self.short}"
        symbol = SIGNS.get(self.code)
        return f"{sign}{symbol}{size:,.2f}" if symbol else f"{sign}{size:,.2f} {self.code}"


def unit_label(unit: str) -> str:
    """The unit in a person's words (`Unit.name`)."""
    return Unit(unit).name


def big_blinds(value: float | None) -> str | None:
    """A result in big blinds, to one decimal.

    >>> big_blinds(12.46), big_blinds(-3), big_blinds(None)
    ('12.5 bb', '-3.0 bb', None)
    """
    return None if value is None else f"{value:,.1f} bb"


def game_type_name(game_type: str) -> str:
    """>>> game_type_name("sit_and_go"), game_type_name("league")
    ('Sit & Go', 'league')
    """
    return GAME_TYPE_NAMES.get(game_type, game_type)
