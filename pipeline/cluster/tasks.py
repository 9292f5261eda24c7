"""What a cluster task does (`pipeline.cluster` runs these as Ray tasks): read a part of the input
and write its tables into a run's staging folder of a Parquet dataset (`pipeline.dataset`).

`ingest_part` is `pipeline.workers.read_chunk` (the same reading, replay and settlement as
`barge ingest --jobs`) followed by what the single writer of a local ingest does with a chunk:
the hand ids repeated within the part are resolved (same text: a duplicate; other text: a
reject), the facts and totals of the statistics are derived from the part's rows, and every table
is written as Parquet, partitioned by variant and day, under names made of the part's key. The
hand ids repeated *between* parts are resolved by the driver afterwards (`rewrite_part` drops
them). Nothing here imports Ray: these are plain functions of picklable data.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from evaluator.catalog import add_games
from evaluator.findings import Finding
from evaluator.sequences import ACTION_KINDS
from pipeline.dataset import FLAT, HIVE, Location, schemas
from pipeline.schema import FACTS_TABLE, SCHEMAS, TOTALS_TABLE, create_table_sql
from pipeline.stats import refresh_facts
from pipeline.store import hand_tables
from pipeline.tables import arrow_table
from pipeline.workers import ReadResult, ReadTask, SequenceTask, check_sequences, read_chunk

KEYS = "_keys"  # staging only: each stored hand's id, text digest and place, for the driver
KEYS_SCHEMA = pa.schema([("hand_id", pa.string()), ("digest", pa.string()), ("source_id", pa.int64()),
                         ("line", pa.int64()), ("variant", pa.string()), ("part", pa.string())])
PARTITIONING = ds.partitioning(pa.schema([("variant", pa.string()), ("date", pa.date32())]), flavor="hive")


def task_key(task: ReadTask) -> str:
    """The part's name: what it reads, so a task run again writes the files it wrote before."""
    digest = hashlib.sha256(repr((task.audit, task.rules, task.spans)).encode())
    for block in task.blocks:
        digest.update(f"{block.line}\x1f{block.text}\x1e".encode())
    return digest.hexdigest()[:24]


@dataclass(frozen=True, slots=True)
class PartTask:
    """A part of the input to read into the run's staging folder `root`; `paths[i]` is the file of
    `read.spans[i]` (a reject names it); `games`: the folders of the house games the driver loaded
    (docs/games.md), loaded by the task as a worker process of `--jobs` loads them."""

    read: ReadTask
    paths: tuple[str, ...]
    location: Location
    root: str
    games: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return task_key(self.read)


@dataclass(slots=True)
class SpanCount:
    """What a part did with the blocks of one file."""

    source_id: int
    blocks: int = 0
    hands: int = 0
    rejects: int = 0
    duplicates: int = 0
    by_variant: Counter[str] = field(default_factory=Counter)
    reject_lines: list[tuple[int, int, str]] = field(default_factory=list)  # (line, column, error)


@dataclass(frozen=True, slots=True)
class PartResult:
    key: str
    spans: tuple[SpanCount, ...]
    findings: tuple[Finding, ...]  # of the hands it stored
    hands: int


def _owners(task: ReadTask) -> list[int]:
    """The span (file) of each block of the task."""
    owners: list[int] = []
    for index, span in enumerate(task.spans):
        owners += [index] * span.blocks
    return owners


