"""Players page: a sortable leaderboard of every player's statistics (`pipeline.stats`) in the unit
chosen in the sidebar, and one player's page, which opens on every unit the player has: the net
and bb/100 of each unit, then, for one unit at a time, the cumulative winnings hand by hand beside
the all-in adjusted line and the statistics by variant and by position."""

from __future__ import annotations

from dataclasses import replace

import altair as alt
import polars as pl
import streamlit as st

from dashboard import labels, queries, tables, ui
from pipeline import stats
from pipeline.units import UNKNOWN_MONEY, Unit, big_blinds

MAX_POINTS = 2_000  # per line of the hand-by-hand chart
HANDS_LISTED = 1_000  # the latest hands in the player's hand list, with links to the replayer
WHO = ("site", "player", "unit")  # a player is a name at a site; their figures are per unit
FIGURES = [c for c in stats.stat_columns() if c not in WHO]
MONEY = ("net", "allin_adjusted_net")

f = ui.filters()
unit = ui.unit_for(f)
ui.page_title("Players", ui.describe(f) + " Statistics as defined in docs/stats.md; click a column heading "
              "to sort.")
board = ui.load(stats.player_stats, replace(f, player=None))
if board.is_empty():
    st.info("No hands match the filters.")
    st.stop()

most = int(board.select(pl.col("hands").max()).item() or 1)
least = st.slider("Players with at least this many hands", 1, max(most, 2), min(5, most), key="players_least")
shown = board.filter(pl.col("hands") >= least)
sites = ["site"] if board["site"].n_unique() > 1 else []  # the site says which "Hero" is which
if unit is None:  # a row per player and unit: each net in its row's unit, never a sum of two
    shown = shown.sort("hands", descending=True)
    st.subheader(f"Leaderboard ({shown.height:,} rows: a player in one unit each)")
    st.caption("These hands count in several units: each row is one player's hands in one unit, its net in "
               "that unit (choose a unit in the sidebar to sort by net). bb/100 is in big blinds.")
    tables.show(tables.in_units(shown), order=["player", *sites, "unit", *FIGURES], height=360)
else:
    shown = shown.sort("net", descending=True)
    st.subheader(f"Leaderboard ({shown.height:,} players, amounts in {unit.short})")
    tables.show(shown, unit, order=["player", *sites, *FIGURES], height=360)

# The player's page: every unit the player has (the sidebar's unit left aside, its other filters
# kept), most hands first; then one unit at a time, the sidebar's where the player has it.
who = {(f"{p} · {s or 'no site'}" if sites else p): (s, p)
       for s, p in shown.select("site", "player").unique(maintain_order=True).iter_rows()}
names = list(who)
chosen = next((n for n in names if who[n][1] == f.player), None)
picked = st.selectbox("Player", names, index=names.index(chosen) if chosen else 0, key="players_pick")
if picked is None:
    st.stop()
site, player = who[picked]
st.header(ui.plain(picked))
theirs = replace(f, player=player, site=site, unit=None)
every = ui.load(stats.player_stats, theirs).filter(pl.col("player") == player)
codes: list[str | None] = every["unit"].to_list()
if len(codes) > 1:
    st.subheader(f"Every unit ({len(codes)})")
    tables.show(tables.in_units(every), order=["unit", "hands", "net", "net_bb_per_100", "allin_adjusted_net",
                                              "vpip", "pfr", "wtsd", "wsd"])
    st.caption("Each row counts the player's hands in that unit only; bb/100 is in big blinds of each hand.")
code = codes[0] if len(codes) == 1 else st.radio(
    "Unit", codes, index=codes.index(f.unit) if f.unit in codes else 0, key="players_unit", horizontal=True,
    format_func=lambda c: Unit(c or UNKNOWN_MONEY).name)
money = Unit(code or UNKNOWN_MONEY)
row = every.row(codes.index(code), named=True)
mine = replace(theirs, unit=code)

cols = [*st.columns(4), *st.columns(4)]
for col, (label, value) in zip(cols, (
        ("Hands", f"{row['hands']:,}"), ("Net", money.amount(row["net"])),
        ("All-in adjusted", money.amount(row["allin_adjusted_net"])),
        ("bb/100", big_blinds(row["net_bb_per_100"]) or ui.NA),
        ("VPIP", ui.percent(row["vpip"])), ("PFR", ui.percent(row["pfr"])),
        ("WTSD", ui.percent(row["wtsd"])), ("W$SD", ui.percent(row["wsd"]))), strict=True):
    col.metric(label, value or ui.NA)

