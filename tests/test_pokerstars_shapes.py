"""The shapes of real PokerStars text the reader takes, one short history each (written for these
tests after public examples of each shape): mixed-game headers with the stakes inside the
parentheses, Cap No Limit, Pot Limit pre-flop and No Limit after, Split Hold'em, run-it-twice and
three-times summaries, names with brackets, `#`, colons and parentheses, a converter's comment and
straddle, upper-case headers of old exports, PokerStars' words for Badugi and the lows, a card
written as no card (an exporter's "XX", a Triple Stud "[of]"), Run It Once's return written with the
pot and its timed-out folds. Each asserts the hand as read and that the audit finds nothing where the
record is right."""

from __future__ import annotations

import pytest

from evaluator.catalog import ALL_GAMES, GAMES
from evaluator.descriptions import misdescribed
from evaluator.replay import replay
from evaluator.settle import Seat, Table
from grammar.errors import HandSyntaxError
from grammar.pokerstars_parser import parse_pokerstars, sniff, split_pokerstars
from pipeline.model import Award, Hand


def _posts(hand: Hand) -> list[tuple[str | None, int | None, str | None]]:
    return [(a.player, a.amount, a.detail) for a in hand.actions if a.kind == "post"]


def _codes(hand: Hand) -> list[str]:
    return [f.code.name for f in replay(hand)]


# ---- headers ------------------------------------------------------------------------------------

EIGHT_GAME = """\
PokerStars Hand #165002211001:  8-Game (7 Card Stud Hi/Lo Limit, $400/$800 USD) - 2017/01/15 15:04:11 ET
Table 'Eris' 8-max
Seat 1: Ann ($20000 in chips)
Seat 3: Bo ($15000 in chips)
Ann: posts the ante $80
Bo: posts the ante $80
*** 3rd STREET ***
Dealt to Ann [5c 4d Kh]
Dealt to Bo [3c]
Bo: brings in for $120
Ann: completes it to $400
Bo: folds
Uncalled bet ($280) returned to Ann
Ann collected $400 from pot
Ann: doesn't show hand
*** SUMMARY ***
Total pot $400 | Rake $0
Seat 1: Ann collected ($400)
Seat 3: Bo folded on the 3rd Street
"""


def test_a_mixed_game_with_the_stakes_inside_its_parentheses() -> None:
    hand = parse_pokerstars(EIGHT_GAME)
    assert (hand.variant, hand.structure, hand.event) == ("stud_hi_lo", "limit", "PokerStars, 8-Game, USD")
    assert (hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.ante, hand.stakes.bring_in) == (
        40000, 80000, 8000, 12000)
    assert hand.awards == (Award("Ann", 40000),)
    assert _codes(hand) == []


MIXED_NLH_PLO = """\
PokerStars Hand #230001000002:  Mixed NLH/PLO (Hold'em No Limit, $0.10/$0.25 USD) - 2021/09/08 14:11:05 ET
Table 'Hyperion' 6-max Seat #1 is the button
Seat 1: Ann ($25 in chips)
Seat 2: Bo ($25 in chips)
Seat 3: Cy ($25 in chips)
Bo: posts small blind $0.10
Cy: posts big blind $0.25
*** HOLE CARDS ***
Ann: raises $0.50 to $0.75
Bo: folds
Cy: folds
Uncalled bet ($0.50) returned to Ann
Ann collected $0.60 from pot
Ann: doesn't show hand
*** SUMMARY ***
Total pot $0.60 | Rake $0
Seat 1: Ann (button) collected ($0.60)
Seat 2: Bo (small blind) folded before Flop
Seat 3: Cy (big blind) folded before Flop
"""


def test_mixed_nlh_plo_names_the_hands_game_and_its_blinds_in_parentheses() -> None:
    hand = parse_pokerstars(MIXED_NLH_PLO)
    assert (hand.variant, hand.structure, hand.event) == (
        "texas_holdem", "no-limit", "PokerStars, Mixed NLH/PLO, USD")
    assert (hand.stakes.small_blind, hand.stakes.big_blind) == (10, 25)
    assert _codes(hand) == []


CAP = """\
PokerStars Game #52151003311:  Hold'em No Limit ($0.25/$0.50 - $10 Cap -  USD) - 2010/11/01 7:20:00 ET
Table 'Ibarra' 9-max Seat #8 is the button
Seat 1: Ann ($10 in chips)
Seat 2: Bo ($14 in chips)
Seat 8: Cy ($9.95 in chips)
Seat 9: Di ($13 in chips)
Di: posts small blind $0.25
Ann: posts big blind $0.50
*** HOLE CARDS ***
Bo: folds
Cy: folds
Di: raises $1 to $1.50
Ann: raises $2 to $3.50
Di: raises $6.50 to $10 and has reached the $10 cap
Ann: calls $6.50 and is all-in
*** FLOP *** [Qd 7s 2c]
*** TURN *** [Qd 7s 2c] [Qh]
*** RIVER *** [Qd 7s 2c Qh] [9c]
*** SHOW DOWN ***
Di: shows [Qs Kh] (three of a kind, Queens)
Ann: shows [Ah 6d] (a pair of Queens)
Di collected $19 from pot
*** SUMMARY ***
Total pot $20 | Rake $1
Board [Qd 7s 2c Qh 9c]
Seat 1: Ann (big blind) showed [Ah 6d] and lost with a pair of Queens
Seat 2: Bo folded before Flop (didn't bet)
Seat 8: Cy (button) folded before Flop (didn't bet)
Seat 9: Di (small blind) showed [Qs Kh] and won ($19) with three of a kind, Queens
"""


