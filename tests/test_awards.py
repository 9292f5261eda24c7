"""Pot awarding against the rulebook: side pots, §1.4's splits and odd chips, Appendix B's sevens
rule with its exact pushes, and the computed awards stored beside the recorded ones."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from evaluator import awarding
from evaluator.awarding import Pot, Result, side_pots
from evaluator.replay import Outcome, replay_hand
from evaluator.settle import Seat, Table, settle
from evaluator.showdown import best_hands
from grammar.barge_parser import parse_hand
from pipeline.cli import main
from pipeline.sources import read_blocks
from tests.conftest import SAMPLES, doc_examples, sample_files
from tests.rulebook import hand_text


def pushed(outcome: Outcome) -> dict[str, int]:
    """Whole chips the rules push to each player."""
    won: Counter[str] = Counter()
    for share in outcome.awards or ():
        won[share.player] += share.amount
    return {player: amount // 100 for player, amount in won.items()}


def codes(outcome: Outcome) -> list[str]:
    return [f.code.name for f in outcome.findings]


# ---- Appendix B: the sevens rule -------------------------------------------------------------

APPENDIX_B = """\
BARGE Hand #APPENDIX-B: california_lowball limit (blinds 10/20, bets 20/20) - 2025-07-14 03:00:00
Table '1' 6-max Seat #1 is the button
Seat 1: Henry (500 in chips)
Seat 2: John (35 in chips)
Seat 3: You (500 in chips)
Seat 4: Cindy (500 in chips)
John: posts small blind 10
You: posts big blind 20
*** HOLE CARDS ***
Cindy: calls 20
Henry: calls 20
John: calls 10
You: checks
*** DRAW ***
John: discards 1 and draws [??]
You: discards 2 and draws [?? ??]
Cindy: stands pat
Henry: discards 1 and draws [??]
John: bets 15 and is all-in
You: calls 15
Cindy: raises 5 to 20
Henry: raises 20 to 40
You: calls 25
Cindy: raises 20 to 60
Henry: calls 20
You: calls 20
*** SHOWDOWN ***
John: shows [8c 4d 3h 2s Ac] (8-4-3-2-A)
You: shows [5s 4s 3c 2d Ah] (5-4-3-2-A)
Cindy: shows [6c 4c 3d 2h As] (6-4-3-2-A)
Henry: shows [6d 5h 4h 3s 2c] (6-5-4-3-2)
{awards}
*** SUMMARY ***
Total pot 275 | Rake 0
"""


def test_appendix_b_twenty_dollar_example_pushes() -> None:
    """"The house dealer pushes all of Cindy's and Henry's post-draw betting back to them, and
    pushes the center pot to you, consisting of that initial $80, plus the $30": You get 110 and
    your own 45 back, Cindy and Henry 60 each, John nothing."""
    right = "You collected 155 from pot\nCindy collected 60 from pot\nHenry collected 60 from pot"
    outcome = replay_hand(parse_hand(APPENDIX_B.format(awards=right)))
    assert pushed(outcome) == {"You": 155, "Cindy": 60, "Henry": 60}
    assert outcome.ending == {"Henry": 48000, "John": 0, "You": 57500, "Cindy": 48000}
    # §1.1 makes John's all-in of 15 (half a bet or more) a full bet, so the rulebook's own
    # "complete to 20, raise to 40" is flagged; the sevens rule is noted and the pushes agree.
    assert codes(outcome) == ["WRONG_LIMIT_BET", "WRONG_LIMIT_BET", "SEVENS_RULE"]
    assert outcome.findings[-1].rule == "BARGE 2025 Appendix B"


def test_appendix_b_pushing_the_whole_pot_to_the_wheel_is_wrong() -> None:
    # Appendix B: the chips put in after the draw go back; pushed to the wheel they are a refund
    # ignored, an error of its own (the note that the rule applied is in it).
    outcome = replay_hand(parse_hand(APPENDIX_B.format(awards="You collected 275 from pot")))
    assert codes(outcome) == ["WRONG_LIMIT_BET", "WRONG_LIMIT_BET", "SEVENS_REFUND_IGNORED"]
    finding = outcome.findings[-1]
    assert finding.rule == "BARGE 2025 Appendix B" and finding.severity == "error"
    assert "Cindy was owed back the 60" in finding.message and "Cindy 60" in finding.message


LOWBALL = ["Bo: posts small blind 50", "Cy: posts big blind 100", "*** HOLE CARDS ***",
           "Ann: calls 100", "Bo: calls 50", "Cy: checks", "*** DRAW ***",
           "Bo: discards 1 and draws [??]", "Cy: discards 2 and draws [?? ??]", "Ann: stands pat",
           "Bo: checks", "Cy: checks", "Ann: bets 200", "Bo: calls 200", "Cy: folds", "*** SHOWDOWN ***"]


THREE = [("Ann", 3000), ("Bo", 3000), ("Cy", 3000)]


def lowball(ann: str, bo: str, awards: list[str]) -> Outcome:
    lines = [*LOWBALL, f"Ann: shows [{ann}]", f"Bo: shows [{bo}]", *awards]
    header = "california_lowball limit (blinds 50/100, bets 100/200)"
    return replay_hand(parse_hand(hand_text(header, THREE, lines)))


def test_a_checked_seven_that_wins_takes_only_the_pot_before_the_draw() -> None:
    outcome = lowball("8h 6d 4d 3c Ah", "7h 5d 4c 3s 2h",
                      ["Bo collected 500 from pot", "Ann collected 200 from pot"])
    assert pushed(outcome) == {"Bo": 500, "Ann": 200}
    assert codes(outcome) == ["SEVENS_RULE"]


def test_a_checked_seven_that_loses_costs_nothing_more() -> None:
    outcome = lowball("6h 5d 4d 3c Ah", "7h 5c 4c 3s 2h", ["Ann collected 700 from pot"])
    assert pushed(outcome) == {"Ann": 700}
    assert codes(outcome) == []


def test_an_eight_may_be_checked() -> None:
    outcome = lowball("8h 6d 4d 3c Ah", "8s 5d 4c 3s 2h", ["Bo collected 700 from pot"])
    assert pushed(outcome) == {"Bo": 700} and codes(outcome) == []


def test_no_sevens_rule_in_no_limit_by_default() -> None:
    lines = [line.replace("bets 200", "bets 300").replace("calls 200", "calls 300") for line in LOWBALL]
    lines += ["Ann: shows [8h 6d 4d 3c Ah]", "Bo: shows [7h 5d 4c 3s 2h]", "Bo collected 900 from pot"]
    text = hand_text("california_lowball no-limit (blinds 50/100)", THREE, lines)
    outcome = replay_hand(parse_hand(text))
    assert pushed(outcome) == {"Bo": 900} and codes(outcome) == []


# ---- side pots ---------------------------------------------------------------------------------

def test_side_pots_put_dead_money_in_the_main_pot() -> None:
    """A big blind all-in for its blind after posting the big blind ante (§1.5): the ante is
    dead money in the main pot, and the others match only the live blind there."""
    pots = side_pots({"Ann": 1000, "Bo": 1000, "Cy": 200}, 200, ["Ann", "Bo", "Cy"])
    assert pots == [Pot(0, 800, ("Ann", "Bo", "Cy")), Pot(1, 1600, ("Ann", "Bo"))]


def test_folded_chips_stay_in_the_pots_they_reached() -> None:
    pots = side_pots({"Ann": 300, "Bo": 1000, "Cy": 1000, "Di": 500}, 0, ["Ann", "Bo", "Cy"])
    assert pots == [Pot(0, 1200, ("Ann", "Bo", "Cy")), Pot(1, 1600, ("Bo", "Cy"))]


def test_action_razz_three_player_example_with_its_side_pot() -> None:
    """§2.2: Player 3's "Face" nine wins the main pot; the side pot between Players 1 and 2 goes
    to Player 1's "Butt" seven over Player 2's "Butt" eight."""
    seats = (Seat("P1", 1, 1000, 100, cards=("2h", "2d", "3s", "3c", "4d", "5s", "7c")),
             Seat("P2", 2, 1000, 100, cards=("Ah", "Ad", "2s", "4c", "4h", "6s", "8c")),
             Seat("P3", 3, 400, 100, cards=("3h", "5d", "7s", "8d", "9h", "Qs", "Kc")))
    result = settle(Table("action_razz", seats, unit=100, odd_chip="card"))
    assert [(s.pot, s.player, s.amount) for s in result.shares] == [(0, "P3", 1500), (1, "P1", 1200)]
    assert result.shares[0].hand.startswith("Face 9-8-7-5-3")


# ---- §1.4: splits and odd chips ----------------------------------------------------------------

HOLDEM = ["Ann: posts small blind 25", "Bo: posts big blind 50", "*** HOLE CARDS ***",
          "Cy: calls 50", "Ann: folds", "Bo: checks", "*** FLOP *** [Kh Qd Jc]", "Bo: checks", "Cy: checks",
          "*** TURN *** [Ts]", "Bo: checks", "Cy: checks", "*** RIVER *** [2c]", "Bo: checks", "Cy: checks",
          "*** SHOWDOWN ***", "Bo: shows [As 3d]", "Cy: shows [Ad 4h]"]
SEATS = [("Ann", 1000), ("Bo", 1000), ("Cy", 1000)]
LIMIT = "texas_holdem limit (blinds 25/50, bets 50/100)"


def test_button_game_odd_chip_goes_clockwise_from_the_button() -> None:
    """Two Ace-high straights split a pot of 125, five chips of 25 with Ann's dead small blind:
    Bo, first clockwise from the button (seat 3) of the two, gets the odd chip."""
    pushes = ["Bo collected 75 from pot", "Cy collected 50 from pot"]
    right = hand_text(LIMIT, SEATS, [*HOLDEM, *pushes], button=3)
    outcome = replay_hand(parse_hand(right))
    assert pushed(outcome) == {"Bo": 75, "Cy": 50} and codes(outcome) == []
    wrong = right.replace("Bo collected 75", "Bo collected 50").replace("Cy collected 50", "Cy collected 75")
    assert codes(replay_hand(parse_hand(wrong))) == ["WRONG_ODD_CHIP"]


def test_a_pot_won_outright_pushed_a_chip_short_is_a_wrong_award() -> None:
    """§1.4: an odd chip exists only where a pot is split. Bo's straight wins the 125 outright;
    one chip of it pushed to Cy is a wrong award, not an odd chip."""
    lines = [line.replace("Cy: shows [Ad 4h]", "Cy: shows [7d 4h]") for line in HOLDEM]
    pushes = ["Bo collected 100 from pot", "Cy collected 25 from pot"]
    text = hand_text(LIMIT, SEATS, [*lines, *pushes], button=3)
    outcome = replay_hand(parse_hand(text))
    assert codes(outcome) == ["WRONG_AWARD"]
    message = outcome.findings[0].message
    assert "no odd chip was split" in message and "Bo was pushed 25 less than the rules push" in message
    assert "pushed: Bo 100; Cy 25; the rules: Bo 125" in message


def test_a_tied_pot_pushed_whole_to_one_hand_is_a_tie_not_split() -> None:
    """§1.4: tied hands split the pot. Bo and Cy both hold an Ace-high straight."""
    text = hand_text(LIMIT, SEATS, [*HOLDEM, "Bo collected 125 from pot"], button=3)
    outcome = replay_hand(parse_hand(text))
    assert codes(outcome) == ["TIE_NOT_SPLIT"]
    finding = outcome.findings[0]
    assert finding.rule == "BARGE 2025 §1.4" and finding.severity == "error"
    assert "Bo, Cy tie for the main pot" in finding.message and "Cy 50" in finding.message


def test_a_tie_in_omaha_hi_lo_with_no_low_is_not_a_low_that_did_not_qualify() -> None:
    """§2.36 and §1.4: no low can be made on A-K-Q-9-8, so the tied high hands (Ace-high straights)
    share the whole pot; pushed to Ann alone it is a tie not split, whatever Ann's eight-less low."""
    lines = ["Ann: posts small blind 100", "Bo: posts big blind 200", "*** HOLE CARDS ***",
             "Ann: calls 100", "Bo: checks", "*** FLOP *** [As Kd Qc]", "Bo: checks", "Ann: checks",
             "*** TURN *** [8s]", "Bo: checks", "Ann: checks", "*** RIVER *** [9h]", "Bo: checks",
             "Ann: checks", "*** SHOWDOWN ***", "Bo: shows [Tc Jc 5h 6h]", "Ann: shows [Th Jd 3c 4d]",
             "Ann collected 400 from pot"]
    text = hand_text("omaha_hi_lo limit (blinds 100/200, bets 200/400)", [("Ann", 3000), ("Bo", 3000)], lines)
    outcome = replay_hand(parse_hand(text))
    assert pushed(outcome) == {"Ann": 200, "Bo": 200}
    assert codes(outcome) == ["TIE_NOT_SPLIT"]


