"""Shared paths and helpers for the test suite."""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

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
