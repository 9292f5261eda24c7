"""The hand-strength scales of evaluator/scales.py against the BARGE Rulebook (2025):
Appendix A (lowball scales and the numbered hands), Appendix C (what beats what), §2.45/§2.44
(short deck), §2.31 (Mexican Poker), §2.5-§2.7 (badugi, badeucy), §2.22 (the bug)."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import chain, combinations, combinations_with_replacement, pairwise
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from evaluator import scales
from evaluator.codes import RANKS, SUITS, decode, encode, encode_hands, parse
from evaluator.scales import describe, evaluate
from tests.conftest import SHARED

RULEBOOK = SHARED / "rules" / "barge-rulebook-2025.txt"

# Appendix A, "Number" of Lowball Hands: #1..#53 for A-to-5, 2-to-7 and A-to-6.
TABLE = """
5432A 75432 6432A|6432A 76432 6532A|6532A 76532 6542A|6542A 76542 6543A|6543A 85432 7432A
65432 86432 7532A|7432A 86532 7542A|7532A 86542 7543A|7542A 86543 75432|7543A 87432 7632A
75432 87532 7642A|7632A 87542 7643A|7642A 87543 76432|7643A 87632 7652A|76432 87642 7653A
7652A 87643 76532|7653A 87652 7654A|76532 87653 76542|7654A 95432 8432A|76542 96432 8532A
76543 96532 8542A|8432A 96542 8543A|8532A 96543 85432|8542A 97432 8632A|8543A 97532 8642A
85432 97542 8643A|8632A 97543 86432|8642A 97632 8652A|8643A 97642 8653A|86432 97643 86532
8652A 97652 8654A|8653A 97653 86542|86532 97654 86543|8654A 98432 8732A|86542 98532 8742A
86543 98542 8743A|8732A 98543 87432|8742A 98632 8752A|8743A 98642 8753A|87432 98643 87532
8752A 98652 8754A|8753A 98653 87542|87532 98654 87543|8754A 98732 8762A|87542 98742 8763A
87543 98743 87632|8762A 98752 8764A|8763A 98753 87642|87632 98754 87643|8764A 98762 8765A
87642 98763 87652|87643 98764 87653|8765A T5432 9432A
"""
ROWS = [row.split() for row in TABLE.replace("\n", "|").split("|") if row.strip()]
LOWS = ("ace_to_five", "deuce_to_seven", "ace_to_six")


def table_column(scale: str) -> list[str]:
    return [row[LOWS.index(scale)] for row in ROWS]


def rank_of(scale: str, text: str) -> int:
    return evaluate(scale, parse(text))


# ------------------------------------------------------------------------------------ fixtures


@cache
def all_hands(n: int, ranks: str = RANKS) -> npt.NDArray[np.int8]:
    """Every n-card hand of the deck made of ``ranks``, one per row."""
    deck = [RANKS.index(r) * 4 + s for r in ranks for s in range(4)]
    flat = chain.from_iterable(combinations(deck, n))
    return np.fromiter(flat, dtype=np.int8, count=comb(len(deck), n) * n).reshape(-1, n)


@cache
def rank_multisets() -> tuple[npt.NDArray[np.int8], list[str]]:
    """Every multiset of five ranks, as a hand that is never a flush, and as text like 8654A."""
    hands = []
    texts = []
    for values in combinations_with_replacement(range(13), 5):
        if values.count(values[0]) == 5:
            continue
        seen: Counter[int] = Counter()
        codes = []
        for v in values:
            codes.append(v * 4 + seen[v])
            seen[v] += 1
        if len(set(values)) == 5:
            codes[0] += 1  # two suits: not a flush
        hands.append(codes)
        texts.append("".join(RANKS[v] for v in sorted(values, reverse=True)))
    return np.array(hands, dtype=np.int8), texts


def multisets_by_rank(scale: str) -> list[tuple[int, str]]:
    """(rank, text) of the non-flush hands of each rank multiset, best first."""
    hands, texts = rank_multisets()
    ranks = scales.best5_batch(hands, scale)
    return sorted(zip(ranks.tolist(), texts, strict=True), reverse=True)


def low_text(scale: str, text: str) -> str:
    """8654A style: ace written last where aces are low."""
    if scale != "deuce_to_seven" and text.startswith("A"):
        return text[1:] + "A"
    return text


# ------------------------------------------------------------------------------- Appendix A


def test_rows_of_the_table_in_this_file_match_the_rulebook() -> None:
    if not RULEBOOK.exists():
        pytest.skip("the rulebook is not in ../shared")
    text = RULEBOOK.read_text(encoding="utf-8")
    rows = re.findall(r"^(\d+)\t(\w{5})\t(\w{5})\t(\w{5})$", text, re.M)
    assert [int(r[0]) for r in rows] == list(range(1, 54))
    assert [list(r[1:]) for r in rows] == ROWS


@pytest.mark.parametrize("scale", LOWS)
def test_numbered_hands_are_the_53_best_in_table_order(scale: str) -> None:
    best = multisets_by_rank(scale)[:54]
    assert len({r for r, _ in best}) == 54  # no ties among them
    assert [low_text(scale, t) for _, t in best[:53]] == table_column(scale)
    assert scales.numbered_hands(scale) == tuple(r for r, _ in best[:53])


@pytest.mark.parametrize("scale", ["deuce_to_seven", "ace_to_six"])
def test_numbered_hands_must_not_be_flushes(scale: str) -> None:
    worst_numbered = rank_of(scale, {"deuce_to_seven": "Tc5d4c3c2c", "ace_to_six": "9c4d3c2cAc"}[scale])
    for text in table_column(scale):
        suited = [c + "h" for c in text]
        assert evaluate(scale, suited) < worst_numbered
        assert scales.category(scale, evaluate(scale, suited)) in ("flush", "straight flush")


def test_counts_of_the_appendix_a_text() -> None:
    a5 = multisets_by_rank("ace_to_five")
    assert sum(r >= scales.low_floor(7) for r, _ in a5) == 21
    assert sum(r >= scales.low_floor(8) for r, _ in a5) == 56
    assert Counter(low_text("ace_to_five", t)[0] for _, t in a5[:56]) == {"5": 1, "6": 5, "7": 15, "8": 35}
    d27 = multisets_by_rank("deuce_to_seven")
    nine_or_better = [t for r, t in d27 if r >= rank_of("deuce_to_seven", "9c8d7c6c4c")]
    assert len(nine_or_better) == 52
    assert Counter(t[0] for t in nine_or_better) == {"7": 4, "8": 14, "9": 34}
    assert low_text("deuce_to_seven", d27[52][1]) == "T5432"  # the perfect ten is number 53


def test_ace_to_five_examples() -> None:
    a5 = "ace_to_five"
    assert rank_of(a5, "AcAd7h6s5c") > rank_of(a5, "2c2d5h4s3c")
    assert rank_of(a5, "AcAd6h5s4c") > rank_of(a5, "AhAs7h3s2c")
    assert rank_of(a5, "5c4c3c2cAc") == max(scales.best5_batch(all_hands(5), a5))  # wheel, flush or not
    assert rank_of(a5, "6c5d4h3s2c") > rank_of(a5, "7c4d3h2sAc")  # a straight does not count
    # the joker is the lowest card that does not pair: 653A + joker plays as 6532A
    assert rank_of(a5, "6c5d3hAsJk") == rank_of(a5, "6c5d3hAs2h")
    assert describe(a5, rank_of(a5, "6c5d3hAsJk")) == "6-5-3-2-A, number 3 in ace-to-five"
    assert rank_of(a5, "2c3d4h5sJk") == rank_of(a5, "5c4c3c2cAc")
    assert rank_of(a5, "AcAdAhAsJk") == rank_of(a5, "AcAdAhAs2c")


def lowest_unpaired_joker(cards: list[str], scale: str) -> list[str]:
    """App. A's rule for the joker written directly: the lowest rank that pairs nothing (and, in
    deuce-to-seven, makes no straight), in a suit that makes no flush."""
    order = "A23456789TJQK" if scale == "ace_to_five" else RANKS
    held = [c for c in cards if c != "Jk"]
    held_ranks = {c[0] for c in held}
    for r in order:
        if r in held_ranks:
            continue
        if scale == "deuce_to_seven" and len(held_ranks) == 4:
            idx = sorted(RANKS.index(x) for x in held_ranks | {r})
            if idx[4] - idx[0] == 4:
                continue
        suits = [s for s in SUITS if r + s not in held]
        unflushed = [s for s in suits if {c[1] for c in held} != {s}]
        return [*held, r + (unflushed or suits)[0]]
    return [*held, "Ac"]


@pytest.mark.parametrize("scale", ["ace_to_five", "deuce_to_seven"])
def test_joker_is_the_lowest_card_that_makes_a_low(scale: str) -> None:
    rng = random.Random(7)
    deck = [r + s for r in RANKS for s in SUITS]
    for _ in range(1500):
        cards = [*rng.sample(deck, 4), "Jk"]
        assert evaluate(scale, cards) == evaluate(scale, lowest_unpaired_joker(cards, scale)), cards


def test_deuce_to_seven_examples() -> None:
    d27 = "deuce_to_seven"
    assert rank_of(d27, "2c2d5h4s3c") > rank_of(d27, "AcAd7h6s5c")
    assert rank_of(d27, "7c6d5h4s3c") > rank_of(d27, "8c7d6h5s4c")
    assert scales.category(d27, rank_of(d27, "7c6d5h4s3c")) == "straight"
    assert rank_of(d27, "8h6h5h4h3h") > rank_of(d27, "9c5c4c3c2c")
    # A5432 is not a straight: a perfect ace high, beating every pair and every king high
    wheel = rank_of(d27, "Ac5d4h3s2c")
    assert scales.category(d27, wheel) == "high card"
    assert wheel < rank_of(d27, "KcQdJh9s8c") and wheel > rank_of(d27, "2c2d3h4s5c")
    assert rank_of(d27, "7c5d4h3s2c") > rank_of(d27, "7h5h4h3h2h")  # not single suited
    assert rank_of(d27, "6c5d4h3sJk") == rank_of(d27, "8c6c5d4h3s")  # the joker plays as an eight
    assert describe(d27, rank_of(d27, "AcKdQhJsTc")) == "straight A-K-Q-J-T"


def test_ace_to_six_examples() -> None:
    a6 = "ace_to_six"
    best = max(scales.best5_batch(all_hands(5), a6))
    assert describe(a6, int(best)) == "6-4-3-2-A, number 1 in ace-to-six"
    assert scales.category(a6, rank_of(a6, "5c4d3h2sAc")) == "straight"
    assert scales.category(a6, rank_of(a6, "AcKdQhJsTc")) == "high card"  # the ace is only low
    assert rank_of(a6, "AcAd7h6s5c") > rank_of(a6, "2c2d5h4s3c")


# -------------------------------------------------------------------------------------- badugi


def ref_badugi(cards: Sequence[str], ace_high: bool) -> tuple[int, list[int]]:
    """Plain Python: (number of cards, minus the ranks highest first); larger is better."""
    order = RANKS if ace_high else "A23456789TJQK"
    best = (0, [0])
    for size in range(1, 5):
        for sub in combinations(cards, size):
            if len({c[0] for c in sub}) == size and len({c[1] for c in sub}) == size:
                ranks = sorted((order.index(c[0]) for c in sub), reverse=True)
                best = max(best, (size, [-r for r in ranks]))
    return best


def test_badugi_examples() -> None:
    bd = "badugi"
    assert rank_of(bd, "7s3s2hAd") == rank_of(bd, "3c3d2sAh")  # 32A: the fourth card does not play
    assert describe(bd, rank_of(bd, "7s3s2hAd")) == "three-card 3-2-A badugi"
    assert rank_of(bd, "7s4c2h2d") > rank_of(bd, "7d5cAhAd")  # 742 beats 75A
    everything = scales.badugi_batch(all_hands(4))
    assert rank_of(bd, "4c3d2hAs") == everything.max()
    three_card = everything[everything >> 16 == 3]
    assert rank_of(bd, "KcQdJhTs") > three_card.max()
    assert rank_of(bd, "KcQdJhTs") == everything[everything >> 16 == 4].min()


def test_badeucy_examples() -> None:
    bx = "badeucy"
    everything = scales.badugi_batch(all_hands(4), ace_high=True)
    assert rank_of(bx, "5c4d3h2s") == everything.max()
    assert rank_of(bx, "AcKdQhJs") > everything[everything >> 16 == 3].max()
    assert rank_of(bx, "7c4d3h3s") > rank_of(bx, "7c5d2h2s")  # 743 beats 752
    assert rank_of(bx, "5c4d3h2s") > rank_of(bx, "4c3d2hAs")  # the ace is high
    assert describe(bx, rank_of(bx, "Ac4c3h2s")) == "three-card 4-3-2 badugi"


@pytest.mark.parametrize("ace_high", [False, True])
def test_badugi_census(ace_high: bool) -> None:
    ranks = scales.badugi_batch(all_hands(4), ace_high)
    assert len(np.unique(ranks)) == sum(comb(13, k) for k in range(1, 5)) == 1092
    sizes = np.bincount(ranks >> 16, minlength=5)
    assert sizes[4] == comb(13, 4) * 24  # four ranks, the suits in any order
    assert sizes[1] == 4 * comb(13, 4) + 13  # one suit, or one rank
    assert sizes.sum() == comb(52, 4)


@pytest.mark.parametrize("ace_high", [False, True])
def test_badugi_orders_like_plain_python(ace_high: bool) -> None:
    rng = np.random.default_rng(11)
    hands = np.array([rng.permutation(52)[:5] for _ in range(3000)], dtype=np.int8)
    assert_same_order(
        scales.badugi_batch(hands, ace_high),
        [ref_badugi(decode(h), ace_high) for h in hands],
    )


# ---------------------------------------------------------------------------- high: Appendix C

TEXTBOOK = {
    "straight flush": 40,
    "four of a kind": 624,
    "full house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three of a kind": 54912,
    "two pair": 123552,
    "pair": 1098240,
    "high card": 1302540,
}


def census(ranks: npt.NDArray[np.int64], scale: str) -> dict[str, int]:
    values, counts = np.unique(ranks >> 20, return_counts=True)
    return {scales.category(scale, int(v) << 20): int(n) for v, n in zip(values, counts, strict=True)}


def test_high_census() -> None:
    ranks = scales.high7_batch(all_hands(5))
    assert len(np.unique(ranks)) == 7462
    assert census(ranks, "high") == TEXTBOOK
    ordered = [scales.category("high", int(v) << 20) for v in np.unique(ranks >> 20)]
    assert ordered == list(scales.CATEGORIES[:-1])  # weakest first; five of a kind needs a wild card


@pytest.mark.parametrize(("scale", "distinct"), [("ace_to_five", 6175), ("deuce_to_seven", 7462),
                                                 ("ace_to_six", 7462)])
def test_low_census(scale: str, distinct: int) -> None:
    ranks = scales.best5_batch(all_hands(5), scale)
    assert len(np.unique(ranks)) == distinct
    # ace-to-five: every multiset of five ranks, none five of a kind
    assert comb(13 + 4, 5) - 13 == 6175


def test_appendix_c_examples() -> None:
    board = "TcTh5s5cAs"
    kings, ace_deuce = rank_of("high", "KsKh" + board), rank_of("high", "Ah2c" + board)
    assert ace_deuce > kings
    assert describe("high", kings) == "two pair, Kings and Tens with an Ace"
    assert describe("high", ace_deuce) == "two pair, Aces and Tens with a Five"
    assert rank_of("high", "AcKdQhJsTc") == rank_of("high", "AhKsQdJcTh")  # two ace-high straights tie
    wheel = rank_of("high", "Ac2d3h4s5c")
    assert rank_of("high", "AcAdAhKsQc") < wheel < rank_of("high", "2c3d4h5s6c")
    assert describe("high", wheel) == "straight, Five high"
    assert describe("high", rank_of("high", "AhKhQhJhTh")) == "royal flush"
    assert describe("high", rank_of("high", "8s8h8c8dJs")) == "four of a kind, Eights with a Jack"
    assert describe("high", rank_of("high", "7c7s7d2h2d")) == "full house, Sevens full of Deuces"
    assert describe("high", rank_of("high", "AhKh9h7h6h")) == "flush, A-K-9-7-6"
    assert describe("high", rank_of("high", "6c6d6hAhKs")) == "three of a kind, Sixes with A-K"
    assert describe("high", rank_of("high", "2s3s4d5c7h")) == "high card, 7-5-4-3-2"


def test_bug_and_wild_joker_in_high() -> None:
    assert describe("high", rank_of("high", "AsKsQsJsJk")) == "royal flush"
    assert describe("high", rank_of("high", "KhKd7c7sJk")) == "two pair, Kings and Sevens with an Ace"
    assert describe("high", evaluate("high", parse("KhKd7c7sJk"), joker_wild=True)) == (
        "full house, Kings full of Sevens"
    )
    assert describe("high", rank_of("high", "9h8d7c6sJk")) == "straight, Ten high"
    assert describe("high", rank_of("high", "AhAd5c3sJk")) == "three of a kind, Aces with 5-3"
    assert describe("high", rank_of("high", "2h4h6h8hJk")) == "flush, A-8-6-4-2"


# ------------------------------------------------------------------------ short deck, Mexican

SHORT_DECK_CENSUS = {
    "straight flush": 4 * 6,
    "four of a kind": 9 * 32,
    "full house": 9 * 4 * 8 * 6,
    "flush": 4 * comb(9, 5) - 24,
    "straight": 6 * 4**5 - 24,
    "three of a kind": 9 * 4 * comb(8, 2) * 16,
    "two pair": comb(9, 2) * 36 * 7 * 4,
    "pair": 9 * 6 * comb(8, 3) * 64,
    "high card": (comb(9, 5) - 6) * (4**5 - 4),
}


@pytest.mark.parametrize("scale", ["short_deck", "short_deck_trips"])
def test_short_deck_census_and_order(scale: str) -> None:
    ranks = scales.best5_batch(all_hands(5, "6789TJQKA"), scale)
    assert census(ranks, scale) == SHORT_DECK_CENSUS
    ordered = [scales.category(scale, int(v) << 20) for v in np.unique(ranks >> 20)]
    assert ordered.index("flush") > ordered.index("full house")
    trips_over = ordered.index("three of a kind") > ordered.index("straight")
    assert trips_over == (scale == "short_deck_trips")


def test_short_deck_examples() -> None:
    sd = "short_deck"
    assert rank_of(sd, "Ah9h8h7h6h") > rank_of(sd, "KhQh9h7h6h") > rank_of(sd, "AcAdAhKcKd")
    wheel = rank_of(sd, "Ac6d7h8s9c")
    assert describe(sd, wheel) == "straight, Nine high"
    straights = [r for r in scales.best5_batch(all_hands(5, "6789TJQKA"), sd).tolist()
                 if scales.category(sd, r) == "straight"]
    assert min(straights) == wheel
    assert rank_of(sd, "AcAdAhKsQc") < wheel
    assert rank_of("short_deck_trips", "AcAdAhKsQc") > rank_of("short_deck_trips", "AcKdQhJsTc")
    assert describe(sd, rank_of(sd, "9h8h7h6hAh")) == "straight flush, Nine high"


def test_mexican_examples() -> None:
    mx = "mexican"
    assert describe(mx, rank_of(mx, "5c6d7hJsQc")) == "straight, Queen high"
    assert describe(mx, rank_of(mx, "7c6d5h4s3c")) == "straight, Seven high"
    assert describe(mx, rank_of(mx, "Ac2d3h4s5c")) == "straight, Five high"
    assert rank_of(mx, "Kh7h5h3h2h") > rank_of(mx, "AcAdAhKcKd")  # flush beats full house
    assert describe(mx, rank_of(mx, "5c6d7hJsJk")) == "straight, Queen high"  # the bug completes it
    wild = evaluate(mx, parse("KcKdKh2s2cJk"), joker_wild=True)
    assert describe(mx, wild) == "four of a kind, Kings with a Deuce"


# ------------------------------------------------------------------- against a plain reference


def ref_key(cards: Sequence[str], scale: str) -> tuple[Any, ...]:
    """Plain Python reading of the scale, larger is better: categories by the shape of the rank
    counts, ranks by group size then rank; lowball scales reverse the order."""
    ace_low = scale in ("ace_to_five", "ace_to_six")
    values = [1 if ace_low and c[0] == "A" else RANKS.index(c[0]) + 2 for c in cards]
    counts = Counter(values)
    ordered = [v for v, _ in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]
    shape = sorted(counts.values(), reverse=True)
    cat = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0)
    if cat == 0 and scale != "ace_to_five":
        flush = len({c[1] for c in cards}) == 1
        run = sorted(values)
        straight = run[4] - run[0] == 4
        short = [6, 7, 8, 9, 14]
        wheels = {"high": [2, 3, 4, 5, 14], "short_deck": short, "short_deck_trips": short}
        if run == wheels.get(scale):
            straight, ordered = True, [*run[:4][::-1], 1]
        if scale == "mexican":
            present = [2, 3, 4, 5, 6, 7, 11, 12, 13, 14]
            pos = sorted(present.index(v) for v in values)
            straight = pos[4] - pos[0] == 4 or pos == [0, 1, 2, 3, 9]
            if pos == [0, 1, 2, 3, 9]:
                ordered = [5, 4, 3, 2, 1]
        cat = 8 if straight and flush else 5 if flush else 4 if straight else 0
    order = list(range(9))
    if scale in ("short_deck", "short_deck_trips", "mexican"):
        order[5], order[6] = 6, 5
    if scale == "short_deck_trips":
        order[3], order[4] = 4, 3
    if scale in LOWS:
        return (-order[cat], [-v for v in ordered])
    return (order[cat], ordered)


def assert_same_order(ranks: npt.NDArray[np.int64], keys: Sequence[Any]) -> None:
    """The kernel's ranks and the reference keys order the hands identically, ties included."""
    idx = np.argsort(ranks, kind="stable")
    for a, b in pairwise(idx):
        if ranks[a] == ranks[b]:
            assert keys[a] == keys[b], (a, b)
        else:
            assert keys[a] < keys[b], (a, b)


