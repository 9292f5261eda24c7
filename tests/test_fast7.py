"""The table-driven evaluators of evaluator/fast7.py against the reference kernels of
evaluator/scales.py: the same ranks (not only the same order) on random and crafted hands, for
7-card high, the best five of any row under every scale, and Omaha high and low."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

from evaluator import fast7, scales
from evaluator.codes import JOKER_CODE, encode_hands, parse
from evaluator.scales import ACE_TO_FIVE, HIGH, describe, low_floor

Hands = npt.NDArray[np.int8]


def deal(n: int, cards: int, seed: int) -> Hands:
    """n rows of distinct random cards from the 52."""
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (n, 1)), axis=1)
    return np.ascontiguousarray(decks[:, :cards])


def with_jokers(hands: Hands, seed: int) -> Hands:
    """The hands with the last card of every third row replaced by the joker."""
    out = hands.copy()
    rows = np.random.default_rng(seed).permutation(len(out))[: len(out) // 3]
    out[rows, -1] = JOKER_CODE
    return out


def reference(hands: Hands, scale: int = HIGH, wild: bool = False) -> npt.NDArray[np.int64]:
    return scales._best5_rows(np.ascontiguousarray(hands), scale, wild)


# ----------------------------------------------------------------------------------- 7-card high


def test_seven_card_high_equals_the_reference_on_random_hands() -> None:
    hands = deal(300_000, 7, 1)
    got = fast7.high_batch(hands)
    assert got.dtype == np.int64
    assert np.array_equal(got, reference(hands))


@pytest.mark.parametrize("width", [5, 6])
def test_five_and_six_card_rows_equal_the_reference(width: int) -> None:
    hands = deal(100_000, width, width)
    assert np.array_equal(fast7.high_batch(hands), reference(hands))


CRAFTED = [
    ("Ah2c3d4s5h9c9d", "straight, Five high"),  # the wheel beats the pair of nines
    ("Ah2h3h4h5h6cKs", "straight flush, Five high"),  # steel wheel over a six-high straight
    ("9h8h7h6s5h2hKc", "flush, 9-8-7-5-2"),  # flush over the nine-high straight
    ("AhKhQhJh9h8h7h", "flush, A-K-Q-J-9"),  # seven of one suit
    ("9h8h7h6h5h4h3h", "straight flush, Nine high"),
    ("AsKsQsJsTs9s9d", "royal flush"),
    ("4c5d6h7s8c9dTh", "straight, Ten high"),  # seven in a row: the top five
    ("KhKdKs7c7d7h2s", "full house, Kings full of Sevens"),  # two trips
    ("3h3d3c2c2dAhAd", "full house, Threes full of Aces"),  # trips and two pairs
    ("AhAdKcKs5h5dQc", "two pair, Aces and Kings with a Queen"),  # three pairs
    ("AhAdKcKs5h5d2c", "two pair, Aces and Kings with a Five"),  # the third pair's rank kicks
    ("9h9d9c9sKhKd2c", "four of a kind, Nines with a King"),  # quads with a pair
    ("9h9d9c9s3h3d3c", "four of a kind, Nines with a Three"),  # quads with trips
    ("2c3c4c5c7d8h9s", "high card, 9-8-7-5-4"),  # four to a flush and a straight: nothing
]


@pytest.mark.parametrize(("cards", "expected"), CRAFTED)
def test_crafted_hands(cards: str, expected: str) -> None:
    hands = encode_hands([parse(cards)])
    rank = int(fast7.high_batch(hands)[0])
    assert describe("high", rank) == expected
    assert rank == int(reference(hands)[0])


def test_crafted_order() -> None:
    """Strongest first, with the tie of the same hand in other suits."""
    ranks = fast7.high_batch(encode_hands([parse(c) for c in (
        "AsKsQsJsTs9s9d", "9h9d9c9sKhKd2c", "KhKdKs7c7d7h2s", "9h8h7h6s5h2hKc", "4c5d6h7s8c9dTh",
        "Ah2c3d4s5h9c9d", "AhAdKcKs5h5dQc", "AhAdKcKs5h5d2c", "AdAhKsKc5d5hQs")])).tolist()
    assert ranks[:-1] == sorted(ranks[:-1], reverse=True) and len(set(ranks[:-1])) == len(ranks) - 1
    assert ranks[-1] == ranks[6]  # two pair, Aces and Kings with a Queen, in other suits


def test_jokers_go_to_the_reference_rules() -> None:
    hands = with_jokers(deal(30_000, 7, 2), 3)
    assert np.array_equal(fast7.high_batch(hands), reference(hands))
    bug = encode_hands([parse("Jk Ah 2c 3d 4s 9c Td")])  # the bug completes the wheel
    assert describe("high", int(fast7.high_batch(bug)[0])) == "straight, Five high"


def test_parallel_kernel_equals_the_serial_one() -> None:
    hands = with_jokers(deal(50_000, 7, 4), 5)
    assert np.array_equal(fast7.high_batch(hands, parallel=True), fast7.high_batch(hands))


def test_shapes_and_bad_input() -> None:
    empty = fast7.high_batch(np.zeros((0, 7), dtype=np.int8))
    assert empty.dtype == np.int64 and empty.shape == (0,)
    hands = deal(100, 7, 6)
    assert np.array_equal(fast7.high_batch(hands.astype(np.int64)), fast7.high_batch(hands))
    with pytest.raises(ValueError, match="2-D array"):
        fast7.high_batch(hands[0])
    with pytest.raises(ValueError, match="at least 5 cards"):
        fast7.high_batch(hands[:, :4])


def test_eight_card_rows_take_the_best_five() -> None:
    hands = deal(20_000, 8, 7)
    assert np.array_equal(fast7.high_batch(hands), reference(hands))


def test_much_faster_than_the_reference() -> None:
    """The tables are the point: 7-card high must stay far ahead of the 21-hand reference (about
    250x on the development machine; CPU time, so other processes do not count)."""
    hands = deal(200_000, 7, 8)
    fast7.high_batch(hands[:10])

    def cpu(fn: Callable[[Hands], object]) -> float:
        start = time.thread_time()
        fn(hands)
        return time.thread_time() - start

    assert min(cpu(fast7.high_batch) for _ in range(3)) * 20 < cpu(reference)


# ------------------------------------------------------------------------- every scale, Omaha


@pytest.mark.parametrize("scale", range(7))
@pytest.mark.parametrize("wild", [False, True])
def test_best_five_of_seven_and_eight_under_every_scale(scale: int, wild: bool) -> None:
    for width in (5, 7, 8):
        hands = with_jokers(deal(10_000, width, scale + width), scale)
        assert np.array_equal(fast7.best5_batch(hands, scale, wild), reference(hands, scale, wild))


@pytest.mark.parametrize("n_hole", [4, 5])
@pytest.mark.parametrize("n_board", [3, 4, 5])
@pytest.mark.parametrize(("scale", "floor"), [
    (HIGH, -1), (scales.SHORT_DECK, -1), (ACE_TO_FIVE, low_floor(8)), (ACE_TO_FIVE, low_floor(9)),
])
def test_omaha_equals_the_reference(n_hole: int, n_board: int, scale: int, floor: int) -> None:
    hands = deal(10_000, n_hole + n_board, n_hole * 10 + n_board)
    expected = scales._omaha_rows(hands, n_hole, scale, floor)
    assert np.array_equal(fast7.omaha_batch(hands, n_hole, scale, floor), expected)


def test_omaha_rows_with_a_joker_go_to_the_reference() -> None:
    hands = with_jokers(deal(3_000, 9, 9), 10)
    assert np.array_equal(fast7.omaha_batch(hands, 4, HIGH), scales._omaha_rows(hands, 4, HIGH, -1))


def test_the_scales_entry_points_use_the_tables_with_the_same_ranks() -> None:
    seven, omaha = deal(50_000, 7, 11), deal(20_000, 9, 12)
    assert np.array_equal(scales.high7_batch(seven), reference(seven))
    lows = reference(seven, ACE_TO_FIVE)
    assert np.array_equal(scales.best5_batch(seven, "ace_to_five"), lows)
    assert np.array_equal(scales.low8_batch(seven), np.where(lows >= low_floor(8), lows, scales.NO_LOW))
    assert np.array_equal(scales.omaha_high_batch(omaha), scales._omaha_rows(omaha, 4, HIGH, -1))
    assert np.array_equal(scales.omaha_low8_batch(omaha),
                          scales._omaha_rows(omaha, 4, ACE_TO_FIVE, low_floor(8)))


# ------------------------------------------------------------------------------------- tables


@pytest.mark.parametrize(("size", "multisets"), [(5, 6175), (6, 18395), (7, 49205)])
def test_every_multiset_of_ranks_has_its_own_slot(size: int, multisets: int) -> None:
    ph, codes, keys = fast7._hash(size)
    assert len(keys) == multisets == len(codes)
    slots = ph.slots(keys)
    assert len(np.unique(slots)) == multisets and slots.min() >= 0 and slots.max() < ph.size
    assert multisets / ph.size > 0.3  # the table stays small enough for the cache


def test_multipliers_that_do_not_separate_the_multisets_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast7, "RANK_MULTIPLIERS", tuple(range(13)))
    with pytest.raises(RuntimeError, match="do not separate"):
        fast7._rank_multisets(5)


def test_a_perfect_hash_of_equal_keys_is_impossible() -> None:
    with pytest.raises(RuntimeError, match="no perfect hash"):
        fast7.perfect_hash(np.array([5, 9, 5], dtype=np.int64))


# ------------------------------------------------------------------- the evaluation benchmark


def test_benchmark_deals_distinct_cards_the_same_for_a_seed() -> None:
    from benchmarks.evaluation import deal as bench_deal

    hands = bench_deal(5_000, 9, 3)
    assert hands.dtype == np.int8 and hands.min() >= 0 and hands.max() < 52
    assert all(len(set(row)) == 9 for row in hands.tolist())
    assert np.array_equal(hands, bench_deal(5_000, 9, 3))


def test_benchmark_checks_a_peer_against_our_order() -> None:
    from benchmarks.evaluation import disagreements

    ours = np.array([3, 1, 2, 2], dtype=np.int64)
    assert disagreements(ours, [30, 10, 20, 20], lower_is_better=False) == 0
    assert disagreements(ours, [-30, -10, -20, -20], lower_is_better=True) == 0
    assert disagreements(ours, [30, 10, 20, 21], lower_is_better=False) == 1  # a tie broken
    assert disagreements(ours, [10, 30, 20, 20], lower_is_better=False) == 2
    assert disagreements(np.array([-1, 5, -1]), [None, "x", None], lower_is_better=False) == 0


def test_benchmark_reports_a_missing_peer_and_a_wrong_one() -> None:
    from benchmarks.evaluation import Peer, peer_row

    hands = deal(2_000, 7, 13)
    missing = peer_row("7-card high", Peer("ghost", "no_such_module_here", lambda h, s: list), 1e8,
                       hands, 2, fast7.high_batch, 0.01)
    assert (missing.peer, missing.ratio, missing.note) == (None, None, "not installed")

    def honest(chunk: Hands, split: int) -> Callable[[], list[int]]:
        return lambda: reference(chunk).tolist()

    def shuffled(chunk: Hands, split: int) -> Callable[[], list[int]]:
        return lambda: np.random.default_rng(0).permutation(reference(chunk)).tolist()

    good = peer_row("7-card high", Peer("honest", "numpy", honest), 1e8, hands, 2, fast7.high_batch, 0.05)
    assert good.peer is not None and good.peer > 0 and good.note.startswith("same order and ties")
    bad = peer_row("7-card high", Peer("shuffled", "numpy", shuffled), 1e8, hands, 2, fast7.high_batch, 0.05)
    assert bad.note.startswith("ORDER DIFFERS")
