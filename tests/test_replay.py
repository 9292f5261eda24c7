"""Replay behaviours the rulebook states outside Chapter 1's worked examples."""

from __future__ import annotations

from evaluator.replay import replay
from grammar.barge_parser import parse_hand
from tests.rulebook import hand_text, rule_codes

STUD_OPEN_PAIR = [
    "Ann: posts the ante 25",
    "Bo: posts the ante 25",
    "*** 3RD STREET ***",
    "Dealt to Ann [?? ??] up [9c]",
    "Dealt to Bo [?? ??] up [3c]",
    "Bo: brings in for 25",
    "Ann: completes to 100",
    "Bo: calls 75",
    "*** 4TH STREET ***",
    "Dealt to Ann up [9d]",
    "Dealt to Bo up [5h]",
]


def test_stud_double_bet_on_fourth_street_only_where_the_profile_allows_it() -> None:
    # §2.47: with an open pair on 4th street a bet may be a big bet, if the room allows it.
    header = "stud limit (ante 25, bring-in 25, bets 100/200)"
    seats = [("Ann", 2000), ("Bo", 2000)]
    big = [*STUD_OPEN_PAIR, "Ann: bets 200", "Bo: calls 200"]
    assert rule_codes(hand_text(header, seats, big, button=None)) == ["WRONG_LIMIT_BET"]
    allowed = hand_text(header, seats, big, button=None, rules="barge-2025; stud_double_bet=yes")
    assert rule_codes(allowed) == []
    # "A big bet may never be met with a small bet raise."
    small_raise = hand_text(
        header,
        seats,
        [*STUD_OPEN_PAIR, "Ann: bets 200", "Bo: raises 100 to 300"],
        button=None,
        rules="barge-2025; stud_double_bet=yes",
    )
    assert rule_codes(small_raise) == ["WRONG_LIMIT_BET"]


def test_the_cap_is_lifted_heads_up_in_cash_games_only() -> None:
    lines = [
        "Ann: posts small blind 100",
        "Bo: posts big blind 200",
        "*** HOLE CARDS ***",
        "Ann: raises 200 to 400",
        "Bo: raises 200 to 600",
        "Ann: raises 200 to 800",
        "Bo: raises 200 to 1,000",
    ]
    header = "texas_holdem limit (blinds 100/200, bets 200/400)"
    seats = [("Ann", 5000), ("Bo", 5000)]
    assert rule_codes(hand_text(header, seats, lines)) == ["RAISE_CAP_EXCEEDED"]
    assert rule_codes(hand_text(header, seats, lines, tournament=False)) == []
    kept = hand_text(header, seats, lines, tournament=False, rules="barge-2025; cap_heads_up=kept")
    assert rule_codes(kept) == ["RAISE_CAP_EXCEEDED"]


def test_heads_up_the_button_posts_the_small_blind_and_acts_first() -> None:
    header = "texas_holdem no-limit (blinds 100/200)"
    seats = [("Ann", 5000), ("Bo", 5000)]
    ok = [
        "Ann: posts small blind 100",
        "Bo: posts big blind 200",
        "*** HOLE CARDS ***",
        "Ann: calls 100",
        "Bo: checks",
        "*** FLOP *** [Qs 7h 2c]",
        "Bo: checks",
    ]
    assert rule_codes(hand_text(header, seats, ok)) == []
    swapped = ["Bo: posts small blind 100", "Ann: posts big blind 200", "*** HOLE CARDS ***"]
    assert rule_codes(hand_text(header, seats, swapped)) == ["WRONG_BLIND", "WRONG_BLIND"]


def test_dead_button_and_dead_small_blind() -> None:
    header = "texas_holdem no-limit (blinds 100/200)"
    seats = [("Ann", 5000), ("Bo", 5000), ("Cy", 5000), ("Di", 5000)]
    # The button on an empty seat 9: Ann (seat 1) and Bo post the blinds.
    dead_button = hand_text(
        header,
        seats,
        ["Ann: posts small blind 100", "Bo: posts big blind 200", "*** HOLE CARDS ***", "Cy: folds"],
        button=9,
    )
    assert rule_codes(dead_button) == []
    # No small blind: the big blind moved up to the first seat after the button.
    dead_small = hand_text(
        header, seats, ["Bo: posts big blind 200", "*** HOLE CARDS ***", "Cy: folds"], button=1
    )
    assert rule_codes(dead_small) == []


def test_mexican_poker_bets_the_small_or_the_big_bet() -> None:
    # §2.31: the high card showing (a face-up joker is an ace) bets either limit.
    header = "mexican_poker limit (ante 25, bets 100/200)"
    seats = [("Ann", 1000), ("Bo", 1000)]
    deal = [
        "Ann: posts the ante 25",
        "Bo: posts the ante 25",
        "*** 2ND STREET ***",
        "Dealt to Ann [??] up [Kd]",
        "Dealt to Bo [??] up [Jk]",
    ]
    assert rule_codes(hand_text(header, seats, [*deal, "Bo: bets 200"])) == []
    assert rule_codes(hand_text(header, seats, [*deal, "Bo: bets 100"])) == []
    assert rule_codes(hand_text(header, seats, [*deal, "Bo: bets 150"])) == ["WRONG_LIMIT_BET"]
    assert rule_codes(hand_text(header, seats, [*deal, "Ann: bets 100"])) == ["OUT_OF_TURN"]


def test_a_broken_record_stops_the_replay_with_a_finding_and_no_exception() -> None:
    text = hand_text(
        "texas_holdem no-limit (blinds 100/200)",
        [("Ann", 5000), ("Bo", 5000)],
        [
            "Ann: posts small blind 100",
            "Bo: posts big blind 200",
            "*** HOLE CARDS ***",
            "Ann: raises 300 to 100",
        ],
    )
    findings = replay(parse_hand(text))
    assert findings[-1].code.name == "REPLAY_STOPPED" and findings[-1].seq == 3


def test_mexican_poker_completes_over_a_short_all_in_raise() -> None:
    # §1.1: a player facing an all-in raise of less than half a bet may complete it to the full
    # level; §2.31: a raise is at least the last bet, counted from that level, not from the short
    # all-in. Generated hand gen-2-mexican_poker-001490 was flagged for this completion.
    header = "mexican_poker limit (ante 25, bets 200/400)"
    seats = [("Ann", 5000), ("Bo", 5000), ("Cy", 5000), ("Di", 685)]
    deal = [
        *(f"{name}: posts the ante 25" for name, _ in seats),
        "*** 2ND STREET ***",
        "Dealt to Ann [??] up [Ad]",
        "Dealt to Bo [??] up [Qc]",
        "Dealt to Cy [??] up [3h]",
        "Dealt to Di [??] up [4c]",
        "Ann: checks",
        "Bo: bets 200",
        "Cy: raises 400 to 600",
        "Di: raises 60 to 660 and is all-in",
    ]
    assert rule_codes(hand_text(header, seats, [*deal, "Ann: completes to 1,000"])) == []
    assert rule_codes(hand_text(header, seats, [*deal, "Ann: raises 340 to 1,000"])) == []
    assert rule_codes(hand_text(header, seats, [*deal, "Ann: raises 240 to 900"])) == ["RAISE_BELOW_MINIMUM"]