def test_cap_no_limit_keeps_its_cap_and_structure() -> None:
    hand = parse_pokerstars(CAP)
    assert (hand.variant, hand.structure, hand.event) == ("texas_holdem", "no-limit", "PokerStars, USD")
    assert (hand.stakes.small_blind, hand.stakes.big_blind, hand.stakes.cap) == (25, 50, 1000)
    assert [(a.player, a.to_amount) for a in hand.actions if a.kind == "raise"] == [
        ("Di", 150), ("Ann", 350), ("Di", 1000)]
    assert hand.awards == (Award("Di", 1900),) and (hand.total_pot, hand.rake) == (2000, 100)
    assert _codes(hand) == []


def test_cap_pot_limit_is_pot_limit_with_a_cap() -> None:
    text = CAP.replace("Hold'em No Limit ($0.25/$0.50 - $10 Cap -  USD)",
                       "Omaha Pot Limit ($0.25/$0.50 - $10 Cap - USD)")
    hand = parse_pokerstars(text.replace("[Qs Kh]", "[Qs Kh 3d 4d]").replace("[Ah 6d]", "[Ah 6d 8h 8s]"))
    assert (hand.variant, hand.structure, hand.stakes.cap) == ("omaha", "pot-limit", 1000)


PL_NL = """\
PokerStars Hand #180000000044:  Hold'em Pot Limit Pre-Flop, No Limit Post-Flop ($0.25/$0.50 USD) \
- 2018/01/10 15:00:00 ET
Table 'Kepler' 6-max Seat #1 is the button
Seat 1: Ann ($50 in chips)
Seat 2: Bo ($50 in chips)
Seat 3: Cy ($50 in chips)
Bo: posts small blind $0.25
Cy: posts big blind $0.50
*** HOLE CARDS ***
Ann: raises $1.25 to $1.75
Bo: folds
Cy: calls $1.25
*** FLOP *** [9s 6h 2d]
Cy: checks
Ann: bets $20
Cy: folds
Uncalled bet ($20) returned to Ann
Ann collected $3.60 from pot
Ann: doesn't show hand
*** SUMMARY ***
Total pot $3.75 | Rake $0.15
Board [9s 6h 2d]
Seat 1: Ann (button) collected ($3.60)
Seat 2: Bo (small blind) folded before Flop
Seat 3: Cy (big blind) folded on the Flop
"""


def test_pot_limit_pre_flop_no_limit_post_flop_is_pl_nl() -> None:
    hand = parse_pokerstars(PL_NL)
    assert (hand.variant, hand.structure) == ("texas_holdem", "pl-nl")
    assert (hand.stakes.small_blind, hand.stakes.big_blind) == (25, 50)
    # the pot-sized raise before the flop and the bet of five times the pot after it are both legal
    assert _codes(hand) == []
    over = PL_NL.replace("raises $1.25 to $1.75", "raises $4.50 to $5").replace("calls $1.25", "calls $4.50")
    over = over.replace("$3.60", "$10.10").replace("Total pot $3.75", "Total pot $10.25")
    assert [(f.code.name, f.rule) for f in replay(parse_pokerstars(over))] == [
        ("BET_OVER_POT_LIMIT", "BARGE 2025 §1.3")]  # before the flop the pot limits the raise


def test_a_converters_fixed_limit_is_limit() -> None:
    text = CONVERTED_WALK.replace("Hold'em No Limit ($3/$6)", "Hold'em Fixed Limit ($6/$12.00)")
    hand = parse_pokerstars(text)
    assert (hand.structure, hand.stakes.small_bet, hand.stakes.big_bet, hand.stakes.big_blind) == (
        "limit", 600, 1200, 600)


def test_upper_case_headers_of_old_exports() -> None:
    text = MIXED_NLH_PLO.replace(
        "PokerStars Hand #230001000002:  Mixed NLH/PLO (Hold'em No Limit, $0.10/$0.25 USD)",
        "POKERSTARS GAME #230001000002: HOLD'EM NO LIMIT ($0.10/$0.25 USD)")
    assert sniff(text) and [b.line for b in split_pokerstars(text.splitlines(keepends=True) * 2)] == [1, 20]
    hand = parse_pokerstars(text)
    assert (hand.hand_id, hand.variant, hand.structure, hand.event) == (
        "PS-230001000002", "texas_holdem", "no-limit", "PokerStars, USD")
    assert _codes(hand) == []


# ---- Split Hold'em ------------------------------------------------------------------------------

