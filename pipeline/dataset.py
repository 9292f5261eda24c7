"""A Parquet dataset as a database: the folder a cluster ingest writes (`pipeline.cluster`), read
through DuckDB views that have the table names and columns of a `.duckdb` file.

Layout (the same as `barge export --format parquet`, so the same readers read it)::

    DATASET/_barge_dataset.json                      marks the folder as a barge dataset
    DATASET/<table>/variant=<id>/date=<day>/part-<key>-<n>.parquet   tables of hands
    DATASET/sources/part-<run>.parquet               one file per ingest run (its commit)
    DATASET/rejects/part-<key>.parquet, rules/part-<key>.parquet
    DATASET/_staging/<run>/...                       a run not yet committed: read by no view

Every table of hands (`HAND_PARTITIONED`, the derived facts and totals among them) is partitioned
by its hand's variant and day; the partition columns are in the folder names, not in the files.
Each table starts with an empty file in the default partition, so that a view over a table that
has no rows yet still reads and has its columns. A file's name is its content's key (the task
that wrote it), so that a task run twice writes the same files, not twice the rows.

A location is a local folder or anything `pyarrow.fs` opens (`s3://bucket/path`, `gs://...`);
views over a local folder read it with DuckDB's `read_parquet`, other locations through
`pyarrow.dataset` (DuckDB scans it with the filters and columns of each query).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from evaluator import rulebook
from pipeline.reviews import CREATE_SQL as REVIEWS_SQL
from pipeline.schema import (
    AUDIT_TABLES,
    FACTS_STATE,
    FACTS_TABLE,
    HAND_TABLES,
    SCHEMAS,
    TOTALS_TABLE,
    create_table_sql,
    sql_type,
)

MARK = "_barge_dataset.json"
FORMAT_VERSION = 1
STAGING = "_staging"
COMMIT = "COMMIT.json"  # in a run's staging folder: the run is committed, its moves are to be made
PARTITIONS = ("variant", "date")
HAND_PARTITIONED = (*HAND_TABLES, *AUDIT_TABLES, FACTS_TABLE, TOTALS_TABLE)
FLAT = ("sources", "rejects", "rules")
EMPTY = "part-empty.parquet"
DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__"
RULES_SCHEMA = pa.schema([(c, pa.string()) for c in ("citation", "edition", "section", "title", "text")])
# Hive folders name the day as text; the views read them as these types, whatever a value looks like.
_HIVE_TYPES = "{'variant': VARCHAR, 'date': DATE}"
HIVE = ds.partitioning(pa.schema([("variant", pa.string()), ("date", pa.string())]), flavor="hive")


class DatasetError(RuntimeError):
    """The dataset cannot be opened or written; the message says why."""


@dataclass(frozen=True, slots=True)
class Location:
    """A dataset's folder on its file system; `root` is the path that file system takes."""

    fs: pafs.FileSystem
    root: str
    name: str  # as the user wrote it

    @property
    def local(self) -> bool:
        return isinstance(self.fs, pafs.LocalFileSystem)

    def path(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)

    def exists(self, path: str) -> bool:
        return bool(self.fs.get_file_info(path).type != pafs.FileType.NotFound)

    def files(self, folder: str) -> list[str]:
        """The Parquet files under `folder`, recursively, in name order (none if it is absent)."""
        if not self.exists(folder):
            return []
        infos = self.fs.get_file_info(pafs.FileSelector(folder, recursive=True))
        return sorted(i.path for i in infos if i.type == pafs.FileType.File and i.path.endswith(".parquet"))

    def folders(self, folder: str) -> list[str]:
        if not self.exists(folder):
            return []
        infos = self.fs.get_file_info(pafs.FileSelector(folder))
        return sorted(i.path for i in infos if i.type == pafs.FileType.Directory)

    def write_json(self, path: str, value: object) -> None:
        with self.fs.open_output_stream(path) as stream:
            stream.write(json.dumps(value, indent=2).encode())

    def read_json(self, path: str) -> Any:
        with self.fs.open_input_stream(path) as stream:
            return json.loads(stream.read().decode())


