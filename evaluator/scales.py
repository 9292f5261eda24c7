"""The hand-strength scales of the BARGE Rulebook (2025) as numba kernels over card codes.

Cards are the int codes of :mod:`evaluator.codes` (``rank * 4 + suit``, the joker 52). Every scale
gives an int64 rank where HIGHER IS BETTER, so every scale compares the same way; equal ranks tie.

============================  =====  ===============================================================
scale name                    id     what it is
============================  =====  ===============================================================
``high``                      0      standard high, App. C (A-2-3-4-5 the lowest straight)
``short_deck``                1      36 cards, §2.45/§2.44: flush beats full house, A-6-7-8-9 wheel
``short_deck_trips``          2      the same, and three of a kind beats a straight (§2.45 option)
``mexican``                   3      41 cards, §2.31: flush beats full house, 5-6-7-J-Q a straight
``ace_to_five``               4      California low, App. A: aces low, straights/flushes ignored
``deuce_to_seven``            5      Kansas City low: aces high, straights and flushes count against
``ace_to_six``                6      London low: aces low, straights and flushes count against
``badugi``                    7      four-card badugi, aces low (§2.7)
``badeucy``                   8      badugi with the ace high, 5-4-3-2 best (§2.6)
============================  =====  ===============================================================

A joker (code 52, at most one per hand) is, in the lowball scales, the card that makes the best
low (App. A: the lowest card that pairs nothing, and in deuce-to-seven that makes no straight or
flush either); in the high scales a bug (§2.22, §2.31 face up: an ace, or any card completing a
straight or flush), or with ``joker_wild`` a completely wild card (§2.31 face down). A joker never
stands for a card the same five already hold, so there are no five aces. Five of a kind
(category 9, above a straight flush in the high scales and worst of all in the lowball ones) is
made only by the wild cards of :mod:`evaluator.wild`, which may stand for a card already held.

>>> from evaluator.codes import encode_hands, parse
>>> full_house = evaluate("high", parse("KhKdKsAcAd"))
>>> full_house > evaluate("high", parse("AhAdAcKcQd"))
True
>>> describe("high", full_house)
'full house, Kings full of Aces'
>>> describe("high", evaluate("high", parse("Ah2c Tc Th 5s 5c As")))
'two pair, Aces and Tens with a Five'
>>> describe("ace_to_five", evaluate("ace_to_five", parse("6h5d4c2sAh")))
'6-5-4-2-A, number 4 in ace-to-five'
>>> describe("deuce_to_seven", evaluate("deuce_to_seven", parse("6c5d4h3sJk")))
'8-6-5-4-3, number 9 in deuce-to-seven'
>>> describe("badugi", evaluate("badugi", parse("7s4c2h2d")))
'three-card 7-4-2 badugi'
>>> hands = encode_hands([parse("AsKs QsJsTs 2c3d"), parse("2c2d 7h8s9d JcQh")])
>>> [describe("high", r) for r in high7_batch(hands)]
['royal flush', 'pair of Deuces with Q-J-9']
>>> omaha = encode_hands([parse("Ah2d KsKd 3c4h5s9d9c"), parse("AhAd KsKd 9c9hTsJdQc")])
>>> omaha_low8_batch(omaha).tolist()[1], describe("ace_to_five", int(omaha_low8_batch(omaha)[0]))
(-1, '5-4-3-2-A, number 1 in ace-to-five')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from evaluator.codes import CARD_DTYPE, JOKER_CODE, RANKS, encode

F = TypeVar("F", bound=Callable[..., Any])

Ranks = npt.NDArray[np.int64]
Hands = npt.NDArray[np.integer[Any]]


def njit(*, cache: bool = True) -> Callable[[F], F]:
    """``numba.njit`` typed for mypy: the kernel keeps its Python signature."""
    return cast("Callable[[F], F]", numba.njit(cache=cache))


HIGH, SHORT_DECK, SHORT_DECK_TRIPS, MEXICAN, ACE_TO_FIVE, DEUCE_TO_SEVEN, ACE_TO_SIX = range(7)
BADUGI, BADEUCY = 7, 8
SCALES: dict[str, int] = {
    "high": HIGH,
    "short_deck": SHORT_DECK,
    "short_deck_trips": SHORT_DECK_TRIPS,
    "mexican": MEXICAN,
    "ace_to_five": ACE_TO_FIVE,
    "deuce_to_seven": DEUCE_TO_SEVEN,
    "ace_to_six": ACE_TO_SIX,
    "badugi": BADUGI,
    "badeucy": BADEUCY,
}
LOW_SCALES = ("ace_to_five", "deuce_to_seven", "ace_to_six")
BADUGI_SCALES = ("badugi", "badeucy")

# The textbook categories, weakest first; a scale's order maps each to the value it compares by.
CATEGORIES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "five of a kind",  # only with wild cards (evaluator.wild)
)
NO_LOW = -1  # the sentinel of the batch low kernels: no qualifying low
LOW_BASE = 1 << 24  # a lowball rank is LOW_BASE minus the hand's high-style key
_TB_BITS = 20  # five 4-bit rank nibbles of tie-break under the category

# Per-scale parameters (rows 0..6 are the five-card scales), read by the kernels as constants.
_ACE_LOW = np.array([0, 0, 0, 0, 1, 0, 1], dtype=np.int64)
_STRAIGHTS = np.array([1, 1, 1, 1, 0, 1, 1], dtype=np.int64)
_FLUSHES = np.array([1, 1, 1, 1, 0, 1, 1], dtype=np.int64)
_IS_LOW = np.array([0, 0, 0, 0, 1, 1, 1], dtype=np.int64)
# The one straight that is not five consecutive ranks (ace playing low), as a rank mask; for
# Mexican Poker in the compressed rank space with the 8, 9 and T taken out.
_WHEEL = np.array([0x100F, 0x10F0, 0x10F0, 0x20F, 0, 0, 0], dtype=np.int64)
_COMPRESS = np.array([0, 0, 0, 1, 0, 0, 0], dtype=np.int64)
_DECK_RANKS = np.array([0x1FFF, 0x1FF0, 0x1FF0, 0x1E3F, 0x1FFF, 0x1FFF, 0x1FFF], dtype=np.int64)
_ORDER = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [0, 1, 2, 3, 4, 6, 5, 7, 8, 9],  # flush beats full house
        [0, 1, 2, 4, 3, 6, 5, 7, 8, 9],  # and three of a kind beats a straight
        [0, 1, 2, 3, 4, 6, 5, 7, 8, 9],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    ],
    dtype=np.int64,
)


# ---------------------------------------------------------------------------- five-card kernels


@njit(cache=True)
def _rank(code: int, scale: int) -> int:
    """The card's rank 0..12 in the scale's order (ace 0 where aces are low)."""
    r = code >> 2
    if _ACE_LOW[scale]:
        return (r + 1) % 13
    return r


@njit(cache=True)
def _groups(r0: int, r1: int, r2: int, r3: int, r4: int) -> tuple[int, int, int, int, int]:
    """(rank mask, quads, trips, pairs, tie-break): the tie-break lists the ranks as 4-bit
    nibbles, larger groups first and higher ranks first within a group, left-aligned in 20 bits."""
    counts = (1 << (4 * r0)) + (1 << (4 * r1)) + (1 << (4 * r2)) + (1 << (4 * r3)) + (1 << (4 * r4))
    mask = 0
    quads = trips = pairs = singles = 0
    nq = nt = np_ = ns = 0
    for r in range(12, -1, -1):
        c = (counts >> (4 * r)) & 15
        if c == 0:
            continue
        mask |= 1 << r
        if c == 1:
            singles = (singles << 4) | r
            ns += 1
        elif c == 2:
            pairs = (pairs << 4) | r
            np_ += 1
        elif c == 3:
            trips = (trips << 4) | r
            nt += 1
        else:
            quads = (quads << 4) | r
            nq += 1
    tb = (((((quads << (4 * nt)) | trips) << (4 * np_)) | pairs) << (4 * ns)) | singles
    tb <<= 4 * (5 - nq - nt - np_ - ns)
    return mask, nq, nt, np_, tb


@njit(cache=True)
def _straight_kind(mask: int, scale: int) -> int:
    """0: no straight; 1: five consecutive ranks; 2: the wheel, whose ace plays low."""
    if not _STRAIGHTS[scale]:
        return 0
    m = mask
    if _COMPRESS[scale]:
        if m & 0x1C0:  # an 8, 9 or T: not a card of the Mexican deck
            return 0
        m = (m & 0x3F) | ((m >> 9) << 6)
    low = m & -m
    if m == low * 31:
        return 1
    if _WHEEL[scale] != 0 and m == _WHEEL[scale]:
        return 2
    return 0


@njit(cache=True)
def _same_suit(c0: int, c1: int, c2: int, c3: int, c4: int) -> bool:
    s = c0 & 3
    return (c1 & 3) == s and (c2 & 3) == s and (c3 & 3) == s and (c4 & 3) == s


@njit(cache=True)
def _classify5(c0: int, c1: int, c2: int, c3: int, c4: int, scale: int) -> tuple[int, int]:
    """(textbook category 0..9, tie-break) of five joker-free cards under the scale; five of
    a kind needs a card twice, which only a wild card's stand-in can be."""
    mask, nq, nt, np_, tb = _groups(
        _rank(c0, scale), _rank(c1, scale), _rank(c2, scale), _rank(c3, scale), _rank(c4, scale)
    )
    if mask & (mask - 1) == 0:  # one rank: `_groups` counted it as quads
        return 9, tb
    if nq:
        return 7, tb
    if nt:
        return (6 if np_ else 3), tb
    if np_:
        return np_, tb
    flush = _FLUSHES[scale] != 0 and _same_suit(c0, c1, c2, c3, c4)
    kind = _straight_kind(mask, scale)
    if kind == 2:  # the ace goes to the bottom: 5-4-3-2-A
        tb = ((tb & 0xFFFF) << 4) | (tb >> 16)
    if kind and flush:
        return 8, tb
    if flush:
        return 5, tb
    if kind:
        return 4, tb
    return 0, tb