SPLIT = """\
PokerStars Hand #184400000001:  Split Hold'em No Limit ($1/$2 USD) - 2018/03/28 13:38:18 ET
Table 'Andromeda' 6-max Seat #3 is the button
Seat 1: Ann ($400 in chips)
Seat 2: Bo ($150 in chips)
Seat 3: Cy ($280 in chips)
Seat 4: Di ($160 in chips)
Di: posts small blind $1
Ann: posts big blind $2
*** HOLE CARDS ***
Dealt to Di [Qs Jd]
Bo: raises $4 to $6
Cy: calls $6
Di said, "nh"
Di: folds
Ann: folds
*** FIRST FLOP *** [Ks 4c 8c]
*** SECOND FLOP *** [4s Qd 5h]
Bo: bets $7.50
Cy: calls $7.50
*** FIRST TURN *** [Ks 4c 8c] [8d]
*** SECOND TURN *** [4s Qd 5h] [Ac]
Bo: bets $20
Cy: calls $20
*** FIRST RIVER *** [Ks 4c 8c 8d] [6h]
*** SECOND RIVER *** [4s Qd 5h Ac] [Ts]
Bo: checks
Cy: checks
*** FIRST SHOW DOWN ***
Bo: shows [7c 6c] (two pair, Eights and Sixes)
Cy: shows [3d Ad] (a pair of Eights)
Bo collected $33.50 from pot
*** SECOND SHOW DOWN ***
Bo: shows [7c 6c] (high card Ace)
Cy: shows [3d Ad] (a pair of Aces)
Cy collected $33.50 from pot
*** SUMMARY ***
Total pot $70 | Rake $3
FIRST Board [Ks 4c 8c 8d 6h]
SECOND Board [4s Qd 5h Ac Ts]
Seat 1: Ann (big blind) folded before Flop
Seat 2: Bo showed [7c 6c] and won ($33.50) with two pair, Eights and Sixes, and lost with high card Ace
Seat 3: Cy (button) showed [3d Ad] and lost with a pair of Eights, and won ($33.50) with a pair of Aces
Seat 4: Di (small blind) folded before Flop
"""


def test_split_holdem_is_the_rooms_game_of_two_boards() -> None:
    game = ALL_GAMES["split_holdem"]
    assert "split_holdem" not in GAMES and game.rule == "BARGE 2025 §2.51, as extended by PokerStars"
    assert [dict(s.boards) for s in game.streets] == [
        {}, {"1": 3, "2": 3}, {"1": 1, "2": 1}, {"1": 1, "2": 1}]


def test_split_holdem_deals_both_boards_and_splits_the_pot_between_them() -> None:
    hand = parse_pokerstars(SPLIT)
    assert (hand.variant, hand.structure) == ("split_holdem", "no-limit")
    boards = [(a.street, a.detail, a.cards) for a in hand.actions if a.kind == "board"]
    assert boards == [("flop", "1", ("Ks", "4c", "8c")), ("flop", "2", ("4s", "Qd", "5h")),
                      ("turn", "1", ("8d",)), ("turn", "2", ("Ac",)),
                      ("river", "1", ("6h",)), ("river", "2", ("Ts",))]
    assert not any(a.kind == "run_it" for a in hand.actions)  # two boards, not a run-out
    assert hand.awards == (Award("Bo", 3350, 0, "board 1"), Award("Cy", 3350, 0, "board 2"))
    assert _codes(hand) == []


def test_split_holdem_awards_and_descriptions_are_checked_per_board() -> None:
    swapped = SPLIT.replace("Bo collected $33.50", "Cy collected $33.50").replace(
        "(a pair of Aces)", "(a pair of Kings)")
    findings = replay(parse_pokerstars(swapped))
    assert [(f.code.name, f.rule) for f in findings] == [
        ("MISREAD_HAND", "BARGE 2025 §2.51, as extended by PokerStars"),
        ("MISDESCRIBED_HAND", "BARGE 2025 §2.51, as extended by PokerStars")]
    assert "the rules: Bo 33.50 (board 1" in findings[0].message


# ---- run-outs -----------------------------------------------------------------------------------

THREE_TIMES = """\
PokerStars Hand #200000000005:  Hold'em No Limit ($1/$2 USD) - 2019/05/02 16:14:09 ET
Table 'Vega' 6-max Seat #1 is the button
Seat 1: Ann ($100 in chips)
Seat 2: Bo ($150 in chips)
Ann: posts small blind $1
Bo: posts big blind $2
*** HOLE CARDS ***
Ann: raises $98 to $100 and is all-in
Bo: calls $98
Ann: shows [Ah Kh]
Bo: shows [Qd Qc]
*** FIRST FLOP *** [Td 4s 8d]
*** FIRST TURN *** [Td 4s 8d] [2c]
*** FIRST RIVER *** [Td 4s 8d 2c] [3h]
*** SECOND FLOP *** [2s Th Ac]
*** SECOND TURN *** [2s Th Ac] [5d]
*** SECOND RIVER *** [2s Th Ac 5d] [9c]
*** THIRD FLOP *** [As Ks 7d]
*** THIRD TURN *** [As Ks 7d] [6c]
*** THIRD RIVER *** [As Ks 7d 6c] [Jc]
*** FIRST SHOW DOWN ***
Bo collected $66 from pot
*** SECOND SHOW DOWN ***
Ann collected $66 from pot
*** THIRD SHOW DOWN ***
Ann collected $66 from pot
*** SUMMARY ***
Total pot $200 | Rake $2
Hand was run three times
FIRST Board [Td 4s 8d 2c 3h]
SECOND Board [2s Th Ac 5d 9c]
THIRD Board [As Ks 7d 6c Jc]
Seat 1: Ann (button) (small blind) showed [Ah Kh] and lost with high card Ace, \
and won ($66) with a pair of Aces, and won ($66) with two pair, Aces and Kings
Seat 2: Bo (big blind) showed [Qd Qc] and won ($66) with a pair of Queens, \
and lost with a pair of Queens, and lost with a pair of Queens
"""


