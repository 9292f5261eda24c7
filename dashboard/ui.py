"""What every page shares: cached, read-only data loading with "busy, retrying", the sidebar's
filters (kept in `st.session_state`, so they hold across pages), links to the replayer, a
finding's rule with its text and the director's review of it, and the unit amounts are in.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import altair as alt
import duckdb
import polars as pl
import streamlit as st

from dashboard import queries
from dashboard.connection import (
    DatabaseBusy,
    DatabaseUnavailable,
    database_path,
    page_connection,
    version,
    writable,
)
from dashboard.labels import game_name
from evaluator.rulebook import quote_for, rule_for
from pipeline.reviews import STATUSES, ReviewError, add_review
from pipeline.stats import Filters, UnitsMissing
from pipeline.units import UNKNOWN_MONEY, Unit, game_type_name

T = TypeVar("T")
RETRY_EVERY = 0.5  # seconds between tries while an ingest holds the database
REPLAYER = "views/replayer.py"
REPLAYER_URL = "replayer"  # the replayer page's url_path (app.py)
ALL = "(all)"
ALL_UNITS = "(every unit)"
NA = "-"  # shown for a value that does not exist (no hands, no chance), as the tables show it


@st.cache_data(show_spinner=False, max_entries=1024)
def _cached(key: str, db: str, stamp: tuple[int, ...], args: tuple[Any, ...], _fn: Callable[..., Any]) -> Any:
    """`_fn(connection, *args)`, cached per function, database, database version and arguments."""
    with page_connection(Path(db)) as con:
        return _fn(con, *args)


def fetch(fn: Callable[..., T], *args: Any) -> T:
    """`fn(connection, *args)` on the database, from the cache while the database is unchanged.
    While another process writes the database, retry every RETRY_EVERY seconds for as long as
    the writer holds it (an ingest of a million hands takes minutes), saying so and for how long,
    and say so again when it is free. Raises DatabaseUnavailable when the database is missing or
    unreadable. (Streamlit ends the wait when the user leaves the page: each notice is a point
    where it can stop the run.)"""
    path = database_path()
    key = f"{fn.__module__}.{fn.__qualname__}"
    started = time.monotonic()
    notice = None
    while True:
        try:
            result: T = _cached(key, str(path), version(path), args, fn)
            if notice is not None:
                notice.success(f"The database is free again after {time.monotonic() - started:,.0f} s: "
                               "this page shows it as the ingest left it.", icon="✅")
            return result
        except DatabaseBusy:
            notice = notice or st.empty()
            notice.info(f"The database is busy (an ingest is writing to it): retrying every {RETRY_EVERY} s "
                        f"for {time.monotonic() - started:,.0f} s so far; this page loads by itself when "
                        "the ingest ends.", icon="⏳")
            time.sleep(RETRY_EVERY)
        except duckdb.CatalogException as exc:
            raise DatabaseUnavailable(f"{path} is not a barge database (run `barge ingest` on it): {exc}") \
                from None
        except UnitsMissing as exc:
            raise DatabaseUnavailable(f"{path}: {exc}.") from None


def load(fn: Callable[..., T], *args: Any) -> T:
    """`fetch`, ending the page with the reason when the database cannot be read."""
    try:
        return fetch(fn, *args)
    except DatabaseUnavailable as exc:
        st.error(str(exc))
        st.stop()
        raise  # st.stop() does not return; this tells the type checker so


def sidebar_filters() -> None:
    """The filters of every page: game type and unit, site, currency and stakes, event, variant,
    player and dates."""
    bar = st.sidebar
    bar.header("Filters")
    try:
        opts = fetch(queries.options)
    except DatabaseUnavailable:
        bar.caption("No readable database yet.")
        return
    unit_filters(opts.units)
    for label, key, values in (("Site", "f_site", opts.sites), ("Currency", "f_currency", opts.currencies)):
        if values:
            bar.selectbox(label, [ALL, *values], key=key)
    stakes_filter(opts.stakes, opts.units)
    bar.selectbox("Event", [ALL, *opts.events], key="f_event")
    bar.selectbox("Variant", [ALL, *opts.variants], key="f_variant", format_func=variant_label)
    bar.selectbox("Player", [ALL, *opts.players], key="f_player")
    if opts.first is not None and opts.last is not None:
        bar.date_input("Dates", value=(opts.first, opts.last), min_value=opts.first, max_value=opts.last,
                       key="f_dates")
        st.session_state["f_range"] = (opts.first, opts.last)
    if bar.button("Clear filters"):
        for key in ("f_game_type", "f_unit", "f_site", "f_currency", "f_stakes", "f_event", "f_variant",
                    "f_player", "f_dates"):
            st.session_state.pop(key, None)
        st.rerun()


def unit_filters(held: tuple[queries.UnitHands, ...]) -> None:
    """Cash or tournament, and the unit: the unit with the most hands (of the game type chosen)
    unless another, or every unit, is chosen. Nothing to choose on a database without units."""
    if not held:
        return
    bar, state = st.sidebar, st.session_state
    kinds = sorted({k for u in held for k in u.game_types})
    if len(kinds) > 1:
        bar.selectbox("Game type", [ALL, *kinds], key="f_game_type", format_func=game_type_label)
    by_code = {u.code: u for u in offered_units(held)}
    if state.get("f_unit") not in [*by_code, ALL_UNITS]:  # a unit of another game type: the biggest
        state.pop("f_unit", None)
    bar.selectbox("Unit", [*by_code, ALL_UNITS], key="f_unit",
                  help="the unit every amount is in: a currency, play money or one tournament's chips; "
                       "amounts of several units are never added",
                  format_func=lambda c: c if c == ALL_UNITS
                  else f"{Unit(c).name} · {by_code[c].hands:,} hands")


def stakes_filter(held: tuple[queries.Stakes, ...], units: tuple[queries.UnitHands, ...]) -> None:
    """The stake levels of the unit chosen (of every unit offered when none is), each written in
    its unit; a level that several units share lists each."""
    state = st.session_state
    codes = {u.code for u in offered_units(units)}
    chosen = state.get("f_unit")
    levels: dict[float, list[str]] = {}
    for level in held:
        if (level.unit == chosen if chosen not in (None, ALL_UNITS) else not codes or level.unit in codes):
            levels.setdefault(level.big, []).append(stakes_label(Unit(level.unit), level.small, level.big))
    if not levels:
        state.pop("f_stakes", None)
        return
    if state.get("f_stakes") not in [ALL, *levels]:
        state.pop("f_stakes", None)
    st.sidebar.selectbox("Stakes", [ALL, *sorted(levels)], key="f_stakes",
                         help="the big blind, or the big bet in limit, of the hand",
                         format_func=lambda big: big if big == ALL
                         else " · ".join(dict.fromkeys(levels[big])))


def stakes_label(unit: Unit, small: float | None, big: float | None) -> str:
    """A stake level as players write it, the blinds (the bets in limit) in the hand's unit.

    >>> stakes_label(Unit("USD"), 0.5, 1), stakes_label(Unit("T::1"), None, 400)
    ('$0.50/$1.00', '400 T chips')
    >>> stakes_label(Unit("EUR"), 1, None)
    '-'
    """
    if big is None:
        return NA
    written = unit.amount(big) or NA
    return written if small is None else f"{unit.amount(small)}/{written}"


def offered_units(held: tuple[queries.UnitHands, ...]) -> list[queries.UnitHands]:
    """The units of the game type chosen, most hands first."""
    kind = st.session_state.get("f_game_type", ALL)
    return [u for u in held if kind in (ALL, None) or kind in u.game_types]


def game_type_label(game_type: str) -> str:
    return game_type if game_type == ALL else game_type_name(game_type)


def unit_for(f: Filters) -> Unit | None:
    """The unit every amount of the filtered hands is in: the unit chosen, the only one they have,
    or none when they count in several (then no page adds their amounts). A database without
    units is one unknown unit."""
    if f.unit is not None:
        return Unit(f.unit)
    held = load(queries.options).units
    if not held:
        return Unit(UNKNOWN_MONEY)
    offered = offered_units(held)
    return Unit(offered[0].code) if len(offered) == 1 else None


def named(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with a `game` column: the name of each row's `variant` from the catalog."""
    names = [game_name(v) for v in frame["variant"].to_list()]
    return frame.with_columns(pl.Series("game", names, dtype=pl.String))


