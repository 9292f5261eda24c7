"""Ingest and audit in worker processes: the same tables whatever the number of workers, every
block accounted for across chunks and files, no audit rows for hands not stored, a dead worker
or a killed ingest leaves a store that the next run completes, and memory does not grow with the
input. Chunks are made small here so that a few hundred hands spread over many work units."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import duckdb
import pytest

import pipeline.audit
import pipeline.ingest
import pipeline.parallel
from evaluator.equity import all_in_adjusted
from evaluator.replay import replay_hand
from grammar.barge_parser import parse_hand
from pipeline.audit import audit
from pipeline.ingest import IngestSummary, ingest
from pipeline.parallel import IN_FLIGHT_PER_JOB, WorkerError, Workers
from pipeline.schema import SCHEMAS
from pipeline.sources import read_blocks
from pipeline.stats import player_stats
from pipeline.store import Store
from tests.conftest import ROOT, assert_no_pool_left, doc_examples, sample_files, worker_killer

SMALL_CHUNK = 20
EXCLUDE = {"sources": "EXCLUDE (ingested_at)", "audits": "EXCLUDE (audited_at)"}  # the clock's columns


# The sample hands, every one stored by the reference run (the other inputs are built from them).
SAMPLE_HANDS = sum(1 for path in sample_files() for _ in read_blocks(path))
STORED = SAMPLE_HANDS + 26 + 14  # the samples, b-mixed's new hands, the format document's examples


def snapshot(db: Path) -> dict[str, list[tuple[object, ...]]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return {name: con.execute(f"SELECT * {EXCLUDE.get(name, '')} FROM {name} ORDER BY ALL").fetchall()
                for name in SCHEMAS}


def query(db: Path, sql: str) -> list[tuple[object, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


def renamed(text: str, suffix: str) -> str:
    hand_id = parse_hand(text).hand_id
    return text.replace(f"#{hand_id}:", f"#{hand_id}-{suffix}:", 1)


def summary_json(summary: IngestSummary) -> dict[str, object]:
    report = summary.to_json()
    report.pop("seconds")
    return report


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every sample hand in one file, and files that repeat, clash with and break some of them."""
    folder = tmp_path_factory.mktemp("parallel") / "in"
    folder.mkdir()
    samples = [b.text for path in sample_files() for b in read_blocks(path)]
    (folder / "a-samples.bhh").write_text("\n".join(samples), encoding="utf-8")
    checks = next(t for t in samples if ": checks\n" in t)
    fresh = [renamed(t, "b") for t in samples[40:66]]
    b = [
        *samples[:30],  # 30 duplicates of hands of another file
        samples[0].rstrip("\n") + "\nNote: typed again, differently\n",  # a clash with another file
        renamed(checks, "typo").replace(": checks\n", ": chekcs\n", 1),  # a syntax error
        *fresh,  # 26 new hands
        fresh[0],  # a duplicate of a hand in an earlier chunk of the same file
        fresh[1].rstrip("\n") + "\nNote: not the same hand\n",  # a clash within the file
    ]
    (folder / "b-mixed.bhh").write_text("\n".join(b), encoding="utf-8")
    (folder / "c-same-as-b.bhh").write_text("\n".join(b), encoding="utf-8")  # same SHA-256 as b
    (folder / "d-examples.bhh").write_text("\n".join(doc_examples()), encoding="utf-8")
    return folder


