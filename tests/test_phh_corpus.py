"""PHH on real and generated histories: every hand of the shared PHH corpus is read (or refused
as cut off), ends with the finishing stacks its file records, and every hand of the 11 PHH
games (the samples, the shared PHH and PokerStars corpora, generated hands) exported with
`barge export --format phh` reads back to the same hand with the same findings.

The corpora are read from `../shared/corpus` and the tests skip when it is absent. The generated
tier plays `GENERATED` hands per game by default; `pytest --slow` plays `SLOW_GENERATED`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest

from pipeline.audit import audit
from pipeline.generate.output import Request, generate
from pipeline.ingest import ingest
from pipeline.model import Hand
from pipeline.phh_export import export_phh
from pipeline.phh_writer import PHH_VARIANTS, phh_code
from pipeline.store import Store, read_hands
from tests.conftest import SAMPLES, SHARED

PHH_CORPUS = SHARED / "corpus" / "phh"
POKERSTARS_CORPUS = SHARED / "corpus" / "pokerstars"
GENERATED = 50  # hands per PHH game in the default tier
SLOW_GENERATED = 1000  # with --slow
GAMES = tuple(sorted({variant for variant, _ in PHH_VARIANTS.values()}))
# What a reader may refuse in a real history: what the file itself says was never played out.
REFUSALS = ("the hand is cut off", "the hand was cancelled")

needs_corpus = pytest.mark.skipif(not PHH_CORPUS.is_dir(), reason=f"no shared PHH corpus at {PHH_CORPUS}")


@pytest.fixture(scope="module")
def phh_corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    if not PHH_CORPUS.is_dir():
        pytest.skip(f"the shared PHH corpus is not at {PHH_CORPUS}")
    with Store(tmp_path_factory.mktemp("phh") / "corpus.duckdb") as store:
        summary = ingest([PHH_CORPUS], store)
        assert [r.error for r in summary.rejects if not r.error.startswith(REFUSALS)] == []
        audit(store)
        yield store


def stored(store: Store) -> dict[str, Hand]:
    ids = [r[0] for r in store.con.execute("SELECT hand_id FROM hands").fetchall()]
    return {h.hand_id: h for h in read_hands(store.con, ids)}


def findings(store: Store) -> dict[str, list[tuple[str, int, str]]]:
    found: dict[str, list[tuple[str, int, str]]] = {}
    rows = store.con.execute("SELECT hand_id, code, seq, message FROM findings ORDER BY ALL").fetchall()
    for hand_id, code, seq, message in rows:
        found.setdefault(hand_id, []).append((code, seq, message))
    return found


# ---- the shared PHH corpus ------------------------------------------------------------------

@needs_corpus
def test_every_hand_of_the_phh_corpus_is_stored(phh_corpus: Store) -> None:
    files = [p for p in PHH_CORPUS.rglob("*") if p.suffix in (".phh", ".phhs")]
    blocks = phh_corpus.count("hands") + phh_corpus.count("rejects")
    assert blocks >= len(files) > 0  # one hand per .phh file, one per section of a .phhs file
    refused = phh_corpus.con.execute("SELECT error FROM rejects").fetchall()
    assert all(error.startswith(REFUSALS) for (error,) in refused), refused


@needs_corpus
def test_every_phh_hand_ends_with_its_finishing_stacks(phh_corpus: Store) -> None:
    """The audit's ending stacks (the rules' pushes, BARGE 2025 §1.4) are the file's
    `finishing_stacks`, seat by seat, in every hand that records them."""
    rows = phh_corpus.con.execute("SELECT hand_id, player, final_stack, ending_stack FROM seats "
                                  "WHERE final_stack IS NOT NULL").fetchall()
    assert rows, "the corpus records finishing stacks"
    off = [(hand_id, player, float(final), ending) for hand_id, player, final, ending in rows
           if ending is None or final != ending]
    assert off == []


@needs_corpus
def test_the_triton_hand_is_six_plus_holdem_with_a_button_blind(phh_corpus: Store) -> None:
    """Phua and Xuan, Triton London 2019: PokerKit's "NS" with antes and one blind on the button
    is 6+ Hold'em's button blind, and three Kings beat Xuan's straight (the room's rule)."""
    [(hand_id,)] = phh_corpus.con.execute(
        "SELECT hand_id FROM hands WHERE event = 'Triton London 2019'").fetchall()
    hand = stored(phh_corpus)[hand_id]
    assert (hand.variant, hand.stakes.big_blind, hand.stakes.ante) == ("six_plus_holdem", 300000, 300000)
    posts = [(a.player, a.detail) for a in hand.actions if a.kind == "post"]
    assert posts == [("Jason Koon", "button_blind")]
    pushed = phh_corpus.con.execute(
        "SELECT player, amount FROM awards WHERE hand_id = ? AND origin = 'computed'", [hand_id]).fetchall()
    assert [(p, float(a)) for p, a in pushed] == [("Paul Phua", 623000.0)]
    assert findings(phh_corpus).get(hand_id, []) == []


# ---- exported and read back -----------------------------------------------------------------

def round_trip(tmp_path: Path, sources: list[Path]) -> int:
    """Ingest and audit `sources`, then `reads_back`."""
    with Store(tmp_path / "first.duckdb") as first:
        ingest(sources, first)
        audit(first)
        return reads_back(tmp_path, first)


def reads_back(tmp_path: Path, first: Store) -> int:
    """Export the PHH games of an audited store, ingest and audit the files into a fresh
    database: every exported hand must come back field by field with the same findings."""
    before, found_before = stored(first), findings(first)
    summary = export_phh(first.con, tmp_path / "phh", per="event")  # a few files, not one per hand
    exported = {k: v for k, v in before.items() if phh_code(v) is not None}
    with Store(tmp_path / "again.duckdb") as again:
        result = ingest(list(summary.files), again)
        assert result.rejects == []
        audit(again)
        after, found_after = stored(again), findings(again)
    assert after.keys() == exported.keys()
    for hand_id, hand in exported.items():
        for name in (f.name for f in fields(hand)):
            assert getattr(after[hand_id], name) == getattr(hand, name), (hand_id, name)
        assert found_after.get(hand_id, []) == found_before.get(hand_id, []), hand_id
    return len(exported)


def test_samples_read_back_the_same(tmp_path: Path) -> None:
    assert round_trip(tmp_path, sorted(SAMPLES.rglob("*.bhh"))) > 0


@needs_corpus
def test_the_phh_corpus_reads_back_the_same(tmp_path: Path, phh_corpus: Store) -> None:
    assert reads_back(tmp_path, phh_corpus) > 0


@pytest.mark.skipif(not POKERSTARS_CORPUS.is_dir(), reason=f"no PokerStars corpus at {POKERSTARS_CORPUS}")
def test_the_pokerstars_corpus_reads_back_the_same(tmp_path: Path) -> None:
    """PokerStars' hold'em, Omaha, stud, razz, draw and badugi hands: antes in the site's order,
    cards seen on a fold or a muck, a new player's big blind go through `_barge_actions`."""
    assert round_trip(tmp_path, [POKERSTARS_CORPUS]) > 0


def generated(tmp_path: Path, hands: int, seed: int) -> int:
    generate(Request(GAMES, hands=hands, seed=seed), tmp_path / "generated")
    return round_trip(tmp_path, [tmp_path / "generated"])


def test_generated_hands_read_back_the_same(tmp_path: Path) -> None:
    assert generated(tmp_path, GENERATED, seed=14) > 0


@pytest.mark.slow
def test_a_thousand_generated_hands_per_game_read_back_the_same(tmp_path: Path) -> None:
    assert generated(tmp_path, SLOW_GENERATED, seed=2025) > 0
