"""The Full Tilt Poker reader (grammar/fulltilt.lark, assembled as PokerStars' hands are) on the real
corpus: every file ingests, each hand with its site and unit; the refused hands are the three the
files themselves cut off or cancel; run it twice, hi/lo, stud, draw, Irish, Courchevel, a Flipout and
the site's habits read as it meant them. The findings left on the corpus are held to docs/interop.md's
list by tests/test_precision.py."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from evaluator.replay import replay_hand
from grammar.errors import HandSyntaxError
from grammar.fulltilt_parser import EXAMPLE, parse_fulltilt, split_fulltilt
from pipeline.formats import detect_text
from pipeline.model import Award, Hand
from pipeline.sources import read_blocks
from pipeline.units import unit_of
from tests.conftest import SHARED, ingest_report, read_hands

CORPUS = SHARED / "corpus" / "fulltilt"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the Full Tilt corpus is not at {CORPUS} (see README: shared corpus)")

# Every hand the corpus refuses, and why: the file itself cuts off or cancels each one.
EXPECTED_REJECTS = {
    ("cash/Draw/3-Draw-Limit-USD-20-40-201101.Partial.txt", 1): "cut off: the history marks it '(partial)'",
    ("cash/Draw/3-Draw-Limit-USD-10-20-201101.Dead.hand.txt", 1): "cancelled: it was never dealt",
    ("tour/Flop/NLHE-6max-Matrix-USD-26-201211.match4.txt", 98):
        "cut off: the history keeps only its summary",
}
EXPECTED_VARIANTS = {
    "texas_holdem": 126, "deuce_to_seven_triple_draw": 57, "stud": 15, "omaha": 5, "razz": 4,
    "badugi": 2, "five_card_draw": 2, "omaha_hi_lo": 2, "ace_to_five_triple_draw": 1, "courchevel": 1,
    "five_card_omaha": 1, "irish": 1, "stud_hi_lo": 1,
}  # fmt: skip


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """`barge ingest` of the whole corpus, with its audit, as users run it."""
    return ingest_report([CORPUS], tmp_path_factory.mktemp("fulltilt") / "ft.duckdb")


@pytest.fixture(scope="module")
def hands() -> dict[str, Hand]:
    return read_hands(CORPUS, split_fulltilt, parse_fulltilt)


@needs_corpus
def test_every_file_ingests_and_only_cut_off_or_cancelled_hands_are_refused(
    report: dict[str, object],
) -> None:
    files = report["files"]
    assert isinstance(files, list)
    assert len(files) == 51 and all(f["status"] == "ingested" and f["format"] == "fulltilt" for f in files)
    found = {(str(Path(r["path"]).relative_to(CORPUS)), r["line"]): r["error"]
             for r in report["reject_details"]}  # type: ignore[attr-defined]
    assert set(found) == set(EXPECTED_REJECTS)
    for key, why in EXPECTED_REJECTS.items():
        assert why in found[key], found[key]
    assert (report["hands"], report["rejects"], report["duplicates"]) == (218, 3, 0)
    assert report["by_variant"] == EXPECTED_VARIANTS


@needs_corpus
def test_every_hand_names_its_site_and_unit(hands: dict[str, Hand]) -> None:
    assert {h.site for h in hands.values()} == {"Full Tilt"}
    assert {h.rules_profile for h in hands.values()} == {"fulltilt"}
    cash = {unit_of(h) for h in hands.values() if h.game_type == "cash"}
    assert cash == {"USD", "EUR", "play"}
    matrix = hands["FT-31493005896"]
    assert (matrix.game_type, matrix.tournament, matrix.currency, unit_of(matrix), matrix.table_name) == (
        "tournament", "244669447", "USD", "T:Full Tilt:244669447", "Match 4")
    play = hands["FT-29937911949"]  # "500K/1000K", a pot of 239,113,000 play chips
    assert (play.currency, play.stakes.big_blind, play.total_pot) == ("play", 100_000_000, 23_911_300_000)
    # "15:13 ET - Wed, July 21, 2010"
    assert hands["FT-22488827305"].started_at == datetime(2010, 7, 21, 15, 13)


@needs_corpus
def test_run_it_twice_pots_are_the_runs(hands: dict[str, Hand]) -> None:
    hand = hands["FT-31319837969"]
    assert (hand.variant, hand.structure, hand.total_pot, hand.rake) == ("omaha", "pot-limit", 25140, 300)
    assert hand.awards == (Award("Hero", 6210, 0, "run 1"), Award("Player3", 6210, 0, "run 1"),
                           Award("Hero", 12420, 0, "run 2"))
    boards = [(a.detail, a.cards) for a in hand.actions if a.kind == "board"]
    assert boards == [("1", ("7c", "4h", "7d")), ("1", ("5c",)), ("1", ("Th",)), ("2", ("Kc", "7h", "3h")),
                      ("2", ("Qh",)), ("2", ("6c",))]
    # "Player3 shows [As Ac Kd Jd]" all-in, each run's words on a line of their own: the summary's
    assert [a.detail for a in hand.actions if a.kind == "show" and a.player == "Hero"] == [
        "two pair, Aces and Sevens; a flush, Ace high"]


@needs_corpus
def test_stud_irish_courchevel_and_hi_lo_read_as_dealt(hands: dict[str, Hand]) -> None:
    stud = hands["FT-21536466676"]  # "Dealt to Hero [5s 2h] [Th]"
    assert [(a.detail, a.cards) for a in stud.actions if a.kind == "deal" and a.player == "Hero"] == [
        ("down", ("5s", "2h")), ("up", ("Th",))]
    irish = hands["FT-32447075821"]  # "Hero discards [9h 9c]", "Player0 discards": no draw
    assert [(a.street, a.player, a.cards) for a in irish.actions if a.kind in ("discard", "draw")] == [
        ("flop", "Player0", ("??", "??")), ("flop", "Hero", ("9h", "9c"))]
    courchevel = hands["FT-32635413160"]  # "*** FLOPET *** [9h]", then "*** FLOP *** [9s Kd]"
    assert [(a.street, a.cards) for a in courchevel.actions if a.kind == "board"][:2] == [
        ("hole_cards", ("9h",)), ("flop", ("9s", "Kd"))]
    hi_lo = hands["FT-1088791321"]
    assert hi_lo.awards == (Award("zbubop", 204850), Award("AllenCunningham", 204850))


@needs_corpus
def test_the_sites_habits_are_read_as_meant(hands: dict[str, Hand]) -> None:
    # a Matrix hand whose small blind's fold only the summary gives
    matrix = hands["FT-31493031208"]
    assert [(a.kind, a.player) for a in matrix.actions if a.kind in ("fold", "return")] == [
        ("fold", "Player1"), ("return", "Hero")]
    # a Flipout: all-in on the antes, the blinds' players "check", the level "2B/2B Ante 2B"
    flipout = hands["FT-34541726731"]
    assert not [a for a in flipout.actions if a.kind == "check"] and flipout.stakes.big_blind is None
    # an ante nobody matched, returned before the deal: the return ends 3rd street
    razz = hands["FT-31349767778"]
    kinds = [a.kind for a in razz.actions]
    assert kinds.index("return") > kinds.index("deal")
    # a seat the summary says "is sitting out" is not dealt in
    sat = hands["FT-26190500040"]
    assert [s.player for s in sat.seats if s.sitting_out] == ["Player6"]
    for hand in (matrix, flipout, razz, sat):
        assert not [f for f in replay_hand(hand).findings if f.code.severity in ("error", "warning")]


@needs_corpus
def test_the_fulltilt_profile_is_what_its_records_need(hands: dict[str, Hand]) -> None:
    # Stud Hi/Lo at $2/$4: "Player4 bets $4" on 4th street with [9c] [9d] showing
    hand = hands["FT-11111111813"]
    assert not replay_hand(hand).findings
    assert [f.code.name for f in replay_hand(replace(hand, rules_profile="barge-2025")).findings] == [
        "WRONG_LIMIT_BET"]


def test_a_fulltilt_file_is_told_by_its_header_and_a_summary_holds_no_hand(tmp_path: Path) -> None:
    assert detect_text(EXAMPLE) == "fulltilt"
    summary = "Full Tilt Poker Tournament Summary Step 2 (243814827) Hold'em No Limit\n"
    assert detect_text(summary) == "fulltilt"
    path = tmp_path / "ft.txt"
    path.write_text("Full Tilt Poker Tournament Summary Step 2 (243814827)\nBuy-In: $8.30 + $0.40\n\n"
                    + EXAMPLE + "\n\n" + EXAMPLE.replace("#1:", "#2:"), encoding="utf-8")
    assert [b.line for b in read_blocks(path, split_fulltilt)] == [4, 22]


def test_a_bad_line_is_a_located_error() -> None:
    with pytest.raises(HandSyntaxError) as caught:
        parse_fulltilt(EXAMPLE.replace("Bo folds", "Bo flods"))
    assert (caught.value.line, caught.value.column) == (9, 4)
    assert "unexpected 'flods'" in str(caught.value) and "'folds'" in str(caught.value)


def test_names_with_spaces_are_read_whole() -> None:
    hand = parse_fulltilt(EXAMPLE.replace("Ann", "FILL A RACK"))
    assert [s.player for s in hand.seats] == ["FILL A RACK", "Bo"]
    assert hand.awards == (Award("FILL A RACK", 4),)


STUD = """\
Full Tilt Poker Game #7: Table Fpdb - $2/$4 Ante $0.40 - Limit Stud Hi - 13:14:27 ET - 2010/06/10

