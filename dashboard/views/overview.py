"""Overview page: how much is stored (hands, players, events, variants), hands over time, the
variant mix, the biggest pots and the audit's finding counts, for the sidebar's filters."""

from __future__ import annotations

import altair as alt
import streamlit as st

from dashboard import queries, ui

f = ui.filters()
ui.page_title("Overview", ui.describe(f))
summary = ui.load(queries.overview, f).row(0, named=True)

cols = st.columns(6)
cols[0].metric("Hands", f"{summary['hands']:,}")
cols[1].metric("Players", f"{summary['players']:,}")
cols[2].metric("Events", f"{summary['events']:,}")
cols[3].metric("Variants", f"{summary['variants']:,}")
cols[4].metric("Tables", f"{summary['tables']:,}")
cols[5].metric("Chips in pots", ui.money(summary["chips"]))
cols = st.columns(6)
cols[0].metric("Errors found", f"{summary['errors']:,}")
cols[1].metric("Warnings", f"{summary['warnings']:,}")
cols[2].metric("Notes", f"{summary['infos']:,}")
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
    ui.bars(ui.load(queries.variant_mix, f), "variant", "hands")

st.subheader("Biggest pots")
pots = ui.load(queries.biggest_pots, f, 10)
st.dataframe(
    ui.with_links(pots),
    column_order=["hand", "pot", "winners", "variant", "event", "table_name", "players", "started_at"],
    column_config={"hand": ui.hand_link_column(),
                   "pot": st.column_config.NumberColumn("pot", format="localized"),
                   "table_name": "table", "started_at": st.column_config.DatetimeColumn("started")},
    hide_index=True)

left, right = st.columns(2)
with left:
    st.subheader("Events")
    st.dataframe(ui.load(queries.events, f), hide_index=True)
with right:
    st.subheader("Findings by code")
    counts = ui.load(queries.finding_counts, f)
    if counts.is_empty():
        st.success("No findings: every audited hand replays clean under the rulebook.")
    else:
        st.dataframe(counts, hide_index=True)
        st.page_link("views/audit.py", label="Open the audit", icon=":material/gavel:")
