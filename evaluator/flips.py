"""Required flips (docs/games.md, a street's `flip` and `flip_by`): which players must turn up
down cards of their choice on a street. The replay (`evaluator.card_steps`) holds each flip to
it, the procedure (`evaluator.procedure`) asks for each one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from evaluator.catalog import FLIP_PAID, Street
from pipeline.model import Action

# The actions that put a player's chips into the pot on a street (Disclosure's "put money into
# the pot last round"; a blind is money put in on its round, an ante is not).
PAYING = frozenset({"post", "bring_in", "call", "bet", "raise", "complete"})


def pays(action: Action) -> bool:
    """Whether the action puts the player's chips into the pot on its round (a dead blind is
    money for the pot, not a wager of the round)."""
    return action.kind in PAYING and bool(action.amount or action.to_amount) and action.detail != "dead_blind"


def owing(spec: Street, live: Iterable[str], paid: Collection[str]) -> list[str]:
    """The players of `live` (in its order) who must flip on the street `spec`: every one, or
    those of `paid`, who put chips in on the street (`flip_by = "paid"`)."""
    if not spec.flip:
        return []
    return [name for name in live if spec.flip_by != FLIP_PAID or name in paid]


def who_flips(spec: Street) -> str:
    """Who flips, in words, for a finding."""
    who = "every player who put chips in on that round" if spec.flip_by == FLIP_PAID else "every player"
    return f"{who} turns up {spec.flip} down card{'s' if spec.flip > 1 else ''}"
