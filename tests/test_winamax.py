"""The Winamax reader on the real corpus (../shared/corpus/winamax): every file ingests, hands read
field by field (amounts, units, winners, the site's habits undone), the `winamax` profile's rake,
Winamax's hand descriptions, located errors. The findings left on the corpus are held to
docs/interop.md's list here and by tests/test_precision.py."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from evaluator.replay import replay, replay_hand
from evaluator.settle import Seat, Table, settle
from grammar.errors import HandSyntaxError
from grammar.winamax_parser import EXAMPLE, parse_winamax, sniff, split_winamax
from pipeline.cli import main
from pipeline.formats import detect_format
from pipeline.model import Action, Award, Hand
from pipeline.units import unit_of
from tests.conftest import SHARED, faults_in, ingest_report, read_hands
from tests.test_precision import documented

CORPUS = SHARED / "corpus" / "winamax"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the Winamax corpus is not at {CORPUS} (see README: shared corpus)")

EXPECTED_VARIANTS = {"texas_holdem": 61, "omaha": 67, "deuce_to_seven_triple_draw": 2, "big_o": 1,
                     "omaha_hi_lo": 1, "stud": 1, "stud_hi_lo": 1}


@pytest.fixture(scope="module")
def corpus_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """`barge ingest` of the whole corpus, with its audit, as users run it."""
    return ingest_report([CORPUS], tmp_path_factory.mktemp("winamax") / "wmx.duckdb")


@pytest.fixture(scope="module")
def corpus_hands() -> dict[str, Hand]:
    return read_hands(CORPUS, split_winamax, parse_winamax)


# ---- the corpus ----------------------------------------------------------------------------


@needs_corpus
def test_every_file_ingests_and_no_hand_is_refused(corpus_report: dict[str, object]) -> None:
    files = corpus_report["files"]
    assert isinstance(files, list)
    assert len(files) == 29 and all(f["status"] == "ingested" and f["format"] == "winamax" for f in files)
    # no file cancels or cuts off a hand; one hand is in two files (a duplicate, not a reject)
    assert (corpus_report["hands"], corpus_report["rejects"], corpus_report["duplicates"],
            corpus_report["blocks"]) == (134, 0, 1, 135)
    assert corpus_report["by_variant"] == EXPECTED_VARIANTS


@needs_corpus
def test_no_error_or_warning_but_the_documented_ones(corpus_report: dict[str, object]) -> None:
    found = faults_in(corpus_report)
    listed = Counter({key: n for key, n in documented().items() if key[0].startswith("WMX-")})
    assert found == listed


@needs_corpus
def test_every_hand_has_its_site_and_unit(corpus_hands: dict[str, Hand]) -> None:
    units = Counter(unit_of(hand) for hand in corpus_hands.values())
    assert units == Counter({"EUR": 76, "play": 3, "T:Winamax:13133717": 27, "T:Winamax:5142226": 17,
                             "T:Winamax:1853325": 5, "T:Winamax:1468666": 2, "T:Winamax:548967895": 1,
                             "T:Winamax:26433551": 1, "T:Winamax:26465144": 1, "T:Winamax:27804443": 1})
    assert {(h.site, h.rules_profile) for h in corpus_hands.values()} == {("Winamax", "winamax")}


def test_proportional_rake_without_the_corpus() -> None:
    # Main pot 150, side pot 100 (Ann and Bo only): a rake of 13 is 5 from the side pot (5.2 rounded
    # down) and 8 from the main pot; from the main pot first it is all 13 there.
    board = {"1": ("2c", "7d", "9h", "Js", "3d")}
    seats = (Seat("Ann", 1, 100, cards=("Ks", "Kh")), Seat("Bo", 2, 100, cards=("Qs", "Qh")),
             Seat("Cy", 3, 50, cards=("Ac", "Ad")))

    def won(options: dict[str, str]) -> dict[str, int]:
        table = Table("texas_holdem", seats, 1, board, options=options, rake=13)
        return {s.player: s.amount for s in settle(table).shares}

    assert won({"rake": "proportional"}) == {"Cy": 142, "Ann": 95}
    assert won({"rake": "main_pot_first"}) == {"Cy": 137, "Ann": 100}


# ---- hands field by field ------------------------------------------------------------------


@needs_corpus
def test_a_cash_hand_with_its_uncalled_bet_pushed_with_a_side_pot(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["WMX-910116-28-1298310000"]
    assert (hand.variant, hand.structure, hand.currency, hand.game_type) == (
        "texas_holdem", "no-limit", "EUR", "cash")
    assert (hand.stakes.small_blind, hand.stakes.big_blind) == (2, 5)
    assert hand.started_at == datetime(2011, 2, 21, 20, 12)
    assert (hand.table_name, hand.max_seats, hand.button_seat) == ("Joue-les-Tours", 9, 4)
    # "Hero collected 4.34€ from side pot 1": 1.42€ of it is Hero's bet nobody called
    assert [a for a in hand.actions if a.kind == "return"] == [Action("hole_cards", "return", "Hero", 142)]
    assert hand.awards == (Award("Hero", 292, 1), Award("Player8", 856, 0))
    # "Total pot 12.90€ | Rake 0.80€": what was collected after the rake, the uncalled bet in it
    assert (hand.total_pot, hand.rake) == (1228, 80)


@needs_corpus
def test_an_uncalled_bet_pushed_as_a_side_pot_of_its_own(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["WMX-270777-217-1284853532"]
    assert [a for a in hand.actions if a.kind == "return"] == [Action("flop", "return", "Player10", 22)]
    assert hand.awards == (Award("Player25", 88, 1), Award("Player7", 338, 0))
    sat_out = [s.player for s in hand.seats if s.sitting_out]
    assert sat_out == ["Player17"]  # seated with 0€, named nowhere in the play


@needs_corpus
def test_the_winamax_profile_rakes_every_pot_in_proportion(corpus_hands: dict[str, Hand]) -> None:
    for hand_id in ("WMX-910116-28-1298310000", "WMX-270777-217-1284853532"):
        hand = corpus_hands[hand_id]
        outcome = replay_hand(hand)
        assert outcome.findings == [] and outcome.awards is not None
        computed = sorted((s.player, s.amount, s.pot) for s in outcome.awards)
        assert computed == sorted((a.player, a.amount, a.pot) for a in hand.awards)
        main_first = replay_hand(hand, "barge-2025").awards
        assert main_first is not None and sorted((s.player, s.amount, s.pot) for s in main_first) != computed


@needs_corpus
def test_a_tournament_hand_with_antes_and_bounties(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["WMX-2357799155578961958-128-1653325811"]
    assert (hand.tournament, hand.level, hand.currency, hand.game_type) == (
        "548967895", "11", "EUR", "tournament")
    assert hand.event == "Winamax, \u20ac18+\u20ac2, TEA TIME"
    assert unit_of(hand) == "T:Winamax:548967895"
    assert (hand.stakes.ante, hand.stakes.small_blind, hand.stakes.big_blind) == (14000, 60000, 120000)
    assert hand.actions[0].detail == ("bounties: Player0 \u20ac9, Player1 \u20ac9, Player2 \u20ac45, "
                                      "Player3 \u20ac17.43, Hero \u20ac27, Player4 \u20ac29.25")
    assert hand.awards == (Award("Hero", 6389000, 0),) and hand.total_pot == 6389000
    assert replay(hand) == []


@needs_corpus
def test_rounded_totals_fractional_chips_and_a_raise_written_as_a_bet(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["WMX-6307872438747255-64-1288123510"]
    assert hand.total_pot is None  # "Total pot 3.37k": rounded, nothing exact to check
    raise_ = next(a for a in hand.actions
                  if a.player == "Player6" and a.street == "hole_cards" and a.kind == "raise")
    assert (raise_.amount, raise_.to_amount) == (29250, 41250)  # "bets 292.50" behind a call of 120
    assert [a.amount for a in hand.actions if a.kind == "return"] == [79750]


@needs_corpus
def test_blinds_posted_out_of_position(corpus_hands: dict[str, Hand]) -> None:
    # "posts small blind 3€ out of position", then "posts big blind 0€ out of position"
    both = corpus_hands["WMX-9260931-103-1479198677"]
    posts = [(a.player, a.amount, a.detail) for a in both.actions if a.kind == "post"]
    assert posts == [("Player2", 100, "small_blind"), ("Player3", 200, "big_blind"),
                     ("Player4", 200, "big_blind"), ("Player4", 100, "dead_blind")]
    dead = corpus_hands["WMX-6935619-5785-1419437602"]
    assert ("Incognito 2", 200, "dead_blind") in [(a.player, a.amount, a.detail) for a in dead.actions]
    assert replay(both) == [] and replay(dead) == []


@needs_corpus
def test_a_player_sitting_out_is_not_dealt_in(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["WMX-2334898-436-1326450000"]
    assert [s.player for s in hand.seats if s.sitting_out] == ["SatOutToo", "Hero"]
    assert hand.awards == (Award("Player2", 200, 0),) and replay(hand) == []


@needs_corpus
def test_stud_deals_and_a_completion(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["WMX-9250793-470-1478990787"]
    stakes = hand.stakes
    assert (hand.variant, stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (
        "stud", 500, 1000, 2500, 5000)
    deals = [(a.street, a.detail, a.cards) for a in hand.actions
             if a.kind == "deal" and a.player == "Player0"]
    assert deals[:3] == [("3rd_street", "down", ("??", "??")), ("3rd_street", "up", ("9h",)),
                         ("4th_street", "up", ("Kh",))]
    completion = next(a for a in hand.actions if a.player == "Hero" and a.kind not in ("ante", "deal"))
    assert (completion.kind, completion.to_amount) == ("complete", 2500)  # "raises 25€ to 25€"
    hi_lo = corpus_hands["WMX-9250793-554-1478991850"]
    # "collected 114€ from pot(HI)" and "(LO)" of a pot won uncontested, the 50€ uncalled bet in them
    assert hi_lo.awards == (Award("Player0", 6400, 0), Award("Player0", 11400, 0))
    assert replay(hand) == [] and replay(hi_lo) == []


@needs_corpus
def test_triple_draw_discards_and_standing_pat(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["WMX-9160772-2-1476189756"]
    assert (hand.variant, hand.currency, hand.event) == (
        "deuce_to_seven_triple_draw", "play", "Winamax, play money")
    steps = [(a.street, a.kind, a.player, len(a.cards)) for a in hand.actions
             if a.kind in ("discard", "draw", "stand_pat") and a.street == "first_draw"]
    assert steps[:3] == [("first_draw", "discard", "Player0", 2), ("first_draw", "draw", "Player0", 2),
                         ("first_draw", "discard", "Hero", 2)]
    assert ("first_draw", "stand_pat", "Player2", 0) in steps  # "discard 0 card"
    assert replay(hand) == []


@needs_corpus
def test_a_go_fast_hand_names_its_pool(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["WMX-9434802-28434-1490719852"]
    assert (hand.event, hand.game_type, hand.currency) == ('Winamax, Go Fast "Buzau", EUR', "cash", "EUR")


@needs_corpus
def test_the_corpus_reads_back_the_same_from_phh(tmp_path: Path) -> None:
    """Every hand of a PHH game, exported and read again: the same hand field by field (the site,
    the unit's fields and the `winamax` profile included) and the same findings."""
    from tests.test_phh_corpus import round_trip

    assert round_trip(tmp_path, [CORPUS]) == 132  # all but pot-limit Omaha Hi/Lo and Big O: no PHH code


# ---- descriptions ---------------------------------------------------------------------------


@needs_corpus
def test_winamax_descriptions_are_checked(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["WMX-947321-694-1299021223"]
    shown = {a.player: a.detail for a in hand.actions if a.kind == "show"}
    assert shown == {"Player3": "Two pairs : 4 and 3", "Player0": "Two pairs : Aces and 4"}
    wrong = _describe(hand, "Player0", "Two pairs : Kings and 4")
    assert [(f.code.name, f.severity) for f in replay(wrong)] == [("MISDESCRIBED_HAND", "warning")]
    # words the reader does not know are not judged
    assert replay(_describe(hand, "Player0", "Deux paires : As et 4")) == []


def _describe(hand: Hand, player: str, words: str) -> Hand:
    from dataclasses import replace

    actions = tuple(replace(a, detail=words) if a.kind == "show" and a.player == player else a
                    for a in hand.actions)
    return replace(hand, actions=actions)


# ---- errors and detection -------------------------------------------------------------------


def test_the_example_reads() -> None:
    hand = parse_winamax(EXAMPLE)
    assert (hand.hand_id, hand.awards, hand.total_pot, hand.rake) == (
        "WMX-6935619-5785-1419437602", (Award("Incognito 3", 1000, 0),), 1000, 0)
    assert replay(hand) == []


def test_a_bad_line_is_a_located_error() -> None:
    with pytest.raises(HandSyntaxError) as caught:
        parse_winamax(EXAMPLE.replace("Incognito 3 raises 8€ to 12€", "Incognito 3 raises 8€ too 12€"))
    error = caught.value
    assert (error.line, error.column) == (11, 25)  # where "too" stops making sense
    assert (error.message, error.expected) == ("unexpected 'too'", ("an amount",))
    with pytest.raises(HandSyntaxError) as game:
        parse_winamax(EXAMPLE.replace("Omaha pot limit", "Pineapple pot limit"))
    assert game.value.line == 1 and "a game such as Holdem or Omaha" in game.value.expected


def test_a_hand_cut_off_before_its_summary_is_refused() -> None:
    with pytest.raises(HandSyntaxError, match="cut off"):
        parse_winamax(EXAMPLE.split("*** SUMMARY ***")[0])
    with pytest.raises(HandSyntaxError, match="cut off"):
        parse_winamax(EXAMPLE.split("Hero folds")[0] + "Hero fo")


def test_a_winamax_file_is_read_by_its_content(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "export.txt"
    path.write_text(EXAMPLE + "\n\n" + EXAMPLE.replace("-1419437602", "-1419437603"), encoding="utf-8")
    assert detect_format(path) == ("winamax", "")
    capsys.readouterr()
    assert main(["ingest", str(path), "--db", str(tmp_path / "d.duckdb"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["hands"], report["rejects"], report["files"][0]["format"]) == (2, 0, "winamax")
    assert [b.line for b in split_winamax(path.read_text(encoding="utf-8").splitlines())] == [1, 20]
    assert not sniff("Notes: Winamax Poker - CashGame was fun\n")