def test_no_player_receives_two_odd_chips_of_one_pot() -> None:
    """§1.4 rule 2, "No player may receive more than one odd chip", over the whole pot: the worked
    example of docs/rules-engine.md. A pot of 30 chips of 1; Ann and Bo tie for high, Ann and Cy
    for low, Ann first clockwise from the button. The high half's odd chip is Ann's; the low
    half's, Ann's again by position, goes to Cy. A side pot is split on its own."""
    def judge(eligible: tuple[str, ...], run: int) -> list[Result]:
        if "Bo" in eligible:
            return [Result("high", ("Ann", "Bo")), Result("low", ("Ann", "Cy"))]
        return [Result("high", ("Ann", "Cy"))]

    pots = [Pot(0, 30, ("Ann", "Bo", "Cy")), Pot(1, 7, ("Ann", "Cy"))]
    shares = awarding.award(pots, judge, 1, order=lambda names: names)
    assert [(s.pot, s.player, s.portion, s.amount, s.odd) for s in shares] == [
        (0, "Ann", "high", 8, True), (0, "Bo", "high", 7, False),
        (0, "Cy", "low", 8, True), (0, "Ann", "low", 7, False),
        (1, "Ann", "high", 4, True), (1, "Cy", "high", 3, False)]
    # The high half holds the pot's odd chip (rule 3c); its winner alone has that chip, so the tied
    # low half's odd chip goes to the other tied hand.
    def scoop_high(eligible: tuple[str, ...], run: int) -> list[Result]:
        return [Result("high", ("Ann",)), Result("low", ("Ann", "Bo"))]

    shares = awarding.award([Pot(0, 31, ("Ann", "Bo"))], scoop_high, 1, order=lambda names: names)
    assert [(s.player, s.portion, s.amount) for s in shares] == [
        ("Ann", "high", 16), ("Bo", "low", 8), ("Ann", "low", 7)]


