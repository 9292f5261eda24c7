"""The rulebook's own worked examples (BARGE 2025 §1.1-§1.3, §1.5, §1.6) as replay tests.

Each example is played as the rulebook tells it and must replay without a finding; the
nearest wrong move beside it must give the finding that cites the rule.
"""

from __future__ import annotations

import pytest

from evaluator.betting import Round, pot_limit_max
from tests.rulebook import hand_text, rule_codes

FOUR = [("Ann", 20000), ("Bo", 20000), ("Cy", 20000), ("Di", 20000)]


# ---- §1.1 Limit --------------------------------------------------------------------------------

def _turn(lines: list[str], short: int) -> str:
    """Limit Hold'em at 200/400 on the turn (the 400 limit); Bo, first to act, has `short` left."""
    seats = [("Ann", 5000), ("Bo", 400 + short), ("Cy", 5000), ("Di", 5000)]
    pre = ["Bo: posts small blind 100", "Cy: posts big blind 200", "*** HOLE CARDS ***",
           "Di: calls 200", "Ann: calls 200", "Bo: calls 100", "Cy: checks",
           "*** FLOP *** [Qs 7h 2c]", "Bo: checks", "Cy: checks", "Di: checks", "Ann: bets 200",
           "Bo: calls 200", "Cy: calls 200", "Di: calls 200", "*** TURN *** [9d]"]
    return hand_text("texas_holdem limit (blinds 100/200, bets 200/400)", seats, pre + lines)


def test_limit_all_in_below_half_a_bet_may_be_called_or_completed() -> None:
    # "an all-in wager of 100 when the limit is 400 ... A subsequent player who has not yet acted
    # may fold, call 100, or complete to 400."
    allin = ["Bo: bets 100 and is all-in"]
    assert rule_codes(_turn([*allin, "Cy: completes to 400", "Di: calls 400", "Ann: calls 400"], 100)) == []
    assert rule_codes(_turn([*allin, "Cy: raises 300 to 400", "Di: calls 400", "Ann: calls 400"], 100)) == []
    assert rule_codes(_turn([*allin, "Cy: calls 100", "Di: calls 100", "Ann: calls 100"], 100)) == []
    # Past the completion is not a legal limit wager.
    assert rule_codes(_turn([*allin, "Cy: raises 400 to 500"], 100)) == ["WRONG_LIMIT_BET"]


def test_limit_all_in_below_half_does_not_reopen_the_betting() -> None:
    # Cy bets, Di and Ann call, Bo's all-in raise of 100 is under half a bet: Cy may only call.
    lines = ["Bo: checks", "Cy: bets 400", "Di: calls 400", "Ann: calls 400",
             "Bo: raises 100 to 500 and is all-in"]
    assert rule_codes(_turn([*lines, "Cy: calls 100", "Di: calls 100", "Ann: calls 100"], 500)) == []
    assert rule_codes(_turn([*lines, "Cy: raises 300 to 800"], 500)) == ["BETTING_NOT_REOPENED"]


def test_limit_all_in_of_half_a_bet_or_more_is_a_full_bet() -> None:
    # "an all-in wager of 300 when the limit is 400 ... A subsequent player wishing to raise
    # would make it 300+400=700."
    allin = ["Bo: bets 300 and is all-in"]
    assert rule_codes(_turn([*allin, "Cy: raises 400 to 700", "Di: calls 700", "Ann: calls 700"], 300)) == []
    assert rule_codes(_turn([*allin, "Cy: raises 500 to 800"], 300)) == ["WRONG_LIMIT_BET"]
    # Half a bet or more reopens the betting: Cy, who bet, may raise again.
    lines = ["Bo: checks", "Cy: bets 400", "Di: calls 400", "Ann: calls 400",
             "Bo: raises 200 to 600 and is all-in"]
    assert rule_codes(_turn([*lines, "Cy: raises 400 to 1,000"], 600)) == []


def test_limit_raise_cap_is_a_bet_and_three_raises() -> None:
    lines = ["Bo: bets 400", "Cy: raises 400 to 800", "Di: raises 400 to 1,200", "Ann: raises 400 to 1,600"]
    assert rule_codes(_turn(lines, 4000)) == []
    capped = _turn([*lines, "Bo: raises 400 to 2,000"], 4000)
    assert rule_codes(capped) == ["RAISE_CAP_EXCEEDED"]
    assert rule_codes(capped.replace("Rules: barge-2025", "Rules: barge-2025; raise_cap=4")) == []


