"""Players page: a sortable leaderboard of every player's statistics (`pipeline.stats`), and one
player's page: cumulative winnings hand by hand beside the all-in adjusted line, and the
statistics by variant and by position."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import altair as alt
import polars as pl
import streamlit as st

from dashboard import ui
from pipeline import stats

PERCENT = ("vpip", "pfr", "three_bet", "fold_to_three_bet", "cbet", "fold_to_cbet", "afq", "wtsd", "wsd",
           "wwsd", "wwsf")
MAX_POINTS = 2_000  # per line of the hand-by-hand chart
HANDS_LISTED = 1_000  # the latest hands in the player's table, with links to the replayer
LABELS = {"three_bet": "3-bet", "fold_to_three_bet": "fold to 3-bet", "cbet": "c-bet",
          "fold_to_cbet": "fold to c-bet", "af": "AF", "afq": "AFq", "wtsd": "WTSD", "wsd": "W$SD",
          "wwsd": "won without SD", "wwsf": "WWSF", "net_bb_per_100": "bb/100", "vpip": "VPIP", "pfr": "PFR",
          "allin_adjusted_net": "all-in adjusted net", "allin_adjusted_hands": "all-in hands"}


def stat_columns(frame: pl.DataFrame) -> dict[str, Any]:
    """Column formats: percentages with one decimal, money with separators."""
    config: dict[str, Any] = {}
    for column in frame.columns:
        label = LABELS.get(column, column.replace("_", " "))
        if column in PERCENT:
            config[column] = st.column_config.NumberColumn(label, format="%.1f%%")
        elif column in ("net", "allin_adjusted_net"):
            config[column] = st.column_config.NumberColumn(label, format="localized")
        elif column in ("af", "net_bb_per_100"):
            config[column] = st.column_config.NumberColumn(label, format="%.2f")
        else:
            config[column] = label
    return config


f = ui.filters()
ui.page_title("Players", ui.describe(f) + " Statistics as defined in docs/stats.md; click a column "
              "heading to sort.")
board = ui.load(stats.player_stats, replace(f, player=None))
if board.is_empty():
    st.info("No hands match the filters.")
    st.stop()

most = int(board.select(pl.col("hands").max()).item() or 1)
least = st.slider("Players with at least this many hands", 1, max(most, 2), min(5, most), key="players_least")
shown = board.filter(pl.col("hands") >= least).sort("net", descending=True)
st.subheader(f"Leaderboard ({shown.height:,} players)")
st.dataframe(shown, hide_index=True, column_config=stat_columns(shown), height=360)

players = shown["player"].to_list()
chosen = f.player if f.player in players else None
player = st.selectbox("Player", players, index=players.index(chosen) if chosen else 0, key="players_pick")
if player is None:
    st.stop()
mine = replace(f, player=player)
row = shown.filter(pl.col("player") == player).row(0, named=True)

st.header(ui.plain(player))
cols = [*st.columns(4), *st.columns(4)]
for col, (label, value) in zip(cols, (
        ("Hands", f"{row['hands']:,}"), ("Net", ui.money(row["net"])),
        ("All-in adjusted", ui.money(row["allin_adjusted_net"])),
        ("bb/100", ui.NA if row["net_bb_per_100"] is None else f"{row['net_bb_per_100']:.1f}"),
        ("VPIP", ui.percent(row["vpip"])), ("PFR", ui.percent(row["pfr"])),
        ("WTSD", ui.percent(row["wtsd"])), ("W$SD", ui.percent(row["wsd"]))), strict=True):
    col.metric(label, value)

# A browser draws a few thousand points at once, not a career's hundred thousand: past that, the
# running totals (of every hand) are drawn at every k-th hand and the last, the same line to the eye.
drawn = ui.load(stats.player_hands, mine, MAX_POINTS).filter(pl.col("player") == player)
played = int(drawn["hands"][0]) if drawn.height else 0  # the same on every row: the player's hands
st.subheader("Winnings hand by hand")
lines = drawn.select(
    "hand_number", "hand_id", "variant",
    pl.col("cum_net").alias("net"), pl.col("cum_allin_adjusted_net").alias("all-in adjusted"),
).unpivot(index=["hand_number", "hand_id", "variant"], on=["net", "all-in adjusted"],
          variable_name="line", value_name="chips")
st.altair_chart(
    alt.Chart(lines).mark_line(point=alt.OverlayMarkDef(size=18) if drawn.height == played else False).encode(
        x=alt.X("hand_number:Q", title="hands played"), y=alt.Y("chips:Q", title="cumulative net"),
        color=alt.Color("line:N", scale=alt.Scale(range=["#1565c0", "#ef6c00"]),
                        legend=alt.Legend(orient="top", title=None)),
        strokeDash=alt.StrokeDash("line:N", legend=None),
        tooltip=["hand_number:Q", "hand_id:N", "variant:N", "line:N", alt.Tooltip("chips:Q", format=",.2f")],
    ).properties(height=320),
    width="stretch")
st.caption("The all-in adjusted line counts each hand that was all in before the last card at its "
           "expected value (equity times the pot) instead of its result."
           + (f" Drawn at {drawn.height:,} of the {played:,} hands." if drawn.height < played else ""))

for by, title in (("variant", "By variant"), ("position", "By position")):
    st.subheader(title)
    grouped = ui.load(stats.stats_by, mine, by).filter(pl.col("player") == player).drop("player")
    left, right = st.columns([3, 2])
    with left:
        st.dataframe(grouped, hide_index=True, column_config=stat_columns(grouped))
    with right:
        result = pl.when(pl.col("net") >= 0).then(pl.lit("won")).otherwise(pl.lit("lost"))
        signed = grouped.with_columns(result.alias("result"))
        ui.bars(signed, by, "net", by="result",
                scale=alt.Scale(domain=["won", "lost"], range=["#2e7d32", "#c62828"]))

st.subheader("Hands")
if played > HANDS_LISTED:
    st.caption(f"The latest {HANDS_LISTED:,} of {played:,}: the filters (event, variant, dates) "
               "reach the others.")
latest = ui.load(stats.latest_hands, mine, HANDS_LISTED).filter(pl.col("player") == player)
st.dataframe(ui.with_links(latest.drop("player")),
             hide_index=True, column_config={"hand": ui.hand_link_column()},
             column_order=["hand", "started_at", "variant", "event", "position", "net", "allin_adjusted_net"])
