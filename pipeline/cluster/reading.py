"""The cluster ingest's input: files cut into parts for the Ray tasks, and what the tasks report
added to each file's report.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from evaluator.catalog import HOUSE_FOLDERS
from pipeline.cluster.runner import run_tasks
from pipeline.cluster.state import File, Run
from pipeline.cluster.tasks import PartResult, PartTask, ingest_part
from pipeline.dataset import Location
from pipeline.formats import FORMATS
from pipeline.ingest import FileReport, Progress, Reject, identify
from pipeline.sources import Block, expand_paths, read_blocks
from pipeline.workers import ReadTask, Span

# A part is a task and a file per table and partition: five times a local chunk, so that a large
# dataset is tens of thousands of files, not hundreds of thousands (each is copied once by a commit
# to object storage, which cannot rename), while a retried part still costs seconds.
PART_BLOCKS = 5_000


PART_CHARS = 20_000_000


def committed_sources(location: Location) -> tuple[set[str], int]:
    """The SHA-256s of the files the dataset holds, and the next source id."""
    files = location.files(location.path("sources"))
    table = pa.concat_tables([pq.read_table(f, filesystem=location.fs, columns=["source_id", "sha256"])
                              for f in files]) if files else None
    if table is None or table.num_rows == 0:
        return set(), 1
    return set(table.column("sha256").to_pylist()), max(table.column("source_id").to_pylist()) + 1


def parts(run: Run, paths: Iterable[Path]) -> Iterator[PartTask]:
    """The input as parts of at most `PART_BLOCKS` blocks or `PART_CHARS` characters, small
    files sharing a part, every file given its report and source id in the order listed."""
    known, next_id = committed_sources(run.location)
    run.first_new_source = next_id
    spans: list[Span] = []
    owners: list[str] = []
    blocks: list[Block] = []
    chars = 0

    def take() -> Iterator[PartTask]:
        nonlocal spans, owners, blocks, chars
        if blocks:
            yield PartTask(ReadTask(tuple(spans), tuple(blocks), run.audit, run.rules), tuple(owners),
                           run.location, run.root, tuple(HOUSE_FOLDERS))
        spans, owners, blocks, chars = [], [], [], 0

    def skipped(_: Path, report: FileReport, reason: str) -> None:
        report.status, report.reason = "skipped", reason

    for path, head, report, fmt, sha in identify(expand_paths(paths), run.summary.files, skipped):
        if sha in known:
            report.status, report.reason = "already ingested", "same SHA-256 as a stored source"
            continue
        known.add(sha)
        file = run.files[next_id] = File(report, next_id, str(path.resolve()), sha, fmt)
        next_id += 1
        try:
            for block in read_blocks(path, FORMATS[fmt].split, head):
                if len(blocks) >= PART_BLOCKS or chars >= PART_CHARS:
                    yield from take()
                if not spans or spans[-1].source_id != file.source_id:
                    spans.append(Span(fmt, file.source_id, 0))
                    owners.append(file.path)
                spans[-1] = Span(fmt, file.source_id, spans[-1].blocks + 1)
                blocks.append(block)
                chars += len(block.text)
        except OSError as exc:  # what its parts stored is dropped by the resolution
            file.failure = f"cannot read: {exc.strerror or exc}"
    yield from take()


def read_parts(run: Run, paths: Iterable[Path], progress: Progress | None, cpus: int) -> None:
    def done(task: PartTask, result: PartResult) -> None:
        run.findings[result.key] = list(result.findings)
        run.order[result.key] = (task.read.spans[0].source_id, task.read.blocks[0].line)
        for count in result.spans:
            file = run.files[count.source_id]
            run.parts_of_source[count.source_id].add(result.key)
            report = file.report
            report.blocks += count.blocks
            report.hands += count.hands
            report.rejects += count.rejects
            report.duplicates += count.duplicates
            report.by_variant.update(count.by_variant)
            run.summary.rejects.extend(Reject(report.path, line, column, error)
                                       for line, column, error in count.reject_lines)
        if progress is not None:
            progress(sum(len(b.text) for b in task.read.blocks))

    run_tasks(ingest_part, parts(run, paths), cpus, done)
