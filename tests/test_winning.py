"""The Winning Poker Network reader (Americas Cardroom and its skins), both shapes of its histories:
every file of the real corpus ingests and only the hand the file cuts off is refused; sites, units,
stakes the older shape does not write, run it twice, straddles, dead and out-of-turn blinds, sitting
out, the disconnect protection of the `winning` profile; a hand written here read without the corpus;
located errors. The findings left on the corpus are held to docs/interop.md's list by
tests/test_precision.py."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from evaluator.profiles import PROFILES
from evaluator.replay import replay
from grammar.errors import HandSyntaxError
from grammar.winning_parser import EXAMPLE, parse_winning, sniff, split_winning
from pipeline.cli import main
from pipeline.formats import detect_text
from pipeline.model import Award, Hand
from pipeline.units import unit_of
from tests.conftest import ROOT, SHARED, faults_in, ingest_report, read_hands

CORPUS = SHARED / "corpus" / "winning"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(),
    reason=f"the Winning Poker Network corpus is not at {CORPUS} (see README: shared corpus)")

CUT_FILE = "cash/7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000 G0.txt"
# The error and warning findings left on the corpus, each explained in docs/interop.md.
LISTED = {("WPN-10005881", "WRONG_BLIND"), ("WPN-727152195", "OUT_OF_TURN"),
          ("WPN-727152195", "REPLAY_STOPPED")}
SITE = "Winning Poker Network"


@pytest.fixture(scope="module")
def corpus_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """`barge ingest` of the whole folder, with its audit, as users run it."""
    db = tmp_path_factory.mktemp("winning") / "winning.duckdb"
    report: dict[str, object] = ingest_report([CORPUS], db)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["audit", "--sequences", "--db", str(db), "--json"]) == 0
    report["sequences"] = json.loads(buffer.getvalue())
    return report


@pytest.fixture(scope="module")
def hands() -> dict[str, Hand]:
    return read_hands(CORPUS, split_winning, parse_winning)


def faults(hand: Hand, profile: str | None = None) -> list[str]:
    """The codes of the errors and warnings the replay finds in `hand`."""
    return [f.code.name for f in replay(hand, profile) if f.severity in ("error", "warning")]


# ---- the corpus ----------------------------------------------------------------------------


@needs_corpus
def test_every_file_ingests_and_only_the_cut_hand_is_refused(corpus_report: dict[str, object]) -> None:
    files = corpus_report["files"]
    assert isinstance(files, list)
    # six files stand twice in the folder (the same bytes): the second is already ingested
    assert len(files) == 33 and all(f["format"] == "winning" for f in files)
    assert sorted(f["status"] for f in files) == ["already ingested"] * 6 + ["ingested"] * 27
    rejects = corpus_report["reject_details"]
    assert isinstance(rejects, list) and len(rejects) == 1
    assert Path(rejects[0]["path"]).relative_to(CORPUS) == Path(CUT_FILE)
    assert rejects[0]["line"] == 98 and "cut off" in rejects[0]["error"]
    assert (corpus_report["hands"], corpus_report["duplicates"], corpus_report["blocks"]) == (59, 0, 60)
    assert corpus_report["by_variant"] == {"texas_holdem": 37, "omaha": 4, "omaha_hi_lo": 12, "stud": 5,
                                           "stud_hi_lo": 1}


@needs_corpus
def test_no_error_or_warning_but_the_listed_ones(corpus_report: dict[str, object]) -> None:
    found = set(faults_in(corpus_report))
    assert found == LISTED
    sequences = corpus_report["sequences"]
    assert isinstance(sequences, dict) and sequences["findings"] == []  # each table's hands follow on


# ---- sites, units, stakes ------------------------------------------------------------------


@needs_corpus
def test_sites_units_and_events(hands: dict[str, Hand]) -> None:
    def said(hand_id: str) -> tuple[str | None, str | None, str | None, str | None, str]:
        hand = hands[hand_id]
        return hand.site, hand.game_type, hand.currency, hand.event, unit_of(hand)

    cash = (SITE, "cash", "USD", f"{SITE}, USD", "USD")
    assert said("WPN-78708209") == cash  # "Hand #78708209 - Omaha H/L(Fixed Limit) - $20.00/$40.00"
    assert said("WPN-741631166") == cash  # "Game ID: 741631166 40/80 (PRR) Xana (Omaha HiLow)"
    assert said("WPN-698319898") == (SITE, "cash", "play", f"{SITE}, play money", "play")  # "PM Hold`em 5/10"
    # "Game Hand #82980175 - Tournament #11212445": the tournament's chips
    assert said("WPN-82980175") == (SITE, "tournament", None, SITE, f"T:{SITE}:11212445")
    # the older shape names a tournament, not its number: its name stands for it
    hyper = said("WPN-695373365")
    assert hyper == (SITE, "tournament", "USD", f"{SITE}, $2.40 Hyper Turbo Heads-up",
                     f"T:{SITE}:{SITE}, $2.40 Hyper Turbo Heads-up")
    assert hands["WPN-695373365"].tournament is None and hands["WPN-695373365"].table_name == "1"


@needs_corpus
def test_structure_and_stakes_the_older_shape_leaves_unwritten(hands: dict[str, Hand]) -> None:
    stud = hands["WPN-693975843"]  # "1/2 (PRR) La Llorona - 3 (Seven Cards Stud HiLow)"
    assert (stud.variant, stud.structure) == ("stud_hi_lo", "limit")
    stakes = stud.stakes
    assert (stakes.small_bet, stakes.big_bet, stakes.ante, stakes.bring_in) == (100, 200, 15, 40)
    limit = hands["WPN-741631166"]  # "40/80": the big blind posts 40, so the pair is the bets
    assert (limit.structure, limit.stakes.big_blind, limit.stakes.big_bet) == ("limit", 4000, 8000)
    omaha = hands["WPN-820605052"]  # "3/6 (PRR) Pamola (Short) (Omaha HiLow)": a raise to $405.40
    assert omaha.structure == "no-limit" and faults(omaha) == []  # pot limit would be a guess


@needs_corpus
def test_the_rake_and_fees_and_the_pot_before_them(hands: dict[str, Hand]) -> None:
    modern = hands["WPN-78708209"]  # "Total pot $199.00 | Rake $0.96 | JP Fee $0.04": $200 put in
    assert (modern.total_pot, modern.rake, modern.awards) == (20000, 100, (Award("Player0", 19900),))
    assert [a.detail for a in modern.actions if a.kind == "note"] == ["JP Fee $0.04"]
    older = hands["WPN-741631166"]  # "Pot: 477. Rake 2.76. JP fee 0.24"
    assert (older.total_pot, older.rake) == (48000, 300)


# ---- the play --------------------------------------------------------------------------------


@needs_corpus
def test_run_it_twice(hands: dict[str, Hand]) -> None:
    hand = hands["WPN-779379637"]  # "*** FLOP 1 ***", "collected $92.25 from main pot 1"
    assert [a.kind for a in hand.actions].count("run_it") == 1
    assert hand.awards == (Award("Hero", 9225, 0, "run 1"), Award("Player2", 3075, 0, "run 1"),
                           Award("Player2", 12300, 0, "run 2"))
    shown = {a.player: a.detail for a in hand.actions if a.kind == "show"}
    assert shown["Hero"] == "HI: a flush, Queen high; LO: 8,7,5,2,A; HI: two pair, Sixs and Deuces"
    assert faults(hand) == []


@needs_corpus
def test_posts_straddles_and_caps(hands: dict[str, Hand]) -> None:
    dead = hands["WPN-784383001"]  # "Player8 posts dead $0.07" at $0.02/$0.05
    assert [(a.player, a.amount, a.detail) for a in dead.actions if a.kind == "post"][2:] == [
        ("Player8", 5, "big_blind"), ("Player8", 2, "dead_blind")]
    straddle = hands["WPN-270567990173"]  # "Player 808485503 straddle (40)"
    assert [(a.amount, a.detail) for a in straddle.actions if a.kind == "post"][-1] == (4000, "straddle")
    new = hands["WPN-698322413"]  # "Player barzop posts (5)", then "calls (5)" behind the 10 big blind
    assert [(a.player, a.detail) for a in new.actions if a.kind == "post"][-1] == ("barzop", "small_blind")
    capped = hands["WPN-151588328"]  # "IrishPimp2233 caps $0.55" after a bet of $0.11: a raise to $0.55
    raises = [a.to_amount for a in capped.actions if a.player == "IrishPimp2233" and a.kind == "raise"]
    assert raises == [5, 55]
    for hand in (dead, straddle, new, capped):
        assert faults(hand) == []


@needs_corpus
def test_the_older_shapes_stud_streets_and_cards(hands: dict[str, Hand]) -> None:
    hand = hands["WPN-693975843"]  # the bring-in comes before "*** Third street ***", which deals 4th
    bring_in = next(a for a in hand.actions if a.kind == "bring_in")
    assert (bring_in.street, bring_in.player, bring_in.amount) == ("3rd_street", "ChazDazzle", 40)
    assert [a.cards for a in hand.actions if a.kind == "deal" and a.player == "ChazDazzle"] == [
        ("6h", "Td"), ("2c",), ("As",), ("7d",), ("4d",), ("9s",)]
    assert hand.awards == (Award("ChazDazzle", 353), Award("KickAzzJohnny", 352))
    assert faults(hand) == []


@needs_corpus
def test_sitting_out_and_a_line_that_names_no_player(hands: dict[str, Hand]) -> None:
    hand = hands["WPN-665312038"]  # "Player Player2 sitting out", "Player  has big blind (2)"
    assert [s.player for s in hand.seats if s.sitting_out] == ["Player2"]
    assert [(a.player, a.detail) for a in hand.actions if a.kind == "post"] == [
        ("Player1", "small_blind"), ("Player7", "big_blind")]  # the one seated player no line names
    assert faults(hand) == []
    dealt_none = hands["WPN-10005881"]  # Player3 is seated and dealt no card
    assert [s.player for s in dealt_none.seats if s.sitting_out] == ["Player2", "Player3"]


@needs_corpus
def test_a_disconnected_player_is_all_in_for_what_they_put_in(hands: dict[str, Hand]) -> None:
    hand = hands["WPN-741631166"]  # "Player Player0 is disconnected and ALL IN." with 937 behind
    assert hand.rules_profile == "winning"
    assert hand.awards == (Award("Player0", 19850), Award("Player1", 23850), Award("Player4", 4000))
    assert faults(hand) == []
    # BARGE asks the disconnected player to act: the record leaves their turns out
    assert sorted(set(faults(hand, "barge-2025"))) == ["BETTING_ROUND_INCOMPLETE", "OUT_OF_TURN"]


def test_the_winning_profile_differs_from_barge_in_what_docs_interop_lists() -> None:
    differing = {k for k, v in PROFILES["winning"].items() if PROFILES["barge-2025"][k] != v}
    assert differing == {"disconnect"}
    text = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
    section = text.split("### The `winning` rules profile")[1].split("\n### ")[0]
    assert "| `disconnect` | `ignored` | `all_in` |" in section and "WPN-741631166" in section


# ---- without the corpus --------------------------------------------------------------------

OLDER = """\
Game started at: 2016/8/2 9:5:7

