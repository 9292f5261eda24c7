"""`barge ingest --cluster ray --out DATASET`: ingest on a Ray cluster into a Parquet dataset.

The driver (this process) lists the files, reads them into parts of `PART_BLOCKS` hand blocks as
a local ingest reads chunks, and hands each part to a Ray task (`pipeline.cluster_tasks.ingest_part`:
the reader, replay and settlement of `--jobs`), which writes the part's tables as Parquet into the
run's staging folder. No hand passes through the driver on its way to storage. Then:

1. the hand ids stored by two parts, or already in the dataset, are resolved as a local ingest
   resolves them (same text: a duplicate; other text: rejected as a clash; a changed file's new
   version replaces the old), from the small `_keys` files, and the parts concerned are written
   again without them by Ray tasks (`rewrite_part`);
2. the run's `sources` rows are written, the checks across hands (`evaluator.sequences`) run as
   Ray tasks over the tables the new hands joined, and their findings are written;
3. the run is committed: a manifest of its files is written (`COMMIT.json`), then they are moved
   into the dataset. A run killed before its manifest leaves nothing visible (its staging folder
   is removed by the next run); one killed after it is finished by the next run.

A task that fails because its worker died is run again by Ray; it writes the same files (their
names are the part's key), so a retry adds nothing twice. Every hand block is counted (stored,
rejected or duplicate) and checked at the end, as on one machine.
"""

from __future__ import annotations

import contextlib
import fcntl
import posixpath
import sys
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from time import perf_counter
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from evaluator.catalog import HOUSE_FOLDERS
from evaluator.findings import Finding
from pipeline.audit import AuditSummary, joined_by, sequence_parts
from pipeline.cluster_tasks import (
    KEYS,
    KEYS_SCHEMA,
    SEQUENCE_TABLES,
    PartResult,
    PartTask,
    Rewrite,
    SequenceRead,
    check_part,
    ingest_part,
    rewrite_part,
    write_partitioned,
)
from pipeline.dataset import (
    COMMIT,
    HAND_PARTITIONED,
    STAGING,
    DatasetError,
    Location,
    create,
    create_views,
    locate,
    rules_key,
    scan,
    schemas,
    write_rules,
)
from pipeline.formats import FORMATS
from pipeline.ingest import FileReport, IngestSummary, Progress, Reject, identify
from pipeline.schema import SCHEMAS
from pipeline.sources import Block, expand_paths, read_blocks
from pipeline.tables import arrow_table
from pipeline.workers import ReadTask, Span, text_digest

# A part is a task and a file per table and partition: five times a local chunk, so that a large
# dataset is tens of thousands of files, not hundreds of thousands (each is copied once by a commit
# to object storage, which cannot rename), while a retried part still costs seconds.
PART_BLOCKS = 5_000
PART_CHARS = 20_000_000
IN_FLIGHT_PER_CPU = 2  # parts submitted and not yet finished, per CPU of the cluster
COMMIT_THREADS = 16  # a commit's moves at once (object storage copies each file)
TASK_RETRIES = 5  # a task whose worker died is run again this many times


class ClusterError(RuntimeError):
    """The cluster cannot be reached or a task failed for good; the message says what to do."""


# ---- Ray ------------------------------------------------------------------------------------------


def start_ray(address: str | None, cpus: int | None) -> int:
    """Connect to the cluster at `address`, or start a local one on `cpus` cores; return its CPUs."""
    import logging

    try:
        import ray
    except ImportError:
        raise ClusterError("--cluster ray needs Ray: pip install 'barge-hands[cluster]'") from None

    if not ray.is_initialized():
        try:
            ray.init(address=address, num_cpus=cpus if address is None else None, include_dashboard=False,
                     log_to_driver=False, logging_level=logging.ERROR, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ClusterError(f"cannot start or reach the Ray cluster{f' at {address}' if address else ''}: "
                               f"{exc}") from None
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return max(1, int(resources.get("CPU", 1)))


def _run(fn: Callable[[Any], Any], items: Iterable[Any], cpus: int,
         done: Callable[[Any, Any], None]) -> None:
    """Run `fn` on each item as Ray tasks, at most `IN_FLIGHT_PER_CPU * cpus` at once, calling
    `done(item, result)` as each finishes (in any order: nothing downstream depends on it)."""
    import ray

    remote = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False)(fn)
    pending: dict[Any, Any] = {}
    items = iter(items)
    exhausted = False
    while pending or not exhausted:
        while not exhausted and len(pending) < IN_FLIGHT_PER_CPU * cpus:
            item = next(items, None)
            if item is None:
                exhausted = True
                break
            pending[remote.remote(item)] = item
        if not pending:
            break
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            item = pending.pop(ref)
            try:
                result = ray.get(ref)
            except ray.exceptions.RayError as exc:
                raise ClusterError(f"a cluster task failed for good ({type(exc).__name__}): {exc}") from None
            done(item, result)


