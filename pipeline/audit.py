"""`barge audit`: replay stored hands under the rulebook and store what the replay finds.

Hands are read back from their stored raw text with the reader of their source's format,
replayed (`evaluator.replay`) in batches, and each batch's results replace the hands' earlier
ones in one transaction, so an interrupted audit leaves every hand either audited or not. The
results are the findings, the awards the rules give (`awards` rows with origin "computed") and
each seat's `ending_stack` under those awards.
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
from evaluator.replay import Outcome, replay_hand
from grammar.errors import HandSyntaxError
from pipeline.accounting import recorded_ending_stacks
from pipeline.formats import reader
from pipeline.model import Hand
from pipeline.schema import AMOUNT, COMPUTED, ENDINGS, ENDINGS_SCHEMA, SCHEMAS, amounts
from pipeline.store import Store

BATCH = 2000
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


@dataclass(slots=True)
class _Batch:
    """The rows one batch of audited hands writes."""

    hand_ids: list[str] = field(default_factory=list)
    rows: dict[str, list[tuple[Any, ...]]] = field(
        default_factory=lambda: {"findings": [], "audits": [], "awards": [], ENDINGS: []})

    def add(self, hand_id: str, profile: str, found: list[Finding], hand: Hand | None = None,
            outcome: Outcome | None = None) -> None:
        self.hand_ids.append(hand_id)
        self.rows["findings"].extend(f.row() for f in found)
        self.rows["audits"].append((hand_id, profile, len(found), datetime.now()))
        if hand is None:
            return
        seat_of = {s.player: s.number for s in hand.seats}
        for seq, share in enumerate(outcome.awards if outcome and outcome.awards else (), 1):
            self.rows["awards"].append((hand_id, seq, share.pot, seat_of.get(share.player), share.player,
                                        share.amount, share.portion, COMPUTED, share.hand or None))
        ending = outcome.ending if outcome and outcome.ending else recorded_ending_stacks(hand)
        self.rows[ENDINGS].extend((hand_id, player, stack) for player, stack in ending.items())

    def tables(self) -> dict[str, pa.Table]:
        schemas = {**SCHEMAS, ENDINGS: ENDINGS_SCHEMA}
        tables = {}
        for name, rows in self.rows.items():
            schema = schemas[name]
            columns = list(zip(*rows, strict=True)) if rows else [() for _ in schema]
            tables[name] = pa.Table.from_arrays(
                [amounts(list(c)) if f.type == AMOUNT else pa.array(list(c), f.type)
                 for c, f in zip(columns, schema, strict=True)], schema=schema)
        return tables


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
        batch = _Batch()
        for hid, fmt, raw_text in todo[start:start + BATCH]:
            try:
                hand = reader(fmt)(raw_text)
            except HandSyntaxError as exc:  # stored by an older grammar that read it differently
                found = [Finding(hid, 0, CODES["REPLAY_STOPPED"], f"the stored text no longer reads: {exc}",
                                 "BARGE 2025")]
                batch.add(hid, profile or DEFAULT_PROFILE, found)
                summary.findings.extend(found)
                continue
            outcome = replay_hand(hand, profile)
            batch.add(hid, profile or hand.rules_profile or DEFAULT_PROFILE, outcome.findings, hand, outcome)
            summary.findings.extend(outcome.findings)
        store.write_audit(batch.hand_ids, batch.tables())
        summary.hands += len(batch.hand_ids)
        if progress is not None:
            progress(summary.hands, len(todo))
    return summary
