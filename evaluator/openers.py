"""Openers (docs/games.md, a street's `open`): the hand a player must hold to make the first bet
of a betting round, as jackpots draw poker's "pair of jacks or better to open" (Cardroom
procedures, Rules of Draw Jacks or Better) and Dizzy Liz (home game #733) on every round.

The hand is the best high hand of the player's own cards and the common cards dealt so far. The
replay (`evaluator.replay`) notes each opening and, once the opener's cards are known (shown at
the showdown or dealt face up in the record), flags one made without openers (FALSE_OPENERS);
the settlement then holds the false opener's hand dead, as the cardroom's Rules of Draw High do
("The false opener has a dead hand"; "Any player who has legally declared the pot opened must
prove openers in order to win the pot"). The procedure offers the opening bet only to a player
who holds openers (`evaluator.procedure`), so generated hands open only with them.

>>> from evaluator.catalog import Openers
>>> jacks = Openers("pair", "J")
>>> holds(jacks, ["Jc", "Jd", "2h", "3s", "4c"]), holds(jacks, ["Tc", "Td", "2h", "3s", "4c"])
(True, False)
>>> holds(jacks, ["3c", "3d", "2h", "2s", "9c"]), holds(jacks, ["Ac", "Kd", "2h", "3s", "4c"], ["Ah"])
(True, True)
>>> holds(jacks, ["Jc", "??", "2h", "3s", "4c"]) is None
True
>>> words(jacks)
'a pair of Jacks or better'
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluator.catalog import Openers
from evaluator.scales import CATEGORIES, category_ranks, evaluate
from pipeline.model import UNKNOWN_CARD

RANKS = "23456789TJQKA"
_PLURAL = {"2": "Deuces", "3": "Threes", "4": "Fours", "5": "Fives", "6": "Sixes", "7": "Sevens",
           "8": "Eights", "9": "Nines", "T": "Tens", "J": "Jacks", "Q": "Queens", "K": "Kings", "A": "Aces"}


def holds(openers: Openers, cards: Sequence[str], board: Sequence[str] = ()) -> bool | None:
    """Whether the player's `cards` with the common cards `board` dealt so far make `openers`;
    None when a card is unknown (nothing can be said) or there are fewer than five."""
    pool = [*cards, *board]
    if any(c == UNKNOWN_CARD for c in pool) or len(pool) < 5:
        return None
    cat, ranks = category_ranks("high", evaluate("high", pool))
    need = CATEGORIES.index(openers.at_least)
    if cat != need:
        return cat > need
    # Of the category itself: its leading rank (the pair's, the higher pair's, the trips') decides.
    return openers.rank is None or ranks[0] >= RANKS.index(openers.rank)


def words(openers: Openers) -> str:
    """The openers in words, for a finding: "a pair of Jacks or better"."""
    if openers.rank is None:
        return f"{openers.at_least} or better"
    kind = "a pair" if openers.at_least == "pair" else openers.at_least
    return f"{kind} of {_PLURAL[openers.rank]} or better"
