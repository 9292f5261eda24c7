"""Turns hand models into Arrow record batches for the store, column by column.

`HandBatch` collects the rows of `hands`, `seats`, `actions`, `boards` and `awards` for many
hands and hands them over as Arrow tables, so the store writes whole batches, never rows.
`Rows` keeps, beside such tables, the hand each row belongs to: a worker process builds the
tables of every hand it read, and the writer drops the hands it does not store (duplicates,
clashes) without rebuilding anything.
"""

from __future__ import annotations

from collections import defaultdict
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


class HandBatch:
    def __init__(self) -> None:
        self.columns: dict[str, defaultdict[str, list[Any]]] = {
            name: defaultdict(list) for name in HAND_TABLES
        }
        self.owners: dict[str, list[int]] = {name: [] for name in HAND_TABLES}
        self.hand_ids: list[str] = []

    def __len__(self) -> int:
        return len(self.hand_ids)

    def _row(self, table: str, **values: Any) -> None:
        columns = self.columns[table]
        for key, value in values.items():
            columns[key].append(value)
        self.owners[table].append(len(self.hand_ids) - 1)

    def add(self, hand: Hand, source_id: int, line: int, raw_text: str,
            ending: Mapping[str, int] | None = None) -> None:
        """Add a hand's rows; `ending`: the stacks the rules give (the audit's), which replace the
        recorded ones of those players in `seats.ending_stack`."""
        hid = hand.hand_id
        stakes = hand.stakes
        self.hand_ids.append(hid)
        self._row(
            "hands", hand_id=hid, source_id=source_id, line=line, variant=hand.variant,
            structure=hand.structure, event=hand.event, tournament=hand.tournament,
            site=hand.site, game_type=hand.game_type, currency=hand.currency, unit=unit_of(hand),
            table_name=hand.table_name, max_seats=hand.max_seats, level=hand.level,
            started_at=hand.started_at, button_seat=hand.button_seat,
            players=sum(not s.sitting_out for s in hand.seats),
            rules_profile=hand.rules_profile, rules_options=rules_options_text(hand.rules_options),
            small_blind=stakes.small_blind, big_blind=stakes.big_blind,
            small_bet=stakes.small_bet, big_bet=stakes.big_bet, ante=stakes.ante,
            big_blind_ante=stakes.big_blind_ante, bring_in=stakes.bring_in,
            bomb_pot=stakes.bomb_pot, jam_or_fold=stakes.jam_or_fold, cap=stakes.cap,
            total_pot=hand.total_pot, rake=hand.rake, raw_text=raw_text,
        )
        seat_of = {s.player: s.number for s in hand.seats}
        endings = recorded_ending_stacks(hand)
        if ending:
            endings.update(ending)
        finals = {f.player: f.amount for f in hand.final_stacks}
        for seat in hand.seats:
            self._row(
                "seats", hand_id=hid, seat=seat.number, player=seat.player,
                starting_stack=seat.stack, ending_stack=endings[seat.player],
                final_stack=finals.get(seat.player), sitting_out=seat.sitting_out,
            )
        for seq, a in enumerate(hand.actions, 1):
            self._row(
                "actions", hand_id=hid, seq=seq, street=a.street,
                seat=seat_of.get(a.player) if a.player else None, player=a.player,
                kind=a.kind, amount=a.amount, to_amount=a.to_amount, cards=list(a.cards),
                all_in=a.all_in, detail=a.detail,
            )
        for board, position, card, street, removed in board_rows(hand):
            self._row("boards", hand_id=hid, board=board, position=position, card=card,
                      street=street, removed=removed)
        for seq, award in enumerate(hand.awards, 1):
            self._row(
                "awards", hand_id=hid, seq=seq, pot=award.pot, seat=seat_of.get(award.player),
                player=award.player, amount=award.amount, portion=award.portion, origin=RECORDED,
                hand=None,
            )

    def to_arrow(self) -> dict[str, pa.Table]:
        tables = {}
        for name in HAND_TABLES:
            schema = SCHEMAS[name]
            columns = self.columns[name]
            arrays = [
                amounts(columns[f.name]) if f.type == AMOUNT else pa.array(columns[f.name], f.type)
                for f in schema
            ]
            tables[name] = pa.Table.from_arrays(arrays, schema=schema)
        return tables

    def to_rows(self) -> Rows:
        return Rows(self.to_arrow(), owner_arrays(self.owners))