@njit(cache=True)
def _value(cat: int, tb: int, scale: int) -> int:
    """The comparable rank: the category's place in the scale, then the tie-break; lowball
    scales turn the order around so that higher is better there too."""
    key = (int(_ORDER[scale, cat]) << _TB_BITS) | tb
    if _IS_LOW[scale]:
        return LOW_BASE - key
    return key


@njit(cache=True)
def _eval5_plain(c0: int, c1: int, c2: int, c3: int, c4: int, scale: int) -> int:
    cat, tb = _classify5(c0, c1, c2, c3, c4, scale)
    return _value(cat, tb, scale)


@njit(cache=True)
def _eval5_joker(a: int, b: int, c: int, d: int, scale: int, wild: bool) -> int:
    """Four cards and the joker: the best card the joker may stand for. In a high scale a bug
    (not ``wild``) is an ace or a card completing a straight or flush."""
    held = (1 << a) | (1 << b) | (1 << c) | (1 << d)
    best = -1
    fallback = -1
    bug = not wild and not _IS_LOW[scale]
    for sub in range(52):
        if (held >> sub) & 1 or not (_DECK_RANKS[scale] >> (sub >> 2)) & 1:
            continue
        cat, tb = _classify5(a, b, c, d, sub, scale)
        v = _value(cat, tb, scale)
        fallback = max(fallback, v)
        if bug and (sub >> 2) != 12 and cat != 4 and cat != 5 and cat != 8:
            continue
        best = max(best, v)
    return best if best >= 0 else fallback


