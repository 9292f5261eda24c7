"""Pot awarding: the main and side pots a hand's chips form, and how each is split (BARGE §1.4).

Pure arithmetic on integer amounts (hundredths, as in `pipeline.model`). Which hands win a pot
is the showdown's business (:mod:`evaluator.showdown`); this module is told the winners of
each portion by a `judge` and returns who gets how many chips:

- side pots from the players' contributions: dead money (antes, dead blinds) goes into the main
  pot, live chips form one pot per all-in level, each open to the players who matched it;
- a pot run more than once is divided between the runs first, the first run getting the odd chip;
- a pot is divided equally between its portions (high and low, low and badugi, ...), the odd chip
  going to the first portion, "the high hand" of §1.4;
- a portion is divided equally between tied hands, the odd chips going one each to the players
  in §1.4's order (clockwise from the button, or by highest card by suit in stud games);
- "No player may receive more than one odd chip" (§1.4 rule 2) holds over the whole of one pot:
  a player who already has an odd chip of the pot (of the other half of a high-low split, or of
  another run) comes after the others when the next odd chip of that pot is given; each side pot
  is split on its own.

An odd chip is "the smallest denomination in play" (§1.4 rule 1): `unit`.

>>> pots = side_pots({"Ann": 300, "Bo": 1000, "Cy": 1000}, 60, ["Ann", "Bo", "Cy"])
>>> [(p.index, p.amount, p.eligible) for p in pots]
[(0, 960, ('Ann', 'Bo', 'Cy')), (1, 1400, ('Bo', 'Cy'))]
>>> def judge(eligible, run):
...     if "Ann" in eligible:
...         return [Result("high", ("Bo", "Cy")), Result("low", ("Ann",))]
...     return [Result("high", ("Cy",))]
>>> [(s.pot, s.player, s.amount, s.portion) for s in award(pots, judge, 25, order=lambda names: names)]
[(0, 'Bo', 260, 'high'), (0, 'Cy', 225, 'high'), (0, 'Ann', 475, 'low'), (1, 'Cy', 1400, 'high')]

(The main pot's 960 is 38 chips of 25 plus 10 below a chip: each half gets 19 chips, the high
half the 10 too; Bo and Cy split its 19 chips 10 and 9, Bo first in `order` getting the odd chip.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import gcd


@dataclass(frozen=True, slots=True)
class Pot:
    """`index` 0 is the main pot, n side pot n (in the order they form); `eligible`: the players
    still in the hand who matched its level, in seat order."""

    index: int
    amount: int
    eligible: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """One portion of a pot and the hands that win it (more than one: a tie). `portion` None: the
    pot is won whole (one player left, or a game with one portion)."""

    portion: str | None
    winners: tuple[str, ...]
    hand: str = ""


@dataclass(frozen=True, slots=True)
class Share:
    """Chips pushed to one player: from which pot, for which portion (with ", run N" when the
    board was run more than once), and the winning hand ("" when nobody had to show); `odd`: the
    share holds an odd chip of a split of the pot (§1.4)."""

    pot: int
    player: str
    amount: int
    portion: str | None
    hand: str = ""
    odd: bool = False


Judge = Callable[[tuple[str, ...], int], Sequence[Result]]
Order = Callable[[Sequence[str]], Sequence[str]]


def side_pots(live: Mapping[str, int], dead: int, contenders: Sequence[str]) -> list[Pot]:
    """The main pot and side pots (§1.4 via the TDA rules on side pots).

    `live`: each player's live chips (folded players too), `dead`: the dead money, which goes
    to the main pot; `contenders`: the players still in the hand, in seat order. A pot nobody
    could win (the chips above every contender's level) joins the pot below it.
    """
    levels = sorted({live.get(name, 0) for name in contenders})
    pots: list[Pot] = []
    below = 0
    for level in levels:
        amount = sum(min(chips, level) - min(chips, below) for chips in live.values())
        if not pots:
            amount += dead
        eligible = tuple(name for name in contenders if live.get(name, 0) >= level)
        if amount or not pots:
            pots.append(Pot(len(pots), amount, eligible))
        below = level
    beyond = sum(max(chips - below, 0) for chips in live.values())
    if beyond and pots:
        last = pots[-1]
        pots[-1] = Pot(last.index, last.amount + beyond, last.eligible)
    return pots


def divide(amount: int, unit: int, parts: int) -> list[int]:
    """`amount` in `parts` as equal as chips of `unit` allow, the odd chips one each to the first
    parts; what is below one chip goes to the first part.

    >>> divide(1075, 25, 2), divide(100, 25, 3), divide(10, 25, 2)
    ([550, 525], [50, 25, 25], [10, 0])
    """
    chips, rest = divmod(amount, unit)
    each, odd = divmod(chips, parts)
    shares = [(each + (i < odd)) * unit for i in range(parts)]
    shares[0] += rest
    return shares


def split(amount: int, unit: int, parts: int, odd: bool = False) -> list[tuple[int, bool]]:
    """`divide`, with whether each part holds an odd chip of this division. One part keeps what
    it was given (`odd`: the whole already held an odd chip); a division into several absorbs the
    whole's odd chip and gives its own.

    >>> split(1075, 25, 2), split(1000, 25, 2, odd=True), split(525, 25, 1, odd=True)
    ([(550, True), (525, False)], [(500, False), (500, False)], [(525, True)])
    """
    amounts = divide(amount, unit, parts)
    if parts == 1:
        return [(amounts[0], odd)]
    odd_chips = (amount // unit) % parts
    return [(part, i < odd_chips) for i, part in enumerate(amounts)]


def award(pots: Sequence[Pot], judge: Judge, unit: int, order: Order, runs: int = 1,
          one_odd_chip_per_pot: bool = True) -> list[Share]:
    """Every pot split by the judge's results: per run, then per portion, then per tied hand.

    `judge(eligible, run)`: the portions of a pot among `eligible` on run `run` (1-based) with
    their winners; `order(players)`: the players in §1.4's odd-chip order. §1.4 rule 2, "No player
    may receive more than one odd chip", holds over the pot: among tied hands, a player who holds
    an odd chip of the pot already comes after those who do not. A room that gives each division
    of the pot its odd chip on its own (`one_odd_chip_per_pot=False`: the profile's `odd_chips`
    `per_split`, PokerStars) orders each tie by `order` alone.

    >>> def tie(eligible, run):
    ...     return [Result("high", ("Ann", "Bo")), Result("low", ("Ann", "Cy"))]
    >>> [(s.player, s.amount, s.portion, s.odd) for s in award([Pot(0, 30, ("Ann", "Bo", "Cy"))], tie, 1,
    ...                                                          order=lambda names: names)]
    [('Ann', 8, 'high', True), ('Bo', 7, 'high', False), ('Cy', 8, 'low', True), ('Ann', 7, 'low', False)]
    """
    shares: list[Share] = []
    for pot in pots:
        has_odd: set[str] = set()
        for run, (run_amount, run_odd) in enumerate(split(pot.amount, unit, runs), start=1):
            if run_amount == 0:
                continue
            results = judge(pot.eligible, run) if len(pot.eligible) > 1 else [Result(None, pot.eligible)]
            if not results:
                continue  # no hand can be made (§2.34, Oklahoma's cash-game rule): nobody is pushed it
            portions = split(run_amount, unit, len(results), run_odd)
            for result, (portion_amount, portion_odd) in zip(results, portions, strict=True):
                label = result.portion
                if runs > 1:
                    label = f"{label}, run {run}" if label else f"run {run}"
                winners = order(result.winners)
                if one_odd_chip_per_pot:
                    winners = sorted(winners, key=lambda name: name in has_odd)  # §1.4 rule 2
                parts = split(portion_amount, unit, len(winners), portion_odd)
                for player, (amount, odd) in zip(winners, parts, strict=True):
                    if odd:
                        has_odd.add(player)
                    shares.append(Share(pot.index, player, amount, label, result.hand, odd))
    return shares


def totals(shares: Sequence[Share]) -> dict[str, int]:
    """Chips won per player, over all pots and portions."""
    won: dict[str, int] = {}
    for share in shares:
        won[share.player] = won.get(share.player, 0) + share.amount
    return won


def chip_unit(amounts: Sequence[int]) -> int:
    """The smallest chip the hand's amounts show: their greatest common divisor (§1.4 rule 1 when
    the record does not say which chips are in play).

    >>> chip_unit([10000, 2500, 5000, 12500])
    2500
    """
    unit = 0
    for amount in amounts:
        unit = gcd(unit, abs(amount))
    return unit or 1