def test_a_hand_run_three_times_reads_each_runs_result() -> None:
    hand = parse_pokerstars(THREE_TIMES)
    assert next(a.amount for a in hand.actions if a.kind == "run_it") == 3
    assert [a.detail for a in hand.actions if a.kind == "board"] == ["1"] * 3 + ["2"] * 3 + ["3"] * 3
    assert hand.awards == (Award("Bo", 6600, 0, "run 1"), Award("Ann", 6600, 0, "run 2"),
                           Award("Ann", 6600, 0, "run 3"))
    assert _codes(hand) == []


def test_the_summary_alone_gives_each_runs_award_in_its_place() -> None:
    # Without "collected" lines (a cash-out's history) the summary's results are the awards: a run
    # lost before one won keeps its number.
    text = "".join(line for line in THREE_TIMES.splitlines(keepends=True) if " collected " not in line)
    hand = parse_pokerstars(text)
    assert sorted(hand.awards, key=lambda a: a.portion or "") == [
        Award("Bo", 6600, 0, "run 1"), Award("Ann", 6600, 0, "run 2"), Award("Ann", 6600, 0, "run 3")]


@pytest.mark.parametrize("results", [
    "and won ($66) with a pair of Queens, and won ($66), and won ($66)",
    "and lost with a pair of Queens, and lost, and lost",
])
def test_run_results_with_and_without_their_hands(results: str) -> None:
    line = f"Seat 2: Bo (big blind) showed [Qd Qc] {results}\n"
    text = THREE_TIMES.replace(THREE_TIMES.splitlines(keepends=True)[-1], line)
    assert parse_pokerstars(text).hand_id == "PS-200000000005"


# ---- names --------------------------------------------------------------------------------------

NAMES = """\
PokerStars Hand #99000000777: Tournament #1234567890, $3.30+$0.20 USD Hold'em No Limit - Level II (25/50) \
- 2016/04/02 10:00:00 ET
Table '1234567890 1' 9-max Seat #1 is the button
Seat 1: ##terry##477 (1500 in chips)
Seat 2: PC [Mittel] (1500 in chips)
Seat 3: dr:who (1500 in chips)
Seat 4: Ann (the 2nd) (1500 in chips)
Seat 5: PC (1500 in chips)
PC [Mittel]: posts small blind 25
dr:who: posts big blind 50
*** HOLE CARDS ***
Dealt to PC [Mittel] [Ah Kd]
Ann (the 2nd): folds
PC: folds
##terry##477: raises 100 to 150
PC [Mittel]: calls 125
dr:who: folds
*** FLOP *** [2c 7d Jh]
PC [Mittel]: checks
##terry##477: bets 200
PC [Mittel]: folds
Uncalled bet (200) returned to ##terry##477
##terry##477 collected 350 from pot
##terry##477: doesn't show hand
*** SUMMARY ***
Total pot 350 | Rake 0
Board [2c 7d Jh]
Seat 1: ##terry##477 (button) collected (350)
Seat 2: PC [Mittel] (small blind) folded on the Flop
Seat 3: dr:who (big blind) folded before Flop
Seat 4: Ann (the 2nd) folded before Flop (didn't bet)
Seat 5: PC folded before Flop (didn't bet)
"""


def test_a_name_is_whatever_stands_between_the_seat_and_its_stack() -> None:
    hand = parse_pokerstars(NAMES)
    assert [s.player for s in hand.seats] == ["##terry##477", "PC [Mittel]", "dr:who", "Ann (the 2nd)", "PC"]
    assert [(a.player, a.kind) for a in hand.actions if a.kind not in ("post", "board")] == [
        ("PC [Mittel]", "deal"), ("Ann (the 2nd)", "fold"), ("PC", "fold"), ("##terry##477", "raise"),
        ("PC [Mittel]", "call"), ("dr:who", "fold"), ("PC [Mittel]", "check"), ("##terry##477", "bet"),
        ("PC [Mittel]", "fold"), ("##terry##477", "return")]
    assert next(a.cards for a in hand.actions if a.kind == "deal") == ("Ah", "Kd")
    assert hand.awards == (Award("##terry##477", 35000),)  # chips, in hundredths
    assert _codes(hand) == []


def test_a_player_named_with_a_hash_posts_and_a_converters_comment_is_dropped() -> None:
    text = NAMES.replace("PC [Mittel]: posts small blind 25\ndr:who: posts big blind 50\n",
                         '# {"gt":"NLH","tid":1234567890}\nPC [Mittel]: posts small blind 25\n'
                         "dr:who: posts big blind 50\n")
    hand = parse_pokerstars(text.replace("Seat 1: ##terry##477 (button)", "# summary of the converter\n"
                                         "Seat 1: ##terry##477 (button)"))
    assert _posts(hand) == [("PC [Mittel]", 2500, "small_blind"), ("dr:who", 5000, "big_blind")]
    assert not any(a.kind == "note" for a in hand.actions)
    assert _codes(hand) == []


