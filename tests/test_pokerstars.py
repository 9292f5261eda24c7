"""The PokerStars reader on the real corpus: what ingests and what is refused, how each game maps,
hands read field by field and the description check. The findings left on the corpus are held
to docs/interop.md's list by tests/test_precision.py."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES, GAMES, ROOM_GAMES
from evaluator.descriptions import misdescribed, parts, read
from evaluator.replay import replay, replay_hand
from evaluator.variants import VARIANTS
from grammar.errors import HandSyntaxError
from grammar.pokerstars_games import GAME_IDS
from grammar.pokerstars_parser import EXAMPLE, parse_pokerstars, sniff, split_pokerstars
from pipeline.cli import main
from pipeline.formats import detect_format
from pipeline.model import Action, Award, Hand
from pipeline.sources import read_blocks
from tests.conftest import SHARED, ingest_report, read_hands

CORPUS = SHARED / "corpus" / "pokerstars"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the PokerStars corpus is not at {CORPUS} (see README: shared corpus)")

# Every hand the corpus refuses, and why: the file itself cancels or cuts off each one.
EXPECTED_REJECTS = {
    ("cash/Draw/3-Draw-Limit-USD-1-2-200809.Hand.cancelled.txt", 7): "cancelled",
    ("cash/Flop/PLO-6max-USD-200-400-201510.partial.observed.txt", 6): "cancelled",
    ("cash/Flop/PLO-6max-USD-200-400-201510.partial.observed.txt", 12): "cut off",
    ("tour/Flop/NLHE-9max-Freeroll-MTT-201209.concatenated.partial.txt", 110): "cut off",
    ("tour/Flop/NLHE-9max-Freeroll-MTT-201209.concatenated.partial.txt", 1436): "cut off",
}

EXPECTED_VARIANTS = {
    "texas_holdem": 444, "omaha_hi_lo": 94, "deuce_to_seven_triple_draw": 36, "stud_hi_lo": 26,
    "razz": 19, "stud": 17, "omaha": 10, "five_card_draw": 6, "five_card_omaha": 5, "six_card_omaha": 4,
    "big_o": 2, "courchevel": 2, "courchevel_hi_lo": 2, "deuce_to_seven_lowball": 1, "six_plus_holdem": 1,
}  # fmt: skip


@pytest.fixture(scope="module")
def corpus_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """`barge ingest` of the whole corpus, with its audit, as users run it."""
    return ingest_report([CORPUS], tmp_path_factory.mktemp("pokerstars") / "ps.duckdb")


@pytest.fixture(scope="module")
def corpus_hands() -> dict[str, Hand]:
    return read_hands(CORPUS, split_pokerstars, parse_pokerstars)


# ---- the corpus ----------------------------------------------------------------------------


@needs_corpus
def test_every_file_ingests_and_only_cancelled_or_cut_off_hands_are_refused(
    corpus_report: dict[str, object],
) -> None:
    files = corpus_report["files"]
    assert isinstance(files, list)
    assert len(files) == 89 and all(f["status"] == "ingested" and f["format"] == "pokerstars" for f in files)
    found = {}
    for reject in corpus_report["reject_details"]:  # type: ignore[attr-defined]
        key = (str(Path(reject["path"]).relative_to(CORPUS)), reject["line"])
        found[key] = reject["error"]
    assert set(found) == set(EXPECTED_REJECTS)
    for key, why in EXPECTED_REJECTS.items():
        assert why in found[key], found[key]
    # one hand is in two files (a duplicate, not a reject); every block is accounted for
    assert (corpus_report["hands"], corpus_report["duplicates"], corpus_report["blocks"]) == (669, 1, 675)
    assert corpus_report["by_variant"] == EXPECTED_VARIANTS


@needs_corpus
def test_the_cut_and_pasted_file_splits_where_the_next_hand_starts() -> None:
    path = CORPUS / "tour/Flop/NLHE-9max-Freeroll-MTT-201209.concatenated.partial.txt"
    blocks = list(read_blocks(path, split_pokerstars))
    cut = [b for b in blocks if b.line in (80, 1407)]
    assert [b.text.splitlines()[-1] for b in cut] == ["*** RIVER *** [4d Kh J", "Player25:"]
    following = next(b for b in blocks if b.line == 110)
    assert parse_pokerstars(following.text).hand_id == "PS-86564270670"


# ---- hands field by field ------------------------------------------------------------------


@needs_corpus
def test_run_it_twice_is_two_boards_and_two_runs_of_awards(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["PS-90721705235"]
    assert (hand.variant, hand.structure, hand.total_pot, hand.rake) == (
        "texas_holdem", "no-limit", 22532, 215)
    assert hand.started_at == datetime(2012, 12, 13, 19, 59, 19)  # the ET time in brackets
    run_it = next(a for a in hand.actions if a.kind == "run_it")
    assert (run_it.street, run_it.amount) == ("turn", 2)
    boards = [(a.street, a.detail, a.cards) for a in hand.actions if a.kind == "board"]
    assert boards == [("flop", "1", ("Js", "9h", "Jh")), ("turn", "1", ("Qs",)), ("river", "1", ("2d",)),
                      ("river", "2", ("5h",))]
    assert hand.awards == (Award("Hero", 11159, 0, "run 1"), Award("Hero", 11158, 0, "run 2"))
    # the summary's "mucked [9s Ah]" is the muck's cards; the second showing joins the first
    assert next(a for a in hand.actions if a.kind == "muck").cards == ("9s", "Ah")
    show = next(a for a in hand.actions if a.kind == "show")
    assert show.detail == "three of a kind, Jacks; three of a kind, Jacks"
    assert replay(hand) == []


@needs_corpus
def test_a_cash_out_keeps_the_summary_award_and_the_site_note(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["PS-212394558154"]
    assert hand.variant == "six_card_omaha"
    assert hand.awards == (Award("Hero", 10908, 0, None),)  # "won ($109.08) ... (pot not awarded ...)"
    notes = [a.detail for a in hand.actions if a.kind == "note"]
    assert notes == ["Hero cashed out the hand for $56.99 | Cash Out Fee $0.58"]
    outcome = replay_hand(hand)
    assert outcome.findings == [] and outcome.awards is not None and outcome.ending is not None
    # `cash_out=counted`: Hero is paid the $56.99 cash-out and the site keeps the pot
    assert [(s.player, s.amount, s.portion) for s in outcome.awards] == [("Hero", 5699, "cash out")]
    assert outcome.ending["Hero"] == 14711 - 5529 + 5699


@needs_corpus
def test_a_tournament_hand_keeps_level_bounties_and_stacks(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["PS-161353453648"]
    assert (hand.tournament, hand.level, hand.table_name, hand.max_seats, hand.button_seat) == (
        "1716600424", "IX (300/600)", "1716600424 37", 9, 4)
    assert hand.event == "PokerStars, $332.50+$332.50+$35.00 USD"
    assert (hand.stakes.small_blind, hand.stakes.big_blind, hand.stakes.ante) == (30000, 60000, 6000)
    assert [(s.number, s.player, s.stack) for s in hand.seats][:2] == [(1, "Player0", 3680600),
                                                                      (2, "Player1", 2755200)]
    assert hand.actions[0] == Action("hole_cards", "note", None, detail=(
        "bounties: Player0 $332.50, Player1 $332.50, Player2 $498.75, Player3 $332.50, Player4 $332.50, "
        "Player5 $332.50, Player6 $665, Player7 $332.50, Player8 $332.50"))
    split = corpus_hands["PS-85723676180"]
    assert split.awards == (Award("Player4", 750500, 0, None), Award("Player6", 750500, 0, None))
    assert "Player4, Player6 split the $50 bounty for eliminating Player2" in [
        a.detail for a in split.actions if a.kind == "note"]


@needs_corpus
def test_stud_deals_split_into_down_and_up_and_the_common_card(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["PS-30506593746"]
    assert (hand.variant, hand.stakes.small_bet, hand.stakes.ante, hand.stakes.bring_in) == ("stud", 4, 1, 2)
    deals = [(a.street, a.detail, a.cards) for a in hand.actions
             if a.kind == "deal" and a.player == "Player2"]
    assert deals[:3] == [("3rd_street", "down", ("??", "??")), ("3rd_street", "up", ("Tc",)),
                         ("4th_street", "up", ("7d",))]
    assert [(a.street, a.detail, a.cards) for a in hand.actions if a.kind == "board"] == [
        ("7th_street", "common", ("6h",))]


@needs_corpus
def test_draws_follow_the_discards_and_a_single_draw_starts_its_street(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["PS-153148513639"]
    steps = [(a.street, a.kind, a.player, a.cards) for a in hand.actions if a.kind in ("discard", "draw")]
    assert steps == [
        ("draw", "discard", "Player0", ("??", "??", "??")), ("draw", "draw", "Player0", ("??", "??", "??")),
        ("draw", "discard", "Hero", ("Jd", "7d", "5c")), ("draw", "draw", "Hero", ("3s", "8s", "As"))]
    assert (hand.stakes.small_blind, hand.stakes.big_blind, hand.stakes.small_bet, hand.stakes.big_bet) == (
        1500, 3000, 3000, 6000)


@needs_corpus
def test_six_plus_holdem_with_a_button_blind(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["PS-213326978771"]
    assert hand.variant == "six_plus_holdem" and hand.rules_profile == "pokerstars"
    assert (hand.stakes.big_blind, hand.stakes.ante) == (25, 25)
    assert hand.actions[0] == Action("hole_cards", "post", "Player1", 25, detail="button_blind")
    assert hand.awards == (Award("Hero", 7168, 0, None),)


@needs_corpus
def test_other_sites_keep_their_hand_numbers_behind_a_prefix(corpus_hands: dict[str, Hand]) -> None:
    prefixes = Counter(hand_id.split("-")[0] for hand_id in corpus_hands)
    assert prefixes == Counter({"PS": 637, "FT": 25, "RIO": 5, "PM": 1, "PB": 1})
    assert corpus_hands["PM-1905261509100000"].variant == "five_card_omaha"  # "Omaha", five cards dealt


@needs_corpus
def test_histories_without_uncalled_lines_get_their_return(corpus_hands: dict[str, Hand]) -> None:
    # 2005: the pot leaves the big blind's unmatched half out; Run It Once pushes it with the pot.
    old = corpus_hands["PS-2467687491"]
    assert [a for a in old.actions if a.kind == "return"] == [Action("hole_cards", "return", "Hero", 50)]
    assert old.awards == (Award("Hero", 100, 0, None),) and old.total_pot == 100
    rio = corpus_hands["RIO-30417551"]
    assert [a.amount for a in rio.actions if a.kind == "return"] == [5]
    assert rio.awards == (Award("Ari L", 10, 0, None),) and rio.total_pot == 10
    assert not any(a.kind == "muck" for a in rio.actions)  # the last player in "mucks": no muck


@needs_corpus
def test_the_pokerstars_profile_is_what_its_records_need(corpus_hands: dict[str, Hand]) -> None:
    # a short all-in big blind leaves the full blind to call; Stud's double bet on an open pair
    short = corpus_hands["PS-75726253875"]
    assert replay(short) == []
    assert [f.code.name for f in replay(short, "barge-2025")] == ["WRONG_CALL_AMOUNT"] * 2
    stud = corpus_hands["PS-99632512109"]
    assert replay(stud) == []
    assert [f.code.name for f in replay(stud, "barge-2025")] == ["WRONG_LIMIT_BET"]


@needs_corpus
def test_a_rake_taken_from_every_pot_is_no_misaward(corpus_hands: dict[str, Hand]) -> None:
    # PokerStars rakes each pot in proportion; the settlement takes the rake from the main pot
    hand = corpus_hands["PS-22865231671"]
    assert hand.rake == 18 and [a.pot for a in hand.awards] == [2, 1, 0]
    assert replay(hand) == []


# ---- games ----------------------------------------------------------------------------------


def _minimal(game: str, stakes: str = "($1/$2 USD)") -> str:
    return (f"PokerStars Hand #7: {game} {stakes} - 2020/01/02 03:04:05 ET\n"
            "Table 'T' 6-max Seat #1 is the button\nSeat 1: Ann ($100 in chips)\nSeat 2: Bo ($100 in chips)\n"
            "*** SUMMARY ***\nTotal pot $0 | Rake $0\n")


@pytest.mark.parametrize("name", sorted(GAME_IDS))
def test_every_pokerstars_game_maps_to_a_catalog_id(name: str) -> None:
    hand = parse_pokerstars(_minimal(f"{name.title()} Limit"))
    expected = "short_deck_holdem" if name == "6+ hold'em" else GAME_IDS[name]  # blinds, no button blind
    assert (hand.variant, hand.structure) == (expected, "limit")


def test_the_rooms_games_stay_apart_from_the_59() -> None:
    assert len(GAMES) == len(VARIANTS) == 59 and not set(ROOM_GAMES) & set(GAMES)
    assert set(ROOM_GAMES) == {"six_card_omaha", "six_card_omaha_hi_lo", "courchevel_hi_lo",
                               "six_plus_holdem", "split_holdem"}
    assert ROOM_GAMES["courchevel_hi_lo"].rule == "BARGE 2025 §2.13, as extended by PokerStars"
    assert ROOM_GAMES["six_plus_holdem"].variant.extends == "short_deck_holdem"
    assert set(GAME_IDS.values()) <= set(ALL_GAMES)


def test_structures_case_and_mixed_games() -> None:
    assert parse_pokerstars(_minimal("7 CARD STUD HI/LO POT LIMIT")).variant == "stud_hi_lo"
    mixed = parse_pokerstars(_minimal("Mixed Omaha (5 Card Omaha Hi/Lo No Limit)").replace(
        "Hand #7: ", "Hand #7: Tournament #5, $1+$0.10 USD "))
    assert (mixed.variant, mixed.structure, mixed.tournament, mixed.event) == (
        "big_o", "no-limit", "5", "PokerStars, $1+$0.10 USD, Mixed Omaha")


def test_lines_the_corpus_lacks() -> None:
    text = EXAMPLE.replace("Table 'Olga' 6-max", "Table 'Olga' 6-max (Play Money)").replace(
        "Seat 2: Bo ($200 in chips)\n", "Seat 2: Bo ($200 in chips)\nSeat 3: Cy ($200 in chips)\n").replace(
        "Bo: posts big blind $2\n", "Bo: posts big blind $2\nCy: posts small & big blinds $3\n").replace(
        "Bo: folds\n", "Bo: folds\nCy: folds [7c 2d]\nCy said, \"gg: wp\"\n").replace(
        "Ann collected $4 from pot\n", "Ann collected $7 from pot\nAnn takes the add-on and receives 1500 "
        "chips for $1\n").replace("Total pot $4", "Total pot $7")
    hand = parse_pokerstars(text)
    assert hand.event == "PokerStars, USD, play money"
    posts = [(a.player, a.amount, a.detail) for a in hand.actions if a.kind == "post"]
    assert posts == [("Ann", 100, "small_blind"), ("Bo", 200, "big_blind"), ("Cy", 200, "big_blind"),
                     ("Cy", 100, "dead_blind")]
    assert next(a for a in hand.actions if a.player == "Cy" and a.kind == "fold").cards == ("7c", "2d")
    assert [a.detail for a in hand.actions if a.kind == "note"] == [
        "Ann takes the add-on and receives 1500 chips for $1"]  # the chat is dropped


# ---- errors and detection -------------------------------------------------------------------


def test_a_bad_line_is_a_located_error() -> None:
    with pytest.raises(HandSyntaxError) as caught:
        parse_pokerstars(EXAMPLE.replace("Ann: raises $4 to $6", "Ann: raises $4 too $6"))
    error = caught.value
    assert (error.line, error.column) == (8, 18)  # where "to" stops making sense
    assert (error.message, error.expected) == ("unexpected 'too'", ("an amount",))


def test_unknown_games_unseated_players_cancelled_and_cut_off_hands_say_why() -> None:
    with pytest.raises(HandSyntaxError, match="not seated"):
        parse_pokerstars(EXAMPLE.replace("Bo: folds", "Cy: folds"))
    with pytest.raises(HandSyntaxError, match="cancelled") as cancelled:
        parse_pokerstars(EXAMPLE.replace("*** HOLE CARDS ***", "Hand cancelled"))
    assert cancelled.value.line == 7
    with pytest.raises(HandSyntaxError, match="cut off"):
        parse_pokerstars(EXAMPLE.split("*** SUMMARY ***")[0])
    with pytest.raises(HandSyntaxError, match="cut off"):
        parse_pokerstars(EXAMPLE.split("Bo: folds")[0] + "Bo: fo")
    with pytest.raises(HandSyntaxError) as unknown:
        parse_pokerstars(_minimal("Pineapple Limit"))
    assert unknown.value.line == 1 and "a game such as Hold'em or 7 Card Stud" in unknown.value.expected


def test_a_pokerstars_file_is_read_by_its_content(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "export.dat"
    path.write_text("\ufeff\n" + EXAMPLE + "\n\n" + EXAMPLE.replace("#1:", "#2:"), encoding="utf-8")
    assert detect_format(path) == ("pokerstars", "")
    capsys.readouterr()
    assert main(["ingest", str(path), "--db", str(tmp_path / "d.duckdb"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["hands"], report["rejects"], report["files"][0]["format"]) == (2, 0, "pokerstars")
    assert sniff("*********** # 1 **************\n PokerStars Zoom Hand #9:  Hold'em No Limit")
    assert not sniff("Notes: PokerStars Hand #1 was a cooler\n")


# ---- descriptions ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "category", "ranks"), [
    ("a pair of Kings - lower kicker", "pair", ("K",)),
    ("two pair, Jacks and Sevens - Ace kicker", "two pair", ("J", "7")),
    ("three of a kind, Deuces", "three of a kind", ("2",)),
    ("a straight, Ace to Five", "straight", ("5",)),
    ("a flush, Queen high - lower cards", "flush", ("Q",)),
    ("a full house, Sixes full of Threes", "full house", ("6", "3")),
    ("high card Ace - King+Queen+Nine kicker", "high card", ("A",)),
    ("9,7,6,4,2", "high card", ("9", "7", "6", "4", "2")),
    ("four-card badugi 7-4-3-2", "badugi", ("4", "7", "4", "3", "2")),
])  # fmt: skip
def test_descriptions_are_read(text: str, category: str, ranks: tuple[str, ...]) -> None:
    reading = read(text)
    assert reading is not None and (reading.category, reading.ranks) == (category, ranks)


def test_labels_and_unknown_forms() -> None:
    assert parts("Lo: a pair of Eights") == [("low", "a pair of Eights")]
    assert read("Full House J's and A's") is None  # not PokerStars' words: not judged


def test_a_misdescribed_pokerstars_hand_is_a_finding() -> None:
    text = EXAMPLE.replace("Ann: raises $4 to $6\nBo: folds\nUncalled bet ($4) returned to Ann\n",
                           "Ann: calls $1\nBo: checks\n*** FLOP *** [Kd 8h 3s]\n"
                           "*** TURN *** [Kd 8h 3s] [4c]\n*** RIVER *** [Kd 8h 3s 4c] [Jh]\n"
                           "*** SHOW DOWN ***\n"
                           "Bo: shows [Kh 8c] (a pair of Kings)\nAnn: shows [Qd Qs] (a pair of Queens)\n")
    text = text.replace("Ann collected $4 from pot", "Bo collected $4 from pot")
    hand = parse_pokerstars(text)
    findings = replay(hand)
    assert [(f.code.name, f.severity, f.rule) for f in findings] == [
        ("MISDESCRIBED_HAND", "warning", "BARGE 2025 §2.51")]
    assert "two pair, Kings and Eights" in findings[0].message
    fixed = parse_pokerstars(text.replace("(a pair of Kings)", "(two pair, Kings and Eights)"))
    assert replay(fixed) == []


def test_misdescribed_says_nothing_without_the_cards() -> None:
    from evaluator.settle import Seat, Table

    table = Table("texas_holdem", (Seat("Ann", 1, 100, cards=("??", "??")),), 1, {"1": ("Kd", "8h", "3s")})
    assert misdescribed(table, "Ann", "a pair of Aces") is None
