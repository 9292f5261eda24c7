"""Hand models rebuilt from their stored rows.

`pipeline.store.hand_tables` reads a set of hands' rows as Arrow tables; `hands_of_tables` turns
them back into `Hand`s. The two are apart so that a worker process can rebuild the hands the
process owning the database read (the checks across hands, `pipeline.workers.check_sequences`),
without importing a database library.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pyarrow as pa

from pipeline.model import Action, Award, FinalStack, Hand, Seat, Stakes


def _cents(value: Decimal | None) -> int | None:
    return None if value is None else int(value * 100)


def _rows_by_hand(tables: dict[str, pa.Table]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """hand id -> table name -> that hand's rows of `seats`, `actions` and `awards`, in order."""
    by_hand: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for table in ("seats", "actions", "awards"):
        for row in tables[table].to_pylist():
            by_hand.setdefault(row["hand_id"], {}).setdefault(table, []).append(row)
    return by_hand


def hands_of_tables(tables: dict[str, pa.Table]) -> list[Hand]:
    """The hands of `tables` (`pipeline.store.hand_tables`), in the order of its `hands` rows."""
    return [hand for hand, _ in hands_with_endings(tables)]


def hands_with_endings(tables: dict[str, pa.Table]) -> list[tuple[Hand, dict[str, int]]]:
    """The hands of `tables` (`pipeline.store.hand_tables`), in the order of its `hands` rows, each
    with the stacks its players end with as stored (`seats.ending_stack`: the audit's where it
    settled the pots), where there is one."""
    by_hand = _rows_by_hand(tables)
    found = []
    for h in tables["hands"].to_pylist():
        rows = by_hand.get(h["hand_id"], {})
        endings = {s["player"]: stack for s in rows.get("seats", [])
                   if (stack := _cents(s["ending_stack"])) is not None}
        found.append((_hand_model(h, rows), endings))
    return found


def _hand_model(h: dict[str, Any], rows: dict[str, list[dict[str, Any]]]) -> Hand:
    seats, actions, awards = rows.get("seats", []), rows.get("actions", []), rows.get("awards", [])
    options = tuple(
        tuple(item.split("=", 1)) for item in (h["rules_options"] or "").split("; ") if item
    )
    return Hand(
        hand_id=h["hand_id"], variant=h["variant"], structure=h["structure"],
        stakes=Stakes(
            small_blind=_cents(h["small_blind"]), big_blind=_cents(h["big_blind"]),
            small_bet=_cents(h["small_bet"]), big_bet=_cents(h["big_bet"]),
            ante=_cents(h["ante"]), big_blind_ante=_cents(h["big_blind_ante"]),
            bring_in=_cents(h["bring_in"]), bomb_pot=_cents(h["bomb_pot"]),
            jam_or_fold=bool(h["jam_or_fold"]), cap=_cents(h["cap"]),
        ),
        seats=tuple(
            Seat(s["seat"], s["player"], _cents(s["starting_stack"]) or 0, s["sitting_out"])
            for s in seats
        ),
        actions=tuple(
            Action(a["street"], a["kind"], a["player"], _cents(a["amount"]),
                   _cents(a["to_amount"]), tuple(a["cards"] or ()), a["all_in"], a["detail"])
            for a in actions
        ),
        awards=tuple(
            Award(w["player"], _cents(w["amount"]) or 0, w["pot"], w["portion"]) for w in awards
        ),
        started_at=h["started_at"], event=h["event"], tournament=h["tournament"],
        site=h["site"], game_type=h["game_type"], currency=h["currency"],
        level=h["level"], table_name=h["table_name"], max_seats=h["max_seats"],
        button_seat=h["button_seat"], rules_profile=h["rules_profile"],
        rules_options=options,
        total_pot=_cents(h["total_pot"]), rake=_cents(h["rake"]),
        final_stacks=tuple(
            FinalStack(s["seat"], s["player"], _cents(s["final_stack"]) or 0)
            for s in seats if s["final_stack"] is not None
        ),
    )
