"""Hand replayer page: one hand as it was recorded, drawn as a table (`table_svg`) and stepped line by
line (`stepping`), the dealer's pushes included; where the rules push a pot otherwise, both pushes
side by side at that pot's step. The findings are called out at the step they are about, at full
width with the words of the rule they cite, and each can be reviewed. Autoplay and keyboard steps
(Streamlit's documented button shortcuts: ← → Home End, Space to play), a search by hand id,
player or board, and each shown hand's strength under its player.

A finding across a table's hands (evaluator/sequences.py) opens the hand before it at the table
with one click.

Opened from other pages as `replayer?hand=ID` (and `&seq=N` to start at action N).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl
import streamlit as st

from dashboard import queries, tables, ui
from dashboard.labels import game_name
from dashboard.stepping import TableState, steps, strengths
from dashboard.table_svg import render
from evaluator.findings import SEQUENCE_CODES
from grammar.errors import HandSyntaxError
from pipeline.amounts import SCALE
from pipeline.formats import reader
from pipeline.model import Award
from pipeline.reviews import current_for
from pipeline.units import UNKNOWN_MONEY, Unit

PICK, STEP, SHOWN, SEARCH = "replay_pick", "replay_step", "replay_hand", "replay_search"
PLAY = "replay_playing"  # not the Play button's key: a widget's state cannot be set
AUTOPLAY_EVERY = 1.2  # seconds a step stays on screen while playing
# The findings that say the rules push a pot otherwise than the record (evaluator.award_check):
# the audit cites them at the hand's last action; the replayer calls them out at the push.
PUSH_CODES = frozenset({"WRONG_AWARD", "MISREAD_HAND", "LOW_DID_NOT_QUALIFY", "TIE_NOT_SPLIT",
                        "WRONG_ODD_CHIP", "SEVENS_REFUND_IGNORED"})
SEVERITY_COLOUR = {"error": "red", "warning": "orange", "info": "blue"}


@st.cache_data(show_spinner=False, max_entries=64)
def table_states(raw_text: str, fmt: str, rules: tuple[Award, ...], rules_hands: tuple[str | None, ...],
                 compare: bool) -> list[TableState]:
    """The hand read back from its stored text with its source format's reader, stepped through
    the record's pushes, and the rules' beside them when `compare` (the audit found they differ).
    A record without pushes (PHH writes none) is pushed what the rules award."""
    hand = reader(fmt)(raw_text)
    shown = strengths(hand)
    if not hand.awards:
        return steps(hand, rules, strengths=shown)
    return steps(hand, hand.awards, rules if compare else (),
                 {i: h for i, h in enumerate(rules_hands) if h}, shown)


def computed(awards: pl.DataFrame) -> tuple[tuple[Award, ...], tuple[str | None, ...]]:
    """What the rules push (the audit's computed awards, amounts back in hundredths) and what for:
    the winning hand, or the portion where there is none (chips the sevens rule returns)."""
    rows = list(awards.filter(pl.col("origin") == "computed").iter_rows(named=True))
    return (tuple(Award(r["player"], round(r["amount"] * 100), r["pot"], r["portion"]) for r in rows),
            tuple(r["hand"] or r["portion"] for r in rows))


def step_of(states: Sequence[TableState], seq: int, code: str) -> int:
    """The step a finding is about: a push finding at the pot whose pushes differ, one about the
    hand as a whole (action 0) at the seats, else the step of its action (the last step when the
    action is past the record's lines)."""
    if seq == 0:
        return 0
    if code in PUSH_CODES:
        contrast = next((s.step for s in states if s.rules), None)
        if contrast is not None:
            return contrast
    return next((s.step for s in states if seq in s.seqs), len(states) - 1)


def move(delta: int, last: int) -> None:
    st.session_state[STEP] = max(0, min(last, st.session_state.get(STEP, last) + delta))
    st.session_state[PLAY] = False


def go(step: int) -> None:
    st.session_state[STEP] = step
    st.session_state[PLAY] = False


def play(last: int) -> None:
    playing = not st.session_state.get(PLAY, False)
    st.session_state[PLAY] = playing
    if playing and st.session_state.get(STEP, last) >= last:
        st.session_state[STEP] = 0  # playing from the end starts again


def picked() -> None:
    open_hand(st.session_state[PICK])


def open_hand(other: str) -> None:
    """Show another hand from its start: the query names it, as a link from another page would."""
    st.query_params["hand"] = other
    st.query_params.pop("seq", None)


f = ui.filters()
ui.page_title("Hand replayer", "Step through a hand as it was recorded, the dealer's pushes included; "
              "where the rules push otherwise, both are shown. Keys: ← back, → next, Home, End, Space to "
              "play or pause.")
search = st.text_input("Find a hand", key=SEARCH,
                       placeholder="a hand id, a player's name, or board cards such as Ah Kd 7c",
                       help="cards are looked for on the boards (each of them); any other text in hand ids "
                       "and players' names")
listed = ui.load(queries.hand_list, f, search)
labels = {r["hand_id"]: f"{r['hand_id']} · {game_name(r['variant'])} · {r['started_at'] or 'no date'}"
          + (f" · {r['findings']} finding{'s' if r['findings'] > 1 else ''}" if r["findings"] else "")
          for r in listed.iter_rows(named=True)}
wanted = st.query_params.get("hand")
if wanted and wanted not in labels:
    labels = {wanted: wanted, **labels}
if not labels:
    st.info("No hands match the filters and the search.")
    st.stop()
if wanted and st.session_state.get(SHOWN) != wanted:
    st.session_state[PICK] = wanted
elif st.session_state.get(PICK) not in labels:
    st.session_state.pop(PICK, None)
hand_id = st.selectbox(f"Hand ({len(labels):,} found)", list(labels), key=PICK, on_change=picked,
                       format_func=labels.__getitem__)

found = ui.load(queries.hand, hand_id)
if found.is_empty():
    st.error(f"There is no hand {ui.plain(repr(hand_id))} in the database.")
    st.stop()
row = found.row(0, named=True)
money = Unit(row.get("unit") or UNKNOWN_MONEY)  # every amount of the hand is in its unit
awards = ui.load(queries.hand_awards, hand_id)
findings = ui.load(queries.hand_findings, hand_id)
decided = ui.load(queries.decisions)
rules, rules_hands = computed(awards)
try:
    states = table_states(row["raw_text"], row["format"], rules, rules_hands,
                          bool(findings.filter(pl.col("code").is_in(PUSH_CODES)).height))
except (HandSyntaxError, KeyError, ValueError) as exc:
    st.error(f"This hand cannot be stepped through: {ui.plain(exc)}")
    st.code(row["raw_text"], language=None)
    st.stop()
callouts = [(step_of(states, r["seq"], r["code"]), r) for r in findings.iter_rows(named=True)]
# A finding across hands compares this hand with the one before it at the table: that one is a
# click away (none for a table's first stored hand).
before = ui.load(queries.hand_before, hand_id) if findings["code"].is_in(SEQUENCE_CODES).any() else None

last = len(states) - 1
if st.session_state.get(SHOWN) != hand_id:  # a new hand: start at the cited action, else at the end
    st.session_state[SHOWN] = hand_id
    st.session_state[PLAY] = False
    seq = st.query_params.get("seq")
    cited = [at for at, r in callouts if seq and seq.isdigit() and r["seq"] == int(seq)]
    st.session_state[STEP] = min(cited, default=last)
st.session_state[STEP] = min(st.session_state.get(STEP, last), last)

stopped = findings.filter(pl.col("code") == "REPLAY_STOPPED")
if not stopped.is_empty() or states[-1].stopped:
    # The audit's own words ("replay stopped at action N: why"), else where the table stopped.
    why = (str(stopped["message"][0]) if not stopped.is_empty()
           else f"the table stopped at {states[-1].stopped}")
    st.warning(f"**{ui.plain(why[:1].upper() + why[1:])}.** The record cannot be followed past that point: "
               "the later steps show its lines as written, with the chips where they could be followed (the "
               "pot never counts chips returned that were not in front of the player).", icon="⛔")
if rules and awards.filter(pl.col("origin") != "computed").is_empty():
    st.caption("The record has no pushes (PHH writes none): the last steps push what the rules award.")


def amount(hundredths: int) -> str:
    """An amount of the hand (hundredths, as the steps count it) written in the hand's unit."""
    return money.amount(hundredths / SCALE) or ui.NA


def badge(severity: str) -> str:
    """A finding's severity as a coloured badge (Streamlit Markdown)."""
    return f":{SEVERITY_COLOUR.get(severity, 'gray')}-badge[{severity}]"


def pushes_frame(state: TableState) -> pl.DataFrame:
    """The record's and the rules' pushes of the pots where they differ, one row per push."""
    def rows(who: str, pushes: Sequence[Any]) -> dict[str, list[Any]]:
        return {"by": [who] * len(pushes), "pot": ["main" if p.pot == 0 else f"side {p.pot}" for p in pushes],
                "player": [p.player for p in pushes], "chips": [amount(p.amount) for p in pushes],
                "hand": [p.hand or "" for p in pushes]}

    record, rule = rows("the record", state.record), rows("the rules", state.rules)
    return pl.DataFrame({k: record[k] + rule[k] for k in record})


TICKING = bool(st.session_state.get(PLAY))  # whether this page run starts the autoplay timer


@st.fragment(run_every=AUTOPLAY_EVERY if TICKING else None)
def stage() -> None:
    """The steps' controls, the table and what happens at the step: a fragment, so that autoplay
    redraws only this part."""
    if st.session_state.get(PLAY) and st.session_state[STEP] >= last:
        st.session_state[PLAY] = False  # the end of the hand: autoplay stops there
    playing = st.session_state.get(PLAY, False)
    if playing != TICKING:
        st.rerun()  # the whole page, which starts or stops the timer
    if playing:
        st.session_state[STEP] += 1
    buttons = st.columns([1.6, 1.3, 2.4, 1.3, 1.3, 1.4])
    buttons[0].button("Start", icon=":material/first_page:", help="the seats, before any action", on_click=go,
                      args=(0,), width="stretch", key="replay_first", shortcut="Home")
    buttons[1].button("Back", icon=":material/chevron_left:", help="the previous step", on_click=move,
                      args=(-1, last), width="stretch", key="replay_prev", shortcut="Left")
    buttons[2].slider("Step", 0, last, key=STEP, label_visibility="collapsed")
    buttons[3].button("Next", icon=":material/chevron_right:", help="the next step", on_click=move,
                      args=(1, last), width="stretch", key="replay_next", shortcut="Right")
    buttons[4].button("End", icon=":material/last_page:", help="the end of the hand, the pots pushed",
                      on_click=go, args=(last,), width="stretch", key="replay_last", shortcut="End")
    buttons[5].button("Pause" if playing else "Play",
                      icon=":material/pause:" if playing else ":material/play_arrow:",
                      help=f"step through by itself, a step every {AUTOPLAY_EVERY} s", on_click=play,
                      args=(last,), width="stretch", key="replay_play", shortcut="Space")
    state = states[st.session_state[STEP]]

    picture, side = st.columns([4, 1])
    with picture:
        st.image(render(state), width="stretch")
        st.text(f"Step {state.step} of {last}: {state.text}")
    with side:
        st.subheader("Pot", help=f"every amount of this hand is in {money.name}")
        st.metric("Pot", amount(state.pot), label_visibility="collapsed")
        if len(state.pots) > 1:
            st.dataframe(pl.DataFrame({
                "pot": ["main" if p.index == 0 else f"side {p.index}" for p in state.pots],
                "chips": [amount(p.amount) for p in state.pots],
                "eligible": [", ".join(p.eligible) for p in state.pots]}), hide_index=True)
        facts = (row["event"], row["table_name"] and f"table {row['table_name']}",
                 row["level"] and f"level {row['level']}", row["started_at"] and str(row["started_at"]),
                 row["rules_profile"], f"amounts in {money.name}")
        st.caption(ui.plain(" · ".join(v for v in facts if v)))

    if state.rules:
        st.warning("**The rules push this pot otherwise than the record.** The table shows the record's push "
                   "(green, ringed in red where the rules do not give it) and the rules' (purple).", icon="⚖️")
        st.dataframe(pushes_frame(state), hide_index=True, width="stretch")
    for at, r in callouts:
        if at == state.step:
            with st.container(border=True):
                st.markdown(f"{badge(r['severity'])} **{r['code']}** at this step, action {r['seq']}: "
                            f"{ui.plain(r['message'])}")
                ui.show_rule(r["code"], r["rule"])


stage()

st.subheader(f"Findings ({findings.height:,})")
if findings.is_empty():
    st.caption("None: the hand replays clean under its rules profile.")
for at, r in callouts:
    review = current_for(decided, hand_id, r["code"], r["seq"])
    with st.container(border=True):
        head = st.columns([5, 1])
        head[0].markdown(f"{badge(r['severity'])} **{r['code']}** · action {r['seq']} (step {at}): "
                         f"{ui.plain(r['message'])}")
        head[1].button("Go to the step", key=f"replay_goto_{r['code']}_{r['seq']}", on_click=go, args=(at,),
                       width="stretch")
        if r["code"] in SEQUENCE_CODES and before is not None:
            st.button(f"Open the hand before at the table: {before}", icon=":material/history:",
                      key=f"replay_before_{r['code']}_{r['seq']}", on_click=open_hand, args=(before,),
                      help="the hand dealt before this one at its table, from its start")
        ui.show_rule(r["code"], r["rule"])
        st.caption(f"Review: {review.status} by {ui.plain(review.reviewer)} at {review.at:%Y-%m-%d %H:%M} UTC"
                   + (f", “{ui.plain(review.note)}”" if review.note else "") if review else "Review: open.")
        with st.expander("Review this finding"):
            ui.review_form(hand_id, r["code"], r["seq"], key=f"replay_review_{r['code']}_{r['seq']}")

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
    tables.show(ui.load(queries.hand_seats, hand_id), money)
with pushes:
    st.caption("Recorded: what the dealer pushed (the steps above). Computed: what the rules push (written "
               "by the audit), with the hand each is pushed for.")
    tables.show(awards, money)
with raw:
    st.code(row["raw_text"], language=None)