def test_odd_chips_go_one_each_clockwise_from_the_button() -> None:
    """Three tied hands, five chips: Cy (first after the button at seat 2) and then Ann get one
    odd chip each, Bo on the button none, and nobody two."""
    board = {"1": ("Ks", "Qs", "Js", "Ts", "9s")}
    seats = tuple(Seat(name, seat, 125, cards=cards) for name, seat, cards in
                  (("Ann", 1, ("2c", "3d")), ("Bo", 2, ("2d", "3c")), ("Cy", 3, ("2h", "3h"))))
    result = settle(Table("texas_holdem", seats, unit=75, boards=board, button=2))
    assert {s.player: s.amount for s in result.shares} == {"Cy": 150, "Ann": 150, "Bo": 75}


def test_stud_odd_chip_goes_to_the_highest_card_by_suit() -> None:
    """Two equal razz hands: the player holding the highest card by suit (K♠ over K♥) gets it."""
    seats = (Seat("Ann", 1, 100, 25, cards=("Ah", "2h", "3s", "4c", "5d", "Kh", "Kd")),
             Seat("Bo", 2, 100, 25, cards=("As", "2d", "3c", "4h", "5s", "Ks", "Qd")),
             Seat("Cy", 3, 0, 25, contending=False))
    result = settle(Table("razz", seats, unit=25, odd_chip="card"))
    assert {s.player: s.amount for s in result.shares} == {"Bo": 150, "Ann": 125}


