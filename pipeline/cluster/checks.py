"""The checks across hands (`evaluator.sequences`) of a cluster ingest: the tables the new hands
joined, checked by Ray tasks that read their own hands, before the run is committed.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterator

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from evaluator.catalog import HOUSE_FOLDERS
from evaluator.findings import Finding
from pipeline.audit import joined_by, sequence_parts
from pipeline.cluster.commit import files_after_commit
from pipeline.cluster.runner import run_tasks
from pipeline.cluster.state import Run
from pipeline.cluster.tasks import (
    SEQUENCE_TABLES,
    Rewrite,
    SequenceRead,
    check_part,
    part_of,
    rewrite_part,
    write_partitioned,
)
from pipeline.dataset import Location, create_views
from pipeline.schema import SCHEMAS
from pipeline.tables import arrow_table


def check_across_hands(run: Run, cpus: int) -> None:
    """The checks across hands of every table the new hands joined (`pipeline.audit`), on the
    dataset as the commit will leave it; their findings replace those of earlier runs. The driver
    streams the parts (hand ids and the ingest parts that hold them); each task reads its hands."""
    if run.summary.audit is None or not run.files:
        return
    files = files_after_commit(run)
    by_part = {table: _by_part(files[table]) for table in SEQUENCE_TABLES}
    placed = _placed(run.location, files["hands"])
    # The parts stream from one connection; the findings' partitions are read through the other.
    con, stream = duckdb.connect(), duckdb.connect()
    try:
        for each in (con, stream):
            create_views(each, run.location, files)
        stream.register("placed", placed)
        stream.execute("CREATE VIEW placed_hands AS SELECT h.*, p.part AS placed FROM hands h "
                       "JOIN placed p USING (hand_id)").fetchall()
        condition = " AND ".join(["table_name IS NOT NULL", joined_by("FROM hands WHERE source_id >= ?")])
        results: dict[int, tuple[list[Finding], list[Finding]]] = {}
        checked: list[str] = []

        def tasks() -> Iterator[tuple[int, SequenceRead]]:
            parts = sequence_parts(stream, condition, [run.first_new_source] * 2, "placed_hands", "placed")
            for index, part in enumerate(parts):
                checked.extend(part.formats)
                holding = {t: tuple(f for key in sorted(part.carried) for f in by_part[t].get(key, ()))
                           for t in SEQUENCE_TABLES}
                yield index, SequenceRead(part.formats, holding, run.location, tuple(HOUSE_FOLDERS))

        def done(item: tuple[int, SequenceRead], result: tuple[list[Finding], list[Finding]]) -> None:
            results[item[0]] = result

        run_tasks(_check_part, tasks(), cpus, done)
        # As a local ingest lists them: the findings at each table, then those of players at two.
        found = [f for i in sorted(results) for f in results[i][0]] + \
                [f for i in sorted(results) for f in results[i][1]]
        _replace_sequence_findings(run, con, checked, found)
    finally:
        con.close()
        stream.close()
    run.summary.audit.findings.extend(found)


def _check_part(item: tuple[int, SequenceRead]) -> tuple[list[Finding], list[Finding]]:
    return check_part(item[1])


def _by_part(files: list[str]) -> dict[str, list[str]]:
    found: defaultdict[str, list[str]] = defaultdict(list)
    for file in files:
        found[part_of(file)].append(file)
    return found


def _placed(location: Location, files: list[str]) -> pa.Table:
    """(hand_id, part): the ingest part whose files hold each hand (one column of each file)."""
    tables = [pq.read_table(f, columns=["hand_id"], filesystem=location.fs) for f in files]
    return pa.table({"hand_id": pa.concat_arrays([c for t in tables for c in t.column("hand_id").chunks])
                     if tables else pa.array([], pa.string()),
                     "part": pa.array([part_of(f) for f, t in zip(files, tables, strict=True)
                                       for _ in range(t.num_rows)], pa.string())})


def _replace_sequence_findings(run: Run, con: duckdb.DuckDBPyConnection, checked: list[str],
                               found: list[Finding]) -> None:
    earlier = [(t, f) for t, f in [("findings", f) for f in run.location.files(run.location.path("findings"))]
               if posixpath.basename(f).startswith("part-seq")]
    if earlier and checked:
        rewrite_part(Rewrite(run.location, tuple(
            (t, f, run.staged(posixpath.relpath(f, run.location.root))) for t, f in earlier),
            frozenset(checked), delete_old=False))
        run.deletions += [f for _, f in earlier]
    if not found:
        return
    con.register("found", arrow_table([f.row() for f in found], SCHEMAS["findings"]))
    table = con.sql("SELECT f.*, h.variant, CAST(h.started_at AS DATE) AS date FROM found f "
                    "JOIN hands h USING (hand_id)").to_arrow_table()
    write_partitioned(run.location, run.staged("findings"), table, f"part-seq-{posixpath.basename(run.root)}")
