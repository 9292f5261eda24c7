"""Hand evaluation benchmarks: our batch evaluators against the peers, on the same random hands.

Seven-card high against eval7, phevaluator, treys and PokerKit; Omaha high and Omaha eight-or-
better low (four and five hole cards, five board cards) and badugi against PokerKit; each also
against the reference kernel of :mod:`evaluator.scales` that the tables replaced. The peers are
optional (``pip install .[bench]``): a missing one gives a row with ``peer=None`` and the note
"not installed", never a made-up figure.

How it measures, so that the figures mean the same thing on a shared machine:

* every benchmark deals its hands once (numba, fixed seed); each peer gets the first rows of the
  same array, converted to its own card objects OUTSIDE the timed region and called the way its
  documentation shows (a list comprehension over the hands);
* the time is the CPU time of the calling thread (``time.thread_time``), so other processes on
  the machine do not count; ours is the best of three passes over the whole array in calls of
  a million rows, a peer's the sum over chunks of the same hands until it has run about
  ``Config.peer_seconds``;
* each peer's results are checked against ours: on every hand the peer timed, its order and ties
  must be ours (neighbours in our order, chunk by chunk); the note says so, or how many differ;
* the multi-thread row (``numba.prange``) is wall-clock time, against one thread's wall-clock
  time; the other rows are one thread.

``run(quick)`` returns the rows for ``barge bench``; ``python -m benchmarks.evaluation`` prints them.
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from itertools import pairwise
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from evaluator import fast7, scales
from evaluator.codes import decode_one
from evaluator.scales import njit

Hands = npt.NDArray[np.int8]
Timed = Callable[[], Sequence[Any]]  # one call of a peer over its converted hands
SEED = 20250710
CALIBRATION_HANDS = 200  # a peer's first chunk, which sizes the next ones
CHUNK_HANDS = 100_000  # a peer's hands converted at a time
BATCH_HANDS = 1_000_000  # rows per call of our kernels


@dataclass(frozen=True, slots=True)
class Config:
    """Sizes of one run: hands for our kernels, the peers' target seconds, the reference's hands."""

    seven_card_hands: int
    omaha_hands: int
    peer_seconds: float
    reference_hands: int


FULL = Config(seven_card_hands=10_000_000, omaha_hands=1_000_000, peer_seconds=1.5,
              reference_hands=500_000)
QUICK = Config(seven_card_hands=2_000_000, omaha_hands=200_000, peer_seconds=0.25,
               reference_hands=50_000)


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the report: hands per second of ours and of the peer, and ours / peer."""

    benchmark: str
    ours: float
    peer: float | None
    peer_name: str
    unit: str
    ratio: float | None
    note: str


# ------------------------------------------------------------------------------------ dealing


@njit(cache=True)
def deal(n: int, cards: int, seed: int) -> Hands:
    """n rows of ``cards`` distinct cards of the 52, uniformly (a partial Fisher-Yates shuffle
    per row of a deck that stays shuffled between rows), the same for the same seed."""
    np.random.seed(seed)
    deck = np.arange(52).astype(np.int8)
    out = np.empty((n, cards), dtype=np.int8)
    for h in range(n):
        for j in range(cards):
            k = j + np.random.randint(0, 52 - j)
            deck[j], deck[k] = deck[k], deck[j]
            out[h, j] = deck[j]
    return out


# ------------------------------------------------------------------------------------- timing


def _in_batches(fn: Callable[[Hands], object], hands: Hands) -> None:
    """Call a batch kernel on slices of BATCH_HANDS rows: a single call on ten million rows
    would time the kernel's page faults on a fresh 80 MB result too (README: what limits it)."""
    for start in range(0, len(hands), BATCH_HANDS):
        fn(hands[start : start + BATCH_HANDS])


def ours_rate(fn: Callable[[Hands], object], hands: Hands, repeats: int = 3,
              clock: Callable[[], float] = time.thread_time) -> float:
    """Hands per second (CPU time of this thread unless another ``clock``) of a batch kernel
    called on slices of BATCH_HANDS rows, the best of ``repeats`` passes after a warm-up."""
    fn(hands[:1000])  # compiles or loads numba's cache, builds the tables
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        _in_batches(fn, hands)
        best = min(best, clock() - start)
    return len(hands) / max(best, 1e-9)


# -------------------------------------------------------------------------------------- peers


def _convert(hands: Hands, card: Callable[[str], Any]) -> list[list[Any]]:
    """Each row as a list of a peer's card objects, each of the 52 made once."""
    table = [card(decode_one(code)) for code in range(52)]
    return [[table[code] for code in row] for row in hands.tolist()]