def locate(name: str | Path) -> Location:
    """The dataset at a local folder or a URI (`s3://bucket/prefix`, `file:///abs/path`)."""
    text = str(name)
    if "://" in text:
        try:
            fs, root = pafs.FileSystem.from_uri(text)
        except (pa.ArrowInvalid, OSError) as exc:
            raise DatasetError(f"cannot open dataset {text}: {exc}") from None
        return Location(fs, root.rstrip("/"), text)
    return Location(pafs.LocalFileSystem(), str(Path(text).resolve()), text)


def is_dataset(name: str | Path) -> bool:
    """Whether `name` is a barge Parquet dataset (a folder or URI holding `MARK`)."""
    text = str(name)
    if "://" not in text and not Path(text).is_dir():
        return False
    try:
        location = locate(text)
        return location.exists(location.path(MARK))
    except (DatasetError, OSError):
        return False


@cache
def schemas() -> dict[str, pa.Schema]:
    """The Arrow schema of every table of a dataset: the stored tables, the rules, and the facts
    and totals as `pipeline.stats.refresh_facts` makes them (found by making them for no hands)."""
    from pipeline.stats import refresh_facts  # the statistics import the store, which imports this

    con = duckdb.connect()
    try:
        for name in SCHEMAS:
            con.execute(create_table_sql(name)).fetchall()
        refresh_facts(con)
        derived = {name: con.sql(f"SELECT * FROM {name}").to_arrow_table().schema
                   for name in (FACTS_TABLE, TOTALS_TABLE)}
    finally:
        con.close()
    return {**SCHEMAS, **derived, "rules": RULES_SCHEMA}


def _partition_folder(table: str) -> str:
    if table in FLAT:
        return table
    return posixpath.join(table, f"variant={DEFAULT_PARTITION}", f"date={DEFAULT_PARTITION}")


def _file_schema(table: str) -> pa.Schema:
    """A table's columns as its files hold them: without the partition columns."""
    schema = schemas()[table]
    if table in FLAT:
        return schema
    return pa.schema([f for f in schema if f.name not in PARTITIONS])


def create(location: Location) -> None:
    """Make `location` an empty dataset (every table an empty file), unless it is one already."""
    if location.exists(location.path(MARK)):
        return
    if location.local and Path(location.root).exists() and any(Path(location.root).iterdir()):
        raise DatasetError(f"{location.name} is a folder that is not a barge dataset and not empty; "
                           "choose an empty or new folder")
    location.fs.create_dir(location.root, recursive=True)
    for table in schemas():
        folder = location.path(_partition_folder(table))
        location.fs.create_dir(folder, recursive=True)
        pq.write_table(_file_schema(table).empty_table(), location.path(folder, EMPTY),
                       filesystem=location.fs)
    write_rules(location, location.root)
    location.write_json(location.path(MARK), {"format": FORMAT_VERSION, "what": "barge hand-history dataset"})


def rules_key() -> str:
    """The name of the rules file: it changes when the shipped rulebook text does."""
    import hashlib

    digest = hashlib.sha256()
    for r in rulebook.rules():
        digest.update("\x1f".join((r.citation, r.edition, r.section, r.title, r.text)).encode())
    return f"part-{digest.hexdigest()[:16]}.parquet"


def write_rules(location: Location, root: str) -> str:
    """The shipped rulebook's sections as the `rules` table under `root`; returns the file."""
    rows = rulebook.rules()
    table = pa.table({"citation": [r.citation for r in rows], "edition": [r.edition for r in rows],
                      "section": [r.section for r in rows], "title": [r.title for r in rows],
                      "text": [r.text for r in rows]}, schema=RULES_SCHEMA)
    location.fs.create_dir(posixpath.join(root, "rules"), recursive=True)
    path = posixpath.join(root, "rules", rules_key())
    pq.write_table(table, path, filesystem=location.fs)
    return path