@njit(cache=True)
def eval5(c0: int, c1: int, c2: int, c3: int, c4: int, scale: int, wild: bool) -> int:
    """The rank of five cards (at most one joker) under a five-card scale id."""
    if c0 == JOKER_CODE:
        return _eval5_joker(c1, c2, c3, c4, scale, wild)
    if c1 == JOKER_CODE:
        return _eval5_joker(c0, c2, c3, c4, scale, wild)
    if c2 == JOKER_CODE:
        return _eval5_joker(c0, c1, c3, c4, scale, wild)
    if c3 == JOKER_CODE:
        return _eval5_joker(c0, c1, c2, c4, scale, wild)
    if c4 == JOKER_CODE:
        return _eval5_joker(c0, c1, c2, c3, scale, wild)
    return _eval5_plain(c0, c1, c2, c3, c4, scale)


# ------------------------------------------------------------------------------ best of n cards


@njit(cache=True)
def best5(cards: npt.NDArray[np.int8], scale: int, wild: bool) -> int:
    """The best five of n >= 5 cards under a five-card scale (-1 for fewer than five)."""
    n = cards.shape[0]
    best = -1
    for i in range(n - 4):
        for j in range(i + 1, n - 3):
            for k in range(j + 1, n - 2):
                for m in range(k + 1, n - 1):
                    for p in range(m + 1, n):
                        v = eval5(int(cards[i]), int(cards[j]), int(cards[k]), int(cards[m]),
                                  int(cards[p]), scale, wild)
                        best = max(best, v)
    return best


