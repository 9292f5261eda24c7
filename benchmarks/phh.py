"""PHH load + replay-validate: this project against PokerKit on the same generated PHH hands.

The input is `barge generate --format phh` output for all 11 PHH variants (kept in the bench
data folder between runs). Both sides get each hand's PHH text already in memory, so reading
the disk is not measured. Ours: `grammar.phh_parser.parse_phh` (TOML and the action grammar into
the hand model) and `evaluator.replay.replay_hand` (every action judged against the rulebook,
every pot settled and the awards computed). PokerKit: `HandHistory.loads` and iterating the
states of the hand, which applies each action to PokerKit's game state (PokerKit's own
validation). Both are timed in one process on one core.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from benchmarks.suite import data_dir, missing, row
from evaluator.replay import replay_hand
from grammar.phh_parser import parse_phh, split_phh
from pipeline.generate.output import Request, generate
from pipeline.phh_writer import PHH_VARIANTS
from pipeline.sources import read_blocks

SEED = 1


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


def _rate(work: Callable[[str], Any], texts: list[str], budget: float) -> tuple[float, int]:
    """Hands per second of `work` over the texts, stopping after `budget` seconds (at least 50 hands)."""
    started = time.perf_counter()
    done = 0
    for text in texts:
        work(text)
        done += 1
        if done >= 50 and time.perf_counter() - started > budget:
            break
    return done / (time.perf_counter() - started), done


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


def run(quick: bool) -> list[dict[str, Any]]:
    texts = hands_file_texts(60 if quick else 1000)
    budget = 8.0 if quick else 60.0
    _ours(texts[0])  # compile the numba kernels and the grammar outside the timing
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        ours, _ = _rate(_ours, texts, budget)
        return [missing("PHH load + validate", "PokerKit", "hands/s", ours, "PokerKit not installed")]
    # Both sides are timed on the hands PokerKit can follow: it cannot load a few hands where a
    # draw game's stub ran out at a different moment than its model of the deck expects.
    both = [t for t in texts if _pokerkit_loads(t)]
    ours, n_ours = _rate(_ours, both, budget)
    peer, n_peer = _rate(_pokerkit_loads, both, budget)
    note = (f"{len(both):,} generated hands of the 11 PHH variants ({len(texts) - len(both)} PokerKit "
            f"cannot load left out); ours timed on {n_ours:,}, PokerKit on {n_peer:,}; one core")
    return [row("PHH load + validate", ours, peer, "PokerKit", "hands/s", note)]
