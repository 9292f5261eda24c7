"""Cluster ingest and its scaling: `barge ingest --cluster ray --out DATASET` on a local Ray cluster
of 1 and of 2 CPUs, side by side with the ingest a user would otherwise run on one machine,
`barge ingest --jobs 1|2` into one DuckDB file, on the same generated hands in the same run.

The input is `barge generate` (every BARGE game, the same number of hands each). Each
measurement is a fresh `barge` process (`benchmarks.ingest.measure`): hands per second from
start-up to exit, the start of the local Ray cluster included (a few seconds, which a long run
pays once), peak memory of the process tree (the driver, Ray's own processes and its workers).
The scaling rows divide the figure at 2 CPUs by the one at 1 CPU.

Run from the repository root: ``.venv/bin/python -m benchmarks.cluster [--hands N]``.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.ingest import ROOT, measure
from benchmarks.suite import row
from evaluator.catalog import GAMES

QUICK_HANDS = 2_000
FULL_HANDS = 100_000
CPUS = (1, 2)
PEER = "barge ingest --jobs N into one DuckDB file"


def make_input(folder: Path, hands: int) -> int:
    """`barge generate` of about `hands` hands, every game alike; returns how many were written."""
    each = math.ceil(hands / len(GAMES))
    subprocess.run([sys.executable, "-m", "pipeline.cli", "generate", str(folder), "--hands", str(each),
                    "--seed", "1"], check=True, cwd=ROOT, capture_output=True)
    return each * len(GAMES)


def run(quick: bool) -> list[dict[str, Any]]:
    return measure_all(QUICK_HANDS if quick else FULL_HANDS)


def measure_all(hands: int) -> list[dict[str, Any]]:
    """The rows of `barge bench --only cluster` for about `hands` generated hands."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="barge-bench-cluster-") as temporary:
        folder = Path(temporary)
        source = folder / "generated"
        written = make_input(source, hands)
        found: dict[tuple[str, int], dict[str, Any]] = {}
        for cpus in CPUS:
            found["cluster", cpus] = measure(source, cpus, folder / f"dataset-{cpus}", cluster=True)
            found["local", cpus] = measure(source, cpus, folder / f"local-{cpus}.duckdb")
            cluster, local = found["cluster", cpus], found["local", cpus]
            note = (f"{cluster['hands']:,} generated hands ({written:,} written, {len(GAMES)} games), "
                    f"a local Ray cluster of {cpus} CPU{'s' if cpus > 1 else ''}, its start included")
            rows.append(row(f"cluster ingest, {cpus} CPU", round(cluster["hands_per_s"], 1),
                            round(local["hands_per_s"], 1), f"{PEER} (--jobs {cpus})", "hands/s", note))
            rows.append(row(f"cluster ingest, {cpus} CPU, peak memory", round(cluster["peak_mb"], 1),
                            round(local["peak_mb"], 1), f"{PEER} (--jobs {cpus})", "MB",
                            "the process tree: the driver, Ray's processes and workers (PSS)"))
        low, high = CPUS

        def scaling(how: str) -> float:
            return round(float(found[how, high]["hands_per_s"]) / float(found[how, low]["hands_per_s"]), 2)

        rows.append(row(f"cluster scaling, {low} to {high} CPUs", scaling("cluster"), scaling("local"),
                        f"{PEER}, --jobs {low} to {high}", "x",
                        f"hands/s at {high} CPUs over hands/s at {low}; {high:.1f} would be perfect"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=FULL_HANDS, help="hands in the input")
    args = parser.parse_args()
    for r in measure_all(args.hands):
        ratio = "" if r["ratio"] is None else f"  ({r['ratio']:.2f}x the peer)"
        print(f"{r['benchmark']}: {r['ours']:,} {r['unit']} against {r['peer']:,}{ratio}")


if __name__ == "__main__":
    main()
