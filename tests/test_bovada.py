"""The Bovada, Ignition and Bodog reader on the real corpus (../shared/corpus/bovada): every file ingests,
hands read field by field (amounts, units, winners, who the players are, the site's habits undone), a
located error on a broken line. The findings left on the corpus are held to docs/interop.md's list here
and by tests/test_precision.py."""

from __future__ import annotations

from collections import Counter

import pytest

from evaluator.profiles import PROFILES
from evaluator.replay import replay
from grammar.bovada_parser import EXAMPLE, parse_bovada, sniff, split_bovada
from grammar.errors import HandSyntaxError
from pipeline.model import Award, Hand
from pipeline.units import unit_of
from tests.conftest import ROOT, SHARED, faults_in, ingest_report, read_hands
from tests.test_precision import documented

CORPUS = SHARED / "corpus" / "bovada"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the Bovada corpus is not at {CORPUS} (see README: shared corpus)")

EXPECTED_VARIANTS = {"texas_holdem": 1201, "omaha_hi_lo": 53, "stud": 44, "omaha": 22, "stud_hi_lo": 1}


@pytest.fixture(scope="module")
def corpus_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """`barge ingest` of the whole corpus, with its audit, as users run it."""
    return ingest_report([CORPUS], tmp_path_factory.mktemp("bovada") / "bov.duckdb")


@pytest.fixture(scope="module")
def corpus_hands() -> dict[str, Hand]:
    return read_hands(CORPUS, split_bovada, parse_bovada)


# ---- the corpus ----------------------------------------------------------------------------


@needs_corpus
def test_every_file_ingests_and_no_hand_is_refused(corpus_report: dict[str, object]) -> None:
    files = corpus_report["files"]
    assert isinstance(files, list)
    assert len(files) == 35 and all(f["status"] == "ingested" and f["format"] == "bovada" for f in files)
    # no file cancels or cuts off a hand; the repeated lines of the "corrupted" files are read once
    assert (corpus_report["hands"], corpus_report["rejects"], corpus_report["duplicates"],
            corpus_report["blocks"]) == (1321, 0, 0, 1321)
    assert corpus_report["by_variant"] == EXPECTED_VARIANTS


@needs_corpus
def test_no_error_or_warning_but_the_documented_ones(corpus_report: dict[str, object]) -> None:
    found = faults_in(corpus_report)
    listed = Counter({key: n for key, n in documented().items() if key[0].startswith("BOV-")})
    assert found == listed


@needs_corpus
def test_sites_currencies_and_units(corpus_hands: dict[str, Hand]) -> None:
    kinds = Counter((h.site, h.game_type, h.currency) for h in corpus_hands.values())
    assert kinds == {("Bovada", "cash", "USD"): 764, ("Bovada", "tournament", None): 355,
                     ("Ignition", "tournament", None): 193, ("Bodog", "cash", "USD"): 6,
                     ("Ignition", "cash", "USD"): 2, ("Ignition", "tournament", "USD"): 1}
    mvs = corpus_hands["BOV-4300979169"]  # an MVS history names the buy-in: "Buyin: $25+$2.50"
    assert (mvs.currency, unit_of(mvs), mvs.event) == ("USD", "T:Ignition:M-20210422003411",
                                                       "Ignition, Turbo, $25+$2.50")
    assert unit_of(corpus_hands["BOV-2629950879"]) == "USD"
    assert corpus_hands["BOV-4101241126"].event == "Bovada, Zone Poker, USD"


@needs_corpus
def test_amounts_rake_and_winners(corpus_hands: dict[str, Hand]) -> None:
    # "Total Pot($1.60) | Rake ($0.08)", UTG's "Hand result $1.52" after the rake
    cash = corpus_hands["BOV-2629950879"]
    assert (cash.stakes.small_blind, cash.stakes.big_blind, cash.total_pot, cash.rake) == (10, 25, 160, 8)
    assert cash.awards == (Award("UTG (2629950879)", 152),)
    # "Total Pot($222.21)" names no rake: the $3 the pushes leave is the house's
    mvs = corpus_hands["BOV-4086249181"]
    assert (mvs.total_pot, mvs.rake) == (22221, 300)
    assert mvs.awards == (Award("Hero", 1194, 1), Award("Hero", 20727, 0))
    # Zone Poker writes no total: the rake is what the pushes leave of the chips put in
    zone = corpus_hands["BOV-4101241126"]
    assert (zone.total_pot, zone.rake, zone.awards) == (None, 8, (Award("Big Blind (4101241126)", 152),))
    # a tournament's level gives the blinds; its chips are whole
    tour = corpus_hands["BOV-4300979169"]
    assert (tour.stakes.small_blind, tour.stakes.big_blind, tour.stakes.ante) == (7500, 15000, 1500)
    assert tour.awards == (Award("Hero", 2227000),) and tour.rake is None


@needs_corpus
def test_who_the_players_are(corpus_hands: dict[str, Hand]) -> None:
    cash = corpus_hands["BOV-2629950879"]  # anonymous: players of this hand only, named by position
    assert [s.player for s in cash.seats] == [f"{p} (2629950879)" for p in (
        "Dealer", "Small Blind", "Big Blind", "UTG", "UTG+1")] + ["Hero"]
    # "UTG+2  [ME] : Sitout (wait for bb)", dealt no cards: seated, sitting out
    assert [s.player for s in cash.seats if s.sitting_out] == ["Hero"]
    tour = corpus_hands["BOV-4405041788"]  # a seat number past the table's is the tournament's player's
    assert [s.player for s in tour.seats][:3] == ["P103 (T44843212)", "Hero", "P58 (T44843212)"]
    # numbered in the order listed, which are not the table's seats: no table is named
    assert [s.number for s in tour.seats] == list(range(1, 10)) and tour.button_seat == 6
    assert tour.table_name is None and corpus_hands["BOV-2629950879"].table_name == "1902693"
    mvs = corpus_hands["BOV-4086249181"]  # MVS: the site's own anonymous ids
    assert mvs.seats[0].player == "P1-d07e9231948e51d3174b777a4673828d"


