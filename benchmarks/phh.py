"""PHH load + replay-validate: this project against PokerKit on the same generated PHH hands.

The input is `barge generate --format phh` output for all 11 PHH variants (kept in the bench
data folder between runs). Both sides get each hand's PHH text already in memory, so reading
the disk is not measured. Ours: `grammar.phh_parser.parse_phh` (TOML and the action grammar into
the hand model) and `evaluator.replay.replay_hand` (every action judged against the rulebook,
every pot settled and the awards computed). PokerKit: `HandHistory.loads` and iterating the
states of the hand, which applies each action to PokerKit's game state (PokerKit's own
validation). Both are timed in one process on one core, in CPU time (hands per CPU-second: the
process's own time, so that other load on a shared machine matters less), taking turns in a few
rounds so that a change of load falls on both.

A second row does the same on the PHH corpus shared beside this repository
(`../shared/corpus/phh`: the public data set's Pluribus and WSOP hands and a few famous ones,
one `.phh` file each), read from memory like the generated hands, when that folder is there.

    nice -n 10 .venv/bin/python -m benchmarks.phh [--quick] [--budget SECONDS]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.suite import data_dir, missing, row
from evaluator.replay import replay_hand
from grammar.phh_parser import parse_phh, split_phh
from pipeline.generate.output import Request, generate
from pipeline.phh_writer import PHH_VARIANTS
from pipeline.sources import read_blocks

SEED = 1
WARM_UP = 100  # about the hands read and replayed before either side is timed
UNIT = "hands/CPU-s"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "phh"


def hands_file_texts(per_variant: int) -> list[str]:
    """The PHH text of `per_variant` generated hands of each of the 11 PHH variants."""
    variants = tuple(sorted({variant for variant, _ in PHH_VARIANTS.values()}))
    folder = data_dir() / f"phh-{SEED}-{per_variant}"
    done = folder / ".complete"
    if not done.exists():
        folder.mkdir(parents=True, exist_ok=True)
        generate(Request(variants, hands=per_variant, seed=SEED, form="phh"), folder)
        done.touch()
    return [block.text for path in sorted(folder.glob("*.phhs")) for block in read_blocks(path, split_phh)]


ROUNDS = 3  # turns each side takes


def _rate(work: Callable[[str], Any], texts: list[str], budget: float) -> tuple[int, float]:
    """Hands done and the CPU seconds they took: `work` over the texts from the first, stopping
    after `budget` CPU seconds (at least 50 hands)."""
    started = time.process_time()
    done = 0
    for text in texts:
        work(text)
        done += 1
        # The clock every 10 hands: reading a process's CPU time costs microseconds.
        if done >= 50 and done % 10 == 0 and time.process_time() - started > budget:
            break
    return done, time.process_time() - started


def _race(sides: list[Callable[[str], Any]], texts: list[str], budget: float) -> list[tuple[float, int]]:
    """Hands per CPU-second of each side and the hands timed, each taking `ROUNDS` turns of
    `budget / ROUNDS`, after a warm-up on hands spread over the input, so that every game's are
    among them (the grammar, the numba kernels of each game's scales, compiled when first met)."""
    for work in sides:
        for text in texts[::max(1, len(texts) // WARM_UP)]:
            work(text)
    totals = [(0, 0.0)] * len(sides)
    for _ in range(ROUNDS):
        for k, work in enumerate(sides):
            done, seconds = _rate(work, texts, budget / ROUNDS)
            totals[k] = (totals[k][0] + done, totals[k][1] + seconds)
    return [(done / seconds, done) for done, seconds in totals]


def _ours(text: str) -> None:
    replay_hand(parse_phh(text))


def _pokerkit_loads(text: str) -> bool:
    from pokerkit import HandHistory

    try:
        for _ in HandHistory.loads(text):
            pass
    except (ValueError, KeyError, IndexError):  # what PokerKit raises for a hand it cannot follow
        return False
    return True


def corpus_texts() -> list[str]:
    """The hands of the shared PHH corpus, one text each (empty when the folder is not there)."""
    files = sorted(CORPUS.rglob("*.phh")) if CORPUS.is_dir() else []
    return [block.text for path in files for block in read_blocks(path, split_phh)]


def compare(name: str, texts: list[str], budget: float, what: str) -> dict[str, Any]:
    """Ours against PokerKit on the hands PokerKit can follow: it cannot load a few hands where a
    draw game's stub ran out at a different moment than its model of the deck expects."""
    both = [t for t in texts if _pokerkit_loads(t)]
    (ours, n_ours), (peer, n_peer) = _race([_ours, _pokerkit_loads], both, budget)
    note = (f"{len(both):,} {what} ({len(texts) - len(both)} PokerKit cannot load left out); "
            f"ours timed on {n_ours:,}, PokerKit on {n_peer:,}; one core, CPU time")
    return row(name, ours, peer, "PokerKit", UNIT, note)


def run(quick: bool, budget: float | None = None) -> list[dict[str, Any]]:
    texts = hands_file_texts(60 if quick else 1000)
    budget = budget or (8.0 if quick else 60.0)
    corpus = corpus_texts()
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        [(ours, _)] = _race([_ours], texts, budget)
        return [missing("PHH load + validate", "PokerKit", UNIT, ours, "PokerKit not installed")]
    rows = [compare("PHH load + validate", texts, budget, "generated hands of the 11 PHH variants")]
    if corpus:
        rows.append(compare("PHH load + validate, shared corpus", corpus, budget,
                            f"hands of {CORPUS.relative_to(CORPUS.parents[2])}"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 hands a variant, 8 CPU-seconds a side")
    parser.add_argument("--budget", type=float, help="CPU-seconds a side and a row (default 8, or 60)")
    args = parser.parse_args()
    for found in run(args.quick, args.budget):
        ratio = f"{found['ratio']:.2f}x" if found["ratio"] is not None else "-"
        print(f"{found['benchmark']}: ours {found['ours']:,.0f} {found['unit']}, "
              f"{found['peer_name']} {found['peer'] or 0:,.0f}: {ratio} ({found['note']})")


if __name__ == "__main__":
    main()