def test_limit_razz_bring_in_and_completion() -> None:
    # §1.1: razz at 200/400 with a 50 ante and a 75 bring-in; the highest door card brings it in
    # (§2.40: the K♠ is the highest) and may be completed to 200.
    seats = [("Ann", 5000), ("Bo", 5000), ("Cy", 5000)]
    deal = ["Ann: posts the ante 50", "Bo: posts the ante 50", "Cy: posts the ante 50", "*** 3RD STREET ***",
            "Dealt to Ann [?? ??] up [4c]", "Dealt to Bo [?? ??] up [Ks]", "Dealt to Cy [?? ??] up [Kh]"]
    header = "razz limit (ante 50, bring-in 75, bets 200/400)"
    ok = [*deal, "Bo: brings in for 75", "Cy: completes to 200", "Ann: calls 200", "Bo: calls 125"]
    assert rule_codes(hand_text(header, seats, ok, button=None)) == []
    wrong = [*deal, "Cy: brings in for 75"]
    assert rule_codes(hand_text(header, seats, wrong, button=None)) == ["WRONG_BRING_IN"]
    short = [*deal, "Bo: brings in for 50"]
    assert rule_codes(hand_text(header, seats, short, button=None)) == ["WRONG_BRING_IN"]


# ---- §1.2 No-Limit -----------------------------------------------------------------------------

def _nl(lines: list[str]) -> str:
    # Ann is on the button; Bo and Cy are the blinds, Di is first to act and folds.
    head = ["Bo: posts small blind 100", "Cy: posts big blind 200", "*** HOLE CARDS ***", "Di: folds"]
    return hand_text("texas_holdem no-limit (blinds 100/200)", FOUR, head + lines)


def test_no_limit_example_step_by_step() -> None:
    # Button raises 300 to 500; the small blind raises 700 to 1200; the big blind folds; the button calls 700.
    assert rule_codes(_nl(["Ann: raises 300 to 500", "Bo: raises 700 to 1200", "Cy: folds",
                           "Ann: calls 700", "*** FLOP *** [Qs 7h 2c]"])) == []


@pytest.mark.parametrize("lines", [
    ["Ann: raises 150 to 350"],  # the minimum raise is 200 more, to 400
    ["Ann: raises 300 to 500", "Bo: raises 200 to 700"],  # after a raise of 300 the minimum is to 800
    ["Ann: raises 300 to 500", "Bo: raises 700 to 1200", "Cy: raises 300 to 1500"],  # at least 700 more
])
def test_no_limit_raise_below_the_last_raise(lines: list[str]) -> None:
    assert rule_codes(_nl(lines)) == ["RAISE_BELOW_MINIMUM"]


def test_no_limit_minimum_bet_is_the_big_blind() -> None:
    lines = ["Ann: calls 200", "Bo: calls 100", "Cy: checks", "*** FLOP *** [Qs 7h 2c]", "Bo: bets 150"]
    assert rule_codes(_nl(lines)) == ["BET_BELOW_MINIMUM"]


def test_no_limit_short_all_in_does_not_reopen() -> None:
    seats = [("Ann", 20000), ("Bo", 20000), ("Cy", 20000), ("Di", 750)]
    head = ["Bo: posts small blind 100", "Cy: posts big blind 200", "*** HOLE CARDS ***"]
    # Di limps, Ann raises 300, Cy calls; Di's all-in raise of 250 is short of 300.
    lines = [*head, "Di: calls 200", "Ann: raises 300 to 500", "Bo: folds", "Cy: calls 300",
             "Di: raises 250 to 750 and is all-in"]
    text = hand_text("texas_holdem no-limit (blinds 100/200)", seats, lines)
    assert rule_codes(text + "Ann: calls 250\n") == []
    assert rule_codes(text + "Ann: raises 1,000 to 1,750\n") == ["BETTING_NOT_REOPENED"]


# ---- §1.3 Pot-Limit ----------------------------------------------------------------------------