def test_an_error_names_the_player_as_written() -> None:
    with pytest.raises(HandSyntaxError) as caught:
        parse_pokerstars(NAMES.replace("PC [Mittel]: calls 125", "PC [Mittel]: calls [125]"))
    assert (caught.value.line, caught.value.column) == (15, 20)
    with pytest.raises(HandSyntaxError, match=r"'PC \[Mittel\] \[2c\]' is not seated"):
        parse_pokerstars(NAMES.replace("PC [Mittel]: checks", "PC [Mittel] [2c]: checks"))


CONVERTED_WALK = """\
PokerStars Hand #2762700001: Hold'em No Limit ($3/$6) - 2013/10/18 16:44:33
Table '#5724411' 6-max Seat #4 is the button
Seat 3: Ann ($600 in chips)
Seat 4: Dealer ($325 in chips)
Seat 5: Small Blind ($252.50 in chips)
Small Blind: posts small blind $3
Ann: posts big blind $6
*** HOLE CARDS ***
Dealt to Ann [7c Th]
Dealer: folds
Small Blind: folds
Ann: shows [7c Th]
Ann collected $9 from pot
Small Blind: Table deposit $347.50
*** SUMMARY ***
Total pot $9 | Rake $0.00
Seat 3: Ann (big blind) won ($9)
Seat 4: Dealer (button) mucked [3s 8d]
Seat 5: Small Blind (small blind) mucked [6c 2c]
"""


def test_a_converters_table_deposit_is_a_note() -> None:
    hand = parse_pokerstars(CONVERTED_WALK)
    assert [a.detail for a in hand.actions if a.kind == "note"] == ["Small Blind: Table deposit $347.50"]
    # the converter pushes the unmatched $3 of the big blind with the pot: a return, and $6 won
    assert hand.awards == (Award("Ann", 600),) and hand.event == "PokerStars, USD"
    assert [(a.player, a.amount) for a in hand.actions if a.kind == "return"] == [("Ann", 300)]
    assert _codes(hand) == []


# ---- posts --------------------------------------------------------------------------------------

STRADDLE = """\
PokerStars Hand #170000000010:  Hold'em No Limit ($2/$4 USD) - 2017/02/01 14:00:00 ET
Table 'Orion' 6-max Seat #1 is the button
Seat 1: Ann ($400 in chips)
Seat 2: Bo ($400 in chips)
Seat 3: Cy ($400 in chips)
Seat 4: Di ($400 in chips)
Bo: posts small blind $2
Cy: posts big blind $4
Di: posts big blind $8
*** HOLE CARDS ***
Ann: raises $16 to $24
Bo: folds
Cy: folds
Di: folds
Uncalled bet ($16) returned to Ann
Ann collected $22 from pot
*** SUMMARY ***
Total pot $22 | Rake $0
Seat 1: Ann (button) collected ($22)
Seat 2: Bo (small blind) folded before Flop
Seat 3: Cy (big blind) folded before Flop
Seat 4: Di folded before Flop
"""


def test_a_converters_straddle_written_as_a_big_blind_is_a_straddle() -> None:
    hand = parse_pokerstars(STRADDLE)
    assert _posts(hand) == [("Bo", 200, "small_blind"), ("Cy", 400, "big_blind"), ("Di", 800, "straddle")]
    assert _codes(hand) == []


def test_a_returning_players_big_blind_stays_a_big_blind() -> None:
    text = STRADDLE.replace("Di: posts big blind $8", "Di: posts big blind $4").replace(
        "$16 to $24", "$20 to $24").replace("($16) returned", "($20) returned").replace("$22", "$14")
    hand = parse_pokerstars(text)
    assert _posts(hand) == [("Bo", 200, "small_blind"), ("Cy", 400, "big_blind"), ("Di", 400, "big_blind")]


SECOND_SMALL_BLIND = """\
PokerStars Hand #3434271432: Omaha Fixed Limit ($30/$60.00) - 2017/03/08 20:45:32
Table '#11423667' 6-max Seat #7 is the button
Seat 4: UTG ($667 in chips)
Seat 5: Ann ($752 in chips)
Seat 7: Bo ($1,473 in chips)
Seat 8: Cy ($1,326 in chips)
Seat 9: Di ($670.50 in chips)
Cy: posts small blind $15
Di: posts big blind $30
UTG: posts small blind $15
*** HOLE CARDS ***
UTG: calls {call}
Ann: raises $30 to $60
Bo: folds
Cy: folds
Di: folds
UTG: calls $30
*** FLOP *** [Kc Jd Js]
UTG: checks
Ann: bets $30
UTG: folds
Uncalled bet ($30) returned to Ann
Ann collected {pot} from pot
*** SUMMARY ***
Total pot {pot} | Rake $0
"""


@pytest.mark.parametrize(("call", "pot", "detail"),
                         [("$15", "$165", "small_blind"), ("$30", "$180", "dead_blind")])
def test_a_second_small_blind_is_dead_unless_the_posters_call_says_it_was_live(
    call: str, pot: str, detail: str
) -> None:
    """PokerStars' missed small blind is dead money (the poster calls the whole big blind); a
    converted history whose poster calls only the rest of it counted the post as a live bet."""
    hand = parse_pokerstars(SECOND_SMALL_BLIND.format(call=call, pot=pot))
    assert _posts(hand)[-1] == ("UTG", 1500, detail)
    assert _codes(hand) == []


