"""Variants page: all 59 games of the catalog and the rooms' own games (marked with their room) with
their hand counts, how often a hand reaches the showdown, pots (in the unit chosen) and findings,
and the distribution of the hands that win at the showdown."""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import streamlit as st

from dashboard import queries, tables, ui, winning
from evaluator.variants import ALL_VARIANTS, ROOM_VARIANTS, VARIANTS

f = ui.filters()
unit = ui.unit_for(f)
ui.page_title("Variants", ui.describe(f))

games = list(ALL_VARIANTS.values())
catalog = pl.DataFrame({"variant": [v.id for v in games], "section": [v.section for v in games],
                        "rules": ["BARGE 2025" if v.barge else f"{v.room} game, extends §{v.section}"
                                     for v in games]})
per_variant = ui.load(queries.variant_stats, f)
table = ui.named(catalog.join(per_variant, on="variant", how="full", coalesce=True).with_columns(
    pl.col("hands", "showdowns", "findings").fill_null(0))).sort("game")
played = set(table.filter(pl.col("hands") > 0)["variant"].to_list())

cols = st.columns(5)
cols[0].metric("Variants played", f"{len(played & VARIANTS.keys())} of {len(VARIANTS)}",
               help="the BARGE games with hands")
cols[1].metric("Rooms' games played", f"{len(played & ROOM_VARIANTS.keys())} of {len(ROOM_VARIANTS)}",
               help="games other rooms deal that the rulebook does not (" + ", ".join(
                   f"{v.name}: {v.room}" for v in ROOM_VARIANTS.values()) + ")")
cols[2].metric("Hands", f"{int(table['hands'].sum()):,}")
cols[3].metric("Showdowns", f"{int(table['showdowns'].sum()):,}")
total = int(table["hands"].sum())
cols[4].metric("Showdown share", ui.percent(100 * int(table["showdowns"].sum()) / total if total else None))

pots = ["average_pot", "biggest_pot"] if unit else []
st.caption(f"Pots in {unit.name}." if unit else
           "Pots are left out: the hands count in several units (choose one in the sidebar).")
tables.show(table, unit, height=420,
            order=["variant", "section", "rules", "hands", "showdowns", "showdown_pct", "players_per_hand",
                   *pots, "findings"])

left, right = st.columns(2)
with left:
    st.subheader("Hands per variant")
    ui.bars(table.filter(pl.col("hands") > 0), "game", "hands")
with right:
    st.subheader("Showdown frequency")
    ui.bars(table.filter(pl.col("hands") > 0), "game", "showdown_pct", colour="#6a1b9a",
            title="hands reaching a showdown (%)")

st.subheader("Winning hands at the showdown")
# One game at a time by default (the one with the most showdowns): a flush in Hold'em and a 7-low
# in Razz do not belong on one scale, and classing every game's hands takes seconds on a big
# database. All games together stays a choice.
ranked = table.filter(pl.col("showdowns") > 0).sort(["showdowns", "variant"], descending=[True, False])
if ranked.is_empty():
    st.info("No showdowns among the filtered hands.")
    st.stop()
choice = st.selectbox("Variant", [*ranked["variant"].to_list(), ui.ALL], key="variants_pick",
                      format_func=ui.variant_label,
                      help="the winning hands of one game (most showdowns first), or of all games together")
won = ui.load(queries.winners, f if choice == ui.ALL else replace(f, variant=choice))
if won.is_empty():
    st.info("No showdowns among the filtered hands.")
    st.stop()
won = winning.classed(won)
counts = won.group_by("class", "portion").agg(pl.col("portions_won").sum())
order = [c for c in winning.CLASS_ORDER if c in set(counts["class"].to_list())]
ui.bars(counts, "class", "portions_won", by="portion", sort=order)
st.caption("Each portion of a pot won at a showdown counts once, classed by the winning hand as the "
           "rules read it (the audit's computed award) or, where there is none, as the winner announced it.")
