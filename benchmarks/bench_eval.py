"""Batch evaluation throughput of evaluator/scales.py on random hands (hands per second).

Run from the repository root: ``.venv/bin/python benchmarks/bench_eval.py [--hands N]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evaluator import scales

Hands = npt.NDArray[np.int8]


def random_hands(rng: np.random.Generator, n: int, cards: int, chunk: int = 100_000) -> Hands:
    """n rows of ``cards`` distinct cards from the 52, dealt uniformly."""
    parts = []
    for start in range(0, n, chunk):
        size = min(chunk, n - start)
        order = np.argsort(rng.random((size, 52), dtype=np.float32), axis=1)
        parts.append(order[:, :cards].astype(np.int8))
    return np.ascontiguousarray(np.vstack(parts))


def bench(name: str, fn: Callable[[Hands], Any], hands: Hands, repeats: int = 3) -> None:
    fn(hands[:1000])  # warm-up: compile (or load the numba cache)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(hands)
        best = min(best, time.perf_counter() - start)
    print(f"{name:<28} {len(hands):>10,} hands  {best:8.3f} s  {len(hands) / best:>14,.0f} hands/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands per benchmark (default 1e6)")
    parser.add_argument("--seed", type=int, default=20250710)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    n = args.hands
    print(f"numba batch kernels, one thread, best of 3, seed {args.seed}")
    bench("7-card high", scales.high7_batch, random_hands(rng, n, 7))
    omaha = random_hands(rng, n, 9)
    bench("Omaha high (4 + 5)", scales.omaha_high_batch, omaha)
    bench("Omaha low 8-or-better", scales.omaha_low8_batch, omaha)
    bench("Badugi (4 cards)", scales.badugi_batch, random_hands(rng, n, 4))
    bench("Badeucy best of 5", lambda h: scales.badugi_batch(h, ace_high=True), random_hands(rng, n, 5))


if __name__ == "__main__":
    main()
