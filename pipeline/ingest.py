"""Ingest: history files in, hands and rejects out, with an account of every hand block.

Files are read line by line and cut into chunks of `CHUNK_BLOCKS` hand blocks; worker processes
(`jobs`, `pipeline.parallel`) parse each chunk, and replay its hands under the rulebook when
asked (`audit`), and send back Arrow tables (`pipeline.workers`). This process alone writes the
database: it takes the chunks back in file order, decides which hands to store, and writes each
chunk in one transaction, so the tables are the same whatever the number of workers and memory
stays flat however large a file is. A file's `sources` row is marked complete only in the
transaction that writes its last chunk; a file found incomplete (the ingest was killed) is
purged and read again whole, so running an interrupted ingest again gives the tables an
uninterrupted one would have.  A file whose SHA-256 is already complete in `sources` adds nothing.

A hand's identity is its hand id: a hand already stored with the same (normalised) text is a
duplicate; one whose text changed in the same file replaces the stored version; one that
clashes with a different hand from another file is rejected.  Every hand
block ends up stored, rejected (with file, line, column, what was expected and its raw text)
or counted as a duplicate, and the counts are checked.  A hand that is not stored leaves no
audit rows behind.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter
from typing import Any

import numpy as np

from evaluator.findings import Finding
from pipeline.audit import AuditSummary
from pipeline.formats import FORMATS, NATIVE, detect_format
from pipeline.parallel import WorkerError, Workers
from pipeline.sources import Block, expand_paths, read_blocks, sha256_of
from pipeline.stats import refresh_facts
from pipeline.store import Store
from pipeline.workers import ReadResult, ReadTask, read_chunk, text_digest

__all__ = ["CHUNK_BLOCKS", "AccountingError", "FileReport", "IngestSummary", "Progress", "Reject", "ingest",
           "retry_rejects", "text_digest"]

# A work unit (and a transaction) ends at this many hand blocks or this much text, whichever
# comes first, so that memory is bounded by these and not by the size of a file or of a hand.
CHUNK_BLOCKS = 1000
CHUNK_CHARS = 4_000_000
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
    audit: AuditSummary | None = None  # the replay of the stored hands, when ingest was asked for it

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
        if other.audit is not None:
            self.audit = other.audit if self.audit is None else self.audit.merge(other.audit)

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
class _Earlier:
    """A version of a hand id stored before: the digest of its text, the path it came from, and
    whether it came from the file being ingested, earlier in this run."""

    digest: str
    path: str
    this_file: bool


@dataclass(slots=True)
class _File:
    """A file being ingested, and what its chunks written so far added (committed with the file)."""

    report: FileReport
    source_id: int
    path: str  # resolved: the source's identity
    fmt: str
    sha: str = ""
    rejects: list[Reject] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    audited: int = 0
    failure: str = ""  # why the file could not be read to the end


@dataclass(frozen=True, slots=True)
class _Step:
    """What the writer does with an item of the work: write a chunk of `file` (completing the file
    with `last`), purge `file` (no task: it could not be read to the end), or nothing (no file: a
    barrier, so that the next file starts once everything before it is written)."""

    file: _File | None
    last: bool = False


Work = Iterator[tuple[_Step, ReadTask | None]]


class _Ingest:
    """One run: reads files into tasks for the workers, and writes what comes back, in order."""

    def __init__(self, store: Store, summary: IngestSummary, progress: Progress | None, audit: bool = False,
                 rules: str | None = None) -> None:
        self.store, self.summary, self.progress = store, summary, progress
        self.audit, self.rules = audit, rules
        self.in_flight: dict[str, _File] = {}  # by SHA-256: the files started and not yet committed

    # ---- reading: files to tasks ----

    def work(self, paths: Iterable[Path]) -> Work:
        for path, problem in expand_paths(paths):
            report = FileReport(path=str(path), status="ingested")
            self.summary.files.append(report)
            if problem is not None:
                report.status, report.reason = "error", problem
                continue
            try:
                fmt, reason = detect_format(path)
                if fmt is None:
                    self._pass_over(path, report, "skipped", reason)
                    continue
                report.format = fmt
                sha = sha256_of(path)
                if sha in self.in_flight:  # the same content earlier in this run: let it finish first
                    yield _Step(None), None
                file = self._start(path, report, fmt, sha)
            except OSError as exc:
                self._error(report, exc)
                continue
            if file is not None:
                yield from self._chunks(path, file)

    def _pass_over(self, path: Path, report: FileReport, status: str, reason: str) -> None:
        report.status, report.reason = status, reason
        if self.progress:
            self.progress(path.stat().st_size)

    def _error(self, report: FileReport, exc: OSError) -> None:
        """Nothing of the file is stored: its report says why, with no counts."""
        index = next(i for i, r in enumerate(self.summary.files) if r is report)
        self.summary.files[index] = FileReport(path=report.path, status="error",
                                               reason=f"cannot read: {exc.strerror or exc}")

    def _start(self, path: Path, report: FileReport, fmt: str, sha: str) -> _File | None:
        earlier = self.store.source_with_sha(sha)
        if earlier is not None and earlier[1]:
            self._pass_over(path, report, "already ingested", "same SHA-256 as a stored source")
            return None
        identity = str(path.resolve())
        with self.store.transaction():
            if earlier is not None:
                self.store.purge_source(earlier[0])
                report.reason = "an earlier, interrupted ingest of this file was done again"
            source_id = earlier[0] if earlier is not None else self.store.next_source_id()
            self.store.delete_rejects_of_path(identity)
            self.store.start_source(source_id, identity, sha, fmt)
        file = _File(report, source_id, identity, fmt, sha)
        self.in_flight[sha] = file
        return file

    def task(self, file: _File, blocks: list[Block]) -> ReadTask:
        return ReadTask(file.fmt, file.source_id, tuple(blocks), self.audit, self.rules)

    def _chunks(self, path: Path, file: _File) -> Work:
        """The file's blocks in chunks; one chunk is held back until the next block shows whether
        it is the last, which completes the file in its transaction."""
        blocks: list[Block] = []
        chars = 0
        try:
            for block in read_blocks(path, FORMATS[file.fmt].split):
                if len(blocks) == CHUNK_BLOCKS or chars >= CHUNK_CHARS:
                    yield _Step(file), self.task(file, blocks)
                    blocks, chars = [], 0
                blocks.append(block)
                chars += len(block.text)
        except OSError as exc:
            file.failure = f"cannot read: {exc.strerror or exc}"
            yield _Step(file, last=True), None
            return
        yield _Step(file, last=True), self.task(file, blocks)

    # ---- writing: what the workers read, in order ----

    def take(self, step: _Step, task: ReadTask | None, result: ReadResult | None) -> None:
        file = step.file
        if file is None:
            return
        if task is None or result is None:
            self._purge(file)
            return
        with self.store.transaction():
            self.write(file, task, result)
            if step.last:
                self.finish(file)
                self.store.complete_source(file.source_id, file.report.hands, file.report.rejects,
                                           file.report.duplicates)
        if step.last:
            self.commit(file)
        if self.progress:
            self.progress(sum(len(block.text) for block in task.blocks))

    def _reject(self, file: _File, rows: list[tuple[int, int, int, str, str, int]], block: Block, line: int,
                column: int, message: str) -> None:
        file.report.rejects += 1
        rows.append((file.source_id, line, column, message, block.text, block.line))
        file.rejects.append(Reject(file.report.path, line, column, message))

    def write(self, file: _File, task: ReadTask, result: ReadResult) -> None:
        """Store a chunk's new and changed hands (with their audit rows) and its rejects."""
        report = file.report
        report.blocks += len(task.blocks)
        reject_rows: list[tuple[int, int, int, str, str, int]] = []
        for bad in result.rejects:
            self._reject(file, reject_rows, task.blocks[bad.block], bad.line, bad.column, bad.message)
        # Hands of earlier chunks and files are in the database: nothing grows with the input here.
        stored = {
            hand_id: _Earlier(text_digest(text), path, source_id == file.source_id)
            for hand_id, (text, path, source_id) in self.store.stored_versions(
                [h.hand_id for h in result.hands]).items()
        }
        here: dict[str, _Earlier] = {}  # the hands kept earlier in this chunk
        keep = np.zeros(len(result.hands), dtype=np.bool_)
        replaced: list[str] = []
        for i, hand in enumerate(result.hands):
            hand_id, block = hand.hand_id, task.blocks[hand.block]
            earlier = here.get(hand_id) or stored.get(hand_id)
            if earlier is not None and earlier.digest == hand.digest:
                report.duplicates += 1
                continue
            if earlier is not None:
                if earlier.path != file.path or earlier.this_file:
                    where = "earlier in this file" if earlier.path == file.path else f"from {earlier.path}"
                    self._reject(file, reject_rows, block, block.line, 1,
                                 f"hand #{hand_id} is already stored {where} with different content")
                    continue
                replaced.append(hand_id)  # the file changed: this version replaces the old one
                report.changed += 1
            here[hand_id] = _Earlier(hand.digest, file.path, this_file=True)
            keep[i] = True
            report.hands += 1
            report.by_variant[hand.variant] += 1
            file.findings.extend(result.findings[i])
        self.store.delete_hands(replaced)
        self.store.write_tables(result.tables.select(keep))
        if result.audit is not None:
            self.store.write_tables(result.audit.select(keep))
            file.audited += int(keep.sum())
        self.store.write_rejects(reject_rows)

    @staticmethod
    def finish(file: _File) -> None:
        r = file.report
        if r.blocks != r.hands + r.rejects + r.duplicates:
            raise AccountingError(
                f"{r.path}: {r.blocks} hand blocks but {r.hands} stored + {r.rejects} rejected"
                f" + {r.duplicates} duplicates")

    def commit(self, file: _File) -> None:
        """The file's last transaction is committed."""
        self.summary.rejects.extend(file.rejects)
        self.in_flight.pop(file.sha, None)
        if self.summary.audit is not None:
            self.summary.audit.hands += file.audited
            self.summary.audit.findings.extend(file.findings)

    def abandon(self) -> None:
        """The run cannot go on (a worker died, Ctrl-C): what the files not finished wrote goes."""
        with self.store.transaction():
            for file in self.in_flight.values():
                self.store.purge_source(file.source_id)
        self.in_flight.clear()

    def _purge(self, file: _File) -> None:
        """The file could not be read to the end: what its chunks wrote goes, and it is an error."""
        with self.store.transaction():
            self.store.purge_source(file.source_id)
        self.in_flight.pop(file.sha, None)
        index = next(i for i, r in enumerate(self.summary.files) if r is file.report)
        self.summary.files[index] = FileReport(path=file.report.path, status="error", reason=file.failure)