def variant_label(variant: str) -> str:
    """A game as the filters offer it: its name from the catalog, a room's own game marked with
    its room.

    >>> variant_label("razz"), variant_label("six_card_omaha"), variant_label(ALL)
    ('Razz', '6 Card Omaha (a PokerStars game)', '(all)')
    """
    return variant if variant == ALL else game_name(variant)


def filters() -> Filters:
    """The sidebar's choices; the whole date range counts as no date filter (hands without a date
    stay in)."""
    state = st.session_state

    def chosen(key: str) -> str | None:
        value = state.get(key, ALL)
        return None if value in (ALL, ALL_UNITS, None) else str(value)

    stakes = state.get("f_stakes", ALL)

    start: date | None = None
    end: date | None = None
    dates = state.get("f_dates")
    if isinstance(dates, tuple | list) and dates:
        start, end = dates[0], dates[-1]
        if (start, end) == tuple(state.get("f_range", ())):
            start = end = None
    return Filters(event=chosen("f_event"), variant=chosen("f_variant"), player=chosen("f_player"),
                   date_from=start, date_to=end, game_type=chosen("f_game_type"), unit=chosen("f_unit"),
                   site=chosen("f_site"), currency=chosen("f_currency"),
                   stakes=None if stakes in (ALL, None) else float(stakes))


