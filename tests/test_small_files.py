"""A folder of one-hand files ingests as the same hands in one file do: the same rows, an account
of every file of its own, duplicates and clashes judged across files as one after another, a
killed run completed by the next, and no task or transaction of a file's own (small files are
read, parsed and written in batches)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest

import pipeline.ingest
import pipeline.workers
from grammar.phh_parser import split_phh
from pipeline.ingest import IngestSummary, ingest
from pipeline.parallel import WorkerError
from pipeline.schema import SCHEMAS
from pipeline.sources import read_blocks
from pipeline.store import Store
from tests.conftest import SHARED, assert_no_pool_left, sample_files, worker_killer

CHUNK = 8  # blocks per chunk here, so that a few dozen files make several chunks
# What differs between the same hand read from its own file and from a bundle: where it was.
WHERE = {"hands": "EXCLUDE (source_id, line)", "sources": None, "rejects": None,
         "audits": "EXCLUDE (audited_at)"}


def hand_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every stored row that belongs to a hand (not to its file)."""
    with duckdb.connect(str(db), read_only=True) as con:
        return {name: con.execute(f"SELECT * {WHERE.get(name) or ''} FROM {name} ORDER BY ALL").fetchall()
                for name in SCHEMAS if WHERE.get(name, "") is not None}