# ---- descriptions -------------------------------------------------------------------------------

BADUGI = """\
PokerStars Game #25900000001:  Badugi Limit ($0.25/$0.50 USD) - 2009/03/13 16:40:58 ET
Table 'Mira' 6-max Seat #2 is the button
Seat 1: Ann ($10 in chips)
Seat 2: Bo ($10 in chips)
Seat 3: Cy ($10 in chips)
Cy: posts small blind $0.10
Ann: posts big blind $0.25
*** DEALING HANDS ***
Dealt to Ann [3s 6d 2h 8c]
Bo: folds
Cy: calls $0.15
Ann: checks
*** FIRST DRAW ***
Cy: discards 1 card
Ann: stands pat
Cy: checks
Ann: bets $0.25
Cy: calls $0.25
*** SECOND DRAW ***
Cy: discards 1 card
Ann: stands pat
Cy: checks
Ann: bets $0.50
Cy: calls $0.50
*** THIRD DRAW ***
Cy: stands pat
Ann: stands pat
Cy: checks
Ann: bets $0.50
Cy: calls $0.50
*** SHOW DOWN ***
Ann: shows [3s 6d 2h 8c] (Badugi: 8,6,3,2)
Cy: shows [4c 7h 9d Ks] (Badugi: K,9,7,4)
Ann collected $2.95 from pot
*** SUMMARY ***
Total pot $3 | Rake $0.05
Seat 1: Ann (big blind) showed [3s 6d 2h 8c] and won ($2.95) with Badugi: 8,6,3,2
Seat 2: Bo (button) folded before the Draw (didn't bet)
Seat 3: Cy (small blind) showed [4c 7h 9d Ks] and lost with Badugi: K,9,7,4
"""


def test_pokerstars_badugi_descriptions_are_read_as_the_badugi_they_list() -> None:
    hand = parse_pokerstars(BADUGI)
    assert [a.detail for a in hand.actions if a.kind == "show"] == ["Badugi: 8,6,3,2", "Badugi: K,9,7,4"]
    assert _codes(hand) == []
    # PokerStars writes a three-card badugi "3-card: 9,7,4" (and "a 3-card: ..." in the summary)
    three = BADUGI.replace("[4c 7h 9d Ks] (Badugi: K,9,7,4)", "[4c 7h 9d Kd] (3-card: 9,7,4)").replace(
        "[4c 7h 9d Ks] and lost with Badugi: K,9,7,4", "[4c 7h 9d Kd] and lost with a 3-card: 9,7,4")
    assert _codes(parse_pokerstars(three)) == []
    assert _codes(parse_pokerstars(three.replace("(3-card: 9,7,4)", "(Badugi: K,9,7,4)"))) == [
        "MISDESCRIBED_HAND"]  # Kd and 9d: no four-card badugi
    wrong = BADUGI.replace("(Badugi: K,9,7,4)", "(Badugi: K,9,7,3)")
    findings = replay(parse_pokerstars(wrong))
    assert [(f.code.name, f.rule) for f in findings] == [("MISDESCRIBED_HAND", "BARGE 2025 §2.7")]


def _table(game: str, cards: str, up: int = 0) -> Table:
    hole = tuple(cards[i:i + 2] for i in range(0, len(cards), 2))
    return Table(game, (Seat("Ann", 1, 100, cards=hole),), 1, {})


@pytest.mark.parametrize(("game", "cards", "description"), [
    ("deuce_to_seven_triple_draw", "7c6d9c4s2c", "Lo: 9,7,6,4,2"),  # §2.17
    ("deuce_to_seven_triple_draw", "8h3c4s8d7d", "Lo: a pair of Eights"),
    ("deuce_to_seven_triple_draw", "5d4h8h7d6h", "Lo: a straight, Four to Eight"),
    ("deuce_to_seven_lowball", "Ah8c6d4s3c", "Lo: A,8,6,4,3"),  # §2.15: the ace is high
    ("ace_to_five_triple_draw", "Ah2c3d4s8h", "Lo: 8,4,3,2,A"),  # §2.1
    ("ace_to_five_triple_draw", "Ah2c3d3s8h", "Lo: a pair of Threes"),
    ("razz", "Ah2c3d4s8hKcKd", "Lo: 8,4,3,2,A"),  # §2.40
    ("stud_hi_lo", "Ah2c3d4s8hKcKd", "HI: a pair of Kings; LO: 8,4,3,2,A"),  # §2.48
    ("badugi", "3s6d2h8c", "Badugi: 8,6,3,2"),  # §2.7
    ("badugi", "5h2cAh9d", "3-card: 9,2,A"),  # the ace is low and written last
    ("badugi", "AcKd6cKc", "a 2-card: K,A"),
])
def test_pokerstars_lows_in_its_own_words_are_right(game: str, cards: str, description: str) -> None:
    assert misdescribed(_table(game, cards), "Ann", description) is None


