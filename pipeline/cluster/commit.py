"""Committing a cluster ingest's run: its `sources` rows, a manifest of its files, then the files
moved into the dataset; a run killed before its manifest leaves nothing, one killed after it is
finished by the next (`recover`).
"""

from __future__ import annotations

import fcntl
import posixpath
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from pipeline.cluster.state import Run
from pipeline.dataset import COMMIT, STAGING, DatasetError, Location, rules_key, schemas, write_rules
from pipeline.schema import SCHEMAS
from pipeline.tables import arrow_table

COMMIT_THREADS = 16  # a commit's moves at once (object storage copies each file)


@contextmanager
def locked(location: Location) -> Iterator[None]:
    """One ingest at a time into a local dataset (object stores have no lock: one driver each)."""
    if not location.local:
        yield
        return
    with open(Path(location.root) / ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DatasetError(f"{location.name} is being written by another ingest; try again when it has "
                               "finished") from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def recover(location: Location) -> None:
    """Finish the runs that were committed and not moved into place; remove the others' files."""
    for folder in location.folders(location.path(STAGING)):
        manifest = posixpath.join(folder, COMMIT)
        if location.exists(manifest):
            apply(location, location.read_json(manifest))
        location.fs.delete_dir(folder)


def write_sources(run: Run) -> None:
    now = datetime.now()
    rows = [(f.source_id, f.path, f.sha, f.fmt, now, f.report.hands, f.report.rejects, f.report.duplicates,
             True) for f in run.files.values()]
    if rows:
        folder = run.staged("sources")
        run.location.fs.create_dir(folder, recursive=True)
        name = f"part-{posixpath.basename(run.root)}.parquet"  # one file per run: the runs' rows add up
        pq.write_table(arrow_table(rows, SCHEMAS["sources"]), posixpath.join(folder, name),
                       filesystem=run.location.fs)
    if not run.location.exists(run.location.path("rules", rules_key())):
        run.deletions += run.location.files(run.location.path("rules"))
        write_rules(run.location, run.root)


def files_after_commit(run: Run) -> dict[str, list[str]]:
    """Each table's files as the commit will leave them: the committed ones it keeps, the run's."""
    gone = set(run.deletions)
    files = {}
    for table in schemas():
        committed = [f for f in run.location.files(run.location.path(table)) if f not in gone]
        files[table] = committed + run.location.files(run.staged(table))
    return files


def commit(run: Run) -> None:
    """Write the manifest (the commit), then move the run's files into place."""
    moves = [(file, run.location.path(posixpath.relpath(file, run.root)))
             for table in schemas() for file in run.location.files(run.staged(table))]
    manifest = {"moves": moves, "deletions": sorted(set(run.deletions))}
    if not run.location.exists(run.root):
        return
    run.location.write_json(run.staged(COMMIT), manifest)
    apply(run.location, manifest)
    run.location.fs.delete_dir(run.root)


def apply(location: Location, manifest: dict[str, Any]) -> None:
    """Make a committed run's moves and deletions, several at once; each is skipped when already
    made (a commit finished by a later run)."""
    def move(source: str, target: str) -> None:
        if location.exists(source):
            location.fs.move(source, target)

    def delete(path: str) -> None:
        if location.exists(path):
            location.fs.delete_file(path)

    for folder in sorted({posixpath.dirname(target) for _, target in manifest["moves"]}):
        location.fs.create_dir(folder, recursive=True)
    moves = manifest["moves"]
    with ThreadPoolExecutor(COMMIT_THREADS) as pool:
        list(pool.map(move, [source for source, _ in moves], [target for _, target in moves]))
        list(pool.map(delete, manifest["deletions"]))  # after the moves: a file replaced goes last
