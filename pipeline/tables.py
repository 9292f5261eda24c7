"""Turns hand models into Arrow record batches for the store, column by column.

`HandBatch` collects the rows of `hands`, `seats`, `actions`, `boards` and `awards` for many
hands and hands them over as Arrow tables, so the store writes whole batches, never rows.
`Rows` keeps, beside such tables, the hand each row belongs to: a worker process builds the
tables of every hand it read, and the writer drops the hands it does not store (duplicates,
clashes) without rebuilding anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from pipeline.accounting import recorded_ending_stacks
from pipeline.model import Hand
from pipeline.schema import AMOUNT, HAND_TABLES, RECORDED, SCHEMAS, amounts
from pipeline.units import unit_of


def rules_options_text(options: tuple[tuple[str, str], ...]) -> str | None:
    return "; ".join(f"{key}={value}" for key, value in options) or None


def board_rows(hand: Hand) -> list[tuple[str, int, str, str, bool]]:
    """(board, position, card, street, removed) for every community card.

    Positions count within a board across streets.  A board first dealt after the dealer
    runs it twice continues the positions of board "1" as they stood then, because the cards
    before those positions are shared (docs/format.md, "Run-outs").
    """
    removed = {a.detail for a in hand.actions if a.kind == "remove_board"}
    sizes: dict[str, int] = {}
    shared = 0
    rows = []
    for action in hand.actions:
        if action.kind == "run_it":
            shared = sizes.get("1", 0)
        elif action.kind == "board":
            board = action.detail or "1"
            position = sizes.get(board, shared if board != "1" else 0)
            for card in action.cards:
                position += 1
                rows.append((board, position, card, action.street, board in removed))
            sizes[board] = position
    return rows


Owners = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Rows:
    """Arrow tables of several hands, and for each table the index (in the order the hands were
    added) of the hand each row belongs to."""

    tables: dict[str, pa.Table]
    owners: dict[str, Owners]

    def select(self, keep: npt.NDArray[np.bool_]) -> dict[str, pa.Table]:
        """The tables with only the rows of the hands whose `keep` is true."""
        if keep.all():
            return dict(self.tables)
        return {name: table.filter(pa.array(keep[self.owners[name]], pa.bool_()))
                for name, table in self.tables.items()}


def owner_arrays(owners: Mapping[str, list[int]]) -> dict[str, Owners]:
    return {name: np.asarray(rows, dtype=np.int64) for name, rows in owners.items()}


def arrow_table(rows: list[tuple[Any, ...]], schema: pa.Schema) -> pa.Table:
    """Rows (tuples in the schema's column order) as one Arrow table; amounts in hundredths become
    DECIMAL(18, 2)."""
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in schema]
    return pa.Table.from_arrays(
        [amounts(list(c)) if f.type == AMOUNT else pa.array(c, f.type)
         for c, f in zip(columns, schema, strict=True)], schema=schema)


class HandBatch:
    """The stored rows of many hands, each row a tuple in its table's column order
    (`pipeline.schema.SCHEMAS`): a chunk adds tens of thousands of rows, and a tuple is the
    cheapest thing to make per row and to turn into columns at the end."""

    def __init__(self) -> None:
        self.rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in HAND_TABLES}
        self.owners: dict[str, list[int]] = {name: [] for name in HAND_TABLES}
        self.hand_ids: list[str] = []

    def __len__(self) -> int:
        return len(self.hand_ids)

    def _extend(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        self.rows[table].extend(rows)
        self.owners[table].extend([len(self.hand_ids) - 1] * len(rows))

    def add(self, hand: Hand, source_id: int, line: int, raw_text: str,
            ending: Mapping[str, int] | None = None) -> None:
        """Add a hand's rows; `ending`: the stacks the rules give (the audit's), which replace the
        recorded ones of those players in `seats.ending_stack`."""
        hid = hand.hand_id
        stakes = hand.stakes
        self.hand_ids.append(hid)
        self._extend("hands", [(
            hid, source_id, line, hand.variant, hand.structure, hand.event, hand.tournament,
            hand.site, hand.game_type, hand.currency, unit_of(hand), hand.table_name, hand.max_seats,
            hand.level, hand.started_at, hand.button_seat, sum(not s.sitting_out for s in hand.seats),
            hand.rules_profile, rules_options_text(hand.rules_options),
            stakes.small_blind, stakes.big_blind, stakes.small_bet, stakes.big_bet, stakes.ante,
            stakes.big_blind_ante, stakes.bring_in, stakes.bomb_pot, stakes.jam_or_fold, stakes.cap,
            hand.total_pot, hand.rake, raw_text,
        )])
        seat_of = {s.player: s.number for s in hand.seats}
        endings = recorded_ending_stacks(hand)
        if ending:
            endings.update(ending)
        finals = {f.player: f.amount for f in hand.final_stacks}
        self._extend("seats", [
            (hid, seat.number, seat.player, seat.stack, endings[seat.player], finals.get(seat.player),
             seat.sitting_out)
            for seat in hand.seats])
        self._extend("actions", [
            (hid, seq, a.street, seat_of.get(a.player) if a.player else None, a.player, a.kind, a.amount,
             a.to_amount, list(a.cards), a.all_in, a.detail)
            for seq, a in enumerate(hand.actions, 1)])
        self._extend("boards", [(hid, *row) for row in board_rows(hand)])
        self._extend("awards", [
            (hid, seq, award.pot, seat_of.get(award.player), award.player, award.amount, award.portion,
             RECORDED, None)
            for seq, award in enumerate(hand.awards, 1)])

    def to_arrow(self) -> dict[str, pa.Table]:
        return {name: arrow_table(self.rows[name], SCHEMAS[name]) for name in HAND_TABLES}

    def to_rows(self) -> Rows:
        return Rows(self.to_arrow(), owner_arrays(self.owners))
