"""The DuckDB store: one embedded database file holding the tables of `pipeline.schema`.

Writes go in as Arrow tables inside explicit transactions; reads rebuild hand models.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt
import pyarrow as pa

from evaluator import rulebook
from evaluator.findings import SEQUENCE_CODES, Finding
from pipeline.model import Hand
from pipeline.rebuild import hands_of_tables
from pipeline.reviews import CREATE_SQL as REVIEWS_SQL
from pipeline.schema import (
    AUDIT_TABLES,
    COMPUTED,
    ENDINGS,
    FACTS_STATE,
    FACTS_TABLE,
    HAND_TABLES,
    RECORDED,
    SCHEMAS,
    TOTALS_TABLE,
    create_table_sql,
    sql_type,
)
from pipeline.tables import HandBatch, arrow_table
from pipeline.unit_migration import fill_units

DEFAULT_DB = Path("barge.duckdb")
_SEQUENCE_SQL = "(" + ", ".join(f"'{code}'" for code in sorted(SEQUENCE_CODES)) + ")"
# DuckDB would otherwise cache up to 80% of the machine's memory; ingest streams, so a small
# buffer keeps memory flat however large the input (it spills to disk beyond this).
MEMORY_LIMIT = "512MB"


class StoreError(RuntimeError):
    """The database cannot be opened or written; the message says why in plain words."""


def _connect(path: Path, read_only: bool, wait: float,
             on_wait: Callable[[str], None] | None) -> duckdb.DuckDBPyConnection:
    """Open the database; while another process holds its lock, retry for up to `wait` s."""
    deadline = time.monotonic() + wait
    warned = False
    while True:
        try:
            return duckdb.connect(str(path), read_only=read_only)
        except duckdb.IOException as exc:
            if "lock" not in str(exc).lower():
                raise StoreError(f"cannot open database {path}: {exc}") from None
            if time.monotonic() >= deadline:
                raise StoreError(
                    f"database {path} is in use by another process (another `barge ingest`?); "
                    f"try again when it has finished. DuckDB said: {exc}") from None
            if on_wait is not None and not warned:
                on_wait(f"waiting for database {path}: another process is writing to it")
                warned = True
            time.sleep(0.2)
        except duckdb.Error as exc:
            raise StoreError(f"{path} is not a usable DuckDB database: {exc}") from None


class Store:
    def __init__(self, path: Path = DEFAULT_DB, read_only: bool = False, wait: float = 0.0,
                 on_wait: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.con = _connect(path, read_only, wait, on_wait)
        self._depth = 0
        self._exec(f"SET memory_limit = '{MEMORY_LIMIT}'")
        if not read_only:
            for name in SCHEMAS:
                self._exec(create_table_sql(name))
            self._add_new_columns()
            self._exec(REVIEWS_SQL)  # never deleted from: reviews outlive re-audits and re-ingests
            self._store_rules()

    def _add_new_columns(self) -> None:
        """A database written by an earlier version gets the columns added since (awards' `origin`
        and `hand` came with the showdown); its rows are all recorded ones. The hands' unit columns
        (docs/format.md, "Units") are read from their stored texts, and the facts derived before
        them are dropped, to be made again with them (`pipeline.stats.refresh_facts`)."""
        for name, schema in SCHEMAS.items():
            have = {r[0] for r in self._query(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [name])}
            for f in schema:
                if f.name not in have:
                    self._exec(f'ALTER TABLE {name} ADD COLUMN "{f.name}" {sql_type(f.type)}')
                    if (name, f.name) == ("awards", "origin"):
                        self._exec("UPDATE awards SET origin = ?", [RECORDED])
                    if (name, f.name) == ("hands", "unit"):
                        with self.transaction():
                            fill_units(self.con)
                            for derived in (FACTS_TABLE, TOTALS_TABLE, FACTS_STATE):
                                self._exec(f"DROP TABLE IF EXISTS {derived}")

    @classmethod
    def over(cls, con: duckdb.DuckDBPyConnection, path: Path) -> Store:
        """A store that reads through `con`, such as views over a Parquet dataset
        (`pipeline.dataset.connect`): for reading only."""
        store = cls.__new__(cls)
        store.path, store.con, store._depth = path, con, 0
        return store

    def _store_rules(self) -> None:
        """The `rules` table: every shipped rulebook section (`evaluator.rulebook`), so SQL and
        the Parquet export can join `findings.rule` to `rules.citation` and show the text."""
        shipped = rulebook.rules()
        self._exec("CREATE TABLE IF NOT EXISTS rules (citation VARCHAR, edition VARCHAR, section VARCHAR, "
                   "title VARCHAR, text VARCHAR)")
        # Rows and characters: a shipped file rebuilt from corrected books is loaded again.
        held = self._query("SELECT count(*), coalesce(sum(length(text)), 0) FROM rules")[0]
        if tuple(held) == (len(shipped), sum(len(r.text) for r in shipped)):
            return
        with self.transaction():
            self._exec("DELETE FROM rules")
            self.con.executemany("INSERT INTO rules VALUES (?, ?, ?, ?, ?)",
                                 [(r.citation, r.edition, r.section, r.title, r.text) for r in shipped])

    # DuckDB 2 keeps a statement's result open until it is read or completed.
    def _exec(self, sql: str, params: list[Any] | None = None) -> None:
        self.con.execute(sql, params).complete()

    def _query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self.con.execute(sql, params).fetchall()
        return rows

    def _records(self, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        return _records_of(self.con, sql, params)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.con.close()

    @contextmanager
    def memory_limit(self, limit: str) -> Iterator[None]:
        """DuckDB's buffer held to `limit` (such as "256MB") inside the block, then `MEMORY_LIMIT`."""
        self._exec(f"SET memory_limit = '{limit}'")
        try:
            yield
        finally:
            self._exec(f"SET memory_limit = '{MEMORY_LIMIT}'")

    # ---- transactions ----
    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All writes inside commit together or not at all; a nested block joins the outer one."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._exec("BEGIN TRANSACTION")
        self._depth = 1
        try:
            yield
        except BaseException:
            self._exec("ROLLBACK")
            raise
        finally:
            self._depth = 0
        self._exec("COMMIT")

    # ---- sources ----
    def source_with_sha(self, sha256: str) -> tuple[int, bool] | None:
        """The source already holding a file with this SHA-256, and whether it was finished."""
        rows = self._query("SELECT source_id, complete FROM sources WHERE sha256 = ?", [sha256])
        return (int(rows[0][0]), bool(rows[0][1])) if rows else None

    def next_source_id(self) -> int:
        return int(self._query("SELECT coalesce(max(source_id), 0) + 1 FROM sources")[0][0])

    def start_source(self, source_id: int, path: str, sha256: str, fmt: str) -> None:
        """Record a file as being ingested; `complete_source` marks it done."""
        self._exec(
            "INSERT INTO sources VALUES (?, ?, ?, ?, ?, 0, 0, 0, false)",
            [source_id, path, sha256, fmt, datetime.now()],
        )

    def complete_source(self, source_id: int, hands: int, rejects: int, duplicates: int) -> None:
        self._exec("UPDATE sources SET hands = ?, rejects = ?, duplicates = ?, complete = true "
                   "WHERE source_id = ?", [hands, rejects, duplicates, source_id])

    # The same for many files in one statement each: ingest reads small files in batches.
    def sources_with_shas(self, shas: list[str]) -> dict[str, tuple[int, bool]]:
        """`source_with_sha` of each of these SHA-256s that a source holds."""
        rows = self._query("SELECT sha256, source_id, complete FROM sources "
                           "WHERE sha256 IN (SELECT unnest(?))", [shas])
        return {str(r[0]): (int(r[1]), bool(r[2])) for r in rows}

    def start_sources(self, files: list[tuple[int, str, str, str]]) -> None:
        """`start_source` of each (source_id, path, sha256, format)."""
        if files:
            ids, paths, shas, formats = (list(c) for c in zip(*files, strict=True))
            self._exec("INSERT INTO sources SELECT unnest(?), unnest(?), unnest(?), unnest(?), ?, 0, 0, 0, "
                       "false", [ids, paths, shas, formats, datetime.now()])

    def complete_sources(self, counts: list[tuple[int, int, int, int]]) -> None:
        """`complete_source` of each (source_id, hands, rejects, duplicates)."""
        if counts:
            ids, hands, rejects, duplicates = (list(c) for c in zip(*counts, strict=True))
            self._exec("UPDATE sources SET hands = u.hands, rejects = u.rejects, duplicates = u.duplicates, "
                       "complete = true FROM (SELECT unnest(?) AS source_id, unnest(?) AS hands, "
                       "unnest(?) AS rejects, unnest(?) AS duplicates) u "
                       "WHERE sources.source_id = u.source_id", [ids, hands, rejects, duplicates])

    def delete_rejects_of_paths(self, paths: list[str]) -> None:
        """`delete_rejects_of_path` of each path."""
        if paths:
            self._exec("DELETE FROM rejects WHERE source_id IN "
                       "(SELECT source_id FROM sources WHERE path IN (SELECT unnest(?)))", [paths])

    def purge_source(self, source_id: int) -> None:
        """Remove what an unfinished ingest of a source left, so it can be done again whole."""
        stored = self._query("SELECT hand_id FROM hands WHERE source_id = ?", [source_id])
        self.delete_hands([row[0] for row in stored])
        for name in ("rejects", "sources"):
            self._exec(f"DELETE FROM {name} WHERE source_id = ?", [source_id])

    def update_source_counts(self, source_id: int, hands_added: int, rejects: int) -> None:
        self._exec("UPDATE sources SET hands = hands + ?, rejects = ? WHERE source_id = ?",
                   [hands_added, rejects, source_id])

    # ---- hands ----
    def _with_ids(self, hand_ids: list[str], sql: str) -> list[tuple[Any, ...]]:
        """Run `sql`, which may join the registered table `wanted_ids(hand_id)`."""
        self.con.register("wanted_ids", pa.table({"hand_id": pa.array(hand_ids, pa.string())}))
        try:
            return self._query(sql)
        finally:
            self.con.unregister("wanted_ids")

    def stored_versions(self, hand_ids: list[str]) -> dict[str, tuple[str, str, int]]:
        """For those of `hand_ids` already stored: the stored raw text, its source's path and id.

        Only the ids are searched among all hands; the texts are read for the hands found, by
        row id (a join would read the text of every stored hand)."""
        if not hand_ids:
            return {}
        found = self._with_ids(hand_ids, "SELECT rowid FROM hands JOIN wanted_ids USING (hand_id)")
        rows = self._by_rowid([r[0] for r in found], "h.hand_id, h.raw_text, s.path, h.source_id")
        return {r[0]: (r[1], r[2], r[3]) for r in rows.values()}

    def _by_rowid(self, rowids: list[int], columns: str) -> dict[int, tuple[Any, ...]]:
        """`columns` of hands `h` joined with its source `s`, by the hands' row ids. Hands stored in
        a row range are read from that range only."""
        if not rowids:
            return {}
        rows = self._query(
            f"SELECT h.rowid, {columns} FROM hands h JOIN sources s USING (source_id) "
            "WHERE h.rowid BETWEEN ? AND ? AND h.rowid IN (SELECT unnest(?))",
            [min(rowids), max(rowids), rowids])
        return {r[0]: tuple(r[1:]) for r in rows}

    def delete_hands(self, hand_ids: list[str]) -> None:
        if hand_ids:
            for name in HAND_TABLES + AUDIT_TABLES:
                self._with_ids(hand_ids,
                               f"DELETE FROM {name} WHERE hand_id IN (SELECT hand_id FROM wanted_ids)")
            self._forget_facts(hand_ids)

    def _forget_facts(self, hand_ids: list[str]) -> None:
        """Drop the stored facts and totals of these hands (`pipeline.stats.refresh_facts` makes
        them again from what the hands hold now), and the print that said they were current."""
        exists = "SELECT count(*) FROM information_schema.tables WHERE table_name = ?"
        for derived in (FACTS_TABLE, TOTALS_TABLE):
            if self._query(exists, [derived])[0][0]:
                self._with_ids(hand_ids,
                               f"DELETE FROM {derived} WHERE hand_id IN (SELECT hand_id FROM wanted_ids)")
        self._exec(f"DROP TABLE IF EXISTS {FACTS_STATE}")

    # ---- audit ----
    def hands_to_audit(self, pending_only: bool, variant: str | None = None, event: str | None = None,
                       hand_id: str | None = None) -> list[tuple[str, str, str]]:
        """(hand_id, format, raw_text) of the stored hands matching the filters, in the order they
        are stored; `pending_only` keeps those not audited yet."""
        return self.stored_texts(self.rows_to_audit(pending_only, variant, event, hand_id).tolist())

    def rows_to_audit(self, pending_only: bool, variant: str | None = None, event: str | None = None,
                      hand_id: str | None = None) -> npt.NDArray[np.int64]:
        """The row ids of the stored hands matching the filters, in the order they are stored
        (`stored_texts` reads them a batch at a time, each batch from a narrow range of rows: the
        raw texts of all hands need not fit in memory, nor be read more than once)."""
        where, params = [], []
        for column, value in (("variant", variant), ("event", event), ("hand_id", hand_id)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if pending_only:
            where.append("hand_id NOT IN (SELECT hand_id FROM audits)")
        condition = " WHERE " + " AND ".join(where) if where else ""
        sql = f"SELECT rowid FROM hands{condition} ORDER BY rowid"
        ids: npt.NDArray[np.int64] = self.con.execute(sql, params).fetchnumpy()["rowid"]
        return ids.astype(np.int64)

    def stored_texts(self, rowids: list[int]) -> list[tuple[str, str, str]]:
        """(hand_id, format, raw_text) of the hands with these row ids (`rows_to_audit`), in order."""
        by_row = self._by_rowid(rowids, "h.hand_id, s.format, h.raw_text")
        return [(r[0], r[1], r[2]) for r in (by_row[i] for i in rowids if i in by_row)]

    def write_audit(self, hand_ids: list[str], tables: dict[str, pa.Table]) -> None:
        """Replace what an earlier audit of `hand_ids` wrote with a new audit's: its findings,
        audits and all-in adjustment rows, its computed awards, and the ending stacks the rules give
        (`seats`)."""
        with self.transaction():
            for name in AUDIT_TABLES:
                # The findings across hands are the sequence audit's (`write_sequence_findings`).
                keep = f" AND code NOT IN {_SEQUENCE_SQL}" if name == "findings" else ""
                self._with_ids(
                    hand_ids, f"DELETE FROM {name} WHERE hand_id IN (SELECT hand_id FROM wanted_ids){keep}")
            self._with_ids(hand_ids, f"DELETE FROM awards WHERE origin = '{COMPUTED}' "
                           "AND hand_id IN (SELECT hand_id FROM wanted_ids)")
            self._forget_facts(hand_ids)
            for name in (*AUDIT_TABLES, "awards"):
                self._insert(name, tables[name])
            endings = tables[ENDINGS]
            if endings.num_rows:
                self.con.register("incoming_endings", endings)
                try:
                    self._exec("UPDATE seats SET ending_stack = e.ending_stack FROM incoming_endings e "
                               "WHERE seats.hand_id = e.hand_id AND seats.player = e.player")
                finally:
                    self.con.unregister("incoming_endings")

    def write_sequence_findings(self, hand_ids: list[str], findings: list[Finding]) -> None:
        """Replace the findings across hands (`evaluator.sequences`) of `hand_ids` with these."""
        with self.transaction():
            self._with_ids(hand_ids, "DELETE FROM findings WHERE hand_id IN (SELECT hand_id FROM wanted_ids) "
                           f"AND code IN {_SEQUENCE_SQL}")
            self._insert("findings", arrow_table([f.row() for f in findings], SCHEMAS["findings"]))

    # ---- rejects ----
    def rejects(self) -> list[dict[str, Any]]:
        return self._records("SELECT r.*, s.path, s.format FROM rejects r JOIN sources s USING (source_id) "
                             "ORDER BY s.path, r.line")

    def delete_rejects(self, source_id: int) -> None:
        self._exec("DELETE FROM rejects WHERE source_id = ?", [source_id])

    def delete_rejects_of_path(self, path: str) -> None:
        """An earlier version's rejects are superseded when a changed file is read again."""
        self._exec("DELETE FROM rejects WHERE source_id IN (SELECT source_id FROM sources WHERE path = ?)",
                   [path])

    def _insert(self, name: str, table: pa.Table) -> None:
        if table.num_rows == 0:
            return
        view = f"incoming_{name}"
        self.con.register(view, table)
        try:
            self._exec(f"INSERT INTO {name} BY NAME SELECT * FROM {view}")
        finally:
            self.con.unregister(view)

    def write_batch(self, batch: HandBatch) -> None:
        self.write_tables(batch.to_arrow())

    def write_tables(self, tables: Mapping[str, pa.Table]) -> None:
        """Append Arrow tables to the stored tables of the same names."""
        for name, table in tables.items():
            self._insert(name, table)

    def write_rejects(self, rows: list[tuple[int, int, int, str, str, int]]) -> None:
        if not rows:
            return
        self._insert("rejects", arrow_table(rows, SCHEMAS["rejects"]))

    def count(self, table: str) -> int:
        if table not in SCHEMAS:
            raise ValueError(f"no table {table}")
        return int(self._query(f"SELECT count(*) FROM {table}")[0][0])

    # ---- reading hands back ----
    def load_hand(self, hand_id: str) -> Hand | None:
        """Rebuild the hand model of a stored hand, or None when there is no such hand."""
        found = read_hands(self.con, [hand_id])
        return found[0] if found else None



def _records_of(con: duckdb.DuckDBPyConnection, sql: str,
                params: list[Any] | dict[str, Any] | None) -> list[dict[str, Any]]:
    cursor = con.execute(sql, params)
    names = [d[0] for d in cursor.description or []]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def hand_tables(con: duckdb.DuckDBPyConnection, hand_ids: list[str],
                action_kinds: Collection[str] | None = None) -> dict[str, pa.Table]:
    """The stored rows of these hands as Arrow tables, one query per table whatever the number of
    hands: `hands` (without the raw text) in stored order, `seats` by seat, `actions` by seq (only
    those of `action_kinds` when given: a reader that needs a few, such as the checks across hands,
    reads a fraction of the rows) and the recorded `awards` by seq."""
    wanted = "WHERE hand_id IN (SELECT unnest($ids))"
    tables = {}
    for table, order in (("seats", "seat"), ("actions", "seq"), ("awards", "seq")):
        params: dict[str, Any] = {"ids": hand_ids}
        extra = ""
        if table == "awards":
            extra, params["origin"] = " AND origin = $origin", RECORDED
        if table == "actions" and action_kinds is not None:
            extra, params["kinds"] = " AND kind IN (SELECT unnest($kinds))", sorted(action_kinds)
        tables[table] = con.sql(f"SELECT * FROM {table} {wanted}{extra} ORDER BY hand_id, {order}",
                                params=params).to_arrow_table()
    columns = ", ".join(f.name for f in SCHEMAS["hands"] if f.name != "raw_text")
    tables["hands"] = con.sql(f"SELECT {columns} FROM hands {wanted} ORDER BY source_id, line",
                              params={"ids": hand_ids}).to_arrow_table()
    return tables


def read_hands(con: duckdb.DuckDBPyConnection, hand_ids: list[str],
               action_kinds: Collection[str] | None = None) -> list[Hand]:
    """Rebuild the hand models of stored hands (with the recorded awards), in stored order; ids
    with no stored hand are left out (`hand_tables`, `pipeline.rebuild`)."""
    return hands_of_tables(hand_tables(con, hand_ids, action_kinds)) if hand_ids else []
