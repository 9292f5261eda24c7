"""Per-player statistics over the stored hands: VPIP, PFR, 3-bet, c-bet, aggression, showdown
and winnings, filterable by event, variant, structure, table, player, date, site, game type,
currency and unit.

A player is a name at one site (the same name at two sites is two players), and no figure adds
amounts of two units (docs/format.md, "Units"): every row of the statistics is one player's in
one unit, which the row names.

One DuckDB query (`FACTS_SQL`) turns the stored actions into one row per player per hand: what
the player had the chance to do on the first betting round and the next one, and what they did
(the first round is the catalog's first street: pre-flop, 3rd street in stud, pre-draw). Polars
sums those rows per player (and per variant or position in `stats_by`). The all-in adjusted
result is read from the `allin_adjustments` table, which the audit fills with
:func:`evaluator.equity.all_in_adjusted` while it has each hand parsed. Every definition, and
which PokerTracker / fpdb statistic it follows, is in docs/stats.md.

Every value the user chooses reaches the database as a query parameter.

>>> Filters(variant="razz").variant
'razz'
>>> stat_columns()[:4]
['site', 'player', 'unit', 'hands']
"""

from __future__ import annotations

import datetime
from dataclasses import asdict, dataclass
from typing import Any

import duckdb
import polars as pl

from evaluator.catalog import ALL_GAMES
from evaluator.equity import hand_streets
from pipeline.schema import COMPUTED, FACTS_STATE, FACTS_TABLE, RECORDED, TOTALS_TABLE


@dataclass(frozen=True, slots=True)
class Filters:
    """Which hands count: each field left None does not filter. Dates are the hand's local date
    (`hands.started_at`), both ends included; hands without a date are left out by a date filter."""

    event: str | None = None
    variant: str | None = None
    structure: str | None = None
    table: str | None = None
    player: str | None = None
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    site: str | None = None
    game_type: str | None = None
    currency: str | None = None
    unit: str | None = None
    stakes: float | None = None  # the hand's big blind, or its big bet in limit (`STAKES_SQL`)


NO_FILTERS = Filters()
GROUPINGS = ("variant", "position", "stakes")
PLAYER = ["site", "player", "unit"]  # a player is a name at a site; their figures are per unit
NO_BUTTON = "no button"  # the position of every player in games without a button (stud)


# ---- the first and second betting rounds of every game ------------------------------------------


def _rounds() -> dict[str, list[str | None]]:
    """Game key -> first and second betting street. The key is the variant id, and for Paradise
    Road Pick'em also "paradise_road_pickem:<chosen game>", whose streets follow the choice."""
    keys: list[str | None] = []
    first: list[str | None] = []
    second: list[str | None] = []
    for game in ALL_GAMES.values():
        choices: list[str | None] = [None, *(name for name, _ in game.choices)]
        for chosen in choices:
            betting = [s.name for s in hand_streets(game.id, chosen) if s.bet is not None]
            keys.append(game.id if chosen is None else f"{game.id}:{chosen}")
            first.append(betting[0])
            second.append(betting[1] if len(betting) > 1 else None)
    return {"game_keys": keys, "first_streets": first, "second_streets": second}


ROUNDS = _rounds()

# The award rows that count: those the audit computed where the hand has them, else the dealer's
# pushes (a database from before the audit computed awards has only those).
_WON_BY_ORIGIN = f"""
    SELECT hand_id, seq, pot, seat, player, amount, portion, {{hand}} AS hand, origin FROM awards a
    WHERE origin = '{COMPUTED}' OR NOT EXISTS (
        SELECT 1 FROM awards c WHERE c.hand_id = a.hand_id AND c.origin = '{COMPUTED}')"""
_WON_RECORDED_ONLY = f"""
    SELECT hand_id, seq, pot, seat, player, amount, portion, NULL::VARCHAR AS hand,
           '{RECORDED}' AS origin FROM awards"""

# The all-in adjusted results the audit stored; a database written before they were stored, or
# never audited, has none, and every hand counts its actual net.
_ADJUSTED = """
    SELECT a.hand_id, a.player, a.adjusted_net FROM allin_adjustments a JOIN picked USING (hand_id)"""
_NOT_ADJUSTED = """
    SELECT NULL::VARCHAR AS hand_id, NULL::VARCHAR AS player, NULL::DOUBLE AS adjusted_net WHERE false"""