# ---- reading: views ------------------------------------------------------------------------------


def _columns(table: str) -> str:
    return ", ".join(f'CAST("{f.name}" AS {sql_type(f.type)}) AS "{f.name}"' for f in schemas()[table])


def _sql_list(paths: Sequence[str]) -> str:
    return "[" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]"


def scan(con: duckdb.DuckDBPyConnection, location: Location, name: str, files: Sequence[str] | None,
         schema: pa.Schema | None = None) -> str:
    """The FROM clause that reads a table `name`: its files (all of them, or these), with the
    partitions (none for a flat table: `FLAT`, or one given its `schema`). Local files are read by
    DuckDB; others through a `pyarrow.dataset` registered in `con`."""
    flat = name in FLAT or schema is not None
    if location.local:
        every = "'" + location.path(name, "**", "*.parquet") + "'"
        source = _sql_list(files) if files is not None else every
        if flat:
            return f"read_parquet({source})"
        return f"read_parquet({source}, hive_partitioning = true, hive_types = {_HIVE_TYPES})"
    paths = list(files) if files is not None else location.files(location.path(name))
    dataset = ds.dataset(paths, schema=schema or (_file_schema(name) if flat else None), format="parquet",
                         filesystem=location.fs, partitioning=None if flat else HIVE)
    con.register(f"_arrow_{name}", dataset)
    return f"_arrow_{name}"


def create_views(con: duckdb.DuckDBPyConnection, location: Location,
                 files: dict[str, list[str]] | None = None) -> None:
    """Views named as the store's tables over the dataset at `location` (or over `files` per table,
    such as a run's files before its commit), an empty `reviews` table, and the facts' state."""
    if not location.exists(location.path(MARK)):
        raise DatasetError(f"{location.name} is not a barge dataset (no {MARK})")
    for table in schemas():
        source = scan(con, location, table, None if files is None else files.get(table, []))
        con.execute(f"CREATE OR REPLACE VIEW {table} AS SELECT {_columns(table)} FROM {source}").fetchall()
    # The facts and totals are written with their hands, by the same tasks, and filtered with them:
    # they are current by construction, which is what the state says (`pipeline.stats`).
    con.execute(f"CREATE OR REPLACE VIEW {FACTS_STATE} AS SELECT count(*) AS hands, "
                f"bit_xor(hash(hand_id)) AS print, (SELECT count(*) FROM {FACTS_TABLE}) AS facts, "
                f"(SELECT count(*) FROM {TOTALS_TABLE}) AS totals FROM hands").fetchall()
    con.execute(REVIEWS_SQL).fetchall()


def connect(name: str | Path) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose tables are views over the dataset."""
    location = locate(name)
    con = duckdb.connect()
    try:
        create_views(con, location)
    except (duckdb.Error, OSError) as exc:
        con.close()
        raise DatasetError(f"cannot read dataset {location.name}: {exc}") from None
    except DatasetError:
        con.close()
        raise
    return con


def attach(name: str | Path, db: Path) -> list[str]:
    """Make the DuckDB file `db` a database whose tables are views over the local dataset `name`
    (its `reviews` table is a real one: reviews can be written there). Returns the views made."""
    location = locate(name)
    if not location.local:
        raise DatasetError("`barge attach` makes views over a local folder; a file cannot keep the "
                           "connection to object storage (open it with --db URI instead)")
    con = duckdb.connect(str(db))
    try:
        create_views(con, location)
        return [*schemas(), FACTS_STATE]
    finally:
        con.close()


def table_files(location: Location, tables: Iterable[str] | None = None) -> dict[str, list[str]]:
    """Every Parquet file of each table (committed ones only)."""
    return {t: location.files(location.path(t)) for t in (tables or schemas())}
