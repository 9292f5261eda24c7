"""Ingest on a Ray cluster into a Parquet dataset (`pipeline.cluster`, `pipeline.dataset`): on a
local Ray cluster started here, the dataset holds exactly the rows a local ingest stores (samples,
corpora, generated hands), hands stored twice are resolved as on one machine, a worker killed
mid-run changes nothing, a run again adds nothing, and every reading command, `barge attach` and
the dashboard read the dataset as they read a database file."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from pipeline import dataset
from pipeline.cli import main
from pipeline.cluster import reading as cluster_reading
from pipeline.cluster import recover, start_ray
from pipeline.dataset import COMMIT, STAGING, locate, rules_key
from pipeline.sources import read_blocks
from tests.conftest import SAMPLES, SHARED, sample_files

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install '.[test]')")
# One local Ray cluster per test process: the tests of this module run in one pytest worker.
pytestmark = pytest.mark.xdist_group("ray")

CORPUS = SHARED / "corpus"
# Columns that say when a row was written, not what it holds.
WRITTEN_AT = {"sources": "ingested_at", "audits": "audited_at"}
TABLES = ("sources", "hands", "seats", "actions", "boards", "awards", "rejects", "findings", "audits",
          "allin_adjustments", "player_facts", "hand_totals", "rules")


@pytest.fixture(scope="module", autouse=True)
def local_cluster() -> Iterator[None]:
    start_ray(None, 2)
    yield
    ray.shutdown()


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()


def report_of(*args: str) -> dict[str, Any]:
    code, text = run(*args, "--json")
    assert code == 0, text
    report: dict[str, Any] = json.loads(text)
    return report


def rows(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple[Any, ...]]:
    """A table's rows in a fixed order, without the times they were written."""
    columns = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall() if r[0] != WRITTEN_AT.get(table)]
    listed = ", ".join(f'"{c}"' for c in columns)
    return con.execute(f"SELECT {listed} FROM {table} ORDER BY ALL").fetchall()


def assert_same_rows(db: Path, data: Path) -> None:
    local = duckdb.connect(str(db), read_only=True)
    cluster = dataset.connect(data)
    try:
        for table in TABLES:
            assert rows(cluster, table) == rows(local, table), table
    finally:
        local.close()
        cluster.close()


def assert_same_stats(db: Path, data: Path) -> None:
    for by in ((), ("--by", "variant")):
        assert run("stats", "--db", str(data), "--json", *by) == run("stats", "--db", str(db), "--json", *by)


Report = dict[str, Any]


def both(tmp_path: Path, *paths: Path, name: str = "run") -> tuple[Report, Report, Path, Path]:
    """The same files ingested locally and on the cluster: both reports, the database, the dataset."""
    db, data = tmp_path / f"{name}.duckdb", tmp_path / f"{name}-dataset"
    local = report_of("ingest", *map(str, paths), "--db", str(db))
    cluster = report_of("ingest", *map(str, paths), "--cluster", "ray", "--out", str(data))
    return local, cluster, db, data


def same_report(local: dict[str, Any], cluster: dict[str, Any]) -> None:
    for key in ("hands", "rejects", "duplicates", "changed", "blocks", "by_variant", "files"):
        assert cluster[key] == local[key], key
    # A file's rejects in the order of its lines (the cluster's parts end in any order).
    assert cluster["reject_details"] == sorted(local["reject_details"], key=lambda r: (
        [f["path"] for f in local["files"]].index(r["path"]), r["line"]))
    assert cluster["audit"]["findings"] == local["audit"]["findings"]


# ---- the same rows as a local ingest --------------------------------------------------------------


def test_the_samples_and_corpora_give_the_rows_and_stats_of_a_local_ingest(tmp_path: Path) -> None:
    inputs = [SAMPLES, *([CORPUS] if CORPUS.is_dir() else [])]
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}: the samples only")
    local, cluster, db, data = both(tmp_path, *inputs)
    assert local["hands"] > 300
    same_report(local, cluster)
    assert_same_rows(db, data)
    assert_same_stats(db, data)