@njit(cache=True)
def omaha_best(cards: npt.NDArray[np.int8], n_hole: int, scale: int) -> int:
    """Exactly two of the first ``n_hole`` cards and exactly three of the rest (the board)."""
    n = cards.shape[0]
    best = -1
    for i in range(n_hole - 1):
        for j in range(i + 1, n_hole):
            for k in range(n_hole, n - 2):
                for m in range(k + 1, n - 1):
                    for p in range(m + 1, n):
                        v = eval5(int(cards[i]), int(cards[j]), int(cards[k]), int(cards[m]),
                                  int(cards[p]), scale, False)
                        best = max(best, v)
    return best


# -------------------------------------------------------------------------------------- badugi


@njit(cache=True)
def _badugi_subset(c0: int, c1: int, c2: int, c3: int, sub: int, ace_high: bool) -> int:
    """The badugi rank of the cards picked by the 4-bit ``sub`` (-1 when two share a rank or a
    suit): the number of cards, then the lowest highest-card-first."""
    cards = (c0, c1, c2, c3)
    ranks = 0
    suits = 0
    size = 0
    for i in range(4):
        if (sub >> i) & 1:
            r = cards[i] >> 2
            if not ace_high:
                r = (r + 1) % 13
            s = cards[i] & 3
            if (ranks >> r) & 1 or (suits >> s) & 1:
                return -1
            ranks |= 1 << r
            suits |= 1 << s
            size += 1
    key = 0
    for r in range(12, -1, -1):
        if (ranks >> r) & 1:
            key = (key << 4) | r
    key <<= 4 * (4 - size)
    return (size << 16) | (0xFFFF - key)


@njit(cache=True)
def badugi4(c0: int, c1: int, c2: int, c3: int, ace_high: bool) -> int:
    """Four cards as a badugi: the most cards of distinct ranks and suits, the lowest of those."""
    best = -1
    for sub in range(1, 16):
        best = max(best, _badugi_subset(c0, c1, c2, c3, sub, ace_high))
    return best


@njit(cache=True)
def best_badugi(cards: npt.NDArray[np.int8], ace_high: bool) -> int:
    """The best badugi of any four of n >= 4 cards (-1 for fewer than four)."""
    n = cards.shape[0]
    best = -1
    for i in range(n - 3):
        for j in range(i + 1, n - 2):
            for k in range(j + 1, n - 1):
                for m in range(k + 1, n):
                    v = badugi4(int(cards[i]), int(cards[j]), int(cards[k]), int(cards[m]), ace_high)
                    best = max(best, v)
    return best


# ------------------------------------------------------------------------------- batch kernels


@njit(cache=True)
def _best5_rows(hands: npt.NDArray[np.int8], scale: int, wild: bool) -> Ranks:
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        out[h] = best5(hands[h], scale, wild)
    return out


@njit(cache=True)
def _omaha_rows(hands: npt.NDArray[np.int8], n_hole: int, scale: int, floor: int) -> Ranks:
    """Omaha ranks of every row; ranks below ``floor`` become NO_LOW (a qualifier)."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        v = omaha_best(hands[h], n_hole, scale)
        out[h] = v if v >= floor else NO_LOW
    return out


@njit(cache=True)
def _badugi_rows(hands: npt.NDArray[np.int8], ace_high: bool) -> Ranks:
    out = np.empty(hands.shape[0], dtype=np.int64)
    for h in range(hands.shape[0]):
        out[h] = best_badugi(hands[h], ace_high)
    return out


# --------------------------------------------------------------------------- Python entry points


def _scale_id(scale: str, five_card: bool = True) -> int:
    if scale not in SCALES or (five_card and scale in BADUGI_SCALES):
        raise ValueError(f"unknown {'five-card ' if five_card else ''}scale {scale!r}")
    return SCALES[scale]


def _as_hands(hands: Hands, min_cards: int) -> npt.NDArray[np.int8]:
    arr = np.ascontiguousarray(hands, dtype=CARD_DTYPE)
    if arr.ndim != 2 or arr.shape[1] < min_cards:
        raise ValueError(f"expected a 2-D array of hands with at least {min_cards} cards per row")
    return arr


def low_floor(qualifier: int = 8) -> int:
    """The ace-to-five rank of the worst qualifying low: ``qualifier``-or-better, e.g. 8-7-6-5-4.

    >>> low_floor(8) == evaluate("ace_to_five", ["8c", "7d", "6h", "5s", "4c"])
    True
    """
    key = sum((qualifier - 1 - i) << (16 - 4 * i) for i in range(5))
    return LOW_BASE - key


def best5_batch(hands: Hands, scale: str = "high", joker_wild: bool = False) -> Ranks:
    """The best five of each row's cards (5 or more per row) under a five-card scale: the
    table-driven kernels of evaluator.fast7, whose ranks equal `_best5_rows`'s."""
    from evaluator import fast7  # not at the top: fast7 builds its tables with this module's kernels

    arr, sid = _as_hands(hands, 5), _scale_id(scale)
    if sid == HIGH and not joker_wild:
        return fast7.high_batch(arr)
    return fast7.best5_batch(arr, sid, joker_wild)


