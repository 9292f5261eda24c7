"""The GGPoker reader (a dialect of the PokerStars reader: grammar/pokerstars_dialects.py) on the
real corpus: every file ingests, each hand with its site and unit; the jackpot fee, run it twice,
a missed blind, all-in insurance and a tournament's level told one hand early read as the site
meant them. The findings left on the corpus are held to docs/interop.md's list by
tests/test_precision.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluator.replay import replay_hand
from grammar.errors import HandSyntaxError
from grammar.pokerstars_parser import GG_READER
from pipeline.formats import detect_text
from pipeline.model import Award, Hand
from pipeline.sources import read_blocks
from pipeline.units import unit_of
from tests.conftest import SHARED, ingest_report, read_hands

CORPUS = SHARED / "corpus" / "ggpoker"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the GGPoker corpus is not at {CORPUS} (see README: shared corpus)")

HAND = """\
Poker Hand #RC1: Hold'em No Limit ($0.02/$0.05) - 2021/04/03 00:00:47
Table 'NLHBronze1' 6-max Seat #1 is the button
Seat 1: Ann ($5 in chips)
Seat 2: Bo ($5 in chips)
Ann: posts small blind $0.02
Bo: posts big blind $0.05
*** HOLE CARDS ***
Dealt to Ann
Dealt to Bo [Ah Kd]
Ann: raises $0.1 to $0.15
Bo: folds
Uncalled bet ($0.1) returned to Ann
*** SHOWDOWN ***
Ann collected $0.1 from pot
*** SUMMARY ***
Total pot $0.1 | Rake $0 | Jackpot $0 | Bingo $0
Seat 1: Ann (button) (small blind) won ($0.1)
Seat 2: Bo (big blind) folded before Flop
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """`barge ingest` of the whole corpus, with its audit, as users run it."""
    return ingest_report([CORPUS], tmp_path_factory.mktemp("ggpoker") / "gg.duckdb")


@pytest.fixture(scope="module")
def hands() -> dict[str, Hand]:
    return read_hands(CORPUS, GG_READER.split, GG_READER.parse)


@needs_corpus
def test_every_file_ingests_as_ggpoker_with_no_reject(report: dict[str, object]) -> None:
    files = report["files"]
    assert isinstance(files, list)
    assert len(files) == 7 and all(f["status"] == "ingested" and f["format"] == "ggpoker" for f in files)
    assert (report["hands"], report["rejects"], report["duplicates"]) == (105, 0, 0)
    assert report["by_variant"] == {"texas_holdem": 61, "omaha": 41, "five_card_omaha": 3}


@needs_corpus
def test_every_hand_names_its_site_and_unit(hands: dict[str, Hand]) -> None:
    units = {unit_of(h) for h in hands.values()}
    assert units == {"USD", "T:GGPoker:5259595", "T:GGPoker:25313424", "T:GGPoker:25313426"}
    assert {h.site for h in hands.values()} == {"GGPoker"}
    cash = hands["GG-OM181427446"]
    assert (cash.game_type, cash.currency, cash.event, cash.rules_profile) == ("cash", "USD", "GGPoker, USD",
                                                                            "barge-2025")
    tour = hands["GG-TM600571038"]
    assert (tour.game_type, tour.tournament, tour.currency, tour.level) == (
        "tournament", "25313426", "USD", "14 (300/600)")


@needs_corpus
def test_the_jackpot_fee_is_the_houses_take_and_run_it_twice_two_runs(hands: dict[str, Hand]) -> None:
    hand = hands["GG-OM1349864"]
    assert (hand.variant, hand.structure, hand.total_pot, hand.rake) == ("five_card_omaha", "pot-limit",
                                                                         59708, 750 + 500)
    assert any(a.kind == "note" and a.detail == "Jackpot $5" for a in hand.actions)
    assert hand.awards == (Award("Hero", 25766, 0, "run 1"), Award("3a59c1a9", 6926, 0, "run 1"),
                           Award("Hero", 25766, 0, "run 2"))
    assert [a.amount for a in hand.actions if a.kind == "run_it"] == [2]


@needs_corpus
def test_a_missed_blind_is_dead_and_insurance_a_note(hands: dict[str, Hand]) -> None:
    missed = hands["GG-OM102163"]
    assert [(a.player, a.amount, a.detail) for a in missed.actions if a.kind == "post"] == [
        ("Hero", 200, "small_blind"), ("512ea5fb", 500, "big_blind"), ("22c0851a", 200, "dead_blind")]
    assert replay_hand(missed).findings == []
    insured = hands["GG-OM181427480"]
    notes = [a.detail for a in insured.actions if a.kind == "note"]
    assert notes == ["23aca38f: get an all-in insurance (premium ($0/$4/$0) for ($0/$10.8/$0) - "
                     "(Mandatory/Main/Sub))", "23aca38f: pay premium of all-in insurance ($4)"]
    assert insured.awards == (Award("23aca38f", 3750),)


@needs_corpus
def test_an_all_in_hand_shown_early_is_described_as_the_board_made_it(hands: dict[str, Hand]) -> None:
    # "Hero: shows [5s Jh Ac Kh] (Pair of Kings)" on the turn; the river pairs the board
    hand = hands["GG-OM181427480"]
    assert [(a.player, a.detail) for a in hand.actions if a.kind == "show"] == [
        ("23aca38f", "Sixes Full over Kings"), ("Hero", "Pair of Kings and Pair of Sixes")]
    assert replay_hand(hand).findings == []


@needs_corpus
def test_the_first_hand_of_a_level_is_dealt_at_the_level_before(hands: dict[str, Hand]) -> None:
    first = hands["GG-TM247773056"]  # "Level3 (80/160)", posts 60 and 120
    assert (first.level, first.stakes.small_blind, first.stakes.big_blind) == ("3 (80/160)", 6000, 12000)
    second = hands["GG-TM247773296"]
    assert (second.stakes.small_blind, second.stakes.big_blind) == (8000, 16000)
    assert not [f for f in replay_hand(first).findings if f.code.name == "WRONG_BLIND"]


def test_a_ggpoker_file_is_told_by_its_header() -> None:
    assert detect_text(HAND) == "ggpoker"
    assert detect_text(HAND.replace("Poker Hand #RC1", "PokerStars Hand #1")) == "pokerstars"
    hand = GG_READER.parse(HAND)
    assert (hand.hand_id, hand.site, hand.currency, hand.rake) == ("GG-RC1", "GGPoker", "USD", 0)
    assert [a.cards for a in hand.actions if a.kind == "deal"] == [("Ah", "Kd")]


def test_a_bad_line_is_a_located_error() -> None:
    with pytest.raises(HandSyntaxError) as caught:
        GG_READER.parse(HAND.replace("Bo: folds", "Bo: flods"))
    assert (caught.value.line, caught.value.column) == (11, 5)
    assert "unexpected 'flods'" in str(caught.value) and "'folds'" in str(caught.value)


def test_a_file_splits_into_its_hands(tmp_path: Path) -> None:
    path = tmp_path / "gg.txt"
    path.write_text(HAND + "\n\n" + HAND.replace("#RC1", "#RC2"), encoding="utf-8")
    assert [b.line for b in read_blocks(path, GG_READER.split)] == [1, 21]