def test_generated_hands_of_every_game_give_the_rows_of_a_local_ingest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_reading, "PART_BLOCKS", 400)  # several parts, resolved between them
    generated = tmp_path / "generated"
    assert run("generate", str(generated), "--hands", "30", "--seed", "7")[0] == 0
    local, cluster, db, data = both(tmp_path, generated)
    assert local["hands"] >= 59 * 30 and local["hands"] == cluster["hands"]
    assert local["blocks"] > 4 * 400
    same_report(local, cluster)
    assert_same_rows(db, data)
    assert_same_stats(db, data)


# ---- hands stored twice, runs again ---------------------------------------------------------------


def _hands_of(path: Path) -> list[str]:
    return [block.text for block in read_blocks(path)]


def _multi_hand_sample() -> Path:
    return next(p for p in sample_files() if len(_hands_of(p)) >= 3)


def test_hands_stored_twice_are_resolved_as_on_one_machine(tmp_path: Path) -> None:
    """Two files share a hand with the same text (a duplicate) and one with other text (a clash,
    rejected); a third file repeats a hand within itself; run as one command and then a file at a
    time, each against a local ingest of the same commands."""
    hands = _hands_of(_multi_hand_sample())
    folder = tmp_path / "input"
    folder.mkdir()
    (folder / "a.bhh").write_text("\n\n\n".join(hands) + "\n", encoding="utf-8")
    clash = hands[1].replace("Seat 1:", "Seat 1: ", 1) if "Seat 1:" in hands[1] else hands[1] + "\n* changed"
    (folder / "b.bhh").write_text("\n\n\n".join([hands[0], clash]) + "\n", encoding="utf-8")
    (folder / "c.bhh").write_text("\n\n\n".join([hands[2], hands[2]]) + "\n", encoding="utf-8")
    local, cluster, db, data = both(tmp_path, folder)
    same_report(local, cluster)
    assert local["duplicates"] >= 2 and local["rejects"] >= 1
    assert_same_rows(db, data)
    # The same files, one command each, into a database and a dataset made before.
    db2, data2 = tmp_path / "one-by-one.duckdb", tmp_path / "one-by-one"
    for name in ("a.bhh", "b.bhh", "c.bhh"):
        path = str(folder / name)
        same_report(report_of("ingest", path, "--db", str(db2)),
                    report_of("ingest", path, "--cluster", "ray", "--out", str(data2)))
    assert_same_rows(db2, data2)


def test_a_changed_file_replaces_its_hands_and_a_run_again_adds_nothing(tmp_path: Path) -> None:
    hands = _hands_of(_multi_hand_sample())
    live = tmp_path / "live.bhh"
    live.write_text("\n\n\n".join(hands[:2]) + "\n", encoding="utf-8")
    db, data = tmp_path / "live.duckdb", tmp_path / "live-dataset"
    for _ in range(2):  # the second time: the file grew and its first hand was corrected
        same_report(report_of("ingest", str(live), "--db", str(db)),
                    report_of("ingest", str(live), "--cluster", "ray", "--out", str(data)))
        assert_same_rows(db, data)
        changed = hands[0].replace("\n", "\n\n", 1)  # a blank line: same hand, other text
        live.write_text("\n\n\n".join([changed, hands[1], hands[2]]) + "\n", encoding="utf-8")
    again = report_of("ingest", str(live), "--cluster", "ray", "--out", str(data))
    assert again["hands"] == 0 and again["blocks"] == 0
    assert {f["status"] for f in again["files"]} == {"already ingested"}
    assert_same_rows(db, data)


# ---- a worker killed --------------------------------------------------------------------------