# The hand's stakes: the big blind, the big bet in limit (the bring-in where neither is given); what
# bb/100 divides by and what the stakes filter (`Filters.stakes`) compares.
STAKES_SQL = """CASE WHEN h.structure = 'limit' THEN coalesce(h.big_bet, h.big_blind)
                     ELSE coalesce(h.big_blind, h.big_bet, h.bring_in) END"""

FACTS_SQL = """
WITH
games AS (
    SELECT unnest($game_keys) AS game_key, unnest($first_streets) AS first_street,
           unnest($second_streets) AS second_street
),
choices AS (
    SELECT hand_id, min(detail) AS chosen FROM actions WHERE kind = 'choose' GROUP BY hand_id
),
picked AS (
    SELECT h.hand_id, h.source_id, h.line, h.variant, h.structure, h.event, h.table_name,
           h.started_at, h.button_seat, g.first_street, g.second_street, h.site, h.game_type,
           h.currency, h.unit,
           CAST({stakes} AS DOUBLE) AS big
    FROM hands h
    LEFT JOIN choices c USING (hand_id)
    LEFT JOIN games g ON g.game_key = h.variant || coalesce(':' || c.chosen, '')
    WHERE ($event IS NULL OR h.event = $event)
      AND ($variant IS NULL OR h.variant = $variant)
      AND ($structure IS NULL OR h.structure = $structure)
      AND ($table IS NULL OR h.table_name = $table)
      AND ($date_from IS NULL OR CAST(h.started_at AS DATE) >= CAST($date_from AS DATE))
      AND ($date_to IS NULL OR CAST(h.started_at AS DATE) <= CAST($date_to AS DATE))
      AND ($site IS NULL OR h.site = $site)
      AND ($game_type IS NULL OR h.game_type = $game_type)
      AND ($currency IS NULL OR h.currency = $currency)
      AND ($unit IS NULL OR h.unit = $unit)
      AND ($stakes IS NULL OR {stakes} = $stakes)
      {scope}
),
dealt AS (  -- everyone dealt in, with the position counted clockwise from the button
    SELECT s.hand_id, s.seat, s.player,
           CAST(s.ending_stack - s.starting_stack AS DOUBLE) AS net,
           row_number() OVER (PARTITION BY s.hand_id
                              ORDER BY ((s.seat - p.button_seat - 1) % 1000 + 1000) % 1000) AS idx,
           count(*) OVER (PARTITION BY s.hand_id) AS n,
           p.button_seat IS NULL AS no_button
    FROM seats s JOIN picked p USING (hand_id)
    WHERE NOT coalesce(s.sitting_out, false)
),
acts AS (  -- the voluntary betting actions
    SELECT a.hand_id, a.seq, a.street, a.player, a.kind,
           a.kind IN ('bet', 'raise', 'complete') AS aggressive,
           coalesce(a.street = p.first_street, false) AS first_round,
           coalesce(a.street = p.second_street, false) AS second_round
    FROM actions a JOIN picked p USING (hand_id)
    WHERE a.player IS NOT NULL AND a.kind IN ('bet', 'raise', 'complete', 'call', 'check', 'fold')
),
ordered AS (  -- each action with the betting it faced on its street
    SELECT *,
           coalesce(sum(CAST(aggressive AS INTEGER)) OVER earlier, 0) AS level,
           last_value(CASE WHEN aggressive THEN player END IGNORE NULLS) OVER earlier AS last_aggressor,
           first_value(CASE WHEN aggressive THEN player END IGNORE NULLS) OVER earlier AS opener
    FROM acts
    WINDOW earlier AS (PARTITION BY hand_id, street ORDER BY seq
                       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
),
first_round AS (
    SELECT hand_id, player,
           bool_or(kind IN ('call', 'bet', 'raise', 'complete')) AS vpip,
           bool_or(aggressive) AS pfr,
           bool_or(level = 1 AND last_aggressor <> player) AS three_bet_opp,
           bool_or(level = 1 AND last_aggressor <> player AND aggressive) AS three_bet,
           bool_or(level = 2 AND opener = player) AS f3b_opp,
           bool_or(level = 2 AND opener = player AND kind = 'fold') AS f3b,
           bool_or(kind = 'fold') AS folded_first
    FROM ordered WHERE first_round GROUP BY ALL
),
aggressor AS (  -- the last to bet or raise on the first round
    SELECT hand_id, arg_max(player, seq) AS player FROM ordered
    WHERE first_round AND aggressive GROUP BY hand_id
),
cbets AS (  -- the aggressor's first action on the next round, when nobody had bet before it
    SELECT o.hand_id, o.player, o.aggressive AS cbet
    FROM ordered o JOIN aggressor g ON g.hand_id = o.hand_id AND g.player = o.player
    WHERE o.second_round AND o.level = 0
    QUALIFY row_number() OVER (PARTITION BY o.hand_id ORDER BY o.seq) = 1
),
facing_cbet AS (
    SELECT o.hand_id, o.player, bool_or(o.kind = 'fold') AS fcb
    FROM ordered o JOIN cbets c ON c.hand_id = o.hand_id AND c.cbet
    WHERE o.second_round AND o.level = 1 AND o.player <> c.player
    GROUP BY ALL
),
later AS (  -- after the first round
    SELECT hand_id, player,
           count(*) FILTER (WHERE aggressive) AS aggr,
           count(*) FILTER (WHERE kind = 'call') AS calls,
           count(*) FILTER (WHERE kind = 'fold') AS later_folds
    FROM ordered WHERE NOT first_round GROUP BY ALL
),
folders AS (
    SELECT DISTINCT hand_id, player FROM acts WHERE kind = 'fold'
),
stayed AS (  -- players who never folded, per hand
    SELECT d.hand_id, count(*) AS n FROM dealt d ANTI JOIN folders f USING (hand_id, player)
    GROUP BY d.hand_id
),
reached AS (  -- hands dealt to their second betting round
    SELECT DISTINCT a.hand_id FROM actions a JOIN picked p USING (hand_id)
    WHERE a.street = p.second_street
),
won AS (SELECT w.hand_id, w.player, sum(w.amount) AS collected
         FROM ({awards}) w JOIN picked USING (hand_id) GROUP BY ALL),
adjusted AS ({adjusted})
SELECT d.hand_id, d.player, p.started_at, p.source_id, p.line, p.variant, p.structure, p.event,
       p.table_name, p.site, p.game_type, p.currency, p.unit,
       CASE WHEN d.no_button THEN NULL
            WHEN d.n = 2 THEN CASE WHEN d.idx = 2 THEN 'BTN' ELSE 'BB' END
            WHEN d.idx = d.n THEN 'BTN' WHEN d.idx = 1 THEN 'SB' WHEN d.idx = 2 THEN 'BB'
            WHEN d.idx = d.n - 1 THEN 'CO' WHEN d.idx = d.n - 2 THEN 'HJ' WHEN d.idx = 3 THEN 'UTG'
            WHEN d.idx = d.n - 3 THEN 'LJ' ELSE 'UTG+' || CAST(d.idx - 3 AS VARCHAR) END AS position,
       d.net,
       CASE WHEN p.big > 0 THEN d.net / p.big END AS net_bb,
       f.hand_id IS NOT NULL AS vpip_opp,
       coalesce(f.vpip, false) AS vpip,
       coalesce(f.pfr, false) AS pfr,
       coalesce(f.three_bet_opp, false) AS three_bet_opp,
       coalesce(f.three_bet, false) AS three_bet,
       coalesce(f.f3b_opp, false) AS f3b_opp,
       coalesce(f.f3b, false) AS f3b,
       c.hand_id IS NOT NULL AS cbet_opp,
       coalesce(c.cbet, false) AS cbet,
       fc.hand_id IS NOT NULL AS fcb_opp,
       coalesce(fc.fcb, false) AS fcb,
       coalesce(l.aggr, 0) AS aggr,
       coalesce(l.calls, 0) AS calls,
       coalesce(l.later_folds, 0) AS later_folds,
       r.hand_id IS NOT NULL AND NOT coalesce(f.folded_first, false) AS saw_second,
       x.hand_id IS NULL AND coalesce(st.n, 0) >= 2 AS went_sd,
       coalesce(w.collected, 0) > 0 AS won,
       adj.adjusted_net IS NOT NULL AS allin_adjusted,
       coalesce(adj.adjusted_net, d.net) AS allin_adjusted_net
FROM dealt d
JOIN picked p USING (hand_id)
LEFT JOIN first_round f USING (hand_id, player)
LEFT JOIN cbets c USING (hand_id, player)
LEFT JOIN facing_cbet fc USING (hand_id, player)
LEFT JOIN later l USING (hand_id, player)
LEFT JOIN folders x USING (hand_id, player)
LEFT JOIN stayed st USING (hand_id)
LEFT JOIN reached r USING (hand_id)
LEFT JOIN won w USING (hand_id, player)
LEFT JOIN adjusted adj USING (hand_id, player)
WHERE $player IS NULL OR d.player = $player
"""