def ingest_part(task: PartTask) -> PartResult:
    """Read, replay and settle a part, resolve the hand ids it repeats, write its tables."""
    add_games([Path(folder) for folder in task.games])
    read = task.read
    result = read_chunk(read)
    owners = _owners(read)
    counts = tuple(SpanCount(s.source_id, blocks=s.blocks) for s in read.spans)
    reject_rows: list[tuple[int, int, int, str, str, int]] = []
    for bad in result.rejects:
        span = owners[bad.block]
        counts[span].rejects += 1
        counts[span].reject_lines.append((bad.line, bad.column, bad.message))
        block = read.blocks[bad.block]
        reject_rows.append((read.spans[span].source_id, bad.line, bad.column, bad.message, block.text,
                            block.line))
    keep = np.zeros(len(result.hands), dtype=np.bool_)
    kept: dict[str, tuple[str, int]] = {}  # hand id: digest and span of the version kept
    findings: list[Finding] = []
    for i, hand in enumerate(result.hands):
        span, block = owners[hand.block], read.blocks[hand.block]
        earlier = kept.get(hand.hand_id)
        if earlier is not None and earlier[0] == hand.digest:
            counts[span].duplicates += 1
            continue
        if earlier is not None:  # as a local ingest rejects a clash within a chunk
            where = "earlier in this file" if earlier[1] == span else f"from {task.paths[earlier[1]]}"
            message = f"hand #{hand.hand_id} is already stored {where} with different content"
            counts[span].rejects += 1
            counts[span].reject_lines.append((block.line, 1, message))
            reject_rows.append((read.spans[span].source_id, block.line, 1, message, block.text, block.line))
            continue
        kept[hand.hand_id] = (hand.digest, span)
        keep[i] = True
        counts[span].hands += 1
        counts[span].by_variant[hand.variant] += 1
        findings.extend(result.findings[i])
    key = task.key
    tables = _kept_tables(result, keep)
    _write_partitioned(task, tables, key)
    _write_flat(task, "rejects", arrow_table(reject_rows, SCHEMAS["rejects"]), f"part-{key}.parquet")
    lines = {h.hand_id: read.blocks[h.block].line for h in result.hands}
    stored = [h for h, k in zip(result.hands, keep, strict=True) if k]
    _write_flat(task, KEYS, pa.table({
        "hand_id": [h.hand_id for h in stored], "digest": [h.digest for h in stored],
        "source_id": [read.spans[owners[h.block]].source_id for h in stored],
        "line": [lines[h.hand_id] for h in stored], "variant": [h.variant for h in stored],
        "part": [key] * len(stored)}, schema=KEYS_SCHEMA), f"part-{key}.parquet")
    return PartResult(key, counts, tuple(findings), len(stored))


def _kept_tables(result: ReadResult, keep: np.ndarray) -> dict[str, pa.Table]:
    """The stored tables' rows of the kept hands (the audit's awards after the recorded ones), and
    the facts and totals the statistics derive from them (`pipeline.stats.refresh_facts`)."""
    tables = result.tables.select(keep)
    if result.audit is not None:
        for name, table in result.audit.select(keep).items():
            tables[name] = pa.concat_tables([tables[name], table]) if name in tables else table
    con = duckdb.connect()
    try:
        con.execute("SET threads = 1").fetchall()  # one task, one core: the cluster runs many
        for name in SCHEMAS:
            con.execute(create_table_sql(name)).fetchall()
            if name in tables and tables[name].num_rows:
                con.register("incoming", tables[name])
                con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM incoming").fetchall()
                con.unregister("incoming")
        refresh_facts(con)
        for name in (FACTS_TABLE, TOTALS_TABLE):
            tables[name] = con.sql(f"SELECT * FROM {name}").to_arrow_table()
    finally:
        con.close()
    return tables


def _partition_columns(tables: dict[str, pa.Table]) -> dict[str, tuple[str, object]]:
    hands = tables["hands"]
    days = pc.cast(hands.column("started_at"), pa.date32()).to_pylist()
    return {h: (v, d) for h, v, d in zip(hands.column("hand_id").to_pylist(),
                                         hands.column("variant").to_pylist(), days, strict=True)}


def _write_partitioned(task: PartTask, tables: dict[str, pa.Table], key: str) -> None:
    """Every table of hands under `<table>/variant=/date=/part-<key>-<n>.parquet`."""
    where = _partition_columns(tables)
    for name, schema in schemas().items():
        if name in FLAT or name not in tables or tables[name].num_rows == 0:
            continue
        table = tables[name].select([f.name for f in schema])
        ids = table.column("hand_id").to_pylist()
        if "variant" not in table.column_names:
            table = table.append_column("variant", pa.array([where[h][0] for h in ids], pa.string()))
        table = table.append_column("date", pa.array([where[h][1] for h in ids], pa.date32()))
        write_partitioned(task.location, posixpath.join(task.root, name), table, f"part-{key}")


def write_partitioned(location: Location, folder: str, table: pa.Table, name: str) -> None:
    """A table with `variant` and `date` columns as hive partitions under `folder`, its files named
    `<name>-<n>.parquet` (a second write of the same table replaces the first's files)."""
    ds.write_dataset(table, folder, format="parquet", filesystem=location.fs, partitioning=PARTITIONING,
                     basename_template=f"{name}-{{i}}.parquet", existing_data_behavior="overwrite_or_ignore")


def _write_flat(task: PartTask, name: str, table: pa.Table, file: str) -> None:
    if table.num_rows == 0:
        return
    folder = posixpath.join(task.root, name)
    task.location.fs.create_dir(folder, recursive=True)
    pq.write_table(table, posixpath.join(folder, file), filesystem=task.location.fs)


