"""How generated players choose among the legal moves (`evaluator.legal.Moves`).

Each player name has a fixed style, loose or tight, passive or aggressive, so that statistics
such as VPIP, PFR or aggression differ from player to player as they do at a real table. The
choices are random within the rules: the legal moves come from the engine, the style only
weighs them.

>>> from random import Random
>>> from evaluator.legal import Moves
>>> moves = Moves("Ann", 5000, 0, 0, True, None, "bet", (), 200, 5000, 5000)
>>> choice = choose(moves, style("Ann"), Random(1), chip=25, pot=300, first_round=False)
>>> choice.kind in ("check", "bet") and (choice.kind == "check" or 200 <= choice.total <= 5000)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from random import Random

from evaluator.legal import Moves


@dataclass(frozen=True, slots=True)
class Style:
    loose: float  # how willing the player is to stay in facing a bet
    aggressive: float  # how often they bet or raise when they may


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision: `kind` is an action kind; `total` the player's whole wager on the street for a
    bet, raise or completion."""

    kind: str
    total: int = 0


@cache
def style(name: str) -> Style:
    rng = Random(f"style:{name}")
    return Style(rng.uniform(0.15, 0.55), rng.uniform(0.1, 0.6))


def _rounded(value: float, chip: int) -> int:
    return max(chip, round(value / chip) * chip)


def wager_total(moves: Moves, rng: Random, chip: int, pot: int) -> int | None:
    """A legal total for a bet or raise: a fixed level in limit; in big-bet games the minimum,
    a fraction of the pot or all-in, in whole chips."""
    if moves.wager is None:
        return None
    if moves.sizes:
        full = [s for s in moves.sizes if s != moves.all_in or len(moves.sizes) == 1]
        return rng.choice(full) if full and rng.random() < 0.85 else rng.choice(moves.sizes)
    if moves.high < moves.low:
        return moves.all_in if moves.can_wager_all_in else None
    short = moves.stack <= 2 * pot
    if moves.can_wager_all_in and rng.random() < (0.35 if short else 0.05):
        return moves.all_in
    current = moves.current
    fraction = rng.choice((0.0, 0.33, 0.5, 0.75, 1.0, 1.0))
    target = moves.low if fraction == 0 else _rounded(current + fraction * (pot + moves.owed), chip)
    target = min(max(target, moves.low), moves.high)
    if target >= moves.all_in:
        return moves.all_in if moves.can_wager_all_in else None
    return target


def choose(moves: Moves, manner: Style, rng: Random, chip: int, pot: int, first_round: bool) -> Choice:
    """One legal action for the player to act, weighed by their style."""
    if moves.bring_in is not None:
        if moves.sizes and rng.random() < manner.aggressive * 0.4:
            return Choice("complete", moves.sizes[0])
        return Choice("bring_in", moves.bring_in)
    roll = rng.random()
    if moves.owed == 0:
        if moves.wager is not None and roll < manner.aggressive * 0.7:
            total = wager_total(moves, rng, chip, pot)
            if total is not None:
                return Choice(moves.wager, total)
        return Choice("check")
    raising = manner.aggressive * 0.45 if moves.wager is not None else 0.0
    folding = (1 - manner.loose) * (1.0 if first_round else 0.6)
    if roll < raising:
        total = wager_total(moves, rng, chip, pot)
        if total is not None:
            return Choice(moves.wager or "raise", total)
    if roll < raising + folding:
        return Choice("fold")
    return Choice("call")


def jam_or_fold(moves: Moves, manner: Style, rng: Random) -> Choice:
    """§1.8: a player's first action is all-in or fold (or a call of an all-in)."""
    if moves.can_wager_all_in and rng.random() < manner.loose * 0.6:
        return Choice(moves.wager or "raise", moves.all_in)
    if moves.may_call and moves.owed and rng.random() < manner.loose:
        return Choice("call")
    return Choice("fold")


def discard_count(rng: Random, low: int, high: int) -> int:
    """How many cards a player changes: few more often than many."""
    counts = list(range(low, high + 1))
    weights = [1.0 / (1 + abs(c - 1)) for c in counts]
    return rng.choices(counts, weights)[0]
