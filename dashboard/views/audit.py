"""Audit page: what the rules engine found in the stored hands, by code, severity, rule, event and
table, each finding with the words of the rule it cites and the director's review of it (open,
confirmed or overturned), linked to its hand (at the action it is about) in the replayer; a
selected finding can be reviewed here."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from dashboard import queries, tables, ui
from evaluator.rulebook import rule_text
from pipeline.reviews import STATUSES, current_for

SEVERITY_COLOURS = alt.Scale(domain=["error", "warning", "info"], range=["#c62828", "#ef6c00", "#1565c0"])

f = ui.filters()
ui.page_title("Audit", ui.describe(f) + " Findings of `barge audit`: each place a hand differs from "
              "what the rulebook allows (docs/rules-engine.md), with the rule's words and the directors' "
              "reviews.")
found = ui.load(queries.findings, f)
if found.is_empty():
    st.success("No findings: every audited hand replays clean under the rulebook.")
    st.stop()

# Each finding's current review (its own, or one for every finding of its code in the hand).
decided = ui.load(queries.decisions)
current = [current_for(decided, h, c, s) for h, c, s in found.select("hand_id", "code", "seq").iter_rows()]
words = {pair: rule_text(*pair) or "" for pair in found.select("code", "rule").unique().iter_rows()}
found = found.with_columns(
    pl.Series("review", [r.status if r else "open" for r in current], dtype=pl.String),
    pl.Series("reviewer", [r.reviewer if r else "" for r in current], dtype=pl.String),
    pl.Series("review_note", [r.note if r else "" for r in current], dtype=pl.String),
    pl.Series("rule_text", [words[pair] for pair in found.select("code", "rule").iter_rows()],
              dtype=pl.String))

cols = st.columns(6)
for col, (severity, label) in zip(cols, (("error", "Errors"), ("warning", "Warnings"), ("info", "Notes")),
                                  strict=False):
    col.metric(label, f"{found.filter(pl.col('severity') == severity).height:,}")
cols[3].metric("Hands with findings", f"{found['hand_id'].n_unique():,}")
cols[4].metric("Codes", f"{found['code'].n_unique():,}")
reviewed = found.filter(pl.col("review") != "open")
cols[5].metric("Reviewed", f"{reviewed.height:,} of {found.height:,}",
               help=f"confirmed {reviewed.filter(pl.col('review') == 'confirmed').height:,}, overturned "
                    f"{reviewed.filter(pl.col('review') == 'overturned').height:,}")

# Narrowing within the page: the values offered are those found, so nothing typed reaches SQL.
pick = st.columns(6)
narrow = {
    column: pick[i].multiselect(label, options, key=f"audit_{column}")
    for i, (column, label, options) in enumerate(
        (("severity", "Severity", sorted(found["severity"].unique().to_list())),
         ("code", "Code", sorted(found["code"].unique().to_list())),
         ("rule", "Rule", sorted(found["rule"].unique().to_list())),
         ("event", "Event", sorted(found["event"].unique().to_list())),
         ("table_name", "Table", sorted(found["table_name"].unique().to_list())),
         ("review", "Review", list(STATUSES))))
}
for column, values in narrow.items():
    if values:
        found = found.filter(pl.col(column).is_in(values))

st.subheader(f"Findings ({found.height:,})")
picked = tables.show(
    ui.with_links(found), on_select="rerun", selection_mode="single-row", key="audit_table",
    order=["hand", "seq", "severity", "code", "review", "rule", "message", "rule_text", "reviewer",
           "event", "table_name", "variant"], wide=["message", "rule_text"])
rows = picked.selection.rows if picked is not None else []
if not rows:
    st.caption("Select a row to read its rule and review it, or follow its hand link to see the hand in "
               "the replayer.")
else:
    chosen = found.row(rows[0], named=True)
    hand_id, code, seq = chosen["hand_id"], chosen["code"], chosen["seq"]
    with st.container(border=True):
        st.markdown(f"#### {code} · {ui.plain(hand_id)}, action {seq}")
        st.markdown(f"**{chosen['severity']}**: {ui.plain(chosen['message'])}")
        ui.show_rule(code, chosen["rule"], expanded=True)
        st.page_link(ui.REPLAYER, label=f"Open hand {hand_id} at action {seq} in the replayer",
                     icon=":material/play_circle:", query_params={"hand": hand_id, "seq": str(seq)})
        trail = [r for r in ui.load(queries.hand_reviews, hand_id) if r.code == code and r.seq in (seq, None)]
        if trail:
            st.markdown("Reviews, oldest first:\n" + "\n".join(
                f"- {r.at:%Y-%m-%d %H:%M} UTC: **{r.status}** by {ui.plain(r.reviewer)}"
                + (f": “{ui.plain(r.note)}”" if r.note else "") for r in trail))
        else:
            st.caption("Not reviewed yet: the finding is open.")
        ui.review_form(hand_id, code, seq, key="audit_review")


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
