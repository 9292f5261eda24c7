"""The Parquet export: every table, partitioned by variant and date where it relates to a hand, the
same rows read back by pyarrow, polars and DuckDB, and a folder in use is not overwritten."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.dataset as ds
import pytest

from evaluator.rulebook import rules
from grammar.barge_parser import EXAMPLE
from pipeline.ingest import ingest
from pipeline.parquet_export import ExportError, export_parquet
from pipeline.schema import FACTS_TABLE, SCHEMAS, TOTALS_TABLE
from pipeline.store import Store
from tests.conftest import doc_examples

NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"  # how hive names a partition whose value is null


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export")
    histories = folder / "in"
    histories.mkdir()
    broken = doc_examples()[1].replace("Ann: checks", "Ann: chekcs", 1).replace("#B25-CASH2-0031", "#X-1")
    (histories / "examples.bhh").write_text("\n".join([*doc_examples(), EXAMPLE, broken]), encoding="utf-8")
    path = folder / "store.duckdb"
    with Store(path) as store:
        summary = ingest([histories], store, audit=True)
    assert (summary.total("hands"), summary.total("rejects")) == (15, 1)
    return path


@pytest.fixture
def con(db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect(str(db), read_only=True)
    yield connection
    connection.close()


def read_back(out: Path, table: str) -> list[dict[str, object]]:
    """The rows of an exported table as pyarrow reads the folder, without the partition columns."""
    data = ds.dataset(out / table, format="parquet", partitioning="hive").to_table()
    extra = [c for c in ("variant", "date") if c in data.column_names and c not in SCHEMAS[table].names]
    return sorted(data.drop_columns(extra).to_pylist(), key=repr)


def stored(con: duckdb.DuckDBPyConnection, table: str) -> list[dict[str, object]]:
    return sorted(con.sql(f"SELECT * FROM {table}").to_arrow_table().to_pylist(), key=repr)


def test_every_table_is_exported_with_all_its_rows(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    out = tmp_path / "parquet"
    counts = export_parquet(con, out)
    # The derived tables too, the rulebook's sections (to join findings to their text) and the reviews.
    assert set(counts) == {*SCHEMAS, FACTS_TABLE, TOTALS_TABLE, "rules", "reviews"}
    assert counts["rules"] == len(rules())
    for table in SCHEMAS:
        assert counts[table] == con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0], table
        assert read_back(out, table) == stored(con, table), table
    assert counts["hands"] == 15 and counts["rejects"] == 1 and counts["allin_adjustments"] > 0


def test_hand_tables_are_partitioned_by_the_variant_and_day_of_their_hand(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    out = tmp_path / "parquet"
    export_parquet(con, out)
    days = {(v, d.isoformat() if d else NULL_PARTITION) for v, d in con.execute(
        "SELECT DISTINCT variant, CAST(started_at AS DATE) FROM hands").fetchall()}
    assert ("texas_holdem", NULL_PARTITION) in days  # the parser's example hand has no date
    for table in ("hands", "seats", "actions", "boards", "awards", "audits", "allin_adjustments"):
        folders = {(f.parent.name.split("=", 1)[1], f.name.split("=", 1)[1])
                   for f in (out / table).glob("variant=*/date=*") if any(f.glob("*.parquet"))}
        assert folders <= days and folders, table
    files = (out / "hands").glob("variant=*/date=*/*.parquet")
    assert {f.parent.parent.name.split("=")[1] for f in files} == {
        "texas_holdem", "omaha_hi_lo", "stud", "deuce_to_seven_triple_draw", "chowaha", "oklahoma", "murder",
        "binglaha", "paradise_road_pickem", "mexican_poker", "sohe"}
    # Each row sits in the partition of its hand.
    rows = con.execute(
        "SELECT count(*), count(*) FILTER (WHERE a.variant = h.variant "
        "AND a.date IS NOT DISTINCT FROM CAST(h.started_at AS DATE)) "
        "FROM read_parquet(?, hive_partitioning = true) a JOIN hands h USING (hand_id)",
        [str(out / "actions" / "**" / "*.parquet")]).fetchall()
    assert rows[0][0] == rows[0][1] == con.execute("SELECT count(*) FROM actions").fetchall()[0][0]
    for table in ("sources", "rejects"):  # not about a hand: one file, no partitions
        assert [p.name for p in (out / table).iterdir()] == ["data_0.parquet"], table


def test_polars_reads_the_partitions_as_columns(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    out = tmp_path / "parquet"
    export_parquet(con, out)
    seats = pl.scan_parquet(out / "seats" / "**" / "*.parquet", hive_partitioning=True).collect()
    assert seats.height == con.execute("SELECT count(*) FROM seats").fetchall()[0][0]
    by_variant = dict(seats.group_by("variant").len().iter_rows())
    expected = dict(con.execute("SELECT h.variant, count(*) FROM seats s JOIN hands h USING (hand_id) "
                                "GROUP BY ALL").fetchall())
    assert by_variant == expected


def test_a_folder_in_use_is_not_overwritten_unless_asked(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    out = tmp_path / "parquet"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ExportError, match="not empty"):
        export_parquet(con, out)
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    first = export_parquet(con, out, overwrite=True)
    again = export_parquet(con, out, overwrite=True)  # the earlier export is replaced, not added to
    assert first == again
    assert read_back(out, "hands") == stored(con, "hands")
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    with pytest.raises(ExportError, match="not a folder"):
        export_parquet(con, out / "notes.txt")