def high7_batch(hands: Hands) -> Ranks:
    """Seven-card (or any n >= 5) high: the best five of each row."""
    return best5_batch(hands, "high")


def low8_batch(hands: Hands, qualifier: int = 8) -> Ranks:
    """Ace-to-five low of the best five of each row, NO_LOW unless ``qualifier``-or-better."""
    ranks = best5_batch(hands, "ace_to_five")
    return np.where(ranks >= low_floor(qualifier), ranks, NO_LOW)


def omaha_high_batch(hands: Hands, n_hole: int = 4, scale: str = "high") -> Ranks:
    """Rows of ``n_hole`` hole cards then the board (3 to 5 cards): two hole cards and three
    board cards exactly."""
    from evaluator import fast7  # as in best5_batch: the same ranks as _omaha_rows, from tables

    return fast7.omaha_batch(_as_hands(hands, n_hole + 3), n_hole, _scale_id(scale))


def omaha_low8_batch(hands: Hands, n_hole: int = 4, qualifier: int = 8) -> Ranks:
    """Omaha ace-to-five low with the ``qualifier``-or-better rule; NO_LOW when none qualifies."""
    from evaluator import fast7

    return fast7.omaha_batch(_as_hands(hands, n_hole + 3), n_hole, ACE_TO_FIVE, low_floor(qualifier))


def badugi_batch(hands: Hands, ace_high: bool = False) -> Ranks:
    """The best four-card badugi of each row (4 or 5 cards); ``ace_high`` for badeucy."""
    return _badugi_rows(_as_hands(hands, 4), ace_high)


def evaluate(scale: str, cards: Sequence[str], joker_wild: bool = False) -> int:
    """The rank of one hand (card strings) under a named scale: the best five for the five-card
    scales, the best four-card badugi for ``badugi`` and ``badeucy``."""
    codes = encode(cards)
    if scale in BADUGI_SCALES:
        if len(codes) < 4:
            raise ValueError("a badugi hand needs four cards")
        return int(best_badugi(codes, scale == "badeucy"))
    if len(codes) < 5:
        raise ValueError("a five-card scale needs five cards")
    return int(best5(codes, _scale_id(scale), joker_wild))


# ------------------------------------------------------------------------------------- describe

_NAMES = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
          "King", "Ace")
_PLURALS = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks",
            "Queens", "Kings", "Aces")
_LOW_TITLES = {"ace_to_five": "ace-to-five", "deuce_to_seven": "deuce-to-seven", "ace_to_six": "ace-to-six"}


def _raw(value: int, ace_low: bool) -> int:
    """A scale's rank nibble back to the rank index of codes.RANKS (0 deuce .. 12 ace)."""
    return (value - 1) % 13 if ace_low else value


def _split(scale: str, rank: int) -> tuple[int, list[int]]:
    """(textbook category, rank indexes of the tie-break) of a five-card scale's rank."""
    sid = _scale_id(scale)
    key = LOW_BASE - rank if _IS_LOW[sid] else rank
    value = key >> _TB_BITS
    cat = int(np.flatnonzero(_ORDER[sid] == value)[0])
    nibbles = [(key >> (16 - 4 * i)) & 15 for i in range(5)]
    return cat, [_raw(v, bool(_ACE_LOW[sid])) for v in nibbles]


def category_ranks(scale: str, rank: int) -> tuple[int, list[int]]:
    """(the index of its textbook category in CATEGORIES, the rank indexes of its tie-break, 0 the
    deuce) of a five-card scale's rank: a pair's first rank is the pair's."""
    return _split(scale, rank)


