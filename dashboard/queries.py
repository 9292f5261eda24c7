"""Every SQL query of the dashboard, each a plain function of a connection and its parameters.

Values from the user (filters, a hand id) reach DuckDB only as `?` parameters; the SQL text is
assembled from the fixed fragments of this module alone. Amounts are returned as DOUBLE for
the charts and tables (they have at most two decimals).

Awards: a hand audited by the rules engine has `computed` award rows (what the rules push) next
to the `recorded` ones (what the dealer pushed); `WON` takes the computed ones where a hand has
them and the recorded ones elsewhere, and works on databases written before awards had an
`origin` column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

import duckdb
import polars as pl

from evaluator.sequences import TableHand, sequences
from pipeline.model import Hand
from pipeline.model import Stakes as ModelStakes
from pipeline.reviews import Review, latest, reviews
from pipeline.stats import STAKES_SQL, Filters, hand_facts, hand_totals, won_sql
from pipeline.units import UNKNOWN_MONEY

SEVERITY_FIRST = "CASE f.severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END"


@dataclass(frozen=True, slots=True)
class UnitHands:
    """A unit the database holds: its code, its hands' game types and how many hands count in it."""

    code: str
    game_types: tuple[str, ...]
    hands: int


@dataclass(frozen=True, slots=True)
class Stakes:
    """A stake level the hands are played at: `big` is what `Filters.stakes` compares (the big
    blind, the big bet in limit), `small` the blind or bet below it, both in `unit`."""

    unit: str
    small: float | None
    big: float
    hands: int


@dataclass(frozen=True, slots=True)
class Options:
    """What the sidebar filters can choose from (all the database holds)."""

    events: tuple[str, ...]
    variants: tuple[str, ...]
    players: tuple[str, ...]
    first: date | None
    last: date | None
    units: tuple[UnitHands, ...]  # most hands first; empty on a database without units
    sites: tuple[str, ...] = ()
    currencies: tuple[str, ...] = ()
    stakes: tuple[Stakes, ...] = ()  # by unit, then smallest first


def frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
    table = con.sql(sql, params=params or None).to_arrow_table()
    result = pl.from_arrow(table) if table is not None else pl.DataFrame()
    assert isinstance(result, pl.DataFrame)
    return result


def columns(con: duckdb.DuckDBPyConnection, table: str) -> set[str]:
    rows = con.execute("SELECT column_name FROM information_schema.columns WHERE table_name = ?",
                       [table]).fetchall()
    return {r[0] for r in rows}


def where(filters: Filters, alias: str = "h") -> tuple[str, list[Any]]:
    """The filters as a condition on `hands` (aliased `alias`) and its parameters.

    >>> where(Filters(variant="razz", player="Bo"))
    ('h.variant = ? AND h.hand_id IN (SELECT hand_id FROM seats WHERE player = ?)', ['razz', 'Bo'])
    >>> where(Filters(unit="EUR", game_type="cash"))
    ("coalesce(h.unit, 'chips') = ? AND h.game_type = ?", ['EUR', 'cash'])
    >>> where(Filters())
    ('TRUE', [])
    """
    clauses: list[str] = []
    params: list[Any] = []
    if filters.unit is not None:
        clauses.append(f"coalesce({alias}.unit, '{UNKNOWN_MONEY}') = ?")
        params.append(filters.unit)
    for column, value in (("game_type", filters.game_type), ("site", filters.site),
                          ("currency", filters.currency)):
        if value is not None:
            clauses.append(f"{alias}.{column} = ?")
            params.append(value)
    for column, value in (("event", filters.event), ("variant", filters.variant),
                          ("structure", filters.structure), ("table_name", filters.table)):
        if value is not None:
            clauses.append(f"{alias}.{column} = ?")
            params.append(value)
    if filters.stakes is not None:
        clauses.append(f"{alias}.hand_id IN (SELECT hand_id FROM hands h WHERE {STAKES_SQL} = ?)")
        params.append(filters.stakes)
    if filters.date_from is not None:
        clauses.append(f"{alias}.started_at >= ?")
        params.append(filters.date_from)
    if filters.date_to is not None:
        clauses.append(f"{alias}.started_at < ? + INTERVAL 1 DAY")
        params.append(filters.date_to)
    if filters.player is not None:
        clauses.append(f"{alias}.hand_id IN (SELECT hand_id FROM seats WHERE player = ?)")
        params.append(filters.player)
    return " AND ".join(clauses) or "TRUE", params


