"""Audit page: what the rules engine found in the stored hands, by code, severity, rule, event and
table, each finding linked to its hand (at the action it is about) in the replayer."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from dashboard import queries, ui

SEVERITY_COLOURS = alt.Scale(domain=["error", "warning", "info"], range=["#c62828", "#ef6c00", "#1565c0"])

f = ui.filters()
ui.page_title("Audit", ui.describe(f) + " Findings of `barge audit`: each place a hand differs from what "
              "the rulebook allows (docs/rules-engine.md).")
found = ui.load(queries.findings, f)
if found.is_empty():
    st.success("No findings: every audited hand replays clean under the rulebook.")
    st.stop()

cols = st.columns(5)
for col, (severity, label) in zip(cols, (("error", "Errors"), ("warning", "Warnings"), ("info", "Notes")),
                                  strict=False):
    col.metric(label, f"{found.filter(pl.col('severity') == severity).height:,}")
cols[3].metric("Hands with findings", f"{found['hand_id'].n_unique():,}")
cols[4].metric("Codes", f"{found['code'].n_unique():,}")

# Narrowing within the page: the values offered are those found, so nothing typed reaches SQL.
pick = st.columns(5)
narrow = {
    column: pick[i].multiselect(label, sorted(found[column].unique().to_list()), key=f"audit_{column}")
    for i, (column, label) in enumerate((("severity", "Severity"), ("code", "Code"), ("rule", "Rule"),
                                         ("event", "Event"), ("table_name", "Table")))
}
for column, values in narrow.items():
    if values:
        found = found.filter(pl.col(column).is_in(values))

st.subheader(f"Findings ({found.height:,})")
picked = st.dataframe(
    ui.with_links(found), hide_index=True, on_select="rerun", selection_mode="single-row", key="audit_table",
    column_order=["hand", "seq", "severity", "code", "rule", "message", "event", "table_name", "variant"],
    column_config={"hand": ui.hand_link_column(), "seq": st.column_config.NumberColumn("action", format="%d"),
                   "table_name": "table"})
rows = picked.selection.rows if picked is not None else []
if rows:
    chosen = found.row(rows[0], named=True)
    label = f"Open hand {chosen['hand_id']} at action {chosen['seq']} in the replayer"
    st.page_link(ui.REPLAYER, label=label,
                 icon=":material/play_circle:",
                 query_params={"hand": chosen["hand_id"], "seq": str(chosen["seq"])})
else:
    st.caption("Select a row, or follow its hand link, to see the hand in the replayer.")


def bars(column: str, title: str) -> None:
    st.subheader(title)
    ui.bars(found.group_by(column, "severity").agg(pl.len().alias("findings")), column, "findings",
            by="severity", scale=SEVERITY_COLOURS)


left, right = st.columns(2)
with left:
    bars("code", "By code")
    bars("event", "By event")
with right:
    bars("rule", "By rule")
    bars("table_name", "By table")
