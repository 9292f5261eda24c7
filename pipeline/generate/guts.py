"""Generated guts games (evaluator.guts): the deals of one game follow each other at a table, so
each deal starts from what the deal before it left: the pot it carried and its losers paid to the
next pot, the pot's number, and the legs held (Evolution). A table's session (the same players,
`pipeline.generate.world.SESSION` hands) starts a new game; within it, deal k's carried pot is
deal k-1's carry-out and burns, as `pipeline.audit`'s check of consecutive deals reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from evaluator.guts import burned, pot_number
from pipeline.model import Hand


@dataclass(frozen=True, slots=True)
class Carry:
    """What a guts deal starts from: the pot carried in (0: a game's first deal), its pot number,
    and the legs each player holds."""

    amount: int = 0
    pot: int = 1
    legs: tuple[tuple[str, int], ...] = ()

    def held(self, player: str) -> int:
        return dict(self.legs).get(player, 0)


FRESH = Carry()


def after(hand: Hand, before: Carry) -> Carry:
    """What the deal after `hand` (which started from `before`) starts from: its pot carried out
    and what its losers paid, the next pot number and the legs held; a fresh game when the pot was
    won and nobody paid."""
    carried = sum(a.amount or 0 for a in hand.actions if a.kind == "carry_out")
    out = carried + sum(burned(hand.actions).values())
    if not out:
        return FRESH
    held = dict(before.legs)
    for action in hand.actions:
        if action.kind == "leg" and action.player and (action.detail or "").isdigit():
            held[action.player] = int(action.detail or 0)
    if hand.awards:
        held = {}  # a pot won ends the game: a loser's burn starts the next one, with no legs
    return Carry(out, pot_number(hand.actions) + 1, tuple(sorted(held.items())))


_CHAIN: dict[tuple[object, ...], Carry] = {}


def chain(key: tuple[object, ...], first: bool, previous: Callable[[], tuple[Hand, Carry]]) -> Carry:
    """The Carry a deal starts from, `key` naming the deal: FRESH for a session's first deal,
    else what the previous deal of the table left (`previous` plays it, from its own Carry);
    remembered, so a chunk of consecutive hands plays each earlier deal once."""
    if first:
        return FRESH
    if key not in _CHAIN:
        hand, before = previous()
        _CHAIN[key] = after(hand, before)
        if len(_CHAIN) > 4096:  # a long run: keep the memory bounded (the newest are the ones asked)
            for old in list(_CHAIN)[:2048]:
                del _CHAIN[old]
    return _CHAIN[key]