# ---- the run ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class _File:
    report: FileReport
    source_id: int
    path: str
    sha: str
    fmt: str
    failure: str = ""


@dataclass(slots=True)
class _Run:
    location: Location
    root: str  # the run's staging folder
    summary: IngestSummary
    audit: bool
    rules: str | None
    files: dict[int, _File] = field(default_factory=dict)  # by source id
    findings: dict[str, list[Finding]] = field(default_factory=dict)  # by part key
    order: dict[str, tuple[int, int]] = field(default_factory=dict)  # part key: its first source id and line
    parts_of_source: defaultdict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    deletions: list[str] = field(default_factory=list)  # committed files the commit deletes
    first_new_source: int = 1

    def staged(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)


def ingest_cluster(paths: Iterable[Path], out: str, progress: Progress | None = None, *,
                   address: str | None = None, cpus: int | None = None, audit: bool = True,
                   rules: str | None = None) -> IngestSummary:
    """Ingest files and folders into the Parquet dataset `out` on a Ray cluster (a local one on
    `cpus` cores without `address`); return the same summary a local ingest returns."""
    started = perf_counter()
    location = locate(out)
    create(location)
    summary = IngestSummary(audit=AuditSummary(profile=rules) if audit else None)
    # Ray's driver prints what the raylets report (a worker that died, a task retried) on standard
    # output, where a user's `--json` goes: it goes to standard error instead.
    with _locked(location), contextlib.redirect_stdout(sys.stderr):
        recover(location)
        run = _Run(location, location.path(STAGING, uuid.uuid4().hex), summary, audit, rules)
        cluster_cpus = start_ray(address, cpus)
        _read(run, paths, progress, cluster_cpus)
        _resolve(run, cluster_cpus)
        order = {report.path: i for i, report in enumerate(summary.files)}  # the parts end in any order
        summary.rejects.sort(key=lambda r: (order[r.path], r.line))
        if summary.audit is not None:  # in the order of the input, as a local ingest lists them
            summary.audit.hands = summary.total("hands")
            summary.audit.findings = [f for key in sorted(run.findings, key=run.order.__getitem__)
                                      for f in run.findings[key]]
        _write_sources(run)
        _check_sequences(run, cluster_cpus)
        _commit(run)
    summary.seconds = perf_counter() - started
    summary.check()
    return summary


