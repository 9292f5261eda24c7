"""The dashboard: every page run with Streamlit's AppTest on a database of the sample histories,
the numbers it shows checked against the database, the replayer's stepping and SVG checked on
every sample hand, uploads, a busy or missing database, and the pure modules' doctests."""

from __future__ import annotations

import base64
import doctest
import json
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import duckdb
import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from dashboard import (
    connection,
    labels,
    launch,
    queries,
    stepping,
    table_svg,
    tables,
    ui,
    uploads,
    winning,
)
from evaluator.rulebook import rule_for, rule_text
from evaluator.variants import ALL_VARIANTS, ROOM_VARIANTS
from grammar.barge_parser import parse_hand
from pipeline.accounting import recorded_ending_stacks
from pipeline.cli import main
from pipeline.formats import reader
from pipeline.sources import read_blocks
from pipeline.stats import Filters, won_sql
from pipeline.units import Unit
from tests.conftest import ROOT, SAMPLES, SHARED, sample_files

APP = ROOT / "dashboard" / "app.py"
PAGES = {"overview": "views/overview.py", "players": "views/players.py", "variants": "views/variants.py",
         "audit": "views/audit.py", "replayer": "views/replayer.py", "ingest": "views/ingest.py"}
BIG_POT_HAND, BIG_POT = "B25-london_lowball-001", "33,750 T chips"  # the samples' biggest pot
CHOWAHA_HAND = "B25-E14-T02-0005"
BAD_HAND = b"BARGE Hand #UP-1: texas_holdem no-limit (blinds 1/2)\nSeat 1: Ann (oops in chips)\n"


def build(db: Path) -> Path:
    """The samples and the audit samples (one hand breaking each rule), ingested and audited."""
    files = [*map(str, sample_files()), *map(str, sorted((SAMPLES / "audit").glob("*.bhh")))]
    assert main(["ingest", *files, "--db", str(db), "--json"]) == 0
    return db


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("dashboard") / "samples.duckdb")


@pytest.fixture
def own_db(sample_db: Path, tmp_path: Path) -> Path:
    """A copy of the sample database that a test may write."""
    return Path(shutil.copy(sample_db, tmp_path / "own.duckdb"))


