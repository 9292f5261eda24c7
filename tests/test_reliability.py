"""Nothing lost, nothing counted twice: interrupted ingests, changed files, locks, retries."""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

import pipeline.ingest
from grammar.barge_parser import parse_hand
from pipeline.cli import main
from pipeline.formats import FORMATS, NATIVE
from pipeline.ingest import ingest
from pipeline.schema import SCHEMAS
from pipeline.sources import Head, read_head
from pipeline.store import Store
from tests.conftest import doc_examples

BARGE = [sys.executable, "-m", "pipeline.cli"]


def numbered(text: str, n: int) -> str:
    return re.sub(r"#([^:]+):", lambda m: f"#{m.group(1)}-{n}:", text, count=1)


def make_inputs(folder: Path, files: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    examples = doc_examples()
    for i in range(files):
        hands = [numbered(t, i) for t in examples]
        hands.insert(3, numbered(hands[3], "x").replace("checks", "chekcs", 1))  # a reject in every file
        (folder / f"event-{i:03d}.bhh").write_text("\n".join(hands), encoding="utf-8")
    return folder


EXCLUDE = {"sources": "EXCLUDE (ingested_at)", "audits": "EXCLUDE (audited_at)"}  # the clock's columns


def snapshot(db: Path) -> dict[str, list[tuple[object, ...]]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return {
            name: con.execute(
                f"SELECT * {EXCLUDE.get(name, '')} FROM {name} ORDER BY ALL"
            ).fetchall()
            for name in SCHEMAS
        }


def test_killing_ingest_at_any_moment_and_running_it_again_gives_the_same_tables(tmp_path: Path) -> None:
    folder = make_inputs(tmp_path / "in", 80)
    reference = tmp_path / "reference.duckdb"
    started = time.monotonic()
    subprocess.run([*BARGE, "ingest", str(folder), "--db", str(reference)], check=True, capture_output=True)
    duration = time.monotonic() - started
    interrupted = tmp_path / "interrupted.duckdb"
    rng = random.Random(7)
    kills = 0
    for _ in range(5):
        process = subprocess.Popen([*BARGE, "ingest", str(folder), "--db", str(interrupted)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Anywhere from start-up to the last files; each run also resumes the previous ones.
        time.sleep(rng.uniform(0.1, 0.6) * duration)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            kills += 1
        process.wait()
    assert kills, "every run finished before it could be killed; the test proved nothing"
    subprocess.run([*BARGE, "ingest", str(folder), "--db", str(interrupted)], check=True, capture_output=True)
    assert snapshot(interrupted) == snapshot(reference)


def test_a_changed_file_stores_only_its_new_and_changed_hands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = make_inputs(tmp_path / "in", 3)
    db = tmp_path / "db.duckdb"
    assert main(["ingest", str(folder), "--db", str(db)]) == 0
    before = snapshot(db)
    changed = folder / "event-001.bhh"
    hands = changed.read_text(encoding="utf-8").split("\n\n")
    edited_id = parse_hand(hands[0]).hand_id
    hands[0] = hands[0].rstrip("\n") + "\nNote: corrected by the scorekeeper\n"
    hands[3] = hands[3].replace("chekcs", "checks")  # the reject, fixed
    hands.append(numbered(doc_examples()[0], 999))
    changed.write_text("\n\n".join(hands), encoding="utf-8")
    capsys.readouterr()
    assert main(["ingest", str(folder), "--db", str(db), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    statuses = {Path(f["path"]).name: f["status"] for f in summary["files"]}
    assert statuses == {"event-000.bhh": "already ingested", "event-001.bhh": "ingested",
                        "event-002.bhh": "already ingested"}
    assert (summary["hands"], summary["changed"], summary["rejects"]) == (3, 1, 0)
    assert summary["duplicates"] == len(hands) - 3
    after = snapshot(db)
    assert len(after["hands"]) == len(before["hands"]) + 2
    assert len(after["rejects"]) == len(before["rejects"]) - 1
    with Store(db, read_only=True) as store:
        hand = store.load_hand(edited_id)
    assert hand is not None and hand.actions[-1].detail == "corrected by the scorekeeper"


def test_every_block_is_accounted_for_per_file_and_in_total(tmp_path: Path) -> None:
    folder = make_inputs(tmp_path / "in", 2)
    (folder / "dupes.bhh").write_text(numbered(doc_examples()[0], 0) + "\n" + "garbage\n", encoding="utf-8")
    with Store(tmp_path / "db.duckdb") as store:
        summary = ingest([folder], store)
    for f in summary.files:
        assert f.blocks == f.hands + f.rejects + f.duplicates
    assert summary.total("blocks") == 2 * 15 + 2
    assert (summary.total("hands"), summary.total("rejects"), summary.total("duplicates")) == (28, 3, 1)


def test_retry_rejects_stores_what_reads_now(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_inputs(tmp_path / "in", 2)
    db = tmp_path / "db.duckdb"
    main(["ingest", str(folder), "--db", str(db)])
    capsys.readouterr()
    assert main(["rejects", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert listing.count("unexpected 'chekcs'") == 2 and "2 rejected hands" in listing
    # A grammar that has learned the typo.
    native = FORMATS[NATIVE]
    lenient = replace(native, parse=lambda text: native.parse(text.replace("chekcs", "checks")))
    monkeypatch.setitem(FORMATS, NATIVE, lenient)
    assert main(["ingest", "--retry-rejects", "--db", str(db), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["hands"], summary["rejects"]) == (2, 0)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM rejects").fetchall() == [(0,)]
        assert con.execute("SELECT sum(hands), sum(rejects) FROM sources").fetchall() == [(30, 0)]
        assert con.execute("SELECT count(*) FROM hands").fetchall() == [(30,)]


HOLDER = """
import sys, duckdb
con = duckdb.connect(sys.argv[1])
print("holding", flush=True)
sys.stdin.read()  # hold the database until the test closes our stdin
"""


def test_a_second_writer_waits_or_fails_with_a_clear_message(tmp_path: Path) -> None:
    folder = make_inputs(tmp_path / "in", 1)
    db = tmp_path / "db.duckdb"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdin is not None and holder.stdout is not None
    assert holder.stdout.readline().strip() == "holding"
    failed = subprocess.run([*BARGE, "ingest", str(folder), "--db", str(db), "--wait", "0.5"],
                            capture_output=True, text=True)
    assert failed.returncode == 3
    assert "in use by another process" in failed.stderr and "Traceback" not in failed.stderr
    waiting = subprocess.Popen([*BARGE, "ingest", str(folder), "--db", str(db), "--wait", "120", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)  # the second writer starts and finds the database held
    holder.stdin.close()
    holder.wait()
    output, errors = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, errors
    assert json.loads(output)["hands"] == 14


def test_hostile_files_give_messages_not_tracebacks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "loop").symlink_to(folder, target_is_directory=True)
    example = doc_examples()[1]
    (folder / "long-line.bhh").write_text(example.replace("Bo: bets 15.50", "Bo: bets " + "9" * 1_000_000))
    many = "\n".join(["Ann: checks", "Bo: checks"] * 5000)
    (folder / "long-hand.bhh").write_text(example.replace("Ann: checks\n", many + "\n", 1))
    (folder / "vanishing.bhh").write_text(example)
    (folder / "blob.bin").write_bytes(bytes(range(256)) * 100)
    (folder / "empty.bhh").write_text("")

    real_read = read_head

    def vanish(path: Path) -> Head:
        if path.name == "vanishing.bhh":
            path.unlink()  # gone between being listed and being read
        return real_read(path)

    monkeypatch.setattr(pipeline.ingest, "read_head", vanish)
    code = main(["ingest", str(folder), "--db", str(tmp_path / "db.duckdb"), "--json"])
    summary = json.loads(capsys.readouterr().out)
    reports = {Path(f["path"]).name: f for f in summary["files"]}
    assert code == 3  # a file could not be read
    assert reports["loop"]["reason"].startswith("directory loop")
    assert reports["vanishing.bhh"]["reason"] == "cannot read: No such file or directory"
    assert reports["blob.bin"]["reason"] == "binary file, not text"
    assert reports["empty.bhh"]["reason"] == "empty file"
    assert (reports["long-line.bhh"]["rejects"], reports["long-hand.bhh"]["hands"]) == (1, 1)
    [detail] = summary["reject_details"]
    assert "is too large (at most 16 digits)" in detail["error"]
    assert len(detail["error"]) < 300
    with duckdb.connect(str(tmp_path / "db.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM actions").fetchall()[0][0] > 10_000
