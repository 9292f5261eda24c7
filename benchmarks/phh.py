"""PHH load + replay-validate: this project against PokerKit on the same generated PHH hands.

The input is `barge generate --format phh` output for all 11 PHH variants (kept in the bench
data folder between runs). Both sides get each hand's PHH text already in memory, so reading
the disk is not measured. Ours: `grammar.phh_parser.parse_phh` (TOML and the action grammar into
the hand model) and `evaluator.replay.replay_hand` (every action judged against the rulebook,
every pot settled and the awards computed). PokerKit: `HandHistory.loads` and iterating the
states of the hand, which applies each action to PokerKit's game state (PokerKit's own
validation). Both are timed in one process on one core.

A second row does the same on the PHH corpus shared beside this repository
(`../shared/corpus/phh`: the public data set's Pluribus and WSOP hands and a few famous ones,
one `.phh` file each), read from memory like the generated hands, when that folder is there.
"""

from __future__ import annotations

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
WARM_UP = 50  # hands read and replayed before either side is timed
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


def _rate(work: Callable[[str], Any], texts: list[str], budget: float) -> tuple[float, int]:
    """Hands per second of `work` over the texts, stopping after `budget` seconds (at least 50 hands),
    after a warm-up on the first hands (the grammar, the numba kernels of the scales met)."""
    for text in texts[:WARM_UP]:
        work(text)
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


def corpus_texts() -> list[str]:
    """The hands of the shared PHH corpus, one text each (empty when the folder is not there)."""
    files = sorted(CORPUS.rglob("*.phh")) if CORPUS.is_dir() else []
    return [block.text for path in files for block in read_blocks(path, split_phh)]


def compare(name: str, texts: list[str], budget: float, what: str) -> dict[str, Any]:
    """Ours against PokerKit on the hands PokerKit can follow: it cannot load a few hands where a
    draw game's stub ran out at a different moment than its model of the deck expects."""
    both = [t for t in texts if _pokerkit_loads(t)]
    ours, n_ours = _rate(_ours, both, budget)
    peer, n_peer = _rate(_pokerkit_loads, both, budget)
    note = (f"{len(both):,} {what} ({len(texts) - len(both)} PokerKit cannot load left out); "
            f"ours timed on {n_ours:,}, PokerKit on {n_peer:,}; one core")
    return row(name, ours, peer, "PokerKit", "hands/s", note)


def run(quick: bool) -> list[dict[str, Any]]:
    texts = hands_file_texts(60 if quick else 1000)
    budget = 8.0 if quick else 60.0
    corpus = corpus_texts()
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        ours, _ = _rate(_ours, texts, budget)
        return [missing("PHH load + validate", "PokerKit", "hands/s", ours, "PokerKit not installed")]
    rows = [compare("PHH load + validate", texts, budget, "generated hands of the 11 PHH variants")]
    if corpus:
        rows.append(compare("PHH load + validate, shared corpus", corpus, budget,
                            f"hands of {CORPUS.relative_to(CORPUS.parents[2])}"))
    return rows