Seat 1: Ann Lee ($20)

Seat 2: Bo ($20)

Seat 3: Cy ($20), is sitting out
Ann Lee antes $0.40
Bo antes $0.40
*** 3RD STREET ***
Dealt to Ann Lee [5d Ah] [Ad]
Dealt to Bo [3c]
Bo is low with [3c]
Bo brings in for $0.50
Ann Lee completes it to $2
Cy (Observer): nh
Bo calls $1.50
*** 4TH STREET ***
Dealt to Ann Lee [5d Ah Ad] [6h]
Dealt to Bo [3c] [7c]
Ann Lee bets $2
Bo has 15 seconds left to act
Bo folds
Uncalled bet of $2 returned to Ann Lee
Ann Lee mucks
Ann Lee wins the pot ($4.80)
*** SUMMARY ***
Total pot $4.80 | Rake $0
Seat 1: Ann Lee collected ($4.80), mucked
Seat 2: Bo folded on 4th St.
Seat 3: Cy is sitting out
"""


def test_a_stud_hand_with_blank_lines_and_remarks_reads_without_the_corpus() -> None:
    hand = parse_fulltilt(STUD)
    assert (hand.variant, hand.structure, hand.stakes.small_bet, hand.stakes.ante, hand.stakes.bring_in) == (
        "stud", "limit", 200, 40, 50)
    assert [s.player for s in hand.seats if s.sitting_out] == ["Cy"]
    assert [(a.player, a.detail, a.cards) for a in hand.actions if a.kind == "deal"] == [
        ("Ann Lee", "down", ("5d", "Ah")), ("Ann Lee", "up", ("Ad",)), ("Bo", "down", ("??", "??")),
        ("Bo", "up", ("3c",)), ("Ann Lee", "up", ("6h",)), ("Bo", "up", ("7c",))]
    assert hand.awards == (Award("Ann Lee", 480),) and hand.total_pot == 480
    assert replay_hand(hand).findings == []
