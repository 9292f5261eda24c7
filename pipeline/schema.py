"""Arrow schemas of the stored tables, and the DuckDB DDL derived from them.

These names and columns are a contract: other tools read them.  Amounts are DECIMAL(18, 2);
docs/format.md ("Stored tables") describes every column.
"""

from __future__ import annotations

import pyarrow as pa

AMOUNT = pa.decimal128(18, 2)
CARDS = pa.list_(pa.string())

SCHEMAS: dict[str, pa.Schema] = {
    "sources": pa.schema([
        ("source_id", pa.int64()), ("path", pa.string()), ("sha256", pa.string()),
        ("format", pa.string()), ("ingested_at", pa.timestamp("us")), ("hands", pa.int64()),
        ("rejects", pa.int64()), ("duplicates", pa.int64()), ("complete", pa.bool_()),
    ]),
    "hands": pa.schema([
        ("hand_id", pa.string()), ("source_id", pa.int64()), ("line", pa.int64()),
        ("variant", pa.string()), ("structure", pa.string()), ("event", pa.string()),
        ("tournament", pa.string()), ("site", pa.string()), ("game_type", pa.string()),
        ("currency", pa.string()), ("unit", pa.string()), ("table_name", pa.string()),
        ("max_seats", pa.int64()),
        ("level", pa.string()), ("started_at", pa.timestamp("us")), ("button_seat", pa.int64()),
        ("players", pa.int64()), ("rules_profile", pa.string()), ("rules_options", pa.string()),
        ("small_blind", AMOUNT), ("big_blind", AMOUNT), ("small_bet", AMOUNT),
        ("big_bet", AMOUNT), ("ante", AMOUNT), ("big_blind_ante", AMOUNT), ("bring_in", AMOUNT),
        ("bomb_pot", AMOUNT), ("jam_or_fold", pa.bool_()), ("cap", AMOUNT), ("total_pot", AMOUNT),
        ("rake", AMOUNT), ("raw_text", pa.string()),
    ]),
    "seats": pa.schema([
        ("hand_id", pa.string()), ("seat", pa.int64()), ("player", pa.string()),
        ("starting_stack", AMOUNT), ("ending_stack", AMOUNT), ("final_stack", AMOUNT),
        ("sitting_out", pa.bool_()),
    ]),
    "actions": pa.schema([
        ("hand_id", pa.string()), ("seq", pa.int64()), ("street", pa.string()),
        ("seat", pa.int64()), ("player", pa.string()), ("kind", pa.string()),
        ("amount", AMOUNT), ("to_amount", AMOUNT), ("cards", CARDS), ("all_in", pa.bool_()),
        ("detail", pa.string()),
    ]),
    "boards": pa.schema([
        ("hand_id", pa.string()), ("board", pa.string()), ("position", pa.int64()),
        ("card", pa.string()), ("street", pa.string()), ("removed", pa.bool_()),
    ]),
    # `origin`: "recorded" (the dealer's pushes, as written) or "computed" (what the rules push,
    # written by the audit with the winning `hand` as the rules read it).
    "awards": pa.schema([
        ("hand_id", pa.string()), ("seq", pa.int64()), ("pot", pa.int64()), ("seat", pa.int64()),
        ("player", pa.string()), ("amount", AMOUNT), ("portion", pa.string()), ("origin", pa.string()),
        ("hand", pa.string()),
    ]),
    "rejects": pa.schema([
        ("source_id", pa.int64()), ("line", pa.int64()), ("column", pa.int64()),
        ("error", pa.string()), ("raw_text", pa.string()), ("hand_line", pa.int64()),
    ]),
    # Written by `barge audit` (evaluator.replay): what the replay found, and which hands were
    # replayed under which profile (a hand with no findings has an `audits` row only).
    "findings": pa.schema([
        ("hand_id", pa.string()), ("seq", pa.int64()), ("severity", pa.string()),
        ("code", pa.string()), ("message", pa.string()), ("rule", pa.string()),
    ]),
    "audits": pa.schema([
        ("hand_id", pa.string()), ("profile", pa.string()), ("findings", pa.int64()),
        ("audited_at", pa.timestamp("us")),
    ]),
    # Also written by the audit, which has the parsed hand at hand: each contender's all-in
    # adjusted result (evaluator.equity.all_in_adjusted) in chips, fractional because it is an
    # expectation; the street of the last betting action and how many run-outs were dealt
    # (`exact`: all of them, else a sample).
    "allin_adjustments": pa.schema([
        ("hand_id", pa.string()), ("player", pa.string()), ("adjusted_net", pa.float64()),
        ("street", pa.string()), ("runouts", pa.int64()), ("exact", pa.bool_()),
    ]),
}  # fmt: skip

HAND_TABLES = ("hands", "seats", "actions", "boards", "awards")
RECORDED, COMPUTED = "recorded", "computed"  # the two origins of an award row
AUDIT_TABLES = ("findings", "audits", "allin_adjustments")
# Derived from the tables above by `pipeline.stats.refresh_facts`; dropped for a hand when it changes.
FACTS_TABLE = "player_facts"
TOTALS_TABLE = "hand_totals"  # derived the same way: per hand, the chips in the pot and the showdown
# One row: how many hands there were, an xor of their ids' hashes and how many rows of facts and
# totals there were when they were last made for all of them, so that the statistics can tell
# they are current without a join over every hand. The store drops it with any hand's facts.
FACTS_STATE = "player_facts_state"


# Not a stored table: the ending stacks an audit sets in `seats` (the rules' awards, or the
# recorded ones when the pots could not be settled).
ENDINGS = "endings"
ENDINGS_SCHEMA = pa.schema([("hand_id", pa.string()), ("player", pa.string()), ("ending_stack", AMOUNT)])


def sql_type(kind: pa.DataType) -> str:
    if pa.types.is_decimal(kind):
        return f"DECIMAL({kind.precision}, {kind.scale})"
    if pa.types.is_list(kind):
        return sql_type(kind.value_type) + "[]"
    simple = {pa.int64(): "BIGINT", pa.string(): "VARCHAR", pa.bool_(): "BOOLEAN",
              pa.timestamp("us"): "TIMESTAMP", pa.float64(): "DOUBLE"}
    return simple[kind]


def create_table_sql(name: str) -> str:
    columns = ", ".join(f'"{f.name}" {sql_type(f.type)}' for f in SCHEMAS[name])
    return f"CREATE TABLE IF NOT EXISTS {name} ({columns})"


def amounts(values: list[int | None]) -> pa.Array:
    """Hundredths (the model's ints) as DECIMAL(18, 2) without a round trip through Decimal."""
    return pa.array(values, pa.int64()).cast(pa.decimal128(19, 0)).view(AMOUNT)
