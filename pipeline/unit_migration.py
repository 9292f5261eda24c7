"""Fills the unit columns of `hands` (site, game_type, currency, unit) in a database written
before they existed, by reading each stored hand's text again with its format's reader: the same
code that fills them on ingest, so an old hand gets what a new ingest of its file would give.

A stored text that no longer reads (a reader grown stricter since) keeps what its row says: a
tournament when it has a tournament number, else a cash game, with no site nor currency.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from grammar.errors import HandSyntaxError
from pipeline.formats import FORMATS
from pipeline.units import hand_unit, unit_of

COLUMNS = ("hand_id", "site", "game_type", "currency", "unit")
BATCH = 2000  # hands read back per query: their texts, not every hand's, are held at once


def fill_units(con: duckdb.DuckDBPyConnection) -> int:
    """Set the unit columns of every hand whose `unit` is NULL; return how many were set."""
    rows = con.execute("SELECT h.rowid FROM hands h WHERE h.unit IS NULL ORDER BY h.rowid").fetchall()
    rowids = [int(r[0]) for r in rows]
    for start in range(0, len(rowids), BATCH):
        chunk = rowids[start:start + BATCH]
        stored = con.execute(
            "SELECT h.hand_id, s.format, h.raw_text, h.tournament, h.event FROM hands h "
            "JOIN sources s USING (source_id) "
            "WHERE h.rowid BETWEEN ? AND ? AND h.rowid IN (SELECT unnest(?))",
            [chunk[0], chunk[-1], chunk]).fetchall()
        columns: dict[str, list[str | None]] = {k: [] for k in COLUMNS}
        for hand_id, fmt, text, tournament, event in stored:
            values = _read_units(fmt, text, tournament, event)
            for key, value in zip(columns, (hand_id, *values), strict=True):
                columns[key].append(value)
        con.register("incoming_units", pa.table({k: pa.array(v, pa.string()) for k, v in columns.items()}))
        try:
            con.execute("UPDATE hands SET site = u.site, game_type = u.game_type, currency = u.currency, "
                        "unit = u.unit FROM incoming_units u WHERE hands.hand_id = u.hand_id").fetchall()
        finally:
            con.unregister("incoming_units")
    return len(rowids)


def _read_units(fmt: str, text: str, tournament: str | None,
                event: str | None) -> tuple[str | None, str | None, str | None, str]:
    """(site, game_type, currency, unit) of one stored hand."""
    reader = FORMATS.get(fmt)
    if reader is not None:
        try:
            hand = reader.parse(text)
        except (HandSyntaxError, ValueError):
            pass
        else:
            return hand.site, hand.game_type, hand.currency, unit_of(hand)
    game_type = "tournament" if tournament is not None else "cash"
    return None, game_type, None, hand_unit(game_type, None, tournament, event, None)
