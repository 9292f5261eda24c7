"""The straight-flush-run scale of written portions (`scale = "straight_flush_run"`, docs/games.md):
La Bumba's (home game #738) split hand, "straight flush hands, with three card straight flushes
losing to four card straight flushes losing to five card straight flushes" (rule 13), as a numba
kernel over card codes (evaluator.codes), beside the five-card scales of evaluator.scales.

A hand's rank is its longest run of consecutive ranks in one suit among its cards, three to five
cards, then the run's top card; equal runs tie (the suit does not count). The ace is high or low,
as in a straight: A-2-3 (the Three its top card, the lowest three-card run) and Q-K-A (the
highest) both count, K-A-2 does not. Fewer than three cards in a run is no hand of the scale
(`NO_RUN`): the portion does not exist for that player. Higher is better, as in every scale.

>>> from evaluator.codes import encode_hands, parse
>>> ranks = run_batch(encode_hands([parse("Ah2h3h9cKd"), parse("Qs Ks As 4d 7c"), parse("4c5c6c7cJd"),
...                                 parse("2c3d4h5s6c")]))
>>> [describe_run(int(r)) for r in ranks]  # doctest: +NORMALIZE_WHITESPACE
['three-card straight flush, Three high', 'three-card straight flush, Ace high',
 'four-card straight flush, Seven high', 'no three-card straight flush']
>>> ranks[2] > ranks[1] > ranks[0]
np.True_
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from evaluator.scales import Hands, Ranks, _as_hands, njit

STRAIGHT_FLUSH_RUN = "straight_flush_run"  # the scale's name in a [[portion]] table
NO_RUN = -1  # no run of three cards in one suit
SHORTEST = 3  # "three card straight flushes" are the least of the scale (rule 13)
_NAMES = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
          "King", "Ace")
_LENGTHS = {3: "three", 4: "four", 5: "five"}


@njit(cache=True)
def _run(cards: npt.NDArray[np.int8]) -> int:
    """The rank of one row of card codes: 16 * length + the top card's rank index (0 deuce .. 12
    ace), the longest run first; NO_RUN without a run of three."""
    masks = np.zeros(4, dtype=np.int64)
    for code in cards:
        if code < 52:  # a joker is no card of a suit
            masks[code & 3] |= 1 << ((code >> 2) + 1)  # bit 1 the deuce .. bit 13 the ace
    best = NO_RUN
    for suit in range(4):
        bits = masks[suit] | ((masks[suit] >> 13) & 1)  # the ace low too, at bit 0
        for top in range(13, 1, -1):  # bit `top` the run's highest card
            length = 0
            while length < 5 and top - length >= 0 and (bits >> (top - length)) & 1:
                length += 1
            if length >= SHORTEST:
                best = max(best, 16 * length + top - 1)
    return best


@njit(cache=True)
def _run_rows(hands: npt.NDArray[np.int8]) -> Ranks:
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        out[h] = _run(hands[h])
    return out


def run_batch(hands: Hands) -> Ranks:
    """The straight-flush-run rank of each row of card codes (3 or more cards a row)."""
    ranks: Ranks = _run_rows(_as_hands(hands, SHORTEST))
    return ranks


def describe_run(rank: int) -> str:
    """Readable text for a rank of `run_batch`."""
    if rank == NO_RUN:
        return "no three-card straight flush"
    return f"{_LENGTHS[rank >> 4]}-card straight flush, {_NAMES[rank & 15]} high"
