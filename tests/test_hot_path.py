"""The compiled hot path (`pipeline.hot_path`): built modules are used all together or not at all,
`BARGE_PURE=1` runs the same code as plain Python, a source changed after its build is never
shadowed by its stale extension, and both paths give the same stored hands and findings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from pipeline import hot_path
from tests.conftest import ROOT, SAMPLES


def _describe(pure: bool) -> str:
    env = {**os.environ, hot_path.PURE_VARIABLE: "1" if pure else "0"}
    done = subprocess.run([sys.executable, "-c", "from pipeline import hot_path; print(hot_path.describe())"],
                          capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    return done.stdout.strip()


def test_barge_pure_runs_every_hot_module_from_its_source() -> None:
    assert _describe(pure=True) == "plain Python (BARGE_PURE=1)"


def test_the_hot_modules_run_all_compiled_or_all_from_source() -> None:
    """Compiled modules call each other directly: a mix would hand a plain-Python object to C
    code expecting its own class."""
    line = _describe(pure=False)
    assert line.startswith(("compiled (mypyc, ", "plain Python (")), line
    if hot_path.pure_requested():
        pytest.skip("BARGE_PURE=1: this run is the plain path")
    if any(Path(ROOT, p).with_suffix(s).exists() for p in hot_path.COMPILED for s in (".so",)):
        pytest.fail("an extension was found under a name Python does not load")  # the suffix is ABI-tagged
    if os.environ.get("BARGE_EXPECT_COMPILED") == "1":  # set by `make test`, which builds the path first
        assert line == f"compiled (mypyc, {len(hot_path.COMPILED)} modules)"


def test_a_source_changed_after_its_build_is_run_from_source(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pkg").mkdir()
    source = tmp_path / "pkg" / "engine.py"
    source.write_text("X = 1\n")
    extension = source.with_suffix(hot_path.EXTENSION_SUFFIXES[0])
    extension.write_bytes(b"")
    monkeypatch.setattr(hot_path, "ROOT", tmp_path)
    monkeypatch.setattr(hot_path, "COMPILED", ("pkg/engine.py",))
    os.utime(source, (1_000_000, 1_000_000))
    os.utime(extension, (1_000_001, 1_000_001))
    assert hot_path.stale() == []  # built after its source: used
    os.utime(source, (1_000_100, 1_000_100))
    assert hot_path.stale() == ["pkg/engine.py"]  # edited since: the source runs
    extension.unlink()
    assert hot_path.stale() == []  # never built: nothing to be stale, the source runs anyway


def _ingest(db: Path, pure: bool) -> tuple[dict[str, object], list[tuple[object, ...]]]:
    env = {**os.environ, hot_path.PURE_VARIABLE: "1" if pure else "0"}
    command = [sys.executable, "-m", "pipeline.cli", "ingest", str(SAMPLES), "--db", str(db), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    report = json.loads(done.stdout)
    with duckdb.connect(str(db), read_only=True) as con:
        found = con.execute("SELECT hand_id, seq, severity, code, message, rule FROM findings "
                            "ORDER BY ALL").fetchall()
        found += con.execute("SELECT hand_id, seq, pot, player, amount, portion, hand FROM awards "
                             "ORDER BY ALL").fetchall()
        found += con.execute("SELECT * EXCLUDE (source_id) FROM rejects ORDER BY ALL").fetchall()
    return report, found


def test_both_paths_store_the_same_hands_awards_and_findings(tmp_path: Path) -> None:
    compiled_report, compiled_rows = _ingest(tmp_path / "compiled.duckdb", pure=False)
    plain_report, plain_rows = _ingest(tmp_path / "plain.duckdb", pure=True)
    assert compiled_rows == plain_rows
    assert compiled_report["hands"] == plain_report["hands"] and compiled_report["hands"]
    assert compiled_report["audit"] == plain_report["audit"]


def test_hands_and_findings_cross_processes_intact() -> None:
    """Workers send findings (with their codes) back to the parent; a compiled frozen class is
    pickled through its constructor (`hot_path.make_picklable`)."""
    import pickle

    import pipeline.workers  # noqa: F401  (registers the picklers, as in a worker)
    from evaluator.replay import replay_hand
    from pipeline.formats import FORMATS, NATIVE
    from pipeline.sources import read_blocks

    block = next(read_blocks(SAMPLES / "audit" / "RAISE_BELOW_MINIMUM.bhh"))
    hand = FORMATS[NATIVE].parse(block.text)
    found = replay_hand(hand).findings
    assert found
    assert pickle.loads(pickle.dumps(hand)) == hand
    assert pickle.loads(pickle.dumps(found)) == found