DECKS = {"short_deck": "6789TJQKA", "short_deck_trips": "6789TJQKA", "mexican": "234567JQKA"}


@pytest.mark.parametrize("scale", ["high", *DECKS, *LOWS])
def test_seven_card_best_five_orders_like_plain_python(scale: str) -> None:
    rng = random.Random(scale)
    deck = [r + s for r in DECKS.get(scale, RANKS) for s in SUITS]
    hands = [rng.sample(deck, 7) for _ in range(1500)]
    keys = [max(ref_key(five, scale) for five in combinations(h, 5)) for h in hands]
    assert_same_order(scales.best5_batch(encode_hands(hands), scale), keys)


# ---------------------------------------------------------------------------- batch and omaha


def test_batch_shapes_and_seven_card_high() -> None:
    hands = encode_hands([parse("KsKh TcTh5s5cAs"), parse("Ah2c TcTh5s5cAs")])
    ranks = scales.high7_batch(hands)
    assert ranks.dtype == np.int64 and ranks.shape == (2,)
    assert ranks[1] > ranks[0]
    assert scales.high7_batch(hands.astype(np.int64)).tolist() == ranks.tolist()
    with pytest.raises(ValueError):
        scales.high7_batch(encode(["As", "Kd"]))


def test_omaha_uses_two_hole_cards_and_three_board_cards() -> None:
    hands = encode_hands([
        parse("AhKdQcJs Th9h8h7h2c"),  # one heart in the hand: no flush, Q-J + T-9-8
        parse("AhKhQcJs Th9h8h7c2c"),  # A-K of hearts and three board hearts
        parse("AsAdAhKs KdQcJh2c3d"),  # two aces only, not three
    ])
    described = [describe("high", r) for r in scales.omaha_high_batch(hands)]
    assert described == ["straight, Queen high", "flush, A-K-T-9-8", "pair of Aces with K-Q-J"]


