"""The room's own rules: the `pokerstars` profile's options against BARGE's reading, cap games,
PokerStars' pot-limit-then-no-limit structure, and the betting rules BARGE itself states for
Mexican Poker (§2.31) and leaves silent for a limit raise that covers the last opponent (§1.1).

Each room rule is an option of `evaluator/profiles.py`, documented in docs/interop.md's
`pokerstars` profile table; each test replays the same hand under `barge-2025` and `pokerstars`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluator.replay import replay, replay_hand
from evaluator.settle import Seat, Table, settle
from grammar.barge_parser import parse_hand
from grammar.pokerstars_parser import parse_pokerstars, split_pokerstars
from pipeline.ingest import ingest
from pipeline.sources import read_blocks
from pipeline.store import Store, read_hands
from pipeline.writer import write_hand
from tests.conftest import SHARED
from tests.rulebook import hand_text, rule_codes

CORPUS = SHARED / "corpus"


def _stars(body: str) -> str:
    """A PokerStars history written in a test: one hand, ending with a newline."""
    return body.strip() + "\n"


LIMIT = "texas_holdem limit (blinds 100/200, bets 200/400)"
SHORT_ALL_IN_RAISE = [
    "Ann: posts small blind 100",
    "Bo: posts big blind 200",
    "*** HOLE CARDS ***",
    "Cy: raises 200 to 400",
    "Di: raises 50 to 450 and is all-in",  # a raise of 50: less than half the 200 bet
]
FOUR = [("Ann", 5000), ("Bo", 5000), ("Cy", 5000), ("Di", 450)]


def _limit(lines: list[str], rules: str) -> list[str]:
    return rule_codes(hand_text(LIMIT, FOUR, [*SHORT_ALL_IN_RAISE, *lines], rules=rules, button=4))


def test_a_short_all_in_limit_raise_under_barge_and_under_pokerstars() -> None:
    # BARGE 2025 §1.1: an all-in of less than half a bet does not reopen the betting, and a raise
    # completes to the last full level plus a bet (600). PokerStars (`short_all_in_raise=completes`)
    # the same, but lets anyone raise again.
    assert _limit(["Ann: raises 150 to 600"], "barge-2025") == []
    assert _limit(["Ann: raises 200 to 650"], "barge-2025") == ["WRONG_LIMIT_BET"]
    assert _limit(["Ann: raises 150 to 600"], "pokerstars") == []
    assert _limit(["Ann: raises 200 to 650"], "pokerstars") == ["WRONG_LIMIT_BET"]
    # Cy, who raised before the short all-in, raises again.
    again = ["Ann: folds", "Bo: calls 250", "Cy: raises 150 to 600"]
    assert _limit(again, "barge-2025") == ["BETTING_NOT_REOPENED"]
    assert _limit(again, "pokerstars") == []


def test_an_all_in_raise_of_half_a_bet_or_more_is_a_full_raise_under_barge_only() -> None:
    # BARGE 2025 §1.1: "An all-in wager of a half bet or more is treated as a full bet": the next
    # raise is the all-in plus a bet (550 + 300 = 850). PokerStars never counts an all-in short of a
    # full raise as one: the next raise completes it, to 600 (PS-52479754591, Badugi 300/600:
    # "Player19: raises 250 to 550 and is all-in" ... "Player0: raises 50 to 600").
    seats = [("Ann", 5000), ("Bo", 5000), ("Cy", 550), ("Di", 5000)]
    lines = ["Ann: posts small blind 150", "Bo: posts big blind 300", "*** HOLE CARDS ***",
             "Cy: raises 250 to 550 and is all-in", "Di: calls 550"]
    game = "texas_holdem limit (blinds 150/300, bets 300/600)"

    def codes(raise_line: str, rules: str) -> list[str]:
        return rule_codes(hand_text(game, seats, [*lines, raise_line], rules=rules, button=4))

    assert codes("Ann: raises 50 to 600", "pokerstars") == []
    assert codes("Ann: raises 50 to 600", "barge-2025") == ["WRONG_LIMIT_BET"]
    assert codes("Ann: raises 300 to 850", "barge-2025") == []
    assert codes("Ann: raises 300 to 850", "pokerstars") == ["WRONG_LIMIT_BET"]


def test_a_limit_raise_that_puts_the_last_opponent_all_in_need_not_be_full() -> None:
    # BARGE 2025 §1.1 (silent on it): nobody must wager chips no one can call. WSOP 2023 Event 43,
    # Day 5, hand 85: Brian Rast makes it 750,000 where a full raise is 1,200,000.
    lines = ["Ann: posts small blind 100", "Bo: posts big blind 200", "*** HOLE CARDS ***",
             "Ann: raises 200 to 400", "Bo: calls 200", "*** FLOP *** [2c 7d 9h]", "Bo: bets 200"]
    # Bo has 100 behind his bet: Ann's raise to 300 takes all he can call (a full raise is to 400).
    covered = [*lines, "Ann: raises 100 to 300", "Bo: calls 100 and is all-in"]
    assert rule_codes(hand_text(LIMIT, [("Ann", 5000), ("Bo", 700)], covered)) == []
    # A short raise that leaves the opponent chips to call is still a wrong limit raise.
    short = [*lines, "Ann: raises 100 to 300"]
    assert rule_codes(hand_text(LIMIT, [("Ann", 5000), ("Bo", 1150)], short)) == ["WRONG_LIMIT_BET"]


@pytest.mark.skipif(not (CORPUS / "phh" / "wsop").is_dir(), reason="../shared/corpus/phh/wsop is absent")
def test_the_wsop_hand_with_the_covering_razz_raise_has_no_finding() -> None:
    from grammar.phh_parser import parse_phh, split_phh

    wanted = "2023-World-Series-of-Poker-Event-43-50-000-Poker-Players-Championship-Day-5-20230622-85"
    for path in sorted((CORPUS / "phh" / "wsop").rglob("*.phh*")):
        for block in read_blocks(path, split_phh):
            hand = parse_phh(block.text)
            if hand.hand_id == wanted:
                assert replay(hand) == []
                return
    pytest.fail(f"{wanted} is not in the corpus")


def test_mexican_poker_raises_at_least_the_last_bet() -> None:
    # BARGE 2025 §2.31: "All raises must be at least equal to the size of the last bet."
    header = "mexican_poker limit (ante 25, bets 100/200)"
    seats = [("Ann", 1000), ("Bo", 1000)]
    deal = ["Ann: posts the ante 25", "Bo: posts the ante 25", "*** 2ND STREET ***",
            "Dealt to Ann [??] up [Kd]", "Dealt to Bo [??] up [Jk]"]
    small_raise = parse_hand(hand_text(header, seats, [*deal, "Bo: bets 200", "Ann: raises 100 to 300"]))
    findings = [f for f in replay(small_raise) if f.code.name == "RAISE_BELOW_MINIMUM"]
    assert [(f.seq, f.rule) for f in findings] == [(len(small_raise.actions), "BARGE 2025 §2.31")]
    assert rule_codes(hand_text(header, seats, [*deal, "Bo: bets 200", "Ann: raises 200 to 400"])) == []
    # After a small bet, a big raise; the next raise must be big too.
    bigger = [*deal, "Bo: bets 100", "Ann: raises 200 to 300", "Bo: raises 100 to 400"]
    assert rule_codes(hand_text(header, seats, bigger)) == ["RAISE_BELOW_MINIMUM"]


CAP_GAME = "texas_holdem no-limit (blinds 25/50, ante 10, cap 1,000)"
CAP_SEATS = [("Ann", 3000), ("Bo", 3000), ("Cy", 3000)]
CAP_PLAY = ["Ann: posts the ante 10", "Bo: posts the ante 10", "Cy: posts the ante 10",
            "Bo: posts small blind 25", "Cy: posts big blind 50", "*** HOLE CARDS ***", "Ann: folds",
            "Bo: raises 100 to 150", "Cy: raises 200 to 350"]
CAPPED = [*CAP_PLAY, "Bo: raises 650 to 1,000", "Cy: calls 650",
          "*** FLOP *** [2c 7d 9h]", "*** TURN *** [Js]", "*** RIVER *** [Kd]"]


def test_a_cap_game_counts_every_bet_but_the_antes_and_plays_on_as_all_in() -> None:
    # The room's cap (PokerStars' "$10 Cap": NLHE-CAP-9max-USD-0.25-0.50-201011, "raises $6.50 to $10
    # and has reached the $10 cap", the big blind counted): 1,000 over the hand, antes aside; a
    # player at the cap is all-in, and the board is run out without betting.
    assert rule_codes(hand_text(CAP_GAME, CAP_SEATS, CAPPED)) == []
    showdown = ["*** SHOWDOWN ***", "Bo: shows [Ah Ad]", "Cy: shows [Qc Qs]", "Bo collected 2,030 from pot",
                "*** SUMMARY ***", "Total pot 2,030 | Rake 0"]
    assert replay(parse_hand(hand_text(CAP_GAME, CAP_SEATS, [*CAPPED, *showdown]))) == []
    over_cap = parse_hand(hand_text(CAP_GAME, CAP_SEATS, [*CAP_PLAY, "Bo: raises 750 to 1,100"]))
    over = [f for f in replay(over_cap) if f.code.name == "BET_OVER_CAP"]
    assert [(f.seq, f.rule) for f in over] == [(len(over_cap.actions), "the room's cap")]
    after = rule_codes(hand_text(CAP_GAME, CAP_SEATS, [*CAPPED[:-2], "Bo: bets 100"]))
    assert after == ["OUT_OF_TURN", "BET_OVER_CAP"]


def test_the_cap_and_pl_nl_are_written_and_read_in_the_native_header() -> None:
    for header in (CAP_GAME, "texas_holdem pl-nl (blinds 50/100)"):
        hand = parse_hand(hand_text(header, CAP_SEATS, CAP_PLAY[:2]))
        assert parse_hand(write_hand(hand)) == hand
    assert parse_hand(hand_text(CAP_GAME, CAP_SEATS, [])).stakes.cap == 100000


def test_a_stored_cap_game_keeps_its_cap_and_an_old_database_gets_the_column(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[1] / "sample_histories" / "audit" / "BET_OVER_CAP.bhh"
    store = Store(tmp_path / "cap.duckdb")
    store.con.execute("ALTER TABLE hands DROP COLUMN cap")  # as a database written before caps
    store.close()
    store = Store(tmp_path / "cap.duckdb")  # opening it again adds the column
    ingest([sample], store)
    (hand,) = read_hands(store.con, ["AUDIT-BET_OVER_CAP"])
    assert hand.stakes.cap == 1000 and hand.structure == "no-limit"
    store.close()


CAPPED_AT_STARS = _stars("""
PokerStars Game #52151000001:  Hold'em No Limit ($0.25/$0.50 - $10 Cap -  USD) - 2010/11/01 12:20:00 CET
Table 'Ibarruri' 9-max Seat #8 is the button
Seat 1: Hero ($10 in chips)
Seat 2: Player2 ($14 in chips)
Seat 8: Player8 ($9.95 in chips)
Seat 9: Villain ($13 in chips)
Villain: posts small blind $0.25
Hero: posts big blind $0.50
*** HOLE CARDS ***
Player2: folds
Player8: folds
Villain: raises $1 to $1.50
Hero: raises $2 to $3.50
Villain: raises $6.50 to $10 and has reached the $10 cap
Hero: calls $6.50 and is all-in
*** FLOP *** [Qd 7s 2c]
*** TURN *** [Qd 7s 2c] [Qh]
*** RIVER *** [Qd 7s 2c Qh] [9c]
*** SHOW DOWN ***
Villain: shows [Qs Kh] (three of a kind, Queens)
Hero: shows [Ah 6d] (a pair of Queens)
Villain collected $19 from pot
*** SUMMARY ***
Total pot $20 | Rake $1
Board [Qd 7s 2c Qh 9c]
Seat 1: Hero (big blind) showed [Ah 6d] and lost with a pair of Queens
Seat 2: Player2 folded before Flop (didn't bet)
Seat 8: Player8 (button) folded before Flop (didn't bet)
Seat 9: Villain (small blind) showed [Qs Kh] and won ($19) with three of a kind, Queens
""")


def test_a_pokerstars_cap_hand_replays_clean_and_ends_at_the_cap() -> None:
    # The room's cap: the small blind's raise to $10 includes the blind; Villain, at the cap, plays
    # the board out all-in with $3 behind.
    outcome = replay_hand(parse_pokerstars(CAPPED_AT_STARS))
    assert outcome.findings == [] and outcome.ending is not None
    assert outcome.ending["Villain"] == 1300 - 1000 + 1900 and outcome.ending["Hero"] == 0


def test_pl_nl_is_pot_limit_before_the_flop_and_no_limit_after() -> None:
    # PokerStars' "Hold'em Pot Limit Pre-Flop, No Limit Post-Flop": §1.3 on the first betting
    # round (the pot after the call: 50 + 100 + 50 + the 100 call = a raise to 300), §1.2 after.
    header = "texas_holdem pl-nl (blinds 50/100)"
    seats = [("Ann", 5000), ("Bo", 5000)]
    blinds = ["Ann: posts small blind 50", "Bo: posts big blind 100", "*** HOLE CARDS ***"]
    assert rule_codes(hand_text(header, seats, [*blinds, "Ann: raises 200 to 300"])) == []
    assert rule_codes(hand_text(header, seats, [*blinds, "Ann: raises 300 to 400"])) == ["BET_OVER_POT_LIMIT"]
    flop = [*blinds, "Ann: calls 50", "Bo: checks", "*** FLOP *** [2c 7d 9h]"]
    assert rule_codes(hand_text(header, seats, [*flop, "Bo: bets 2,000"])) == []
    assert rule_codes(hand_text(header, seats, [*flop, "Bo: bets 50"])) == ["BET_BELOW_MINIMUM"]


CASH_OUT = _stars("""
PokerStars Hand #300000000001:  Hold'em No Limit ($0.50/$1 USD) - 2021/03/01 12:00:00 ET
Table 'Testa I' 6-max Seat #1 is the button
Seat 1: Ann ($100 in chips)
Seat 2: Bo ($50 in chips)
Seat 3: Cy ($100 in chips)
Bo: posts small blind $0.50
Cy: posts big blind $1
*** HOLE CARDS ***
Ann: raises $2 to $3
Bo: raises $47 to $50 and is all-in
Cy: folds
Ann: calls $47
*** FLOP *** [2c 7d 9h]
*** TURN *** [2c 7d 9h] [Js]
*** RIVER *** [2c 7d 9h Js] [Kd]
*** SHOW DOWN ***
Bo: shows [Qs Qh] (a pair of Queens)
Ann: shows [Ah Ad] (a pair of Aces)
Ann cashed out the hand for $80.50 | Cash Out Fee $0.81
*** SUMMARY ***
Total pot $101 | Rake $2.50
Board [2c 7d 9h Js Kd]
Seat 1: Ann showed [Ah Ad] and won ($98.50) with a pair of Aces (pot not awarded as player cashed out)
Seat 2: Bo (small blind) showed [Qs Qh] and lost with a pair of Queens
Seat 3: Cy (big blind) folded before Flop
""")


def test_a_cash_out_is_the_players_result_under_pokerstars() -> None:
    # PokerStars' all-in cash-out (`cash_out=counted`): Ann took $80.50 and the site kept the pot
    # she won, so she ends with 100 - 50 + 80.50; BARGE's reading pushes her the pot.
    hand = parse_pokerstars(CASH_OUT)
    room = replay_hand(hand)
    assert room.findings == [] and room.ending is not None and room.awards is not None
    assert room.ending["Ann"] == 13050 and room.ending["Bo"] == 0
    assert [(s.player, s.amount, s.portion) for s in room.awards] == [("Ann", 8050, "cash out")]
    barge = replay_hand(hand, "barge-2025")
    assert barge.findings == [] and barge.ending is not None and barge.ending["Ann"] == 14850


SPLASH = _stars("""
Run It Once Poker Hand #30446999:  Hold'em No Limit (€0.05/€0.10) - 2019/06/27 00:47 UTC
Table ID '30263299' 6-Max Seat #1 is the button
Seat 1: Ann (€20 in chips)
Seat 2: Bo (€10 in chips)
Seat 3: Cy (€10 in chips)
Bo: posts small blind €0.05
Cy: posts big blind €0.10
*** HOLE CARDS ***
STP added: €0.50
Ann: folds
Bo: folds
*** SHOWDOWN ***
Cy: mucks hand
Cy collected €0.65 from pot
*** SUMMARY ***
Total pot €0.65 | Main pot €0.15 | STP €0.50 | Rake €0.00
Seat 1: Ann (button) folded before Flop
Seat 2: Bo (small blind) folded before Flop
Seat 3: Cy (big blind) mucked hand and won €0.65
""")


def test_splash_the_pot_money_goes_to_the_main_pots_winner_under_pokerstars() -> None:
    # `splash_the_pot=counted`: Run It Once's €0.50 is Cy's, so the next hand's stack agrees.
    hand = parse_pokerstars(SPLASH)
    room = replay_hand(hand)
    assert room.findings == [] and room.ending is not None and room.ending["Cy"] == 1055
    barge = replay_hand(hand, "barge-2025")
    assert barge.findings == [] and barge.ending is not None and barge.ending["Cy"] == 1005


def _three_way(rake: int, options: dict[str, str]) -> dict[str, int]:
    board = {"1": ("2c", "7d", "9h", "Js", "3d")}
    seats = (Seat("Ann", 1, 100, cards=("Ks", "Kh")), Seat("Bo", 2, 100, cards=("Qs", "Qh")),
             Seat("Cy", 3, 50, cards=("Ac", "Ad")))
    won: dict[str, int] = {}
    for share in settle(Table("texas_holdem", seats, 1, board, options=options, rake=rake)).shares:
        won[share.player] = won.get(share.player, 0) + share.amount
    return won


def test_the_rake_comes_from_every_pot_under_pokerstars() -> None:
    # BARGE 2025 §1.4 is silent on the rake: the engine takes it from the main pot first; PokerStars
    # (`rake=per_pot`) takes 5% of each pot in the order they formed until the rake is taken.
    # The main pot of 150 pays 7 (7.50 rounded down), the side pot of 100 the other 3 of 10.
    assert _three_way(10, {"rake": "main_pot_first"}) == {"Cy": 140, "Ann": 100}
    assert _three_way(10, {"rake": "per_pot"}) == {"Cy": 143, "Ann": 97}
    # Under the cap of the rate, the leftover chip comes from the pot with the largest fraction.
    assert _three_way(13, {"rake": "per_pot"}) == {"Cy": 142, "Ann": 95}


@pytest.mark.skipif(not (CORPUS / "pokerstars").is_dir(), reason="../shared/corpus/pokerstars is absent")
@pytest.mark.parametrize("hand_id", ["PS-22865231671", "PS-41511921426", "PS-212598594281"])
def test_the_computed_pushes_are_pokerstars_pushes_after_its_rake(hand_id: str) -> None:
    for path in sorted((CORPUS / "pokerstars" / "cash").rglob("*.txt")):
        if hand_id.removeprefix("PS-") not in path.read_text(encoding="utf-8", errors="replace"):
            continue
        for block in read_blocks(path, split_pokerstars):
            if hand_id.removeprefix("PS-") not in block.text:
                continue
            hand = parse_pokerstars(block.text)
            outcome = replay_hand(hand)
            pushed = sorted((a.player, a.amount) for a in hand.awards)
            assert outcome.findings == [] and outcome.awards is not None
            assert sorted((s.player, s.amount) for s in outcome.awards if s.portion != "cash out") == pushed
            return
    pytest.fail(f"{hand_id} is not in the corpus")


UNCALLED_ANTE = _stars("""
PokerStars Hand #3002: Tournament #91, $10+$1 USD 7 Card Stud Limit - Level V (200/400) - 2012/02/16 22:30 ET
Table '900000001 1' 8-max
Seat 1: Ann (10 in chips)
Seat 2: Bo (2000 in chips)
Ann: posts the ante 10 and is all-in
Bo: posts the ante 40
*** 3rd STREET ***
Dealt to Ann [Kd Qc 9h]
Dealt to Bo [5s 2d 4c]
Uncalled bet (30) returned to Bo
*** 4th STREET ***
Dealt to Ann [Kd Qc 9h] [Ks]
Dealt to Bo [5s 2d 4c] [7h]
*** 5th STREET ***
Dealt to Ann [Kd Qc 9h Ks] [3c]
Dealt to Bo [5s 2d 4c 7h] [8d]
*** 6th STREET ***
Dealt to Ann [Kd Qc 9h Ks 3c] [Jd]
Dealt to Bo [5s 2d 4c 7h 8d] [Tc]
*** RIVER ***
Dealt to Ann [Kd Qc 9h Ks 3c Jd] [2h]
Dealt to Bo [5s 2d 4c 7h 8d Tc] [6h]
*** SHOW DOWN ***
Ann: shows [Kd Qc 9h Ks 3c Jd 2h] (a pair of Kings)
Bo: shows [5s 2d 4c 7h 8d Tc 6h] (a straight, Four to Eight)
Bo collected 20 from pot
*** SUMMARY ***
Total pot 20 | Rake 0
Seat 1: Ann showed [Kd Qc 9h Ks 3c Jd 2h] and lost with a pair of Kings
Seat 2: Bo showed [5s 2d 4c 7h 8d Tc 6h] and won (20) with a straight, Four to Eight
""")


def test_an_ante_nobody_matched_goes_back_under_pokerstars() -> None:
    # `uncalled_ante=returned`: Ann's ante put her all-in for 10 of 40, and PokerStars returns Bo's
    # other 30. BARGE keeps an ante as dead money (§1.1), so the return is a broken record there.
    hand = parse_pokerstars(UNCALLED_ANTE)
    room = replay_hand(hand)
    assert [f.code.name for f in room.findings] == []
    assert room.ending == {"Ann": 0, "Bo": 201000}
    assert "REPLAY_STOPPED" in [f.code.name for f in replay_hand(hand, "barge-2025").findings]


def test_a_player_the_ante_put_all_in_posts_no_blind_and_the_unmatched_ante_goes_back() -> None:
    # BARGE 2025 §1.1: an ante that takes every chip leaves nothing for the big blind. PokerStars
    # returns Bo's small blind and the 15 of his ante that Ann's 10 did not match, 65 in all.
    header = "texas_holdem no-limit (blinds 50/100, ante 25)"
    lines = ["Ann: posts the ante 10 and is all-in", "Bo: posts the ante 25", "Bo: posts small blind 50",
             "*** HOLE CARDS ***", "Uncalled bet (65) returned to Bo", "*** FLOP *** [2c 7d 9h]",
             "*** TURN *** [Js]", "*** RIVER *** [Kd]", "*** SHOWDOWN ***", "Ann: shows [Ah Ad]",
             "Bo: shows [Qs Qh]", "Ann collected 20 from pot", "*** SUMMARY ***", "Total pot 20 | Rake 0"]
    text = hand_text(header, [("Ann", 10), ("Bo", 5000)], lines, rules="pokerstars", button=2)
    outcome = replay_hand(parse_hand(text))
    assert outcome.findings == [] and outcome.ending == {"Ann": 2000, "Bo": 499000}


KILLED = _stars("""
PokerStars Hand #3003: Tournament #51, 2000+110 Hold'em No Limit - Level II (15/30) - 2012/02/16 22:30:13 ET
Table '518183001 1' 9-max Seat #3 is the button
Seat 1: Ann (4275 in chips)
Seat 3: Bo (1215 in chips)
Seat 4: Cy (1640 in chips)
Seat 6: Di (20 in chips) is sitting out
Cy: posts small blind 15
Di: posts big blind 20 and is all-in
*** HOLE CARDS ***
Ann: raises 60 to 90
Bo: folds
Cy: folds
Di: folds
Uncalled bet (70) returned to Ann
*** FLOP *** [6s Qs Ac]
*** TURN *** [6s Qs Ac] [6c]
*** RIVER *** [6s Qs Ac 6c] [Ts]
Ann collected 55 from pot
*** SUMMARY ***
Total pot 55 | Rake 0
Board [6s Qs Ac 6c Ts]
Seat 1: Ann collected (55)
Seat 3: Bo (button) folded before Flop (didn't bet)
Seat 4: Cy (small blind) folded before Flop
Seat 6: Di (big blind) folded before Flop
""")


def test_a_hand_the_site_killed_is_given_up_and_the_pot_won_without_a_showdown() -> None:
    # An all-in player has no turn (§1.2): PokerStars folds the hand of a sitting-out player all-in
    # on the big blind, and Ann wins the pot unseen, as any pot nobody contests.
    hand = parse_pokerstars(KILLED)
    assert not any(a.kind == "show" or a.street == "showdown" for a in hand.actions)
    outcome = replay_hand(hand)
    assert outcome.findings == [] and outcome.ending is not None
    # Ann: 4,275, less the 90 she raised to, plus the 70 returned and the pot of 55.
    assert outcome.ending["Ann"] == 427500 - 9000 + 7000 + 5500 and outcome.ending["Di"] == 0


def test_a_short_big_blind_leaves_the_full_blind_to_call_under_pokerstars() -> None:
    # `short_blind=full` (PS-75726253875: "calls 30" behind a 20 blind). The main pot is the short
    # blind's 20 from each player; the rest is a side pot of the others.
    header = "texas_holdem no-limit (blinds 15/30)"
    seats = [("Ann", 1000), ("Bo", 1000), ("Cy", 20)]
    play = ["Bo: posts small blind 15", "Cy: posts big blind 20 and is all-in", "*** HOLE CARDS ***",
            "Ann: calls 30", "Bo: calls 15", "*** FLOP *** [2c 7d 9h]", "Bo: checks", "Ann: checks",
            "*** TURN *** [Js]", "Bo: checks", "Ann: checks",
            "*** RIVER *** [3d]", "Bo: checks", "Ann: checks",
            "*** SHOWDOWN ***", "Cy: shows [Ac Ad]", "Bo: shows [Ks Kh]", "Ann: shows [Qs Qh]",
            "Cy collected 60 from main pot", "Bo collected 20 from side pot 1", "*** SUMMARY ***",
            "Total pot 80 | Rake 0"]
    full = hand_text(header, seats, play, rules="pokerstars")
    outcome = replay_hand(parse_hand(full))
    assert outcome.findings == []
    assert outcome.ending == {"Ann": 97000, "Bo": 99000, "Cy": 6000}
    posted = hand_text(header, seats, play, rules="barge-2025")
    assert "WRONG_CALL_AMOUNT" in [f.code.name for f in replay(parse_hand(posted))]


def test_every_room_rule_is_documented_in_the_pokerstars_profile_table() -> None:
    from evaluator.profiles import PROFILES

    doc = (Path(__file__).resolve().parents[1] / "docs" / "interop.md").read_text(encoding="utf-8")
    start = doc.index("### The `pokerstars` rules profile")
    end = doc.index("### Checks added for recorded results")
    table = doc[start:end]
    differing = {k for k, v in PROFILES["pokerstars"].items() if PROFILES["barge-2025"][k] != v}
    for option in differing:
        row = next((line for line in table.splitlines() if line.startswith(f"| `{option}` |")), "")
        assert f"`{PROFILES['pokerstars'][option]}`" in row, option
