"""Opening the database for the dashboard: read-only, briefly, and never against a writer.

DuckDB lets one process write a database file, and while it writes nobody else may open it,
not even read-only; within one process, a read-only and a read-write connection to the same
file cannot be open together. So every page opens a read-only connection for the queries of
one run and closes it at once (a `barge ingest` in another process is then only kept waiting
for the length of those queries), and the Ingest page's writer and the pages' readers of this
process take turns through `GATE`. A database that is locked raises `DatabaseBusy`, which the
pages turn into "the database is busy, retrying". A director's review is the one other write
(`writable`): short, through the same gate. A Parquet dataset (`pipeline.dataset`, written by
`barge ingest --cluster ray`) is read through views in an in-memory database, and cannot be written.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import duckdb

from pipeline import dataset
from pipeline.store import DEFAULT_DB, MEMORY_LIMIT

ENV_DB = "BARGE_DB"  # the database the dashboard shows; `launch.serve` sets it


class DatabaseBusy(Exception):
    """Another process (or this process's ingest) is writing the database; try again shortly."""


class DatabaseUnavailable(Exception):
    """The database is missing or unreadable; the message says so in plain words."""


def database_path() -> Path:
    return Path(os.environ.get(ENV_DB) or DEFAULT_DB)


def version(path: Path) -> tuple[int, ...]:
    """Changes whenever the database does: modification time and size of the file and its
    write-ahead log (a write may sit in the log until DuckDB checkpoints it)."""
    stamp: list[int] = []
    # A dataset changes when a run commits: its sources folder gains a file.
    files = (path / "sources",) if path.is_dir() else (path, path.with_name(path.name + ".wal"))
    for file in files:
        try:
            info = file.stat()
            stamp += [info.st_mtime_ns, info.st_size]
        except OSError:
            stamp += [0, 0]
    return tuple(stamp)


class _Gate:
    """Readers of this process share the database; the writer has it alone (a readers-writer
    lock whose readers never wait: they report busy instead)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writing = False

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self._cond:
            if self._writing:
                raise DatabaseBusy("an upload is being ingested")
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def writing(self, timeout: float) -> Iterator[None]:
        with self._cond:
            if not self._cond.wait_for(lambda: not self._writing and not self._readers, timeout):
                raise DatabaseBusy("the dashboard is reading the database")
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


GATE = _Gate()


@contextmanager
def read_only(path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection for the length of the block; `DatabaseBusy` while it is locked."""
    if dataset.is_dataset(path):
        try:
            con = dataset.connect(path)
        except dataset.DatasetError as exc:
            raise DatabaseUnavailable(str(exc)) from None
        try:
            yield con
        finally:
            con.close()
        return
    if not path.is_file():
        raise DatabaseUnavailable(
            f"No database at {path}. Create it with `barge ingest FILES --db {path}`, or upload "
            "history files on the Ingest page.")
    with GATE.reading():
        try:
            con = duckdb.connect(str(path), read_only=True)
        except duckdb.IOException as exc:
            if "lock" in str(exc).lower():
                raise DatabaseBusy(str(exc)) from None
            raise DatabaseUnavailable(f"Cannot open {path}: {exc}") from None
        except duckdb.ConnectionException as exc:  # a writer of this process has it open
            raise DatabaseBusy(str(exc)) from None
        except duckdb.Error as exc:
            raise DatabaseUnavailable(f"{path} is not a usable DuckDB database: {exc}") from None
        try:
            con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
            yield con
        finally:
            con.close()


@contextmanager
def writable(path: Path, timeout: float = 5.0) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-write connection for a short write (a review), once this process's readers are
    done; `DatabaseBusy` while another process writes the database."""
    if dataset.is_dataset(path):
        raise DatabaseUnavailable(f"{path} is a Parquet dataset, which the dashboard only reads; to record "
                                  f"reviews, make a database of it with `barge attach {path} --db FILE`")
    release()  # this run's own reading connection would keep the writer waiting for itself
    with GATE.writing(timeout):
        try:
            con = duckdb.connect(str(path))
        except (duckdb.IOException, duckdb.ConnectionException) as exc:
            raise DatabaseBusy(str(exc)) from None
        try:
            yield con
        finally:
            con.close()


# ---- one connection for a page's queries ---------------------------------------------------------

_RUN = threading.local()  # Streamlit runs each session's script in a thread of its own


@contextmanager
def page_connection(path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """The read-only connection of this script run: opened by its first query, kept until
    `release()` (app.py calls it when the page has run). A page's queries then share DuckDB's
    cache of what the first ones read, instead of each fresh connection reading the tables from
    disk again, which on a big database costs more than the queries."""
    held = getattr(_RUN, "held", None)
    if held is None or held[0] != path:
        release()
        stack = ExitStack()
        con = stack.enter_context(read_only(path))
        held = _RUN.held = (path, con, stack)
    yield held[1]


def release() -> None:
    """Close this script run's connection, if it has one, so that writers are not locked out."""
    held = getattr(_RUN, "held", None)
    _RUN.held = None
    if held is not None:
        held[2].close()
