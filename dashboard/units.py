"""The units amounts are counted in, as the dashboard names and writes them.

Every hand counts its amounts in one unit (`hands.unit`, `pipeline.units`): a currency for cash
games (its ISO code, "play" for play money, "chips" where the history names no money) or the
chips of one tournament ("T:<site>:<tournament>"). A database written before hands had a unit is
one unknown unit, "chips". Amounts of two units are
never added: the pages show one unit at a time, or a figure per unit, each written with its unit
("$1,234.50", "€12.00", "1,500 T chips", "12.5 bb").
"""

from __future__ import annotations

from dataclasses import dataclass

UNKNOWN = "chips"  # money the history does not name, and every hand of a database without units
PLAY = "play"
TOURNAMENT = "T:"  # the prefix of a tournament's chips: T:<site>:<tournament>
SIGNS = {"USD": "$", "EUR": "€", "GBP": "£", "INR": "₹", "JPY": "¥", "CAD": "C$", "AUD": "A$"}
GAME_TYPES = {"cash": "Cash games", "tournament": "Tournaments", "sit_and_go": "Sit & Go",
              "home_game": "Home games", "live_event": "Live events"}


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: `code` as stored in `hands.unit`."""

    code: str

    @property
    def tournament(self) -> bool:
        """Whether these are the chips of one tournament."""
        return self.code.startswith(TOURNAMENT)

    @property
    def name(self) -> str:
        """The unit in words, for the filters and headings.

        >>> [Unit(c).name for c in ("USD", "CHF", "play", "chips")]
        ['$ (USD)', 'CHF', 'play money', 'chips']
        >>> Unit("T:PokerStars:2475523986").name, Unit("T::Main Event").name
        ('T chips of PokerStars #2475523986', 'T chips of #Main Event')
        """
        if self.tournament:
            site, _, key = self.code.removeprefix(TOURNAMENT).partition(":")
            return f"T chips of {site + ' ' if site else ''}#{key}"
        if self.code == PLAY:
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
        if self.code in (PLAY, UNKNOWN):
            return "play chips" if self.code == PLAY else UNKNOWN
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
        if self.code in (PLAY, UNKNOWN):
            written = f"{size:,.0f}" if float(size).is_integer() else f"{size:,.2f}"
            return f"{sign}{written} {self.short}"
        symbol = SIGNS.get(self.code)
        return f"{sign}{symbol}{size:,.2f}" if symbol else f"{sign}{size:,.2f} {self.code}"


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
    return GAME_TYPES.get(game_type, game_type)
