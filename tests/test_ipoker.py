"""The iPoker reader on the real corpus (../shared/corpus/ipoker): every file ingests, hands read
field by field (amounts after the uncalled bet, the rake, units, winners, antes, sitting out),
located errors for malformed XML and an entity-expansion attack refused. The findings left on the
corpus are held to docs/interop.md's list by tests/test_precision.py."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from evaluator.replay import replay
from grammar.errors import HandSyntaxError
from grammar.ipoker_reader import EXAMPLE, parse_ipoker, sniff, split_ipoker
from pipeline.formats import detect_format
from pipeline.model import Award, Hand
from pipeline.sources import read_blocks
from pipeline.units import unit_of
from tests.conftest import SHARED, faults_in, ingest_report

CORPUS = SHARED / "corpus" / "ipoker"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the iPoker corpus is not at {CORPUS} (see README: shared corpus)")


@pytest.fixture(scope="module")
def corpus_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """`barge ingest` of the whole corpus, with its audit, as users run it."""
    return ingest_report([CORPUS], tmp_path_factory.mktemp("ipoker") / "ip.duckdb")


@pytest.fixture(scope="module")
def corpus_hands() -> dict[str, Hand]:
    hands: dict[str, Hand] = {}
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file()):
        for block in read_blocks(path, split_ipoker):
            hand = parse_ipoker(block.text)
            hands.setdefault(hand.hand_id, hand)  # the first of two hands the sample numbers alike
    return hands


# ---- the corpus ----------------------------------------------------------------------------


@needs_corpus
def test_every_file_ingests_and_only_the_id_clashes_are_refused(corpus_report: dict[str, object]) -> None:
    files = corpus_report["files"]
    assert isinstance(files, list)
    assert len(files) == 20 and all(f["status"] == "ingested" and f["format"] == "ipoker" for f in files)
    assert (corpus_report["blocks"], corpus_report["hands"], corpus_report["rejects"],
            corpus_report["duplicates"]) == (490, 488, 2, 0)
    assert corpus_report["by_variant"] == {"texas_holdem": 335, "omaha": 33, "stud": 119,
                                           "short_deck_holdem": 1}
    # fpdb's anonymised sample gives two different hands each of two game codes: the second is refused
    details = corpus_report["reject_details"]
    assert isinstance(details, list)
    assert sorted((Path(r["path"]).name, r["line"]) for r in details) == [
        ("NLHE-USD-MTT-5r-201112.Sample.xml", 656), ("NLHE-USD-MTT-5r-201112.Sample.xml", 1111)]
    assert all("already stored earlier in this file with different content" in r["error"] for r in details)


@needs_corpus
def test_no_error_or_warning_on_the_corpus(corpus_report: dict[str, object]) -> None:
    found = faults_in(corpus_report)
    assert found == Counter()


@needs_corpus
def test_units_and_currencies(corpus_hands: dict[str, Hand]) -> None:
    units = Counter(unit_of(h) for h in corpus_hands.values())
    assert units == {"USD": 36, "EUR": 9, "GBP": 1, "RSD": 1, "T:iPoker:657149000": 287,
                     "T:iPoker:699476041": 117, "T:iPoker:770109371": 20, "T:iPoker:823161661": 14,
                     "T:iPoker:16727068": 1, "T:iPoker:21387633": 1, "T:iPoker:799557276": 1}
    assert {h.site for h in corpus_hands.values()} == {"iPoker"}
    # the table's currency, not the account's (<currency>GBP at a dollar table)
    assert corpus_hands["IP-5338624766"].currency == "USD"
    # a tournament bought in with points has no currency; <tournamentcode> names the tournament
    assert corpus_hands["IP-3869735050"].currency == "USD"
    fpp = [h for h in corpus_hands.values() if h.tournament == "823161661"]
    assert {h.currency for h in fpp} == {None}
    assert corpus_hands["IP-3826297126"].tournament == "21387633"
    assert corpus_hands["IP-3826297126"].table_name is None  # a tournament's <tablename> is not its table


@needs_corpus
def test_the_uncalled_bet_is_taken_off_the_win(corpus_hands: dict[str, Hand]) -> None:
    # "win" holds the uncalled €5.50 with the pot of €8 less €0.40 rake
    six_plus = corpus_hands["IP-7423436714"]
    stakes = six_plus.stakes
    assert (six_plus.variant, stakes.small_blind, stakes.big_blind) == ("short_deck_holdem", 25, 50)
    assert six_plus.awards == (Award("mickymurphy", 760),) and six_plus.rake == 40
    assert [(a.player, a.amount) for a in six_plus.actions if a.kind == "return"] == [("mickymurphy", 550)]
    # the file fpdb names "uncalled less than rake": £5.95 is the pot £6.05 and the £0.30 returned, less £0.40
    gbp = corpus_hands["IP-4989273264"]
    assert gbp.awards == (Award("Ponsaltos", 565),) and gbp.rake == 40
    # a session that says <uncalled_bet_enabled>true pushes the pot alone
    walk = corpus_hands["IP-4419495872"]
    assert walk.awards == (Award("vecchiolupo22", 500),) and walk.rake == 0
    assert [(a.player, a.amount) for a in walk.actions if a.kind == "return"] == [("vecchiolupo22", 250)]


@needs_corpus
def test_actions_as_the_types_say(corpus_hands: dict[str, Hand]) -> None:
    # type 6: the chips put in ($30 over the $10 small blind: a raise to $40); type 23: to the total
    flat = corpus_hands["IP-2686565878"]
    assert [(a.amount, a.to_amount) for a in flat.actions if a.kind == "raise"] == [(2000, 4000)]
    assert (flat.stakes.small_bet, flat.stakes.big_bet) == (2000, 4000)  # "LH 20/40 x2 Limit $10.00/$20.00"
    # type 7: all-in, the chips put in
    shove = corpus_hands["IP-3826297126"]
    assert [(a.kind, a.to_amount, a.all_in) for a in shove.actions if a.kind == "raise"] == [
        ("raise", 36449600, True)]
    assert shove.awards == (Award("P793-132146TM", 12800000),) and shove.rake is None


@needs_corpus
def test_antes_sitting_out_and_the_button(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["IP-5338624766"]  # Player3 antes, then sits out (type 9): the big blind passes on
    assert {s.player for s in hand.seats if s.sitting_out} == {"Player0", "Player1", "Player3"}
    assert ("ante", "Player3", 2) in [(a.kind, a.player, a.amount) for a in hand.actions]
    assert [(a.player, a.detail) for a in hand.actions if a.kind == "post"] == [
        ("Player2", "small_blind"), ("Hero", "big_blind")]
    stud = corpus_hands["IP-2418629537"]
    limits = stud.stakes
    assert (limits.ante, limits.bring_in, limits.small_bet, limits.big_bet) == (1, 2, 5, 10)
    assert stud.awards == (Award("Hero", 13),) and stud.button_seat is None
    # no seat marked dealer: the button is the seat dealt in before the small blind's
    assert corpus_hands["IP-3869492660"].button_seat == 7


@needs_corpus
def test_the_ipoker_profile_allows_stud_double_bet_with_an_open_pair(corpus_hands: dict[str, Hand]) -> None:
    # Player13 shows 7d 7h on 4th street and bets 800 at 400/800 (docs/interop.md, the `ipoker` profile)
    hand = corpus_hands["IP-4045005063"]
    assert hand.rules_profile == "ipoker" and replay(hand) == []
    assert [f.code.name for f in replay(hand, "barge-2025")] == ["WRONG_LIMIT_BET"]


@needs_corpus
def test_a_file_that_stops_where_game_closes_is_read(corpus_hands: dict[str, Hand]) -> None:
    hand = corpus_hands["IP-3256372946"]
    assert hand.awards == (Award("Player0", 13900),)
    assert "the record ends without </game>" in (hand.actions[0].detail or "")


@needs_corpus
def test_detected_by_content() -> None:
    for path in (p for p in CORPUS.rglob("*") if p.is_file()):
        assert detect_format(path)[0] == "ipoker", path


# ---- errors --------------------------------------------------------------------------------


def test_blocks_keep_the_game_line_and_the_session() -> None:
    blocks = list(split_ipoker(EXAMPLE.splitlines(keepends=True)))
    assert [b.line for b in blocks] == [9]
    assert blocks[0].text.startswith('<game gamecode="77">') and "<gametype>Holdem NL" in blocks[0].text
    assert sniff(EXAMPLE) and not sniff("PokerStars Hand #1: ...")


def test_malformed_xml_is_located(tmp_path: Path) -> None:
    broken = EXAMPLE.replace('<action no="3" player="Bo"', '<action no="3" player="Bo" player="x"')
    with pytest.raises(HandSyntaxError) as error:
        parse_ipoker(next(split_ipoker(broken.splitlines())).text)
    assert "malformed XML: duplicate attribute" in error.value.message
    # through ingest, the line and column of the file
    path = tmp_path / "broken.xml"
    path.write_text(broken, encoding="utf-8")
    report = ingest_report([path], tmp_path / "b.duckdb")
    details = report["reject_details"]
    assert isinstance(details, list) and len(details) == 1
    line = broken.splitlines().index(next(r for r in broken.splitlines() if 'player="x"' in r)) + 1
    assert (details[0]["line"], details[0]["column"]) == (line, 30)


def test_a_game_cut_off_mid_play_is_refused_as_such() -> None:
    # the file stops where </game> was due, with Ann still to act on Bo's raise
    cut = EXAMPLE.replace('<action no="4" player="Ann" type="0" sum="$0"/>', "")
    cut = cut[: cut.index("</game>")]
    block = next(split_ipoker(cut.splitlines()))
    with pytest.raises(HandSyntaxError) as error:
        parse_ipoker(block.text)
    assert error.value.message == ("the hand is cut off: the record ends before </game> (Ann is still to act "
                                   "on the hole cards)")
    assert block.line + error.value.line - 1 == cut.rstrip().count("\n") + 1  # the file's last line


def test_an_entity_expansion_attack_is_refused(tmp_path: Path) -> None:
    laughs = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    bomb = f'<!DOCTYPE game [<!ENTITY l0 "lol">{laughs}]>'
    # a declaration inside a block is refused before anything is expanded
    text = next(split_ipoker(EXAMPLE.splitlines())).text.replace("<game ", bomb + "<game ", 1)
    started = time.monotonic()
    with pytest.raises(HandSyntaxError) as error:
        parse_ipoker(text.replace("Bo</cards>", "&l9;</cards>"))
    assert "document type declaration is refused" in error.value.message
    # in a file, before the session: the entity is undeclared where the game uses it
    path = tmp_path / "bomb.xml"
    path.write_text(bomb + EXAMPLE.replace('player="Bo">X X', 'player="Bo">&l9;'), encoding="utf-8")
    report = ingest_report([path], tmp_path / "bomb.duckdb")
    details = report["reject_details"]
    assert isinstance(details, list) and "undefined entity" in details[0]["error"]
    assert time.monotonic() - started < 30