def _eval7(hands: Hands, split: int) -> Timed:
    import eval7

    cards = _convert(hands, eval7.Card)
    evaluate = eval7.evaluate
    return lambda: [evaluate(c) for c in cards]


def _phevaluator(hands: Hands, split: int) -> Timed:
    from phevaluator import evaluate_cards

    rows = hands.tolist()  # phevaluator's card ids are rank * 4 + suit, as ours
    return lambda: [evaluate_cards(*row) for row in rows]


def _treys(hands: Hands, split: int) -> Timed:
    from treys import Card, Evaluator

    pairs = [(row[:split], row[split:]) for row in _convert(hands, Card.new)]
    evaluate = Evaluator().evaluate
    return lambda: [evaluate(hole, board) for hole, board in pairs]


def _pokerkit(class_name: str) -> Callable[[Hands, int], Timed]:
    """PokerKit's ``from_game(hole, board)`` of a hand class; a hand that cannot be formed (no
    qualifying low) raises ValueError there and counts as None, the lowest."""

    def prepare(hands: Hands, split: int) -> Timed:
        import pokerkit

        cls = getattr(pokerkit, class_name)
        pairs = [(tuple(row[:split]), tuple(row[split:]))
                 for row in _convert(hands, lambda text: next(iter(pokerkit.Card.parse(text))))]

        def call(hole: Any, board: Any) -> Any:
            try:
                return cls.from_game(hole, board)
            except ValueError:
                return None

        return lambda: [call(hole, board) for hole, board in pairs]

    return prepare


@dataclass(frozen=True, slots=True)
class Peer:
    """A peer evaluator: the module that must be importable, how to convert hands (outside the
    timed region) into the timed call, and whether its smaller results are the better hands."""

    name: str
    module: str
    prepare: Callable[[Hands, int], Timed]
    lower_is_better: bool = False


def _compare(a: Any, b: Any) -> int:
    """-1, 0 or 1; None (no hand) below everything."""
    if a is None or b is None:
        return (a is not None) - (b is not None)
    return int(a > b) - int(a < b)


def disagreements(ours: npt.NDArray[np.int64], theirs: Sequence[Any], lower_is_better: bool) -> int:
    """How many neighbours in our order the peer orders differently: zero means the same order
    and the same ties on every hand."""
    sign = -1 if lower_is_better else 1
    order = np.argsort(ours, kind="stable").tolist()
    count = 0
    for i, j in pairwise(order):
        expected = int(ours[j] > ours[i])
        count += (sign * _compare(theirs[j], theirs[i])) != expected
    return count


def peer_row(benchmark: str, peer: Peer, ours: float, hands: Hands, split: int,
             our_ranks: Callable[[Hands], npt.NDArray[np.int64]], seconds: float) -> Row:
    """Time a peer on the first rows of ``hands`` for about ``seconds`` of CPU time, converting
    and checking chunk by chunk (a first chunk of 200 hands sizes the next ones), so that a fast
    peer's millions of card objects never sit in memory at once."""
    try:
        importlib.import_module(peer.module)
    except ImportError:
        return Row(benchmark, ours, None, peer.name, "hands/s", None, "not installed")
    done = wrong = chunks = 0
    spent = 0.0
    size = CALIBRATION_HANDS
    while done < len(hands) and spent < seconds:
        chunk = hands[done : done + size]
        timed = peer.prepare(chunk, split)
        start = time.thread_time()
        results = timed()
        spent += time.thread_time() - start
        wrong += disagreements(our_ranks(chunk), results, peer.lower_is_better)
        done += len(chunk)
        chunks += 1
        size = int(min(CHUNK_HANDS, max(CALIBRATION_HANDS, done / max(spent, 1e-9) * (seconds - spent))))
    rate = done / max(spent, 1e-9)
    check = f"same order and ties as ours on all {done:,} hands" if not wrong else (
        f"ORDER DIFFERS from ours on {wrong:,} of {done - chunks:,} neighbouring pairs")
    return Row(benchmark, ours, rate, peer.name, "hands/s", ours / rate, check)


def reference_row(benchmark: str, ours: float, fn: Callable[[Hands], object], hands: Hands,
                  work: str) -> Row:
    """Our table kernels against the reference kernels of evaluator.scales they replaced."""
    rate = ours_rate(fn, hands, repeats=1)
    return Row(benchmark, ours, rate, "evaluator.scales reference", "hands/s", ours / rate, work)


# --------------------------------------------------------------------------------- benchmarks

