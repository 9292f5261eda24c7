"""Overview page: how much is stored (hands, players, events, variants), hands over time, the
variant mix, the biggest pots and the audit's finding counts, for the sidebar's filters; every
amount in the unit chosen, and each unit's hands and pots beside it (never one sum of two units)."""

from __future__ import annotations

import altair as alt
import streamlit as st

from dashboard import queries, tables, ui

f = ui.filters()
unit = ui.unit_for(f)
ui.page_title("Overview", ui.describe(f))
summary = ui.load(queries.overview, f).row(0, named=True)

cols = st.columns(6)
cols[0].metric("Hands", f"{summary['hands']:,}")
cols[1].metric("Players", f"{summary['players']:,}")
cols[2].metric("Events", f"{summary['events']:,}")
cols[3].metric("Variants", f"{summary['variants']:,}")
cols[4].metric("Tables", f"{summary['tables']:,}")
found = st.columns([1, 1, 1, 3])  # an amount with its unit needs the room of two figures
found[0].metric("Errors found", f"{summary['errors']:,}")
found[1].metric("Warnings", f"{summary['warnings']:,}")
found[2].metric("Notes", f"{summary['infos']:,}")
if unit is not None:
    found[3].metric("In pots", unit.amount(summary["chips"]), help="every pot of these hands added up")
if summary["first_day"]:
    st.caption(f"Hands played from {summary['first_day']} to {summary['last_day']}.")

if not summary["hands"]:
    st.info("No hands match the filters.")
    st.stop()

left, right = st.columns(2)
with left:
    st.subheader("Hands over time")
    per_day = ui.load(queries.hands_per_day, f)
    if per_day.is_empty():
        st.caption("The hands have no dates.")
    else:
        st.altair_chart(
            alt.Chart(per_day).mark_bar().encode(
                x=alt.X("day:T", title="day"), y=alt.Y("hands:Q", title="hands"),
                color=alt.Color("structure:N", title="structure"),
                tooltip=["day:T", "structure:N", "hands:Q"]).properties(height=300),
            width="stretch")
with right:
    st.subheader("Variant mix")
    ui.bars(ui.named(ui.load(queries.variant_mix, f)), "game", "hands")

units = ui.load(queries.by_unit, f)
if units.height > 1:
    st.subheader(f"Every unit ({units.height:,})")
    st.caption("The hands of each unit the filters leave and their pots, each in its own unit (a currency, "
               "play money, one tournament's chips): choose one in the sidebar for its figures.")
    tables.show(tables.in_units(units), height=min(400, 38 + 35 * units.height))

st.subheader("Biggest pots" + (f" ({unit.short})" if unit else ""))
if unit is None:
    st.caption("Pots of different units are not compared: choose one unit in the sidebar.")
else:
    pots = ui.load(queries.biggest_pots, f, 10)
    tables.show(ui.with_links(pots), unit,
                order=["hand", "pot", "winners", "variant", "event", "table_name", "players", "started_at"])

left, right = st.columns(2)
with left:
    st.subheader("Events")
    tables.show(ui.load(queries.events, f))
with right:
    st.subheader("Findings by code")
    counts = ui.load(queries.finding_counts, f)
    if counts.is_empty():
        st.success("No findings: every audited hand replays clean under the rulebook.")
    else:
        tables.show(counts)
        st.page_link("views/audit.py", label="Open the audit", icon=":material/gavel:")
