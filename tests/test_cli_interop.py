"""The commands that move hands in and out of barge and measure it: `ingest` on a folder mixing
every format, `export` (PHH and Parquet), `generate` then `ingest` with no finding, and `bench`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest

from pipeline.cli import main
from tests.conftest import SAMPLES

CORPUS = SAMPLES.parents[1] / "shared" / "corpus" / "pokerstars"
POKERSTARS_FILE = CORPUS / "cash" / "Flop" / "NLHE-6max-EUR-0.05-0.10-200911.txt"


def _query(db: Path, sql: str) -> list[tuple[object, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


@pytest.mark.skipif(not POKERSTARS_FILE.is_file(), reason=f"the PokerStars corpus is not at {CORPUS}")
def test_a_folder_mixing_native_phh_and_pokerstars_files_stores_all_three(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    shutil.copy(SAMPLES / "razz.bhh", folder / "razz.bhh")
    shutil.copy(POKERSTARS_FILE, folder / "stars.dat")  # told by its content, not its name
    assert main(["generate", "--variant", "texas_holdem", "--hands", "5", "--seed", "3", "--format", "phh",
                 str(tmp_path / "gen")]) == 0
    shutil.copy(tmp_path / "gen" / "texas_holdem.phhs", folder / "holdem.txt")
    db = tmp_path / "db.duckdb"
    capsys.readouterr()
    assert main(["ingest", str(folder), "--db", str(db), "--json", "--jobs", "2"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["rejects"] == 0
    formats = dict(_query(db, "SELECT s.format, count(*) FROM hands h JOIN sources s USING (source_id) "
                              "GROUP BY ALL"))
    razz_hands = (SAMPLES / "razz.bhh").read_text().count("BARGE Hand #")
    stars_text = POKERSTARS_FILE.read_text(encoding="utf-8-sig", errors="replace")
    stars_hands = len(re.findall(r"^PokerStars (?:Hand|Game) #", stars_text, re.MULTILINE))
    assert formats == {"barge": razz_hands, "phh": 5, "pokerstars": stars_hands}


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("db") / "samples.duckdb"
    files = [str(p) for p in sorted(SAMPLES.glob("*.bhh"))]
    assert main(["ingest", *files, "--db", str(db), "--json"]) == 0
    return db


def test_export_phh_writes_the_phh_games_and_counts_the_rest(
        sample_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["export", "--format", "phh", "--db", str(sample_db), str(tmp_path / "phh")]) == 0
    said = capsys.readouterr().out
    files = sorted(p.name for p in (tmp_path / "phh").glob("*.phhs"))
    assert files and all(name.removesuffix(".phhs") in {"razz", "stud", "stud_hi_lo", "badugi", "omaha",
                                                         "omaha_hi_lo", "texas_holdem", "short_deck_holdem",
                                                         "deuce_to_seven_lowball",
                                                         "deuce_to_seven_triple_draw"} for name in files)
    assert "skipped" in said and "chowaha" in said  # no PHH code for Chowaha: counted, not written
    # What was written reads back as the same hands.
    again = tmp_path / "again.duckdb"
    assert main(["ingest", str(tmp_path / "phh"), "--db", str(again), "--json"]) == 0
    written = _query(again, "SELECT count(*) FROM hands")[0][0]
    assert f"wrote {written:,} hands" in said


def test_export_refuses_what_phh_cannot_name(sample_db: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["export", "--format", "phh", "--variant", "chowaha", "--db", str(sample_db), str(tmp_path)])
    assert code == 2 and "PHH has no code for chowaha" in capsys.readouterr().err


def test_export_parquet_writes_every_table_and_refuses_to_overwrite(
        sample_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "parquet"
    assert main(["export", "--format", "parquet", "--db", str(sample_db), str(out)]) == 0
    hands = _query(sample_db, "SELECT count(*) FROM hands")[0][0]
    with duckdb.connect() as con:
        read = con.execute(f"SELECT count(*) FROM read_parquet('{out}/hands/**/*.parquet', "
                           "hive_partitioning = true)").fetchone()
    assert read == (hands,)
    assert any(p.name.startswith("variant=") for p in (out / "hands").iterdir())
    capsys.readouterr()
    assert main(["export", "--format", "parquet", "--db", str(sample_db), str(out)]) == 2
    assert "barge export:" in capsys.readouterr().err
    assert main(["export", "--format", "parquet", "--db", str(sample_db), str(out), "--force"]) == 0


def test_generated_hands_of_every_variant_ingest_with_no_finding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--variant", "all", "--hands", "3", "--seed", "11", str(tmp_path / "gen")]) == 0
    capsys.readouterr()
    db = tmp_path / "db.duckdb"
    assert main(["ingest", str(tmp_path / "gen"), "--db", str(db), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["hands"] == 59 * 3 and summary["rejects"] == 0
    assert summary["audit"]["errors"] + summary["audit"]["warnings"] + summary["audit"]["infos"] == 0
    assert _query(db, "SELECT count(DISTINCT variant) FROM hands") == [(59,)]


def test_bench_reports_every_peer_with_its_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--json", "--only", "evaluation"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["machine"]["cores"] >= 1 and report["quick"] is True
    peers = {r["peer_name"] for r in report["rows"]}
    assert {"eval7", "phevaluator", "treys", "PokerKit"} <= peers
    for r in report["rows"]:
        assert r["ours"] > 0
        # A peer is measured (with its ratio) or reported as not measured, never estimated.
        assert (r["peer"] is None) == (r["ratio"] is None)


def test_a_suite_that_stops_loses_only_its_own_figures(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks import evaluation, phh

    def broken(quick: bool) -> list[dict[str, object]]:
        raise RuntimeError("the peer crashed")

    monkeypatch.setattr(phh, "run", broken)
    monkeypatch.setattr(evaluation, "run", lambda quick: [{"benchmark": "x", "ours": 1.0, "peer": None,
                                                            "peer_name": None, "unit": "hands/s",
                                                            "ratio": None, "note": ""}])
    assert main(["bench", "--quick", "--json", "--only", "evaluation", "--only", "phh"]) == 3
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert [r["benchmark"] for r in report["rows"]] == ["x"]
    assert report["failed"] == {"phh": "RuntimeError: the peer crashed"}
    assert "phh: stopped" in captured.err


def test_bench_dashboard_reports_the_ingest_that_made_its_database_and_every_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks import dashboard

    monkeypatch.setenv("BARGE_BENCH_DATA", str(tmp_path))
    db = dashboard.database(59)  # one generated hand of each variant, ingested by `barge ingest`
    made = json.loads(dashboard.built_by(db).read_text(encoding="utf-8"))
    assert made["hands"] == made["audited"] == 59 and made["peak_mb"] > 0
    measured = dashboard.rows(db)
    ingest = f"ingest --jobs {made['jobs']}, 59 hands (the dashboard database)"
    assert [r["benchmark"] for r in measured] == [
        ingest, f"{ingest} per CPU-second", f"{ingest}, peak memory",
        *(f"dashboard page: {page}" for page in dashboard.PAGES)]
    assert all(r["ours"] > 0 for r in measured) and "59 hands" in measured[-1]["note"]
    # No peer measures these: each is set against the target, its ratio above 1 when met.
    assert all(r["peer_name"] == dashboard.TARGET and r["ratio"] is not None for r in measured)
    assert measured[-1]["peer"] == dashboard.PAGE_S
    assert dashboard.database(59) == db  # kept for the next run
