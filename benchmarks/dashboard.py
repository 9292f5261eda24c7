"""Dashboard queries at scale: the SQL behind each page, timed on a database of generated hands.

The database is made once per size (`barge generate` for all 59 variants, then `barge ingest
--jobs N`, which audits, measured as `benchmarks.ingest.measure` measures any ingest) and kept in
the bench data folder with that measurement beside it (`<db>.ingest.json`): the ingest suite
reports it as its million-hand row. Each page's figure is the time of every
query the page runs when it opens with no filter, uncached (a fresh connection, the same
read-only way the dashboard opens the file); the Players page also opens the first player of
the leaderboard, and the replayer the first hand of its list. There is no peer: the target is
the issue's, every page under a second at a million hands.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

from benchmarks.ingest import measure
from benchmarks.suite import data_dir, machine, row
from dashboard import queries
from evaluator.variants import VARIANTS
from pipeline.generate.output import Request, generate
from pipeline.stats import NO_FILTERS, Filters, player_hands, player_stats, refresh_facts, stats_by
from pipeline.store import Store

SEED = 2
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


def _overview(con: Con) -> None:
    for query in (queries.overview, queries.hands_per_day, queries.variant_mix, queries.biggest_pots,
                  queries.events, queries.finding_counts):
        query(con, NO_FILTERS)


def _players(con: Con) -> None:
    board = player_stats(con, NO_FILTERS)
    first = board.sort("net", descending=True)["player"][0]
    mine = Filters(player=first)
    player_hands(con, mine)
    for by in ("variant", "position"):
        stats_by(con, mine, by)


def _variants(con: Con) -> None:
    queries.variant_stats(con, NO_FILTERS)
    queries.winners(con, NO_FILTERS)


def _audit(con: Con) -> None:
    queries.findings(con, NO_FILTERS)


def _replayer(con: Con) -> None:
    listed = queries.hand_list(con, NO_FILTERS)
    hand_id = listed["hand_id"][0]
    for query in (queries.hand, queries.hand_awards, queries.hand_findings, queries.hand_seats):
        query(con, hand_id)


def _ingest(con: Con) -> None:
    queries.rejects(con)


PAGES: dict[str, Callable[[Con], None]] = {
    "Overview": _overview, "Players": _players, "Variants": _variants, "Audit": _audit,
    "Hand replayer": _replayer, "Ingest": _ingest,
}


def time_pages(db: Path) -> dict[str, float]:
    """Seconds each page's queries take on a fresh read-only connection."""
    seconds = {}
    for page, load in PAGES.items():
        with duckdb.connect(str(db), read_only=True) as con:
            started = time.perf_counter()
            load(con)
            seconds[page] = time.perf_counter() - started
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
        name = f"ingest --jobs {found['jobs']}, dashboard database"
        note = (f"{found['hands']:,} generated hands of the 59 variants, parsed, replayed and stored "
                f"(made {found['machine']['date'][:10]}; {per_cpu:,.0f} hands per CPU-second)")
        memory = "the ingest process and its workers (PSS); target under 1,500 MB at 1M hands"
        made += [row(name, round(found["hands_per_s"], 1), None, None, "hands/s", note),
                 row(f"{name}, peak memory", round(found["peak_mb"], 1), None, None, "MB", memory)]
    target = f"{count:,} hands; target under 1 s"
    return made + [row(f"dashboard page: {page}", seconds, None, None, "s", target)
                   for page, seconds in time_pages(db).items()]
