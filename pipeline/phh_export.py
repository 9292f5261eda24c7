"""`barge export --format phh`: stored hands out as PHH bulk files (`.phhs`), for PokerKit and the
research tools that read the PokerKit hand-history standard.

One `.phhs` per source file (or per event), holding the stored hands of the 11 games PHH has a
variant code for (and 6+ Hold'em, "NS" with a button blind), each as a `[N]` section
(`pipeline.phh_writer.hand_to_phh`).  Hands of other games or structures are counted as skipped.
Every hand written reads back as the stored one; a hand whose play PHH's own fields cannot carry
whole (a kill blind, a board run twice, antes in a site's order: carried in `_barge_actions`),
or that does not read back, is counted as lossy.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import duckdb

from evaluator.profiles import DEFAULT_PROFILE
from grammar.errors import HandSyntaxError
from grammar.phh_parser import parse_phh
from pipeline.model import Hand
from pipeline.phh_writer import PHH_CODES, PHH_VARIANTS, PLAY_FIELD, hand_to_phh
from pipeline.store import read_hands

BATCH = 2000  # hands read back per query: memory stays flat however many are stored


@dataclass(frozen=True, slots=True)
class PhhExportSummary:
    """What an export wrote: hands per variant id written and skipped (no PHH code for the game
    or its structure), those written that PHH does not carry whole, and the files."""

    written: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    lossy: Counter[str] = field(default_factory=Counter)
    files: tuple[Path, ...] = ()
    lossy_hands: tuple[str, ...] = ()

    @property
    def hands(self) -> int:
        return sum(self.written.values())


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "hands"


def _variant_ids(variants: Sequence[str] | None) -> set[str] | None:
    """Variant ids to export; a PHH code ("NT") stands for its games ("NS": Short Deck and 6+)."""
    if variants is None:
        return None
    games = {code: {g for (g, _), c in PHH_CODES.items() if c == code} for code in PHH_VARIANTS}
    return {game for v in variants for game in games.get(v, {v})}


def _stored(con: duckdb.DuckDBPyConnection, wanted: set[str] | None,
            per: str) -> list[tuple[str, str, str, str]]:
    """(hand_id, variant, structure, group) of the stored hands, in stored order."""
    group = "s.path" if per == "source" else "coalesce(h.event, '')"
    rows = con.execute(f"SELECT h.hand_id, h.variant, h.structure, {group} FROM hands h "
                       "JOIN sources s USING (source_id) ORDER BY h.source_id, h.line").fetchall()
    return [(r[0], r[1], r[2], r[3]) for r in rows if wanted is None or r[1] in wanted]


def _file_names(groups: list[str], per: str) -> dict[str, str]:
    """A file name per group: the source file's name or the event's, made unique."""
    names: dict[str, str] = {}
    taken: Counter[str] = Counter()
    for group in groups:
        base = _slug(Path(group).stem if per == "source" else group or "no-event")
        taken[base] += 1
        names[group] = base if taken[base] == 1 else f"{base}-{taken[base]}"
    return names


def _same(written: str, hand: Hand) -> bool:
    try:
        back = parse_phh(written)
    except HandSyntaxError:
        return False
    if back.rules_profile is None:
        back = replace(back, rules_profile=DEFAULT_PROFILE)  # as ingest stores it
    return back == hand


def _hands(con: duckdb.DuckDBPyConnection, ids: list[str]) -> Iterator[Hand]:
    for start in range(0, len(ids), BATCH):
        yield from read_hands(con, ids[start:start + BATCH])


def export_phh(con: duckdb.DuckDBPyConnection, out: Path, variants: Sequence[str] | None = None,
               per: str = "source") -> PhhExportSummary:
    """Write the stored hands of the PHH games as `.phhs` files in the folder `out`.

    `variants`: variant ids (or PHH codes) to export, all by default; `per`: "source" for one
    file per ingested file (named after it), "event" for one per event.  Hands of games or
    structures PHH has no code for, and hands with fewer than two players dealt in, are skipped
    and counted per variant.  Raises ValueError for an unknown `per` and OSError when `out`
    cannot be written.
    """
    if per not in ("source", "event"):
        raise ValueError(f"per must be 'source' or 'event', not {per!r}")
    rows = _stored(con, _variant_ids(variants), per)
    summary = PhhExportSummary()
    by_group: dict[str, list[str]] = {}
    for hand_id, variant, structure, group in rows:
        if (variant, structure) in PHH_CODES:
            by_group.setdefault(group, []).append(hand_id)
        else:
            summary.skipped[variant] += 1
    out.mkdir(parents=True, exist_ok=True)
    names = _file_names(list(by_group), per)
    files: list[Path] = []
    lossy: list[str] = []
    for group, ids in by_group.items():
        path = out / f"{names[group]}.phhs"
        number = 0
        with path.open("w", encoding="utf-8") as handle:
            for hand in _hands(con, ids):
                try:
                    text = hand_to_phh(hand)
                except ValueError:  # fewer than two players dealt in: not a PHH hand
                    summary.skipped[hand.variant] += 1
                    continue
                number += 1
                handle.write(("\n" if number > 1 else "") + f"[{number}]\n{text}")
                summary.written[hand.variant] += 1
                if f"\n{PLAY_FIELD} = [" in text or not _same(text, hand):
                    summary.lossy[hand.variant] += 1
                    lossy.append(hand.hand_id)
        if number:
            files.append(path)
        else:
            path.unlink()
    return replace(summary, files=tuple(files), lossy_hands=tuple(lossy))