# ---- queries ------------------------------------------------------------------------------------


def _params(filters: Filters) -> dict[str, Any]:
    return {**asdict(filters), **ROUNDS}


def won_sql(con: duckdb.DuckDBPyConnection) -> str:
    """The SQL of the award rows the statistics and the dashboard count: computed where the hand
    has them, else recorded (`hand` is the winning hand as the rules read it, where known)."""
    rows = con.execute("SELECT column_name FROM duckdb_columns() WHERE table_name = 'awards'").fetchall()
    have = {r[0] for r in rows}
    if "origin" not in have:
        return _WON_RECORDED_ONLY
    return _WON_BY_ORIGIN.format(hand="hand" if "hand" in have else "NULL::VARCHAR")


_RELATIONS = "SELECT table_name FROM duckdb_tables() UNION ALL SELECT view_name FROM duckdb_views()"


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Whether the database has this table (one written before it existed has not), or a view of
    that name (a Parquet dataset's, `pipeline.dataset`)."""
    rows = con.execute(f"SELECT count(*) FROM ({_RELATIONS}) WHERE table_name = ?", [name]).fetchall()
    return bool(rows[0][0])


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any]) -> pl.DataFrame:
    table = con.sql(sql, params=params).to_arrow_table()
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame


def _facts_sql(con: duckdb.DuckDBPyConnection, scope: str = "") -> str:
    return (FACTS_SQL.replace("{awards}", won_sql(con))
            .replace("{adjusted}", _ADJUSTED if _has_table(con, "allin_adjustments") else _NOT_ADJUSTED)
            .replace("{scope}", scope).replace("{stakes}", STAKES_SQL))


