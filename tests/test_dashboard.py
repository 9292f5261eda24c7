"""The dashboard: every page run with Streamlit's AppTest on a database of the sample histories,
the numbers it shows checked against the database, the replayer's stepping and SVG checked on
every sample hand, uploads, a busy or missing database, and the pure modules' doctests."""

from __future__ import annotations

import base64
import doctest
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboard import connection, launch, queries, stepping, table_svg, ui, uploads, winning
from grammar.barge_parser import parse_hand
from pipeline.accounting import recorded_ending_stacks
from pipeline.cli import main
from pipeline.sources import read_blocks
from pipeline.stats import Filters, won_sql
from tests.conftest import ROOT, SAMPLES, sample_files

APP = ROOT / "dashboard" / "app.py"
PAGES = {"overview": "views/overview.py", "players": "views/players.py", "variants": "views/variants.py",
         "audit": "views/audit.py", "replayer": "views/replayer.py", "ingest": "views/ingest.py"}
BIG_POT_HAND, BIG_POT = "B25-london_lowball-001", "33,750"  # the samples' biggest pot
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
    shown = metrics(at)
    assert shown["Hands"] == f"{scalar(sample_db, 'SELECT count(*) FROM hands'):,}"
    assert shown["Variants"] == "59"
    assert shown["Players"] == f"{scalar(sample_db, 'SELECT count(DISTINCT player) FROM seats'):,}"
    errors = scalar(sample_db, "SELECT count(*) FROM findings WHERE severity = 'error'")
    assert shown["Errors found"] == f"{errors:,}" and errors
    biggest = at.dataframe[0].value
    assert biggest["hand_id"][0] == BIG_POT_HAND and biggest["pot"][0] == 33750
    assert biggest["hand"][0] == f"replayer?hand={BIG_POT_HAND}"


def test_the_sidebar_filters_hold_across_pages(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(sample_db, monkeypatch), "overview")
    at.sidebar.selectbox(key="f_variant").set_value("razz").run()
    razz = scalar(sample_db, "SELECT count(*) FROM hands WHERE variant = 'razz'")
    assert metrics(at)["Hands"] == str(razz) and metrics(at)["Variants"] == "1"
    open_page(at, "variants")
    assert metrics(at)["Hands"] == str(razz)
    assert at.sidebar.selectbox(key="f_variant").value == "razz"


def test_players_leaderboard_and_player_page(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(sample_db, monkeypatch), "players")
    regulars = scalar(sample_db, "SELECT count(*) FROM (SELECT player FROM seats WHERE NOT sitting_out "
                                 "GROUP BY player HAVING count(*) >= 5)")
    assert len(at.dataframe[0].value) == regulars  # by default, players with 5 hands or more
    at.slider(key="players_least").set_value(1).run()
    board = at.dataframe[0].value
    assert len(board) == scalar(sample_db, "SELECT count(DISTINCT player) FROM seats WHERE NOT sitting_out")
    top = board.sort_values("hands", ascending=False).iloc[0]
    at.selectbox(key="players_pick").set_value(top["player"]).run()
    assert not at.exception
    assert at.header[0].value == top["player"]
    assert metrics(at)["Hands"] == f"{top['hands']:,}"
    assert [s.value for s in at.subheader][1:4] == ["Winnings hand by hand", "By variant", "By position"]


def test_variants_page_lists_all_59_games(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(app(sample_db, monkeypatch), "variants")
    assert metrics(at)["Variants played"] == "59 of 59"
    table = at.dataframe[0].value
    assert len(table) == 59 and table["hands"].sum() == scalar(sample_db, "SELECT count(*) FROM hands")
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
    at = open_page(app(sample_db, monkeypatch), "audit")
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
    assert at.slider(key="replay_step").value == 0 and metrics(at)["Pot"] == "0"
    raw = scalar(sample_db, f"SELECT raw_text FROM hands WHERE hand_id = '{BIG_POT_HAND}'")
    assert isinstance(raw, str) and any(code.value.strip() == raw.strip() for code in at.code)


def test_replayer_starts_at_the_action_a_finding_cites(sample_db: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    seq = scalar(sample_db, "SELECT seq FROM findings WHERE hand_id = 'AUDIT-BET_EXCEEDS_STACK'")
    at = open_page(app(sample_db, monkeypatch), "replayer", hand="AUDIT-BET_EXCEEDS_STACK", seq=str(seq))
    assert any("BET_EXCEEDS_STACK at this step" in w.value for w in at.warning)


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


def test_a_locked_database_is_retried_and_said_so(own_db: Path, monkeypatch: pytest.MonkeyPatch,
                                                  writer_holding: subprocess.Popen[str]) -> None:
    monkeypatch.setattr(ui, "BUSY_WAIT", 1.0)
    at = app(own_db, monkeypatch)
    open_page(at, "overview")
    assert any("still busy" in e.value for e in at.error)
    assert writer_holding.stdin is not None
    writer_holding.stdin.write("1.5\n")  # the ingest ends in 1.5 s; the page waits for it
    writer_holding.stdin.flush()
    monkeypatch.setattr(ui, "BUSY_WAIT", 30.0)
    started = time.perf_counter()
    open_page(at, "overview")
    assert not at.error and metrics(at)["Variants"] == "59"
    assert time.perf_counter() - started > 0.5


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


@pytest.mark.parametrize("module", [stepping, table_svg, winning, queries, ui, uploads, launch],
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
        assert len(states) == len(stepping.line_groups(hand.actions)) + 1 + bool(hand.awards)
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