HIGH7_PEERS = (
    Peer("eval7", "eval7", _eval7),
    Peer("phevaluator", "phevaluator", _phevaluator, lower_is_better=True),
    Peer("treys", "treys", _treys, lower_is_better=True),
    Peer("PokerKit", "pokerkit", _pokerkit("StandardHighHand")),
)


def seven_card_rows(config: Config) -> list[Row]:
    """Seven-card high: one thread against each peer and the reference, then all threads."""
    name = "7-card high"
    hands = deal(config.seven_card_hands, 7, SEED)
    ours = ours_rate(scales.high7_batch, hands)
    rows = [peer_row(name, p, ours, hands, 2, scales.high7_batch, config.peer_seconds) for p in HIGH7_PEERS]
    rows.append(reference_row(name, ours, lambda h: scales._best5_rows(h, scales.HIGH, False),
                              hands[: config.reference_hands], "the 21 five-card hands of each row"))
    threads = numba.get_num_threads()
    serial = ours_rate(fast7.high_batch, hands, clock=time.perf_counter)
    parallel = ours_rate(partial(fast7.high_batch, parallel=True), hands, clock=time.perf_counter)
    rows.append(Row(f"7-card high, {threads} threads (numba.prange)", parallel, serial,
                    "ours, one thread", "hands/s", parallel / serial,
                    "wall-clock time of both, so the machine's other load counts"))
    return rows


def _reference_omaha(hands: Hands, n_hole: int, scale: int, floor: int) -> npt.NDArray[np.int64]:
    return scales._omaha_rows(hands, n_hole, scale, floor)


def omaha_rows(config: Config) -> list[Row]:
    """Omaha high and eight-or-better low with four and five hole cards, against PokerKit."""
    rows: list[Row] = []
    for n_hole in (4, 5):
        hands = deal(config.omaha_hands, n_hole + 5, SEED + n_hole)
        work = f"the {10 * n_hole * (n_hole - 1) // 2} five-card hands of each row"
        cases = (
            ("Omaha high", partial(scales.omaha_high_batch, n_hole=n_hole), "OmahaHoldemHand",
             partial(_reference_omaha, n_hole=n_hole, scale=scales.HIGH, floor=-1)),
            ("Omaha 8-or-better low", partial(scales.omaha_low8_batch, n_hole=n_hole),
             "OmahaEightOrBetterLowHand",
             partial(_reference_omaha, n_hole=n_hole, scale=scales.ACE_TO_FIVE, floor=scales.low_floor(8))),
        )
        for title, fn, peer_class, reference in cases:
            name = f"{title}, {n_hole} hole cards + 5 board"
            ours = ours_rate(fn, hands)
            peer = Peer("PokerKit", "pokerkit", _pokerkit(peer_class))
            rows.append(peer_row(name, peer, ours, hands, n_hole, fn, config.peer_seconds))
            rows.append(reference_row(name, ours, reference, hands[: config.reference_hands // 4], work))
    return rows


def badugi_rows(config: Config) -> list[Row]:
    """Four-card badugi (aces low) against PokerKit's BadugiHand; ours is the scales kernel."""
    name = "Badugi, 4 cards"
    hands = deal(config.omaha_hands, 4, SEED + 4)
    ours = ours_rate(scales.badugi_batch, hands)
    peer = Peer("PokerKit", "pokerkit", _pokerkit("BadugiHand"))
    return [peer_row(name, peer, ours, hands, 4, scales.badugi_batch, config.peer_seconds)]


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Every benchmark row as a dict: benchmark, ours, peer, peer_name, unit, ratio, note.
    ``quick`` takes about 20 s, the full run about a minute and a half."""
    config = QUICK if quick else FULL
    rows = seven_card_rows(config) + omaha_rows(config) + badugi_rows(config)
    return [asdict(row) for row in rows]


def format_rows(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a plain-text table."""

    def rate(value: float | None) -> str:
        return "-" if value is None else f"{value:,.0f}"

    lines = [f"{'benchmark':<42} {'ours':>14} {'peer':<27} {'peer':>12} {'ours/peer':>10}  note"]
    for r in rows:
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:,.1f}x"
        lines.append(f"{r['benchmark']:<42} {rate(r['ours']):>14} {r['peer_name']:<27} "
                     f"{rate(r['peer']):>12} {ratio:>10}  {r['note']}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Hand evaluation: ours against the peers (hands/s).")
    parser.add_argument("--quick", action="store_true", help="fewer hands, about 20 s")
    args = parser.parse_args(argv)
    print(f"hands per CPU second of one thread (seed {SEED}); peers on a subset of the same hands")
    print(format_rows(run(args.quick)))


if __name__ == "__main__":
    main()