def ingest(paths: Iterable[Path], store: Store, progress: Progress | None = None, *, jobs: int = 1,
           audit: bool = False, rules: str | None = None) -> IngestSummary:
    """Ingest files and folders (recursively) into the store; never raises for bad input.

    `jobs`: worker processes that parse (1: this process). With `audit`, the workers also replay
    every hand under its own rules profile (or `rules`) and the audit rows are stored with the
    hands (`IngestSummary.audit`), as `pipeline.audit.audit` would have stored them.
    """
    started = perf_counter()
    summary = IngestSummary(audit=AuditSummary(profile=rules) if audit else None)
    run = _Ingest(store, summary, progress, audit, rules)
    try:
        with Workers(jobs) as workers:
            for step, task, result in workers.ordered(read_chunk, run.work(paths)):
                run.take(step, task, result)
    except KeyboardInterrupt:
        run.abandon()
        raise
    except WorkerError as exc:
        run.abandon()
        raise WorkerError(f"{exc}; the files it was reading were rolled back: run the ingest again") from None
    with store.transaction():
        refresh_facts(store.con)
    summary.seconds = perf_counter() - started
    summary.check()
    return summary


def retry_rejects(store: Store) -> IngestSummary:
    """Read every stored reject again (after the grammar improved): what reads now is stored.

    Rejects are few, so they are read in this process, with the readers as they are now; the
    hands stored are audited by the next `pipeline.audit.audit(pending_only=True)`.
    """
    started = perf_counter()
    summary = IngestSummary()
    run = _Ingest(store, summary, None)
    by_source: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in store.rejects():
        by_source[row["source_id"]].append(row)
    for source_id, rows in sorted(by_source.items()):
        path = rows[0]["path"]
        fmt = rows[0]["format"] or NATIVE
        report = FileReport(path=path, status="retried", format=fmt)
        summary.files.append(report)
        file = _File(report, source_id, path, fmt)
        rows.sort(key=lambda r: r["hand_line"])
        blocks = [Block(row["hand_line"], row["raw_text"]) for row in rows]
        with store.transaction():
            store.delete_rejects(source_id)
            for start in range(0, len(blocks), CHUNK_BLOCKS):
                task = run.task(file, blocks[start:start + CHUNK_BLOCKS])
                run.write(file, task, read_chunk(task))
            run.finish(file)
            store.update_source_counts(source_id, report.hands, report.rejects)
        run.commit(file)
    with store.transaction():
        refresh_facts(store.con)
    summary.seconds = perf_counter() - started
    summary.check()
    return summary
