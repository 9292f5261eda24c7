"""Record a hand page: the floor's account of a hand entered step by step (`dashboard.recording`).

Choose the game, structure, stakes and seats; then each step shows what the rules allow (the
cards to deal, the betting decisions with their amounts, draws, choices, dice, removals) and a
director may also enter what the rules do not allow, which is marked with its finding at once.
The native text grows beside it; at the end it can be downloaded, and stored and audited
through the Ingest page's path (`dashboard.uploads`).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import polars as pl
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dashboard import recording as rec
from dashboard import ui, uploads
from dashboard.connection import DatabaseBusy, database_path
from evaluator.catalog import GAMES
from evaluator.findings import Finding
from pipeline.amounts import AmountError, format_amount, parse_amount
from pipeline.model import Action, Award, Seat
from pipeline.store import StoreError

RECORDER, STORED = "recorder", "recorder_stored"
SUIT_NAMES = {"s": "♠ spades", "h": "♥ hearts", "d": "♦ diamonds", "c": "♣ clubs"}
FORM_NAMES = {"plain": "Plain", "big_blind_ante": "Big blind ante (§1.5)",
              "jam_or_fold": "Jam-or-fold (§1.8)", "straddle": "Straddle (twice the big blind)",
              "bomb_pot": "Bomb pot (§1.6)"}
KINDS = ("fold", "check", "call", "bet", "raise", "complete", "bring_in")
DEFAULT_SEATS = pl.DataFrame({"seat": [1, 2, 3, 4], "player": ["Ann", "Bo", "Cy", "Di"],
                              "stack": ["200", "200", "200", "200"], "sitting out": [False] * 4})


def amount(text: str, what: str) -> int | None:
    """An amount typed as the histories write it (`1,250`, `12.50`); None, with an error shown,
    when it is not one."""
    try:
        return parse_amount(text.strip())
    except (AmountError, ValueError):
        st.error(f"{what}: {ui.plain(text)!s} is not an amount (digits, thousands separators, at most "
                 "two decimals)")
        return None


def cards(text: str) -> tuple[str, ...] | None:
    try:
        return rec.parse_cards(text)
    except rec.RecordingError as exc:
        st.error(f"Cards: {ui.plain(exc)}")
        return None


def findings_list(found: list[tuple[str, Finding]]) -> None:
    """Findings, each after where it arose, as a list (not as error boxes: they are what the page
    is for, not its failures)."""
    colour = {"error": "red", "warning": "orange"}
    st.markdown("\n".join(f"- {where}:{colour.get(f.severity, 'blue')}[**{f.code.name}**] "
                          f"({ui.plain(f.rule)}): {ui.plain(f.message)}" for where, f in found))


# ---- the table ----
def setup() -> None:
    st.subheader("The table")
    games = sorted(GAMES, key=lambda g: GAMES[g].variant.name)
    left, middle, right = st.columns(3)
    variant = left.selectbox("Game", games, format_func=lambda g: GAMES[g].variant.name, key="rec_game",
                             index=games.index("texas_holdem"))
    structure = middle.selectbox("Structure", GAMES[variant].structures, key="rec_structure")
    table_name = right.text_input("Table", "Floor 1", key="rec_table")
    items = rec.stake_items(variant, structure)
    amounts: dict[str, int] = {}
    for column, item in zip(st.columns(len(items)), items, strict=True):
        label = item.replace("_", " ").capitalize()
        typed = column.text_input(label, format_amount(rec.EXAMPLE_STAKES[item]),
                                  key=f"rec_stake_{variant}_{structure}_{item}")
        value = amount(typed, item.replace("_", " "))
        if value is not None:
            amounts[item] = value
    form, extra = "plain", None
    offered = rec.forms(variant, structure)
    if len(offered) > 1:
        left, right = st.columns(2)
        form = left.selectbox("Form", offered, format_func=lambda f: FORM_NAMES[f], key="rec_form")
        multiple = rec.FORMS[form]
        if multiple is not None:
            typed = right.text_input(FORM_NAMES[form] + " amount",
                                     format_amount(multiple * amounts.get("big_blind", 0)),
                                     key=f"rec_form_amount_{form}")
            extra = amount(typed, FORM_NAMES[form])
            if extra is None:
                return
    st.caption("Seats: one row per seated player; stacks as the histories write them (1,250 or 12.50).")
    seats_frame = st.data_editor(DEFAULT_SEATS, num_rows="dynamic", key="rec_seats", hide_index=True)
    left, right = st.columns(2)
    has_button = GAMES[variant].forced != "antes"
    button = left.number_input("Button seat", 1, 10, 1, key="rec_button", disabled=not has_button)
    hand_id = right.text_input("Hand id", f"rec-{datetime.now():%Y%m%d-%H%M%S}", key="rec_hand_id")
    if not st.button("Start recording", type="primary", key="rec_start"):
        return
    seats: list[Seat] = []
    for row in seats_frame.iter_rows(named=True):
        if not row["player"]:
            continue
        stack = amount(str(row["stack"] or ""), f"{row['player']}'s stack")
        if stack is None:
            return
        seats.append(Seat(int(row["seat"] or 0), str(row["player"]).strip(), stack, bool(row["sitting out"])))
    if len(amounts) < len(items):
        return
    try:
        stakes = rec.in_form(rec.stakes_of(amounts), form, extra)
        shell = rec.new_hand(hand_id.strip(), variant, structure, stakes, tuple(seats),
                             int(button) if has_button else None, table_name.strip() or "Floor",
                             started_at=datetime.now().replace(microsecond=0))
        st.session_state[RECORDER] = rec.Recorder(shell, straddle=form == "straddle")
    except rec.RecordingError as exc:
        st.error(ui.plain(exc))
        return
    st.session_state.pop(STORED, None)
    st.rerun()


# ---- one step ----
def enter(recorder: rec.Recorder, answer: rec.Answer) -> None:
    """Enter an answer the run has just read from the widgets, and show the next step."""
    recorder.enter(answer)
    st.rerun()


def answer_button(column: DeltaGenerator, label: str, key: str, recorder: rec.Recorder, answer: rec.Answer,
                  primary: bool = True) -> None:
    """A button whose answer is fixed by the step alone (a betting size, a game, show or muck):
    entered by its callback, before the run that then shows the next step, so a click costs one
    page run, not a run that enters it and a second (`st.rerun`) that shows it."""
    column.button(label, key=key, type="primary" if primary else "secondary", width="stretch",
                  on_click=entered, args=(recorder, answer))


def entered(recorder: rec.Recorder, answer: rec.Answer) -> None:
    recorder.enter(answer)  # its findings are the recorder's marks, shown by the run that follows


def pushed(recorder: rec.Recorder) -> None:
    recorder.push()  # the findings are the recorder's `final`, shown by the run that follows


def card_picker(label: str, pool: list[str], key: str) -> tuple[str, ...]:
    """Cards picked from `pool`, grouped by suit, or typed (typing wins)."""
    typed = st.text_input(f"{label} (type them, e.g. Ah Kd, or pick below)", key=f"{key}_typed")
    picked: list[str] = []
    for suit, name in SUIT_NAMES.items():
        options = [c for c in pool if c[1:] == suit]
        if options:
            picked += st.pills(name, options, selection_mode="multi", key=f"{key}_{suit}") or []
    others = [c for c in pool if c[1:] not in SUIT_NAMES]  # the joker
    if others:
        picked += st.pills("other", others, selection_mode="multi", key=f"{key}_other") or []
    if typed.strip():
        return cards(typed) or ()
    return tuple(picked)


def betting(recorder: rec.Recorder, step: rec.Step, key: str) -> None:
    moves = step.moves
    assert moves is not None
    street = step.street
    st.markdown(f"**{ui.plain(step.player)}** to act: stack {format_amount(moves.stack)}"
                + (f", {format_amount(moves.owed)} to call" if moves.owed else ""))
    offers: list[tuple[str, Action]] = []
    if moves.bring_in is not None:
        offers.append((f"Bring-in {format_amount(moves.bring_in)}",
                       rec.betting_action(street, moves, "bring_in", moves.bring_in)))
    else:
        if moves.owed > 0:
            offers.append(("Fold", rec.betting_action(street, moves, "fold")))
        if moves.check and not moves.jam_only:
            offers.append(("Check", rec.betting_action(street, moves, "check")))
        if moves.owed > 0 and moves.may_call:
            offers.append((f"Call {format_amount(moves.call)}", rec.betting_action(street, moves, "call")))
    word = (moves.wager or "").replace("_", " ").capitalize()
    sizes = (moves.all_in,) if moves.jam_only and moves.can_wager_all_in else moves.sizes
    for size in sizes:
        offers.append((f"{word} to {format_amount(size)}",
                       rec.betting_action(street, moves, moves.wager or "", size)))
    for column, (label, action) in zip(st.columns(max(len(offers), 1)), offers, strict=False):
        answer_button(column, label, f"{key}_{label}", recorder, (action,))
    if moves.wager and not sizes and moves.low <= moves.high:
        left, right = st.columns([3, 1])
        jam = f"; all-in {format_amount(moves.all_in)}" if moves.can_wager_all_in else ""
        span = f"from {format_amount(moves.low)} to {format_amount(moves.high)}{jam}"
        typed = left.text_input(f"{word} to ({span})", format_amount(moves.low), key=f"{key}_total")
        if right.button(word, key=f"{key}_wager", type="primary", width="stretch"):
            total = amount(typed, word)
            if total is not None:
                action = rec.betting_action(street, moves, moves.wager, total)
                if rec.is_legal(moves, action):
                    enter(recorder, (action,))
                st.error(f"{word} to {format_amount(total)} is outside the allowed range; enter it below "
                         "as a deliberate mistake if that is what happened.")
    with st.expander("Enter an action the rules do not allow (it is marked with its finding)"):
        names = [s.player for s in recorder.shell.seats]
        who = st.pills("Player", names, default=moves.player, key=f"{key}_x_player") or moves.player
        kind = st.pills("Action", KINDS, key=f"{key}_x_kind")
        left, right = st.columns([3, 1])
        typed = left.text_input("Amount (a raise or completion: the total)", "0", key=f"{key}_x_total")
        if right.button("Enter anyway", key=f"{key}_x_enter", disabled=kind is None, width="stretch"):
            total = amount(typed, "Amount")
            if total is not None and kind is not None:
                action = rec.betting_action(street, moves, kind, total)
                if kind == "call":
                    action = replace(action, amount=total, all_in=total == moves.stack)
                enter(recorder, (replace(action, player=who),))


def card_step(recorder: rec.Recorder, step: rec.Step, key: str) -> None:
    """Deals, boards, draws, discards, splits and exposures: cards picked, checked against the
    count the rules give, entered anyway when the director says so."""
    kind, stub = step.kind, recorder.stub
    who = ui.plain(step.player or "the dealer")
    if kind in (rec.DEAL, rec.BOARD):
        target = f"board {step.detail}" if kind == rec.BOARD else f"{who}, face {step.detail}"
        st.markdown(f"**Deal {step.count} card{'s' * (step.count != 1)}** to {target}")
        picked = card_picker("Cards dealt", stub, f"{key}_deal")
        drawn: tuple[str, ...] = ()
        wanted, verb = (step.count, step.count), "Deal"
    else:
        verb = {rec.DRAW: "Draw", rec.DISCARD: "Discard", rec.SPLIT: "Split", rec.EXPOSE: "Expose"}[kind]
        span = f"{step.fewest} to {step.most}" if step.fewest != step.most else f"{step.most}"
        st.markdown(f"**{who}** holds {' '.join(step.cards)}: "
                    + {rec.DRAW: f"changes {span} cards", rec.DISCARD: f"throws away {span} cards",
                       rec.SPLIT: "picks the two cards of the Hold'em hand",
                       rec.EXPOSE: f"turns up {span} card{'s' * (step.most != 1)}" if step.fewest
                       else "may turn up a card"}[kind])
        picked = card_picker("Cards thrown" if kind in (rec.DRAW, rec.DISCARD) else "Cards",
                             list(step.cards), f"{key}_held")
        drawn = card_picker("Cards drawn", stub, f"{key}_drawn") if kind == rec.DRAW and picked else ()
        wanted = (2, 2) if kind == rec.SPLIT else (step.fewest, step.most)
    legal = wanted[0] <= len(picked) <= wanted[1] and (kind != rec.DRAW or len(drawn) == len(picked))
    label = verb if legal else f"{verb} anyway (a mistake: it is marked)"
    if not legal:
        span = f"{wanted[0]} to {wanted[1]}" if wanted[1] != wanted[0] else f"{wanted[0]}"
        st.caption(f"{len(picked)} picked; the rules want {span}"
                   + (f", and as many drawn ({len(drawn)} so far)" if kind == rec.DRAW else ""))
    if st.button(label, key=f"{key}_enter", type="primary" if legal else "secondary"):
        enter(recorder, rec.answer(step, picked, drawn))


def buy_step(recorder: rec.Recorder, step: rec.Step, key: str) -> None:
    """A paid option (docs/games.md "Paid options"): the player declines, or pays the price for
    what the street sells: the number of their cards to play, a card from the stub, a twist."""
    who = ui.plain(step.player or "")
    price = format_amount(step.count)
    offered = {"twist": "a twist: one card thrown away and replaced", "down": "one more down card",
               "up": "one more up card", "hole": "the use of another number of down cards"}
    st.markdown(f"**{who}** may pay {price} (the max bet) for {offered.get(step.detail or '', '')}")
    answer_button(st.columns(1)[0], "Does not buy", f"{key}_no", recorder, (), primary=False)
    if step.options:  # the number of their cards to play (Omaha 33)
        for column, count in zip(st.columns(len(step.options)), step.options, strict=True):
            answer_button(column, f"Pays {price}, plays {count}", f"{key}_{count}", recorder,
                          rec.answer(step, (count,)))
        return
    twist = step.detail == "twist"
    thrown = card_picker("Card thrown", list(step.cards), f"{key}_held") if twist else ()
    got = card_picker("Card drawn" if twist else "Card dealt", recorder.stub, f"{key}_got")
    legal = len(got) == 1 and (len(thrown) == 1 or not twist)
    if st.button(f"Pays {price}" if legal else f"Pays {price} anyway (a mistake: it is marked)",
                 key=f"{key}_buy", type="primary" if legal else "secondary"):
        enter(recorder, rec.answer(step, thrown, got) if twist else rec.answer(step, got))


def other_step(recorder: rec.Recorder, step: rec.Step, key: str) -> None:
    """Choices, dice, removals and the showdown: a button for each thing the rules allow."""
    who = ui.plain(step.player or "the dealer")
    if step.kind == rec.CHOOSE:
        st.markdown(f"**{who}** chooses the game (§2.38)")
        for column, game in zip(st.columns(len(step.options)), step.options, strict=True):
            answer_button(column, GAMES[game].variant.name, f"{key}_{game}", recorder,
                          rec.answer(step, (game,)))
    elif step.kind == rec.BUY:
        buy_step(recorder, step, key)
    elif step.kind == rec.DECLARE:
        st.markdown(f"**{who}** declares (docs/games.md, declarations)")
        for column, word in zip(st.columns(len(step.options)), step.options, strict=True):
            answer_button(column, word.capitalize(), f"{key}_{word}", recorder, rec.answer(step, (word,)))
    elif step.kind == rec.ROLL:
        st.markdown(f"**{who}** rolls {step.dice} dice (§1.13)")
        faces = [str(c.selectbox(f"Die {i + 1}", range(1, 7), key=f"{key}_die{i}"))
                 for i, c in enumerate(st.columns(step.dice))]
        if st.button("Roll", key=f"{key}_roll", type="primary"):
            enter(recorder, rec.answer(step, tuple(faces)))
    elif step.kind == rec.REMOVE:
        st.markdown("The dealer removes the rows whose river card is lowest (§2.34)")
        rows = st.multiselect("Rows removed", ["1", "2", "3"], list(step.options), key=f"{key}_rows")
        if st.button("Remove", key=f"{key}_remove", type="primary"):
            enter(recorder, rec.answer(step, tuple(rows)))
    elif step.kind == rec.SHOW:
        described = f" ({ui.plain(step.detail)})" if step.detail else ""
        st.markdown(f"**{who}** at the showdown: {' '.join(step.cards)}{described}")
        left, right = st.columns(2)
        answer_button(left, "Show", f"{key}_show", recorder, rec.answer(step, ("show",)))
        answer_button(right, "Muck", f"{key}_muck", recorder, rec.answer(step, ("muck",)), primary=False)


def pushes(recorder: rec.Recorder) -> None:
    st.markdown("**The hand is over.** What the rules push from each pot:")
    computed = recorder.computed_awards()
    frame = pl.DataFrame({"player": [a.player for a in computed], "pot": [a.pot for a in computed],
                          "portion": [a.portion or "" for a in computed],
                          "amount": [format_amount(a.amount) for a in computed]},
                         schema={"player": pl.String, "pot": pl.Int64, "portion": pl.String,
                                 "amount": pl.String})
    if recorder.settlement.unchecked:
        st.warning(f"The pots cannot be settled from the record: {ui.plain(recorder.settlement.unchecked)}")
    # Pushed by the callback, before the run, as answer_button's answers are.
    st.button("Push as the rules say", key="rec_push", type="primary", on_click=pushed, args=(recorder,))
    st.caption("Or enter what the dealer actually pushed (a difference is a finding):")
    edited = st.data_editor(frame, num_rows="dynamic", key="rec_pushes", hide_index=True)
    if st.button("Push these", key="rec_push_entered"):
        entered = []
        for row in edited.iter_rows(named=True):
            chips = amount(str(row["amount"] or ""), f"{row['player']}'s push")
            if chips is None or not row["player"]:
                return
            entered.append(Award(str(row["player"]), chips, int(row["pot"] or 0), row["portion"] or None))
        recorder.push(tuple(entered))
        st.rerun()


def store(recorder: rec.Recorder) -> None:
    hand = recorder.hand()
    found = recorder.final
    st.markdown(f"**Recorded.** The audit of the whole hand: {len(found)} finding{'s' * (len(found) != 1)}.")
    findings_list([("", f) for f in found])
    left, right = st.columns(2)
    left.download_button("Download the history (.bhh)", recorder.text(), f"{hand.hand_id}.bhh",
                         key="rec_download", width="stretch")
    if right.button("Store and audit", key="rec_store", type="primary", width="stretch"):
        notice = st.empty()

        def waiting(message: str) -> None:
            notice.info(f"The database is busy, retrying: {message}")

        try:
            with st.spinner("Storing and auditing…"):
                st.session_state[STORED] = uploads.ingest_uploads(
                    [uploads.Upload(f"{uploads.safe_name(hand.hand_id)}.bhh", recorder.text().encode())],
                    database_path(), on_wait=waiting)
        except (uploads.UploadRefused, DatabaseBusy, StoreError) as exc:
            notice.error(f"Nothing was stored: {ui.plain(exc)}")
    report = st.session_state.get(STORED)
    if report:
        audit = report["audit"]
        st.success(f"Stored hands {report['hands']:,}, duplicates skipped {report['duplicates']:,}, "
                   f"rejected {report['rejects']:,}; the audit found {audit['errors']:,} errors, "
                   f"{audit['warnings']:,} warnings and {audit['infos']:,} notes.")
        st.page_link(ui.REPLAYER, label="Open it in the hand replayer", query_params={"hand": hand.hand_id})


def recording(recorder: rec.Recorder) -> None:
    hand = recorder.shell
    game = GAMES[hand.variant]
    st.subheader(f"{game.variant.name}, {hand.structure} — hand {ui.plain(hand.hand_id)}")
    left, right = st.columns([3, 2])
    with left:
        step = recorder.step
        key = f"rec_{len(recorder.entries)}_{recorder.awards is not None}"
        st.caption(f"Step {len(recorder.entries) + 1} · street: {step.street.replace('_', ' ')} · "
                   f"{len(recorder.stub)} cards in the stub")
        if step.kind == rec.ACT:
            betting(recorder, step, key)
        elif step.kind in (rec.DEAL, rec.BOARD, rec.DRAW, rec.DISCARD, rec.SPLIT, rec.EXPOSE):
            card_step(recorder, step, key)
        elif step.kind == rec.PUSH:
            pushes(recorder)
        elif step.kind == rec.DONE:
            store(recorder)
        else:
            other_step(recorder, step, key)
        first, second = st.columns(2)
        if first.button("Undo the last step", key="rec_undo", disabled=not recorder.entries, width="stretch"):
            recorder.undo()
            st.session_state.pop(STORED, None)
            st.rerun()
        if second.button("Start another hand", key="rec_new", width="stretch"):
            del st.session_state[RECORDER]
            st.rerun()
        marked = [(f"step {n} ", f) for n, found in enumerate(recorder.marks, 1) for f in found]
        if marked:
            st.markdown("**Findings as entered**")
            findings_list(marked)
    with right:
        st.markdown("**The history so far** (native format)")
        st.code(recorder.text(), language=None, wrap_lines=True)


ui.page_title("Record a hand", "The floor's own account of a hand, step by step: at each step only what the "
              "rules allow is offered, and what they do not allow can still be entered, marked with its "
              "finding. The result is a native-format history, stored and audited like any other.")
current = st.session_state.get(RECORDER)
if current is None:
    setup()
else:
    recording(current)
