"""A Parquet copy of the store, for tools that read Parquet (Spark, pandas, polars, DuckDB itself).

`export_parquet(con, out)` writes every table of the database to `out/<table>/` with DuckDB's
`COPY ... (FORMAT PARQUET, PARTITION_BY ...)`. The tables of hands are hive-partitioned by variant
and day (`out/hands/variant=texas_holdem/date=2025-07-10/data_0.parquet`): `hands` by its own
`variant` and the date of `started_at`, every other table with a `hand_id` column by those of its
hand (a row whose hand is not stored, or a hand without a date, goes to `__HIVE_DEFAULT_PARTITION__`,
which readers take as null). The partition columns are in the folder names, not in the files, as
hive readers expect (`read_parquet(..., hive_partitioning = true)`, `pyarrow.dataset(...,
partitioning="hive")`, `polars.scan_parquet(..., hive_partitioning=True)`). Tables that do not
relate to a hand (`sources`, `rejects`) are one file each, `out/<table>/data_0.parquet`, and so is
a table with no rows, so that its columns can still be read.

Every table is read in one transaction, so the copy is of one moment of the database.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb

from pipeline.schema import FACTS_STATE

PARTITIONS = ("variant", "date")
DATA_FILE = "data_0.parquet"


class ExportError(RuntimeError):
    """The export cannot be written where it was asked to; the message says why."""


def _tables(cur: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """The tables of the database's main schema (or the views of a Parquet dataset's, which stand
    for them), with their columns in order (not the store's own bookkeeping, which means nothing
    outside it)."""
    rows = cur.execute(
        "SELECT c.table_name, c.column_name FROM information_schema.columns c "
        "JOIN information_schema.tables t USING (table_catalog, table_schema, table_name) "
        "WHERE t.table_type IN ('BASE TABLE', 'VIEW') AND t.table_schema = 'main' "
        "AND t.table_catalog = current_database() ORDER BY c.table_name, c.ordinal_position").fetchall()
    tables: dict[str, list[str]] = {}
    for table, column in rows:
        if table != FACTS_STATE:
            tables.setdefault(table, []).append(column)
    return tables


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _select(table: str, columns: list[str], has_hands: bool) -> str | None:
    """The query whose rows carry the table's partition columns, or None when it has none."""
    name = _quoted(table)
    if table == "hands":
        return f'SELECT *, CAST(started_at AS DATE) AS "date" FROM {name}'
    if "hand_id" in columns and has_hands and not set(PARTITIONS) & set(columns):
        return (f'SELECT t.*, h.variant, CAST(h.started_at AS DATE) AS "date" FROM {name} t '
                "LEFT JOIN hands h USING (hand_id)")
    return None


def _prepare(out: Path, tables: list[str], overwrite: bool) -> None:
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out} is a file, not a folder")
    if out.exists() and any(out.iterdir()):
        if not overwrite:
            raise ExportError(f"{out} is not empty; choose an empty or new folder, or ask to overwrite")
        for table in tables:  # only what an export writes: other files in the folder stay
            if (out / table).is_dir():
                shutil.rmtree(out / table)
            elif (out / table).exists():
                (out / table).unlink()
    out.mkdir(parents=True, exist_ok=True)


def export_parquet(con: duckdb.DuckDBPyConnection, out: Path, *, overwrite: bool = False) -> dict[str, int]:
    """Write every table of the database behind `con` as Parquet under the folder `out`, tables of
    hands partitioned by variant and date; return the number of rows written per table.

    Refuses (`ExportError`) a folder that is not empty unless `overwrite`, which replaces the
    tables' folders of an earlier export and leaves any other file alone.
    """
    cur = con.cursor()  # a transaction of its own: every table as of the same moment
    try:
        cur.execute("BEGIN TRANSACTION")
        tables = _tables(cur)
        _prepare(out, list(tables), overwrite)
        has_hands = "hands" in tables and {"hand_id", "variant", "started_at"} <= set(tables["hands"])
        written: dict[str, int] = {}
        for table, columns in tables.items():
            folder = out / table
            select = _select(table, columns, has_hands)
            rows = int(cur.execute(f"SELECT count(*) FROM {_quoted(table)}").fetchall()[0][0])
            if select is None or rows == 0:
                folder.mkdir()
                source = select or f"SELECT * FROM {_quoted(table)}"
                cur.execute(f"COPY ({source}) TO ? (FORMAT PARQUET)", [str(folder / DATA_FILE)]).fetchall()
            else:
                partitions = ", ".join(_quoted(p) for p in PARTITIONS)
                cur.execute(f"COPY ({select}) TO ? (FORMAT PARQUET, PARTITION_BY ({partitions}))",
                            [str(folder)]).fetchall()
            written[table] = rows
        cur.execute("ROLLBACK")  # nothing was changed: the transaction only held the snapshot
        return written
    except duckdb.Error as exc:
        raise ExportError(f"cannot export to {out}: {exc}") from None
    finally:
        cur.close()
