"""Where a hand's ingest time goes: parse, replay, settle, equity, tables and writing, per hand.

The input is generated hands of all 59 variants (`barge generate`, kept in the bench data folder),
each hand different, so that no cache (the equity of a situation met before) makes a stage look
cheaper than it is. Every stage runs in this one process, on one core, as a worker and the
writing process run it in `barge ingest`, and is timed in CPU time (`time.process_time`), which a
machine busy with other work changes less than wall time:

- parse: the native reader (`pipeline.formats`), the text of a block to a `Hand`;
- replay: `evaluator.replay.replay_hand` without its settlement: every action judged;
- settle: `evaluator.settle.settle`, the pots and the awards of the table the replay ends with,
  computed once more (the replay settles from compiled code, which cannot be timed from outside)
  and counted out of the replay's time;
- equity: the all-in adjustment (`pipeline.workers.adjustment_of`);
- tables: the Arrow rows of the hand and of its audit (`pipeline.tables`, `pipeline.workers`);
- writing: the chunk's tables written to a DuckDB database in one transaction, as ingest does.

The bench runs it twice: in its own process (the compiled hot path, where built) and in a fresh
one with `BARGE_PURE=1`, the same code as plain Python, so the table says what compiling buys
in each stage.

Run from the repository root: ``.venv/bin/python -m benchmarks.profile [--per-variant N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from benchmarks.suite import data_dir, versus_plain
from evaluator.catalog import ALL_GAMES, GAMES
from evaluator.profiles import DEFAULT_PROFILE, resolve
from evaluator.replay import Replay, replay_hand
from evaluator.settle import Table, settle
from pipeline import hot_path
from pipeline.formats import FORMATS, NATIVE
from pipeline.generate.output import Request, generate
from pipeline.model import Hand
from pipeline.parallel import fewer_collections
from pipeline.schema import ENDINGS
from pipeline.sources import read_blocks
from pipeline.store import Store
from pipeline.tables import HandBatch, Rows
from pipeline.workers import AuditRows, adjustment_of, ending_stacks

ROOT = Path(__file__).resolve().parents[1]
SEED = 1
QUICK_PER_VARIANT = 10
FULL_PER_VARIANT = 100
STAGES = ("parse", "replay", "settle", "equity", "tables", "writing")
T = TypeVar("T")


def generated_texts(per_variant: int) -> list[str]:
    """The native text of `per_variant` generated hands of every variant, made once."""
    folder = data_dir() / f"native-{SEED}-{per_variant}"
    done = folder / ".complete"
    if not done.exists():
        folder.mkdir(parents=True, exist_ok=True)
        generate(Request(tuple(sorted(GAMES)), hands=per_variant, seed=SEED), folder)
        done.touch()
    return [block.text for path in sorted(folder.glob("*.bhh")) for block in read_blocks(path)]


def profile(texts: list[str], db: Path) -> dict[str, float]:
    """CPU seconds of each stage over all the hands."""
    spent = dict.fromkeys(STAGES, 0.0)
    fewer_collections()  # as in a worker

    def timed(stage: str, work: Callable[..., T], *args: Any) -> T:
        started = time.process_time()
        try:
            return work(*args)
        finally:
            spent[stage] += time.process_time() - started

    parse = FORMATS[NATIVE].parse
    batch, audit = HandBatch(), AuditRows()
    for line, text in enumerate(texts):
        hand = timed("parse", parse, text)
        outcome = timed("replay", replay_hand, hand)
        if outcome.awards is not None:
            timed("settle", settle, final_table(hand))
        adjustment = timed("equity", adjustment_of, hand)
        found = outcome.findings
        timed("tables", audit.add, hand.hand_id, DEFAULT_PROFILE, found, hand, outcome, adjustment)
        timed("tables", batch.add, hand, 1, line, text, ending_stacks(hand, outcome))
    spent["replay"] -= spent["settle"]  # the settlement runs inside the replay
    # The ending stacks go into `seats` (as read_chunk sends them), not to a table of their own.
    rows = (timed("tables", batch.to_rows), timed("tables", audit.to_rows, (ENDINGS,)))
    with Store(db) as store:
        timed("writing", _write, store, rows)
    return spent


def final_table(hand: Hand) -> Table:
    """The table a hand's replay settles at its end. The replay calls the settlement from compiled
    code, where no patch can time it, so the profile settles this table once more, timed, and
    counts that time out of the replay's."""
    engine = Replay(hand, ALL_GAMES[hand.variant], resolve(hand.rules_profile, hand.rules_options))
    engine.run()
    return engine.table()


def _write(store: Store, rows: tuple[Rows, ...]) -> None:
    with store.transaction():
        for tables in rows:
            store.write_tables(tables.tables)


def plain_python(per_variant: int) -> dict[str, float] | None:
    """The same profile with the hot path run as plain Python (`BARGE_PURE=1`), in a fresh process;
    None when this process is not compiled (the two would be the same code)."""
    if not hot_path.describe().startswith("compiled"):
        return None
    command = [sys.executable, "-m", "benchmarks.profile", "--per-variant", str(per_variant), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT,
                          env={**os.environ, hot_path.PURE_VARIABLE: "1"})
    found: dict[str, float] = json.loads(done.stdout)["seconds"]
    return found


def run(quick: bool) -> list[dict[str, Any]]:
    """Rows for `barge bench`: milliseconds of CPU time per hand in each stage, the compiled hot
    path against the same code run as plain Python."""
    per_variant = QUICK_PER_VARIANT if quick else FULL_PER_VARIANT
    texts = generated_texts(per_variant)
    with tempfile.TemporaryDirectory(prefix="barge-bench-profile-") as folder:
        spent = profile(texts, Path(folder) / "profile.duckdb")
    plain = plain_python(per_variant)
    note = f"{len(texts):,} generated hands of the {len(GAMES)} variants, CPU time, one core"

    def figure(stage: str, seconds: dict[str, float]) -> float:
        total = sum(seconds.values()) if stage == "all stages" else seconds[stage]
        return round(total / len(texts) * 1000, 4)

    rows = []
    for stage in (*STAGES, "all stages"):
        ours = figure(stage, spent)
        text = note if stage != "all stages" else f"{len(texts) / sum(spent.values()):,.0f} hands per CPU-s"
        rows.append(versus_plain(f"per hand: {stage}", ours, None if plain is None else figure(stage, plain),
                                 "ms", text))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-variant", type=int, default=FULL_PER_VARIANT, help="hands of each variant")
    parser.add_argument("--json", action="store_true", help="print the CPU seconds of each stage as JSON")
    args = parser.parse_args()
    texts = generated_texts(args.per_variant)
    with tempfile.TemporaryDirectory(prefix="barge-bench-profile-") as folder:
        spent = profile(texts, Path(folder) / "profile.duckdb")
    if args.json:
        print(json.dumps({"hands": len(texts), "hot_path": hot_path.describe(), "seconds": spent}))
        return
    print(f"hot path: {hot_path.describe()}")
    for stage in STAGES:
        print(f"{stage:8s} {spent[stage] / len(texts) * 1e6:10,.1f} µs a hand")
    print(f"{len(texts):,} hands, {len(texts) / sum(spent.values()):,.0f} hands per CPU-second")


if __name__ == "__main__":
    main()