# Hands the stored facts do not cover yet: new ones, and those whose facts a re-audit dropped.
_MISSING = f"AND h.hand_id NOT IN (SELECT hand_id FROM {FACTS_TABLE})"
_HANDS_PRINT = f"""SELECT count(*) AS hands, bit_xor(hash(hand_id)) AS print,
                          (SELECT count(*) FROM {FACTS_TABLE}) AS facts,
                          (SELECT count(*) FROM {TOTALS_TABLE}) AS totals FROM hands"""
_STORED_SQL = f"""
SELECT f.* FROM {FACTS_TABLE} f
WHERE ($event IS NULL OR f.event = $event)
  AND ($variant IS NULL OR f.variant = $variant)
  AND ($structure IS NULL OR f.structure = $structure)
  AND ($table IS NULL OR f.table_name = $table)
  AND ($date_from IS NULL OR CAST(f.started_at AS DATE) >= CAST($date_from AS DATE))
  AND ($date_to IS NULL OR CAST(f.started_at AS DATE) <= CAST($date_to AS DATE))
  AND ($player IS NULL OR f.player = $player)
  AND ($site IS NULL OR f.site = $site)
  AND ($game_type IS NULL OR f.game_type = $game_type)
  AND ($currency IS NULL OR f.currency = $currency)
  AND ($unit IS NULL OR f.unit = $unit)
  AND ($stakes IS NULL OR f.hand_id IN (SELECT hand_id FROM hands h WHERE {STAKES_SQL} = $stakes))
"""


