"""Wild cards (evaluator.wild) against a brute-force reference: every substitution of every wild
card by every card of the scale's deck, ranked by the ordinary kernels of evaluator.scales; and
the worked examples of the home-game rules (../shared/rules/home-game-variants.md)."""

from __future__ import annotations

from itertools import combinations, product

import numpy as np
import numpy.typing as npt
import pytest

from evaluator import scales, showdown
from evaluator.codes import JOKER_CODE, decode, encode_hands, parse
from evaluator.scales import describe, low_floor
from evaluator.wild import Wild, best5_wild_batch, evaluate_wild, lowest_rank, omaha_wild_batch

FIVE_CARD = ["high", "short_deck", "short_deck_trips", "mexican", "ace_to_five", "deuce_to_seven",
             "ace_to_six"]
ALL_SCALES = [*FIVE_CARD, "badugi", "badeucy"]


def deck(scale: str) -> list[int]:
    """The codes of the scale's deck (its ranks in four suits), the joker aside."""
    ranks = int(scales._DECK_RANKS[scales.SCALES[scale]]) if scale not in scales.BADUGI_SCALES else 0x1FFF
    return [c for c in range(52) if (ranks >> (c >> 2)) & 1]


def ordinary(scale: str, rows: npt.NDArray[np.int8], n_hole: int, floor: int) -> npt.NDArray[np.int64]:
    """The reference kernels of evaluator.scales, never the table-driven fast path."""
    sid = scales.SCALES[scale]
    if scale in scales.BADUGI_SCALES:
        ranks = scales._badugi_rows(rows, scale == "badeucy")
    elif n_hole:
        ranks = scales._omaha_rows(rows, n_hole, sid, -1)
    else:
        ranks = scales._best5_rows(rows, sid, False)
    return np.where(ranks >= floor, ranks, scales.NO_LOW)


def brute(scale: str, hand: list[int], wild: Wild, n_hole: int = 0, floor: int = -1) -> int:
    """The best rank over every substitution: each wild card the hand uses (any number up to
    `wild.most`, the joker always) replaced by each card of the deck, duplicates allowed."""
    mask = wild.mask
    wild_at = [i for i, c in enumerate(hand) if (mask >> c) & 1]
    jokers = {i for i, c in enumerate(hand) if c == JOKER_CODE}
    most = len(wild_at) if wild.most is None else wild.most
    cards = deck(scale)
    best = scales.NO_LOW
    for size in range(len(wild_at) + 1):
        for used in combinations(wild_at, size):
            if size > max(most, len(jokers)) or not jokers <= set(used):
                continue
            rows = []
            for subs in product(cards, repeat=size):
                row = list(hand)
                for i, c in zip(used, subs, strict=True):
                    row[i] = c
                rows.append(row)
            ranks = ordinary(scale, np.array(rows, dtype=np.int8), n_hole, floor)
            best = max(best, int(ranks.max()))
    return best


def random_hand(rng: np.random.Generator, scale: str, size: int) -> list[int]:
    return [int(c) for c in rng.choice(deck(scale), size, replace=False)]


@pytest.mark.parametrize("scale", ALL_SCALES)
def test_no_wild_is_the_ordinary_rank(scale: str) -> None:
    rng = np.random.default_rng(1)
    for size in (4, 5, 6, 7) if scale in scales.BADUGI_SCALES else (5, 6, 7):
        rows = np.array([random_hand(rng, scale, size) for _ in range(300)], dtype=np.int8)
        if scale in scales.BADUGI_SCALES:
            expected = scales.badugi_batch(rows, scale == "badeucy")
        else:
            expected = scales.best5_batch(rows, scale)
        assert best5_wild_batch(rows, scale, Wild()).tolist() == expected.tolist()


@pytest.mark.parametrize("scale", FIVE_CARD)
def test_no_wild_omaha_is_the_ordinary_rank(scale: str) -> None:
    rng = np.random.default_rng(2)
    rows = np.array([random_hand(rng, scale, 9) for _ in range(200)], dtype=np.int8)
    expected = scales.omaha_high_batch(rows, 4, scale)
    assert omaha_wild_batch(rows, 4, scale, Wild()).tolist() == expected.tolist()