def test_high_half_gets_the_odd_chip_and_five_card_hand_is_high() -> None:
    folded = Seat("Cy", 3, 0, 25, contending=False)  # 225 in all: nine chips of 25
    seats = (Seat("Ann", 1, 100, cards=("Kc", "Kd", "Ks", "9h", "9d", "Ah", "Qc")),
             Seat("Bo", 2, 100, cards=("2c", "3d", "4h", "6s", "8c", "Jd", "Jh")), folded)
    hi_lo = settle(Table("stud_hi_lo", seats, unit=25, odd_chip="card"))
    assert [(s.player, s.portion, s.amount) for s in hi_lo.shares] == [
        ("Ann", "high", 125), ("Bo", "low", 100)]
    draw = (Seat("Ann", 1, 100, cards=("2c", "3d", "4h", "5s", "7c")),
            Seat("Bo", 2, 100, cards=("Ac", "2d", "3h", "4s", "Kd")), folded)
    badacey = settle(Table("badacey", draw, unit=25))
    assert [(s.player, s.portion, s.amount) for s in badacey.shares] == [
        ("Ann", "low", 125), ("Bo", "badugi", 100)]


def test_first_portion_is_the_one_the_rulebook_treats_as_high() -> None:
    """§1.4: the draw hand in Dramaha games, the Omaha hand in Sohe, the five-card hand in
    Badacey/Badeucy/Razzdugi/Action Razzdugi."""
    board = {"1": ("2c", "7d", "9h", "Jc", "Kd")}
    five = ("Ac", "Ad", "3h", "4s", "5c")
    assert [p.name for p in best_hands("dramaha", five, board)] == ["draw", "omaha"]
    assert [p.name for p in best_hands("dramaha_49", five, board)] == ["points", "omaha"]
    sohe = best_hands("sohe", (*five, "6c"), board, split=(five[:2], (*five[2:], "6c")))
    assert [p.name for p in sohe] == ["omaha", "hold'em"]
    for game in ("badacey", "badeucy", "razzdugi", "action_razzdugi"):
        seven = ("Ac", "2d", "3h", "4s", "5c", "Kd", "Qd")
        assert [p.name for p in best_hands(game, seven)] == ["low", "badugi"]


