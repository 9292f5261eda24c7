"""The 888poker reader on the real corpus: every file ingests and only the hand 888 cancelled is
refused; amounts in every locale, units, winners, returns and the rake as the records give them; the
888poker profile's rule; located errors. The findings left on the corpus are held to docs/interop.md's
list by tests/test_precision.py."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from evaluator.profiles import PROFILES
from evaluator.replay import replay
from grammar.errors import HandSyntaxError
from grammar.poker888_parser import EXAMPLE, parse_888, sniff, split_888
from pipeline.formats import detect_text
from pipeline.model import Award, Hand
from pipeline.sources import read_blocks
from pipeline.units import unit_of
from tests.conftest import ROOT, SHARED, faults_in, ingest_report, read_hands

CORPUS = SHARED / "corpus" / "888poker"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the 888poker corpus is not at {CORPUS} (see README: shared corpus)")

CANCELLED_FILE = "cash/Flop/888-LHE-HU-USD-10-20-201202.cancelled.hand.txt"
# The error and warning findings left on the corpus, each explained in docs/interop.md.
LISTED = {("888-143941885", "WRONG_BLIND"), ("888-143944112", "WRONG_BLIND")}


@pytest.fixture(scope="module")
def corpus_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """`barge ingest` of the whole folder, with its audit, as users run it."""
    return ingest_report([CORPUS], tmp_path_factory.mktemp("888poker") / "888.duckdb")


@pytest.fixture(scope="module")
def hands() -> dict[str, Hand]:
    return read_hands(CORPUS, split_888, parse_888)


def faults(hand: Hand, profile: str | None = None) -> list[str]:
    """The codes of the errors and warnings the replay finds in `hand`."""
    return [f.code.name for f in replay(hand, profile) if f.severity in ("error", "warning")]


# ---- the corpus ----------------------------------------------------------------------------


@needs_corpus
def test_every_file_ingests_and_only_the_cancelled_hand_is_refused(corpus_report: dict[str, object]) -> None:
    files = corpus_report["files"]
    assert isinstance(files, list)
    assert len(files) == 26 and all(f["status"] == "ingested" and f["format"] == "888poker" for f in files)
    rejects = corpus_report["reject_details"]
    assert isinstance(rejects, list) and len(rejects) == 1
    assert Path(rejects[0]["path"]).relative_to(CORPUS) == Path(CANCELLED_FILE)
    assert (rejects[0]["line"], rejects[0]["column"]) == (11, 1)
    assert "cancelled" in rejects[0]["error"]
    # one hand is in two files (a duplicate, not a reject); every block is accounted for
    assert (corpus_report["hands"], corpus_report["duplicates"], corpus_report["blocks"]) == (121, 1, 123)
    assert corpus_report["by_variant"] == {"texas_holdem": 112, "omaha": 7, "omaha_hi_lo": 2}


@needs_corpus
def test_no_error_or_warning_but_the_listed_ones(corpus_report: dict[str, object]) -> None:
    found = set(faults_in(corpus_report))
    assert found == LISTED


# ---- units and amounts ---------------------------------------------------------------------


@needs_corpus
def test_sites_units_and_events(hands: dict[str, Hand]) -> None:
    def said(hand_id: str) -> tuple[str | None, str | None, str | None, str]:
        hand = hands[hand_id]
        return hand.site, hand.currency, hand.event, unit_of(hand)

    assert said("888-418361264") == ("888poker", "USD", "888poker, USD", "USD")  # Cassava's dollars
    assert said("888-362978981") == ("888poker", "play", "888poker, play money", "play")  # Practice Play
    assert said("888-548154959")[2] == "888poker, USD, Jackpot table"
    assert said("888-384819765") == ("888poker", "USD", "888poker, $0.90 + $0.09", "T:888poker:38340077")
    practice = ("888poker", "play", "888poker, 10 + 1, play money", "T:888poker:28352940")
    assert said("888-143941009") == practice
    assert said("888-190627712")[1:] == (None, "888poker, Free", "T:888poker:36216773")  # a freeroll
    # a regional site keeps its name and numbers; its "$" is not said to be any dollar
    assert said("888.ro-896313800") == ("888.ro", None, "888.ro, 40 $ + 4 $", "T:888.ro:132736084")
    assert said("888.ca-on-6551093") == ("888poker.ca-on", None, "888poker.ca-on", "chips")


@needs_corpus
def test_amounts_and_cards_in_the_clients_languages(hands: dict[str, Hand]) -> None:
    russian = hands["888-103581731"]  # "0,02$/0,04$", "[ 9s, \u0412h, 2s ]" (cp1251 bytes)
    assert (russian.stakes.small_blind, russian.stakes.big_blind, russian.seats[0].stack) == (2, 4, 717)
    assert [a.cards for a in russian.actions if a.kind == "board"] == [("9s", "Jh", "2s"), ("5h",), ("Qc",)]
    shown = {a.player: a.cards for a in russian.actions if a.kind == "show"}
    assert shown == {"Player0": ("2d", "Ad"), "Player1": ("8c", "Ac")}
    swedish = hands["888-873818904"]  # "25 $/50 $", "6 497 $", "[ Tc, Knh, 9h, 9c ]", "[ Ec, Knd, 4c, Kh ]"
    assert (swedish.stakes.big_blind, swedish.seats[1].stack) == (5000, 649700)
    assert next(a.cards for a in swedish.actions if a.kind == "muck") == ("Ac", "Jd", "4c", "Kh")
    romanian = hands["888.ro-896313800"]  # "8.000 $/16.000 $", "1.183.764 $"
    assert (romanian.stakes.small_blind, romanian.awards) == (800000, (Award("Grazietutti", 118376400),))
    spaced = hands["888-1140410638"]  # "25 000/50 000", "1 123 698"
    assert (spaced.stakes.big_blind, spaced.seats[0].stack, spaced.started_at) == (5000000, 112369800, None)


@needs_corpus
def test_raises_are_the_chips_added(hands: dict[str, Hand]) -> None:
    hand = hands["888-143941368"]  # "Fair_Play888 raises [1,480]" over a 20 big blind: to 1,500
    raises = [(a.player, a.amount, a.to_amount, a.all_in) for a in hand.actions if a.kind == "raise"]
    assert raises == [("IonelBadea", 2000, 4000, False), ("Hero", 4000, 8000, False),
                      ("Fair_Play888", 142000, 150000, True), ("IonelBadea", 3000, 153000, True)]
    assert hand.started_at == datetime(2012, 2, 21, 22, 3, 5)


@needs_corpus
def test_winners_and_the_pots_they_collected(hands: dict[str, Hand]) -> None:
    hand = hands["888-143941368"]  # the main pot, a side pot split, a second side pot; 30 not called
    assert hand.awards == (Award("Hero", 469200), Award("FOGGY4G", 31800), Award("Fair_Play888", 31800),
                           Award("Fair_Play888", 24000))
    assert [(a.player, a.amount) for a in hand.actions if a.kind == "return"] == [("IonelBadea", 3000)]
    assert faults(hand) == []


@needs_corpus
def test_an_uncalled_bet_pushed_apart_or_with_the_pot(hands: dict[str, Hand]) -> None:
    apart = hands["888-384829651"]  # "collected [ $2,240 ]": the pot without the 3,120 not called
    assert [a.amount for a in apart.actions if a.kind == "return"] == [312000]
    assert apart.awards == (Award("Player7", 224000),)
    pushed = hands["888-384831647"]  # "collected [ $33,190 ]": the 30,070 not called pushed with it
    assert [a.amount for a in pushed.actions if a.kind == "return"] == [3007000]
    assert pushed.awards == (Award("Player3", 312000),)
    # a limit hand whose raiser "collected [ $10 ]", the return, beside the all-in blind's pot
    blind = hands["888-418361264"]
    assert [(a.player, a.amount) for a in blind.actions if a.kind == "return"] == [("Hero", 1000)]
    assert (blind.awards, blind.rake) == ((Award("Player0", 2375),), 125)
    for hand in (apart, pushed, blind):
        assert faults(hand) == []


@needs_corpus
def test_the_rake_is_what_a_cash_games_pushes_leave(hands: dict[str, Hand]) -> None:
    assert (hands["888-548154959"].rake, hands["888-548154959"].total_pot) == (30, None)  # 5% of $6
    assert hands["888-143941009"].rake is None  # a tournament: no rake
    walk = hands["888-385494443"]  # "posts dead blind [$25 + $0]": a dead small blind, no live part
    posts = [(a.player, a.amount, a.detail) for a in walk.actions if a.kind == "post"]
    assert posts == [("Hero", 2500, "small_blind"), ("Player2", 5000, "big_blind"),
                     ("Player0", 2500, "dead_blind")]
    assert (walk.awards, walk.rake) == ((Award("Player2", 7500),), 0)  # $100 collected, $25 of it returned


@needs_corpus
def test_a_fold_before_the_deal_is_a_player_sitting_out(hands: dict[str, Hand]) -> None:
    hand = hands["888-311162064"]  # "SkiNNeR14 folds" among the blinds: the big blind passed to the next
    assert [s.player for s in hand.seats if s.sitting_out] == ["SkiNNeR14"]
    assert all(a.player != "SkiNNeR14" for a in hand.actions)
    assert faults(hand) == []


@needs_corpus
def test_the_small_blind_as_posted_where_the_header_halves_an_odd_big_blind(hands: dict[str, Hand]) -> None:
    hand = hands["888.ca-on-6551093"]  # "$0.12/$0.25 Blinds", "posts small blind [$0.10]"
    assert (hand.stakes.small_blind, hand.stakes.big_blind) == (10, 25)


@needs_corpus
def test_an_all_in_ante_wins_only_the_antes_it_matched(hands: dict[str, Hand]) -> None:
    hand = hands["888-190627712"]  # gmartin2011 all-in for a 15 ante of 30 wins 15 from each of 8
    assert hand.rules_profile == "888poker" and hand.awards[0] == Award("gmartin2011", 12000)
    assert faults(hand) == []
    assert faults(hand, "barge-2025") == ["WRONG_AWARD"]  # BARGE's antes are dead money of the main pot: 225


@needs_corpus
def test_a_pot_the_record_awards_to_nobody_is_settled_by_the_rules(hands: dict[str, Hand]) -> None:
    hand = hands["888-424764397"]  # "Player4 did not show his hand", and no "collected" line
    assert hand.awards == () and hand.rake is None
    assert faults(hand) == []


@needs_corpus
def test_the_five_cards_of_a_description_are_read_and_checked(hands: dict[str, Hand]) -> None:
    hand = hands["888-440985926"]  # Omaha Hi/Lo: "(Hi: Jd, Jc, 2d, 2s, Ks)", "(Lo: 2s, 4d, 5h, 6c, Ac)"
    shows = {a.player: a.detail for a in hand.actions if a.kind == "show"}
    assert (shows["harryabc"], shows["nugsy20"]) == ("Hi: Jd, Jc, 2d, 2s, Ks", "Lo: 2s, 4d, 5h, 6c, Ac")
    assert hand.awards == (Award("harryabc", 23800), Award("nugsy20", 23800)) and faults(hand) == []
    # a pair of Queens the cards make, but not harryabc's best high hand
    worse = tuple(replace(a, detail="Hi: Qd, Qh, Ks, Jc, 5h") if a.kind == "show" and a.player == "harryabc"
                  else a for a in hand.actions)
    assert faults(replace(hand, actions=worse)) == ["MISDESCRIBED_HAND"]


def test_every_888poker_rule_is_in_its_profile_table() -> None:
    doc = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
    table = doc.split("### The `888poker` rules profile", 1)[1].split("\n### ", 1)[0]
    differing = {k: v for k, v in PROFILES["888poker"].items() if PROFILES["barge-2025"][k] != v}
    assert differing == {"short_ante": "capped"}
    for option, value in differing.items():
        row = next((line for line in table.splitlines() if line.startswith(f"| `{option}` |")), "")
        assert f"`{value}`" in row and "888-" in row, option  # the hand that shows it


# ---- files and errors ----------------------------------------------------------------------


def test_the_example_reads_and_the_format_is_told_by_content() -> None:
    hand = parse_888(EXAMPLE)
    assert (hand.hand_id, hand.site, hand.currency, hand.rake, hand.table_name, hand.max_seats) == (
        "888-1", "888poker", "USD", 0, "Olga", 6)
    assert detect_text(EXAMPLE) == "888poker" and sniff(EXAMPLE.split("\n", 1)[1])
    assert detect_text("***** Cassava Hand History for Game 5 *****\n") == "888poker"


def test_a_broken_line_is_a_located_error() -> None:
    broken = EXAMPLE.replace("Ann raises [$5]", "Ann raises $5")
    with pytest.raises(HandSyntaxError) as caught:
        parse_888(broken)
    assert (caught.value.line, caught.value.column) == (13, 12)
    assert "'['" in caught.value.expected
    bad_card = EXAMPLE.replace("[ Ah, Kd ]", "[ Ah, Zd ]")
    with pytest.raises(HandSyntaxError) as caught:
        parse_888(bad_card)
    assert (caught.value.line, caught.value.column) == (12, 20)
    assert caught.value.expected == ("a card such as Ah, Td",)


def test_a_hand_cut_off_before_its_summary_says_so() -> None:
    cut = EXAMPLE.split("** Summary **")[0]
    with pytest.raises(HandSyntaxError, match="cut off"):
        parse_888(cut)
    with pytest.raises(HandSyntaxError, match="cut off"):
        parse_888(cut + "Bo fol")


def test_a_file_of_hands_splits_on_the_game_number(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    second = EXAMPLE.replace("#Game No : 1", "#Game No : 2").replace("for Game 1", "for Game 2")
    path.write_text(EXAMPLE + second, encoding="utf-8")
    assert [b.line for b in read_blocks(path, split_888)] == [1, 18]
