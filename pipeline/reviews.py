"""The review trail: a tournament director's decision about a finding (confirmed, overturned, or
open again), with a note and the director's name, kept in the `reviews` table.

Reviews are history, never replaced: each decision is a new row, and the current one is the
latest. The table is keyed by the finding's hand, code and (optionally) its action `seq`, not by
the finding row, and no re-audit or re-ingest deletes from it (`pipeline.store` deletes only the
hand and audit tables), so a finding that a fix makes disappear keeps its review history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import duckdb

STATUSES = ("open", "confirmed", "overturned")
TABLE = "reviews"
CREATE_SQL = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (hand_id VARCHAR NOT NULL, code VARCHAR NOT NULL, seq INTEGER, "
    "status VARCHAR NOT NULL, note VARCHAR NOT NULL, reviewer VARCHAR NOT NULL, "
    "reviewed_at TIMESTAMP NOT NULL)"
)


class ReviewError(ValueError):
    """A review that cannot be recorded; the message names what exists instead."""


@dataclass(frozen=True, slots=True)
class Review:
    hand_id: str
    code: str
    seq: int | None  # the finding's action (`findings.seq`), None for every finding of the code
    status: str  # "confirmed" | "overturned" | "open"
    note: str
    reviewer: str
    at: datetime  # UTC

    @property
    def key(self) -> tuple[str, str, int | None]:
        return (self.hand_id, self.code, self.seq)


@dataclass(frozen=True, slots=True)
class HandFinding:
    """One stored finding of a hand, as a review names it."""

    seq: int
    severity: str
    code: str
    message: str
    rule: str


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    rows = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = ?",
                       [name]).fetchall()  # every row fetched: a page's connection runs its next query
    return bool(rows[0][0])


def hand_findings(con: duckdb.DuckDBPyConnection, hand_id: str) -> list[HandFinding]:
    """The stored findings of one hand, in the order of its actions."""
    rows = con.execute("SELECT seq, severity, code, message, rule FROM findings WHERE hand_id = ? "
                       "ORDER BY seq, code", [hand_id]).fetchall()
    return [HandFinding(*row) for row in rows]


def check_target(con: duckdb.DuckDBPyConnection, hand_id: str, code: str, seq: int | None) -> None:
    """ReviewError unless the hand is stored and has a finding of `code` (at `seq`, if given)."""
    stored = con.execute("SELECT count(*) FROM hands WHERE hand_id = ?", [hand_id]).fetchall()[0]
    if not stored or not stored[0]:
        raise ReviewError(f"no hand {hand_id!r} in the database")
    found = hand_findings(con, hand_id)
    codes = sorted({f.code for f in found})
    if not found:
        raise ReviewError(f"hand {hand_id} has no findings")
    of_code = [f for f in found if f.code == code]
    if not of_code:
        raise ReviewError(f"hand {hand_id} has no {code} finding; its findings: {', '.join(codes)}")
    if seq is not None and all(f.seq != seq for f in of_code):
        seqs = ", ".join(str(f.seq) for f in of_code)
        raise ReviewError(f"hand {hand_id} has no {code} finding at seq {seq}; it has one at seq {seqs}")


def add_review(con: duckdb.DuckDBPyConnection, hand_id: str, code: str, status: str, note: str, by: str,
               seq: int | None = None) -> Review:
    """Record a decision about a finding; it becomes the current one for (hand, code, seq)."""
    if status not in STATUSES:
        raise ReviewError(f"status {status!r} is not one of {', '.join(STATUSES)}")
    if not by.strip():
        raise ReviewError("a review needs the reviewer's name")
    review = Review(hand_id, code, seq, status, note, by.strip(), datetime.now(UTC).replace(tzinfo=None))
    # Each statement read to its end: DuckDB keeps an unread result open on the connection.
    con.execute(CREATE_SQL).fetchall()
    con.execute(f"INSERT INTO {TABLE} VALUES (?, ?, ?, ?, ?, ?, ?)",
                [review.hand_id, review.code, review.seq, review.status, review.note, review.reviewer,
                 review.at]).fetchall()
    return review


def reviews(con: duckdb.DuckDBPyConnection, hand_ids: Sequence[str] | None = None) -> list[Review]:
    """The review history, oldest first: of every hand, or of `hand_ids`."""
    if not _has_table(con, TABLE):
        return []
    sql = f"SELECT hand_id, code, seq, status, note, reviewer, reviewed_at FROM {TABLE}"
    params: list[object] = []
    if hand_ids is not None:
        sql += " WHERE hand_id IN (SELECT unnest(?))"
        params.append(list(hand_ids))
    rows = con.execute(sql + " ORDER BY reviewed_at, rowid", params).fetchall()
    return [Review(*row) for row in rows]


def latest(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str, int | None], Review]:
    """The current decision per finding: the latest review of each (hand, code, seq)."""
    return {review.key: review for review in reviews(con)}


def current_for(decisions: dict[tuple[str, str, int | None], Review], hand_id: str, code: str,
                seq: int) -> Review | None:
    """The decision that applies to one finding: its own (seq) review, else one of its code."""
    own = decisions.get((hand_id, code, seq))
    whole = decisions.get((hand_id, code, None))
    if own is None or (whole is not None and whole.at > own.at):
        return whole
    return own
