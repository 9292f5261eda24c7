"""The dashboard at scale: each page timed on a database of generated hands.

The database is made once per size (`barge generate` for all 59 variants, then `barge ingest
--jobs N`, which audits, measured as `benchmarks.ingest.measure` measures any ingest) and kept in
the bench data folder with that measurement beside it (`<db>.ingest.json`), which this suite
reports as its ingest rows. Each page's figure is the time its script takes to run from an empty
cache when it opens with no filter (`time_pages`); the Players page opens the first player of the
leaderboard, the replayer the first hand of its list. There is no peer for either: each row is
set against the issue's target as its peer (`TARGET`), so that a ratio above 1 says the target is
met: a million hands ingested at 3,000 hands/s on 2 cores (1,500 hands per CPU-second) in under
1,500 MB, and every page under a second.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import duckdb
import streamlit as st
import streamlit.logger

from benchmarks.ingest import measure
from benchmarks.suite import data_dir, machine, row
from dashboard import ui
from dashboard.connection import ENV_DB
from evaluator.variants import VARIANTS
from pipeline.generate.output import Request, generate
from pipeline.stats import refresh_facts
from pipeline.store import Store

SEED = 2
TARGET = "target (issue 17)"
INGEST_PER_S, INGEST_PER_CPU_S, INGEST_PEAK_MB, PAGE_S = 3_000.0, 1_500.0, 1_500.0, 1.0
Con = duckdb.DuckDBPyConnection


def database(hands: int) -> Path:
    """A database of about `hands` generated hands of all 59 variants, made on first use."""
    per_variant = max(1, hands // len(VARIANTS))
    db = data_dir() / f"dashboard-{SEED}-{per_variant * len(VARIANTS)}.duckdb"
    if db.exists():
        with Store(db) as store, store.transaction():
            refresh_facts(store.con)  # a database kept from a run before the facts were stored
        return db
    folder = data_dir() / f"native-{SEED}-{per_variant}"
    done = folder / ".complete"
    jobs = os.cpu_count() or 1
    if not done.exists():
        folder.mkdir(parents=True, exist_ok=True)
        generate(Request(tuple(sorted(VARIANTS)), hands=per_variant, seed=SEED, jobs=jobs), folder)
        done.touch()
    partial = db.with_suffix(".partial")
    for leftover in (partial, partial.with_suffix(".partial.wal")):
        leftover.unlink(missing_ok=True)
    found = measure(folder, jobs, partial)
    found.update(machine=machine(), input=f"{folder.name}: generated hands of the 59 variants")
    built_by(db).write_text(json.dumps(found, indent=1), encoding="utf-8")
    partial.rename(db)
    return db


def built_by(db: Path) -> Path:
    """Where the measurement of the ingest that made `db` is kept."""
    return db.with_suffix(".ingest.json")


# The dashboard's pages (dashboard/app.py) by the name the bench reports.
PAGES = {"Overview": "views/overview.py", "Players": "views/players.py", "Variants": "views/variants.py",
         "Audit": "views/audit.py", "Hand replayer": ui.REPLAYER, "Ingest": "views/ingest.py"}
APP = Path(ui.__file__).with_name("app.py")


def time_pages(db: Path) -> dict[str, float]:
    """Seconds each page's script takes to run, from an empty cache, as the first visitor to open
    it waits for it: Streamlit's AppTest runs the app on its first page, then the page alone is
    timed (its queries on a read-only connection, the data work, the charts and tables it builds;
    the browser drawing them is not counted)."""
    from streamlit.testing.v1 import AppTest  # the dashboard's own dependency, only needed here

    streamlit.logger.set_log_level("error")  # "no runtime": expected under AppTest
    before = os.environ.get(ENV_DB)
    os.environ[ENV_DB] = str(db)
    seconds = {}
    try:
        for page, script in PAGES.items():
            app = AppTest.from_file(str(APP), default_timeout=600)
            app.run()
            app.switch_page(script)
            st.cache_data.clear()
            started = time.perf_counter()
            app.run()
            seconds[page] = time.perf_counter() - started
            if app.exception:
                raise RuntimeError(f"the {page} page failed: {app.exception[0].value}")
    finally:
        if before is None:
            os.environ.pop(ENV_DB, None)
        else:
            os.environ[ENV_DB] = before
    return seconds


def run(quick: bool) -> list[dict[str, Any]]:
    return rows(database(5_000 if quick else 1_000_000))


def rows(db: Path) -> list[dict[str, Any]]:
    """The ingest that made `db` (when it was measured) and the time of every page on it."""
    with duckdb.connect(str(db), read_only=True) as con:
        stored = con.execute("SELECT count(*) FROM hands").fetchall()
    count = int(stored[0][0])
    made = []
    if built_by(db).exists():  # how the database was made: an ingest of every variant at scale
        found = json.loads(built_by(db).read_text(encoding="utf-8"))
        per_cpu = found["hands"] / found["cpu_s"] if found["cpu_s"] else 0
        name = f"ingest --jobs {found['jobs']}, {found['hands']:,} hands (the dashboard database)"
        note = (f"generated hands of the 59 variants in {found['seconds']:,.0f} s, parsed, replayed and "
                f"stored (made {found['machine']['date'][:10]})")
        memory = "the ingest process and its workers (PSS)"
        made += [row(name, round(found["hands_per_s"], 1), INGEST_PER_S, TARGET, "hands/s", note),
                 row(f"{name} per CPU-second", round(per_cpu, 1), INGEST_PER_CPU_S, TARGET, "hands/CPU-s",
                     "CPU time of the process and its workers"),
                 row(f"{name}, peak memory", round(found["peak_mb"], 1), INGEST_PEAK_MB, TARGET, "MB",
                     memory)]
    pages = f"{count:,} hands, from an empty cache"
    return made + [row(f"dashboard page: {page}", seconds, PAGE_S, TARGET, "s", pages)
                   for page, seconds in time_pages(db).items()]