def test_smallest_chip_option_sets_the_odd_chip() -> None:
    """With chips of 5 in play, the 125 of the tie above splits 65/60, not 75/50."""
    text = hand_text(LIMIT, SEATS, [*HOLDEM, "Bo collected 65 from pot", "Cy collected 60 from pot"],
                     button=3, rules="barge-2025; smallest_chip=5")
    outcome = replay_hand(parse_hand(text))
    assert pushed(outcome) == {"Bo": 65, "Cy": 60} and codes(outcome) == []


def test_a_hand_never_shown_cannot_win() -> None:
    """TDA: a hand must be tabled to win; Cy's unseen cards lose to Bo's shown ones."""
    lines = [line for line in HOLDEM if not line.startswith("Cy: shows")]
    text = hand_text(LIMIT, SEATS, [*lines, "Bo collected 125 from pot"], button=3)
    outcome = replay_hand(parse_hand(text))
    assert pushed(outcome) == {"Bo": 125} and codes(outcome) == []


def test_run_twice_splits_each_pot_between_the_runs() -> None:
    example = next(text for text in doc_examples() if "Dealer: runs it twice" in text)
    outcome = replay_hand(parse_hand(example))
    assert [(s.player, s.amount // 100, s.portion) for s in outcome.awards or ()] == [
        ("Bo", 1000, "run 1"), ("Ann", 1000, "run 2")]
    assert codes(outcome) == []


# ---- the samples and the store -----------------------------------------------------------------

@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.stem)
def test_every_sample_award_is_confirmed(path: Path) -> None:
    """The recorded pushes of every sample hand equal what the rules push, player by player."""
    for block in read_blocks(path):
        hand = parse_hand(block.text)
        outcome = replay_hand(hand)
        assert outcome.awards is not None, hand.hand_id
        recorded: Counter[str] = Counter()
        for award in hand.awards:
            recorded[award.player] += award.amount
        computed: Counter[str] = Counter()
        for share in outcome.awards:
            computed[share.player] += share.amount
        assert +recorded == +computed, hand.hand_id


