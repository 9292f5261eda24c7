"""Ingest: history files in, hands and rejects out, with an account of every hand block.

Each file is written in one transaction, so a file is either stored whole or not at all and
an interrupted ingest can simply be run again; a file whose SHA-256 is already in `sources`
adds nothing.  Every hand block ends up stored, rejected (with file, line, column, what was
expected and its raw text) or counted as a duplicate of a hand already stored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from time import perf_counter
from typing import Any

from evaluator.variants import DEFAULT_PROFILE
from grammar.barge_parser import parse_hand
from grammar.errors import HandSyntaxError
from pipeline.model import Hand
from pipeline.sources import Block, detect_format, expand_paths, read_blocks, sha256_of
from pipeline.store import Store
from pipeline.tables import HandBatch

BATCH_HANDS = 5000
Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class Reject:
    path: str
    line: int
    column: int
    error: str


@dataclass(slots=True)
class FileReport:
    path: str
    status: str  # "ingested", "already ingested", "skipped" or "error"
    reason: str = ""
    format: str = ""
    blocks: int = 0
    hands: int = 0
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

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.total("hands"),
            "rejects": self.total("rejects"),
            "duplicates": self.total("duplicates"),
            "blocks": self.total("blocks"),
            "by_variant": dict(sorted(self.by_variant.items())),
            "seconds": round(self.seconds, 3),
            "files": [
                {"path": f.path, "status": f.status, "reason": f.reason, "format": f.format,
                 "blocks": f.blocks, "hands": f.hands, "rejects": f.rejects,
                 "duplicates": f.duplicates}
                for f in self.files
            ],
            "reject_details": [
                {"path": r.path, "line": r.line, "column": r.column, "error": r.error}
                for r in self.rejects
            ],
        }


class _FileIngest:
    """Parses one file's blocks and writes its hands in batches within one transaction."""

    def __init__(self, store: Store, source_id: int, report: FileReport, seen: set[str]) -> None:
        self.store, self.source_id, self.report, self.seen = store, source_id, report, seen
        self.added: set[str] = set()  # joins `seen` only once the file is committed
        self.pending: list[tuple[Hand, Block]] = []
        self.reject_rows: list[tuple[int, int, int, str, str]] = []
        self.rejects: list[Reject] = []

    def block(self, block: Block) -> None:
        self.report.blocks += 1
        try:
            hand = parse_hand(block.text)
        except HandSyntaxError as exc:
            located = exc.shifted(block.line - 1)
            self.report.rejects += 1
            message = located.describe()
            self.reject_rows.append((self.source_id, located.line, located.column, message, block.text))
            self.rejects.append(Reject(self.report.path, located.line, located.column, message))
            return
        if hand.rules_profile is None:
            hand = replace(hand, rules_profile=DEFAULT_PROFILE)
        self.pending.append((hand, block))
        if len(self.pending) >= BATCH_HANDS:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        stored = self.store.existing_hand_ids([hand.hand_id for hand, _ in self.pending])
        batch = HandBatch()
        for hand, block in self.pending:
            if hand.hand_id in stored or hand.hand_id in self.seen or hand.hand_id in self.added:
                self.report.duplicates += 1
                continue
            self.added.add(hand.hand_id)
            batch.add(hand, self.source_id, block.line, block.text)
            self.report.hands += 1
            self.report.by_variant[hand.variant] += 1
        self.store.write_batch(batch)
        self.pending.clear()

    def finish(self) -> None:
        self.flush()
        self.store.write_rejects(self.reject_rows)
        r = self.report
        if r.blocks != r.hands + r.rejects + r.duplicates:
            raise AccountingError(
                f"{r.path}: {r.blocks} hand blocks but {r.hands} stored + {r.rejects} rejected"
                f" + {r.duplicates} duplicates")


def ingest(paths: Iterable[Path], store: Store, progress: Progress | None = None) -> IngestSummary:
    """Ingest files and folders (recursively) into the store; never raises for bad input."""
    started = perf_counter()
    summary = IngestSummary()
    seen: set[str] = set()
    for path in expand_paths(paths):
        report = FileReport(path=str(path), status="ingested")
        summary.files.append(report)
        try:
            _ingest_file(path, store, report, seen, summary, progress)
        except OSError as exc:
            # The file's transaction was rolled back: nothing of it is stored.
            summary.files[-1] = FileReport(path=str(path), status="error",
                                           reason=f"cannot read: {exc.strerror or exc}")
    summary.seconds = perf_counter() - started
    return summary


def _ingest_file(path: Path, store: Store, report: FileReport, seen: set[str],
                 summary: IngestSummary, progress: Progress | None) -> None:
    if not path.exists():
        report.status, report.reason = "error", "no such file or folder"
        return
    fmt = detect_format(path)
    if fmt is None:
        report.status, report.reason = "skipped", "not a hand-history format barge reads"
        if progress:
            progress(path.stat().st_size)
        return
    report.format = fmt
    sha = sha256_of(path)
    if store.source_with_sha(sha) is not None:
        report.status, report.reason = "already ingested", "same SHA-256 as a stored source"
        if progress:
            progress(path.stat().st_size)
        return
    store.begin()
    try:
        source_id = store.next_source_id()
        work = _FileIngest(store, source_id, report, seen)
        for block in read_blocks(path):
            work.block(block)
            if progress:
                progress(len(block.text))
        work.finish()
        store.add_source(source_id, str(path), sha, fmt, report.hands, report.rejects,
                         report.duplicates)
    except BaseException:
        store.rollback()
        raise
    store.commit()
    seen |= work.added
    summary.rejects.extend(work.rejects)