def options(con: duckdb.DuckDBPyConnection) -> Options:
    def values(sql: str) -> tuple[str, ...]:
        return tuple(r[0] for r in con.execute(sql).fetchall())

    first, last = con.execute("SELECT min(started_at)::DATE, max(started_at)::DATE FROM hands").fetchall()[0]
    return Options(
        events=values("SELECT DISTINCT event FROM hands WHERE event IS NOT NULL ORDER BY 1"),
        variants=values("SELECT DISTINCT variant FROM hands ORDER BY 1"),
        players=values("SELECT DISTINCT player FROM seats ORDER BY 1"),
        first=first, last=last, units=units(con), **held(con))


# The blind or bet below the stakes (`STAKES_SQL`): the small blind, or the small bet in limit.
SMALL_SQL = """CASE WHEN h.structure = 'limit' THEN coalesce(h.small_bet, h.small_blind)
                    ELSE coalesce(h.small_blind, h.small_bet) END"""


def held(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """The sites, currencies and stake levels the hands have (none on a database without units)."""
    if not {"unit", "site", "currency"} <= columns(con, "hands"):
        return {}
    def values(column: str) -> tuple[str, ...]:
        return tuple(r[0] for r in con.execute(
            f"SELECT DISTINCT {column} FROM hands WHERE {column} IS NOT NULL ORDER BY 1").fetchall())
    rows = con.execute(f"""
        SELECT coalesce(h.unit, '{UNKNOWN_MONEY}'), max({SMALL_SQL})::DOUBLE, ({STAKES_SQL})::DOUBLE AS big,
               count(*)
        FROM hands h WHERE big IS NOT NULL GROUP BY 1, 3 ORDER BY 1, 3""").fetchall()
    return {"sites": values("site"), "currencies": values("currency"),
            "stakes": tuple(Stakes(*r) for r in rows)}


def units(con: duckdb.DuckDBPyConnection) -> tuple[UnitHands, ...]:
    """The units the hands count in, most hands first (none on a database without units)."""
    if not {"unit", "game_type"} <= columns(con, "hands"):
        return ()
    rows = con.execute(f"""
        SELECT coalesce(h.unit, '{UNKNOWN_MONEY}') AS unit,
               list_sort(list_distinct(list(h.game_type) FILTER (WHERE h.game_type IS NOT NULL))), count(*)
        FROM hands h GROUP BY 1 ORDER BY 3 DESC, 1""").fetchall()
    return tuple(UnitHands(code, tuple(kinds), n) for code, kinds, n in rows)


def overview(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """One row: hands, players, events, variants, tables, first and last day, chips in pots,
    findings by severity."""
    cond, params = where(filters)
    # With no filter every hand is picked: the tables are read whole instead of joined to a list of
    # every hand id, which is most of this query's time on a big database.
    picked = "" if cond == "TRUE" else "AND hand_id IN (SELECT hand_id FROM picked)"
    return frame(con, f"""
        WITH picked AS (SELECT * FROM hands h WHERE {cond}),
        pots AS ({hand_totals(con)}),
        found AS (SELECT severity, count(*) AS n FROM findings WHERE true {picked} GROUP BY severity)
        SELECT (SELECT count(*) FROM picked) AS hands,
               (SELECT count(DISTINCT player) FROM seats WHERE true {picked}) AS players,
               (SELECT count(DISTINCT event) FROM picked) AS events,
               (SELECT count(DISTINCT variant) FROM picked) AS variants,
               (SELECT count(DISTINCT (coalesce(event, ''), table_name)) FROM picked) AS tables,
               (SELECT min(started_at)::DATE FROM picked) AS first_day,
               (SELECT max(started_at)::DATE FROM picked) AS last_day,
               (SELECT coalesce(sum(pot), 0) FROM pots WHERE true {picked}) AS chips,
               coalesce((SELECT n FROM found WHERE severity = 'error'), 0) AS errors,
               coalesce((SELECT n FROM found WHERE severity = 'warning'), 0) AS warnings,
               coalesce((SELECT n FROM found WHERE severity = 'info'), 0) AS infos""", params)


def by_unit(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """Per unit the filtered hands count in (whatever unit the filters choose): hands, the chips
    in their pots and the biggest pot, each sum within its own unit; most hands first."""
    if "unit" not in columns(con, "hands"):
        return pl.DataFrame()
    cond, params = where(replace(filters, unit=None))
    return frame(con, f"""
        WITH pots AS ({hand_totals(con)})
        SELECT coalesce(h.unit, '{UNKNOWN_MONEY}') AS unit, count(*) AS hands,
               coalesce(sum(p.pot), 0) AS chips, max(p.pot) AS biggest_pot
        FROM hands h LEFT JOIN pots p USING (hand_id) WHERE {cond}
        GROUP BY 1 ORDER BY hands DESC, unit""", params)


def units_of(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """The units of the filtered hands with their hands, most hands first (no rows on a database
    without units)."""
    if "unit" not in columns(con, "hands"):
        return pl.DataFrame()
    cond, params = where(filters)
    return frame(con, f"""
        SELECT coalesce(h.unit, '{UNKNOWN_MONEY}') AS unit, count(*) AS hands FROM hands h WHERE {cond}
        GROUP BY 1 ORDER BY hands DESC, unit""", params)


def hands_per_day(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    cond, params = where(filters)
    return frame(con, f"""
        SELECT started_at::DATE AS day, structure, count(*) AS hands FROM hands h
        WHERE {cond} AND started_at IS NOT NULL GROUP BY ALL ORDER BY day, structure""", params)


def variant_mix(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    cond, params = where(filters)
    return frame(con, f"""
        SELECT variant, count(*) AS hands FROM hands h WHERE {cond}
        GROUP BY variant ORDER BY hands DESC, variant""", params)


def biggest_pots(con: duckdb.DuckDBPyConnection, filters: Filters,
                 limit: int = 10) -> pl.DataFrame:
    cond, params = where(filters)
    # The winners are named for the few hands listed only: joining names for every hand is what
    # would take the time on a big database.
    return frame(con, f"""
        WITH pots AS ({hand_totals(con)}),
        top AS (SELECT h.hand_id, h.started_at, h.variant, h.event, h.table_name, h.players, p.pot
                FROM hands h JOIN pots p USING (hand_id) WHERE {cond} AND p.pot IS NOT NULL
                ORDER BY p.pot DESC, h.hand_id LIMIT ?),
        named AS (SELECT hand_id, string_agg(DISTINCT player, ', ' ORDER BY player) AS winners
                  FROM ({won_sql(con)}) WHERE hand_id IN (SELECT hand_id FROM top) GROUP BY hand_id)
        SELECT t.*, n.winners FROM top t LEFT JOIN named n USING (hand_id)
        ORDER BY t.pot DESC, t.hand_id""", [*params, limit])


def events(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    cond, params = where(filters)
    return frame(con, f"""
        SELECT coalesce(event, '(no event)') AS event, count(*) AS hands,
               count(DISTINCT table_name) AS tables, count(DISTINCT variant) AS variants,
               min(started_at) AS first_hand, max(started_at) AS last_hand
        FROM hands h WHERE {cond} GROUP BY ALL ORDER BY first_hand NULLS LAST, event""", params)


def finding_counts(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    cond, params = where(filters)
    return frame(con, f"""
        SELECT f.severity, f.code, f.rule, count(*) AS findings, count(DISTINCT f.hand_id) AS hands
        FROM findings f JOIN hands h USING (hand_id) WHERE {cond}
        GROUP BY f.severity, f.code, f.rule ORDER BY {SEVERITY_FIRST}, findings DESC, f.code""", params)


def findings(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """Every finding of the filtered hands, with the hand's event, table and variant."""
    cond, params = where(filters)
    return frame(con, f"""
        SELECT f.hand_id, f.seq, f.severity, f.code, f.rule, f.message,
               coalesce(h.event, '(no event)') AS event, coalesce(h.table_name, '') AS table_name,
               h.variant, h.started_at
        FROM findings f JOIN hands h USING (hand_id) WHERE {cond}
        ORDER BY {SEVERITY_FIRST}, h.started_at, f.hand_id, f.seq""", params)


def variant_stats(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """Per variant: hands, hands that reached a showdown and their share, players per hand,
    the average and biggest pot, and findings."""
    cond, params = where(filters)
    return frame(con, f"""
        WITH pots AS ({hand_totals(con)}),
        found AS (SELECT hand_id, count(*) AS n FROM findings GROUP BY hand_id)
        SELECT h.variant, count(*) AS hands,
               count_if(p.showdown)::BIGINT AS showdowns,
               round(100.0 * count_if(p.showdown) / count(*), 1) AS showdown_pct,
               round(avg(h.players), 2) AS players_per_hand,
               round(avg(p.pot), 2) AS average_pot, max(p.pot) AS biggest_pot,
               coalesce(sum(f.n), 0) AS findings
        FROM hands h LEFT JOIN pots p USING (hand_id) LEFT JOIN found f USING (hand_id) WHERE {cond}
        GROUP BY h.variant ORDER BY h.variant""", params)


def winners(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """Portions won at a showdown, counted per variant, portion and winning hand's description
    (the rules' where the audit computed it, else the one the winner announced)."""
    cond, params = where(filters)
    # Only the awards the audit did not describe need the shown hands (a join over the actions).
    return frame(con, f"""
        WITH won AS MATERIALIZED (
            SELECT w.*, h.variant FROM ({won_sql(con)}) w JOIN hands h USING (hand_id)
            WHERE {cond} AND w.hand_id IN (SELECT hand_id FROM ({hand_totals(con)}) WHERE showdown)),
        shown AS (SELECT hand_id, player, last(detail ORDER BY seq) AS detail FROM actions
                  WHERE kind = 'show' AND hand_id IN (SELECT hand_id FROM won WHERE hand IS NULL)
                  GROUP BY ALL),
        described AS (SELECT variant, portion, hand AS description FROM won WHERE hand IS NOT NULL
                      UNION ALL
                      SELECT w.variant, w.portion, s.detail FROM won w
                      LEFT JOIN shown s ON s.hand_id = w.hand_id AND s.player = w.player WHERE w.hand IS NULL)
        SELECT variant, portion, description, count(*) AS portions_won FROM described
        GROUP BY ALL""", params)


CARD = re.compile(r"[2-9TJQKA][cdhs]|Jk")


def search_terms(text: str) -> tuple[str, list[Any]]:
    """A search for hands as a condition on `hands h` and its parameters: cards ("Ah Kd") are
    looked for on the boards, each of them; anything else in the hand id or a player's name
    (case-insensitive, part of it is enough).

    >>> search_terms("Ah kd")[1]
    [['Ah', 'Kd']]
    >>> search_terms(" ann ")[1]
    ['%ann%', '%ann%']
    >>> search_terms("")
    ('TRUE', [])
    """
    words = text.split()
    if not words:
        return "TRUE", []
    cards = [w[0].upper() + w[1:].lower() if len(w) == 2 else w for w in words]
    if all(CARD.fullmatch(c) for c in cards):
        return ("h.hand_id IN (SELECT hand_id FROM actions WHERE kind = 'board' GROUP BY hand_id "
                "HAVING list_has_all(flatten(list(cards)), ?))"), [cards]
    like = f"%{text.strip()}%"
    return ("(h.hand_id ILIKE ? OR h.hand_id IN (SELECT hand_id FROM seats WHERE player ILIKE ?))",
            [like, like])


def hand_list(con: duckdb.DuckDBPyConnection, filters: Filters, search: str = "",
              limit: int = 5000) -> pl.DataFrame:
    """The filtered hands matching `search` (`search_terms`), latest first."""
    cond, params = where(filters)
    found, terms = search_terms(search)
    return frame(con, f"""
        SELECT h.hand_id, h.started_at, h.variant, h.event, h.table_name,
               (SELECT count(*) FROM findings f WHERE f.hand_id = h.hand_id) AS findings
        FROM hands h WHERE {cond} AND {found}
        ORDER BY h.started_at DESC NULLS LAST, h.hand_id LIMIT ?""", [*params, *terms, limit])


def hand(con: duckdb.DuckDBPyConnection, hand_id: str) -> pl.DataFrame:
    """One hand's row with its source's format and path (no row: no such hand)."""
    return frame(con, """
        SELECT h.*, s.format, s.path FROM hands h JOIN sources s USING (source_id)
        WHERE h.hand_id = ?""", [hand_id])


def hand_awards(con: duckdb.DuckDBPyConnection, hand_id: str) -> pl.DataFrame:
    """Every award row of a hand, recorded and computed."""
    have = columns(con, "awards")
    origin = "origin" if "origin" in have else "'recorded'"
    described = "hand" if "hand" in have else "NULL::VARCHAR"
    return frame(con, f"""
        SELECT {origin} AS origin, seq, pot, player, amount::DOUBLE AS amount, portion, {described} AS hand
        FROM awards WHERE hand_id = ? ORDER BY origin DESC, seq""", [hand_id])


def hand_seats(con: duckdb.DuckDBPyConnection, hand_id: str) -> pl.DataFrame:
    return frame(con, """
        SELECT seat, player, starting_stack::DOUBLE AS starting_stack, ending_stack::DOUBLE AS ending_stack,
               final_stack::DOUBLE AS final_stack, sitting_out
        FROM seats WHERE hand_id = ? ORDER BY seat""", [hand_id])


def hand_findings(con: duckdb.DuckDBPyConnection, hand_id: str) -> pl.DataFrame:
    return frame(con, """
        SELECT seq, severity, code, rule, message FROM findings WHERE hand_id = ? ORDER BY seq, code""",
                 [hand_id])


def hand_before(con: duckdb.DuckDBPyConnection, hand_id: str) -> str | None:
    """The stored hand dealt before this one at its table, in the order the checks across hands
    read the table (`evaluator.sequences.sequences`: the same site, event, tournament and table
    name; by time, then by number); None for the table's first stored hand or a hand of no table."""
    rows = con.execute("""
        WITH t AS (SELECT coalesce(site, '') AS site, coalesce(event, '') AS event,
                          coalesce(tournament, '') AS tournament, table_name FROM hands WHERE hand_id = ?)
        SELECT h.hand_id, h.variant, h.structure, h.started_at, h.site, h.event, h.tournament, h.table_name,
               s.format
        FROM hands h JOIN sources s USING (source_id), t
        WHERE (coalesce(h.site, ''), coalesce(h.event, ''), coalesce(h.tournament, ''), h.table_name)
              = (t.site, t.event, t.tournament, t.table_name)""", [hand_id]).fetchall()
    # Only what the order reads: the ids, times and the table (no seats or play).
    hands = [TableHand(Hand(h, variant, structure, ModelStakes(), (), started_at=at, site=site, event=event,
                            tournament=tournament, table_name=table), fmt, {})
             for h, variant, structure, at, site, event, tournament, table, fmt in rows]
    order = [t.hand.hand_id for table in sequences(hands) for t in table]
    at = order.index(hand_id) if hand_id in order else 0
    return order[at - 1] if at > 0 else None


def decisions(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str, int | None], Review]:
    """The directors' current decision per (hand, code, seq) (`pipeline.reviews.latest`)."""
    return latest(con)


def hand_reviews(con: duckdb.DuckDBPyConnection, hand_id: str) -> list[Review]:
    """One hand's review history, oldest first."""
    return reviews(con, [hand_id])


def rejects(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    return frame(con, """
        SELECT s.path, r.line, r."column", r.error, r.raw_text FROM rejects r JOIN sources s USING (source_id)
        ORDER BY s.path, r.line""")


def player_hand_list(con: duckdb.DuckDBPyConnection, filters: Filters, site: str | None, player: str,
                     limit: int) -> pl.DataFrame:
    """The player's `limit` latest filtered hands, newest first, as a hand list reads them: date,
    game, the stakes (small and big, in the hand's unit), the player's cards (those shown, else
    those dealt face up or to them), each board's cards (`board` names the board where there are
    several), the pot, their net and all-in adjusted net, and whether they were all in and went
    to the showdown (the statistics' own flag, `went_sd`)."""
    facts = hand_facts(con, filters).filter(
        (pl.col("player") == player) & (pl.col("site").eq_missing(site)))
    latest = facts.sort(["started_at", "source_id", "line"], descending=True, nulls_last=True).head(limit)
    if latest.is_empty():
        return pl.DataFrame()
    extra = frame(con, f"""
        WITH picked AS (SELECT unnest(?::VARCHAR[]) AS hand_id),
        mine AS (SELECT a.hand_id, a.seq, a.kind, a.cards, a.all_in FROM actions a JOIN picked USING (hand_id)
                 WHERE a.player = ?),
        cards AS (SELECT hand_id,
                         coalesce(last(cards ORDER BY seq) FILTER (WHERE kind = 'show'),
                                  flatten(list(cards ORDER BY seq) FILTER (WHERE kind = 'deal'))) AS cards,
                         bool_or(coalesce(all_in, false)) AS all_in
                  FROM mine GROUP BY hand_id),
        board AS (SELECT b.hand_id, b.board, list(b.card ORDER BY b.position) AS cards
                  FROM boards b JOIN picked USING (hand_id) WHERE NOT coalesce(b.removed, false)
                  GROUP BY ALL),
        boards AS (SELECT hand_id, list({{'board': board, 'cards': cards}} ORDER BY board) AS boards
                   FROM board GROUP BY hand_id)
        SELECT h.hand_id, ({SMALL_SQL})::DOUBLE AS small, ({STAKES_SQL})::DOUBLE AS big, t.pot,
               c.cards, coalesce(c.all_in, false) AS all_in, b.boards
        FROM hands h JOIN picked USING (hand_id) LEFT JOIN ({hand_totals(con)}) t USING (hand_id)
        LEFT JOIN cards c USING (hand_id) LEFT JOIN boards b USING (hand_id)""",
                  [latest["hand_id"].to_list(), player])
    return latest.select("hand_id", "started_at", "variant", "unit", "net", "allin_adjusted_net",
                         pl.col("went_sd").alias("showdown")).join(extra, on="hand_id", how="left",
                                                                   maintain_order="left")