def test_audit_stores_computed_awards_and_rule_ending_stacks(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    sample = SAMPLES / "audit" / "MISREAD_HAND.bhh"
    assert main(["ingest", str(sample), "--db", str(db)]) == 0
    assert main(["audit", "--db", str(db)]) == 0  # a second audit replaces the first one's rows
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT origin, player, amount, hand FROM awards ORDER BY origin, seq").fetchall()
        stacks = con.execute("SELECT player, ending_stack, final_stack FROM seats ORDER BY seat").fetchall()
    assert rows == [("computed", "Bo", Decimal("2400.00"), "flush, A-J-8-4-2"),
                    ("recorded", "Ann", Decimal("2400.00"), None)]
    assert stacks == [("Ann", Decimal("2800.00"), Decimal("5200.00")),
                      ("Bo", Decimal("5200.00"), Decimal("2800.00")),
                      ("Cy", Decimal("4000.00"), Decimal("4000.00"))]


def test_a_room_that_gives_each_division_its_own_odd_chip() -> None:
    """§1.4 rule 2 over the whole pot is the default; PokerStars (`odd_chips=per_split`) gives the
    low half's odd chip to the first tied player from the button even when they hold the high
    half's (PS-68174580765, docs/interop.md)."""
    def tie(eligible: Sequence[str], run: int) -> list[Result]:
        return [Result("high", ("Ann",)), Result("low", ("Ann", "Bo"))]

    pot = [Pot(0, 1875, ("Ann", "Bo"))]

    def pushes(one: bool) -> list[tuple[str, int]]:
        return [(s.player, s.amount)
                for s in awarding.award(pot, tie, 1, order=list, one_odd_chip_per_pot=one)]

    assert pushes(True) == [("Ann", 938), ("Bo", 469), ("Ann", 468)]
    assert pushes(False) == [("Ann", 938), ("Ann", 469), ("Bo", 468)]


LABELLED_LOW = """\
BARGE Hand #LABELLED-LOW: crazy_pineapple_hi_lo limit (blinds 150/300, bets 300/600) - 2025-07-06 12:29:27
Event: BARGE 2025 Event #40 Limit Crazy Pineapple High/Low
Tournament: 40
Level: 3 (150/300)
Table '40-4' 9-max Seat #6 is the button
Seat 1: Bo Brody (16,050 in chips)
Seat 2: Cy Keller (96,750 in chips)
Seat 3: Ivy Lee (49,650 in chips)
Seat 4: Yara Marsh (37,800 in chips)
Seat 5: Ann Stone (49,800 in chips)
Seat 6: Flo Park (53,700 in chips)
Seat 7: Cy Wong (15,300 in chips)
Seat 8: Di Reyes (1,350 in chips)
Seat 9: Rosa Santos (43,050 in chips)
Cy Wong: posts small blind 150
Di Reyes: posts big blind 300
*** HOLE CARDS ***
Dealt to Cy Wong [9s 3c 8h]
Dealt to Di Reyes [5d Ad 8s]
Dealt to Rosa Santos [Qc Ac 7h]
Dealt to Bo Brody [Ah 7s 8d]
Dealt to Cy Keller [5h 6d 5s]
Dealt to Ivy Lee [6s 2c 2h]
Dealt to Yara Marsh [2d As 4d]
Dealt to Ann Stone [9h 2s Kh]
Dealt to Flo Park [Th Kc 6c]
Rosa Santos: calls 300
Bo Brody: raises 300 to 600
Cy Keller: calls 600
Ivy Lee: folds
Yara Marsh: folds
Ann Stone: raises 300 to 900
Flo Park: folds
Cy Wong: raises 300 to 1,200
Di Reyes: folds
Rosa Santos: folds
Bo Brody: folds
Cy Keller: folds
Ann Stone: calls 300
*** FLOP *** [3h 9d 3d]
Cy Wong: checks
Ann Stone: checks
Cy Wong: discards [8h]
Ann Stone: discards [Kh]
*** TURN *** [9c]
Cy Wong: checks
Ann Stone: checks
*** RIVER *** [7d]
Cy Wong: bets 600
Ann Stone: raises 600 to 1,200
Cy Wong: calls 600
*** SHOWDOWN ***
Cy Wong: shows [9s 3c]
Ann Stone: shows [9h 2s]
Cy Wong collected 1,650 from pot (high)
Ann Stone collected 1,650 from pot (low)
Ann Stone collected 3,300 from pot (high)
*** SUMMARY ***
Total pot 6,600 | Rake 0
Seat 1: Bo Brody ends with 15,450
Seat 2: Cy Keller ends with 96,150
Seat 3: Ivy Lee ends with 49,650
Seat 4: Yara Marsh ends with 37,800
Seat 5: Ann Stone ends with 52,350
Seat 6: Flo Park ends with 53,700
Seat 7: Cy Wong ends with 14,550
Seat 8: Di Reyes ends with 1,050
Seat 9: Rosa Santos ends with 42,750
"""


def test_a_share_the_record_calls_a_low_without_a_qualifying_low_is_named_so() -> None:
    """BARGE 2025 §2.14 (Crazy Pineapple High-Low, eight-or-better): the high is tied and no low
    qualifies; the record pushes Ann a "low" half. That is LOW_DID_NOT_QUALIFY, not a tie not split
    (the record says what it did)."""
    codes = [f.code.name for f in replay_hand(parse_hand(LABELLED_LOW)).findings]
    assert codes == ["LOW_DID_NOT_QUALIFY"]