def describe(f: Filters) -> str:
    """The active filters in words, for the pages' captions, and the unit the amounts are in."""
    unit = unit_for(f)
    big = f.stakes is not None and ((unit.amount(f.stakes) if unit else None) or f"{f.stakes:g}")
    parts = [f"{name} {value}" for name, value in (
        ("game type", f.game_type and game_type_name(f.game_type)), ("site", f.site),
        ("currency", f.currency), ("stakes", big and f"of big blind (big bet in limit) {big}"),
        ("event", f.event), ("game", f.variant and game_name(f.variant)), ("player", f.player)) if value]
    if f.date_from or f.date_to:
        parts.append(f"from {f.date_from or '…'} to {f.date_to or '…'}")
    hands = "Filtered: " + plain(", ".join(parts)) + "." if parts else "All hands in the database."
    if unit is None:
        return f"{hands} Several units: each amount is shown in its own, never added to another."
    return f"{hands} Unit: {plain(unit.name)}."


def replayer_link(hand_id: str, seq: int | None = None) -> str:
    """A relative link that opens a hand in the replayer (at an action when `seq` is given).

    >>> replayer_link("B25 #1", 4)
    'replayer?hand=B25+%231&seq=4'
    """
    params: dict[str, str | int] = {"hand": hand_id}
    if seq:
        params["seq"] = seq
    return f"{REPLAYER_URL}?{urlencode(params)}"