@needs_corpus
def test_the_sites_habits_are_undone(corpus_hands: dict[str, Hand]) -> None:
    # a board the play never deals ("new format"): the summary's cards on the streets the betting shows
    old = corpus_hands["BOV-2601407546"]
    assert [a.cards for a in old.actions if a.kind == "board"] == [("Td", "Ah", "Ad"), ("Th",), ("4d",)]
    # a line written again (four "All-in 1405") is read once
    repeated = corpus_hands["BOV-3152355148"]
    assert sum(1 for a in repeated.actions if a.kind in ("bet", "call") and a.street == "flop") == 2
    # "Raises $1.25 to $1.25": chips put in, then the total
    raises = [(a.amount, a.to_amount) for a in corpus_hands["BOV-4086249181"].actions if a.kind == "raise"]
    assert raises == [(75, 125), (775, 925), (2617, 3542)]
    # seats numbered out of order with the positions are numbered by position from the button
    shuffled = corpus_hands["BOV-3534392210"]
    numbers = {s.player: s.number for s in shuffled.seats}
    assert shuffled.button_seat is not None and shuffled.table_name is None
    assert numbers["Small Blind (3534392210)"] == shuffled.button_seat + 1 == numbers["Hero"] + 1
    # stud without street markers: a player dealt again opens the next street
    stud = corpus_hands["BOV-2633115879"]
    assert [a.street for a in stud.actions if a.kind == "deal" and a.player == "Seat+5 (2633115879)"] == [
        "3rd_street", "3rd_street", "4th_street", "5th_street", "6th_street"]


def test_the_example_reads_and_audits_clean() -> None:
    hand = parse_bovada(EXAMPLE)
    assert sniff(EXAMPLE) and hand.rules_profile == "bovada"
    # the big blind's $0.25 nobody called is pushed with the pot: it comes back, the pot is $0.50
    assert hand.awards == (Award("Hero", 50),) and hand.rake == 0
    assert [(a.player, a.amount) for a in hand.actions if a.kind == "return"] == [("Hero", 25)]
    assert [f.code.name for f in replay(hand) if f.severity in ("error", "warning")] == []


def test_a_broken_line_is_a_located_error() -> None:
    broken = EXAMPLE.replace("Dealer : Folds", "Dealer : Flods")
    with pytest.raises(HandSyntaxError) as caught:
        parse_bovada(broken)
    assert (caught.value.line, caught.value.column) == (12, 10)
    assert "unexpected 'Flods'" in str(caught.value) and "'Folds'" in str(caught.value)


def test_a_hand_cut_off_before_its_summary_is_refused() -> None:
    cut = EXAMPLE.split("*** SUMMARY ***")[0]
    with pytest.raises(HandSyntaxError, match="cut off"):
        parse_bovada(cut)


@needs_corpus
def test_the_profile_is_the_networks_rules(corpus_hands: dict[str, Hand]) -> None:
    # each difference from barge-2025 is a finding on a correct hand under BARGE's defaults
    shown = {"BOV-2596795140": "WRONG_LIMIT_BET", "BOV-3412775605": "WRONG_AWARD",
             "BOV-3412792209": "RAISE_BELOW_MINIMUM", "BOV-2604291577": "WRONG_LIMIT_BET",
             "BOV-4294608989": "WRONG_CALL_AMOUNT", "BOV-4294593014": "WRONG_AWARD"}
    for hand_id, code in shown.items():
        hand = corpus_hands[hand_id]
        assert code in {f.code.name for f in replay(hand, "barge-2025")}
        assert [f.code.name for f in replay(hand) if f.severity in ("error", "warning")] == []
    # the ante Bovada gives back (uncalled_ante=returned) stops BARGE's replay
    returned = corpus_hands["BOV-2690849153"]
    assert "REPLAY_STOPPED" in {f.code.name for f in replay(returned, "barge-2025")}
    assert "REPLAY_STOPPED" not in {f.code.name for f in replay(returned)}


def test_every_difference_of_the_profile_is_documented() -> None:
    differing = {k: v for k, v in PROFILES["bovada"].items() if PROFILES["barge-2025"][k] != v}
    section = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8").split(
        "### The `bovada` rules profile", 1)[1].split("\n### ", 1)[0]
    assert differing and all(f"| `{k}` | `{PROFILES['barge-2025'][k]}` | `{v}` |" in section
                             for k, v in differing.items())


@needs_corpus
def test_the_five_cards_a_showing_names_are_judged() -> None:
    path = CORPUS / "cash" / "Flop" / "NLHE-USD - $0.25-$0.50 - 202103.MVS.version.txt"
    text = path.read_text(encoding="utf-8")
    hand = parse_bovada(text)
    assert next(a.detail for a in hand.actions if a.kind == "show") == "Kh, Kc, 7h, 7d, Qd"
    assert [f for f in replay(hand) if f.code.name == "MISDESCRIBED_HAND"] == []
    # the Big Blind's Kings and Sevens named as Kings with Queen, Nine, Seven
    wrong = parse_bovada(text.replace("Showdown [Kh Kc 7h 7d Qd]", "Showdown [Kh Kc Qd 9h 7h]"))
    assert [f.message.split(", but ")[1] for f in replay(wrong) if f.code.name == "MISDESCRIBED_HAND"] == [
        "the cards make two pair, Kings and Sevens with a Queen"]
