"""Ingest throughput and memory: `barge ingest --jobs N` end to end (read, parse, replay, store).

The input is the sample histories of every variant repeated with renumbered hand ids
(`make_input`), in one large native file, so a single file has to spread over the workers. The
peer is this project's own code run as plain Python (`BARGE_PURE=1`): what the compiled hot path
(`pipeline.hot_path`) buys, on the same file in the same run. Each
measurement runs `barge ingest` in a fresh process on a fresh database and samples the resident
memory of that process and of its workers together (proportional set size from `/proc`, every
250 ms): `peak_mb` is the largest sum seen. Hands per second count every hand stored and
audited, from start-up to exit.

Run from the repository root: ``.venv/bin/python -m benchmarks.ingest [--hands N] [--jobs 1 2]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.suite import versus_plain
from pipeline import hot_path
from pipeline.sources import read_blocks

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_histories"
QUICK_HANDS = 2_000
FULL_HANDS = 100_000
_HEADER_ID = re.compile(r"#([^:\s]+):")
_SAMPLE_EVERY = 0.25  # seconds between samples (reading /proc costs the measured processes CPU)


def sample_blocks() -> list[str]:
    """The hands of the sample histories (every variant; not the audit samples, which break rules)."""
    return [block.text for path in sorted(SAMPLES.glob("*.bhh")) for block in read_blocks(path)]


def renumbered(text: str, copy: int) -> str:
    """The hand with `-r<copy>` added to its hand id, so that every copy is a new hand."""
    return _HEADER_ID.sub(lambda m: f"#{m.group(1)}-r{copy}:", text, count=1)


def make_input(path: Path, hands: int) -> int:
    """Write `hands` hands to one native file, the samples over and over; return how many."""
    blocks = sample_blocks()
    with path.open("w", encoding="utf-8") as out:
        for i in range(hands):
            copy, index = divmod(i, len(blocks))
            out.write(renumbered(blocks[index], copy))
            out.write("\n")
    return hands


def _children(pid: int) -> Iterator[int]:
    """The process and every process below it."""
    yield pid
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as listing:
            kids = [int(k) for k in listing.read().split()]
    except OSError:
        return
    for kid in kids:
        yield from _children(kid)


def _pss_mb(pid: int) -> float:
    """Proportional set size: pages shared with the forkserver and the other workers (the code
    they all imported) count once over all of them, not once per process as RSS would."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cpu_seconds(pid: int) -> float | None:
    """User and system time the process has used so far."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(source: Path, jobs: int, db: Path, pure: bool = False, cluster: bool = False) -> dict[str, Any]:
    """Ingest `source` into a new database `db` with `jobs` workers: hands, seconds, peak memory;
    `pure`: with the hot path run as plain Python (`BARGE_PURE=1`); `cluster`: on a local Ray
    cluster of `jobs` CPUs into the Parquet dataset `db` (`--cluster ray --out`)."""
    target = ["--cluster", "ray", "--out", str(db)] if cluster else ["--db", str(db)]
    command = [sys.executable, "-m", "pipeline.cli", "ingest", str(source), *target, "--jobs", str(jobs),
               "--json"]
    started = time.perf_counter()
    with tempfile.TemporaryFile() as output:
        env = {**os.environ, hot_path.PURE_VARIABLE: "1" if pure else "0"}
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.PIPE, cwd=ROOT, env=env)
        peak = 0.0
        cpu: dict[int, float] = {}  # the last CPU time seen of each process of the tree
        while process.poll() is None:
            tree = list(_children(process.pid))
            peak = max(peak, sum(_pss_mb(p) for p in tree))
            for pid in tree:
                used = _cpu_seconds(pid)
                if used is not None:
                    cpu[pid] = used
            time.sleep(_SAMPLE_EVERY)
        seconds = time.perf_counter() - started
        assert process.stderr is not None
        problem = process.stderr.read().decode(errors="replace")
        if process.returncode != 0:
            raise RuntimeError(f"barge ingest failed ({process.returncode}): {problem[-2000:]}")
        output.seek(0)
        summary = json.loads(output.read())
    return {"hands": summary["hands"], "audited": summary["audit"]["hands"], "jobs": jobs,
            "seconds": seconds, "hands_per_s": summary["hands"] / seconds, "peak_mb": peak,
            "cpu_s": sum(cpu.values()), "per_cpu_s": summary["hands"] / max(sum(cpu.values()), 1e-9)}


def run(quick: bool) -> list[dict[str, Any]]:
    """Rows for `barge bench`: hands per second, hands per CPU-second and peak memory with one
    worker and with one per core, the compiled hot path side by side with the same code run as
    plain Python (`BARGE_PURE=1`) on the same file."""
    hands = QUICK_HANDS if quick else FULL_HANDS
    compiled = hot_path.describe().startswith("compiled")
    rows = []
    with tempfile.TemporaryDirectory(prefix="barge-bench-ingest-") as folder:
        source = Path(folder) / "histories.bhh"
        make_input(source, hands)
        size = source.stat().st_size / 1e6
        for jobs in sorted({1, os.cpu_count() or 1}):
            ours = measure(source, jobs, Path(folder) / f"jobs{jobs}.duckdb")
            plain = None
            if compiled:
                plain = measure(source, jobs, Path(folder) / f"jobs{jobs}-pure.duckdb", pure=True)
            note = (f"{ours['hands']:,} hands ({size:,.0f} MB, the samples repeated) in one file, "
                    f"--jobs {jobs}, parsed, replayed and stored")
            rows.extend(_rows(f"ingest --jobs {jobs}", ours, plain, note))
    return rows


def _rows(name: str, ours: dict[str, Any], plain: dict[str, Any] | None, note: str) -> list[dict[str, Any]]:
    """Speed, speed per CPU-second and peak memory of `ours`, each against `plain` when measured."""
    memory = f"the ingest process and its workers (PSS), sampled every {_SAMPLE_EVERY * 1000:.0f} ms"
    figures = (("", "hands_per_s", "hands/s", note),
               (" per CPU-second", "per_cpu_s", "hands/CPU-s", "CPU time of the process and its workers"),
               (" peak memory", "peak_mb", "MB", memory))
    return [versus_plain(name + suffix, round(ours[key], 1), None if plain is None else round(plain[key], 1),
                         unit, text) for suffix, key, unit, text in figures]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=FULL_HANDS, help="hands in the input")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, os.cpu_count() or 1])
    parser.add_argument("--keep", type=Path, help="keep the input and databases in this folder")
    parser.add_argument("--pure", action="store_true", help="run the hot path as plain Python (BARGE_PURE=1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="barge-bench-ingest-") as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        source = folder / f"histories-{args.hands}.bhh"
        if not source.exists():
            make_input(source, args.hands)
        for jobs in args.jobs:
            db = folder / f"jobs{jobs}.duckdb"
            db.unlink(missing_ok=True)
            found = measure(source, jobs, db, args.pure)
            print(f"--jobs {jobs}: {found['hands']:,} hands in {found['seconds']:.1f} s = "
                  f"{found['hands_per_s']:,.0f} hands/s, peak {found['peak_mb']:,.0f} MB, "
                  f"{found['cpu_s']:.1f} CPU s ({found['hands'] / found['cpu_s']:,.0f} hands per CPU s)")


if __name__ == "__main__":
    main()