def query(db: Path, sql: str) -> list[tuple[object, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


def scalar(db: Path, sql: str) -> object:
    return query(db, sql)[0][0]


def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(connection.ENV_DB, str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    return at


def open_page(at: AppTest, page: str, **params: str) -> AppTest:
    at.switch_page(PAGES[page])
    at.query_params.clear()
    at.query_params.update(params)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def every_unit(at: AppTest) -> AppTest:
    """The sidebar's unit set to every unit (the samples: a cash game's chips and each event's)."""
    at.sidebar.selectbox(key="f_unit").set_value(ui.ALL_UNITS).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def displayed(table: Any) -> pd.DataFrame:
    """A table as the page writes it: the Styler's display values (`dashboard.tables`)."""
    return pa.ipc.open_stream(table.proto.arrow_data.styler.display_values).read_all().to_pandas()


def headers(table: Any) -> dict[str, str]:
    """A table's column headings, by column (a column without a heading is shown by its name)."""
    config = json.loads(table.proto.columns)
    return {str(c): config.get(c, {}).get("label", c) for c in table.value.columns}


# ---- every page ----------------------------------------------------------------------------------


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_runs_without_errors_and_fast(sample_db: Path, monkeypatch: pytest.MonkeyPatch,
                                                  page: str) -> None:
    at = app(sample_db, monkeypatch)
    open_page(at, page)
    assert not at.error, [e.value for e in at.error]
    assert at.title
    started = time.perf_counter()
    open_page(at, page)  # a page run on a database that has not changed comes from the cache
    assert time.perf_counter() - started < 1.0


def test_overview_counts_hands_variants_and_findings(sample_db: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(sample_db, monkeypatch), "overview")
    most = query(sample_db, "SELECT unit, count(*) FROM hands GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1")[0]
    assert at.sidebar.selectbox(key="f_unit").value == most[0] and metrics(at)["Hands"] == f"{most[1]:,}"
    shown = metrics(every_unit(at))
    assert shown["Hands"] == f"{scalar(sample_db, 'SELECT count(*) FROM hands'):,}"
    assert shown["Variants"] == "59"
    assert shown["Players"] == f"{scalar(sample_db, 'SELECT count(DISTINCT player) FROM seats'):,}"
    errors = scalar(sample_db, "SELECT count(*) FROM findings WHERE severity = 'error'")
    assert shown["Errors found"] == f"{errors:,}" and errors
    assert "In pots" not in shown  # the pots of several units are not added
    big_unit = scalar(sample_db, f"SELECT unit FROM hands WHERE hand_id = '{BIG_POT_HAND}'")
    at.sidebar.selectbox(key="f_unit").set_value(big_unit).run()
    pots = next(d for d in at.dataframe if "pot" in d.value.columns)
    assert pots.value["hand"][0] == f"replayer?hand={BIG_POT_HAND}" and pots.value["pot"][0] == 33750
    assert displayed(pots)["pot"][0] == BIG_POT  # one tournament's chips, whole


def test_the_sidebar_filters_hold_across_pages(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = every_unit(open_page(app(sample_db, monkeypatch), "overview"))
    at.sidebar.selectbox(key="f_variant").set_value("razz").run()
    razz = scalar(sample_db, "SELECT count(*) FROM hands WHERE variant = 'razz'")
    assert metrics(at)["Hands"] == str(razz) and metrics(at)["Variants"] == "1"
    open_page(at, "variants")
    assert metrics(at)["Hands"] == str(razz)
    assert at.sidebar.selectbox(key="f_variant").value == "razz"
    assert at.sidebar.selectbox(key="f_unit").value == ui.ALL_UNITS


def test_players_leaderboard_and_player_page(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = every_unit(open_page(app(sample_db, monkeypatch), "players"))
    # Every unit: a row per player and unit (a player's hands in each tournament are apart).
    per_unit = ("SELECT count(*) FROM (SELECT player, h.unit FROM seats JOIN hands h USING (hand_id) "
                "WHERE NOT sitting_out GROUP BY ALL {})")
    assert len(at.dataframe[0].value) == scalar(sample_db, per_unit.format("HAVING count(*) >= 5"))
    at.slider(key="players_least").set_value(1).run()
    board = at.dataframe[0].value
    assert len(board) == scalar(sample_db, per_unit.format(""))
    top = board.sort_values("hands", ascending=False).iloc[0]
    at.selectbox(key="players_pick").set_value(top["player"]).run()
    assert not at.exception
    assert at.header[0].value == top["player"]
    assert metrics(at)["Hands"] == f"{top['hands']:,}"
    titles = [s.value for s in at.subheader]
    assert [t for t in titles if t.startswith(("Winnings", "By "))] == [
        f"Winnings hand by hand ({Unit(top['unit']).short})", "By variant", "By position"]


def test_variants_page_lists_all_59_games_and_the_rooms_own(sample_db: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    at = every_unit(open_page(app(sample_db, monkeypatch), "variants"))
    # The BARGE games and the rooms' own counted apart: never "62 of 59".
    assert metrics(at)["Variants played"] == "59 of 59"
    assert metrics(at)["Rooms' games played"] == f"0 of {len(ROOM_VARIANTS)}"
    table = at.dataframe[0].value
    assert len(table) == len(ALL_VARIANTS)
    assert table["hands"].sum() == scalar(sample_db, "SELECT count(*) FROM hands")
    assert "average_pot" not in table.columns  # pots of several units are not averaged
    assert "6 Card Omaha (a PokerStars game)" in set(displayed(at.dataframe[0])["variant"])  # by name
    six = table[table["variant"] == "six_card_omaha"].iloc[0]
    assert six["rules"] == "PokerStars game, extends §2.23" and six["hands"] == 0
    razz = table[table["variant"] == "razz"].iloc[0]
    assert razz["showdowns"] <= razz["hands"]
    # The winning hands: the game with the most showdowns first, all games together last.
    pick = at.selectbox(key="variants_pick")
    most = table.sort_values(["showdowns", "variant"], ascending=[False, True])["variant"].iloc[0]
    assert pick.value == most and pick.options[-1] == ui.ALL
    pick.select(ui.ALL).run()
    assert not at.exception and at.selectbox(key="variants_pick").value == ui.ALL


def test_audit_lists_findings_with_links_to_the_replayer(sample_db: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    at = every_unit(open_page(app(sample_db, monkeypatch), "audit"))
    errors = scalar(sample_db, "SELECT count(*) FROM findings WHERE severity = 'error'")
    assert metrics(at)["Errors"] == f"{errors:,}"
    table = at.dataframe[0].value
    assert len(table) == scalar(sample_db, "SELECT count(*) FROM findings")
    row = table[table["code"] == "AWARDS_MISMATCH"].iloc[0]
    assert row["hand"] == f"replayer?hand=AUDIT-AWARDS_MISMATCH&seq={row['seq']}"
    at.multiselect(key="audit_code").set_value(["AWARDS_MISMATCH"]).run()
    assert set(at.dataframe[0].value["code"]) == {"AWARDS_MISMATCH"}


def test_replayer_shows_a_known_pot_and_steps(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(sample_db, monkeypatch), "replayer", hand=BIG_POT_HAND)
    assert at.selectbox(key="replay_pick").value == BIG_POT_HAND
    assert metrics(at)["Pot"] == BIG_POT  # the last step: the pot pushed
    last = at.slider(key="replay_step").value
    assert isinstance(last, int)
    url = at.image[0].value[0]
    assert url.startswith("data:image/svg+xml;base64,")
    assert f"{BIG_POT_HAND} · London Lowball" in base64.b64decode(url.split(",", 1)[1]).decode()
    at.button(key="replay_prev").click().run()
    assert at.slider(key="replay_step").value == last - 1
    at.button(key="replay_first").click().run()  # the seats, before anything happened
    assert at.slider(key="replay_step").value == 0 and metrics(at)["Pot"] == "0 T chips"
    raw = scalar(sample_db, f"SELECT raw_text FROM hands WHERE hand_id = '{BIG_POT_HAND}'")
    assert isinstance(raw, str) and any(code.value.strip() == raw.strip() for code in at.code)


def test_replayer_starts_at_the_action_a_finding_cites(sample_db: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    seq = scalar(sample_db, "SELECT seq FROM findings WHERE hand_id = 'AUDIT-BET_EXCEEDS_STACK'")
    at = open_page(app(sample_db, monkeypatch), "replayer", hand="AUDIT-BET_EXCEEDS_STACK", seq=str(seq))
    assert any(":red-badge[error] **BET_EXCEEDS_STACK** at this step" in m.value for m in at.markdown)
    # BARGE 2025 §1.2: the finding is called out with the rule's words.
    assert any("BARGE 2025 §1\\.2" in m.value and "all\\-in" in m.value for m in at.markdown)


def test_a_finding_across_hands_opens_the_hand_before_at_the_table(sample_db: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Cardroom procedures, Rules for Using Blinds: Dot missed the big blind and is dealt in without
    posting it; the finding is on hand 4, and the hand before at the table is one click away."""
    later, before = "AUDIT-MISSED_BLIND_NOT_POSTED-T12-0004", "AUDIT-MISSED_BLIND_NOT_POSTED-T12-0003"
    at = open_page(app(sample_db, monkeypatch), "replayer", hand=later)
    button = at.button(key="replay_before_MISSED_BLIND_NOT_POSTED_0")
    assert button.label == f"Open the hand before at the table: {before}"
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["hand"] == before and at.selectbox(key="replay_pick").value == before
    raw = scalar(sample_db, f"SELECT raw_text FROM hands WHERE hand_id = '{before}'")
    assert isinstance(raw, str) and any(code.value.strip() == raw.strip() for code in at.code)
    # A finding of one hand alone has no hand before to open.
    at = open_page(at, "replayer", hand="AUDIT-BET_EXCEEDS_STACK")
    assert not [b for b in at.button if str(b.key).startswith("replay_before_")]


def svg_of(at: AppTest) -> str:
    url = at.image[0].value[0]
    return base64.b64decode(url.split(",", 1)[1]).decode()


def test_replayer_shows_the_record_and_the_rules_push_beside_it(sample_db: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """BARGE 2025 §2.51 (Hold'em's showdown) and §1.4: the dealer pushed side pot 1 to Ann, who
    has no part in it; the record is what the replayer steps through, the rules' push to Bo is
    beside it at that pot's step, and the finding is called out there with the rule's words."""
    at = open_page(app(sample_db, monkeypatch), "replayer", hand="AUDIT-WRONG_AWARD", seq="21")
    last = at.slider(key="replay_step").value
    assert at.text[0].value == f"Step {last} of {last}: Ann collected 2,000 from side pot 1"
    svg = svg_of(at)
    assert "record: wins 3,800" in svg and "rules: wins 2,000" in svg  # Ann as recorded, Bo by the rules
    assert "Rules, side pot 1: Bo 2,000 (pair of Kings with 9-7-5)" in svg
    assert "Record, side pot 1: Ann 2,000 (a pair of Aces)" in svg
    assert "pair of Aces with 9-7-5" in svg  # each shown hand's strength under its player
    pushes = next(d.value for d in at.dataframe if "by" in d.value.columns)
    assert list(zip(pushes["by"], pushes["player"], pushes["chips"], strict=True)) == [
        ("the record", "Ann", "2,000 chips"), ("the rules", "Bo", "2,000 chips")]
    called = [m.value for m in at.markdown if "WRONG_AWARD** at this step" in m.value]
    assert called and "Ann was pushed 2,000 from side pot 1" in called[0]
    assert any("BARGE 2025 §2\\.51 · Texas Hold'em" in m.value for m in at.markdown)
    at.button(key="replay_prev").click().run()  # the main pot: the record and the rules agree
    assert at.text[0].value.endswith("Ann collected 1,800 from main pot") and "rules:" not in svg_of(at)


def test_a_tie_pushed_whole_shows_the_split_the_rules_make(sample_db: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """BARGE 2025 §1.4: tied hands split the pot; the record pushed it whole to Ann."""
    at = open_page(app(sample_db, monkeypatch), "replayer", hand="AUDIT-TIE_NOT_SPLIT")
    pushes = next(d.value for d in at.dataframe if "by" in d.value.columns)
    assert sorted(zip(pushes["by"], pushes["player"], pushes["chips"], strict=True)) == [
        ("the record", "Ann", "400 chips"), ("the rules", "Ann", "200 chips"),
        ("the rules", "Bo", "200 chips")]
    assert "rules: wins 200" in svg_of(at) and "record: wins 400" in svg_of(at)


def test_a_finding_about_the_whole_hand_is_called_out_at_the_seats(sample_db: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(sample_db, monkeypatch), "replayer", hand="AUDIT-UNKNOWN_RULES_OPTION")
    assert not any("UNKNOWN_RULES_OPTION** at this step" in m.value for m in at.markdown)  # at the end
    at.button(key="replay_first").click().run()
    assert any("UNKNOWN_RULES_OPTION** at this step, action 0" in m.value for m in at.markdown)


def test_a_stopped_replay_says_where_and_why_and_the_pot_stays_whole(sample_db: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(sample_db, monkeypatch), "replayer", hand="AUDIT-REPLAY_STOPPED")
    assert any("Replay stopped at action 13\\: 50 returned to Bo, who has 15\\.50 in front of them" in w.value
               for w in at.warning)
    hand = parse_hand((SAMPLES / "audit" / "REPLAY_STOPPED.bhh").read_text(encoding="utf-8"))
    states = stepping.steps(hand, hand.awards)
    assert min(s.pot for s in states) >= 0 and all(p.amount >= 0 for s in states for p in s.pots)
    assert states[-1].stopped == "step 13: 50 returned to Bo, who has 15.50 in front of them"
    assert "-" not in metrics(at)["Pot"]


def test_a_run_out_dealt_a_card_a_line_is_drawn_in_its_board_positions() -> None:
    """PokerStars' Run It Twice Courchevel hand: the second run's turn and river, one card a
    line, go to positions 4 and 5 of the second board, under the first run's."""
    path = SHARED / "corpus/pokerstars/cash/Flop/PL-Courchevel-HL-6max-USD-1.00-2.00-201303.Run.It.Twice.txt"
    if not path.exists():
        pytest.skip(f"the shared corpus is not at {path.parent}")
    text = next(b.text for b in read_blocks(path) if "97007286518" in b.text.splitlines()[0])
    state = stepping.steps(hand := reader("pokerstars")(text), hand.awards)[-1]
    boards = {b.name: b.cards for b in state.boards}
    assert boards["1"] == ((1, "7h"), (2, "5d"), (3, "3s"), (4, "7s"), (5, "Ts"))
    assert boards["2"] == ((4, "2s"), (5, "4h"))
    slots = table_svg.board_slots(state)
    assert (slots["2", 4], slots["2", 5]) == ((3.0, 1.0), (4.0, 1.0))
    # Each player's hand on each run, as the rules read it (the record: "a straight, Three to Seven").
    assert stepping.strengths(hand)["Player0"][2:] == ("run 2 high: straight, Seven high",
                                                       "run 2 low: 5-4-3-2-A, number 1 in ace-to-five")


def test_the_replayer_finds_hands_by_player_board_or_id(sample_db: Path) -> None:
    with duckdb.connect(str(sample_db), read_only=True) as con:
        def found(text: str) -> set[str]:
            return set(queries.hand_list(con, Filters(), text)["hand_id"].to_list())

        assert found("wrong_award") == {"AUDIT-WRONG_AWARD"}
        ann = {h for (h,) in con.execute("SELECT DISTINCT hand_id FROM seats WHERE player ILIKE '%ann%'")
               .fetchall()}
        assert found("ann") == ann
        assert "AUDIT-WRONG_AWARD" in found("9c 5d 2h 7s") and "AUDIT-WRONG_AWARD" not in found("9c Ah")
        on_boards = "SELECT hand_id FROM actions WHERE kind = 'board' AND list_contains(cards, ?)"
        both = con.execute(f"{on_boards} INTERSECT {on_boards}", ["Ks", "Kh"]).fetchall()
        assert both and found("ks KH") == {h for (h,) in both}  # each card on one of the hand's boards


def test_the_replayer_steps_by_keys_and_plays_by_itself(sample_db: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(sample_db, monkeypatch), "replayer", hand=BIG_POT_HAND)
    shortcuts = {b.key: b.proto.shortcut for b in at.button if b.key}
    assert {k: shortcuts[k] for k in ("replay_first", "replay_prev", "replay_next", "replay_last",
                                      "replay_play")} == {"replay_first": "home", "replay_prev": "left",
                                                          "replay_next": "right", "replay_last": "end",
                                                          "replay_play": "space"}
    at.button(key="replay_play").click().run()  # from the end it plays from the start, a step a run
    assert at.session_state["replay_playing"] and at.slider(key="replay_step").value == 1
    assert at.button(key="replay_play").label == "Pause"
    at.button(key="replay_play").click().run()
    assert not at.session_state["replay_playing"] and at.button(key="replay_play").label == "Play"


# ---- findings: the rule's words and the directors' reviews ---------------------------------------


def test_every_finding_shows_its_rules_words_on_the_audit_page(sample_db: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    at = every_unit(open_page(app(sample_db, monkeypatch), "audit"))
    table = at.dataframe[0].value
    cited = {(str(c), str(r)) for c, r in query(sample_db, "SELECT DISTINCT code, rule FROM findings")}
    # Every citation of a book has its text shipped (a room's own rule, "the room's cap", has none).
    shipped = {(c, r) for c, r in cited if rule_for(r) is not None}
    assert {r for _, r in cited - shipped} <= {"the room's cap"}
    shown = zip(table["code"], table["rule"], table["rule_text"], strict=True)
    assert {(c, r) for c, r, t in shown if t} == shipped
    for code, rule in shipped:
        words = table[(table["code"] == code) & (table["rule"] == rule)]["rule_text"].iloc[0]
        assert words == rule_text(code, rule)


def test_a_review_entered_with_barge_review_appears_and_filters_the_audit(
        own_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["review", "AUDIT-WRONG_AWARD", "WRONG_AWARD", "--status", "confirmed", "--by",
                 "Tess Director", "--note", "Ann had no part in side pot 1", "--db", str(own_db)]) == 0
    at = every_unit(open_page(app(own_db, monkeypatch), "audit"))
    table = at.dataframe[0].value
    wrong = table["hand"].str.startswith("replayer?hand=AUDIT-WRONG_AWARD&")
    row = table[wrong].iloc[0]
    assert (row["review"], row["reviewer"]) == ("confirmed", "Tess Director")
    assert set(table[~wrong]["review"]) == {"open"}
    at.multiselect(key="audit_review").set_value(["confirmed"]).run()
    assert list(displayed(at.dataframe[0])["hand"]) == ["AUDIT-WRONG_AWARD"]
    open_page(at, "replayer", hand="AUDIT-WRONG_AWARD")
    assert any("Review: confirmed by Tess Director" in c.value and "Ann had no part" in c.value
               for c in at.caption)


def test_a_director_reviews_a_finding_in_the_dashboard(own_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(own_db, monkeypatch), "replayer", hand="AUDIT-WRONG_AWARD")
    key = "replay_review_WRONG_AWARD_21"
    at.selectbox(key=f"{key}_status").set_value("overturned")
    at.text_input(key=f"{key}_note").input("the floor ruled a chop")
    at.text_input(key=f"{key}_by").input("Ray Floor")
    at.button(key=f"FormSubmitter:{key}-Record the review").click().run()
    assert not at.exception and any("overturned by Ray Floor" in s.value for s in at.success)
    assert query(own_db, "SELECT hand_id, code, seq, status, note, reviewer FROM reviews") == [
        ("AUDIT-WRONG_AWARD", "WRONG_AWARD", 21, "overturned", "the floor ruled a chop", "Ray Floor")]
    at.text_input(key=f"{key}_by").input("  ")
    at.button(key=f"FormSubmitter:{key}-Record the review").click().run()
    assert any("needs the reviewer's name" in e.value for e in at.error)


def test_replayer_names_an_unknown_hand(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(sample_db, monkeypatch), "replayer", hand="[no](such) hand")
    # The id is shown as typed, inert: no link is made of what comes from the URL.
    assert any("no hand '\\[no\\]\\(such\\) hand'" in e.value for e in at.error)


# ---- ingest --------------------------------------------------------------------------------------


def upload(at: AppTest, *files: tuple[str, bytes]) -> AppTest:
    at.file_uploader[0].set_value([(name, data, "text/plain") for name, data in files])
    at.button(key="ingest_submit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_ingest_page_stores_uploads_and_shows_rejects(own_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(own_db, monkeypatch), "ingest")
    doc = (ROOT / "docs" / "format.md").read_text(encoding="utf-8").split("```barge\n")[1].split("```")[0]
    upload(at, ("event 3 (final).bhh", doc.encode()), ("bad.bhh", BAD_HAND))
    shown = metrics(at)
    assert (shown["Hands stored"], shown["Rejected"]) == ("1", "1")
    assert scalar(own_db, "SELECT count(*) FROM hands WHERE hand_id = 'B25-E03-T07-0118'") == 1
    paths = [str(r[0]) for r in query(own_db, "SELECT path FROM sources")]
    assert any(p.endswith("/event_3_final.bhh") for p in paths) and any(p.endswith("/bad.bhh") for p in paths)
    rejects = at.dataframe[-1].value  # the database's rejects, with the raw text
    assert list(rejects["raw_text"]) == [BAD_HAND.decode()]
    assert not list(uploads.upload_dir(own_db).iterdir())  # the uploads are gone once ingested
    upload(at, ("event 3 (final).bhh", doc.encode()))
    assert metrics(at)["Duplicates skipped"] == "0" and metrics(at)["Hands stored"] == "0"  # same SHA-256


def test_ingest_page_refuses_other_file_types(own_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(own_db, monkeypatch), "ingest")
    at.file_uploader[0].set_value([("evil.exe", b"MZ", "application/octet-stream")])
    # Streamlit's file_uploader refuses it on the server too (a browser does not even offer it).
    at.button(key="ingest_submit").click().run()
    assert any("Invalid file extension" in e.value for e in at.exception)
    audit_samples = len(list((SAMPLES / "audit").glob("*.bhh")))
    assert scalar(own_db, "SELECT count(*) FROM sources") == len(sample_files()) + audit_samples
    with pytest.raises(uploads.UploadRefused, match=r"only \.bhh, \.txt"):
        uploads.check([uploads.Upload("evil.sh", b"#!/bin/sh")])
    with pytest.raises(uploads.UploadRefused, match="larger than"):
        uploads.check([uploads.Upload("big.bhh", b"x" * (uploads.MAX_FILE_MB * 2**20 + 1))])


def test_uploads_get_safe_distinct_names_inside_their_folder(tmp_path: Path) -> None:
    files = [uploads.Upload(name, b"x") for name in ("../../a.bhh", "a.bhh", "/etc/cron.d/x.txt", "é ü.bhh")]
    paths = uploads.save(files, tmp_path)
    assert [p.name for p in paths] == ["a.bhh", "a-2.bhh", "x.txt", "upload.bhh"]
    assert all(p.parent == tmp_path for p in paths)


# ---- a busy or missing database ------------------------------------------------------------------


@pytest.fixture
def writer_holding(own_db: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the database's write lock, as a running `barge ingest` does."""
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import duckdb, time; c = duckdb.connect({str(own_db)!r}); print('locked', "
                               "flush=True); time.sleep(float(input()))"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    yield holder
    holder.kill()
    holder.wait()


def test_a_locked_database_is_retried_until_it_is_free_and_said_so(
        own_db: Path, monkeypatch: pytest.MonkeyPatch, writer_holding: subprocess.Popen[str]) -> None:
    assert writer_holding.stdin is not None
    writer_holding.stdin.write("3\n")  # the ingest ends in 3 s; the page waits for it, however long
    writer_holding.stdin.flush()
    started = time.perf_counter()
    at = app(own_db, monkeypatch)  # the Overview, the default page
    assert time.perf_counter() - started > 2
    hands = scalar(own_db, "SELECT count(*) FROM hands WHERE unit = 'chips'")  # the unit with most hands
    assert not at.exception and not at.error and metrics(at)["Hands"] == f"{hands:,}"
    assert any("The database is free again after" in s.value for s in at.success)


def test_a_missing_database_gives_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    at = app(tmp_path / "none.duckdb", monkeypatch)
    for page in ("overview", "replayer"):
        open_page(at, page)
        assert any("No database at" in e.value for e in at.error)
    open_page(at, "ingest")
    assert not at.error  # the Ingest page can create it
    assert launch.serve(tmp_path / "none.duckdb", 8501) == 3
    assert "no database at" in capsys.readouterr().err


def test_a_database_from_before_award_origins_still_shows(own_db: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with duckdb.connect(str(own_db)) as con:
        con.execute("DELETE FROM awards WHERE origin = 'computed'")
        con.execute("ALTER TABLE awards DROP COLUMN hand")
        con.execute("ALTER TABLE awards DROP COLUMN origin")
        con.execute("DROP TABLE player_facts")  # nor the statistics' stored facts
    at = app(own_db, monkeypatch)
    for page in ("overview", "variants", "replayer"):
        open_page(at, page, **({"hand": BIG_POT_HAND} if page == "replayer" else {}))
        assert not at.error
    assert metrics(at)["Pot"] == BIG_POT


def test_a_database_from_before_units_shows_one_unknown_unit(own_db: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Read-only, an old database keeps its hands in one unit, "chips"; the statistics, which need
    the units, say how to add them (the store adds them when it opens the database for writing)."""
    with duckdb.connect(str(own_db)) as con:
        for column in ("unit", "currency", "game_type", "site"):
            con.execute(f"ALTER TABLE hands DROP COLUMN {column}")
        con.execute("DROP TABLE player_facts")
    at = open_page(app(own_db, monkeypatch), "overview")
    assert "Unit" not in [box.label for box in at.sidebar.selectbox]  # nothing to choose
    assert metrics(at)["Hands"] == f"{scalar(own_db, 'SELECT count(*) FROM hands'):,}"
    assert metrics(at)["In pots"].endswith(" chips") and "Unit: chips." in at.caption[0].value
    open_page(at, "players")
    assert any("before hands had units" in e.value for e in at.error)


def test_filter_values_are_parameters_not_sql(sample_db: Path) -> None:
    with duckdb.connect(str(sample_db), read_only=True) as con:
        hostile = Filters(event="x' OR 1=1 --", player="'; DROP TABLE hands; --")
        assert queries.overview(con, hostile)["hands"][0] == 0
        assert queries.hand(con, "' OR '1'='1").is_empty()
        assert queries.overview(con, Filters())["hands"][0] == scalar(sample_db, "SELECT count(*) FROM hands")


def test_launch_command_runs_streamlit_headless_on_the_database(tmp_path: Path) -> None:
    cmd = launch.command(8600)
    assert cmd[1:4] == ["-m", "dashboard.server", str(APP)]  # streamlit run, once the pages are warm
    assert {"--server.headless=true", "--server.port=8600", "--server.address=localhost"} <= set(cmd)
    db = tmp_path / "x.duckdb"
    assert launch.environment(db)[connection.ENV_DB] == str(db.resolve())


# ---- the pure modules ----------------------------------------------------------------------------


@pytest.mark.parametrize("module", [stepping, table_svg, winning, queries, ui, uploads, launch, labels,
                                    tables],
                         ids=lambda m: m.__name__)
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted and not result.failed


def sample_hands() -> list[str]:
    return [block.text for path in sample_files() for block in read_blocks(path)]


def test_stepping_ends_with_the_recorded_stacks_and_every_step_draws() -> None:
    """Every sample hand stepped to the end gives each player starting stack - chips put in +
    chips collected, as pipeline.accounting reads the record; every step is valid SVG."""
    for text in sample_hands():
        hand = parse_hand(text)
        states = stepping.steps(hand, hand.awards)
        assert {s.player: s.stack for s in states[-1].seats} == recorded_ending_stacks(hand), hand.hand_id
        assert len(states) == len(stepping.line_groups(hand.actions)) + 1 + len(hand.awards)
        for state in states:
            ET.fromstring(table_svg.render(state))


def test_the_svg_draws_each_boards_layout() -> None:
    by_id = {parse_hand(t).hand_id: parse_hand(t) for t in sample_hands()}
    chowaha = by_id[CHOWAHA_HAND]
    state = stepping.steps(chowaha, chowaha.awards)[-1]
    slots = table_svg.board_slots(state)
    assert slots["top", 1] == (0.0, 0.0) and slots["bottom", 3] == (2.0, 2.0)
    assert slots["turn", 1] == (3.0, 0.5) and slots["river", 1] == (4.0, 1.0)
    oklahoma = next(h for h in by_id.values() if h.variant == "oklahoma")
    last = stepping.steps(oklahoma, oklahoma.awards)[-1]
    assert {b.name for b in last.boards if b.removed} and "removed" in table_svg.render(last)
    run = parse_hand((ROOT / "docs" / "format.md").read_text(encoding="utf-8")
                     .split("### Run-outs")[1].split("```barge\n")[1].split("```")[0])
    ran = stepping.steps(run, run.awards)[-1]
    assert [b.cards for b in ran.boards if b.name == "2"] == [((4, "Ks"), (5, "Kh"))]
    assert table_svg.board_slots(ran)["2", 4] == (3.0, 1.0)
    assert "run 2" in table_svg.render(ran)


def test_the_svg_escapes_what_the_record_says() -> None:
    hand = parse_hand(stepping.EXAMPLE.replace("Ann", "<b>A&nn</b>"))
    svg = table_svg.render(replace(stepping.steps(hand, hand.awards)[-1], title="<script>x</script>"))
    ET.fromstring(svg)
    assert "<script>" not in svg and "&lt;b&gt;A&amp;nn&lt;/b&gt;" in svg


def test_winning_classes_cover_the_samples(sample_db: Path) -> None:
    with duckdb.connect(str(sample_db), read_only=True) as con:
        won = queries.winners(con, Filters())
        showdowns = "SELECT hand_id FROM actions WHERE street = 'showdown' OR kind = 'show'"
        at_showdown = f"SELECT count(*) FROM ({won_sql(con)}) WHERE hand_id IN ({showdowns})"
        portions = con.execute(at_showdown).fetchall()[0][0]
    assert won["portions_won"].sum() == portions  # every portion won at a showdown, counted once
    classes = winning.classed(won)
    assert set(classes["class"]) <= set(winning.CLASS_ORDER)
    assert "other" not in set(classes["class"]) and classes["class"].n_unique() > 10
    assert classes["portion"].str.contains("run").sum() == 0


def test_the_overview_of_every_hand_adds_up_the_overviews_of_each_variant(sample_db: Path) -> None:
    with duckdb.connect(str(sample_db), read_only=True) as con:
        whole = queries.overview(con, Filters()).row(0, named=True)
        variants = [v for (v,) in con.execute("SELECT DISTINCT variant FROM hands").fetchall()]
        parts = [queries.overview(con, Filters(variant=v)).row(0, named=True) for v in variants]
        players = con.execute("SELECT count(DISTINCT player) FROM seats").fetchall()[0][0]
    for column in ("hands", "chips", "errors", "warnings", "infos"):
        assert whole[column] == pytest.approx(sum(part[column] for part in parts)), column
    assert whole["errors"] > 0 and whole["players"] == players >= max(part["players"] for part in parts)


def test_a_page_run_shares_one_connection_and_release_frees_the_database(sample_db: Path,
                                                                        tmp_path: Path) -> None:
    from pipeline.store import Store

    db = tmp_path / "copy.duckdb"
    db.write_bytes(sample_db.read_bytes())
    with connection.page_connection(db) as first:
        first.execute("SELECT count(*) FROM hands").fetchall()
    with connection.page_connection(db) as second:  # the run's next query: the same connection
        assert second is first
    assert connection.GATE._readers == 1  # held for the page run, so the Ingest page would wait
    with pytest.raises(connection.DatabaseBusy), connection.GATE.writing(timeout=0.1):
        pass
    connection.release()  # app.py, when the page has run
    assert connection.GATE._readers == 0
    with connection.GATE.writing(timeout=1), Store(db) as store:
        assert store.count("hands") == scalar(sample_db, "SELECT count(*) FROM hands")


# ---- several units: dollars, euros, play money and a tournament's chips, never added ------------

# Short PokerStars histories, one unit each: a dollar cash game (two hands), a euro cash game, a
# play-money game and a tournament (its chips are its own unit); and a native hand of a dollar
# game at Full Tilt, where another "Ann" plays.
UNIT_HISTORIES = {
    "usd.txt": """\
PokerStars Hand #900000001:  Hold'em No Limit ($0.50/$1.00 USD) - 2024/05/01 20:00:00 ET
Table 'Ursa' 6-max Seat #1 is the button
Seat 1: Ann ($100 in chips)
Seat 2: Bo ($100 in chips)
Seat 3: Cy ($100 in chips)
Bo: posts small blind $0.50
Cy: posts big blind $1
*** HOLE CARDS ***
Ann: raises $2 to $3
Bo: folds
Cy: calls $2
*** FLOP *** [2c 7d Kh]
Cy: checks
Ann: bets $4
Cy: folds
Uncalled bet ($4) returned to Ann
Ann collected $6.50 from pot
*** SUMMARY ***
Total pot $6.50 | Rake $0
Board [2c 7d Kh]
Seat 1: Ann (button) collected ($6.50)
Seat 2: Bo (small blind) folded before Flop
Seat 3: Cy (big blind) folded on the Flop



PokerStars Hand #900000002:  Hold'em No Limit ($0.50/$1.00 USD) - 2024/05/01 20:01:00 ET
Table 'Ursa' 6-max Seat #2 is the button
Seat 1: Ann ($103.50 in chips)
Seat 2: Bo ($99.50 in chips)
Seat 3: Cy ($97 in chips)
Cy: posts small blind $0.50
Ann: posts big blind $1
*** HOLE CARDS ***
Bo: raises $1.50 to $2.50
Cy: folds
Ann: folds
Uncalled bet ($1.50) returned to Bo
Bo collected $2.50 from pot
Bo: doesn't show hand
*** SUMMARY ***
Total pot $2.50 | Rake $0
Seat 1: Ann (big blind) folded before Flop
Seat 2: Bo (button) collected ($2.50)
Seat 3: Cy (small blind) folded before Flop
""",
    "eur.txt": """\
PokerStars Hand #900000011:  Hold'em No Limit (€0.05/€0.10 EUR) - 2024/05/02 20:00:00 ET
Table 'Lyra' 6-max Seat #1 is the button
Seat 1: Ann (€10 in chips)
Seat 2: Bo (€10 in chips)
Seat 3: Dee (€10 in chips)
Bo: posts small blind €0.05
Dee: posts big blind €0.10
*** HOLE CARDS ***
Ann: folds
Bo: calls €0.05
Dee: raises €0.30 to €0.40
Bo: folds
Uncalled bet (€0.30) returned to Dee
Dee collected €0.20 from pot
Dee: doesn't show hand
*** SUMMARY ***
Total pot €0.20 | Rake €0
Seat 1: Ann (button) folded before Flop (didn't bet)
Seat 2: Bo (small blind) folded before Flop
Seat 3: Dee (big blind) collected (€0.20)
""",
    "play.txt": """\
PokerStars Hand #900000021:  Hold'em No Limit (100/200) - 2024/05/03 20:00:00 ET
Table 'Zamenhof' 9-max (Play Money) Seat #1 is the button
Seat 1: Ann (20000 in chips)
Seat 2: Bo (20000 in chips)
Seat 3: Cy (20000 in chips)
Bo: posts small blind 100
Cy: posts big blind 200
*** HOLE CARDS ***
Ann: raises 4800 to 5000
Bo: folds
Cy: calls 4800
*** FLOP *** [2c 7d Kh]
Cy: checks
Ann: bets 15000 and is all-in
Cy: folds
Uncalled bet (15000) returned to Ann
Ann collected 10100 from pot
*** SUMMARY ***
Total pot 10100 | Rake 0
Board [2c 7d Kh]
Seat 1: Ann (button) collected (10100)
Seat 2: Bo (small blind) folded before Flop
Seat 3: Cy (big blind) folded on the Flop
""",
    "ft.bhh": """\
BARGE Hand #FT-1: texas_holdem no-limit (blinds 0.50/1) - 2024-05-05 20:00:00
Site: Full Tilt
Currency: USD
Table 'Orion' 6-max Seat #1 is the button
Seat 1: Ann (100 in chips)
Seat 2: Eve (100 in chips)
Seat 3: Fay (100 in chips)
Eve: posts small blind 0.50
Fay: posts big blind 1
*** HOLE CARDS ***
Dealt to Ann [?? ??]
Dealt to Eve [?? ??]
Dealt to Fay [?? ??]
Ann: raises 2 to 3
Eve: folds
Fay: folds
Uncalled bet (2) returned to Ann
Ann collected 2.50 from pot
*** SUMMARY ***
Total pot 2.50 | Rake 0
Seat 1: Ann ends with 101.50
Seat 2: Eve ends with 99.50
Seat 3: Fay ends with 99
""",
    "tour.txt": """\
PokerStars Hand #900000031: Tournament #3000001, $1.00+$0.10 USD Hold'em No Limit - Level I (10/20) \
- 2024/05/04 20:00:00 ET
Table '3000001 1' 9-max Seat #1 is the button
Seat 1: Ann (1500 in chips)
Seat 2: Bo (1500 in chips)
Seat 3: Cy (1500 in chips)
Bo: posts small blind 10
Cy: posts big blind 20
*** HOLE CARDS ***
Ann: raises 1480 to 1500 and is all-in
Bo: folds
Cy: calls 1480 and is all-in
*** FLOP *** [2c 7d Kh]
*** TURN *** [2c 7d Kh] [4s]
*** RIVER *** [2c 7d Kh 4s] [9h]
*** SHOW DOWN ***
Ann: shows [Ks Kd] (three of a kind, Kings)
Cy: shows [Qs Qd] (a pair of Queens)
Ann collected 3010 from pot
*** SUMMARY ***
Total pot 3010 | Rake 0
Board [2c 7d Kh 4s 9h]
Seat 1: Ann (button) showed [Ks Kd] and won (3010) with three of a kind, Kings
Seat 2: Bo (small blind) folded before Flop
Seat 3: Cy (big blind) showed [Qs Qd] and lost with a pair of Queens
""",
}
TOURNAMENT = "T:PokerStars:3000001"
# Each unit's pots as the pages write them, and the net in each of Ann at PokerStars.
POTS = {"USD": "$11.50", "EUR": "€0.20", TOURNAMENT: "3,010 T chips", "play": "10,100 play chips"}
ANN = {"USD": "$2.50", "EUR": "€0.00", TOURNAMENT: "1,510 T chips", "play": "5,100 play chips"}


def add_units(db: Path, folder: Path) -> Path:
    """`db` with the hands of UNIT_HISTORIES ingested (their files written into `folder`)."""
    for name, text in UNIT_HISTORIES.items():
        (folder / name).write_text(text, encoding="utf-8")
    assert main(["ingest", *(str(folder / n) for n in UNIT_HISTORIES), "--db", str(db), "--json"]) == 0
    return db


@pytest.fixture(scope="module")
def units_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("units")
    db = add_units(folder / "units.duckdb", folder)
    assert dict(query(db, "SELECT unit, count(*) FROM hands GROUP BY 1")) == {
        "USD": 3, "EUR": 1, "play": 1, TOURNAMENT: 1}
    return db


WRITTEN = {"USD": re.compile(r"-?\$[\d,]+\.\d\d"), "EUR": re.compile(r"-?€[\d,]+\.\d\d"),
           "play": re.compile(r"-?[\d,]+(\.\d\d)? play chips"), TOURNAMENT: re.compile(r"-?[\d,]+ T chips")}


def money_cells(at: AppTest) -> list[tuple[str, str]]:
    """(column, cell) of every amount in the page's tables of one unit, as written (a table with a
    `unit` column has a unit per row)."""
    return [(column, cell) for table in at.dataframe if "unit" not in table.value.columns
            for column, cells in displayed(table).items()
            if labels.kind(str(column)) == "money" for cell in cells if cell != tables.EMPTY]


def test_no_figure_adds_two_units_and_each_says_its_unit(units_db: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(units_db, monkeypatch), "overview")
    assert at.sidebar.selectbox(key="f_unit").value == "USD"  # the unit with the most hands
    for unit, written in WRITTEN.items():
        at.sidebar.selectbox(key="f_unit").set_value(unit).run()
        for page in ("overview", "players", "variants"):
            open_page(at, page)
            cells = money_cells(at)
            assert cells and all(written.fullmatch(cell) for _, cell in cells), (unit, page, cells)
            amounts = [v for k, v in metrics(at).items() if k in ("In pots", "Net", "All-in adjusted")]
            assert all(written.fullmatch(v) for v in amounts), (unit, page, amounts)
        open_page(at, "overview")
        assert metrics(at)["In pots"] == POTS[unit]
    # Every unit: the pots each in its own unit, no total, no biggest pots compared across units.
    open_page(every_unit(at), "overview")
    assert "In pots" not in metrics(at)
    every = displayed(next(d for d in at.dataframe if "unit" in d.value.columns))
    assert sorted(every["chips"]) == sorted(POTS.values())
    assert not any("pot" in d.value.columns for d in at.dataframe)
    open_page(at, "players")
    at.slider(key="players_least").set_value(1).run()
    rows = displayed(at.dataframe[0])
    ann = rows[(rows["player"] == "Ann") & (rows["site"] == "PokerStars")]
    assert sorted(ann["net"]) == sorted(ANN.values())  # a row per unit, each net in its own


def test_a_player_page_opens_on_every_unit_of_the_player(units_db: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(units_db, monkeypatch), "players")
    at.selectbox(key="players_pick").set_value("Ann · PokerStars").run()
    every = next(d for d in at.dataframe if "unit" in d.value.columns)
    assert sorted(displayed(every)["net"]) == sorted(ANN.values())
    assert at.radio(key="players_unit").value == "USD"  # the sidebar's unit first
    assert (metrics(at)["Hands"], metrics(at)["Net"]) == ("2", ANN["USD"])
    at.radio(key="players_unit").set_value(TOURNAMENT).run()
    assert (metrics(at)["Hands"], metrics(at)["Net"]) == ("1", ANN[TOURNAMENT])
    assert "Winnings hand by hand (T chips)" in [s.value for s in at.subheader]


def test_tables_read_as_words(units_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(units_db, monkeypatch), "players")
    board = at.dataframe[0]
    named = headers(board)
    assert {named[c] for c in ("vpip", "three_bet", "allin_adjusted_net", "net_bb_per_100")} == {
        "VPIP", "3-bet", "all-in adjusted net", "bb/100"}
    written = displayed(board)
    ann = written[(written["player"] == "Ann") & (written["site"] == "PokerStars")].iloc[0]
    assert (ann["vpip"], ann["wsd"], ann["net"]) == ("50.0%", "-", "$2.50")  # W$SD: no showdown yet
    for page in ("overview", "players", "variants", "audit"):
        open_page(at, page)
        for table in at.dataframe:
            assert not any("_" in h for h in headers(table).values()), (page, headers(table))
            cells = {str(v) for v in displayed(table).to_numpy().ravel()}
            assert not cells & {"None", "nan", "NaN", "texas_holdem"}, page
            # The grid draws an empty value as "None" whatever the display value: none is sent.
            assert not table.value.isna().to_numpy().any(), (page, table.value.columns)



def test_positions_are_listed_in_table_order(units_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(units_db, monkeypatch), "players")
    at.selectbox(key="players_pick").set_value("Bo · PokerStars").run()  # the small blind, then the button
    by_position = next(d for d in at.dataframe if list(d.value.columns)[:1] == ["position"])
    assert list(by_position.value["position"]) == ["SB", "BTN"]


def test_a_name_at_two_sites_is_two_players(units_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(units_db, monkeypatch), "players")  # dollars: PokerStars and Full Tilt
    at.slider(key="players_least").set_value(1).run()
    board = displayed(at.dataframe[0])
    assert sorted(zip(board[board["player"] == "Ann"]["site"], board[board["player"] == "Ann"]["net"],
                      strict=True)) == [("Full Tilt", "$1.50"), ("PokerStars", "$2.50")]
    at.selectbox(key="players_pick").set_value("Ann · Full Tilt").run()
    assert at.header[0].value == "Ann · Full Tilt" and metrics(at)["Net"] == "$1.50"
    assert not any("unit" in d.value.columns for d in at.dataframe)  # one unit: no list of units


def test_site_currency_and_stakes_filters_narrow_every_page(units_db: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    at = every_unit(open_page(app(units_db, monkeypatch), "overview"))
    assert metrics(at)["Hands"] == "6"
    stakes = at.sidebar.selectbox(key="f_stakes")
    assert stakes.options == [  # each level in its unit's words
        ui.ALL, "€0.05/€0.10", "$0.50/$1.00", "10 T chips/20 T chips", "100 play chips/200 play chips"]
    stakes.set_value(1.0).run()  # the dollar games of both sites
    assert metrics(at)["Hands"] == "3"
    assert any("stakes of big blind" in c.value for c in at.caption)  # the page says what it shows
    open_page(at, "players")
    at.slider(key="players_least").set_value(1).run()
    assert set(displayed(at.dataframe[0])["unit"]) == {"$ (USD)"}
    at.sidebar.selectbox(key="f_stakes").set_value(ui.ALL).run()
    at.sidebar.selectbox(key="f_site").set_value("Full Tilt").run()
    open_page(at, "overview")
    assert metrics(at)["Hands"] == "1"
    open_page(at, "variants")
    assert metrics(at)["Hands"] == "1"
    at.sidebar.selectbox(key="f_site").set_value(ui.ALL).run()
    # The currency is the money the hands are played for: the tournament bought in with dollars has
    # it too, while its amounts stay in its own chips.
    at.sidebar.selectbox(key="f_currency").set_value("USD").run()
    open_page(at, "overview")
    assert metrics(at)["Hands"] == "4"


def test_the_hand_list_shows_cards_board_pot_and_result_in_the_unit(units_db: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(units_db, monkeypatch), "players")
    at.selectbox(key="players_pick").set_value("Ann · PokerStars").run()
    at.radio(key="players_unit").set_value(TOURNAMENT).run()
    listed = next(d for d in at.dataframe if "cards" in d.value.columns)
    row = displayed(listed).iloc[0]
    assert (row["started_at"], row["variant"], row["stakes"]) == (
        "2024-05-04 20:00", "Texas Hold'em", "10 T chips/20 T chips")
    assert row["cards"] == "K♠ K♦" and row["boards"].startswith("2♣ 7♦")
    assert (row["pot"], row["net"], row["all_in"], row["showdown"]) == (
        POTS[TOURNAMENT], ANN[TOURNAMENT], "yes", "yes")
    assert listed.value["hand"].iloc[0] == ui.replayer_link("PS-900000031")
    assert headers(listed)["boards"] == "board"
    at.radio(key="players_unit").set_value("USD").run()  # two dollar hands, newest first, each in dollars
    rows = displayed(next(d for d in at.dataframe if "cards" in d.value.columns))
    assert list(rows["pot"]) == ["$2.50", "$6.50"] and list(rows["net"]) == ["-$1.00", "$3.50"]
    assert list(rows["all_in"]) == ["-", "-"] and list(rows["stakes"]) == ["$0.50/$1.00"] * 2
