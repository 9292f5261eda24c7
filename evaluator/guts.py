"""Guts games (docs/games.md `[guts]`): each player still in declares in or out; the best hands
of those in win, those in who lose "burn", paying into the next deal's pot, and a deal nobody
went in carries its pot to the next deal. One hand history is one deal: what it brings in from
the deal before, what its losers pay and what it carries out are its lines (docs/format.md,
"Deals of a guts game"). The settlement (`evaluator.settle.guts_settlement`) says what the rule
wants; the replay (`evaluator.finish`) holds the recorded lines to it; the procedure
(`evaluator.procedure`) asks for the declarations and writes the deal's end.
"""

from __future__ import annotations

from collections.abc import Iterable

from evaluator.catalog import BURN_POT, Guts
from pipeline.model import Action


def burn_due(guts: Guts, pot: int, max_bet: int, pot_number: int) -> int:
    """What a player who went in and lost pays the next deal's pot: the pot ("must match the
    pot"), or the max bet, `times` over, times the deal's pot number for a progressive game."""
    base = pot if guts.burn == BURN_POT else max_bet
    return base * guts.times * (pot_number if guts.by_pots else 1)


def burn_words(guts: Guts) -> str:
    """The rule's amount in words, for a finding."""
    base = "the pot" if guts.burn == BURN_POT else "the max bet"
    times = f"{guts.times} times " if guts.times > 1 else ""
    pots = " times the number of pots" if guts.by_pots else ""
    return f"{times}{base}{pots}"


def pot_number(actions: Iterable[Action]) -> int:
    """The deal's pot number: the one its carried pot states (`(pot N)`), else 1 (a game's first
    deal), or 2 for a carried pot that does not say."""
    for action in actions:
        if action.kind == "carry_in":
            return int(action.detail) if action.detail and action.detail.isdigit() else 2
    return 1


def carried_in(actions: Iterable[Action]) -> int:
    """The chips the deal brought in from the deal before."""
    return sum(a.amount or 0 for a in actions if a.kind == "carry_in")


def recorded_leg(actions: Iterable[Action]) -> int:
    """The leg number the deal's `gets leg N` line gives (1 where there is none)."""
    return max((int(a.detail) for a in actions if a.kind == "leg" and a.detail and a.detail.isdigit()),
               default=1)


def burned(actions: Iterable[Action]) -> dict[str, int]:
    """What each player paid to the next deal's pot: out of their stack, not into this pot."""
    paid: dict[str, int] = {}
    for action in actions:
        if action.kind == "burn" and action.player:
            paid[action.player] = paid.get(action.player, 0) + (action.amount or 0)
    return paid