Game ID: 5 0.50/1 (PRR) Xana (Hold'em)

Seat 1 is the button

Seat 1: Sean LeBlanc (40).

Seat 2: Bo (25.50).

Seat 3: Cy (30).

Player Cy sitting out

Player Sean LeBlanc has small blind (0.50)

Player Bo has big blind (1)

Player Sean LeBlanc received card: [10h]

Player Sean LeBlanc received card: [Ah]

Player Bo received a card.

Player Bo received a card.

Player Sean LeBlanc raises (2.50)

Player Bo allin (24.50)

Player Sean LeBlanc calls (22.50)

*** FLOP ***: [2c 7d Kh]

*** TURN ***: [2c 7d Kh] [Kd]

*** RIVER ***: [2c 7d Kh Kd] [3s]

------ Summary ------

Pot: 49.50. Rake 1.50

Board: [2c 7d Kh Kd 3s]

*Player Sean LeBlanc shows: One pair of Ks [10h Ah]. Bets: 25.50. Collects: 49.50. Wins: 24.
Player Bo shows: One pair of Ks [9c 8c]. Bets: 25.50. Collects: 0. Loses: 25.50.
Player Cy does not show cards.Bets: 0. Collects: 0. Wins: 0.

Game ended at: 2016/8/2 9:6:1
"""


def test_the_modern_shape_without_the_corpus() -> None:
    hand = parse_winning(EXAMPLE)
    assert (hand.hand_id, hand.site, hand.currency, hand.rules_profile) == ("WPN-1", SITE, "USD", "winning")
    assert [(a.player, a.amount) for a in hand.actions if a.kind == "return"] == [("Ann", 4)]
    assert hand.awards == (Award("Ann", 4),) and faults(hand) == []
    assert detect_text(EXAMPLE) == "winning" and sniff(EXAMPLE)


def test_the_older_shape_without_the_corpus() -> None:
    """A name with a space, a player sitting out, cards one a line, a raise and an all-in written as the
    chips they add, the ten written "10", the results only in the summary."""
    hand = parse_winning(OLDER)
    read = (hand.hand_id, hand.variant, hand.structure, hand.currency)
    assert read == ("WPN-5", "texas_holdem", "no-limit", "USD")
    assert [(s.player, s.stack, s.sitting_out) for s in hand.seats] == [
        ("Sean LeBlanc", 4000, False), ("Bo", 2550, False), ("Cy", 3000, True)]
    play = [(a.kind, a.player, a.amount, a.to_amount, a.all_in) for a in hand.actions
            if a.kind in ("raise", "call", "bet")]
    assert play == [("raise", "Sean LeBlanc", None, 300, False), ("raise", "Bo", None, 2550, True),
                    ("call", "Sean LeBlanc", 2250, None, False)]
    assert next(a.cards for a in hand.actions if a.kind == "deal") == ("Th", "Ah")
    assert [a.player for a in hand.actions if a.kind == "show"] == ["Sean LeBlanc", "Bo"]
    assert (hand.awards, hand.total_pot, hand.rake) == ((Award("Sean LeBlanc", 4950),), 5100, 150)
    assert faults(hand) == []
    assert detect_text(OLDER) == "winning"
    lines = OLDER.splitlines()
    assert [b.line for b in split_winning(lines * 2)] == [1, len(lines) + 1]  # blank lines end no hand


def test_the_networks_other_game_names() -> None:
    """Names the corpus does not deal but the network writes the same way (fpdb's list of them)."""
    for name, variant in (("5Card Omaha", "five_card_omaha"), ("5Card Omaha H/L", "big_o")):
        text = EXAMPLE.replace("Holdem(No Limit)", f"{name}(Pot Limit)")
        assert parse_winning(text).variant == variant
    stud = parse_winning(EXAMPLE.replace("Holdem(No Limit)", "7Stud H/L(Fixed Limit)").replace(
        "posts the small blind $0.01", "posts ante $0.01").replace(
        "Bo posts the big blind $0.02\n*** HOLE CARDS ***", "Bo posts ante $0.01\n*** 3rd STREET ***"))
    assert (stud.variant, stud.structure) == ("stud_hi_lo", "limit")


def test_errors_are_located() -> None:
    with pytest.raises(HandSyntaxError) as unknown:
        parse_winning(EXAMPLE.replace("Holdem(No Limit)", "Badugi(No Limit)"))
    assert (unknown.value.line, unknown.value.column) == (1, 11)
    assert "unknown game 'Badugi'" in str(unknown.value)
    with pytest.raises(HandSyntaxError) as cut:
        parse_winning(OLDER.split("------ Summary")[0])
    assert "cut off" in str(cut.value)