def test_omaha_low_eight_or_better() -> None:
    hands = encode_hands([
        parse("Ah2dKsKd 3c4h5s9d9c"),  # the wheel
        parse("AhAdKsKd 9c9hTsJdQc"),  # no low
        parse("Ah2dKsKc Ac2c3dKhQs"),  # counterfeited: A-2 with A-2-3 pairs
        parse("Ah3d7s8c 2c4c6dKhKs"),  # 6-4-3-2-A: the hand's A-3 and the board's 2-4-6
        parse("9h9d7s8c 2c4c6dKhKs"),  # 8-7-6-4-2
    ])
    lows = scales.omaha_low8_batch(hands)
    assert lows[1] == lows[2] == scales.NO_LOW
    assert [describe("ace_to_five", r) for r in lows[[0, 3, 4]]] == [
        "5-4-3-2-A, number 1 in ace-to-five",
        "6-4-3-2-A, number 2 in ace-to-five",
        "8-7-6-4-2, number 51 in ace-to-five",
    ]
    loose = scales.omaha_low8_batch(hands, qualifier=9)
    assert loose[1] == scales.NO_LOW and (loose >= lows).all()


def test_low8_batch_for_stud_and_holdem() -> None:
    hands = encode_hands([parse("AhKd 2c3d4h9sTs"), parse("AhKd 2c3d9h9sTs")])
    assert scales.low8_batch(hands).tolist() == [scales.NO_LOW, scales.NO_LOW]
    assert scales.low8_batch(hands, qualifier=9)[0] == rank_of("ace_to_five", "9s4h3d2cAh")
    assert scales.low8_batch(encode_hands([parse("AhKd 2c3d4h8sTs")]))[0] == rank_of(
        "ace_to_five", "8s4h3d2cAh"
    )