def query(db: Path, sql: str) -> list[tuple[object, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


def run(paths: list[Path], db: Path, jobs: int = 1, chunk: int = CHUNK, **kwargs: object) -> IngestSummary:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline.ingest, "CHUNK_BLOCKS", chunk)
        with Store(db) as store:
            return ingest(paths, store, jobs=jobs, audit=True, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    """Forty sample hands of many variants."""
    blocks = [b.text for path in sample_files() for b in read_blocks(path)]
    return blocks[::max(1, len(blocks) // 40)][:40]


def one_file_each(folder: Path, texts: list[str], suffix: str = ".bhh") -> Path:
    folder.mkdir(parents=True)
    for i, text in enumerate(texts):
        (folder / f"{i:03d}{suffix}").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def bundled(texts: list[str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bundle")
    (folder / "all.bhh").write_text("\n".join(texts), encoding="utf-8")
    db = folder / "bundle.duckdb"
    run([folder / "all.bhh"], db)
    return db


def test_one_hand_files_store_the_rows_of_one_file(texts: list[str], bundled: Path, tmp_path: Path) -> None:
    folder = one_file_each(tmp_path / "in", texts)
    summary = run([folder], tmp_path / "files.duckdb", jobs=2)
    assert hand_rows(tmp_path / "files.duckdb") == hand_rows(bundled)
    report = summary.to_json()
    assert report["hands"] == len(texts) and report["blocks"] == len(texts)
    assert {(f["status"], f["blocks"], f["hands"]) for f in report["files"]} == {("ingested", 1, 1)}
    assert len(report["files"]) == len(texts)
    assert query(tmp_path / "files.duckdb", "SELECT count(*), count(DISTINCT source_id), bool_and(complete), "
                 "sum(hands) FROM sources") == [(len(texts), len(texts), True, len(texts))]


def test_small_files_share_their_tasks_and_transactions(texts: list[str], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    folder = one_file_each(tmp_path / "in", texts)
    tasks: list[int] = []
    transactions: list[int] = []
    read_chunk = pipeline.workers.read_chunk

    def counted_read(task: pipeline.workers.ReadTask) -> pipeline.workers.ReadResult:
        tasks.append(len(task.spans))
        return read_chunk(task)

    opened = Store.transaction

    @contextmanager
    def counted_transaction(store: Store) -> Iterator[None]:
        transactions.append(store._depth)
        with opened(store):
            yield

    monkeypatch.setattr(pipeline.ingest, "read_chunk", counted_read)
    monkeypatch.setattr(Store, "transaction", counted_transaction)
    run([folder], tmp_path / "files.duckdb")
    assert tasks == [CHUNK] * (len(texts) // CHUNK)  # eight files a task
    outermost = transactions.count(0)
    assert outermost <= len(texts) // CHUNK + 2  # one a chunk, and the statistics' refresh


def test_duplicates_and_clashes_between_files_of_one_batch(texts: list[str], tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    first, second = texts[0], texts[1]
    (folder / "a.bhh").write_text(first, encoding="utf-8")
    (folder / "b-same-as-a.bhh").write_text(first, encoding="utf-8")  # the same SHA-256
    clash = first.rstrip("\n") + "\nNote: typed again, differently\n"
    (folder / "c-clash.bhh").write_text(clash, encoding="utf-8")
    (folder / "d.bhh").write_text(f"{second}\n{first}", encoding="utf-8")  # a new hand and a duplicate
    summary = run([folder], tmp_path / "files.duckdb")
    counts = {Path(f.path).name: (f.status, f.blocks, f.hands, f.rejects, f.duplicates)
              for f in summary.files}
    assert counts == {
        "a.bhh": ("ingested", 1, 1, 0, 0),
        "b-same-as-a.bhh": ("already ingested", 0, 0, 0, 0),
        "c-clash.bhh": ("ingested", 1, 0, 1, 0),
        "d.bhh": ("ingested", 2, 1, 0, 1),
    }
    assert [Path(r.path).name for r in summary.rejects] == ["c-clash.bhh"]
    assert "already stored from" in summary.rejects[0].error and "a.bhh" in summary.rejects[0].error
    db = tmp_path / "files.duckdb"
    assert query(db, "SELECT s.path, r.line FROM rejects r JOIN sources s USING (source_id)") == [
        (str((folder / "c-clash.bhh").resolve()), 1)]


def test_a_killed_ingest_of_small_files_is_completed_by_the_next_run(texts: list[str], bundled: Path,
                                                                     tmp_path: Path) -> None:
    folder = one_file_each(tmp_path / "in", texts)
    reference = tmp_path / "reference.duckdb"
    run([folder], reference)
    killed, kill_a_worker = worker_killer()

    db = tmp_path / "killed.duckdb"
    # Two files a chunk: when the first chunk is written and the worker killed, most chunks are not
    # sent yet (at most a few are in flight), so the run must stop. With a few large chunks the
    # workers could have finished them all by then, and the run would end whole and rightly so.
    with pytest.raises(WorkerError, match="rolled back"):
        run([folder], db, jobs=2, chunk=2, progress=kill_a_worker)
    assert killed
    assert_no_pool_left()
    # The files of the chunks written before are whole; the others left nothing.
    assert query(db, "SELECT count(*) FROM sources WHERE NOT complete") == [(0,)]
    assert query(db, "SELECT coalesce(sum(hands), 0) FROM sources") == query(db, "SELECT count(*) FROM hands")
    run([folder], db, jobs=2)
    assert hand_rows(db) == hand_rows(reference) == hand_rows(bundled)
    assert query(db, "SELECT count(*), sum(hands) FROM sources") == [(len(texts), len(texts))]


@pytest.mark.skipif(not (SHARED / "corpus" / "phh" / "pluribus").is_dir(),
                    reason="the PHH corpus (../shared/corpus/phh/pluribus) is not here")
def test_the_pluribus_one_hand_files_store_the_rows_of_their_bundle(tmp_path: Path) -> None:
    folder = sorted(p for p in (SHARED / "corpus" / "phh" / "pluribus").iterdir() if p.is_dir())[0]
    hands = [b.text for path in sorted(folder.glob("*.phh")) for b in read_blocks(path, split_phh)]
    bundle = tmp_path / "pluribus.phhs"
    bundle.write_text("".join(f"[{i}]\n{text}" for i, text in enumerate(hands, 1)), encoding="utf-8")
    files = run([folder], tmp_path / "files.duckdb", jobs=2)
    together = run([bundle], tmp_path / "bundle.duckdb", jobs=2)
    assert files.total("blocks") == together.total("blocks") == len(hands)
    assert (files.total("hands"), files.total("rejects"), files.total("duplicates")) == (
        together.total("hands"), together.total("rejects"), together.total("duplicates"))
    assert hand_rows(tmp_path / "files.duckdb") == hand_rows(tmp_path / "bundle.duckdb")
