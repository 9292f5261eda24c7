"""Showdown equity against values known by hand, the batch evaluation against `best_hands`, and the
all-in adjustment of recorded hands."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from evaluator import equity as equity_module
from evaluator.catalog import GAMES
from evaluator.codes import parse
from evaluator.equity import (
    BUDGET,
    MIN_SAMPLES,
    ROW_COST,
    Situation,
    all_in_adjusted,
    equities,
    equity,
    hand_streets,
)
from grammar.barge_parser import parse_hand
from tests.conftest import SAMPLES


def exact(e_share: float, denominator: int) -> Fraction:
    """A share as a fraction of `denominator` run-outs (exact enumeration gives whole counts)."""
    return Fraction(round(e_share * denominator), denominator)


def test_aces_against_kings_before_the_flop() -> None:
    # Exactly 81.26% by enumerating all 1,712,304 boards (AhAd vs KsKc); sampled here.
    e = equity("texas_holdem", [parse("AhAd"), parse("KsKc")])
    assert not e.exact and e.runouts == 20_000
    assert 0.80 < e.shares[0] < 0.83
    assert sum(e.shares) == pytest.approx(1.0)


def test_the_sample_is_the_same_every_time() -> None:
    holes = [parse("AhAd"), parse("KsKc")]
    assert equity("texas_holdem", holes).shares == equity("texas_holdem", holes).shares
    assert equity("texas_holdem", holes, seed=1).shares != equity("texas_holdem", holes, seed=2).shares


def test_made_hand_against_a_flush_draw_on_the_turn_is_9_of_44() -> None:
    # Nine hearts give 5h4h the flush; nothing else beats a pair of aces (no wheel: no 2 or 3 out).
    e = equity("texas_holdem", [parse("AcTd"), parse("5h4h")], parse("Ah9hKc8d"))
    assert e.exact and e.runouts == 44
    assert exact(e.shares[1], 44) == Fraction(9, 44)
    assert e.shares[0] == pytest.approx(35 / 44)


def test_a_known_dead_card_leaves_the_stub() -> None:
    e = equity("texas_holdem", [parse("AcTd"), parse("5h4h")], parse("Ah9hKc8d"), dead=["2h"])
    assert e.runouts == 43 and e.shares[1] == pytest.approx(8 / 43)


def test_the_flop_deals_every_turn_and_river() -> None:
    e = equity("texas_holdem", [parse("AcTd"), parse("5h4h")], parse("Ah9hKc"))
    assert e.exact and e.runouts == 990  # C(45, 2)


def test_hi_lo_halves_on_the_turn() -> None:
    # 4h5h holds the wheel: the low always, the high unless one of 10 rivers fills KsKd up
    # (Kc, or one of the three As, 2s and 3s left); KsKd never has a low.
    e = equity("texas_holdem_hi_lo", [parse("KsKd"), parse("4h5h")], parse("As2d3cKh"))
    assert e.runouts == 44
    assert e.shares[0] == pytest.approx(Fraction(1, 2) * Fraction(10, 44))
    assert e.shares[1] == pytest.approx(Fraction(1, 2) + Fraction(1, 2) * Fraction(34, 44))


def test_omaha_hi_lo_on_the_river_is_the_showdown() -> None:
    # evaluator.showdown's own example: the high to the second player, the low split.
    e = equity("omaha_hi_lo", [parse("AhKd2c9s"), parse("Ad2dKcKs")], parse("3s5h7cKhQd"))
    assert e.runouts == 1 and e.shares == (0.25, 0.75)


def test_stud_on_sixth_street_counts_ordered_seventh_street_cards() -> None:
    # Four hearts showing need one of the 9 hearts left among 40 unseen cards; the aces cannot
    # beat a flush with one card, and nothing else beats the aces.
    e = equity("stud", [parse("AsAd9c7d4s2c"), parse("KhQh8h3h5c6d")])
    assert e.exact and e.runouts == 40 * 39
    assert exact(e.shares[1], 40 * 39) == Fraction(9, 40)
    dead = equity("stud", [parse("AsAd9c7d4s2c"), parse("KhQh8h3h5c6d")], dead=["Tc"])
    assert dead.shares[1] == pytest.approx(9 / 39)


def test_razz_a_made_wheel_cannot_lose() -> None:
    e = equity("razz", [parse("As2d3c4h5s"), parse("KsKdKh9c")])
    assert e.shares == (1.0, 0.0)


def test_side_pots_count_only_their_players() -> None:
    holes = (tuple(parse("AcAd")), tuple(parse("KcKd")), tuple(parse("QcQd")))
    s = Situation("texas_holdem", holes, (("1", tuple(parse("2h7s9d"))),), 0, (("1", 2),))
    e = equities(s, [[0, 1, 2], [1, 2]])
    main, side = e.pots
    assert sum(main) == pytest.approx(1.0) and sum(side) == pytest.approx(1.0)
    assert side[0] == 0.0 and side[1] > side[2]


@pytest.mark.parametrize(("game", "holes", "board", "dice", "options"), [
    ("texas_holdem", ["AhKh", "QsQd"], "2h7h9c", (), {}),
    ("texas_holdem_hi_lo", ["Ah2h", "QsQd", "3c4d"], "5h7h9c", (), {}),
    ("short_deck_holdem", ["AhKh", "QsQd"], "6h7h9c", (), {}),
    ("short_deck_holdem", ["AhKh", "9s9d"], "6h7h9c", (), {"short_deck_trips": "above_straight"}),
    ("rio_bravo", ["AhKh", "QsQd"], "2h7h9cTd3s", (), {}),
    ("omaha", ["AhKhQdJd", "QsQcTd9d"], "2h7h9c", (), {}),
    ("omaha_hi_lo", ["AhKh2c3d", "QsQdJdTd"], "2h7h9c", (), {}),
    ("big_o", ["AhKh2c3d4s", "QsQdJdTd9h"], "2h7h9c", (), {}),
    ("courchevel", ["AhKh2c3d4s", "QsQdJdTd9h"], "2h7h9c", (), {}),
    ("short_deck_omaha", ["AhKhQdJd", "QsQcTd9d"], "6h7h9c", (), {}),
    ("binglaha", ["AhKh2c3d", "QsQdJdTd"], "2h7h9c", (2,), {}),
    ("binglaha", ["AhKh2c3d", "QsQdJdTd"], "2h7h9c", (5,), {}),
    ("omaha_x_or_better", ["AhKh2c3d", "QsQdJdTd"], "2h7h9c", (6, 5), {}),
    ("omaha_x_or_better", ["AhKh2c3d", "QsQdJdTd"], "2h7h9c", (1, 2), {}),
    ("stud", ["As2d3c4h5c", "KsKdKh9c8c"], "", (), {}),
    ("stud_hi_lo", ["As2d3c4h", "KsKdKh9c"], "", (), {}),
    ("stud_hi_lo_no_qualifier", ["As2d3c4h", "KsKdKh9c"], "", (), {}),
    ("five_card_stud", ["As2d", "KsKd"], "", (), {}),
    ("mississippi_stud_hi_lo", ["As2d3c", "KsKdKh"], "", (), {}),
    ("razz", ["As2d3c4h5c", "KsKdKh9c8c"], "", (), {}),
    ("deuce_to_seven_razz", ["As2d3c4h5c", "7s6d4s3d2h"], "", (), {}),
    ("london_lowball", ["As2d3c4h5c", "7s6d4s3d2h"], "", (), {}),
])  # fmt: skip
def test_batch_evaluation_agrees_with_best_hands(game: str, holes: list[str], board: str,
                                                 dice: tuple[int, ...], options: dict[str, str]) -> None:
    cards = [parse(h) for h in holes]
    fast = equity(game, cards, parse(board), dice=dice, options=options, samples=300, seed=7)
    general = equity(game, cards, parse(board), dice=dice, options=options, samples=300, seed=7,
                     general=True)
    assert fast.runouts == general.runouts
    assert fast.shares == pytest.approx(general.shares, abs=1e-12)
    assert sum(fast.shares) == pytest.approx(1.0)


def _c(text: str) -> tuple[str, ...]:
    return tuple(parse(text))


_CHOWAHA = (("top", _c("2c7d9h")), ("middle", _c("3c4d5h")), ("bottom", _c("TcJcKc")))
_CHOWAHA_TO_COME = (("turn", 2), ("river", 1))
_FLOP_TO_COME = (("1", 2),)
_STUD_HOLES = (_c("As2d3c4h5c"), _c("KsKdKh9c8c"))


@pytest.mark.parametrize("situation", [
    # §2.33 Murder: two hole cards and one card of each row, all in before the flop and on the flop
    Situation("murder", (_c("AhKh2c3d"), _c("QsQdJdTd"), _c("5c6c7c8c")), (), 0,
              (("1", 4), ("2", 4), ("3", 4))),
    Situation("murder", (_c("AhKh2c3d"), _c("QsQdJdTd")),
              (("1", _c("2h7h")), ("2", _c("9c3s")), ("3", _c("8d8h"))), 0,
              (("1", 2), ("2", 2), ("3", 2))),
    # §2.12 Chowaha, §2.25 Four Card Chowaha, §2.8 Bidirectional Chowaha on each side of its die
    Situation("chowaha", (_c("AsKd"), _c("QsQd")), _CHOWAHA, 0, _CHOWAHA_TO_COME),
    Situation("four_card_chowaha_hi_lo", (_c("AsKd2h3h"), _c("QsQdJhTh")), _CHOWAHA, 0, _CHOWAHA_TO_COME),
    Situation("bidirectional_chowaha", (_c("AsKd"), _c("QsQd")), _CHOWAHA, 0, _CHOWAHA_TO_COME, dice=(5,)),
    Situation("bidirectional_chowaha", (_c("AsKd"), _c("QsQd")), _CHOWAHA, 0, _CHOWAHA_TO_COME, dice=(2,)),
    # the Pineapples and Irish: at most two hole cards
    Situation("lazy_pineapple", (_c("AsKd3c"), _c("QsQd2h")), (("1", _c("2c7d9hQc")),), 0, (("1", 1),)),
    Situation("irish", (_c("AsKd"), _c("QsQd")), (("1", _c("2c7d9h")),), 0, _FLOP_TO_COME),
    Situation("crazy_pineapple_hi_lo", (_c("AsKd"), _c("QsQd")), (("1", _c("2c7d9h")),), 0,
              _FLOP_TO_COME),
    # §2.54 Two or Five Omaha: all five hole cards make a hand too
    Situation("two_or_five_omaha_hi_lo", (_c("AhQhJhTh2h"), _c("KsKd3c4c5c")), (("1", _c("3s5h7c")),),
              0, _FLOP_TO_COME),
    # §2.20 Dramadugi's badugi of the hole cards; §2.40 Razzdugi; §2.2 Action Razz's face cards
    Situation("dramadugi", (_c("As2d3c4h9s"), _c("KsKdQhJh8c")), (("1", _c("3s5h7c")),), 0,
              _FLOP_TO_COME),
    Situation("razzdugi", _STUD_HOLES, (), 2),
    Situation("action_razz", _STUD_HOLES, (), 2),
    Situation("action_razzdugi", (_c("As2d3c4h5c"), _c("7s6d5h4s9c")), (), 2),
    # §2.46 Sohe: each player's own split; §2.55 Wonky Donkey on a black and on a red flop
    Situation("sohe", (_c("AsKdQh2c3c4h"), _c("9s9d8h7c6c5d")), (("1", _c("2h7h9c")),), 0,
              _FLOP_TO_COME, splits=((_c("AsKd"), _c("Qh2c3c4h")), (_c("9s9d"), _c("8h7c6c5d")))),
    Situation("wonky_donkey", (_c("AhKh2c3d"), _c("QsQdJdTd")), (("1", _c("2s7s9h")),), 0,
              _FLOP_TO_COME),
    Situation("wonky_donkey", (_c("AhKh"), _c("QsQd")), (("1", _c("2h7d9c")),), 0, _FLOP_TO_COME),
], ids=lambda s: s.game)  # fmt: skip
def test_traced_games_batched_agree_with_best_hands(situation: Situation) -> None:
    # Each game's showdown paragraph says which cards may be combined; the batch traces those ways
    # from evaluator.showdown, so each share equals the evaluation one run-out at a time, on the
    # same run-outs.
    fast = equities(situation)
    general = equities(situation, general=True)
    assert (fast.runouts, fast.exact) == (general.runouts, general.exact)
    assert fast.shares == pytest.approx(general.shares, abs=1e-12)
    assert sum(fast.shares) == pytest.approx(1.0)


def _count_hands(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the hands the kernels that `evaluator.equity` calls look up (the budget's unit: a
    five-card hand; a badugi way counted once), by wrapping each where the module calls it."""
    counts: list[int] = []

    def wrap(name: str, hands: Callable[..., int]) -> None:
        kernel = getattr(equity_module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            counts.append(hands(*args))
            return kernel(*args, **kwargs)
        monkeypatch.setattr(equity_module, name, counted)

    def omaha(rows: Any, n_hole: int, *_: Any) -> int:
        return int(rows.shape[0]) * comb(n_hole, 2) * comb(rows.shape[1] - n_hole, 3)

    wrap("_best_way_rows", lambda rows, ways, *_: rows.shape[0] * ways.shape[0])
    wrap("omaha_high_batch", omaha)
    wrap("omaha_low8_batch", omaha)
    wrap("best5_batch", lambda rows, *_: rows.shape[0] * comb(rows.shape[1], 5))
    wrap("badugi_batch", lambda rows, *_: rows.shape[0])
    return counts


_PREFLOP_CHOWAHA = (("top", 3), ("middle", 3), ("bottom", 3), ("turn", 2), ("river", 1))


@pytest.mark.parametrize(("situation", "hands"), [
    # §2.33 Murder three-way before the flop: 3 x 2 portions x 384 ways a run-out (was 1,000 run-outs)
    (Situation("murder", (_c("AhKh2c3d"), _c("QsQdJdTd"), _c("5c6c7c8c")), (), 0,
               (("1", 4), ("2", 4), ("3", 4))), 3 * 2 * 384),
    # Big O three-way before the flop: 3 x 2 portions x 10 pairs x 10 triples (was 20,000)
    (Situation("big_o", (_c("AhKh2c3d4s"), _c("QsQdJdTd9h"), _c("5c6c7c8c9c")), (), 0, (("1", 5),)),
     3 * 2 * 100),
    # §2.25 Four Card Chowaha three-way before the flop: 3 x 2 portions x 6 pairs x 40 (was 1,000)
    (Situation("four_card_chowaha_hi_lo", (_c("AsKd2h3h"), _c("QsQdJhTh"), _c("5c6c7c8c")), (), 0,
               _PREFLOP_CHOWAHA), 3 * 2 * 6 * 40),
], ids=lambda x: x.game if isinstance(x, Situation) else str(x))  # fmt: skip
def test_the_costliest_situations_stay_within_the_budget(monkeypatch: pytest.MonkeyPatch,
                                                         situation: Situation, hands: int) -> None:
    # The cost of a hand is bounded by counts, not by a clock: the same run-outs on every machine.
    counts = _count_hands(monkeypatch)
    e = equities(situation)
    assert not e.exact and e.runouts >= MIN_SAMPLES
    assert sum(counts) == e.runouts * hands <= BUDGET
    assert BUDGET // (hands + 6 * ROW_COST) == e.runouts  # every unit of the budget used
    assert sum(e.shares) == pytest.approx(1.0)


def test_traced_games_deal_the_run_outs_their_cost_allows() -> None:
    chowaha = equity("chowaha", [parse("AsKd"), parse("QsQd")],
                     boards={"top": parse("2c7d9h"), "middle": parse("3c4d5h"), "bottom": parse("TcJcKc")})
    # 39,732 run-outs of the turn and river; each costs 2 players x 2 portions x (a row + 40 ways:
    # one pair of hole cards x 10 triples of each of the 4 five-card paths)
    assert sum(chowaha.shares) == pytest.approx(1.0) and not chowaha.exact
    assert chowaha.runouts == BUDGET // (2 * 2 * (ROW_COST + 40))
    pineapple = equity("lazy_pineapple", [parse("AsKd3c"), parse("QsQd2h")], parse("2c7d9hQc"))
    assert pineapple.exact and pineapple.runouts == 52 - 6 - 4
    # QsQd has trips; AsKd3c needs runner... one card: an ace or a king gives only a pair. Never.
    assert pineapple.shares == (0.0, 1.0)


def test_cards_that_cannot_be_dealt_are_refused() -> None:
    with pytest.raises(ValueError, match="not a plain deal"):
        equity("crazy_pineapple_hi_lo", [parse("AsKd3c"), parse("QsQd2h")])
    with pytest.raises(ValueError, match="both in a hand and on a board"):
        equity("texas_holdem", [parse("AsKd"), parse("AsQd")])
    with pytest.raises(ValueError, match="not in the"):
        equity("short_deck_holdem", [parse("2s2d"), parse("AsQd")])


def test_hand_streets_follow_the_pickem_choice() -> None:
    assert [s.name for s in hand_streets("paradise_road_pickem", "texas_holdem")] == \
        ["hole_cards", "flop", "turn", "river"]
    assert hand_streets("razz") == GAMES["razz"].streets


HOLDEM_ALL_IN = """BARGE Hand #EQ-2: texas_holdem no-limit (blinds 50/100, ante 10) - 2025-07-01 10:00:00
Table 'T' 6-max Seat #1 is the button
Seat 1: Ann (1,010 in chips)
Seat 2: Bo (5,000 in chips)
Seat 3: Cy (5,000 in chips)
Ann: posts the ante 10
Bo: posts the ante 10
Cy: posts the ante 10
Bo: posts small blind 50
Cy: posts big blind 100
*** HOLE CARDS ***
Ann: raises 900 to 1,000 and is all-in
Bo: folds
Cy: calls 900
*** FLOP *** [Ah 9h Kc]
*** TURN *** [8d]
*** RIVER *** [3h]
*** SHOWDOWN ***
Ann: shows [Ac Td] (a pair of Aces)
Cy: shows [5h 4h] (a flush, Ace high)
Cy collected 2,080 from pot
*** SUMMARY ***
Total pot 2,080 | Rake 0"""


def test_all_in_before_the_flop_is_adjusted_by_preflop_equity() -> None:
    adj = all_in_adjusted(parse_hand(HOLDEM_ALL_IN))
    assert adj is not None and adj.street == "hole_cards"
    pre = equity("texas_holdem", [parse("AcTd"), parse("5h4h")])
    nets = dict(adj.nets)
    # The pot is 2,080 (antes and Bo's small blind are dead money); each put in 1,010.
    assert nets["Ann"] == pytest.approx(208_000 * pre.shares[0] - 101_000)
    assert nets["Cy"] == pytest.approx(208_000 * pre.shares[1] - 101_000)
    assert "Bo" not in nets


def test_no_adjustment_when_the_all_in_came_on_the_last_street() -> None:
    text = HOLDEM_ALL_IN.replace("Ann: raises 900 to 1,000 and is all-in", "Ann: raises 900 to 1,000")
    assert all_in_adjusted(parse_hand(text)) is None  # nobody all in
    river = text.replace("*** RIVER *** [3h]", "*** RIVER *** [3h]\nCy: bets 10\nAnn: calls 10 and is all-in")
    assert all_in_adjusted(parse_hand(river)) is None  # no card after the last bet


def test_no_adjustment_without_the_cards_or_with_a_fold() -> None:
    hidden = HOLDEM_ALL_IN.replace("Cy: shows [5h 4h] (a flush, Ace high)", "Cy: shows [?? ??]")
    assert all_in_adjusted(parse_hand(hidden)) is None
    folded = HOLDEM_ALL_IN.replace("Cy: calls 900", "Cy: folds").split("*** FLOP")[0] + (
        "Uncalled bet (900) returned to Ann\nAnn collected 210 from pot\n"
        "*** SUMMARY ***\nTotal pot 210 | Rake 0")
    assert all_in_adjusted(parse_hand(folded)) is None


DRAW_ALL_IN = """BARGE Hand #EQ-3: deuce_to_seven_triple_draw limit (blinds 50/100, bets 100/200)
Table '1' 6-max Seat #2 is the button
Seat 1: Ann (2,300 in chips)
Seat 2: Bo (2,950 in chips)
Seat 3: Cy (300 in chips)
Cy: posts small blind 50
Ann: posts big blind 100
*** HOLE CARDS ***
Bo: folds
Cy: raises 100 to 200
Ann: raises 100 to 300
Cy: calls 100 and is all-in
*** FIRST DRAW ***
Cy: stands pat
Ann: discards [Kd Qc] and draws [7d 4c]
*** SECOND DRAW ***
Cy: stands pat
Ann: discards [8s] and draws [5s]
*** THIRD DRAW ***
Cy: stands pat
Ann: stands pat
*** SHOWDOWN ***
Cy: shows [7h 5c 4d 3s 2h] (7-5-4-3-2)
Ann: shows [7d 6h 5s 4c 2d] (7-6-5-4-2)
Cy collected 600 from pot
*** SUMMARY ***
Total pot 600 | Rake 0"""


def test_draw_games_keep_the_actual_result() -> None:
    assert all_in_adjusted(parse_hand(DRAW_ALL_IN)) is None


def test_side_pots_at_the_moment_the_last_chips_went_in() -> None:
    # The first sample hand: Bob all in before the flop with KhKc, Carla (AsQd) and Frank (QhJh)
    # bet on to the turn, Qs 7h 2c 9d. Unseen: 42 cards. The main pot (6,550) goes to Bob unless
    # an ace or the Qc (Carla, 4 rivers) or a jack (Frank, 3); the side pot (10,150) to Carla
    # unless a jack.
    text = (SAMPLES / "texas_holdem.bhh").read_text(encoding="utf-8").split("\n\n")[0]
    adj = all_in_adjusted(parse_hand(text))
    assert adj is not None and adj.street == "turn" and adj.runouts == 42 and adj.exact
    nets = dict(adj.nets)
    assert nets["Bob Smith"] / 100 == pytest.approx(6550 * 35 / 42 - 2125)
    assert nets["Carla Diaz"] / 100 == pytest.approx(6550 * 4 / 42 + 10150 * 39 / 42 - 7200)
    assert nets["Frank Li"] / 100 == pytest.approx(6550 * 3 / 42 + 10150 * 3 / 42 - 7200)