def _plo(lines: list[str]) -> str:
    seats = [("Ann", 20000), ("Bo", 20000), ("Cy", 20000)]
    head = ["Bo: posts small blind 100", "Cy: posts big blind 200", "*** HOLE CARDS ***"]
    return hand_text("omaha pot-limit (blinds 100/200)", seats, head + lines)


def test_pot_limit_first_raise_is_700_to_go() -> None:
    assert rule_codes(_plo(["Ann: raises 500 to 700"])) == []
    assert rule_codes(_plo(["Ann: raises 600 to 800"])) == ["BET_OVER_POT_LIMIT"]
    assert rule_codes(_plo(["Ann: raises 100 to 300"])) == ["RAISE_BELOW_MINIMUM"]


def test_pot_limit_raise_pot_of_a_pot_bet_is_6000() -> None:
    # The big blind calls: 1500 in the pot. On the flop the big blind bets 1500 and the button
    # says "raise pot": 1500 pot + 1500 bet + 1500 call = 4500 raise, 6000 to go (4x the bet).
    lines = ["Ann: raises 500 to 700", "Bo: folds", "Cy: calls 500", "*** FLOP *** [Qs 7h 2c]",
             "Cy: bets 1,500"]
    assert rule_codes(_plo([*lines, "Ann: raises 4,500 to 6,000"])) == []
    assert rule_codes(_plo([*lines, "Ann: raises 4,600 to 6,100"])) == ["BET_OVER_POT_LIMIT"]
    assert rule_codes(_plo([*lines[:-1], "Cy: bets 1,600"])) == ["BET_OVER_POT_LIMIT"]


def test_pot_limit_three_times_the_bet_shortcut() -> None:
    # "3x200 + 200 (caller) + 400 (pot) ... makes it 1200 to-go": the rule in numbers.
    r = Round(structure="pot-limit", size=0, min_bet=200, current=200)
    assert pot_limit_max(r, pot=400 + 200 + 200, player_bet=0) == 1200
    # The example's text has the pot at 600 after a limp, a completion and a check at 100/200
    # (its own count of 400 disagrees); played out, the same rule gives 3x200 + 200 + 600 = 1400.
    seats = [("Ann", 20000), ("Bo", 20000), ("Cy", 20000)]
    lines = ["Bo: posts small blind 100", "Cy: posts big blind 200", "*** HOLE CARDS ***", "Ann: calls 200",
             "Bo: calls 100", "Cy: checks", "*** FLOP *** [Qs 7h 2c]", "Bo: bets 200", "Cy: calls 200"]
    text = hand_text("omaha pot-limit (blinds 100/200)", seats, lines)
    assert rule_codes(text + "Ann: raises 1,200 to 1,400\n") == []
    assert rule_codes(text + "Ann: raises 1,300 to 1,500\n") == ["BET_OVER_POT_LIMIT"]


def test_pot_limit_stud_london_lowball() -> None:
    # Eight players ante 100, the bring-in is 150: Player B may raise 150 to 300 at least and
    # 1100 to 1250 at most. B makes it 650; Player C's pot raise is 3x650 + 950 = 2900.
    names = [f"P{i}" for i in range(1, 9)]
    seats = [(n, 10000) for n in names]
    ups = ["4c", "7d", "Ks", "2h", "9c", "5s", "3d", "8h"]  # P3's K♠ is the highest card: the bring-in
    lines = [f"{n}: posts the ante 100" for n in names] + ["*** 3RD STREET ***"]
    lines += [f"Dealt to {n} [?? ??] up [{u}]" for n, u in zip(names, ups, strict=True)]
    lines += ["P3: brings in for 150"]
    header = "london_lowball pot-limit (ante 100, bring-in 150)"
    def codes(more: list[str]) -> list[str]:
        return rule_codes(hand_text(header, seats, lines + more, button=None))
    assert codes(["P4: raises 1,100 to 1,250"]) == []
    assert codes(["P4: raises 1,150 to 1,300"]) == ["BET_OVER_POT_LIMIT"]
    assert codes(["P4: raises 150 to 300"]) == []
    assert codes(["P4: raises 100 to 250"]) == ["RAISE_BELOW_MINIMUM"]
    assert codes(["P4: raises 500 to 650", "P5: raises 2,250 to 2,900"]) == []
    assert codes(["P4: raises 500 to 650", "P5: raises 2,300 to 2,950"]) == ["BET_OVER_POT_LIMIT"]


