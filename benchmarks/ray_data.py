"""Ray tasks against Ray Data for the parts of a cluster ingest: the same `PartTask`s
(`pipeline.cluster.reading.parts`, read once) run by `pipeline.cluster.tasks.ingest_part`, submitted
as Ray tasks with backpressure (`pipeline.cluster.runner.run_tasks`, what `--cluster ray` does) and as a Ray
Data `map` over the same items, alternately, each into a staging folder of its own. Issue 19 asked
for whichever measures better; docs/scale.md has the figures.

Run alone from the repository root: ``.venv/bin/python -m benchmarks.ray_data [--hands N] [--cpus N]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.cluster import make_input
from pipeline.cluster.reading import parts as cut_parts
from pipeline.cluster.runner import run_tasks, start_ray
from pipeline.cluster.state import Run
from pipeline.cluster.tasks import PartTask, ingest_part
from pipeline.dataset import create, locate
from pipeline.ingest import IngestSummary


def _hands(row: dict[str, Any]) -> dict[str, Any]:
    return {"hands": ingest_part(row["task"]).hands}


def with_tasks(parts: list[PartTask], cpus: int) -> int:
    stored = []
    run_tasks(ingest_part, parts, cpus, lambda _, result: stored.append(result.hands))
    return sum(stored)


def with_data(parts: list[PartTask], cpus: int) -> int:
    import ray.data

    rows = ray.data.from_items([{"task": p} for p in parts], override_num_blocks=len(parts))
    total = rows.map(_hands, num_cpus=1, concurrency=cpus).sum("hands")  # one column: a number
    assert isinstance(total, int)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    start_ray(None, args.cpus)
    with tempfile.TemporaryDirectory(prefix="barge-bench-ray-data-") as temporary:
        folder = Path(temporary)
        make_input(folder / "generated", args.hands)
        location = locate(folder / "dataset")
        create(location)
        run = Run(location, location.path("_staging", "read"), IngestSummary(), True, None)
        parts = list(cut_parts(run, [folder / "generated"]))
        for round_ in range(args.rounds):
            for name, way in (("Ray tasks", with_tasks), ("Ray Data", with_data)):
                root = location.path("_staging", f"{name.replace(' ', '-')}-{round_}")
                started = time.perf_counter()
                stored = way([replace(p, root=root) for p in parts], args.cpus)
                seconds = time.perf_counter() - started
                print(f"round {round_ + 1}, {name}: {stored:,} hands in {seconds:.1f} s = "
                      f"{stored / seconds:,.0f} hands/s on {args.cpus} CPUs")


if __name__ == "__main__":
    main()