# A browser draws a few thousand points at once, not a career's hundred thousand: past that, the
# running totals (of every hand) are drawn at every k-th hand and the last, the same line to the eye.
drawn = ui.load(stats.player_hands, mine, MAX_POINTS).filter(pl.col("player") == player)
played = int(drawn["hands"][0]) if drawn.height else 0  # the same on every row: the player's hands
st.subheader(f"Winnings hand by hand ({money.short})")
lines = ui.named(drawn).select(
    "hand_number", "hand_id", "game",
    pl.col("cum_net").alias("net"), pl.col("cum_allin_adjusted_net").alias("all-in adjusted"),
).unpivot(index=["hand_number", "hand_id", "game"], on=["net", "all-in adjusted"],
          variable_name="line", value_name="amount")
decimals = ",.0f" if money.tournament else ",.2f"
st.altair_chart(
    alt.Chart(lines).mark_line(point=alt.OverlayMarkDef(size=18) if drawn.height == played else False).encode(
        x=alt.X("hand_number:Q", title="hands played"),
        y=alt.Y("amount:Q", title=f"cumulative net ({money.short})"),
        color=alt.Color("line:N", scale=alt.Scale(range=["#1565c0", "#ef6c00"]),
                        legend=alt.Legend(orient="top", title=None)),
        strokeDash=alt.StrokeDash("line:N", legend=None),
        tooltip=[alt.Tooltip("hand_number:Q", title="hand"), alt.Tooltip("hand_id:N", title="hand id"),
                 "game:N", "line:N", alt.Tooltip("amount:Q", format=decimals, title=money.short)],
    ).properties(height=320),
    width="stretch")
st.caption("The all-in adjusted line counts each hand that was all in before the last card at its "
           "expected value (equity times the pot) instead of its result."
           + (f" Drawn at {drawn.height:,} of the {played:,} hands." if drawn.height < played else ""))

for by, title in (("variant", "By variant"), ("position", "By position")):
    st.subheader(title)
    grouped = ui.load(stats.stats_by, mine, by).filter(pl.col("player") == player).drop(*WHO)
    if by == "position":  # table order: SB, BB, UTG ... CO, BTN, then "no button" (stud and the like)
        grouped = grouped.sort(pl.col("position").map_elements(labels.position_rank, return_dtype=pl.Int64))
        axis = grouped["position"].to_list()
    else:
        grouped = ui.named(grouped).sort("hands", descending=True)
        axis = grouped["game"].to_list()
    left, right = st.columns([3, 2])
    with left:
        tables.show(grouped, money, order=[c for c in grouped.columns if c != "game"])
    with right:
        result = pl.when(pl.col("net") >= 0).then(pl.lit("won")).otherwise(pl.lit("lost"))
        signed = grouped.with_columns(result.alias("result"))
        ui.bars(signed, "position" if by == "position" else "game", "net", by="result", sort=axis,
                scale=alt.Scale(domain=["won", "lost"], range=["#2e7d32", "#c62828"]),
                title=f"net ({money.short})")

st.subheader("Hands")
st.caption("The player's hands, newest first, as a hand history list reads them: their cards (shown, else "
           f"dealt to them), the board(s), the pot and their net in {money.short}; open one in the replayer.")
if played > HANDS_LISTED:
    st.caption(f"The latest {HANDS_LISTED:,} of {played:,}: the filters (stakes, variant, dates) "
               "reach the others.")
listed = ui.load(queries.player_hand_list, mine, site, player, HANDS_LISTED)
if listed.is_empty():
    st.info("No hands of this player match the filters.")
    st.stop()
marks = {True: "yes", False: "-"}
listed = ui.with_links(listed).with_columns(
    pl.Series("stakes", [ui.stakes_label(money, small, big)
                         for small, big in listed.select("small", "big").iter_rows()], dtype=pl.String),
    pl.Series("cards", [labels.cards(c) for c in listed["cards"].to_list()], dtype=pl.String),
    pl.Series("boards", [labels.boards(b) for b in listed["boards"].to_list()], dtype=pl.String),
    *(pl.col(c).replace_strict(marks, return_dtype=pl.String) for c in ("all_in", "showdown")))
tables.show(listed, money, order=["hand", "started_at", "variant", "stakes", "cards", "boards", "pot", "net",
                                  "allin_adjusted_net", "all_in", "showdown"], wide=["boards"])