@pytest.mark.parametrize("scale", ALL_SCALES)
@pytest.mark.parametrize("size", [5, 6, 7])
def test_wild_cards_match_every_substitution(scale: str, size: int) -> None:
    """0 to 3 wild cards (fewer in seven cards, where the reference is slow), each wild by its
    code, so any card may be one; and whole ranks wild."""
    rng = np.random.default_rng(size * 100 + ALL_SCALES.index(scale))
    for trial in range(24):
        hand = random_hand(rng, scale, size)
        k = trial % (3 if size == 7 else 4)
        by_code = Wild(cards=frozenset(decode(hand[:k])))
        assert evaluate_wild(scale, decode(hand), by_code) == brute(scale, hand, by_code), decode(hand)
    rank = "23456789TJQKA"[rng.integers(13)]
    if rank in {decode([c])[0][0] for c in deck(scale)}:
        for _ in range(6):
            hand = random_hand(rng, scale, 5)
            by_rank = Wild.of_ranks(rank)
            assert evaluate_wild(scale, decode(hand), by_rank) == brute(scale, hand, by_rank), decode(hand)


@pytest.mark.parametrize("scale", ALL_SCALES)
def test_at_most_some_wild_cards(scale: str) -> None:
    """Joemaha's "one three as a wild": the other wild cards play as themselves."""
    rng = np.random.default_rng(7 + ALL_SCALES.index(scale))
    for trial in range(16):
        hand = random_hand(rng, scale, 5)
        wild = Wild(cards=frozenset(decode(hand[:3])), most=trial % 3)
        assert evaluate_wild(scale, decode(hand), wild) == brute(scale, hand, wild), decode(hand)


@pytest.mark.parametrize("scale", ["high", "ace_to_five", "deuce_to_seven", "badugi"])
def test_the_joker_is_wild(scale: str) -> None:
    rng = np.random.default_rng(11)
    for trial in range(12):
        hand = [*random_hand(rng, scale, 4), JOKER_CODE]
        wild = Wild(cards=frozenset(decode(hand[:1])), most=trial % 2)
        assert evaluate_wild(scale, decode(hand), wild) == brute(scale, hand, wild), decode(hand)


@pytest.mark.parametrize(("scale", "floor"), [("high", -1), ("ace_to_five", low_floor(8)),
                                              ("deuce_to_seven", -1), ("short_deck", -1)])
def test_omaha_matches_every_substitution(scale: str, floor: int) -> None:
    """Two hole cards and three board cards, the eight-or-better qualifier for the low."""
    rng = np.random.default_rng(5)
    for trial in range(10):
        hand = random_hand(rng, scale, 9)
        wild = Wild(cards=frozenset(decode([hand[0], hand[5]][: trial % 3])))
        got = omaha_wild_batch(np.array([hand], dtype=np.int8), 4, scale, wild, floor)
        assert int(got[0]) == brute(scale, hand, wild, n_hole=4, floor=floor), decode(hand)


def test_low8_qualifier() -> None:
    rows = encode_hands([parse("KcKd 9h 8s 7c 6d 5h"), parse("Kc9d 9h 8s 7c 6d Th")])
    kings = Wild.of_ranks("K", most=1)  # Joemaha (#948): "one king as a wild in their low hand"
    ranks = best5_wild_batch(rows, "ace_to_five", kings, low_floor(8)).tolist()
    assert describe("ace_to_five", ranks[0]) == "8-7-6-5-A, number 53 in ace-to-five"
    assert ranks[1] == scales.NO_LOW  # 9-8-7-6-A: not eight-or-better


def test_showdown_ways() -> None:
    """The showdown's candidate hands (showdown._omaha, _any: lists of five cards) ranked one per
    row, as showdown._best ranks them: the best row is the Omaha kernel's rank, and the cards it
    plays are the best way's."""
    hole, board = tuple(parse("3c9dKhQs")), tuple(parse("AhKdJc5s2c"))
    wild = Wild.of_ranks("3", "9")
    ways = showdown._omaha(hole, board)
    ranks = best5_wild_batch(encode_hands(ways), "high", wild)
    assert int(ranks.max()) == int(omaha_wild_batch(encode_hands([hole + board]), 4, "high", wild)[0])
    assert set(ways[int(np.argmax(ranks))]) == {"3c", "9d", "Ah", "Kd", "Jc"}
    stud = showdown._any(tuple(parse("2c2dAhAsAd7c8d")))
    assert int(best5_wild_batch(encode_hands(stud), "high", Wild.of_ranks("2")).max()) \
        == evaluate_wild("high", parse("2c2dAhAsAd7c8d"), Wild.of_ranks("2"))


