"""What the worker processes of ingest and audit do with a chunk of hands.

`read_chunk` parses a chunk of hand blocks (of one file, or of several small files), replays
the hands under the rulebook when asked, and returns everything as Arrow tables
(`pipeline.tables.Rows`) with the rejects and the findings; `audit_chunk` does the same for
hands read back from the store. The process that owns the database only decides what to keep
(duplicates, clashes) and writes: nothing is parsed twice.

Every function here is a top-level function of plain, picklable data, and the module imports no
database, dataframe or dashboard library, so a worker process starts fast under any start method.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import islice
from typing import Any

import pyarrow as pa

from evaluator.equity import Adjustment, all_in_adjusted
from evaluator.findings import CODES, Finding
from evaluator.profiles import DEFAULT_PROFILE
from evaluator.replay import Outcome, replay_hand
from evaluator.sequences import TableHand, check_split
from grammar.errors import HandSyntaxError
from pipeline import hot_path
from pipeline.accounting import recorded_ending_stacks
from pipeline.formats import FORMATS, reader
from pipeline.model import Hand
from pipeline.rebuild import hands_with_endings
from pipeline.schema import COMPUTED, ENDINGS, ENDINGS_SCHEMA, SCHEMAS
from pipeline.sources import Block
from pipeline.tables import HandBatch, Rows, arrow_table, owner_arrays

hot_path.make_picklable()  # findings and their codes go back to the parent process

# The tables an audit writes for its hands; `endings` is not stored but sets `seats.ending_stack`.
AUDIT_ROWS = ("findings", "audits", "awards", ENDINGS, "allin_adjustments")
_AUDIT_SCHEMAS = {**SCHEMAS, ENDINGS: ENDINGS_SCHEMA}


def text_digest(text: str) -> str:
    """Identity of a hand's text: trailing spaces, line endings and blank lines do not count."""
    lines = (line.rstrip() for line in text.splitlines())
    return hashlib.sha1("\n".join(line for line in lines if line).encode()).hexdigest()


def ending_stacks(hand: Hand, outcome: Outcome | None) -> dict[str, int]:
    """The stacks under the rules' awards, or the recorded ones when the pots were not settled."""
    return outcome.ending if outcome and outcome.ending else recorded_ending_stacks(hand)


def adjustment_of(hand: Hand) -> Adjustment | None:
    """The hand's all-in adjustment; None when there is none or it cannot be computed."""
    try:
        return all_in_adjusted(hand)
    except Exception:  # an equity fault must not stop an audit of many hands: the actual net stands
        return None


@dataclass(slots=True)
class AuditRows:
    """The rows the audit of several hands writes, with the hand each row belongs to."""

    hand_ids: list[str] = field(default_factory=list)
    rows: dict[str, list[tuple[Any, ...]]] = field(default_factory=lambda: {n: [] for n in AUDIT_ROWS})
    owners: dict[str, list[int]] = field(default_factory=lambda: {n: [] for n in AUDIT_ROWS})

    def _extend(self, name: str, rows: Sequence[tuple[Any, ...]]) -> None:
        self.rows[name].extend(rows)
        self.owners[name].extend([len(self.hand_ids) - 1] * len(rows))

    def add(self, hand_id: str, profile: str, found: list[Finding], hand: Hand | None = None,
            outcome: Outcome | None = None, adjustment: Adjustment | None = None) -> None:
        self.hand_ids.append(hand_id)
        self._extend("findings", [f.row() for f in found])
        self._extend("audits", [(hand_id, profile, len(found), datetime.now())])
        if hand is None:
            return
        seat_of = {s.player: s.number for s in hand.seats}
        self._extend("awards", [
            (hand_id, seq, share.pot, seat_of.get(share.player), share.player, share.amount, share.portion,
             COMPUTED, share.hand or None)
            for seq, share in enumerate(outcome.awards if outcome and outcome.awards else (), 1)])
        self._extend(ENDINGS, [(hand_id, player, stack)
                               for player, stack in ending_stacks(hand, outcome).items()])
        if adjustment is not None:
            # In chips: the model's hundredths are fractional here, an expectation.
            self._extend("allin_adjustments", [
                (hand_id, player, net / 100, adjustment.street, adjustment.runouts, adjustment.exact)
                for player, net in adjustment.nets])

    def to_rows(self, without: tuple[str, ...] = ()) -> Rows:
        tables = {}
        for name, rows in self.rows.items():
            if name in without:
                continue
            tables[name] = arrow_table(rows, _AUDIT_SCHEMAS[name])
        return Rows(tables, owner_arrays({n: o for n, o in self.owners.items() if n not in without}))


def audit_hand(rows: AuditRows, hand: Hand, rules: str | None) -> Outcome:
    """Replay a hand under its own profile (or `rules`) and add what the audit stores of it."""
    outcome = replay_hand(hand, rules)
    rows.add(hand.hand_id, rules or hand.rules_profile or DEFAULT_PROFILE, outcome.findings, hand, outcome,
             adjustment_of(hand))
    return outcome


