"""Shared paths and helpers for the test suite."""

from __future__ import annotations

import contextlib
import faulthandler
import io
import json
import multiprocessing
import os
import re
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures.process import _ExecutorManagerThread
from pathlib import Path
from typing import Any

import pytest

from grammar.errors import HandSyntaxError
from pipeline.model import Hand
from pipeline.sources import Splitter, read_blocks

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_histories"
FORMAT_DOC = ROOT / "docs" / "format.md"
SHARED = ROOT.parent / "shared"


def sample_files() -> list[Path]:
    return sorted(p for p in SAMPLES.rglob("*.bhh") if "audit" not in p.parts)


def doc_examples() -> list[str]:
    """Every block fenced as `barge` in docs/format.md: each is a complete hand."""
    return re.findall(r"```barge\n(.*?)```", FORMAT_DOC.read_text(encoding="utf-8"), re.S)


def worker_killer() -> tuple[list[int], Callable[[int], None]]:
    """A progress callback that SIGKILLs one worker process of a running ingest, the first time it is
    called, and the list of the pids it killed."""
    killed: list[int] = []

    def kill_a_worker(_: int) -> None:
        if not killed:
            worker = multiprocessing.active_children()[0]
            assert worker.pid is not None
            os.kill(worker.pid, signal.SIGKILL)
            killed.append(worker.pid)

    return killed, kill_a_worker


def ingest_report(paths: Iterable[Path], db: Path) -> dict[str, Any]:
    """The JSON report of `barge ingest PATHS --db DB --json`, its audit included, as a user runs it
    (for module-scoped fixtures, which capsys does not serve)."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        from pipeline.cli import main  # the command line imports every reader: only when used

        assert main(["ingest", *map(str, paths), "--db", str(db), "--json"]) == 0
    report: dict[str, Any] = json.loads(buffer.getvalue())
    return report


def faults_in(report: dict[str, Any], prefix: str = "") -> Counter[tuple[str, str]]:
    """The (hand, code) pairs of the error and warning findings of an ingest report, of the hands
    whose ids start with `prefix`, with how often each occurs."""
    return Counter((f["hand_id"], f["code"]) for f in report["audit"]["findings"]
                   if f["severity"] in ("error", "warning") and f["hand_id"].startswith(prefix))


def read_hands(folder: Path, split: Splitter, parse: Callable[[str], Hand]) -> dict[str, Hand]:
    """Every hand of a folder's files that its reader reads, by id (refused hands left out)."""
    hands = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        for block in read_blocks(path, split):
            try:
                hand = parse(block.text)
            except HandSyntaxError:
                continue
            hands[hand.hand_id] = hand
    return hands


def assert_no_pool_left() -> None:
    """After a run that lost a worker: no worker process and no pool thread is left behind (a pool
    thread left running is joined when the interpreter exits, and can hold the exit for ever)."""
    assert multiprocessing.active_children() == []
    assert [t for t in threading.enumerate() if isinstance(t, _ExecutorManagerThread)] == []


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "test.duckdb"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the slow tiers (10,000 PokerKit hands per PHH variant)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a slow tier, run only with --slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="a slow tier: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


# When every test has run, the process must end. Should something still hold it (a thread or a
# child process a test left behind), say what after EXIT_GRACE seconds, with every thread's stack,
# and end with the tests' own status rather than hold CI until its limit.
EXIT_GRACE = 120.0


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    def watchdog() -> None:
        threading.Event().wait(EXIT_GRACE)
        print(f"\nconftest: the test process had not exited {EXIT_GRACE:.0f} s after its last test; "
              f"threads: {[t.name for t in threading.enumerate()]}; child processes: "
              f"{[p.pid for p in multiprocessing.active_children()]}", file=sys.stderr, flush=True)
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        os._exit(int(exitstatus))

    threading.Thread(target=watchdog, name="exit-watchdog", daemon=True).start()
