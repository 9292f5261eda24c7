"""Ingest: history files in, hands and rejects out, with an account of every hand block.

Hands are written in batches, one transaction each, so memory stays flat however large a
file is.  A file's `sources` row is marked complete only in the transaction that writes its
last batch; a file found incomplete (the ingest was killed) is purged and read again whole, so
running an interrupted ingest again gives the tables an uninterrupted one would have.  A file
whose SHA-256 is already complete in `sources` adds nothing.

A hand's identity is its hand id: a hand already stored with the same (normalised) text is a
duplicate; one whose text changed in the same file replaces the stored version; one that
clashes with a different hand from another file is rejected.  Every hand
block ends up stored, rejected (with file, line, column, what was expected and its raw text)
or counted as a duplicate, and the counts are checked.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from time import perf_counter
from typing import Any

from evaluator.profiles import DEFAULT_PROFILE
from grammar.errors import HandSyntaxError
from pipeline.formats import FORMATS, NATIVE, Format, detect_format
from pipeline.model import Hand
from pipeline.sources import Block, expand_paths, read_blocks, sha256_of
from pipeline.store import Store
from pipeline.tables import HandBatch

BATCH_HANDS = 2000  # hands per transaction: bounds memory, whatever the file size
Progress = Callable[[int], None]


def text_digest(text: str) -> str:
    """Identity of a hand's text: trailing spaces, line endings and blank lines do not count."""
    lines = (line.rstrip() for line in text.splitlines())
    return hashlib.sha1("\n".join(line for line in lines if line).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Reject:
    path: str
    line: int
    column: int
    error: str


@dataclass(slots=True)
class FileReport:
    path: str
    status: str  # "ingested", "retried", "already ingested", "skipped" or "error"
    reason: str = ""
    format: str = ""
    blocks: int = 0
    hands: int = 0  # stored: new hands and changed hands
    changed: int = 0  # of `hands`, those that replaced an earlier version
    rejects: int = 0
    duplicates: int = 0
    by_variant: Counter[str] = field(default_factory=Counter)


class AccountingError(AssertionError):
    """Hand blocks seen differ from hands stored + rejected + duplicates: a bug, never input."""


@dataclass(slots=True)
class IngestSummary:
    files: list[FileReport] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    seconds: float = 0.0

    def total(self, name: str) -> int:
        return sum(getattr(f, name) for f in self.files)

    @property
    def by_variant(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        for report in self.files:
            counts.update(report.by_variant)
        return counts

    @property
    def errors(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "error"]

    def merge(self, other: IngestSummary) -> None:
        self.files += other.files
        self.rejects += other.rejects
        self.seconds += other.seconds

    def check(self) -> None:
        blocks = self.total("blocks")
        accounted = self.total("hands") + self.total("rejects") + self.total("duplicates")
        if blocks != accounted:
            raise AccountingError(f"{blocks} hand blocks but {accounted} stored, rejected or duplicate")

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.total("hands"),
            "rejects": self.total("rejects"),
            "duplicates": self.total("duplicates"),
            "changed": self.total("changed"),
            "blocks": self.total("blocks"),
            "by_variant": dict(sorted(self.by_variant.items())),
            "seconds": round(self.seconds, 3),
            "files": [
                {"path": f.path, "status": f.status, "reason": f.reason, "format": f.format,
                 "blocks": f.blocks, "hands": f.hands, "changed": f.changed, "rejects": f.rejects,
                 "duplicates": f.duplicates}
                for f in self.files
            ],
            "reject_details": [
                {"path": r.path, "line": r.line, "column": r.column, "error": r.error}
                for r in self.rejects
            ],
        }


@dataclass(frozen=True, slots=True)
class _Known:
    """What identifies a stored hand: the digest of its text and the path it came from."""

    digest: str
    path: str


class _FileIngest:
    """Parses one file's blocks and writes its hands and rejects in batches, a transaction each."""

    def __init__(self, store: Store, source_id: int, path: str, report: FileReport,
                 known: dict[str, _Known], fmt: Format) -> None:
        self.store, self.source_id, self.path, self.report = store, source_id, path, report
        self.parse = fmt.parse
        self.known = known  # hands stored earlier in this run
        self.local: dict[str, _Known] = {}  # joins `known` once the file is committed
        self.pending: list[tuple[Hand, Block]] = []
        self.reject_rows: list[tuple[int, int, int, str, str, int]] = []  # not yet written
        self.rejects: list[Reject] = []

    def _reject(self, block: Block, line: int, column: int, message: str) -> None:
        self.report.rejects += 1
        self.reject_rows.append((self.source_id, line, column, message, block.text, block.line))
        self.rejects.append(Reject(self.report.path, line, column, message))

    def block(self, block: Block) -> None:
        self.report.blocks += 1
        try:
            hand = self.parse(block.text)
        except HandSyntaxError as exc:
            located = exc.shifted(block.line - 1)
            self._reject(block, located.line, located.column, located.describe())
            return
        if hand.rules_profile is None:
            hand = replace(hand, rules_profile=DEFAULT_PROFILE)
        self.pending.append((hand, block))
        if len(self.pending) >= BATCH_HANDS:
            self.flush()

    def flush(self) -> None:
        """Write the pending hands and rejects in one transaction."""
        with self.store.transaction():
            self._write()
        self.pending.clear()
        self.reject_rows.clear()

    def _write(self) -> None:
        stored = {
            hand_id: _Known(text_digest(text), path)
            for hand_id, (text, path) in self.store.stored_versions(
                [hand.hand_id for hand, _ in self.pending]).items()
        }
        batch = HandBatch()
        replaced: list[str] = []
        for hand, block in self.pending:
            hand_id, digest = hand.hand_id, text_digest(block.text)
            earlier = self.local.get(hand_id) or self.known.get(hand_id) or stored.get(hand_id)
            if earlier is not None and earlier.digest == digest:
                self.report.duplicates += 1
                continue
            if earlier is not None:
                if earlier.path != self.path or hand_id in self.local:
                    where = "earlier in this file" if earlier.path == self.path else f"from {earlier.path}"
                    self._reject(block, block.line, 1,
                                 f"hand #{hand_id} is already stored {where} with different content")
                    continue
                replaced.append(hand_id)  # the file changed: this version replaces the old one
                self.report.changed += 1
            self.local[hand_id] = _Known(digest, self.path)
            batch.add(hand, self.source_id, block.line, block.text)
            self.report.hands += 1
            self.report.by_variant[hand.variant] += 1
        self.store.delete_hands(replaced)
        self.store.write_batch(batch)
        self.store.write_rejects(self.reject_rows)

    def finish(self) -> None:
        self.flush()
        r = self.report
        if r.blocks != r.hands + r.rejects + r.duplicates:
            raise AccountingError(
                f"{r.path}: {r.blocks} hand blocks but {r.hands} stored + {r.rejects} rejected"
                f" + {r.duplicates} duplicates")

    def committed(self, summary: IngestSummary) -> None:
        self.known.update(self.local)
        summary.rejects.extend(self.rejects)


def ingest(paths: Iterable[Path], store: Store, progress: Progress | None = None) -> IngestSummary:
    """Ingest files and folders (recursively) into the store; never raises for bad input."""
    started = perf_counter()
    summary = IngestSummary()
    known: dict[str, _Known] = {}
    for path, problem in expand_paths(paths):
        report = FileReport(path=str(path), status="ingested")
        summary.files.append(report)
        if problem is not None:
            report.status, report.reason = "error", problem
            continue
        try:
            _ingest_file(path, store, report, known, summary, progress)
        except OSError as exc:
            # The file's transaction was rolled back: nothing of it is stored.
            summary.files[-1] = FileReport(path=str(path), status="error",
                                           reason=f"cannot read: {exc.strerror or exc}")
    summary.seconds = perf_counter() - started
    summary.check()
    return summary


def _ingest_file(path: Path, store: Store, report: FileReport, known: dict[str, _Known],
                 summary: IngestSummary, progress: Progress | None) -> None:
    def pass_over(status: str, reason: str) -> None:
        report.status, report.reason = status, reason
        if progress:
            progress(path.stat().st_size)

    fmt, reason = detect_format(path)
    if fmt is None:
        return pass_over("skipped", reason)
    report.format = fmt
    sha = sha256_of(path)
    earlier = store.source_with_sha(sha)
    if earlier is not None and earlier[1]:
        return pass_over("already ingested", "same SHA-256 as a stored source")
    identity = str(path.resolve())
    with store.transaction():
        if earlier is not None:
            store.purge_source(earlier[0])
            report.reason = "an earlier, interrupted ingest of this file was done again"
        source_id = earlier[0] if earlier is not None else store.next_source_id()
        store.delete_rejects_of_path(identity)
        store.start_source(source_id, identity, sha, fmt)
    work = _FileIngest(store, source_id, identity, report, known, FORMATS[fmt])
    try:
        for block in read_blocks(path, FORMATS[fmt].split):
            work.block(block)
            if progress:
                progress(len(block.text))
        with store.transaction():
            work.finish()
            store.complete_source(source_id, report.hands, report.rejects, report.duplicates)
    except OSError:
        with store.transaction():
            store.purge_source(source_id)
        raise
    work.committed(summary)


def retry_rejects(store: Store) -> IngestSummary:
    """Read every stored reject again (after the grammar improved): what reads now is stored."""
    started = perf_counter()
    summary = IngestSummary()
    known: dict[str, _Known] = {}
    by_source: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in store.rejects():
        by_source[row["source_id"]].append(row)
    for source_id, rows in sorted(by_source.items()):
        path = rows[0]["path"]
        fmt = rows[0]["format"] or NATIVE
        report = FileReport(path=path, status="retried", format=fmt)
        summary.files.append(report)
        with store.transaction():
            work = _FileIngest(store, source_id, path, report, known, FORMATS[fmt])
            store.delete_rejects(source_id)
            for row in sorted(rows, key=lambda r: r["hand_line"]):
                work.block(Block(row["hand_line"], row["raw_text"]))
            work.finish()
            store.update_source_counts(source_id, report.hands, report.rejects)
        work.committed(summary)
    summary.seconds = perf_counter() - started
    summary.check()
    return summary
