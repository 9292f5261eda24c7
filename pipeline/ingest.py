"""Ingest: history files in, hands and rejects out, with an account of every hand block.

Files are read line by line and cut into chunks of `CHUNK_BLOCKS` hand blocks, file after file:
a large file spreads over many chunks, many small files share one, so that a file costs no task,
transaction or statement of its own (a folder of one-hand files ingests about as fast as the same
hands in one file). Worker processes (`jobs`, `pipeline.parallel`) parse each chunk, and replay
its hands under the rulebook when asked (`audit`), and send back Arrow tables
(`pipeline.workers`). This process alone writes the database: it takes the chunks back in file
order, decides which hands to store, and writes each chunk in one transaction, so the tables are
the same whatever the number of workers and memory stays flat however large a file is. A file's
`sources` row is written with its first chunk and marked complete only in the transaction that
writes its last chunk; a file found incomplete (the ingest was killed) is
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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path
from time import perf_counter
from typing import Any

import numpy as np

from evaluator.findings import Finding
from pipeline.audit import AuditSummary
from pipeline.formats import FORMATS, NATIVE, detect_format
from pipeline.parallel import WorkerError, Workers
from pipeline.sources import Block, Head, expand_paths, read_blocks, read_head, sha256_of
from pipeline.stats import refresh_facts
from pipeline.store import Store
from pipeline.workers import ReadResult, ReadTask, Span, read_chunk, text_digest

__all__ = ["CHUNK_BLOCKS", "AccountingError", "FileReport", "IngestSummary", "Progress", "Reject", "ingest",
           "retry_rejects", "text_digest"]

# A work unit (and a transaction) ends at this many hand blocks or this much text, whichever
# comes first, so that memory is bounded by these and not by the size of a file or of a hand.
CHUNK_BLOCKS = 1000
CHUNK_CHARS = 4_000_000
# Files are looked up in the store this many at a time: one query for all their SHA-256s.
LOOKUP_FILES = 256
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
    """A version of a hand id stored before (or kept earlier in this chunk): the digest of its
    text, and the path and source it came from."""

    digest: str
    path: str
    source_id: int


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
    interrupted: bool = False  # an earlier ingest of it was killed: what it left goes first
    chunked: bool = False  # some of its blocks are in a chunk already


@dataclass(frozen=True, slots=True)
class _Part:
    """The blocks of one file in a chunk; `first`: its first (the file's `sources` row is written
    with it), `last`: its last (the file is complete in the chunk's transaction)."""

    file: _File
    blocks: int
    first: bool
    last: bool


@dataclass(frozen=True, slots=True)
class _Step:
    """What the writer does with an item of the work: write a chunk made of `parts` (files after
    one another), purge `purge` (no task: it could not be read to the end), or nothing (neither: a
    barrier, so that the next file starts once everything before it is written)."""

    parts: tuple[_Part, ...] = ()
    purge: _File | None = None


Work = Iterator[tuple[_Step, ReadTask | None]]


@dataclass(slots=True)
class _Chunk:
    """The blocks gathered for the next task, file after file: small files share a chunk, a large
    one spreads over several; a chunk is full at `CHUNK_BLOCKS` blocks or `CHUNK_CHARS` of text."""

    parts: list[_Part] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    chars: int = 0

    def full(self) -> bool:
        return len(self.blocks) >= CHUNK_BLOCKS or self.chars >= CHUNK_CHARS

    def _part(self, file: _File) -> _Part:
        if self.parts and self.parts[-1].file is file:
            return self.parts.pop()
        part = _Part(file, 0, first=not file.chunked, last=False)
        file.chunked = True
        return part

    def add(self, file: _File, block: Block) -> None:
        part = self._part(file)
        self.parts.append(replace(part, blocks=part.blocks + 1))
        self.blocks.append(block)
        self.chars += len(block.text)

    def end(self, file: _File) -> None:
        """The file has no more blocks: the chunk completes it."""
        self.parts.append(replace(self._part(file), last=True))

    def drop(self, file: _File) -> None:
        """The file could not be read to the end: its blocks leave the chunk."""
        if self.parts and self.parts[-1].file is file:
            count = self.parts.pop().blocks
            for block in self.blocks[len(self.blocks) - count:]:
                self.chars -= len(block.text)
            del self.blocks[len(self.blocks) - count:]

    def take(self, audit: bool, rules: str | None) -> Work:
        """The chunk as a step and its task, if it holds anything; the chunk is empty after."""
        if self.parts:
            spans = tuple(Span(p.file.fmt, p.file.source_id, p.blocks) for p in self.parts)
            yield _Step(tuple(self.parts)), ReadTask(spans, tuple(self.blocks), audit, rules)
        self.parts, self.blocks, self.chars = [], [], 0


Identified = tuple[Path, Head, FileReport, str, str]  # a file, its head, report, format and SHA-256


def identify(paths: Iterable[tuple[Path, str | None]], reports: list[FileReport],
             skipped: Callable[[Path, FileReport, str], None]) -> Iterator[Identified]:
    """The files (`expand_paths`) that are hand histories, with their head, format and SHA-256;
    each file gets its report in `reports`, in order (`skipped` is told of a file of no known
    format). A small file is read here once, whole (`Head.whole`); one that cannot be read is an
    error, with no counts."""
    for path, problem in paths:
        report = FileReport(path=str(path), status="ingested")
        reports.append(report)
        if problem is not None:
            report.status, report.reason = "error", problem
            continue
        try:
            head = read_head(path)
            fmt, reason = detect_format(path, head)
            if fmt is None:
                skipped(path, report, reason)
                continue
            report.format = fmt
            sha = sha256_of(path, head)
        except OSError as exc:
            report.status, report.reason, report.format = "error", f"cannot read: {exc.strerror or exc}", ""
            continue
        yield path, head, report, fmt, sha


class _Ingest:
    """One run: reads files into tasks for the workers, and writes what comes back, in order."""

    def __init__(self, store: Store, summary: IngestSummary, progress: Progress | None, audit: bool = False,
                 rules: str | None = None) -> None:
        self.store, self.summary, self.progress = store, summary, progress
        self.audit, self.rules = audit, rules
        self.in_flight: dict[str, _File] = {}  # by SHA-256: the files started and not yet committed
        # By SHA-256: the files committed since the store was last asked about a group of files, so
        # not in its answer.
        self.recent: set[str] = set()
        self.next_id = 0
        self.folders: dict[Path, Path] = {}  # resolved, by folder: files of one folder resolve it once

    # ---- reading: files to tasks ----

    def work(self, paths: Iterable[Path]) -> Work:
        self.next_id = self.store.next_source_id()
        chunk = _Chunk()
        listed = expand_paths(paths)
        while group := list(islice(listed, LOOKUP_FILES)):
            found = list(identify(group, self.summary.files, self._skipped))
            self.recent.clear()
            known: dict[str, tuple[int, bool] | None] = {
                **self.store.sources_with_shas([sha for *_, sha in found])}
            for path, head, report, fmt, sha in found:
                if sha in self.in_flight or sha in self.recent:
                    # The same content earlier in this run: it is written before this file starts.
                    yield from chunk.take(self.audit, self.rules)
                    yield _Step(), None
                    known[sha] = self.store.source_with_sha(sha)
                file = self._start(path, report, fmt, sha, known.get(sha))
                if file is not None:
                    yield from self._read(path, head, file, chunk)
        yield from chunk.take(self.audit, self.rules)

    def _skipped(self, path: Path, report: FileReport, reason: str) -> None:
        self._pass_over(path, report, "skipped", reason)

    def _pass_over(self, path: Path, report: FileReport, status: str, reason: str) -> None:
        report.status, report.reason = status, reason
        if self.progress:
            self.progress(path.stat().st_size)

    def _start(self, path: Path, report: FileReport, fmt: str, sha: str,
               earlier: tuple[int, bool] | None) -> _File | None:
        """The file to read, or None when a source already holds it whole. Its `sources` row is
        written with its first chunk."""
        if earlier is not None and earlier[1]:
            self._pass_over(path, report, "already ingested", "same SHA-256 as a stored source")
            return None
        if earlier is not None:
            report.reason = "an earlier, interrupted ingest of this file was done again"
            source_id = earlier[0]
        else:
            source_id, self.next_id = self.next_id, self.next_id + 1
        file = _File(report, source_id, self._resolve(path), fmt, sha, interrupted=earlier is not None)
        self.in_flight[sha] = file
        return file

    def _resolve(self, path: Path) -> str:
        """`path.resolve()`, with its folder resolved once for all its files (Path.resolve walks
        every component of the path, a tenth of the time a one-hand file costs)."""
        if path.is_symlink():
            return str(path.resolve())
        folder = self.folders.get(path.parent)
        if folder is None:
            folder = self.folders[path.parent] = path.parent.resolve()
        return str(folder / path.name)

    def task(self, file: _File, blocks: list[Block]) -> ReadTask:
        return ReadTask((Span(file.fmt, file.source_id, len(blocks)),), tuple(blocks), self.audit, self.rules)

    def _read(self, path: Path, head: Head, file: _File, chunk: _Chunk) -> Work:
        """The file's blocks into chunks; a full chunk is sent when the next block comes, so the
        chunk that holds a file's last block always completes it."""
        try:
            for block in read_blocks(path, FORMATS[file.fmt].split, head):
                if chunk.full():
                    yield from chunk.take(self.audit, self.rules)
                chunk.add(file, block)
        except OSError as exc:
            file.failure = f"cannot read: {exc.strerror or exc}"
            chunk.drop(file)
            yield _Step(purge=file), None
            return
        chunk.end(file)

    # ---- writing: what the workers read, in order ----

    def take(self, step: _Step, task: ReadTask | None, result: ReadResult | None) -> None:
        if step.purge is not None:
            self._purge(step.purge)
            return
        if task is None or result is None:
            return
        done = [p.file for p in step.parts if p.last]
        with self.store.transaction():
            self._open([p.file for p in step.parts if p.first])
            self.write(step.parts, task, result)
            for file in done:
                self.finish(file)
            self.store.complete_sources([(f.source_id, f.report.hands, f.report.rejects, f.report.duplicates)
                                         for f in done])
        for file in done:
            self.commit(file)
        if self.progress:
            self.progress(sum(len(block.text) for block in task.blocks))

    def _open(self, files: list[_File]) -> None:
        """The files' `sources` rows, after what an interrupted ingest of them left and the
        rejects of an earlier version of them (`Store.delete_rejects_of_path`) are gone."""
        for file in files:
            if file.interrupted:
                self.store.purge_source(file.source_id)
        self.store.delete_rejects_of_paths([f.path for f in files])
        self.store.start_sources([(f.source_id, f.path, f.sha, f.fmt) for f in files])

    def _reject(self, file: _File, rows: list[tuple[int, int, int, str, str, int]], block: Block, line: int,
                column: int, message: str) -> None:
        file.report.rejects += 1
        rows.append((file.source_id, line, column, message, block.text, block.line))
        file.rejects.append(Reject(file.report.path, line, column, message))

    def write(self, parts: Sequence[_Part], task: ReadTask, result: ReadResult) -> None:
        """Store a chunk's new and changed hands (with their audit rows) and its rejects."""
        owner: list[_File] = []  # the file of each block of the task
        for part in parts:
            part.file.report.blocks += part.blocks
            owner += [part.file] * part.blocks
        reject_rows: list[tuple[int, int, int, str, str, int]] = []
        for bad in result.rejects:
            block = task.blocks[bad.block]
            self._reject(owner[bad.block], reject_rows, block, bad.line, bad.column, bad.message)
        # Hands of earlier chunks and files are in the database: nothing grows with the input here.
        stored = {
            hand_id: _Earlier(text_digest(text), path, source_id)
            for hand_id, (text, path, source_id) in self.store.stored_versions(
                [h.hand_id for h in result.hands]).items()
        }
        here: dict[str, _Earlier] = {}  # the hands kept earlier in this chunk
        keep = np.zeros(len(result.hands), dtype=np.bool_)
        replaced: list[str] = []
        for i, hand in enumerate(result.hands):
            hand_id, block, file = hand.hand_id, task.blocks[hand.block], owner[hand.block]
            report = file.report
            earlier = here.get(hand_id) or stored.get(hand_id)
            if earlier is not None and earlier.digest == hand.digest:
                report.duplicates += 1
                continue
            if earlier is not None:
                if earlier.path != file.path or earlier.source_id == file.source_id:
                    where = "earlier in this file" if earlier.path == file.path else f"from {earlier.path}"
                    self._reject(file, reject_rows, block, block.line, 1,
                                 f"hand #{hand_id} is already stored {where} with different content")
                    continue
                replaced.append(hand_id)  # the file changed: this version replaces the old one
                report.changed += 1
            here[hand_id] = _Earlier(hand.digest, file.path, file.source_id)
            keep[i] = True
            report.hands += 1
            report.by_variant[hand.variant] += 1
            file.findings.extend(result.findings[i])
            if result.audit is not None:
                file.audited += 1
        self.store.delete_hands(replaced)
        self.store.write_tables(result.tables.select(keep))
        if result.audit is not None:
            self.store.write_tables(result.audit.select(keep))
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
        self.recent.add(file.sha)
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
                run.write((_Part(file, len(task.blocks), first=False, last=False),), task, read_chunk(task))
            run.finish(file)
            store.update_source_counts(source_id, report.hands, report.rejects)
        run.commit(file)
    with store.transaction():
        refresh_facts(store.con)
    summary.seconds = perf_counter() - started
    summary.check()
    return summary
