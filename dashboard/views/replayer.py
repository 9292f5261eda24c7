"""Hand replayer page: one hand drawn as a table (`table_svg`), stepped line by line (`stepping`)
with stacks, bets, the pot and side pots at each step, the audit's findings beside it (those of
the current step marked), the awards recorded and computed, and the hand's raw text.

Opened from other pages as `replayer?hand=ID` (and `&seq=N` to start at action N).
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import queries, ui
from dashboard.stepping import TableState, steps
from dashboard.table_svg import render
from grammar.errors import HandSyntaxError
from pipeline.amounts import format_amount
from pipeline.formats import reader
from pipeline.model import Award

PICK, STEP, SHOWN = "replay_pick", "replay_step", "replay_hand"


@st.cache_data(show_spinner=False, max_entries=64)
def table_states(raw_text: str, fmt: str, awards: tuple[Award, ...]) -> list[TableState]:
    """The hand read back from its stored text with its source format's reader, stepped."""
    return steps(reader(fmt)(raw_text), awards)


def pushed(awards: pl.DataFrame) -> tuple[Award, ...]:
    """The awards the replay pushes: the computed ones where the audit wrote them, else the
    recorded ones (amounts back in hundredths)."""
    computed = awards.filter(pl.col("origin") == "computed")
    chosen = computed if not computed.is_empty() else awards.filter(pl.col("origin") != "computed")
    return tuple(Award(r["player"], round(r["amount"] * 100), r["pot"], r["portion"])
                 for r in chosen.iter_rows(named=True))


def move(delta: int, last: int) -> None:
    st.session_state[STEP] = max(0, min(last, st.session_state.get(STEP, last) + delta))


def go(step: int) -> None:
    st.session_state[STEP] = step


def picked() -> None:
    st.query_params["hand"] = st.session_state[PICK]
    st.query_params.pop("seq", None)


f = ui.filters()
ui.page_title("Hand replayer", "Step through a hand as it was recorded; findings cite the action they are "
              "about.")
listed = ui.load(queries.hand_list, f)
labels = {r["hand_id"]: f"{r['hand_id']} · {r['variant']} · {r['started_at'] or 'no date'}"
          + (f" · {r['findings']} findings" if r["findings"] else "") for r in listed.iter_rows(named=True)}
wanted = st.query_params.get("hand")
if wanted and wanted not in labels:
    labels = {wanted: wanted, **labels}
if not labels:
    st.info("No hands match the filters.")
    st.stop()
if wanted and st.session_state.get(SHOWN) != wanted:
    st.session_state[PICK] = wanted
elif st.session_state.get(PICK) not in labels:
    st.session_state.pop(PICK, None)
hand_id = st.selectbox("Hand", list(labels), key=PICK, on_change=picked, format_func=labels.__getitem__)

found = ui.load(queries.hand, hand_id)
if found.is_empty():
    st.error(f"There is no hand {ui.plain(repr(hand_id))} in the database.")
    st.stop()
row = found.row(0, named=True)
awards = ui.load(queries.hand_awards, hand_id)
findings = ui.load(queries.hand_findings, hand_id)
try:
    states = table_states(row["raw_text"], row["format"], pushed(awards))
except (HandSyntaxError, KeyError, ValueError) as exc:
    st.error(f"This hand cannot be stepped through: {ui.plain(exc)}")
    st.code(row["raw_text"], language=None)
    st.stop()

last = len(states) - 1
if st.session_state.get(SHOWN) != hand_id:  # a new hand: start at the cited action, else at the end
    st.session_state[SHOWN] = hand_id
    seq = st.query_params.get("seq")
    start = next((s.step for s in states if seq and seq.isdigit() and int(seq) in s.seqs), last)
    st.session_state[STEP] = start
st.session_state[STEP] = min(st.session_state.get(STEP, last), last)

buttons = st.columns([1, 1, 6, 1, 1])
buttons[0].button("Start", icon=":material/first_page:", help="the seats, before any action", on_click=go,
                  args=(0,), width="stretch", key="replay_first")
buttons[1].button("Back", icon=":material/chevron_left:", help="the previous step", on_click=move,
                  args=(-1, last), width="stretch", key="replay_prev")
buttons[2].slider("Step", 0, last, key=STEP, label_visibility="collapsed")
buttons[3].button("Next", icon=":material/chevron_right:", help="the next step", on_click=move,
                  args=(1, last), width="stretch", key="replay_next")
buttons[4].button("End", icon=":material/last_page:", help="the end of the hand, the pots pushed",
                  on_click=go, args=(last,), width="stretch", key="replay_last")
state = states[st.session_state[STEP]]

picture, side = st.columns([4, 1])
with picture:
    st.image(render(state), width="stretch")
    st.text(f"Step {state.step} of {last}: {state.text}")
with side:
    st.subheader("Pot")
    st.metric("Pot", format_amount(state.pot), label_visibility="collapsed")
    if len(state.pots) > 1:
        st.dataframe(pl.DataFrame({
            "pot": ["main" if p.index == 0 else f"side {p.index}" for p in state.pots],
            "chips": [format_amount(p.amount) for p in state.pots],
            "eligible": [", ".join(p.eligible) for p in state.pots]}), hide_index=True)
    st.subheader("Findings")
    if findings.is_empty():
        st.caption("None: the hand replays clean under its rules profile.")
    now = findings.filter(pl.col("seq").is_in(list(state.seqs)))
    for r in now.iter_rows(named=True):
        st.warning(f"{r['severity']} {r['code']} at this step: {ui.plain(r['message'])} "
                   f"({ui.plain(r['rule'])})")
    if not findings.is_empty():
        st.dataframe(findings, hide_index=True, column_config={"seq": "action"})
    facts = (row["event"], row["table_name"] and f"table {row['table_name']}",
             row["level"] and f"level {row['level']}", row["started_at"] and str(row["started_at"]),
             row["rules_profile"])
    st.caption(ui.plain(" · ".join(v for v in facts if v)))

lines, seats, pushes, raw = st.tabs(["All steps", "Seats and stacks", "Awards", "Raw text"])
with lines:
    st.dataframe(pl.DataFrame({"step": [s.step for s in states],
                               "street": [(s.street or "").replace("_", " ") for s in states],
                               "line": [s.text for s in states],
                               "actions": [", ".join(map(str, s.seqs)) for s in states]}),
                 hide_index=True, height=300)
with seats:
    st.caption("Ending stack: start - chips put in + the awards (computed where the audit settled the "
               "pots); final stack: the summary's count, if any.")
    st.dataframe(ui.load(queries.hand_seats, hand_id), hide_index=True)
with pushes:
    st.caption("Recorded: what the dealer pushed. Computed: what the rules push (written by the audit); "
               "the replay pushes the computed ones where there are any.")
    st.dataframe(awards, hide_index=True)
with raw:
    st.code(row["raw_text"], language=None)