def _ray_workers_running(task: str) -> list[int]:
    """The pids of the processes running a Ray task of this name (Ray titles them `ray::<task>`)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "cmdline").read_bytes().startswith(f"ray::{task}".encode()):
                    pids.append(int(entry.name))
    return pids


def test_a_worker_killed_mid_run_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_reading, "PART_BLOCKS", 400)
    generated = tmp_path / "generated"
    assert run("generate", str(generated), "--hands", "40", "--seed", "3", "--variant", "all")[0] == 0
    db = tmp_path / "local.duckdb"
    local = report_of("ingest", str(generated), "--db", str(db))
    killed: list[int] = []
    stop = threading.Event()

    def kill_one() -> None:
        while not stop.is_set() and not killed:
            for pid in _ray_workers_running("ingest_part"):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                break
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one)
    killer.start()
    try:
        data = tmp_path / "cluster"
        cluster = report_of("ingest", str(generated), "--cluster", "ray", "--out", str(data))
    finally:
        stop.set()
        killer.join()
    assert killed, "no Ray worker was seen running a part"
    same_report(local, cluster)
    assert_same_rows(db, data)


def test_a_run_killed_before_its_commit_leaves_nothing_and_one_after_it_is_finished(tmp_path: Path) -> None:
    data = tmp_path / "dataset"
    report_of("ingest", str(sample_files()[0]), "--cluster", "ray", "--out", str(data))
    location = locate(data)
    before = {t: len(f) for t, f in dataset.table_files(location).items()}
    # A run's files, staged but not committed, as a driver killed mid-run leaves them.
    hands = data / "hands"
    stray = data / STAGING / "killed" / "hands" / "variant=x" / "date=2025-01-01"
    stray.mkdir(parents=True)
    shutil.copy(next(hands.rglob("part-*.parquet")), stray / "part-stray-0.parquet")
    # A run committed (its manifest written) but not moved into place.
    moved = data / STAGING / "committed" / "rules" / "part-extra.parquet"
    moved.parent.mkdir(parents=True)
    rules = data / "rules" / rules_key()
    shutil.copy(rules, moved)
    target = data / "rules" / "part-extra.parquet"
    (data / STAGING / "committed" / COMMIT).write_text(json.dumps(
        {"moves": [[str(moved), str(target)]], "deletions": [str(rules)]}))
    recover(location)
    assert not any((data / STAGING).iterdir())
    assert target.exists() and not rules.exists()
    assert {t: len(f) for t, f in dataset.table_files(location).items()} == before


# ---- reading a dataset ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample_dataset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The samples and the audit samples, in a database and in a dataset."""
    folder = tmp_path_factory.mktemp("cluster-samples")
    files = [*map(str, sample_files()), *map(str, sorted((SAMPLES / "audit").glob("*.bhh")))]
    db, data = folder / "samples.duckdb", folder / "samples"
    report_of("ingest", *files, "--db", str(db))
    report_of("ingest", *files, "--cluster", "ray", "--out", str(data))
    return db, data


def test_reading_commands_read_a_dataset_as_a_database(sample_dataset: tuple[Path, Path],
                                                       tmp_path: Path) -> None:
    db, data = sample_dataset
    hand = "B25-E14-T02-0005"
    for command in (["show", hand], ["rejects", "--json"], ["audit", "--json"],
                    ["audit", "--hand", hand, "--json"], ["review", hand, "--json"]):
        code, text = run(*command, "--db", str(data))
        assert code == 0, (command, text)
        expected = run(*command, "--db", str(db))[1]
        if command[0] == "audit":  # listed from the dataset, not replayed: the findings the database holds
            listed, replayed = json.loads(text), json.loads(expected)
            where = f"WHERE hand_id = '{hand}'" if "--hand" in command else ""
            with duckdb.connect(str(db), read_only=True) as con:
                stored = con.execute(f"SELECT hand_id, seq, code, message FROM findings {where}").fetchall()
            found = [(f["hand_id"], f["seq"], f["code"], f["message"]) for f in listed["findings"]]
            assert sorted(found) == sorted(stored)
            assert listed["hands"] == replayed["hands"]
        else:
            assert text == expected, command
    assert run("export", str(tmp_path / "a"), "--format", "parquet", "--db", str(data))[0] == 0
    assert run("export", str(tmp_path / "b"), "--format", "parquet", "--db", str(db))[0] == 0
    for table in ("hands", "seats", "findings", "player_facts"):
        files = [f"{tmp_path / side / table}/**/*.parquet" for side in ("a", "b")]
        left, right = (duckdb.sql(f"SELECT count(*) FROM read_parquet('{f}')").fetchall() for f in files)
        assert left == right, table