def with_links(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with a `hand` column of replayer links made from its `hand_id` (and `seq`)."""
    seqs = frame["seq"].to_list() if "seq" in frame.columns else [None] * frame.height
    links = [replayer_link(h, s) for h, s in zip(frame["hand_id"].to_list(), seqs, strict=True)]
    return frame.with_columns(pl.Series("hand", links, dtype=pl.String))


def hand_link_column(label: str = "hand") -> Any:
    """A dataframe column of replayer links that shows the hand id."""
    return st.column_config.LinkColumn(label, display_text=r"hand=([^&]+)", help="open in the replayer")


def plain(text: object) -> str:
    r"""Text from the record (names, events, messages) made inert for Streamlit's Markdown: every
    character that could start a link, an image, an emoji code or formatting is escaped.

    >>> plain("![x](http://e/t.png) *Bo* :smile:")
    '\\!\\[x\\]\\(http\\:\\/\\/e\\/t\\.png\\) \\*Bo\\* \\:smile\\:'
    """
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$:/=&])", r"\\\1", str(text))


def percent(value: float | None) -> str:
    """A percentage to one decimal.

    >>> percent(46.84), percent(None) == NA
    ('46.8%', True)
    """
    return NA if value is None else f"{value:.1f}%"


def bars(frame: pl.DataFrame, category: str, value: str, *, by: str | None = None,
         scale: alt.Scale | None = None, colour: str = "#1565c0", sort: str | list[str] = "-x",
         title: str | None = None) -> None:
    """A horizontal bar chart, one row per `category`, tall enough to label every row;
    stacked and coloured by the field `by` when given."""
    tooltip = [f"{category}:N", *([f"{by}:N"] if by else []), alt.Tooltip(f"{value}:Q", format=",")]
    chart = alt.Chart(frame).mark_bar(color=alt.Undefined if by else colour).encode(
        x=alt.X(f"{value}:Q", title=title or value.replace("_", " "),
                axis=alt.Axis(tickMinStep=1) if frame[value].dtype.is_integer() else alt.Undefined),
        y=alt.Y(f"{category}:N", sort=sort, title=None, axis=alt.Axis(labelLimit=240, labelOverlap=False)),
        tooltip=tooltip)
    if by:
        chart = chart.encode(color=alt.Color(f"{by}:N", scale=scale or alt.Undefined,
                                             legend=alt.Legend(orient="bottom", title=None)))
    st.altair_chart(chart.properties(height=alt.Step(20)), width="stretch")


def show_rule(code: str, citation: str, *, expanded: bool = False) -> None:
    """The rule a finding cites: its citation and title, the sentence(s) the code applies, and
    the section's whole text (`evaluator.rulebook`)."""
    rule = rule_for(citation)
    if rule is None:
        st.caption(f"{plain(citation)}: no shipped rulebook text for this citation.")
        return
    quote = quote_for(code, citation)
    st.markdown(f"**{plain(citation)} · {plain(rule.title)}**" + (f": “{plain(quote)}”" if quote else ""))
    with st.expander(f"The whole of {rule.citation} ({rule.title})", expanded=expanded and not quote):
        st.text(rule.text)


def review_form(hand_id: str, code: str, seq: int, key: str) -> None:
    """A director's decision about one finding: status, note and name, stored as a review
    (`pipeline.reviews`, the same trail as `barge review`); the page then runs again, so that
    everything on it shows the review, and says it was recorded."""
    done = st.session_state.pop(f"{key}_done", None)
    if done:
        st.success(done)
    with st.form(key=key, clear_on_submit=False, border=True):
        cols = st.columns([1, 3, 1])
        status = cols[0].selectbox("Decision", STATUSES[1:] + STATUSES[:1], key=f"{key}_status")
        note = cols[1].text_input("Note", key=f"{key}_note",
                                  placeholder="why: what the floor saw, the ruling")
        by = cols[2].text_input("Your name", key=f"{key}_by")
        if not st.form_submit_button("Record the review", icon=":material/rate_review:"):
            return
    try:
        with writable(database_path()) as con:
            review = add_review(con, hand_id, code, str(status), note, by, seq)
    except ReviewError as exc:
        st.error(f"The review was not recorded: {plain(exc)}.")
        return
    except DatabaseBusy:
        st.error("The review was not recorded: the database is busy (an ingest is writing to it); "
                 "record it again when the ingest has finished.")
        return
    st.session_state[f"{key}_done"] = (f"Recorded: {code} at action {seq} of {plain(hand_id)} "
                                       f"{review.status} by {plain(review.reviewer)}.")
    st.rerun()


def page_title(title: str, caption: str) -> None:
    st.title(title)
    st.caption(caption)