# ---- the checks across hands: a part reads its hands' rows itself --------------------------------

SEQUENCE_TABLES = ("hands", "seats", "actions", "awards")  # what `pipeline.store.hand_tables` reads


@dataclass(frozen=True, slots=True)
class SequenceRead:
    """A part of the checks across hands (`pipeline.audit.sequence_parts`): its hands' formats and,
    per table, the files that hold their rows (those of the ingest parts that stored them)."""

    formats: dict[str, str]
    files: dict[str, tuple[str, ...]]
    location: Location
    games: tuple[str, ...] = ()


def check_part(task: SequenceRead) -> tuple[list[Finding], list[Finding]]:
    """Read the part's hands from its files, as `pipeline.store.hand_tables` reads them from a
    store, and check them (`pipeline.workers.check_sequences`)."""
    add_games([Path(folder) for folder in task.games])
    ids = pa.array(list(task.formats), pa.string())
    con = duckdb.connect()
    try:
        con.execute("SET threads = 1").fetchall()
        for name in SEQUENCE_TABLES:
            columns = [f.name for f in SCHEMAS[name] if f.name != "raw_text"]
            files = list(task.files.get(name, ()))
            rows = (ds.dataset(files, format="parquet", filesystem=task.location.fs, partitioning=HIVE)
                    .to_table(columns=columns, filter=pc.field("hand_id").isin(ids)) if files
                    else SCHEMAS[name].empty_table().select(columns))
            con.register(name, rows)
        tables = hand_tables(con, list(task.formats), ACTION_KINDS)
    finally:
        con.close()
    return check_sequences(SequenceTask(tables, task.formats))


# ---- the driver's resolution of hand ids repeated between parts ----------------------------------


@dataclass(frozen=True, slots=True)
class Rewrite:
    """Files of one part (or committed files) to write again without the rows of `drop` (hand ids),
    into `root`; the hands of `clashes` become rejects with these messages."""

    location: Location
    files: tuple[tuple[str, str, str], ...]  # (table, file now, file to write)
    drop: frozenset[str]
    drop_sources: frozenset[int] = frozenset()  # also every row of these sources (a file not read to the end)
    clashes: tuple[tuple[str, str], ...] = ()  # (hand id, message)
    rejects_file: str = ""
    delete_old: bool = True  # False for a committed file: the run's commit deletes it


def rewrite_part(task: Rewrite) -> int:
    """Write each file again without the dropped hands' rows, then remove the old one (a task run
    again finds the old file gone and skips it). Returns the rows dropped."""
    fs = task.location.fs
    dropped = 0
    drop = pa.array(sorted(task.drop), pa.string())
    sources = pa.array(sorted(task.drop_sources), pa.int64())
    clashes = dict(task.clashes)
    for table_name, old, new in task.files:
        if not task.location.exists(old) or (not task.delete_old and task.location.exists(new)):
            continue
        table = pq.read_table(old, filesystem=fs)
        gone = pa.array(np.zeros(table.num_rows, dtype=np.bool_))
        if "hand_id" in table.column_names:
            gone = pc.is_in(table.column("hand_id"), value_set=drop)
        if "source_id" in table.column_names and len(sources):
            gone = pc.or_(gone, pc.is_in(table.column("source_id"), value_set=sources))
        if clashes and table_name == "hands":
            _write_clash_rejects(task, table.filter(gone), clashes)
        dropped += pc.sum(gone).as_py() or 0
        fs.create_dir(posixpath.dirname(new), recursive=True)
        pq.write_table(table.filter(pc.invert(gone)), new, filesystem=fs)
        if task.delete_old:
            fs.delete_file(old)
    return dropped


def _write_clash_rejects(task: Rewrite, hands: pa.Table, clashes: dict[str, str]) -> None:
    columns = (hands.column(c).to_pylist() for c in ("hand_id", "source_id", "line", "raw_text"))
    rows = [(source_id, line, 1, clashes[hand_id], text, line)
            for hand_id, source_id, line, text in zip(*columns, strict=True) if hand_id in clashes]
    if rows:
        task.location.fs.create_dir(posixpath.dirname(task.rejects_file), recursive=True)
        pq.write_table(arrow_table(rows, SCHEMAS["rejects"]), task.rejects_file, filesystem=task.location.fs)


def part_of(file: str) -> str:
    """The ingest part that wrote a file of a table of hands (`part-<key>-<n>.parquet`, rewritten
    as `part-<key>-<n>~<tag>.parquet`)."""
    return posixpath.basename(file).split("-")[1]