def refresh_facts(con: duckdb.DuckDBPyConnection) -> int:
    """Store the facts of every hand that has none yet (`player_facts`), so that the statistics
    and the dashboard read them instead of deriving them from the actions on every call; return
    how many rows were added. Ingest and the audit call it when they have written; the store
    drops a hand's rows when the hand is replaced or audited again."""
    if not _has_table(con, "hands"):
        return 0
    params = _params(NO_FILTERS)
    if not _has_table(con, FACTS_TABLE):
        added = con.execute(f"CREATE TABLE {FACTS_TABLE} AS {_facts_sql(con)}", params).fetchall()
    else:
        added = con.execute(f"INSERT INTO {FACTS_TABLE} {_facts_sql(con, _MISSING)}", params).fetchall()
    if not _has_table(con, TOTALS_TABLE):
        con.execute(f"CREATE TABLE {TOTALS_TABLE} AS {totals_sql(con)}")
    else:
        con.execute(f"INSERT INTO {TOTALS_TABLE} SELECT * FROM ({totals_sql(con)}) "
                    f"WHERE hand_id NOT IN (SELECT hand_id FROM {TOTALS_TABLE})")
    con.execute(f"CREATE OR REPLACE TABLE {FACTS_STATE} AS {_HANDS_PRINT}")
    return int(added[0][0]) if added else 0


def totals_sql(con: duckdb.DuckDBPyConnection) -> str:
    """Per hand: the chips in the pot (the awards, computed where the audit made them, plus the
    rake; the summary's total when nothing was awarded; in the hand's `hands.unit`) and whether it
    reached a showdown (a SHOWDOWN street, or someone showed)."""
    return f"""
        WITH by_hand AS (SELECT hand_id, sum(amount) AS awarded FROM ({won_sql(con)}) GROUP BY hand_id),
        showdown AS (SELECT DISTINCT hand_id FROM actions WHERE street = 'showdown' OR kind = 'show')
        SELECT h.hand_id, coalesce(w.awarded + coalesce(h.rake, 0), h.total_pot)::DOUBLE AS pot,
               s.hand_id IS NOT NULL AS showdown
        FROM hands h LEFT JOIN by_hand w USING (hand_id) LEFT JOIN showdown s USING (hand_id)"""


def hand_totals(con: duckdb.DuckDBPyConnection) -> str:
    """The SQL of `totals_sql`'s rows: the stored ones when they are current, else derived."""
    return f"SELECT * FROM {TOTALS_TABLE}" if _print_matches(con) else totals_sql(con)


def _print_matches(con: duckdb.DuckDBPyConnection) -> bool:
    """The facts and totals were made for exactly the hands there are now, and none has gone since
    (a scan of the hand ids and three counts, not a join)."""
    derived = con.execute(f"SELECT count(*) FROM ({_RELATIONS}) WHERE table_name IN (?, ?, ?)",
                          [FACTS_STATE, FACTS_TABLE, TOTALS_TABLE]).fetchall()
    if derived[0][0] < 3:
        return False
    same = con.execute(f"SELECT s.hands = p.hands AND s.print = p.print AND s.facts = p.facts "
                       f"AND s.totals = p.totals FROM {FACTS_STATE} s, ({_HANDS_PRINT}) p").fetchall()
    return bool(same) and bool(same[0][0])


def _facts_current(con: duckdb.DuckDBPyConnection) -> bool:
    if _print_matches(con):
        return True
    if not _has_table(con, FACTS_TABLE):
        return False
    missing = con.execute(f"SELECT count(*) FROM hands h WHERE true {_MISSING}").fetchall()
    return bool(missing) and missing[0][0] == 0