def test_a_dataset_is_not_written_but_attach_makes_a_database_that_takes_reviews(
        sample_dataset: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, data = sample_dataset
    hand = "AUDIT-WRONG_BUTTON-T1-0002"
    confirm = ["review", hand, "WRONG_BUTTON", "--status", "confirmed", "--by", "TD", "--db"]
    assert main([*confirm, str(data)]) == 2
    assert "barge attach" in capsys.readouterr().err
    assert main(["ingest", str(sample_files()[0]), "--db", str(data)]) == 2
    assert "--cluster ray --out" in capsys.readouterr().err
    attached = tmp_path / "attached.duckdb"
    assert main(["attach", str(data), "--db", str(attached)]) == 0
    assert run("stats", "--db", str(attached), "--json") == run("stats", "--db", str(db), "--json")
    assert main([*confirm, str(attached)]) == 0
    _, text = run("review", hand, "--json", "--db", str(attached))
    assert json.loads(text)["findings"][0]["status"] == "confirmed"


def test_usage_errors_of_a_cluster_ingest(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["ingest", str(SAMPLES), "--cluster", "ray"]) == 2
    assert "--out DATASET" in capsys.readouterr().err
    assert main(["ingest", str(SAMPLES), "--out", str(tmp_path / "x")]) == 2
    assert "--cluster ray" in capsys.readouterr().err
    folder = tmp_path / "not-empty"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    assert main(["ingest", str(SAMPLES), "--cluster", "ray", "--out", str(folder)]) == 3
    assert "not a barge dataset and not empty" in capsys.readouterr().err


def test_the_dashboard_serves_from_a_dataset(sample_dataset: tuple[Path, Path],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_dashboard import PAGES, app, metrics, open_page

    db, data = sample_dataset
    for page in PAGES:
        on_dataset = open_page(app(data, monkeypatch), page)
        assert not on_dataset.error, (page, [e.value for e in on_dataset.error])
        on_file = open_page(app(db, monkeypatch), page)
        assert metrics(on_dataset) == metrics(on_file), page
        shapes = [[t.value.shape for t in at.dataframe] for at in (on_dataset, on_file)]
        assert shapes[0] == shapes[1], page


def test_a_dataset_read_and_written_through_pyarrow_fs_as_object_storage_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Object storage (`s3://`, ...) is read through `pyarrow.dataset` rather than DuckDB's own
    reader: the same folder taken that way gives the same rows, and a second run resolves a hand
    stored before the same way."""
    db, data = tmp_path / "local.duckdb", tmp_path / "remote"
    monkeypatch.setattr(dataset.Location, "local", property(lambda self: False))
    hands = _hands_of(_multi_hand_sample())
    first, second = tmp_path / "first.bhh", tmp_path / "second.bhh"
    first.write_text("".join(hands[:2]), encoding="utf-8")
    second.write_text("".join(hands[1:]), encoding="utf-8")  # one hand again: a duplicate
    for path in (first, second):
        same_report(report_of("ingest", str(path), "--db", str(db)),
                    report_of("ingest", str(path), "--cluster", "ray", "--out", f"file://{data}"))
    assert_same_rows(db, data)
    assert run("stats", "--db", f"file://{data}", "--json") == run("stats", "--db", str(db), "--json")


def test_a_house_game_is_ingested_on_the_cluster_as_on_one_machine(tmp_path: Path) -> None:
    """The Ray tasks load the house's games the driver loaded (docs/games.md); run as a user runs it,
    in a process of its own with its own local Ray cluster, so the house game stays out of this one."""
    from tests.test_games import barge, house

    games = house(tmp_path / "defs")
    made = barge("generate", "--games", str(games), "--variant", "house_omaha", "--hands", "20",
                 "--seed", "2", str(tmp_path / "out"))
    assert made.returncode == 0, made.stderr
    db, data = tmp_path / "house.duckdb", tmp_path / "house-dataset"
    local = barge("ingest", str(tmp_path / "out"), "--db", str(db), "--games", str(games), "--json")
    cluster = barge("ingest", str(tmp_path / "out"), "--cluster", "ray", "--jobs", "1", "--out", str(data),
                    "--games", str(games), "--json")
    assert cluster.returncode == 0, cluster.stderr
    same_report(json.loads(local.stdout), json.loads(cluster.stdout))
    assert json.loads(cluster.stdout)["by_variant"] == {"house_omaha": 20}
    assert_same_rows(db, data)