@pytest.mark.parametrize(("game", "cards", "description"), [
    ("deuce_to_seven_triple_draw", "7c6d9c4s2c", "Lo: 9,7,6,5,2"),
    ("razz", "Ah2c3d4s8hKcKd", "Lo: 7,4,3,2,A"),
    ("badugi", "3s6d2h8h", "Badugi: 8,6,3,2"),  # the cards make a three-card 6-3-2
    ("badugi", "3s6d2h8h", "3-card: 8,3,2"),
])
def test_a_wrong_low_is_a_misdescription(game: str, cards: str, description: str) -> None:
    assert misdescribed(_table(game, cards), "Ann", description) is not None


def test_words_no_reader_knows_say_nothing() -> None:
    assert misdescribed(_table("badugi", "3s6d2h8c"), "Ann", "Badugi: eight-six") is None
    assert misdescribed(_table("badugi", "3s6d2h8h"), "Ann", "Badugi: 6,3,2") is None  # not PokerStars' way
    assert misdescribed(_table("badugi", "3s6d2h8h"), "Ann", "4-card: 6,3,2") is None  # the count disagrees
    assert misdescribed(_table("razz", "Ah2c3d4s8hKcKd"), "Ann", "Lo: Eight low, perfect") is None


# ---- cards and lines the sites write their own way ------------------------------------------------

UNNAMED_RIVER_CARD = (
    "PokerStars Hand #91700000001: Tournament #664700001, $2.00+$0.20 USD Triple Stud (7 Card Stud Limit)"
    " - Level I (10/20) - 2013/01/03 16:27:43 EET [2013/01/03 9:27:43 ET]\n"
    """\
Table '664700001 1' 8-max
Seat 1: Ann (1000 in chips)
Seat 2: Bo (1000 in chips)
Ann: posts the ante 2
Bo: posts the ante 2
*** 3rd STREET ***
Dealt to Ann [Kh 3c Kc]
Dealt to Bo [7d]
Bo: brings in for 5
Ann: calls 5
*** 4th STREET ***
Dealt to Ann [Kh 3c Kc] [8h]
Dealt to Bo [7d] [5s]
Ann: checks
Bo: checks
*** 5th STREET ***
Dealt to Ann [Kh 3c Kc 8h] [Qd]
Dealt to Bo [7d 5s] [2c]
Ann: checks
Bo: checks
*** 6th STREET ***
Dealt to Ann [Kh 3c Kc 8h Qd] [As]
Dealt to Bo [7d 5s 2c] [Ts]
Ann: checks
Bo: checks
*** RIVER ***
Dealt to Ann [Kh 3c Kc 8h Qd As] [of]
Ann: checks
Bo: checks
*** SHOW DOWN ***
Ann: shows [Kh 3c Kc] (a pair of Kings)
Bo: shows [4c 6h 7d 5s 2c Ts 9d] (high card Ten)
Ann collected 14 from pot
*** SUMMARY ***
Total pot 14 | Rake 0
Seat 1: Ann showed [Kh 3c Kc] and won (14) with a pair of Kings
Seat 2: Bo showed [4c 6h 7d 5s 2c Ts 9d] and lost with high card Ten
""")


def test_a_card_the_site_wrote_as_no_card_is_an_unknown_card() -> None:
    """BARGE 2025 §2.47: Ann's seventh card is dealt down; a Triple Stud history names it "[of]"."""
    hand = parse_pokerstars(UNNAMED_RIVER_CARD)
    river = [a.cards for a in hand.actions if a.kind == "deal" and a.street == "7th_street"]
    assert river == [("??",)]
    assert hand.awards == (Award("Ann", 1400),)
    assert _codes(hand) == ["AWARD_NOT_CHECKED"]  # Ann shows three cards: nothing to hold against her


RIO_RETURN_WITH_THE_POT = (
    "Run It Once Poker Hand #30000001:  Hold'em No Limit (\u20ac0.05/\u20ac0.10)"
    " - 2019/06/25 16:12 UTC [2019/06/25 17:12 CET]\n"
    """\
Table ID '30000000' 6-Max Seat #1 is the button
Seat 1: Ann (\u20ac10 in chips)
Seat 2: Bo (\u20ac10 in chips)
Seat 3: Cy (\u20ac10 in chips)
Bo: posts small blind \u20ac0.05
Cy: posts big blind \u20ac0.10
*** HOLE CARDS ***
STP added: \u20ac0.40
Dealt to Ann [6s 8h]
Dealt to Bo [4d 9c]
Dealt to Cy [Js 7d]
Ann: calls \u20ac0.10
Bo: folds
Cy: checks
*** FLOP *** [6h Jd 4c]
Cy: bets \u20ac0.30
Ann: folds
Cy: mucks hand
*** SHOWDOWN ***
Cy: mucks hand
Uncalled bet (\u20ac0.64) returned to Cy
Cy collected \u20ac0.64 from pot
*** SUMMARY ***
Total pot \u20ac0.65 | Main pot \u20ac0.25 | STP \u20ac0.40 | Rake \u20ac0.01
Board [6h Jd 4c]
Seat 1: Ann (button) folded before Turn
Seat 2: Bo (small blind) folded before Flop
Seat 3: Cy (big blind) mucked hand and won \u20ac0.64
""")