def hand_facts(con: duckdb.DuckDBPyConnection, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """One row per player per selected hand: the flags and counts the statistics add up, the
    net result and the all-in adjusted one (`allin_adjusted_net`, the net where not adjusted).

    Read from the stored facts when they cover every hand; derived from the actions otherwise (a
    database written before they were stored, read-only)."""
    frame = _frame(con, *_facts_source(con, filters))
    return frame.with_columns(pl.col("position").fill_null(NO_BUTTON))


class UnitsMissing(RuntimeError):
    """The database predates the hands' units and was only opened for reading since."""


def _facts_source(con: duckdb.DuckDBPyConnection, filters: Filters) -> tuple[str, dict[str, Any]]:
    """The SQL of the selected hands' facts (stored when current, else derived) and its parameters."""
    have = con.execute("SELECT count(*) FROM duckdb_columns() WHERE table_name = 'hands' "
                       "AND column_name = 'unit'").fetchall()
    if _has_table(con, "hands") and not have[0][0]:
        raise UnitsMissing("the database was written before hands had units (docs/format.md, \"Units\"); "
                           "open it for writing once (`barge audit --db ...`) to add them")
    if _facts_current(con):
        return _STORED_SQL, asdict(filters)
    return _facts_sql(con), _params(filters)


# ---- statistics ---------------------------------------------------------------------------------


def _pct(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """100 * numerator / denominator, None when the denominator is 0."""
    return pl.when(denominator > 0).then(100.0 * numerator / denominator).otherwise(None)


def _ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    return pl.when(denominator > 0).then(numerator / denominator).otherwise(None)


# What the statistics add up over a player's hands, as DuckDB aggregates of the facts (one row per
# player per hand): counts of flags and sums. Only these sums leave the database, one row per
# group, so a leaderboard over millions of hands reads a few dozen rows.
_SUMS = {
    "hands": "count(*)",
    **{flag: f"count_if({flag})::BIGINT" for flag in (
        "vpip", "vpip_opp", "pfr", "three_bet", "three_bet_opp", "f3b", "f3b_opp", "cbet", "cbet_opp", "fcb",
        "fcb_opp", "saw_second", "went_sd", "allin_adjusted")},
    "sd_after_second": "count_if(went_sd AND saw_second)::BIGINT",
    "won_sd": "count_if(won AND went_sd)::BIGINT",
    "no_sd": "count_if(saw_second AND NOT went_sd)::BIGINT",
    "won_no_sd": "count_if(saw_second AND NOT went_sd AND won)::BIGINT",
    "won_after_second": "count_if(won AND saw_second)::BIGINT",
    **{total: f"coalesce(sum({total}), 0)::BIGINT" for total in ("aggr", "calls", "later_folds")},
    # Sums that do not depend on the order of the rows, so that the same hands give the same
    # figures however they are stored (a `.duckdb` file, a Parquet dataset): the net in exact
    # cents, the fractional ones compensated (Kahan-Babuska).
    "net": "sum(net::DECIMAL(38, 2))::DOUBLE",
    "net_bb": "fsum(net_bb)::DOUBLE",
    "bb_hands": "count(net_bb)",
    "allin_adjusted_net": "fsum(allin_adjusted_net)::DOUBLE",
}


def _stat_exprs() -> list[pl.Expr]:
    """The statistics from the sums of `_SUMS`."""
    c = pl.col
    aggr, calls, folds = c("aggr"), c("calls"), c("later_folds")
    return [
        c("hands").cast(pl.Int64),
        _pct(c("vpip"), c("vpip_opp")).alias("vpip"),
        _pct(c("pfr"), c("vpip_opp")).alias("pfr"),
        _pct(c("three_bet"), c("three_bet_opp")).alias("three_bet"),
        _pct(c("f3b"), c("f3b_opp")).alias("fold_to_three_bet"),
        _pct(c("cbet"), c("cbet_opp")).alias("cbet"),
        _pct(c("fcb"), c("fcb_opp")).alias("fold_to_cbet"),
        _ratio(aggr.cast(pl.Float64), calls).alias("af"),
        _pct(aggr, aggr + calls + folds).alias("afq"),
        _pct(c("sd_after_second"), c("saw_second")).alias("wtsd"),
        _pct(c("won_sd"), c("went_sd")).alias("wsd"),
        _pct(c("won_no_sd"), c("no_sd")).alias("wwsd"),
        _pct(c("won_after_second"), c("saw_second")).alias("wwsf"),
        c("net"),
        _ratio(100.0 * c("net_bb"), c("bb_hands")).alias("net_bb_per_100"),
        c("allin_adjusted_net"),
        c("allin_adjusted").cast(pl.Int64).alias("allin_adjusted_hands"),
    ]


_SCHEMA: dict[str, type[pl.DataType]] = {
    "site": pl.String, "player": pl.String, "unit": pl.String, "hands": pl.Int64,
    "vpip": pl.Float64, "pfr": pl.Float64,
    "three_bet": pl.Float64, "fold_to_three_bet": pl.Float64, "cbet": pl.Float64,
    "fold_to_cbet": pl.Float64, "af": pl.Float64, "afq": pl.Float64, "wtsd": pl.Float64,
    "wsd": pl.Float64, "wwsd": pl.Float64, "wwsf": pl.Float64, "net": pl.Float64,
    "net_bb_per_100": pl.Float64, "allin_adjusted_net": pl.Float64, "allin_adjusted_hands": pl.Int64,
}  # fmt: skip


def stat_columns() -> list[str]:
    """The columns of `player_stats`, in order."""
    return list(_SCHEMA)


def _aggregate(con: duckdb.DuckDBPyConnection, filters: Filters, keys: list[str]) -> pl.DataFrame:
    """The statistics per group of `keys` (columns of the facts) over the selected hands."""
    sql, params = _facts_source(con, filters)
    if "stakes" in keys:  # the facts do not keep the stakes: the hand has them
        sql = (f"SELECT f.*, CAST({STAKES_SQL} AS DOUBLE) AS stakes "
               f"FROM ({sql}) f JOIN hands h USING (hand_id)")
    group = ", ".join(f"coalesce({k}, '{NO_BUTTON}') AS {k}" if k == "position" else k for k in keys)
    sums = ", ".join(f"{expr} AS {name}" for name, expr in _SUMS.items())
    summed = _frame(con, f"SELECT {group}, {sums} FROM ({sql}) f GROUP BY ALL", params)
    columns = [*keys, *(c for c in _SCHEMA if c not in keys)]
    return summed.select(*keys, *_stat_exprs()).select(columns).cast(
        {c: t for c, t in _SCHEMA.items() if c in columns})


def player_stats(con: duckdb.DuckDBPyConnection, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """One row per player (site and name) and unit of the selected hands: the statistics of
    docs/stats.md. Percentages are 0..100, None where the player never had the chance; most hands
    first."""
    stats = _aggregate(con, filters, PLAYER)
    return stats.sort(["hands", *PLAYER], descending=[True, False, False, False], nulls_last=True)


def stats_by(con: duckdb.DuckDBPyConnection, filters: Filters, by: str) -> pl.DataFrame:
    """The statistics of `player_stats` per group, player and unit: one row per (`by`, site,
    player, unit), `by` being "variant", "position" (BTN, SB, BB, UTG, UTG+n, LJ, HJ, CO; "no
    button" in stud) or "stakes" (`STAKES_SQL`: what bb/100 divides by; None where a hand has none)."""
    if by not in GROUPINGS:
        raise ValueError(f"statistics can be grouped by {' or '.join(GROUPINGS)}, not {by!r}")
    stats = _aggregate(con, filters, [by, *PLAYER])
    return stats.sort([by, "hands", *PLAYER], descending=[False, True, False, False, False],
                      nulls_last=True)


_PLAYED_ORDER = "started_at NULLS LAST, source_id, line"  # date, then file order


def player_hands(con: duckdb.DuckDBPyConnection, filters: Filters = NO_FILTERS,
                 points: int | None = None) -> pl.DataFrame:
    """One row per (player, hand), in the order the hands were played (date, then file order),
    with the running totals of each player (site and name) in each unit: `cum_net`,
    `cum_allin_adjusted_net`, `cum_net_bb`, the hand's number in that sequence (`hand_number`)
    and its number of hands (a player with hands in two units has two sequences, never one sum).

    With `points`, about that many rows per player, for a chart: every k-th hand of each player
    and the last (k = hands / points, rounded up), the running totals still counting every hand."""
    sql, params = _facts_source(con, filters)
    # Only the columns shown leave the database; the order and the running totals are polars' work,
    # which is quicker on a career of a hundred thousand hands than DuckDB's sort and windows.
    facts = _frame(con, f"""
        SELECT site, player, unit, hand_id, started_at, source_id, line, variant, structure, event,
               table_name,
               coalesce(position, '{NO_BUTTON}') AS position, net, net_bb, allin_adjusted_net, allin_adjusted,
               went_sd
        FROM ({sql})""", params)
    hands = facts.sort(["started_at", "source_id", "line", *PLAYER], nulls_last=True).drop(
        "source_id", "line").with_columns(
        pl.int_range(1, pl.len() + 1).over(PLAYER).alias("hand_number"),
        pl.len().over(PLAYER).alias("hands"),
        pl.col("net").cum_sum().over(PLAYER).alias("cum_net"),
        pl.col("allin_adjusted_net").cum_sum().over(PLAYER).alias("cum_allin_adjusted_net"),
        pl.col("net_bb").fill_null(0.0).cum_sum().over(PLAYER).alias("cum_net_bb"),
    )
    if points is None:
        return hands
    step, number = (pl.col("hands") + points - 1) // points, pl.col("hand_number")
    return hands.filter(((number - 1) % step == 0) | (number == pl.col("hands")))