# ---- the home-game rules' wild cards --------------------------------------------------------


def test_nine_card_stud_twos_wild() -> None:
    """#890, "Twos are wild": the best five of nine cards; five of a kind beats a straight flush."""
    deuces = Wild.of_ranks("2")
    five_aces = evaluate_wild("high", parse("2c2dAhAsAd 7c8d3h4s"), deuces)
    royal = evaluate_wild("high", parse("AhKhQhJhTh 7c8d3h4s"), deuces)
    assert describe("high", five_aces) == "five of a kind, Aces"
    assert scales.category("high", five_aces) == "five of a kind"
    assert five_aces > royal
    four_deuces = evaluate_wild("high", parse("2c2d2h2sKd 7c8d3h4s"), deuces)
    assert describe("high", four_deuces) == "five of a kind, Kings"


def test_wild_kingdom_threes_and_nines() -> None:
    """#709, Omaha with threes and nines wild: two wild hole cards and A-K-J on the board."""
    rows = encode_hands([parse("3c9dKhQs") + parse("AhKdJc5s2c")])
    rank = omaha_wild_batch(rows, 4, "high", Wild.of_ranks("3", "9"))
    assert describe("high", int(rank[0])) == "straight, Ace high"


def test_joemaha_one_three() -> None:
    """#948: one three as a wild in the high hand, so 3-3-3-A-A is Aces full, not five Aces."""
    cards = parse("3c3d3hAsAd")
    one = evaluate_wild("high", cards, Wild.of_ranks("3", most=1))
    assert describe("high", one) == "full house, Aces full of Threes"
    assert describe("high", evaluate_wild("high", cards, Wild.of_ranks("3"))) == "five of a kind, Aces"


def test_twin_beds_low_wild() -> None:
    """#1088: "The low common card in each row is wild, as are all cards of the same ranks"."""
    rows = (parse("Kd9s5h8c2d"), parse("QcJh7s6dAh"))
    wild = Wild.of_ranks(*(lowest_rank(row) for row in rows))
    assert sorted(wild.ranks) == ["2", "6"]
    hand = parse("6c2s9h9d") + list(rows[0])  # four nines with the two wild hole cards
    assert describe("high", evaluate_wild("high", hand, wild)) == "five of a kind, Nines"


def test_deuce_to_seven_avoids_straights_and_flushes() -> None:
    def best(scale: str, cards: str) -> str:
        return describe(scale, evaluate_wild(scale, parse(cards), Wild.of_ranks("A")))

    # the wild ace is neither the 7 nor the 2 that make a straight, nor a heart
    assert best("deuce_to_seven", "6h5h4h3hAh") == "8-6-5-4-3, number 9 in deuce-to-seven"
    assert best("ace_to_six", "5h4h3h2hAc") == "7-5-4-3-2, number 9 in ace-to-six"


def test_badugi_wild() -> None:
    def best(scale: str, cards: str) -> str:
        return describe(scale, evaluate_wild(scale, parse(cards), Wild.of_ranks("2")))

    assert best("badeucy", "2c2d2h2s") == "four-card 5-4-3-2 badugi"
    assert best("badugi", "KcKd2hQc") == "three-card K-Q-A badugi"


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="not a rank"):
        evaluate_wild("high", parse("AcKcQcJcTc"), Wild.of_ranks("1"))
    with pytest.raises(ValueError, match="most must be"):
        Wild.of_ranks("2", most=-1)
    with pytest.raises(ValueError, match="unknown scale"):
        evaluate_wild("razz", parse("AcKcQcJcTc"), Wild())
    with pytest.raises(ValueError, match="two hole cards"):
        omaha_wild_batch(encode_hands([parse("AcKcQcJcTc9c")]), 1, "high", Wild())
