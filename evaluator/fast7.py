"""Table-driven batch hand evaluation: the fast path behind the five-card scales of
:mod:`evaluator.scales` (7-card high, Omaha high and low, and the best five of any row).

The reference kernels of :mod:`evaluator.scales` classify every five-card hand they look at (21 of
them for seven cards). Here a hand is ranked by table lookups, OMPEval-style:

* every rank has a multiplier (``RANK_MULTIPLIERS``), so the sum over a hand's cards is a *rank
  key* that names its multiset of ranks; a card's entry in ``card_keys`` also adds 1 to a 4-bit
  counter of its suit, started at 3, so bit 3 of a counter says "five or more cards of this suit";
* without a flush the rank key decides the hand: a perfect hash (hash and displace: a
  multiplication picks a bucket and a slot, the bucket's displacement XORs the slot so that no
  two keys share one; three keys for four slots) takes the key to a slot of a table of int32:
  256 KB for seven cards, in the 1 MB L2 cache, and 32 KB of displacements, in the L1 cache;
* with a flush the suit's 13-bit rank mask indexes the flush table: with five or more cards of one
  suit among seven there is no full house nor four of a kind, so the flush or straight flush is
  the best hand.

Every entry is computed by the reference kernels themselves, once per multiset of ranks (dealt
in four suits round robin so that it holds no flush) and once per suited rank mask, so the
values are not just in the same order but EQUAL to ``scales.best5_batch``'s and
``scales.describe`` reads them. A five-card hand's rank under any scale of :mod:`evaluator.scales`
depends only on its ranks and on whether its cards share a suit, so the five-card tables are
exact for every scale, which the Omaha kernel (two hole cards and three board cards, 60 or 100
hands per row) and the best-five-of-n kernel use.

The tables are built lazily, once per process, when first used (0.1 s for the high tables, plus
about 0.3 s to load the reference kernels from numba's cache; 5 ms per further scale): they are
not written to disk, so there is no cache to invalidate when a scale changes. A row holding a
joker or a code outside 0..51 is ranked by the reference kernel (the joker rules live there).

>>> from evaluator.codes import encode_hands, parse
>>> from evaluator.scales import describe
>>> hands = encode_hands([parse("AsKs QsJsTs 2c3d"), parse("2c2d 7h8s9d JcQh"), parse("Ah2c3d4s5h9c9d")])
>>> [describe("high", r) for r in high_batch(hands)]
['royal flush', 'pair of Deuces with Q-J-9', 'straight, Five high']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from evaluator import scales
from evaluator.codes import CARD_DTYPE, JOKER_CODE
from evaluator.scales import HIGH, NO_LOW, Hands, Ranks, njit

F = TypeVar("F", bound=Callable[..., Any])
Table = npt.NDArray[np.int32]
Displacements = npt.NDArray[np.uint16]  # 16-bit: the 7-card ones fit the 48 KB L1 cache, 7% faster
Keys = npt.NDArray[np.int64]

# A greedy search (each multiplier the smallest keeping the sums of all multisets of up to seven
# ranks, at most four of each, distinct for every size) gave the first twelve, the same sequence as
# SKPokerEval's; its thirteenth is SKPokerEval's, the search being too slow to confirm it. Only
# distinctness matters, and every build checks it (`_rank_multisets`); small multipliers keep
# the keys below 2**23, so key * multiplier of the hash cannot overflow.
RANK_MULTIPLIERS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
RANK_KEY_BITS = 0xFFFFFFFF  # the rank key sits in the low 32 bits (7 * 1479181 < 2**24)
SUIT_BASE = 0x3333 << 32  # four 4-bit suit counters above the rank key, each starting at 3
FLUSH_BITS = 0x8888 << 32  # a counter reaching 8: five cards of its suit
_FALLBACK_BIT = 1 << 56  # a joker or an invalid code; seven of them still fit below bit 63
_SPECIAL = FLUSH_BITS | (0x7F << 56)
_CODE_MASK = 63  # card codes index a 64-entry table, so any int8 stays inside it
_SLOT_SHIFT = 20  # which bits of key * multiplier give the slot and the bucket
_BUCKET_SHIFT = 40
_MAX_LOAD = 0.76  # keys per slot of a perfect hash table; denser packings fail to place
_HIGH_SIZES = (5, 6, 7)  # row widths the direct (no enumeration) high kernel takes


def njit_parallel(fn: F) -> F:
    """``numba.njit(parallel=True)`` typed for mypy, like :func:`evaluator.scales.njit`."""
    return cast("F", numba.njit(cache=True, parallel=True)(fn))


# ------------------------------------------------------------------------------ the perfect hash


@dataclass(frozen=True, slots=True)
class PerfectHash:
    """A collision-free map of a fixed set of rank keys to slots 0 .. 2**slot_bits - 1:
    with h = key * multiplier, ``slot = (h >> 20 & slot mask) ^ displacements[h >> 40 & bucket mask]``."""

    multiplier: int
    slot_bits: int
    displacements: Displacements

    @property
    def size(self) -> int:
        return 1 << self.slot_bits

    def slots(self, keys: Keys) -> Keys:
        """The slot of each key (numpy, for building the value tables)."""
        h = keys * np.int64(self.multiplier)
        buckets = (h >> _BUCKET_SHIFT) & (len(self.displacements) - 1)
        slots: Keys = ((h >> _SLOT_SHIFT) & (self.size - 1)) ^ self.displacements[buckets].astype(np.int64)
        return slots


@njit(cache=True)
def slot_of(key: int, multiplier: int, slot_mask: int, displacements: Displacements) -> int:
    h = key * multiplier
    bucket = (h >> _BUCKET_SHIFT) & (displacements.shape[0] - 1)
    return ((h >> _SLOT_SHIFT) & slot_mask) ^ int(displacements[bucket])


@njit(cache=True)
def _displace(keys: Keys, multiplier: int, slot_bits: int, bucket_bits: int) -> Table:
    """The displacement of each bucket, biggest buckets placed first (each tries 0, 1, 2...);
    an empty array when some bucket cannot be placed (two of its keys on one slot)."""
    n_slots = 1 << slot_bits
    n_buckets = 1 << bucket_bits
    bucket = np.empty(keys.shape[0], dtype=np.int64)
    slot = np.empty(keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        h = keys[i] * multiplier
        bucket[i] = (h >> _BUCKET_SHIFT) & (n_buckets - 1)
        slot[i] = (h >> _SLOT_SHIFT) & (n_slots - 1)
    members = np.argsort(bucket, kind="mergesort")
    counts = np.bincount(bucket, minlength=n_buckets)
    start = np.zeros(n_buckets + 1, dtype=np.int64)
    start[1:] = np.cumsum(counts)
    used = np.zeros(n_slots, dtype=np.bool_)
    displacements = np.zeros(n_buckets, dtype=np.int32)
    for b in np.argsort(-counts, kind="mergesort"):
        if counts[b] == 0:
            break
        mine = members[start[b] : start[b + 1]]
        placed = False
        for d in range(n_slots):
            free = True
            for x in range(mine.shape[0]):
                s = slot[mine[x]] ^ d
                if used[s]:
                    free = False
                    break
                for y in range(x):
                    if slot[mine[y]] == slot[mine[x]]:
                        return np.zeros(0, dtype=np.int32)
            if free:
                for x in range(mine.shape[0]):
                    used[slot[mine[x]] ^ d] = True
                displacements[b] = d
                placed = True
                break
        if not placed:
            return np.zeros(0, dtype=np.int32)
    return displacements


def perfect_hash(keys: Keys, seed: int = 7) -> PerfectHash:
    """A perfect hash of at most 49,000 distinct non-negative keys below 2**24, from the first
    multiplier of a seeded sequence that places every bucket."""
    slot_bits = max(4, int(np.ceil(np.log2(len(keys) / _MAX_LOAD))))
    if slot_bits > 16:
        raise ValueError(f"{len(keys)} keys: more than 16-bit slots hold")
    rng = np.random.default_rng(seed)
    for _ in range(64):
        # odd and below 2**38: key * multiplier < 2**62 never overflows, so shifts see all bits
        multiplier = int(rng.integers(1 << 37, 1 << 38)) | 1
        displacements = _displace(keys, multiplier, slot_bits, slot_bits - 2)
        if len(displacements):
            return PerfectHash(multiplier, slot_bits, displacements.astype(np.uint16))
    raise RuntimeError(f"no perfect hash found for {len(keys)} keys")


# ------------------------------------------------------------------------------------- tables


@dataclass(frozen=True, slots=True)
class RankTable:
    """The ranks of every multiset of ``size`` ranks, without a flush, by perfect hash slot."""

    size: int
    hash: PerfectHash
    values: Table


@dataclass(frozen=True, slots=True)
class Tables:
    """What a kernel needs for one scale: the rank tables by hand size and the flush table
    (the best flush or straight flush of a suit's 13-bit rank mask)."""

    scale: int
    card_keys: Keys
    flush: Table
    by_size: dict[int, RankTable]


def card_keys() -> Keys:
    """Each code's rank multiplier plus its suit counter's unit; joker and invalid codes carry
    the fallback bit instead.

    >>> keys = card_keys()
    >>> int(keys[51] & 0xFFFFFFFF), hex(int(keys[51]) >> 32), int(keys[52]) == 1 << 56
    (1479181, '0x1000', True)
    """
    codes = np.arange(_CODE_MASK + 1)
    ranks = np.minimum(codes >> 2, 12)
    keys: Keys = np.array(RANK_MULTIPLIERS, dtype=np.int64)[ranks] + (np.int64(1) << (32 + 4 * (codes & 3)))
    keys[JOKER_CODE:] = _FALLBACK_BIT
    return keys


def _rank_multisets(size: int) -> tuple[npt.NDArray[np.int8], Keys]:
    """(codes, rank keys) of every multiset of ``size`` ranks with at most four of each: the
    cards sorted by rank get the suits c, d, h, s round robin, so none is a flush."""
    ranks = np.array(list(combinations_with_replacement(range(13), size)), dtype=np.int64)
    ranks = ranks[~np.any(ranks[:, 4:] == ranks[:, :-4], axis=1)]  # five equal in a sorted row
    keys = np.array(RANK_MULTIPLIERS, dtype=np.int64)[ranks].sum(axis=1)
    if len(np.unique(keys)) != len(keys):
        raise RuntimeError(f"RANK_MULTIPLIERS do not separate the multisets of {size} ranks")
    codes = ranks * 4 + np.arange(size) % 4
    return codes.astype(CARD_DTYPE), keys


def _reference(codes: npt.NDArray[np.int8], scale: int) -> Ranks:
    """The reference kernel of evaluator.scales (best of every five), never the fast path."""
    return scales._best5_rows(np.ascontiguousarray(codes), scale, False)


def _flush_table(scale: int, sizes: tuple[int, ...]) -> Table:
    table = np.zeros(1 << 13, dtype=np.int32)
    for size in sizes:
        ranks = np.array(list(combinations(range(13), size)), dtype=np.int64)
        table[(1 << ranks).sum(axis=1)] = _reference((ranks * 4).astype(CARD_DTYPE), scale)
    return table


@cache
def _hash(size: int) -> tuple[PerfectHash, npt.NDArray[np.int8], Keys]:
    codes, keys = _rank_multisets(size)
    return perfect_hash(keys), codes, keys


def _rank_table(size: int, scale: int) -> RankTable:
    ph, codes, keys = _hash(size)
    values = np.zeros(ph.size, dtype=np.int32)
    values[ph.slots(keys)] = _reference(codes, scale)
    return RankTable(size, ph, values)


@cache
def high_tables() -> Tables:
    """The tables of the high scale for hands of five, six and seven cards (built once)."""
    return Tables(HIGH, card_keys(), _flush_table(HIGH, _HIGH_SIZES),
                  {n: _rank_table(n, HIGH) for n in _HIGH_SIZES})


@cache
def five_card_tables(scale: int) -> Tables:
    """The five-card tables of any five-card scale id of evaluator.scales (built once each)."""
    return Tables(scale, card_keys(), _flush_table(scale, (5,)), {5: _rank_table(5, scale)})


# ------------------------------------------------------------------------- the high kernels


@njit(cache=True)
def _suit_mask(hands: npt.NDArray[np.int8], h: int, key: int) -> int:
    """The 13-bit rank mask of row h's suit that has five cards or more."""
    counters = (key >> 32) & 0x8888
    suit = 0
    while not (counters >> (4 * suit + 3)) & 1:
        suit += 1
    mask = 0
    for j in range(hands.shape[1]):
        if (hands[h, j] & 3) == suit:
            mask |= 1 << (hands[h, j] >> 2)
    return mask


@njit(cache=True)
def _special_high(hands: npt.NDArray[np.int8], h: int, key: int, flush: Table) -> int:
    """Row h when its key has a flush or fallback bit: the flush table, or -1 for a row with a
    joker, which `_fallback_high` ranks afterwards. Only this rare path is a function call: with
    the lookup too in a helper called for every row, which LLVM did not inline, the kernels ran
    8 times slower (numba passes each array as seven arguments)."""
    if key >> 56:
        return -1
    return int(flush[_suit_mask(hands, h, key)])


@njit(cache=True)
def _fallback_high(hands: npt.NDArray[np.int8], out: Ranks) -> Ranks:
    for h in range(hands.shape[0]):
        if out[h] < 0:
            out[h] = scales.best5(hands[h], HIGH, False)
    return out


@njit(cache=True)
def _key7(hands: npt.NDArray[np.int8], h: int, card_keys: Keys) -> int:
    """The card keys of row h summed as a tree, so the additions do not wait on each other."""
    return int((card_keys[hands[h, 0] & _CODE_MASK] + card_keys[hands[h, 1] & _CODE_MASK])
               + (card_keys[hands[h, 2] & _CODE_MASK] + card_keys[hands[h, 3] & _CODE_MASK])
               + (card_keys[hands[h, 4] & _CODE_MASK] + card_keys[hands[h, 5] & _CODE_MASK])
               + (card_keys[hands[h, 6] & _CODE_MASK] + SUIT_BASE))


@njit(cache=True)
def _high7_rows(hands: npt.NDArray[np.int8], card_keys: Keys, flush: Table, multiplier: int,
                slot_mask: int, displacements: Displacements, values: Table) -> Ranks:
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        key = _key7(hands, h, card_keys)
        if key & _SPECIAL:
            out[h] = _special_high(hands, h, key, flush)
        else:
            out[h] = values[slot_of(key & RANK_KEY_BITS, multiplier, slot_mask, displacements)]
    return out


@njit_parallel
def _high7_rows_parallel(hands: npt.NDArray[np.int8], card_keys: Keys, flush: Table, multiplier: int,
                         slot_mask: int, displacements: Displacements, values: Table) -> Ranks:
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in numba.prange(hands.shape[0]):
        key = _key7(hands, h, card_keys)
        if key & _SPECIAL:
            out[h] = _special_high(hands, h, key, flush)
        else:
            out[h] = values[slot_of(key & RANK_KEY_BITS, multiplier, slot_mask, displacements)]
    return out


@njit(cache=True)
def _high_rows(hands: npt.NDArray[np.int8], card_keys: Keys, flush: Table, multiplier: int,
               slot_mask: int, displacements: Displacements, values: Table) -> Ranks:
    """Rows of five or six cards, with the table of that size."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        key = SUIT_BASE
        for j in range(hands.shape[1]):
            key += card_keys[hands[h, j] & _CODE_MASK]
        if key & _SPECIAL:
            out[h] = _special_high(hands, h, key, flush)
        else:
            out[h] = values[slot_of(key & RANK_KEY_BITS, multiplier, slot_mask, displacements)]
    return out


def _as_rows(hands: Hands, min_cards: int) -> npt.NDArray[np.int8]:
    arr = np.ascontiguousarray(hands, dtype=CARD_DTYPE)
    if arr.ndim != 2 or arr.shape[1] < min_cards:
        raise ValueError(f"expected a 2-D array of hands with at least {min_cards} cards per row")
    return arr


def high_batch(hands: Hands, parallel: bool = False) -> Ranks:
    """The high rank of each row of 5 or more cards, EQUAL to ``scales.best5_batch(hands)``:
    one rank-key sum and one lookup per row for 5 to 7 cards, the best five through the
    five-card tables beyond. ``parallel`` spreads seven-card rows over numba's threads."""
    arr = _as_rows(hands, 5)
    width = arr.shape[1]
    if width not in _HIGH_SIZES:
        return best5_batch(arr, HIGH)
    t = high_tables()
    table = t.by_size[width]
    ph = table.hash
    args = (t.card_keys, t.flush, ph.multiplier, ph.size - 1, ph.displacements, table.values)
    if width == 7:
        out = (_high7_rows_parallel if parallel else _high7_rows)(arr, *args)
    else:
        out = _high_rows(arr, *args)
    return _fallback_high(arr, out) if out.min(initial=0) < 0 else out


# ------------------------------------------------------------------- enumerating five-card hands


@njit(cache=True)
def has_fallback(row: npt.NDArray[np.int8]) -> bool:
    """A joker or a code outside 0..51: the row goes to the reference kernel."""
    # a plain loop: row.min() and row.max() took 66 ns a row, a third of the Omaha kernel's time
    for j in range(row.shape[0]):  # noqa: SIM110
        if row[j] < 0 or row[j] >= JOKER_CODE:
            return True
    return False


@njit(cache=True)
def _best5_rows(hands: npt.NDArray[np.int8], scale: int, wild: bool, card_keys: Keys, flush: Table,
                multiplier: int, slot_mask: int, displacements: Displacements, values: Table) -> Ranks:
    """The best five of each row, as scales.best5: the partial sums of keys and rank masks
    are shared by the hands that start with the same cards."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    n = hands.shape[1]
    for h in range(hands.shape[0]):
        row = hands[h]
        if has_fallback(row):
            out[h] = scales.best5(row, scale, wild)
            continue
        best = -1
        for i in range(n - 4):
            k1 = SUIT_BASE + card_keys[row[i]]
            m1 = 1 << (row[i] >> 2)
            for j in range(i + 1, n - 3):
                k2 = k1 + card_keys[row[j]]
                m2 = m1 | (1 << (row[j] >> 2))
                for k in range(j + 1, n - 2):
                    k3 = k2 + card_keys[row[k]]
                    m3 = m2 | (1 << (row[k] >> 2))
                    for m in range(k + 1, n - 1):
                        k4 = k3 + card_keys[row[m]]
                        m4 = m3 | (1 << (row[m] >> 2))
                        for p in range(m + 1, n):
                            key = k4 + card_keys[row[p]]
                            if key & FLUSH_BITS:  # inline, as in the high kernels: no call per hand
                                v = int(flush[m4 | (1 << (row[p] >> 2))])
                            else:
                                v = int(values[slot_of(key & RANK_KEY_BITS, multiplier, slot_mask,
                                                     displacements)])
                            best = max(best, v)
        out[h] = best
    return out


def five_kernel_args(scale: int) -> tuple[Keys, Table, int, int, Displacements, Table]:
    t = five_card_tables(scale)
    table = t.by_size[5]
    ph = table.hash
    return t.card_keys, t.flush, ph.multiplier, ph.size - 1, ph.displacements, table.values


def best5_batch(hands: Hands, scale: int, joker_wild: bool = False) -> Ranks:
    """The best five of each row under a five-card scale id, EQUAL to the reference
    ``scales._best5_rows``; rows with a joker go to it."""
    return _best5_rows(_as_rows(hands, 5), scale, joker_wild, *five_kernel_args(scale))


# ----------------------------------------------------------------------------------------- Omaha


@njit(cache=True)
def _omaha_rows(hands: npt.NDArray[np.int8], n_hole: int, scale: int, floor: int, card_keys: Keys,
                flush: Table, multiplier: int, slot_mask: int, displacements: Displacements,
                values: Table) -> Ranks:
    """Two of the ``n_hole`` hole cards and three of the board: every pair of hole cards and
    every triple of board cards is summed once, then each pair meets each triple."""
    n = hands.shape[1]
    n_pairs = n_hole * (n_hole - 1) // 2
    n_board = n - n_hole
    n_triples = n_board * (n_board - 1) * (n_board - 2) // 6
    pair_key = np.empty(n_pairs, dtype=np.int64)
    pair_mask = np.empty(n_pairs, dtype=np.int64)
    triple_key = np.empty(n_triples, dtype=np.int64)
    triple_mask = np.empty(n_triples, dtype=np.int64)
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        row = hands[h]
        if has_fallback(row):
            v = scales.omaha_best(row, n_hole, scale)
            out[h] = v if v >= floor else NO_LOW
            continue
        q = 0
        for i in range(n_hole - 1):
            for j in range(i + 1, n_hole):
                pair_key[q] = card_keys[row[i]] + card_keys[row[j]]
                pair_mask[q] = (1 << (row[i] >> 2)) | (1 << (row[j] >> 2))
                q += 1
        q = 0
        for i in range(n_hole, n - 2):
            for j in range(i + 1, n - 1):
                for k in range(j + 1, n):
                    triple_key[q] = SUIT_BASE + card_keys[row[i]] + card_keys[row[j]] + card_keys[row[k]]
                    triple_mask[q] = (1 << (row[i] >> 2)) | (1 << (row[j] >> 2)) | (1 << (row[k] >> 2))
                    q += 1
        best = -1
        for p in range(n_pairs):
            for t in range(n_triples):
                key = pair_key[p] + triple_key[t]
                if key & FLUSH_BITS:
                    v = int(flush[pair_mask[p] | triple_mask[t]])
                else:
                    v = int(values[slot_of(key & RANK_KEY_BITS, multiplier, slot_mask, displacements)])
                best = max(best, v)
        out[h] = best if best >= floor else NO_LOW
    return out


def omaha_batch(hands: Hands, n_hole: int, scale: int, floor: int = -1) -> Ranks:
    """Rows of ``n_hole`` hole cards then 3 to 5 board cards: the best hand of exactly two hole
    cards and three board cards under a five-card scale id, EQUAL to the reference
    ``scales._omaha_rows``; ranks below ``floor`` become NO_LOW (a low's qualifier)."""
    return _omaha_rows(_as_rows(hands, n_hole + 3), n_hole, scale, floor, *five_kernel_args(scale))