@contextmanager
def _locked(location: Location) -> Iterator[None]:
    """One ingest at a time into a local dataset (object stores have no lock: one driver each)."""
    if not location.local:
        yield
        return
    with open(Path(location.root) / ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DatasetError(f"{location.name} is being written by another ingest; try again when it has "
                               "finished") from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def recover(location: Location) -> None:
    """Finish the runs that were committed and not moved into place; remove the others' files."""
    for folder in location.folders(location.path(STAGING)):
        manifest = posixpath.join(folder, COMMIT)
        if location.exists(manifest):
            _apply(location, location.read_json(manifest))
        location.fs.delete_dir(folder)


# ---- reading: files into parts ---------------------------------------------------------------------


def _committed(location: Location) -> tuple[set[str], int]:
    """The SHA-256s of the files the dataset holds, and the next source id."""
    files = location.files(location.path("sources"))
    table = pa.concat_tables([pq.read_table(f, filesystem=location.fs, columns=["source_id", "sha256"])
                              for f in files]) if files else None
    if table is None or table.num_rows == 0:
        return set(), 1
    return set(table.column("sha256").to_pylist()), max(table.column("source_id").to_pylist()) + 1


def _parts(run: _Run, paths: Iterable[Path]) -> Iterator[PartTask]:
    """The input as parts of at most `PART_BLOCKS` blocks or `PART_CHARS` characters, small
    files sharing a part, every file given its report and source id in the order listed."""
    known, next_id = _committed(run.location)
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
        file = run.files[next_id] = _File(report, next_id, str(path.resolve()), sha, fmt)
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


def _read(run: _Run, paths: Iterable[Path], progress: Progress | None, cpus: int) -> None:
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

    _run(ingest_part, _parts(run, paths), cpus, done)


# ---- resolving the hand ids stored twice ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Version:
    """A stored version of a hand: its part (a key of this run, or a committed file's key)."""

    digest: str
    source_id: int
    path: str
    part: str
    committed: bool
    variant: str


def _resolve(run: _Run, cpus: int) -> None:
    """Drop the later versions of the hands stored twice, as a local ingest would not have stored
    them, and the hands of files that could not be read to the end."""
    failed = frozenset(s for s, f in run.files.items() if f.failure)
    new, old, lost = _twice(run, failed)
    versions = {h: _Version(text_digest(text), s, p or "", _part_of(f), True, "")
                for h, text, s, p, f in old}
    drops: defaultdict[tuple[str, bool], set[str]] = defaultdict(set)
    clashes: defaultdict[str, dict[str, str]] = defaultdict(dict)
    for hand_id, digest, source_id, line, part, variant in new:
        file = run.files[source_id]
        report = file.report
        earlier = versions.get(hand_id)
        if earlier is None or file.failure:
            versions[hand_id] = _Version(digest, source_id, file.path, part, False, variant)
            continue
        if earlier.digest == digest:
            report.duplicates += 1
        elif earlier.path != file.path or earlier.source_id == source_id:
            where = "earlier in this file" if earlier.path == file.path else f"from {earlier.path}"
            message = f"hand #{hand_id} is already stored {where} with different content"
            report.rejects += 1
            clashes[part][hand_id] = message
            run.summary.rejects.append(Reject(report.path, line, 1, message))
        else:  # the file changed: this version replaces the one stored before
            report.changed += 1
            drops[(earlier.part, earlier.committed)].add(hand_id)
            if not earlier.committed:
                _unstore(run, earlier.source_id, earlier.part, hand_id, earlier.variant)
            versions[hand_id] = _Version(digest, source_id, file.path, part, False, variant)
            continue
        _unstore(run, source_id, part, hand_id, variant)
        drops[(part, False)].add(hand_id)
    for hand_id, part, source_id, variant in lost:
        _unstore(run, source_id, part, hand_id, variant)
        drops[(part, False)].add(hand_id)
    _fail_files(run, failed)
    rewrites = [_rewrite(run, part, committed, frozenset(ids), failed, clashes.get(part, {}))
                for (part, committed), ids in drops.items()]
    rewrites += [_rewrite(run, part, False, frozenset(), failed, {})
                 for source in failed for part in run.parts_of_source[source] if (part, False) not in drops]
    _run(rewrite_part, rewrites, cpus, lambda *_: None)


Rows = list[tuple[Any, ...]]


def _twice(run: _Run, failed: frozenset[int]) -> tuple[Rows, Rows, Rows]:
    """The run's versions of the hand ids stored twice (in the order a local ingest meets them),
    the committed versions of those ids (with their text and file), and the run's hands of `failed`
    sources."""
    keys = run.location.files(run.staged(KEYS))
    if not keys:
        return [], [], []
    con = duckdb.connect()
    try:
        create_views(con, run.location)  # the committed dataset: `hands`, `sources`
        con.execute(f"CREATE VIEW keys AS SELECT * FROM {scan(con, run.location, KEYS, keys, KEYS_SCHEMA)}"
                    ).fetchall()
        twice = ("(SELECT hand_id FROM (SELECT hand_id FROM keys UNION ALL SELECT hand_id FROM hands) "
                 "GROUP BY hand_id HAVING count(*) > 1)")
        new = con.execute(f"SELECT hand_id, digest, source_id, line, part, variant FROM keys "
                          f"WHERE hand_id IN {twice} ORDER BY source_id, line").fetchall()
        old = con.execute("SELECT h.hand_id, h.raw_text, h.source_id, s.path FROM hands h "
                          f"LEFT JOIN sources s USING (source_id) WHERE h.hand_id IN {twice}").fetchall()
        lost = con.execute("SELECT hand_id, part, source_id, variant FROM keys "
                           "WHERE source_id IN (SELECT unnest(?::BIGINT[]))", [sorted(failed)]).fetchall()
    finally:
        con.close()
    holding = _files_holding(run.location, {row[0] for row in old})
    return new, [(*row, holding[row[0]]) for row in old], lost


def _files_holding(location: Location, hand_ids: set[str]) -> dict[str, str]:
    """The committed `hands` file of each of these hands (read only when a hand is stored again,
    which is rare: one column of each file)."""
    found: dict[str, str] = {}
    if hand_ids:
        wanted = pa.array(sorted(hand_ids), pa.string())
        for file in location.files(location.path("hands")):
            ids = pq.read_table(file, columns=["hand_id"], filesystem=location.fs).column("hand_id")
            found.update((h, file) for h in ids.filter(pc.is_in(ids, value_set=wanted)).to_pylist())
    return found


def _unstore(run: _Run, source_id: int, part: str, hand_id: str, variant: str) -> None:
    """A hand a part stored is not stored after all: its findings and its count go."""
    run.findings[part] = [f for f in run.findings.get(part, []) if f.hand_id != hand_id]
    report = run.files[source_id].report
    report.hands -= 1
    report.by_variant[variant] -= 1
    if not report.by_variant[variant]:
        del report.by_variant[variant]


def _fail_files(run: _Run, failed: frozenset[int]) -> None:
    """A file that could not be read to the end stores nothing, and is an error, as on one machine."""
    for source_id in failed:
        file = run.files.pop(source_id)
        index = next(i for i, r in enumerate(run.summary.files) if r is file.report)
        run.summary.files[index] = FileReport(path=file.report.path, status="error", reason=file.failure)
        run.summary.rejects = [r for r in run.summary.rejects if r.path != file.report.path]


def _part_files(run: _Run, part: str, committed: bool) -> list[tuple[str, str]]:
    """(table, file) of every file a part wrote, in the run's staging folder or committed."""
    base = run.location.root if committed else run.root
    found = []
    for table in (*HAND_PARTITIONED, "rejects"):
        for file in run.location.files(posixpath.join(base, table)):
            if posixpath.basename(file).startswith(f"part-{part}"):
                found.append((table, file))
    return found


def _rewrite(run: _Run, part: str, committed: bool, drop: frozenset[str], failed: frozenset[int],
             clashes: dict[str, str]) -> Rewrite:
    tag = text_digest("\n".join(sorted(drop)) + repr(sorted(failed)))[:8]
    files = []
    for table, old in _part_files(run, part, committed):
        renamed = old.removesuffix(".parquet") + f"~{tag}.parquet"
        new = run.staged(posixpath.relpath(renamed, run.location.root)) if committed else renamed
        files.append((table, old, new))
        if committed:
            run.deletions.append(old)
    return Rewrite(run.location, tuple(files), drop, failed, tuple(clashes.items()),
                   run.staged("rejects", f"part-{part}~{tag}-clash.parquet"), delete_old=not committed)


# ---- sources, the checks across hands, the commit -------------------------------------------------


def _write_sources(run: _Run) -> None:
    now = datetime.now()
    rows = [(f.source_id, f.path, f.sha, f.fmt, now, f.report.hands, f.report.rejects, f.report.duplicates,
             True) for f in run.files.values()]
    if rows:
        folder = run.staged("sources")
        run.location.fs.create_dir(folder, recursive=True)
        name = f"part-{posixpath.basename(run.root)}.parquet"  # one file per run: the runs' rows add up
        pq.write_table(arrow_table(rows, SCHEMAS["sources"]), posixpath.join(folder, name),
                       filesystem=run.location.fs)
    if not run.location.exists(run.location.path("rules", rules_key())):
        run.deletions += run.location.files(run.location.path("rules"))
        write_rules(run.location, run.root)


def _files_after_commit(run: _Run) -> dict[str, list[str]]:
    """Each table's files as the commit will leave them: the committed ones it keeps, the run's."""
    gone = set(run.deletions)
    files = {}
    for table in schemas():
        committed = [f for f in run.location.files(run.location.path(table)) if f not in gone]
        files[table] = committed + run.location.files(run.staged(table))
    return files


def _check_sequences(run: _Run, cpus: int) -> None:
    """The checks across hands of every table the new hands joined (`pipeline.audit`), on the
    dataset as the commit will leave it; their findings replace those of earlier runs. The driver
    streams the parts (hand ids and the ingest parts that hold them); each task reads its hands."""
    if run.summary.audit is None or not run.files:
        return
    files = _files_after_commit(run)
    by_part = {table: _by_part(files[table]) for table in SEQUENCE_TABLES}
    placed = _placed(run.location, files["hands"])
    # The parts stream from one connection; the findings' partitions are read through the other.
    con, stream = duckdb.connect(), duckdb.connect()
    try:
        for each in (con, stream):
            create_views(each, run.location, files)
        stream.register("placed", placed)
        stream.execute("CREATE VIEW placed_hands AS SELECT h.*, p.part AS placed FROM hands h "
                       "JOIN placed p USING (hand_id)").fetchall()
        condition = " AND ".join(["table_name IS NOT NULL", joined_by("FROM hands WHERE source_id >= ?")])
        results: dict[int, tuple[list[Finding], list[Finding]]] = {}
        checked: list[str] = []

        def tasks() -> Iterator[tuple[int, SequenceRead]]:
            parts = sequence_parts(stream, condition, [run.first_new_source] * 2, "placed_hands", "placed")
            for index, part in enumerate(parts):
                checked.extend(part.formats)
                holding = {t: tuple(f for key in sorted(part.carried) for f in by_part[t].get(key, ()))
                           for t in SEQUENCE_TABLES}
                yield index, SequenceRead(part.formats, holding, run.location, tuple(HOUSE_FOLDERS))

        def done(item: tuple[int, SequenceRead], result: tuple[list[Finding], list[Finding]]) -> None:
            results[item[0]] = result

        _run(_check_part, tasks(), cpus, done)
        # As a local ingest lists them: the findings at each table, then those of players at two.
        found = [f for i in sorted(results) for f in results[i][0]] + \
                [f for i in sorted(results) for f in results[i][1]]
        _replace_sequence_findings(run, con, checked, found)
    finally:
        con.close()
        stream.close()
    run.summary.audit.findings.extend(found)


def _check_part(item: tuple[int, SequenceRead]) -> tuple[list[Finding], list[Finding]]:
    return check_part(item[1])


def _part_of(file: str) -> str:
    """The ingest part that wrote a file of a table of hands (`part-<key>-<n>.parquet`, rewritten
    as `part-<key>-<n>~<tag>.parquet`)."""
    return posixpath.basename(file).split("-")[1]


def _by_part(files: list[str]) -> dict[str, list[str]]:
    found: defaultdict[str, list[str]] = defaultdict(list)
    for file in files:
        found[_part_of(file)].append(file)
    return found


def _placed(location: Location, files: list[str]) -> pa.Table:
    """(hand_id, part): the ingest part whose files hold each hand (one column of each file)."""
    tables = [pq.read_table(f, columns=["hand_id"], filesystem=location.fs) for f in files]
    return pa.table({"hand_id": pa.concat_arrays([c for t in tables for c in t.column("hand_id").chunks])
                     if tables else pa.array([], pa.string()),
                     "part": pa.array([_part_of(f) for f, t in zip(files, tables, strict=True)
                                       for _ in range(t.num_rows)], pa.string())})


def _replace_sequence_findings(run: _Run, con: duckdb.DuckDBPyConnection, checked: list[str],
                               found: list[Finding]) -> None:
    earlier = [(t, f) for t, f in [("findings", f) for f in run.location.files(run.location.path("findings"))]
               if posixpath.basename(f).startswith("part-seq")]
    if earlier and checked:
        rewrite_part(Rewrite(run.location, tuple(
            (t, f, run.staged(posixpath.relpath(f, run.location.root))) for t, f in earlier),
            frozenset(checked), delete_old=False))
        run.deletions += [f for _, f in earlier]
    if not found:
        return
    con.register("found", arrow_table([f.row() for f in found], SCHEMAS["findings"]))
    table = con.sql("SELECT f.*, h.variant, CAST(h.started_at AS DATE) AS date FROM found f "
                    "JOIN hands h USING (hand_id)").to_arrow_table()
    write_partitioned(run.location, run.staged("findings"), table, f"part-seq-{posixpath.basename(run.root)}")


def _commit(run: _Run) -> None:
    """Write the manifest (the commit), then move the run's files into place."""
    moves = [(file, run.location.path(posixpath.relpath(file, run.root)))
             for table in schemas() for file in run.location.files(run.staged(table))]
    manifest = {"moves": moves, "deletions": sorted(set(run.deletions))}
    if not run.location.exists(run.root):
        return
    run.location.write_json(run.staged(COMMIT), manifest)
    _apply(run.location, manifest)
    run.location.fs.delete_dir(run.root)


def _apply(location: Location, manifest: dict[str, Any]) -> None:
    """Make a committed run's moves and deletions, several at once; each is skipped when already
    made (a commit finished by a later run)."""
    def move(source: str, target: str) -> None:
        if location.exists(source):
            location.fs.move(source, target)

    def delete(path: str) -> None:
        if location.exists(path):
            location.fs.delete_file(path)

    for folder in sorted({posixpath.dirname(target) for _, target in manifest["moves"]}):
        location.fs.create_dir(folder, recursive=True)
    moves = manifest["moves"]
    with ThreadPoolExecutor(COMMIT_THREADS) as pool:
        list(pool.map(move, [source for source, _ in moves], [target for _, target in moves]))
        list(pool.map(delete, manifest["deletions"]))  # after the moves: a file replaced goes last

