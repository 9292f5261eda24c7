"""`barge audit`: replay stored hands under the rulebook and store what the replay finds.

Hands are read back from their stored raw text with the reader of their source's format, a
batch at a time, and replayed (`evaluator.replay`) in worker processes (`pipeline.workers`);
each batch's results replace the hands' earlier ones in one transaction, so an interrupted audit
leaves every hand either audited or not. The results are the findings, the awards the rules give
(`awards` rows with origin "computed"), each seat's `ending_stack` under those awards, and the
all-in adjusted results (`allin_adjustments`, `evaluator.equity.all_in_adjusted`), which the
statistics read instead of computing them again.

`barge ingest` replays what it stores in its own workers (`pipeline.ingest.ingest(audit=True)`),
with the same rows; this module audits the rest and audits again under another profile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import duckdb

from evaluator.findings import Finding
from evaluator.rulebook import quote_for, rule_text, rule_title
from evaluator.sequences import ACTION_KINDS, TOURNAMENT_TYPES
from pipeline.parallel import Workers
from pipeline.stats import refresh_facts
from pipeline.store import hand_tables
from pipeline.workers import AuditTask, SequenceTask, audit_chunk, check_sequences

if TYPE_CHECKING:
    from pipeline.store import Store

BATCH = 1000  # hands per work unit and per transaction
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
SEQUENCE_BATCH = 10_000  # hands read back at once for the checks across hands (whole tables and tournaments)
SEQUENCE_MEMORY_LIMIT = "256MB"  # DuckDB's buffer while they are read
TOURNAMENT_SQL = "(" + ", ".join(f"'{t}'" for t in sorted(TOURNAMENT_TYPES)) + ")"


@dataclass(slots=True)
class AuditSummary:
    hands: int = 0
    profile: str | None = None
    findings: list[Finding] = field(default_factory=list)

    def merge(self, other: AuditSummary) -> AuditSummary:
        """This audit followed by `other` (of other hands)."""
        return AuditSummary(self.hands + other.hands, self.profile, self.findings + other.findings)

    @property
    def by_code(self) -> list[tuple[str, str, str, int]]:
        """(code, severity, rule, count), the most severe and most frequent first."""
        counts = Counter((f.code.name, f.severity, f.code.rule or "the game's section")
                         for f in self.findings)
        return sorted(((c, s, r, n) for (c, s, r), n in counts.items()),
                      key=lambda row: (SEVERITY_ORDER[row[1]], -row[3], row[0]))

    @property
    def worst_hands(self) -> list[tuple[str, int, int]]:
        """(hand_id, errors, warnings), the hands with the most errors first."""
        per_hand: dict[str, Counter[str]] = {}
        for f in self.findings:
            per_hand.setdefault(f.hand_id, Counter())[f.severity] += 1
        rows = [(h, c["error"], c["warning"]) for h, c in per_hand.items() if c["error"] or c["warning"]]
        return sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "profile": self.profile or "per hand",
            "errors": self.count("error"), "warnings": self.count("warning"), "infos": self.count("info"),
            "findings": [
                {"hand_id": f.hand_id, "seq": f.seq, "severity": f.severity, "code": f.code.name,
                 "message": f.message, "rule": f.rule, "rule_title": rule_title(f.rule),
                 "quote": quote_for(f.code.name, f.rule), "rule_text": rule_text(f.code.name, f.rule)}
                for f in self.findings
            ],
        }


def audit(store: Store, profile: str | None = None, pending_only: bool = False,
          variant: str | None = None, event: str | None = None, hand_id: str | None = None,
          progress: Callable[[int, int], None] | None = None, *, jobs: int = 1) -> AuditSummary:
    """Replay the stored hands matching the filters (all of them by default; with
    `pending_only`, those never audited) and store their findings.

    `profile` overrides each hand's own rules profile; a hand's explicit options still apply.
    `jobs`: worker processes that replay (1: this process).
    """
    rowids = store.rows_to_audit(pending_only, variant, event, hand_id).tolist()
    summary = AuditSummary(profile=profile)

    def tasks() -> Iterator[tuple[None, AuditTask]]:
        for start in range(0, len(rowids), BATCH):
            yield None, AuditTask(tuple(store.stored_texts(rowids[start:start + BATCH])), profile)

    with Workers(jobs) as workers:
        for _, _, result in workers.ordered(audit_chunk, tasks()):
            assert result is not None  # no barriers among these tasks
            store.write_audit(list(result.hand_ids), result.tables)
            summary.hands += len(result.hand_ids)
            summary.findings.extend(result.findings)
            if progress is not None:
                progress(summary.hands, len(rowids))
    with store.transaction():
        refresh_facts(store.con)
    return summary


def audit_sequences(store: Store, since: datetime | None = None, event: str | None = None, *,
                    jobs: int = 1) -> AuditSummary:
    """Check the stored hands of each table in order (`evaluator.sequences`) and store the findings
    across hands, replacing the earlier ones of those hands.

    The tables checked: every table (of `event`, when given), or with `since` those with a hand
    audited at or after that time (an ingest's new hands), and every table of a tournament such a
    hand was dealt in, so that a player at two of its tables is seen.

    The hands are read back in parts of about `SEQUENCE_BATCH` (`sequence_parts`), with the few actions
    the checks read, so that memory is bounded by the largest part, not the store; this process
    reads each part as Arrow tables and `jobs` worker processes rebuild its hands and check them
    (`pipeline.workers.check_sequences`)."""
    where: list[str] = []
    params: list[object] = []
    if since is not None:
        where.append(joined_by("FROM hands JOIN audits USING (hand_id) WHERE audited_at >= ?"))
        params += [since, since]
    if event is not None:
        where.append("event = ?")
        params.append(event)
    condition = " AND ".join(["table_name IS NOT NULL", *where])
    # Streamed in order from a cursor of its own (the checks query the store between parts).
    cursor = store.con.cursor()
    parts = sequence_parts(cursor, condition, params)
    tasks = ((None, SequenceTask(hand_tables(store.con, list(part.formats), ACTION_KINDS), part.formats))
             for part in parts)
    within: list[Finding] = []
    between: list[Finding] = []
    hands = 0
    # Each part scans the stored seats and actions: a cache as large as ingest's would only hold
    # pages read once, beside the workers' hands (about 0.7 GB less at a million hands).
    # `closing`: the parts' cursor is closed however this ends (an open cursor keeps the database
    # open after the store is closed).
    with closing(cursor), closing(parts), store.memory_limit(SEQUENCE_MEMORY_LIMIT), Workers(jobs) as workers:
        for _, task, result in workers.ordered(check_sequences, tasks):
            assert task is not None and result is not None  # no barriers among these tasks
            found, across = result
            store.write_sequence_findings(list(task.formats), found + across)
            within += found
            between += across
            hands += len(task.formats)
    return AuditSummary(hands, None, within + between)


def joined_by(new: str) -> str:
    """The condition on `hands` of the tables the hands of `new` (a FROM and WHERE clause with one
    parameter, given twice) were dealt at, and of every table of a tournament one was dealt in."""
    table = "(coalesce(site, ''), coalesce(event, ''), coalesce(tournament, ''), table_name)"
    tournament = "(coalesce(site, ''), coalesce(event, ''), tournament)"
    return (f"({table} IN (SELECT {table} {new}) OR {tournament} IN (SELECT {tournament} {new} "
            "AND tournament IS NOT NULL))")


@dataclass(frozen=True, slots=True)
class SequencePart:
    """Hands checked together: {hand id: format}, and the values of the column `carry` of
    `sequence_parts` among them (where a cluster's parts find their hands' files)."""

    formats: dict[str, str]
    carried: frozenset[str] = frozenset()


def sequence_parts(stream: duckdb.DuckDBPyConnection, condition: str, params: list[object],
                   relation: str = "hands", carry: str | None = None) -> Generator[SequencePart, None, None]:
    """The hands of `relation` (the stored hands, or a view of them with more columns) to check
    (`condition`), in parts of whole checks: a tournament's hands together (a player at two of its
    tables is seen), other hands a table at a time, parts joined up to `SEQUENCE_BATCH` hands. A
    part is larger only where one tournament or one table is. `stream`: a connection that runs
    nothing else while the parts are read (such as a cursor of the store's: the checks query the
    store between parts)."""
    carried = carry or "NULL"
    picked = f"""SELECT hand_id, format, coalesce(site, '') AS s, coalesce(event, '') AS e,
                        coalesce(tournament, '') AS t, table_name, game_type, {carried} AS carried
                 FROM {relation} JOIN sources USING (source_id) WHERE {condition}"""
    # Streamed in order: a million hands' ids and keys would take half a gigabyte as Python objects.
    rows = stream.sql(f"""
            WITH picked AS ({picked}),
                 events AS (SELECT s, e, t, bool_or(game_type IN {TOURNAMENT_SQL}) AS whole
                            FROM picked GROUP BY s, e, t)
            SELECT hand_id, format, s, e, t, CASE WHEN whole THEN NULL ELSE table_name END AS part, carried
            FROM picked JOIN events USING (s, e, t) ORDER BY s, e, t, part NULLS FIRST""",
                      params=params).to_arrow_reader(SEQUENCE_BATCH)
    part: dict[str, str] = {}
    values: set[str] = set()
    last: tuple[str, ...] | None = None
    for batch in rows:
        columns = [batch.column(c).to_pylist()
                   for c in ("hand_id", "format", "carried", "s", "e", "t", "part")]
        for hand_id, fmt, value, *key in zip(*columns, strict=True):
            if len(part) >= SEQUENCE_BATCH and tuple(key) != last:
                yield SequencePart(part, frozenset(values))
                part, values = {}, set()
            part[hand_id] = fmt
            if value is not None:
                values.add(value)
            last = tuple(key)
    if part:
        yield SequencePart(part, frozenset(values))
