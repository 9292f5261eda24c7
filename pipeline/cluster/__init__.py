"""`barge ingest --cluster ray --out DATASET`: ingest on a Ray cluster into a Parquet dataset.

The driver (this process) lists the files, reads them into parts of `PART_BLOCKS` hand blocks as
a local ingest reads chunks, and hands each part to a Ray task (`pipeline.cluster.tasks.ingest_part`:
the reader, replay and settlement of `--jobs`), which writes the part's tables as Parquet into the
run's staging folder. No hand passes through the driver on its way to storage. Then:

1. the hand ids stored by two parts, or already in the dataset, are resolved as a local ingest
   resolves them (same text: a duplicate; other text: rejected as a clash; a changed file's new
   version replaces the old), from the small `_keys` files, and the parts concerned are written
   again without them by Ray tasks (`tasks.rewrite_part`);
2. the run's `sources` rows are written, the checks across hands (`evaluator.sequences`) run as
   Ray tasks over the tables the new hands joined, and their findings are written;
3. the run is committed: a manifest of its files is written (`COMMIT.json`), then they are moved
   into the dataset. A run killed before its manifest leaves nothing visible (its staging folder
   is removed by the next run); one killed after it is finished by the next run.

A task that fails because its worker died is run again by Ray; it writes the same files (their
names are the part's key), so a retry adds nothing twice. Every hand block is counted (stored,
rejected or duplicate) and checked at the end, as on one machine.

One module per step: `reading` (files into parts), `tasks` (what a Ray task does), `resolve`
(hand ids stored twice), `checks` (the checks across hands), `commit` (sources, manifest, moves,
recovery); `runner` joins or starts Ray and runs tasks, `state` is what the driver knows of a run.
"""

from __future__ import annotations

import contextlib
import sys
import uuid
from collections.abc import Iterable
from pathlib import Path
from time import perf_counter

from pipeline.audit import AuditSummary
from pipeline.cluster.checks import check_across_hands
from pipeline.cluster.commit import commit, locked, recover, write_sources
from pipeline.cluster.reading import read_parts
from pipeline.cluster.resolve import resolve
from pipeline.cluster.runner import ClusterError, start_ray
from pipeline.cluster.state import Run
from pipeline.dataset import STAGING, DatasetError, create, locate
from pipeline.ingest import IngestSummary, Progress

__all__ = ["ClusterError", "DatasetError", "ingest_cluster", "recover", "start_ray"]


def ingest_cluster(paths: Iterable[Path], out: str, progress: Progress | None = None, *,
                   address: str | None = None, cpus: int | None = None, audit: bool = True,
                   rules: str | None = None) -> IngestSummary:
    """Ingest files and folders into the Parquet dataset `out` on a Ray cluster (a local one on
    `cpus` cores without `address`); return the same summary a local ingest returns."""
    started = perf_counter()
    location = locate(out)
    create(location)
    summary = IngestSummary(audit=AuditSummary(profile=rules) if audit else None)
    # Ray's driver prints what the raylets report (a worker that died, a task retried) on standard
    # output, where a user's `--json` goes: it goes to standard error instead.
    with locked(location), contextlib.redirect_stdout(sys.stderr):
        recover(location)
        run = Run(location, location.path(STAGING, uuid.uuid4().hex), summary, audit, rules)
        cluster_cpus = start_ray(address, cpus)
        read_parts(run, paths, progress, cluster_cpus)
        resolve(run, cluster_cpus)
        order = {report.path: i for i, report in enumerate(summary.files)}  # the parts end in any order
        summary.rejects.sort(key=lambda r: (order[r.path], r.line))
        if summary.audit is not None:  # in the order of the input, as a local ingest lists them
            summary.audit.hands = summary.total("hands")
            summary.audit.findings = [f for key in sorted(run.findings, key=run.order.__getitem__)
                                      for f in run.findings[key]]
        write_sources(run)
        check_across_hands(run, cluster_cpus)
        commit(run)
    summary.seconds = perf_counter() - started
    summary.check()
    return summary
