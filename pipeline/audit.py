"""`barge audit`: replay stored hands under the rulebook and store what the replay finds.

Hands are read back from their stored raw text with the reader of their source's format,
replayed (`evaluator.replay`) in batches, and each batch's findings replace the hands' earlier
ones in one transaction, so an interrupted audit leaves every hand either audited or not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pyarrow as pa

from evaluator.findings import CODES, Finding
from evaluator.profiles import DEFAULT_PROFILE
from evaluator.replay import replay
from grammar.barge_parser import parse_hand
from grammar.errors import HandSyntaxError
from pipeline.model import Hand
from pipeline.schema import SCHEMAS
from pipeline.store import Store

BATCH = 2000
READERS: dict[str, Callable[[str], Hand]] = {"barge": parse_hand}
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


@dataclass(slots=True)
class AuditSummary:
    hands: int = 0
    profile: str | None = None
    findings: list[Finding] = field(default_factory=list)

    @property
    def by_code(self) -> list[tuple[str, str, str, int]]:
        """(code, severity, rule, count), the most severe and most frequent first."""
        counts = Counter((f.code.name, f.severity, f.code.rule or "the game's section")
                         for f in self.findings)
        return sorted(((c, s, r, n) for (c, s, r), n in counts.items()),
                      key=lambda row: (SEVERITY_ORDER[row[1]], -row[3], row[0]))

    @property
    def worst_hands(self) -> list[tuple[str, int, int]]:
        """(hand_id, errors, warnings), the hands with the most errors first."""
        per_hand: dict[str, Counter[str]] = {}
        for f in self.findings:
            per_hand.setdefault(f.hand_id, Counter())[f.severity] += 1
        rows = [(h, c["error"], c["warning"]) for h, c in per_hand.items() if c["error"] or c["warning"]]
        return sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "profile": self.profile or "per hand",
            "errors": self.count("error"), "warnings": self.count("warning"), "infos": self.count("info"),
            "findings": [
                {"hand_id": f.hand_id, "seq": f.seq, "severity": f.severity, "code": f.code.name,
                 "message": f.message, "rule": f.rule} for f in self.findings
            ],
        }


def _tables(batch: list[tuple[str, str, list[Finding]]]) -> tuple[pa.Table, pa.Table]:
    rows = [f.row() for _, _, found in batch for f in found]
    empty: list[tuple[Any, ...]] = [() for _ in SCHEMAS["findings"]]
    columns: list[tuple[Any, ...]] = list(zip(*rows, strict=True)) if rows else empty
    findings = pa.Table.from_arrays(
        [pa.array(list(c), f.type) for c, f in zip(columns, SCHEMAS["findings"], strict=True)],
        schema=SCHEMAS["findings"])
    now = datetime.now()
    audits = pa.Table.from_pydict(
        {"hand_id": [h for h, _, _ in batch], "profile": [p for _, p, _ in batch],
         "findings": [len(found) for _, _, found in batch], "audited_at": [now] * len(batch)},
        schema=SCHEMAS["audits"])
    return findings, audits


def audit(store: Store, profile: str | None = None, pending_only: bool = False,
          variant: str | None = None, event: str | None = None, hand_id: str | None = None,
          progress: Callable[[int, int], None] | None = None) -> AuditSummary:
    """Replay the stored hands matching the filters (all of them by default; with
    `pending_only`, those never audited) and store their findings.

    `profile` overrides each hand's own rules profile; a hand's explicit options still apply.
    """
    todo = store.hands_to_audit(pending_only, variant, event, hand_id)
    summary = AuditSummary(profile=profile)
    for start in range(0, len(todo), BATCH):
        batch: list[tuple[str, str, list[Finding]]] = []
        for hid, fmt, raw_text in todo[start:start + BATCH]:
            try:
                hand = READERS[fmt](raw_text)
            except HandSyntaxError as exc:  # stored by an older grammar that read it differently
                found = [Finding(hid, 0, CODES["REPLAY_STOPPED"], f"the stored text no longer reads: {exc}",
                                 "BARGE 2025")]
                batch.append((hid, profile or DEFAULT_PROFILE, found))
                summary.findings.extend(found)
                continue
            found = replay(hand, profile)
            batch.append((hid, profile or hand.rules_profile or DEFAULT_PROFILE, found))
            summary.findings.extend(found)
        store.write_findings([h for h, _, _ in batch], *_tables(batch))
        summary.hands += len(batch)
        if progress is not None:
            progress(summary.hands, len(todo))
    return summary