# ---- ingest: a chunk of one file's hand blocks ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Span:
    """`blocks` consecutive blocks of a task that come from one file: its format and source."""

    fmt: str
    source_id: int
    blocks: int


@dataclass(frozen=True, slots=True)
class ReadTask:
    """Blocks to parse, in file order, file after file (`spans` says whose they are: many small
    files go in one task, so that a file costs no task, transaction or statement of its own); with
    `audit`, also to replay under `rules`."""

    spans: tuple[Span, ...]
    blocks: tuple[Block, ...]
    audit: bool = False
    rules: str | None = None

    def owners(self) -> Iterator[tuple[Span, Block]]:
        """Each block with the span (file) it belongs to."""
        blocks = iter(self.blocks)
        for span in self.spans:
            for block in islice(blocks, span.blocks):
                yield span, block


@dataclass(frozen=True, slots=True)
class ReadHand:
    """A block that read as a hand: the block's index in the task, and what identifies the hand."""

    block: int
    hand_id: str
    digest: str
    variant: str


@dataclass(frozen=True, slots=True)
class ReadReject:
    """A block that did not read: where (lines of the file) and what was expected."""

    block: int
    line: int
    column: int
    message: str


@dataclass(frozen=True, slots=True)
class ReadResult:
    """`hands` in block order; `tables` (and `audit`, when replayed) hold their rows, owned by the
    hands' positions in `hands`; `findings[i]` are those of `hands[i]`."""

    hands: tuple[ReadHand, ...]
    rejects: tuple[ReadReject, ...]
    tables: Rows
    audit: Rows | None
    findings: tuple[tuple[Finding, ...], ...]


def read_chunk(task: ReadTask) -> ReadResult:
    """Parse (and replay) a chunk of blocks; a block that does not read becomes a reject."""
    batch = HandBatch()
    audit = AuditRows() if task.audit else None
    hands: list[ReadHand] = []
    rejects: list[ReadReject] = []
    findings: list[tuple[Finding, ...]] = []
    for index, (span, block) in enumerate(task.owners()):
        try:
            hand = FORMATS[span.fmt].parse(block.text)
        except HandSyntaxError as exc:
            located = exc.shifted(block.line - 1)
            rejects.append(ReadReject(index, located.line, located.column, located.describe()))
            continue
        if hand.rules_profile is None:
            hand = replace(hand, rules_profile=DEFAULT_PROFILE)
        ending = None
        if audit is not None:
            outcome = audit_hand(audit, hand, task.rules)
            ending = ending_stacks(hand, outcome)
            findings.append(tuple(outcome.findings))
        else:
            findings.append(())
        batch.add(hand, span.source_id, block.line, block.text, ending)
        hands.append(ReadHand(index, hand.hand_id, text_digest(block.text), hand.variant))
    # The audit's ending stacks are already in `seats`: no `endings` rows to send.
    audited = audit.to_rows(without=(ENDINGS,)) if audit is not None else None
    return ReadResult(tuple(hands), tuple(rejects), batch.to_rows(), audited, tuple(findings))


# ---- the checks across hands: a part of the stored hands ----------------------------------------


@dataclass(frozen=True, slots=True)
class SequenceTask:
    """A part of the stored hands (whole tables and tournaments, `pipeline.audit.sequence_parts`) as the
    process owning the database read them (`pipeline.store.hand_tables`), with each hand's format."""

    tables: dict[str, pa.Table]
    formats: dict[str, str]


def check_sequences(task: SequenceTask) -> tuple[list[Finding], list[Finding]]:
    """`evaluator.sequences.check_split` of the part: the findings of each table, and of players at
    two tables."""
    return check_split(TableHand(hand, task.formats[hand.hand_id], endings)
                       for hand, endings in hands_with_endings(task.tables))


# ---- audit: hands read back from the store --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditTask:
    """Stored hands as (hand_id, format, raw_text), to replay under `rules` (None: their own)."""

    stored: tuple[tuple[str, str, str], ...]
    rules: str | None = None


@dataclass(frozen=True, slots=True)
class AuditResult:
    hand_ids: tuple[str, ...]
    tables: dict[str, pa.Table]
    findings: tuple[Finding, ...]


def audit_chunk(task: AuditTask) -> AuditResult:
    """Read stored hands again with their format's reader and replay them."""
    rows = AuditRows()
    findings: list[Finding] = []
    for hand_id, fmt, raw_text in task.stored:
        try:
            hand = reader(fmt)(raw_text)
        except HandSyntaxError as exc:  # stored by an older grammar that read it differently
            found = [Finding(hand_id, 0, CODES["REPLAY_STOPPED"], f"the stored text no longer reads: {exc}",
                             "BARGE 2025")]
            rows.add(hand_id, task.rules or DEFAULT_PROFILE, found)
            findings.extend(found)
            continue
        findings.extend(audit_hand(rows, hand, task.rules).findings)
    return AuditResult(tuple(rows.hand_ids), rows.to_rows().tables, tuple(findings))
