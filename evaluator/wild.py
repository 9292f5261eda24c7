"""Wild cards for every scale of :mod:`evaluator.scales`, as numba kernels: home games' deuces
wild, "the low common card and all of that rank", "a player's lowest hole card", the joker.

A wild card stands for ANY card of the scale's deck, a card the hand already holds included (the
home-game convention: a wild is not "the best card still unseen"), so five of a kind can be made;
it ranks above a straight flush in the high scales (category 9 of evaluator.scales; the home-game
rules of ``../shared/rules/home-game-variants.md`` never rank it, so this follows the common
convention) and worst of all in the lowball scales, where no best hand makes it. The joker is
always wild here; the bug of §2.22 stays with the ordinary evaluator.

The rank of a hand is the best rank the ordinary evaluator gives over every substitution of its
wild cards, and is computed in that rank space, so ``scales.describe`` reads it and, without a
wild card, it is the ordinary rank exactly. The 52**k substitutions are never tried:

* a five-card rank depends only on the multiset of ranks and on whether all five share a suit,
  so the wild cards of a hand need only try each multiset of the deck's ranks (91 for two wilds,
  455 for three, not 52**2 = 2,704 or 52**3 = 140,608 cards), suited with the natural cards when
  those share a suit (a flush) and off-suit (no flush, which deuce-to-seven and ace-to-six prefer);
* and the best of those depends only on the natural cards' ranks and suitedness: a table per
  scale (`substitution_table`, 61,882 entries for 0 to 4 natural ranks, built once from the
  multiset search in 20 to 50 ms) gives it with one sort and one lookup, as the rank tables of
  :mod:`evaluator.fast7` do without wild cards;
* in badugi and badeucy each set of natural cards of distinct ranks and suits takes the wild
  cards as the lowest absent ranks in the unused suits: one evaluation per set.

The showdown's ways of making a hand (any five, two hole cards and three board cards, Chowaha's
paths, a row of a cross) are lists of five cards: `best5_wild_batch` ranks each row of five as
``showdown._best`` ranks them with ``scales.best5_batch``, so the best row names the cards played;
`omaha_wild_batch` makes the two-and-three hands itself.

`Wild.most` caps the wild cards one hand may use ("each player can use one three as a wild in
their high hand", Joemaha #948): the others play as themselves.

>>> from evaluator.codes import encode_hands, parse
>>> from evaluator.scales import describe
>>> deuces = Wild.of_ranks("2")
>>> describe("high", evaluate_wild("high", parse("AsAh2c2dAd7c"), deuces))
'five of a kind, Aces'
>>> describe("high", evaluate_wild("high", parse("9s8s2c2dTs 3d4c"), deuces))
'straight flush, Queen high'
>>> describe("ace_to_five", evaluate_wild("ace_to_five", parse("Kc2h7d5sJk"), Wild()))
'K-7-5-2-A'
>>> describe("badugi", evaluate_wild("badugi", parse("4c2h3d2s"), deuces))
'four-card 4-3-2-A badugi'
>>> hole = parse("9c8h4h3s")  # Lincoln (#700): the low common card and all of its rank are wild
>>> board = parse("Ah6d7cTdKs")
>>> low_common = Wild.of_ranks(lowest_rank(board))
>>> describe("high", int(omaha_wild_batch(encode_hands([hole + board]), 4, "high", low_common)[0]))
'straight, Jack high'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from evaluator import scales
from evaluator.codes import JOKER, JOKER_CODE, RANKS, encode, encode_one
from evaluator.scales import BADEUCY, BADUGI, NO_LOW, Hands, Ranks, njit

Picks = npt.NDArray[np.int64]  # candidate hands as rows of card indexes
Table = npt.NDArray[np.int32]
_TABLE_SIZE = 2 * sum(13**n for n in range(5))  # 0 to 4 natural ranks, suited and not

_JOKER_BIT = 1 << JOKER_CODE
_ALL = -1  # `most` when a hand may use every wild card it holds


@dataclass(frozen=True, slots=True)
class Wild:
    """Which cards are wild: every card of `ranks` ("2", "T"...), the single `cards` ("Kd"), and
    the joker; `most`: how many of them one five-card hand may use as wild (None: all)."""

    ranks: frozenset[str] = frozenset()
    cards: frozenset[str] = frozenset()
    most: int | None = None

    def __post_init__(self) -> None:
        if self.most is not None and self.most < 0:
            raise ValueError(f"most must be None or at least 0, not {self.most}")

    @classmethod
    def of_ranks(cls, *ranks: str, most: int | None = None) -> Wild:
        """Whole ranks wild: ``Wild.of_ranks("3", "9")`` for Wild Kingdom (#709)."""
        return cls(frozenset(ranks), most=most)

    @property
    def mask(self) -> int:
        """Bit c set for each wild card code c (0..52).

        >>> hex(Wild.of_ranks("2", most=1).mask), Wild(cards=frozenset({"Ac"})).mask == 1 << 48 | 1 << 52
        ('0x1000000000000f', True)
        """
        unknown = self.ranks - set(RANKS)
        if unknown:
            raise ValueError(f"not a rank: {sorted(unknown)}")
        mask = _JOKER_BIT
        for rank in self.ranks:
            mask |= 0xF << (4 * RANKS.index(rank))
        for card in self.cards:
            mask |= 1 << encode_one(card)
        return mask

    @property
    def limit(self) -> int:
        """`most` as the kernels take it: -1 for every wild card."""
        return _ALL if self.most is None else self.most


def lowest_rank(cards: Iterable[str], ace_low: bool = False) -> str:
    """The rank of the lowest of the cards (the joker aside): "the low common card is wild, as
    are all cards of the same rank" (Lincoln #700), "a player's lowest hole card".

    >>> cards = ["Kd", "3s", "Ah", "Jk"]  # the joker has no rank
    >>> lowest_rank(cards), lowest_rank(cards, ace_low=True), lowest_rank(["Jk", "Qc"])
    ('3', 'A', 'Q')
    """
    order = RANKS[-1] + RANKS[:-1] if ace_low else RANKS
    ranks = [c[0] for c in cards if c != JOKER]
    if not ranks:
        raise ValueError("no card to take the lowest rank of")
    return min(ranks, key=order.index)


# ------------------------------------------------------------------------------ five-card kernels


@njit(cache=True)
def _off_suit(natural_suit: int, i: int) -> int:
    """The suit of the i-th stand-in when the hand must not be a flush: never the natural cards'
    suit for the first, and no five alike when all five are stand-ins."""
    return (natural_suit + 1 + i) % 4


@njit(cache=True)
def _rank5(hand: npt.NDArray[np.int64], scale: int) -> int:
    return scales._eval5_plain(hand[0], hand[1], hand[2], hand[3], hand[4], scale)


@njit(cache=True)
def _best_substitution(hand: npt.NDArray[np.int64], n: int, scale: int, idx: npt.NDArray[np.int64]) -> int:
    """The best rank of the n < 5 natural cards at the front of `hand` with its other 5 - n cards
    wild, written over by their stand-ins: each multiset of the deck's ranks (`idx`, non-decreasing
    rank indexes), suited with the naturals when they share a suit, and off-suit. Only the
    tables are built with it (`substitution_table`)."""
    k = 5 - n
    suit = hand[0] & 3 if n else 0
    suited = True
    for i in range(1, n):
        suited = suited and (hand[i] & 3) == suit
    deck = scales._DECK_RANKS[scale]
    idx[:k] = 0
    best = -1
    while True:
        in_deck = True
        for i in range(k):
            in_deck = in_deck and (deck >> idx[i]) & 1 == 1
        if in_deck:
            for i in range(k):
                hand[n + i] = idx[i] * 4 + _off_suit(suit, i)
            best = max(best, _rank5(hand, scale))
            if suited:
                for i in range(k):
                    hand[n + i] = idx[i] * 4 + suit
                best = max(best, _rank5(hand, scale))
        i = k - 1  # the next multiset
        while i >= 0 and idx[i] == 12:
            i -= 1
        if i < 0:
            return best
        idx[i] += 1
        idx[i + 1 : k] = idx[i]


@njit(cache=True)
def _slot(n: int, suited: bool, key: int) -> int:
    """Where the table keeps n natural cards (0..4) of the sorted ranks `key` (base 13, lowest
    rank the lowest digit), all of one suit or not."""
    offset = 0
    size = 1
    for _ in range(n):
        offset += 2 * size
        size *= 13
    return offset + (size if suited else 0) + key


@njit(cache=True)
def _build_table(scale: int) -> Table:
    """Every sorted multiset of 0 to 4 natural ranks, suited and not, with the best substitution
    of the other cards."""
    table = np.full(_TABLE_SIZE, -1, dtype=np.int32)
    ranks = np.empty(5, dtype=np.int64)
    hand = np.empty(5, dtype=np.int64)
    idx = np.empty(5, dtype=np.int64)
    size = 1
    for n in range(5):
        for key in range(size):
            ascending = True
            rest = key
            for i in range(n):
                ranks[i] = rest % 13
                rest //= 13
                ascending = ascending and (i == 0 or ranks[i] >= ranks[i - 1])
            if not ascending:  # never looked up: `_lookup` sorts the ranks
                continue
            for suited in (False, True):
                for i in range(n):
                    hand[i] = ranks[i] * 4 + (0 if suited else i % 4)
                table[_slot(n, suited, key)] = _best_substitution(hand, n, scale, idx)
        size *= 13
    return table


@njit(cache=True)
def _lookup(work: npt.NDArray[np.int64], n: int, table: Table) -> int:
    """The table's best substitution for the n < 5 natural cards at the front of `work`
    (sorted by rank in place)."""
    suited = True
    for i in range(1, n):
        suited = suited and (work[i] & 3) == (work[0] & 3)
    for i in range(1, n):  # insertion sort: at most four cards
        card = work[i]
        j = i - 1
        while j >= 0 and work[j] >> 2 > card >> 2:
            work[j + 1] = work[j]
            j -= 1
        work[j + 1] = card
    key = 0
    for i in range(n - 1, -1, -1):
        key = key * 13 + (work[i] >> 2)
    return int(table[_slot(n, suited, key)])


@njit(cache=True)
def _chosen(hand: npt.NDArray[np.int64], size: int, wild: int, most: int) -> tuple[int, int, int]:
    """(the positions of the wild cards, those of the jokers, how many wild cards play): a
    wild card is never worse than itself, so a hand uses as many as it may; a joker always."""
    wild_at = joker_at = 0
    for i in range(size):
        if hand[i] == JOKER_CODE:
            joker_at |= 1 << i
        if (wild >> hand[i]) & 1 or hand[i] == JOKER_CODE:
            wild_at |= 1 << i
    n_wild = _popcount(wild_at)
    use = n_wild if most < 0 else max(min(most, n_wild), _popcount(joker_at))
    return wild_at, joker_at, use


@njit(cache=True)
def wild5(hand: npt.NDArray[np.int64], scale: int, wild: int, most: int, table: Table) -> int:
    """The rank of five cards under a five-card scale id, the cards whose bit is set in `wild`
    (the joker's always) standing for any card; at most `most` of them (-1: all) do, the others
    play as themselves. `table`: the scale's `substitution_table`."""
    wild_at, joker_at, use = _chosen(hand, 5, wild, most)
    if not wild_at:
        return _rank5(hand, scale)
    work = np.empty(5, dtype=np.int64)
    best = -1
    for chosen in range(32):  # which of the wild cards stand for another card
        if chosen & ~wild_at or chosen & joker_at != joker_at or _popcount(chosen) != use:
            continue
        n = 0
        for i in range(5):
            if not (chosen >> i) & 1:
                work[n] = hand[i]
                n += 1
        best = max(best, _rank5(work, scale) if n == 5 else _lookup(work, n, table))
    return best


@njit(cache=True)
def _popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


# -------------------------------------------------------------------------------------- badugi


@njit(cache=True)
def wild_badugi4(hand: npt.NDArray[np.int64], ace_high: bool, wild: int, most: int) -> int:
    """Four cards as a badugi with wild cards: each set of natural cards of distinct ranks and
    suits, the wild cards as the lowest ranks it lacks in the suits it lacks."""
    wild_at, joker_at, use = _chosen(hand, 4, wild, most)
    best = -1
    filled = np.empty(4, dtype=np.int64)
    for chosen in range(16):
        if chosen & ~wild_at or chosen & joker_at != joker_at or _popcount(chosen) != use:
            continue
        for keep in range(16):  # the natural cards the badugi is built on
            if keep & chosen:
                continue
            ranks = 0
            suits = 0
            valid = True
            for i in range(4):
                if (keep >> i) & 1:
                    r = hand[i] >> 2 if ace_high else ((hand[i] >> 2) + 1) % 13
                    valid = valid and not (ranks >> r) & 1 and not (suits >> (hand[i] & 3)) & 1
                    ranks |= 1 << r
                    suits |= 1 << (hand[i] & 3)
            if not valid:
                continue
            low = 0
            suit = 0
            for i in range(4):
                filled[i] = hand[i]
                if (chosen >> i) & 1:
                    while (ranks >> low) & 1:
                        low += 1
                    while (suits >> suit) & 1:
                        suit += 1
                    ranks |= 1 << low
                    suits |= 1 << suit
                    filled[i] = (low if ace_high else (low + 12) % 13) * 4 + suit
            best = max(best, scales.badugi4(filled[0], filled[1], filled[2], filled[3], ace_high))
    return best


# ------------------------------------------------------------------------------- batch kernels


@njit(cache=True)
def _rows(hands: npt.NDArray[np.int8], picks: Picks, scale: int, wild: int, most: int, floor: int,
          table: Table) -> Ranks:
    """Each row's best hand of the cards at the `picks` (one candidate hand of five cards, four
    for the badugi scales, per row of it): the best substitution of the row is the best of its
    candidates' best substitutions. Ranks below `floor` become NO_LOW (a low's qualifier)."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    size = picks.shape[1]
    hand = np.empty(size, dtype=np.int64)
    for h in range(hands.shape[0]):
        best = -1
        for c in range(picks.shape[0]):
            for i in range(size):
                hand[i] = hands[h, picks[c, i]]
            if scale in (BADUGI, BADEUCY):
                v = wild_badugi4(hand, scale == BADEUCY, wild, most)
            else:
                v = wild5(hand, scale, wild, most, table)
            best = max(best, v)
        out[h] = best if best >= floor else NO_LOW
    return out


@cache
def substitution_table(scale: int) -> Table:
    """The best substitution of every hand of natural ranks under a five-card scale id (built
    once per process, in about 20 ms).

    >>> from evaluator.scales import HIGH, describe
    >>> describe("high", int(substitution_table(HIGH)[0:2].max()))  # five wild cards
    'five of a kind, Aces'
    """
    table = _build_table(scale)
    table.flags.writeable = False
    return table


_NO_TABLE = np.zeros(0, dtype=np.int32)  # the badugi scales substitute without one


@cache
def _picks(n: int, n_hole: int, size: int) -> Picks:
    """The candidate hands of n cards as rows of card indexes: any `size` of them, or with
    `n_hole` two of the first `n_hole` and three of the rest (Omaha)."""
    rows: list[tuple[int, ...]]
    if n_hole:
        rows = [h + b for h in combinations(range(n_hole), 2) for b in combinations(range(n_hole, n), 3)]
    else:
        rows = list(combinations(range(n), size))
    picks = np.array(rows, dtype=np.int64).reshape(len(rows), size)
    picks.flags.writeable = False  # shared by every call (cached)
    return picks


def _checked(hands: Hands, min_cards: int) -> npt.NDArray[np.int8]:
    """The rows as contiguous int8 codes; the kernels index the wild mask by code, so each must
    be a card or the joker."""
    arr = scales._as_hands(hands, min_cards)
    if arr.size and (arr.min() < 0 or arr.max() > JOKER_CODE):
        raise ValueError("a card code outside 0..52")
    return arr


def best5_wild_batch(hands: Hands, scale: str, wild: Wild, floor: int = -1) -> Ranks:
    """The best five (badugi: four) of each row with wild cards; `floor`: the qualifier, e.g.
    ``scales.low_floor(8)`` for an eight-or-better low.

    >>> from evaluator.codes import encode_hands, parse
    >>> from evaluator.scales import low_floor
    >>> rows = encode_hands([parse("9c9d 2h Ts Kd Qc Jd"), parse("9c9d 8h Ts Kd Qc Jd")])
    >>> best5_wild_batch(rows, "ace_to_five", Wild.of_ranks("2"), low_floor(8)).tolist()[1]
    -1
    """
    sid = scales.SCALES.get(scale)
    if sid is None:
        raise ValueError(f"unknown scale {scale!r}")
    size = 4 if scale in scales.BADUGI_SCALES else 5
    arr = _checked(hands, size)
    table = _NO_TABLE if size == 4 else substitution_table(sid)
    return _rows(arr, _picks(arr.shape[1], 0, size), sid, wild.mask, wild.limit, floor, table)


def omaha_wild_batch(hands: Hands, n_hole: int, scale: str, wild: Wild, floor: int = -1) -> Ranks:
    """Rows of `n_hole` hole cards then the board: two hole cards and three board cards exactly,
    with wild cards (Lincoln, Oklahoma, Wild Kingdom, Joemaha...)."""
    if n_hole < 2:
        raise ValueError("Omaha takes two hole cards: n_hole must be at least 2")
    arr = _checked(hands, n_hole + 3)
    sid = scales._scale_id(scale)
    table = substitution_table(sid)
    return _rows(arr, _picks(arr.shape[1], n_hole, 5), sid, wild.mask, wild.limit, floor, table)


def evaluate_wild(scale: str, cards: Sequence[str], wild: Wild) -> int:
    """The rank of one hand (card strings) under a named scale with wild cards: the best five, or
    the best four-card badugi; without a wild card, ``scales.evaluate``'s rank."""
    return int(best5_wild_batch(encode(cards)[np.newaxis, :], scale, wild)[0])