def category_floor(scale: str, name: str) -> int:
    """The lowest rank of a high scale's category `name` (a name of CATEGORIES): a hand qualifies
    for "at least a full house" (La Bumba, home game #738) when its rank is this or more.

    >>> full = category_floor("high", "full house")
    >>> flush = evaluate("high", ["Ah", "Kh", "Qh", "Jh", "9h"])
    >>> evaluate("high", ["2c", "2d", "2h", "3s", "3c"]) >= full > flush
    True
    """
    sid = _scale_id(scale)
    if _IS_LOW[sid]:
        raise ValueError(f"a category floor is a high scale's: {scale!r}")
    return int(_ORDER[sid][CATEGORIES.index(name)]) << _TB_BITS


def category(scale: str, rank: int) -> str:
    """The textbook category of a five-card scale's rank ("flush", "full house", ...)."""
    return CATEGORIES[_split(scale, rank)[0]]


def _dashed(ranks: Sequence[int]) -> str:
    return "-".join(RANKS[r] for r in ranks)


@cache
def numbered_hands(scale: str) -> tuple[int, ...]:
    """The ranks of lowball "Number #1".."#53" (App. A), best first: non-flush hands only."""
    sid = _scale_id(scale)
    values = set()
    for ranks in combinations(range(13), 5):
        codes = [r * 4 for r in ranks]
        codes[0] += 1  # two suits: never a flush
        c0, c1, c2, c3, c4 = codes
        values.add(int(eval5(c0, c1, c2, c3, c4, sid, False)))
    return tuple(sorted(values, reverse=True)[:53])


def _a(rank: int) -> str:
    return ("an " if _NAMES[rank][0] in "AE" else "a ") + _NAMES[rank]


def _describe_high(cat: int, r: list[int]) -> str:
    if cat == 9:
        return f"five of a kind, {_PLURALS[r[0]]}"
    if cat == 8:
        return "royal flush" if r[0] == 12 else f"straight flush, {_NAMES[r[0]]} high"
    if cat == 7:
        return f"four of a kind, {_PLURALS[r[0]]} with {_a(r[1])}"
    if cat == 6:
        return f"full house, {_PLURALS[r[0]]} full of {_PLURALS[r[1]]}"
    if cat == 5:
        return f"flush, {_dashed(r)}"
    if cat == 4:
        return f"straight, {_NAMES[r[0]]} high"
    if cat == 3:
        return f"three of a kind, {_PLURALS[r[0]]} with {_dashed(r[1:3])}"
    if cat == 2:
        return f"two pair, {_PLURALS[r[0]]} and {_PLURALS[r[1]]} with {_a(r[2])}"
    if cat == 1:
        return f"pair of {_PLURALS[r[0]]} with {_dashed(r[1:4])}"
    return f"high card, {_dashed(r)}"


def _describe_low(scale: str, cat: int, r: list[int], rank: int) -> str:
    cards = _dashed(r)  # the nibbles are already in the scale's order, highest first
    if cat == 0:
        numbers = numbered_hands(scale)
        if rank in numbers:
            return f"{cards}, number {numbers.index(rank) + 1} in {_LOW_TITLES[scale]}"
        return cards
    if cat in (4, 5, 8):
        return f"{CATEGORIES[cat]} {cards}"
    return _describe_high(cat, r)


def describe(scale: str, rank: int) -> str:
    """Readable text for a rank of the named scale.

    >>> describe("short_deck", evaluate("short_deck", ["Ah", "6d", "7c", "8s", "9h"]))
    'straight, Nine high'
    >>> describe("badeucy", evaluate("badeucy", ["5c", "4d", "3h", "2s"]))
    'four-card 5-4-3-2 badugi'
    >>> describe("ace_to_five", -1)
    'no qualifying low'
    """
    rank = int(rank)
    if rank == NO_LOW:
        return "no qualifying low"
    if scale in BADUGI_SCALES:
        size = rank >> 16
        key = 0xFFFF - (rank & 0xFFFF)
        nibbles = [(key >> (12 - 4 * i)) & 15 for i in range(size)]
        words = ("", "one", "two", "three", "four")
        return f"{words[size]}-card {_dashed([_raw(v, scale == 'badugi') for v in nibbles])} badugi"
    cat, r = _split(scale, rank)
    if scale in LOW_SCALES:
        return _describe_low(scale, cat, r, rank)
    return _describe_high(cat, r)
