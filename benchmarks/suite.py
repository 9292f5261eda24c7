"""`barge bench`: every benchmark of this project, each measured side by side with its peer in the
same run on the same input, reported as rows and ratios.

A benchmark module has `run(quick: bool) -> list[dict]`; each row has the keys of `ROW_KEYS`:
what was measured, our figure, the peer's figure (None when the peer is not installed or has
nothing to compare), the peer's name, the unit, `ratio` = ours / peer (for a unit where less is
better, peer / ours, so that a ratio above 1 always means we are ahead) and a note on the input.
"""

from __future__ import annotations

import datetime
import importlib
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline import hot_path

ROW_KEYS = ("benchmark", "ours", "peer", "peer_name", "unit", "ratio", "note")
# In the order they run; the quick ones first, so a --quick run reports something early.
SUITES = ("evaluation", "phh", "profile", "ingest", "small_files", "dashboard", "cluster")
LESS_IS_BETTER = frozenset({"s", "ms", "MB"})


def row(benchmark: str, ours: float, peer: float | None, peer_name: str | None, unit: str,
        note: str = "") -> dict[str, Any]:
    """A result row; the ratio says how many times better we are (above 1: ahead)."""
    ratio = None
    if peer is not None and ours > 0 and peer > 0:
        ratio = peer / ours if unit in LESS_IS_BETTER else ours / peer
    return {"benchmark": benchmark, "ours": ours, "peer": peer, "peer_name": peer_name, "unit": unit,
            "ratio": ratio, "note": note}


def missing(benchmark: str, peer_name: str, unit: str, ours: float, why: str) -> dict[str, Any]:
    """A row for a peer that could not be measured: reported as such, never estimated."""
    return {**row(benchmark, ours, None, peer_name, unit), "note": why}


PLAIN = "plain Python (BARGE_PURE=1)"


def versus_plain(benchmark: str, ours: float, plain: float | None, unit: str, note: str) -> dict[str, Any]:
    """The compiled hot path against the same code run as plain Python (`plain`, None when this
    process is not compiled: the two would be the same code)."""
    if plain is None:
        return missing(benchmark, PLAIN, unit, ours, f"{note}; the hot path is not compiled here")
    return row(benchmark, ours, plain, PLAIN, unit, note)


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), cpu)
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "hot_path": hot_path.describe(),
            "system": f"{platform.system()} {platform.release()}",
            "date": datetime.datetime.now().isoformat(timespec="seconds")}


def _modules(only: list[str] | None) -> list[tuple[str, Callable[[bool], list[dict[str, Any]]]]]:
    # Every suite is imported before the first one runs: a run of many minutes uses one version
    # of the code throughout, and a suite that cannot be imported says so at once.
    return [(name, importlib.import_module(f"benchmarks.{name}").run)
            for name in SUITES if not only or name in only]


def run(quick: bool, only: list[str] | None = None,
        on_suite: Callable[[str, float, list[dict[str, Any]]], None] | None = None) -> dict[str, Any]:
    """Run the suites (all, or those named in `only`) and return the report: machine, rows,
    seconds, and `failed` (suite -> error) for suites that stopped: their figures are missing,
    the others' are kept."""
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    failed: dict[str, str] = {}
    for name, bench in _modules(only):
        begun = time.perf_counter()
        try:
            found = bench(quick)
        except Exception as exc:  # one suite's failure must not lose the figures of the others
            failed[name] = f"{type(exc).__name__}: {exc}"
            found = []
        for r in found:
            r["suite"] = name
        rows.extend(found)
        if on_suite is not None:
            on_suite(name, time.perf_counter() - begun, found)
    return {"machine": machine(), "quick": quick, "command": " ".join(["barge", *sys.argv[1:]]),
            "rows": rows, "failed": failed, "seconds": round(time.perf_counter() - started, 1)}


def data_dir() -> Path:
    """Where generated benchmark inputs are kept between runs (they take minutes to make)."""
    base = Path(os.environ.get("BARGE_BENCH_DATA") or Path.home() / ".cache" / "barge-bench")
    base.mkdir(parents=True, exist_ok=True)
    return base