# ---- §1.5 Big blind ante -----------------------------------------------------------------------

def _bba(players: int, bb_stack: int, posts: list[str], rules: str) -> list[str]:
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:players]
    seats = [(n, 20000) for n in names]
    seats[2] = ("Cy", bb_stack)  # Ann on the button, Bo small blind, Cy big blind
    text = hand_text("texas_holdem no-limit (blinds 100/200, big blind ante 200)", seats,
                     ["Bo: posts small blind 100", *posts], rules=rules)
    return [c for c in rule_codes(text) if c in ("WRONG_ANTE", "WRONG_BLIND")]


def test_big_blind_ante_posted_by_the_big_blind() -> None:
    assert _bba(6, 20000, ["Cy: posts big blind ante 200", "Cy: posts big blind 200"], "barge-2025") == []
    assert _bba(6, 20000, ["Ann: posts big blind ante 200", "Cy: posts big blind 200"], "barge-2025") \
        == ["WRONG_ANTE", "WRONG_ANTE"]


def test_big_blind_ante_when_short_blind_or_ante_first() -> None:
    # 300 chips for a 200 blind and a 200 ante: the 2024 TDA (barge-2025) posts the blind first,
    # BARGE 2020 (barge-2021) the ante first, as the 2021 edition's T18000 example does.
    blind_first = ["Cy: posts big blind ante 100", "Cy: posts big blind 200 and is all-in"]
    ante_first = ["Cy: posts big blind ante 200", "Cy: posts big blind 100 and is all-in"]
    assert _bba(6, 300, blind_first, "barge-2025") == []
    assert _bba(6, 300, ante_first, "barge-2025") == ["WRONG_ANTE", "WRONG_BLIND"]
    assert _bba(6, 300, ante_first, "barge-2021") == []
    assert _bba(6, 300, blind_first, "barge-2021") == ["WRONG_ANTE", "WRONG_BLIND"]


def test_big_blind_ante_reduced_at_four_players() -> None:
    # §1.5: reduced to the small blind at four players (BARGE 2024); 2021 did not reduce it.
    reduced = ["Cy: posts big blind ante 100", "Cy: posts big blind 200"]
    full = ["Cy: posts big blind ante 200", "Cy: posts big blind 200"]
    assert _bba(4, 20000, reduced, "barge-2025") == []
    assert _bba(4, 20000, full, "barge-2025") == ["WRONG_ANTE"]
    assert _bba(4, 20000, full, "barge-2021") == []
    assert _bba(5, 20000, full, "barge-2025") == []


# ---- §1.6 Bomb pot ------------------------------------------------------------------------------

def _bomb(lines: list[str]) -> str:
    antes = [f"{n}: posts the ante 300" for n, _ in FOUR]
    return hand_text("texas_holdem no-limit (bomb pot 300)", FOUR, antes + lines)


def test_bomb_pot_antes_then_the_flop_from_the_left_of_the_button() -> None:
    assert rule_codes(_bomb(["*** FLOP *** [Td 8d 3c]", "Bo: checks", "Cy: bets 300", "Di: folds",
                             "Ann: calls 300", "Bo: folds"])) == []


def test_bomb_pot_has_no_pre_flop_betting() -> None:
    assert rule_codes(_bomb(["*** HOLE CARDS ***", "Bo: bets 300"])) == ["BOMB_POT_BETTING"]


def test_bomb_pot_minimum_bet_is_the_ante_and_action_starts_left_of_the_button() -> None:
    assert rule_codes(_bomb(["*** FLOP *** [Td 8d 3c]", "Bo: bets 200"])) == ["BET_BELOW_MINIMUM"]
    assert rule_codes(_bomb(["*** FLOP *** [Td 8d 3c]", "Cy: bets 300"])) == ["OUT_OF_TURN"]


def test_bomb_pot_every_player_antes() -> None:
    antes = [f"{n}: posts the ante 300" for n, _ in FOUR[:3]]
    text = hand_text("texas_holdem no-limit (bomb pot 300)", FOUR, [*antes, "*** FLOP *** [Td 8d 3c]"])
    assert rule_codes(text) == ["WRONG_ANTE"]
