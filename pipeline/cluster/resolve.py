"""Hand ids stored twice by a cluster ingest, resolved as a local ingest resolves them: the later
version of the same text is a duplicate, of another text from another file a reject (a clash),
of a changed file a replacement; the parts concerned are written again without those hands.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.cluster.runner import run_tasks
from pipeline.cluster.state import Run
from pipeline.cluster.tasks import KEYS, KEYS_SCHEMA, Rewrite, part_of, rewrite_part
from pipeline.dataset import HAND_PARTITIONED, Location, create_views, scan
from pipeline.ingest import FileReport, Reject
from pipeline.workers import text_digest

Rows = list[tuple[Any, ...]]


@dataclass(frozen=True, slots=True)
class _Version:
    """A stored version of a hand: its part (a key of this run, or a committed file's key)."""

    digest: str
    source_id: int
    path: str
    part: str
    committed: bool
    variant: str


def resolve(run: Run, cpus: int) -> None:
    """Drop the later versions of the hands stored twice, as a local ingest would not have stored
    them, and the hands of files that could not be read to the end."""
    failed = frozenset(s for s, f in run.files.items() if f.failure)
    new, old, lost = _twice(run, failed)
    versions = {h: _Version(text_digest(text), s, p or "", part_of(f), True, "")
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
    run_tasks(rewrite_part, rewrites, cpus, lambda *_: None)


def _twice(run: Run, failed: frozenset[int]) -> tuple[Rows, Rows, Rows]:
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


def _unstore(run: Run, source_id: int, part: str, hand_id: str, variant: str) -> None:
    """A hand a part stored is not stored after all: its findings and its count go."""
    run.findings[part] = [f for f in run.findings.get(part, []) if f.hand_id != hand_id]
    report = run.files[source_id].report
    report.hands -= 1
    report.by_variant[variant] -= 1
    if not report.by_variant[variant]:
        del report.by_variant[variant]


def _fail_files(run: Run, failed: frozenset[int]) -> None:
    """A file that could not be read to the end stores nothing, and is an error, as on one machine."""
    for source_id in failed:
        file = run.files.pop(source_id)
        index = next(i for i, r in enumerate(run.summary.files) if r is file.report)
        run.summary.files[index] = FileReport(path=file.report.path, status="error", reason=file.failure)
        run.summary.rejects = [r for r in run.summary.rejects if r.path != file.report.path]


def _part_files(run: Run, part: str, committed: bool) -> list[tuple[str, str]]:
    """(table, file) of every file a part wrote, in the run's staging folder or committed."""
    base = run.location.root if committed else run.root
    found = []
    for table in (*HAND_PARTITIONED, "rejects"):
        for file in run.location.files(posixpath.join(base, table)):
            if posixpath.basename(file).startswith(f"part-{part}"):
                found.append((table, file))
    return found


def _rewrite(run: Run, part: str, committed: bool, drop: frozenset[str], failed: frozenset[int],
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
