"""How every table of the dashboard is shown: headers in words and each cell written by the kind of
its column (`dashboard.labels`): games by name, money in its unit, whole counts with thousands
separators, percentages to one decimal, an empty cell as "-".

The cells are written by a pandas Styler, whose display values Streamlit shows while it sorts
by the values underneath: a leaderboard sorted by net sorts by the amount, not by its text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import Any
from urllib.parse import unquote_plus

import polars as pl
import streamlit as st

from dashboard import labels
from pipeline.units import Unit

EMPTY = "-"
NOTHING = float("-inf")  # an empty number, as the table holds it (`filled`)
# The cells one table writes: a Styler takes about a second per 150,000 (and refuses 262,144 by
# default), so a longer table shows its first rows and says how many there are.
MAX_CELLS = 60_000
_HAND = re.compile(r"hand=([^&]+)")


def _link_text(link: object) -> str:
    """The hand id a replayer link shows (`ui.replayer_link`'s query, unquoted)."""
    found = _HAND.search(str(link))
    return unquote_plus(found.group(1)) if found else str(link)


def _when(value: object) -> str:
    if isinstance(value, datetime):
        return f"{value:%Y-%m-%d %H:%M}"
    return f"{value:%Y-%m-%d}" if isinstance(value, date) else str(value)


def writer(kind: labels.Kind, unit: Unit | None) -> Callable[[Any], str]:
    """How a cell of this kind is written (never called on an empty cell).

    >>> [writer(k, Unit("USD"))(v) for k, v in (("money", 2350), ("count", 2350), ("percent", 46.84),
    ...                                          ("ratio", 1.5), ("per100", -96.14), ("game", "razz"))]
    ['$2,350.00', '2,350', '46.8%', '1.50', '-96.1', 'Razz']
    """
    if kind == "money":
        if unit is None:
            raise ValueError("an amount cannot be shown without its unit")
        return lambda v: unit.amount(float(v)) or EMPTY
    writers: dict[labels.Kind, Callable[[Any], str]] = {
        "game": lambda v: labels.game_name(str(v)),
        "link": _link_text,
        "count": lambda v: f"{int(v):,}",
        "percent": lambda v: f"{float(v):.1f}%",
        "ratio": lambda v: f"{float(v):,.2f}",
        "per100": lambda v: f"{float(v):,.1f}",
        "datetime": _when,
        "date": _when,
        "text": str,
    }
    return writers[kind]


def in_units(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame`, whose `unit` column holds each row's unit, with its money columns written in that
    row's unit and the unit by name: the one way a table holds amounts of several units, each row
    in its own, never a total of them.

    >>> in_units(pl.DataFrame({"unit": ["USD", "T:PS:1"], "pot": [2.5, 1500.0]})).rows()
    [('$ (USD)', '$2.50'), ('T chips of PS #1', '1,500 T chips')]
    """
    rows = frame.to_dicts()
    row_units = [Unit(r["unit"]) for r in rows]
    money = [c for c in frame.columns if labels.kind(c) == "money"]
    return frame.with_columns(
        pl.Series("unit", [u.name for u in row_units], dtype=pl.String),
        *(pl.Series(c, [u.amount(r[c]) for u, r in zip(row_units, rows, strict=True)], dtype=pl.String)
          for c in money))


def column_config(columns: Sequence[str], wide: Sequence[str] = ()) -> dict[str, Any]:
    """Each column's heading in words; links to the replayer show the hand id."""
    config: dict[str, Any] = {}
    for column in columns:
        label = labels.header(column)
        if labels.kind(column) == "link":
            config[column] = st.column_config.LinkColumn(label, display_text=_HAND.pattern,
                                                         help="open in the replayer")
        elif column in wide:
            config[column] = st.column_config.TextColumn(label, width="large")
        else:
            config[column] = label
    return config


def show(frame: pl.DataFrame, unit: Unit | None = None, *, order: Sequence[str] | None = None,
         wide: Sequence[str] = (), **options: Any) -> Any:
    """`frame` as a table of words (the columns of `order`, else all), money in `unit`; `options`
    go to `st.dataframe` (height, selection). Returns what `st.dataframe` returns."""
    shown = list(order) if order is not None else frame.columns
    rows = max(1, MAX_CELLS // max(1, len(shown)))
    if frame.height > rows:
        st.caption(f"The first {rows:,} of {frame.height:,} rows: the filters narrow them.")
    data = filled(frame.head(rows).select(shown)).to_pandas()
    # A column already written as text (amounts of several units, `in_units`) stays as written.
    styled = data.style.format({c: _or_empty(writer(labels.kind(c), unit)) for c in shown
                                if labels.kind(c) != "money" or frame.schema[c] != pl.String})
    return st.dataframe(styled, hide_index=True, column_config=column_config(shown, wide), **options)


def filled(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` without empty cells, which the grid would draw as "None" whatever the Styler says:
    an empty number becomes NOTHING (written "-", sorted below every number, so that a sort by the
    number still sorts numbers), an empty text "-", and dates text that sorts as they do.

    >>> filled(pl.DataFrame({"n": [1, None], "t": ["a", None]})).rows()
    [(1.0, 'a'), (-inf, '-')]
    """
    def fill(column: str, dtype: pl.DataType) -> pl.Expr:
        col = pl.col(column)
        if dtype == pl.Datetime or dtype == pl.Date:
            written = col.dt.strftime("%Y-%m-%d %H:%M" if dtype == pl.Datetime else "%Y-%m-%d")
            return written.fill_null(EMPTY)
        if dtype.is_numeric() and frame[column].null_count():
            return col.cast(pl.Float64).fill_null(NOTHING)
        return col.fill_null(EMPTY) if dtype == pl.String else col

    return frame.with_columns(fill(c, t) for c, t in frame.schema.items())


def _or_empty(write: Callable[[Any], str]) -> Callable[[Any], str]:
    return lambda value: EMPTY if value in (NOTHING, EMPTY) else write(value)