def run_ingest(inputs: Path, db: Path, jobs: int, chunk: int = SMALL_CHUNK,
               **kwargs: object) -> IngestSummary:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline.ingest, "CHUNK_BLOCKS", chunk)
        with Store(db) as store:
            return ingest([inputs], store, jobs=jobs, audit=True, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def reference(inputs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, IngestSummary]:
    db = tmp_path_factory.mktemp("reference") / "jobs1.duckdb"
    return db, run_ingest(inputs, db, jobs=1)


def test_two_workers_give_the_tables_and_summary_of_one(
    inputs: Path, reference: tuple[Path, IngestSummary], tmp_path: Path
) -> None:
    workers_seen: list[int] = []

    def progress(_: int) -> None:
        workers_seen.append(len(multiprocessing.active_children()))

    db = tmp_path / "jobs2.duckdb"
    summary = run_ingest(inputs, db, jobs=2, progress=progress)
    assert max(workers_seen) == 2, "the chunks were not read by two worker processes"
    ref_db, ref_summary = reference
    assert snapshot(db) == snapshot(ref_db)
    assert summary_json(summary) == summary_json(ref_summary)
    assert summary.audit is not None and ref_summary.audit is not None
    assert summary.audit.to_json() == ref_summary.audit.to_json()


def test_every_block_is_accounted_for_across_chunks_and_files(reference: tuple[Path, IngestSummary]) -> None:
    db, summary = reference
    files = {Path(f.path).name: f for f in summary.files}
    samples = files["a-samples.bhh"]
    assert (samples.blocks, samples.hands, samples.rejects, samples.duplicates) == (
        SAMPLE_HANDS, SAMPLE_HANDS, 0, 0)
    mixed = files["b-mixed.bhh"]
    assert (mixed.blocks, mixed.hands, mixed.rejects, mixed.duplicates) == (60, 26, 3, 31)
    assert (files["c-same-as-b.bhh"].status, files["c-same-as-b.bhh"].hands) == ("already ingested", 0)
    examples = files["d-examples.bhh"]
    assert (examples.hands, examples.rejects) == (14, 0)
    errors = [r.error for r in summary.rejects]
    assert len(errors) == 3
    assert any("already stored from" in e and "a-samples.bhh" in e for e in errors)
    assert any("unexpected 'chekcs'" in e for e in errors)
    assert any("already stored earlier in this file" in e for e in errors)
    assert query(db, "SELECT count(*) FROM rejects") == [(3,)]
    assert query(db, "SELECT count(*) FROM hands") == [(STORED,)]
    assert query(db, "SELECT sum(hands), sum(rejects), sum(duplicates) FROM sources") == [(STORED, 3, 31)]


def test_hands_not_stored_leave_no_audit_rows(reference: tuple[Path, IngestSummary], inputs: Path) -> None:
    db, summary = reference
    assert summary.audit is not None and summary.audit.hands == STORED
    # One audit per stored hand: the duplicates and the clashes, read and replayed by the workers
    # like every hand, left nothing behind, not even under the hand ids they share.
    assert query(db, "SELECT count(*), count(DISTINCT hand_id) FROM audits") == [(STORED, STORED)]
    for table in ("audits", "findings", "allin_adjustments", "awards"):
        orphans = f"SELECT count(*) FROM {table} WHERE hand_id NOT IN (SELECT hand_id FROM hands)"
        assert query(db, orphans) == [(0,)], table
    # The first sample hand has a clash in another file: its computed awards are its own, once.
    first = parse_hand(next(read_blocks(inputs / "a-samples.bhh")).text)
    outcome = replay_hand(first)
    assert outcome.awards
    computed = f"SELECT count(*) FROM awards WHERE hand_id = '{first.hand_id}' AND origin = 'computed'"
    assert query(db, computed) == [(len(outcome.awards),)]


def test_all_in_adjustments_are_stored_by_the_audit_and_replaced_by_a_new_one(
    reference: tuple[Path, IngestSummary], inputs: Path, tmp_path: Path
) -> None:
    ref_db, _ = reference
    db = tmp_path / "copy.duckdb"
    db.write_bytes(ref_db.read_bytes())
    expected = []
    for block in [*read_blocks(inputs / "a-samples.bhh"), *read_blocks(inputs / "d-examples.bhh")]:
        hand = parse_hand(block.text)
        adjustment = all_in_adjusted(hand)
        if adjustment is not None:
            expected += [(hand.hand_id, p, pytest.approx(n / 100), adjustment.street, adjustment.runouts,
                          adjustment.exact) for p, n in adjustment.nets]
    assert expected, "the samples have all-in hands to adjust"
    stored_sql = ("SELECT hand_id, player, adjusted_net, street, runouts, exact FROM allin_adjustments "
                  "WHERE hand_id NOT LIKE '%-b' ORDER BY hand_id, player")  # not b's renamed copies
    assert query(db, stored_sql) == sorted(expected, key=lambda r: (r[0], r[1]))
    with Store(db) as store:
        audit(store, "barge-2021", jobs=1)
    assert query(db, stored_sql) == sorted(expected, key=lambda r: (r[0], r[1]))  # replaced, not added
    # The statistics read them: each adjusted hand counts its adjusted net, not its actual one.
    with duckdb.connect(str(db), read_only=True) as con:
        adjusted_hands = sum(r["allin_adjusted_hands"] for r in player_stats(con).to_dicts())
        stored_rows = con.execute("SELECT count(*) FROM allin_adjustments").fetchall()[0][0]
        assert adjusted_hands == stored_rows
    with duckdb.connect(str(db)) as con:
        con.execute("DROP TABLE allin_adjustments")  # as in a database written before the table
        con.execute("DROP TABLE player_facts")  # and before the statistics' stored facts
        assert sum(r["allin_adjusted_hands"] for r in player_stats(con).to_dicts()) == 0


def test_a_parallel_audit_writes_what_a_single_process_audit_writes(
    reference: tuple[Path, IngestSummary], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref_db, _ = reference
    monkeypatch.setattr(pipeline.audit, "BATCH", 40)
    results = []
    for jobs in (1, 2):
        db = tmp_path / f"audit{jobs}.duckdb"
        db.write_bytes(ref_db.read_bytes())
        with Store(db) as store:
            summary = audit(store, "barge-2021", jobs=jobs)
        results.append((snapshot(db), summary.to_json()))
    assert results[0] == results[1]
    assert results[0][1]["hands"] == STORED
    assert query(db, "SELECT DISTINCT profile FROM audits") == [("barge-2021",)]


def test_a_worker_that_dies_stops_the_run_and_the_next_run_completes_it(
    inputs: Path, reference: tuple[Path, IngestSummary], tmp_path: Path
) -> None:
    killed, kill_a_worker = worker_killer()

    db = tmp_path / "crash.duckdb"
    with pytest.raises(WorkerError, match="rolled back"):
        run_ingest(inputs, db, jobs=2, chunk=5, progress=kill_a_worker)
    assert killed
    assert_no_pool_left()
    # What the unfinished files wrote is gone; what is stored is whole and audited.
    assert query(db, "SELECT count(*) FROM sources WHERE NOT complete") == [(0,)]
    assert query(db, "SELECT coalesce(sum(hands), 0) FROM sources") == query(db, "SELECT count(*) FROM hands")
    assert query(db, "SELECT count(*) FROM hands WHERE hand_id NOT IN (SELECT hand_id FROM audits)") == [(0,)]
    run_ingest(inputs, db, jobs=2)
    assert snapshot(db) == snapshot(reference[0])


KILLABLE = """
import struct
import sys
import pipeline.ingest
pipeline.ingest.CHUNK_BLOCKS = 5
from pipeline.cli import main
sys.exit(main(["ingest", sys.argv[1], "--db", sys.argv[2], "--jobs", "2"]))
"""


def _descendants(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as listing:
            kids = [int(k) for k in listing.read().split()]
    except OSError:
        return []
    return kids + [d for k in kids for d in _descendants(k)]


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from /proc")
def test_a_killed_ingest_leaves_no_worker_process_behind(inputs: Path, tmp_path: Path) -> None:
    # That running it again gives the tables of an uninterrupted run is
    # tests/test_reliability.py's kill test, which runs with a worker per core.
    process = subprocess.Popen([sys.executable, "-c", KILLABLE, str(inputs), str(tmp_path / "killed.duckdb")],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    started: list[int] = []
    while len(started) < 3 and process.poll() is None and time.monotonic() < deadline:
        started = _descendants(process.pid)  # the forkserver and its two workers (a resource tracker)
        time.sleep(0.02)
    assert process.poll() is None, "the ingest finished before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in started if _running(pid)], "processes outlived the killed ingest"


def test_a_wait_for_a_result_ends_when_a_worker_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    # A result that can never come (the pool lost track of it, as when a worker dies holding the
    # task queue's lock): the wait notices the dead worker instead of blocking forever.
    monkeypatch.setattr(pipeline.parallel, "HEALTH_CHECK_SECONDS", 0.05)
    with Workers(2) as workers:
        assert [r for _, _, r in workers.ordered(len, [(0, "ab"), (1, "abc")])] == [2, 3]
        victim = workers.pids()[0]
        os.kill(victim, signal.SIGKILL)
        never: Future[int] = Future()
        with pytest.raises(WorkerError, match="stopped unexpectedly"):
            pipeline.parallel._next(deque([(0, "x", never)]), workers._start())
    assert not workers.pids()
    assert_no_pool_left()


def test_a_worker_killed_while_sending_its_result_does_not_hold_the_stop() -> None:
    # A worker killed halfway through writing a result: the pool's thread has read the message's
    # length and waits for the rest. Here this process writes such a half message itself, then
    # the workers are stopped as after a lost worker; the stop must come back, not wait for ever.
    workers = Workers(2)
    assert [r for _, _, r in workers.ordered(len, [(0, "ab"), (1, "abc")])] == [2, 3]
    pool = workers._start()
    os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1_000) + b"half")  # type: ignore[attr-defined]
    time.sleep(0.2)  # the pool's thread is now inside that message
    stopper = threading.Thread(target=workers.close, kwargs={"cancel": True}, daemon=True)
    stopper.start()
    stopper.join(30)
    assert not stopper.is_alive(), "stopping the workers waited for a message that never comes"
    assert_no_pool_left()


def test_at_most_a_few_tasks_are_in_flight_and_a_barrier_waits_for_all_before_it() -> None:
    pulled: list[int] = []
    consumed: list[int] = []
    in_flight: list[int] = []

    def items() -> Iterator[tuple[int, str | None]]:
        for i in range(60):
            pulled.append(i)
            in_flight.append(len(pulled) - len(consumed))
            if i == 31:
                assert consumed == list(range(31)), "read past a barrier before what came first was done"
            yield i, None if i == 30 else "x" * i

    with Workers(2) as workers:
        for i, task, result in workers.ordered(len, items()):
            assert (task is None and result is None) or result == i
            consumed.append(i)
    assert consumed == list(range(60))
    assert max(in_flight) <= IN_FLIGHT_PER_JOB * 2 + 2


MEASURE = """
import json, sys, tracemalloc
from pathlib import Path
import pyarrow as pa
import pipeline.ingest
from pipeline.ingest import ingest
from pipeline.store import Store
pipeline.ingest.CHUNK_CHARS = int(sys.argv[3])
with Store(Path(sys.argv[2])) as store:
    ingest([Path(sys.argv[4])], store)  # warm up: the parser, and what pyarrow imports lazily
    arrow_before = pa.default_memory_pool().max_memory()
    tracemalloc.start()
    summary = ingest([Path(sys.argv[1])], store)
    python_peak = tracemalloc.get_traced_memory()[1]
    arrow_peak = pa.default_memory_pool().max_memory()
print(json.dumps({"blocks": summary.total("blocks"), "rejects": summary.total("rejects"),
                  "python": python_peak, "arrow": max(arrow_peak - arrow_before, 0)}))
"""


def test_memory_does_not_grow_with_the_size_of_a_file(tmp_path: Path) -> None:
    # 120 MB of hands that are read, rejected and stored with their text, 250 kB at a time:
    # what the ingest holds (Python objects and Arrow buffers; DuckDB's own cache is capped by the
    # store's memory limit) must stay under a twentieth of the file.
    big = tmp_path / "big.bhh"
    line = "Seat 1: " + "x" * 10_000 + "\n"
    with big.open("w", encoding="utf-8") as out:
        for i in range(1200):
            out.write(f"BARGE Hand #M-{i}: no_such_game no-limit (blinds 1/2)\n" + line * 10 + "\n")
    size = big.stat().st_size
    warm = tmp_path / "warm.bhh"
    warm.write_text(doc_examples()[0], encoding="utf-8")
    found = subprocess.run([sys.executable, "-c", MEASURE, str(big), str(tmp_path / "db.duckdb"), "250000",
                            str(warm)], cwd=ROOT, capture_output=True, text=True, check=True)
    measured = json.loads(found.stdout)
    assert (measured["blocks"], measured["rejects"]) == (1200, 1200)
    assert measured["python"] + measured["arrow"] < size / 20, measured