def test_run_it_onces_return_written_with_the_pot_gives_back_the_unmatched_bet() -> None:
    """BARGE 2025 §2.51: the "Uncalled bet" after the showdown names all Cy is pushed (pot and
    splash-the-pot money); only the 0.30 bet nobody called comes back."""
    hand = parse_pokerstars(RIO_RETURN_WITH_THE_POT)
    returns = [(a.street, a.player, a.amount) for a in hand.actions if a.kind == "return"]
    assert returns == [("flop", "Cy", 30)]
    assert (hand.awards, hand.total_pot, hand.rake) == ((Award("Cy", 24),), 25, 1)
    assert _codes(hand) == []


RIO_TIMEOUT_FOLD = (
    "Run It Once Poker Hand #53900001: Tournament #122700, \u20ac4.69+\u20ac0.31 Cub3d,"
    " Hold'em No Limit (10/20) - 2021/02/13 22:01 UTC [2021/02/13 23:01 CET]\n"
    """\
Table ID '53900000' 3-Max Seat #3 is the button
Seat 1: Ann (330 in chips)
Seat 3: Bo (660 in chips)
Seat 5: Cy (510 in chips) [hero]
Cy: posts small blind 10
Ann: posts big blind 20
*** HOLE CARDS ***
Dealt to Cy [7d Jd]
Bo: folds
Cy: raises 20 to 40
Ann: folds
Cy: mucks hand
*** SHOWDOWN ***
Cy: mucks hand
Uncalled bet (20) returned to Cy
Cy collected 40 from pot
*** SUMMARY ***
Total pot 40 | Rake 0
Seat 3: Bo (button) folded before Flop (timeout)
Seat 1: Ann (big blind) folded before Flop
Seat 5: Cy (small blind) mucked hand and won 40
""")


def test_a_fold_the_summary_says_was_a_timeout_is_read() -> None:
    """BARGE 2025 §2.51: Run It Once's summary says why Bo folded: "(timeout)"."""
    hand = parse_pokerstars(RIO_TIMEOUT_FOLD)
    assert (hand.hand_id, hand.awards) == ("RIO-53900001", (Award("Cy", 4000),))
    assert _codes(hand) == []


UNKNOWN_CARD_SHOWN = """\
PokerStars Game #1002000001: Hold'em No Limit ($1/$2) - 2009/10/12 - 13:51:22 (ET)
Table 'Wheel' 10-max Seat #1 is the button
Seat 1: Ann ($200 in chips)
Seat 2: Bo ($200 in chips)
Ann: posts small blind $1
Bo: posts big blind $2
*** HOLE CARDS ***
Ann: raises $4 to $6
Bo: calls $4
*** FLOP *** [6d 9c Jd]
Bo: checks
Ann: bets $8
Bo: folds
Uncalled bet ($8) returned to Ann
*** SHOW DOWN ***
Ann: shows [XX Qs] ()
Ann collected $12 from pot
*** SUMMARY ***
Total pot $12 | Rake $0
Seat 1: Ann (button) (small blind) showed [XX Qs] and won ($12)
Seat 2: Bo (big blind) folded on the Flop
"""


def test_an_exporters_unknown_card_is_an_unknown_card() -> None:
    """BARGE 2025 §2.51: Hold'em Manager's export writes a card it does not know as "XX"."""
    hand = parse_pokerstars(UNKNOWN_CARD_SHOWN)
    assert [a.cards for a in hand.actions if a.kind == "show"] == [("??", "Qs")]
    assert hand.awards == (Award("Ann", 1200),)
    assert _codes(hand) == []
    with pytest.raises(HandSyntaxError, match="unexpected 'qs'"):  # lower case: no card, not unknown
        parse_pokerstars(UNKNOWN_CARD_SHOWN.replace("[XX Qs] ()", "[XX qs] ()"))


ANTE_ALL_IN = """\
PokerStars Game #71348201941: Tournament #476454368, $1.40+$0.10 USD Single Draw 2-7 Lowball No Limit \
- Match Round I, Level V (50/100) - 2011/11/29 16:52:08 ET
Table '476454368 1' 2-max Seat #1 is the button
Seat 1: Hero (1 in chips)
Seat 2: Player0 (2999 in chips)
Hero: posts the ante 1 and is all-in
Player0: posts the ante 25
Player0: posts big blind 100
*** DEALING HANDS ***
Dealt to Hero [7c 5d 4h 3s 2c]
Uncalled bet (124) returned to Player0
*** SHOW DOWN ***
Player0: shows [Kh Qh Jd 9s 8c] (Lo: K,Q,J,9,8)
Hero: shows [7c 5d 4h 3s 2c] (Lo: 7,5,4,3,2)
Hero collected 2 from pot
*** SUMMARY ***
Total pot 2 | Rake 0
"""


def test_a_button_whose_ante_took_every_chip_posts_no_small_blind() -> None:
    """BARGE 2025 §1.1 (and §1.5 on the ante first): heads-up, the button's ante put them all-in, so
    no small blind is due; the unmatched ante and the big blind go back (fpdb's
    `2-7 Single Draw-NL-USD-2max-STT-1.40-201212.ante.all.in`, which stopped the replay)."""
    hand = parse_pokerstars(ANTE_ALL_IN)
    assert _posts(hand) == [("Player0", 10000, "big_blind")]
    assert _codes(hand) == []
