"""Incident reports (`barge report`): per event and table, each finding with its hand drawn as the
replayer draws it, the words of the rule it applies, the record's and the rules' pushes, and the
director's review, as one self-contained HTML file (SVG inline, no server) or a PDF.

The pictures come from the dashboard's own stepping (`dashboard.stepping.steps`) and drawing
(`dashboard.table_svg.render`): the table at the step of the finding's action (the last step for a
finding about the hand as a whole), and the table after the last push, where the record's and the
rules' pushes of a pot that differ are drawn side by side. The PDF is the same HTML laid out for
print by WeasyPrint.
"""

from __future__ import annotations

import datetime
import html
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb

from dashboard.stepping import TableState, steps, strengths, title
from dashboard.table_svg import render
from evaluator.rulebook import quote_for, rule_for
from pipeline.amounts import format_amount
from pipeline.formats import reader
from pipeline.model import Award, Hand
from pipeline.reviews import Review, current_for, latest, reviews

FORMATS = ("html", "pdf")
_PICTURES = itertools.count(1)  # numbers that keep each picture's ids apart in one document
UNNAMED = "(none)"  # the heading of hands written without an event or a table


class ReportError(RuntimeError):
    """The report cannot be made on this machine; the message says what is missing."""


@dataclass(frozen=True, slots=True)
class Selection:
    """Which findings the report holds; a field left None (or `statuses` empty) does not filter.
    Dates are the hand's own (`hands.started_at`), both ends included."""

    event: str | None = None
    table: str | None = None
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    statuses: tuple[str, ...] = ()  # the current review's status; "open" also means not reviewed


@dataclass(frozen=True, slots=True)
class Summary:
    findings: int
    hands: int
    tables: int


@dataclass(frozen=True, slots=True)
class Item:
    """One finding as the report prints it."""

    seq: int
    severity: str
    code: str
    message: str
    rule: str
    title: str | None  # the cited section's title
    words: str | None  # the sentence(s) applied, else the section's whole text
    quoted: bool  # `words` is a quote, not the whole section
    review: Review | None
    step: int  # the picture of the table it is shown on


@dataclass(frozen=True, slots=True)
class HandPart:
    hand_id: str
    heading: str
    started_at: datetime.datetime | None
    pictures: tuple[tuple[int, str], ...]  # (step, SVG) in step order
    pushes: tuple[tuple[int, str, int | None, int | None, str], ...]  # pot, player, record, rules, hand
    items: tuple[Item, ...]
    history: tuple[Review, ...]
    stopped: str | None


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[object]) -> list[dict[str, Any]]:
    cursor = con.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _selected(con: duckdb.DuckDBPyConnection, selection: Selection) -> list[dict[str, Any]]:
    where: list[str] = []
    params: list[object] = []
    for column, value in (("h.event", selection.event), ("h.table_name", selection.table)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    if selection.date_from is not None:
        where.append("CAST(h.started_at AS DATE) >= ?")
        params.append(selection.date_from)
    if selection.date_to is not None:
        where.append("CAST(h.started_at AS DATE) <= ?")
        params.append(selection.date_to)
    condition = " WHERE " + " AND ".join(where) if where else ""
    return _rows(con, f"""
        SELECT f.hand_id, f.seq, f.severity, f.code, f.message, f.rule, h.event, h.table_name, h.started_at
        FROM findings f JOIN hands h USING (hand_id){condition}
        ORDER BY h.event NULLS LAST, h.table_name NULLS LAST, h.started_at NULLS LAST, f.hand_id, f.seq,
                 f.code""", params)


def _hundredths(amount: Decimal) -> int:
    return int(amount * 100)


def _computed(con: duckdb.DuckDBPyConnection, hand_id: str) -> tuple[list[Award], dict[int, str]]:
    """The rules' pushes of a hand (the audit's computed awards) and the hand each was pushed for."""
    rows = _rows(con, "SELECT pot, player, amount, portion, hand FROM awards "
                      "WHERE hand_id = ? AND origin = 'computed' ORDER BY seq", [hand_id])
    awards = [Award(r["player"], _hundredths(r["amount"]), r["pot"], r["portion"]) for r in rows]
    return awards, {i: r["hand"] for i, r in enumerate(rows) if r["hand"]}


def _totals(awards: Sequence[Award]) -> dict[tuple[int, str], int]:
    out: dict[tuple[int, str], int] = {}
    for a in awards:
        out[a.pot, a.player] = out.get((a.pot, a.player), 0) + a.amount
    return out


def _pushes(record: Sequence[Award], rules: Sequence[Award],
            rules_hands: dict[int, str]) -> tuple[tuple[int, str, int | None, int | None, str], ...]:
    """Per pot and player: the chips the record pushed, those the rules push (None: the audit wrote
    none) and the hand the rules push them for."""
    said, ruled = _totals(record), _totals(rules)
    hands = {(a.pot, a.player): rules_hands[i] for i, a in enumerate(rules) if i in rules_hands}
    keys = sorted(set(said) | set(ruled))
    return tuple((pot, player, said.get((pot, player), 0 if ruled else None),
                  ruled.get((pot, player), 0) if rules else None, hands.get((pot, player), ""))
                 for pot, player in keys)


def _own_ids(svg: str, n: int) -> str:
    """The picture with its ids (the card-back pattern) made its own: many pictures share a page."""
    for name in set(re.findall(r'id="([^"]+)"', svg)):
        svg = svg.replace(f'id="{name}"', f'id="{name}-{n}"').replace(f"#{name})", f"#{name}-{n})")
    return svg


def _step_of(states: Sequence[TableState], seq: int) -> int:
    """The step showing the finding's action; the last step for the hand as a whole (seq 0)."""
    if seq:
        for state in states:
            if seq in state.seqs:
                return state.step
    return states[-1].step


def _hand_part(con: duckdb.DuckDBPyConnection, hand_id: str, rows: list[dict[str, Any]],
               decisions: dict[tuple[str, str, int | None], Review], history: tuple[Review, ...]) -> HandPart:
    found = con.execute("SELECT h.raw_text, s.format FROM hands h JOIN sources s USING (source_id) "
                        "WHERE h.hand_id = ?", [hand_id]).fetchall()
    assert found  # the findings were joined to it
    stored = found[0]
    hand: Hand = reader(stored[1])(stored[0])
    rules, rules_hands = _computed(con, hand_id)
    states = steps(hand, hand.awards, rules, rules_hands, strengths(hand))
    items = []
    for r in rows:
        quote = quote_for(r["code"], r["rule"])
        section = rule_for(r["rule"])
        items.append(Item(r["seq"], r["severity"], r["code"], r["message"], r["rule"],
                          section.title if section else None,
                          quote if quote is not None else (section.text if section else None),
                          quote is not None, current_for(decisions, hand_id, r["code"], r["seq"]),
                          _step_of(states, r["seq"])))
    shown = sorted({i.step for i in items} | {states[-1].step})
    return HandPart(hand_id, title(hand), rows[0]["started_at"],
                    tuple((s, _own_ids(render(states[s]), next(_PICTURES))) for s in shown),
                    _pushes(hand.awards, rules, rules_hands), tuple(items), history, states[-1].stopped)


def collect(con: duckdb.DuckDBPyConnection,
            selection: Selection) -> list[tuple[str, str, list[HandPart]]]:
    """(event, table, the hands with their findings) in the order the report prints them."""
    decisions = latest(con)
    rows = _selected(con, selection)
    if selection.statuses:
        def status(r: dict[str, Any]) -> str:
            review = current_for(decisions, r["hand_id"], r["code"], r["seq"])
            return "open" if review is None else review.status
        rows = [r for r in rows if status(r) in selection.statuses]
    by_hand: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_hand.setdefault(r["hand_id"], []).append(r)
    histories: dict[str, list[Review]] = {}
    for review in reviews(con, list(by_hand)):
        histories.setdefault(review.hand_id, []).append(review)
    groups: list[tuple[str, str, list[HandPart]]] = []
    for hand_id, hand_rows in by_hand.items():
        event, table = hand_rows[0]["event"] or UNNAMED, hand_rows[0]["table_name"] or UNNAMED
        if not groups or groups[-1][:2] != (event, table):
            groups.append((event, table, []))
        groups[-1][2].append(_hand_part(con, hand_id, hand_rows, decisions,
                                        tuple(histories.get(hand_id, ()))))
    return groups


# ---- the page ---------------------------------------------------------------------------------

_STYLE = """
@page { size: A4; margin: 14mm 12mm; @bottom-right { content: "page " counter(page) " of " counter(pages);
  font-size: 8pt; color: #607d8b; } }
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; font-size: 10pt; color: #263238; }
h1 { font-size: 17pt; margin: 0 0 4pt; } h2 { font-size: 14pt; border-bottom: 2px solid #2e7d32;
  margin-top: 18pt; } h3 { font-size: 12pt; margin: 12pt 0 4pt; }
.hand { border-top: 1px solid #cfd8dc; margin-top: 10pt; } .meta { color: #607d8b; }
.pictures { break-inside: avoid; }
figure { display: inline-block; width: 49%; margin: 4pt 0; vertical-align: top; break-inside: avoid; }
figure svg { width: 100%; height: auto; }
figcaption { font-size: 8.5pt; color: #607d8b; }
.finding { border-left: 4px solid #c62828; padding: 2pt 8pt; margin: 8pt 0; }
h2, h3, .meta { break-after: avoid; }
.finding.warning { border-color: #ef6c00; } .finding.info { border-color: #1565c0; }
.code { font-weight: bold; font-family: "DejaVu Sans Mono", monospace; }
blockquote { font-size: 9pt; margin: 4pt 0 4pt 10pt; padding-left: 6pt; border-left: 2px solid #b0bec5;
  white-space: pre-wrap; font-style: italic; }
.review { margin-top: 3pt; } .open { color: #6d4c41; } .confirmed { color: #2e7d32; }
.overturned { color: #1565c0; }
table { border-collapse: collapse; margin: 4pt 0; } td, th { border: 1px solid #cfd8dc; padding: 2pt 6pt;
  text-align: left; } td.n { text-align: right; } .differs td { background: #ffebee; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _amount(value: int | None) -> str:
    return "-" if value is None else format_amount(value)


def _review_html(review: Review | None) -> str:
    if review is None:
        return '<div class="review open">Review: open (not reviewed)</div>'
    note = f": {_e(review.note)}" if review.note else ""
    return (f'<div class="review {_e(review.status)}">Review: <b>{_e(review.status)}</b> by '
            f"{_e(review.reviewer)}, {review.at:%Y-%m-%d %H:%M} UTC{note}</div>")


def _item_html(item: Item) -> str:
    kind = "the rule's words" if item.quoted else "the section"
    heading = f"{_e(item.rule)}" + (f" ({_e(item.title)})" if item.title else "")
    words = (f"<div>{kind}, {heading}:</div><blockquote>{_e(item.words)}</blockquote>"
             if item.words else f"<div>{heading}</div>")
    return (f'<div class="finding {_e(item.severity)}"><div><span class="code">{_e(item.code)}</span> '
            f"({_e(item.severity)}) at action {item.seq or 'the hand as a whole'}, shown at step "
            f"{item.step}: {_e(item.message)}</div>{words}{_review_html(item.review)}</div>")


def _pushes_html(part: HandPart) -> Iterator[str]:
    if not part.pushes:
        return
    yield ("<table><tr><th>pot</th><th>player</th><th>record pushed (recorded)</th>"
           "<th>rules push (computed)</th><th>the rules push it for</th></tr>")
    for pot, player, said, ruled, hand in part.pushes:
        differs = ' class="differs"' if ruled is not None and said != ruled else ""
        name = "main pot" if pot == 0 else f"side pot {pot}"
        yield (f"<tr{differs}><td>{name}</td><td>{_e(player)}</td><td class=n>{_amount(said)}</td>"
               f"<td class=n>{_amount(ruled)}</td><td>{_e(hand)}</td></tr>")
    yield "</table>"


def _hand_html(part: HandPart) -> Iterator[str]:
    when = f" · {part.started_at:%Y-%m-%d %H:%M}" if part.started_at else ""
    yield f'<section class="hand"><h3>{_e(part.heading)}</h3><div class="meta">hand {_e(part.hand_id)}{when}'
    yield f" · {len(part.items)} finding{'' if len(part.items) == 1 else 's'}</div>"
    if part.stopped:
        yield f"<p>The record cannot be followed past {_e(part.stopped)}.</p>"
    for item in part.items:
        yield _item_html(item)
    yield "<div>Pushes (chips):</div>"
    yield from _pushes_html(part)
    yield '<div class="pictures">'
    for step, svg in part.pictures:
        yield f"<figure>{svg}<figcaption>the table at step {step}</figcaption></figure>"
    yield "</div>"
    if part.history:
        yield "<div>Review history, oldest first:</div><ul>"
        for r in part.history:
            which = "" if r.seq is None else f" #{r.seq}"
            note = f": {_e(r.note)}" if r.note else ""
            yield (f"<li>{_e(r.code)}{which}: {_e(r.status)} by {_e(r.reviewer)}, "
                   f"{r.at:%Y-%m-%d %H:%M} UTC{note}</li>")
        yield "</ul>"
    yield "</section>"


def render_html(groups: Sequence[tuple[str, str, Sequence[HandPart]]], selection: Selection) -> str:
    """The whole report as one HTML document: styles and pictures inline."""
    count = sum(len(p.items) for _, _, parts in groups for p in parts)
    scope = ", ".join(f"{name} {value}" for name, value in (
        ("event", selection.event), ("table", selection.table), ("from", selection.date_from),
        ("to", selection.date_to), ("status", "/".join(selection.statuses) or None)) if value)
    written = datetime.datetime.now(datetime.UTC)
    body = [f"<h1>Incident report</h1><div class=meta>{count} finding{'' if count == 1 else 's'}"
            f"{' · ' + _e(scope) if scope else ''} · written {written:%Y-%m-%d %H:%M} UTC</div>"]
    if not groups:
        body.append("<p>No findings match.</p>")
    for event, table, parts in groups:
        body.append(f"<h2>{_e(event)} · table {_e(table)}</h2>")
        for part in parts:
            body.extend(_hand_html(part))
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Incident report</title>'
            f"<style>{_STYLE}</style></head><body>{''.join(body)}</body></html>\n")


def write_report(con: duckdb.DuckDBPyConnection, selection: Selection, fmt: str, out: Path) -> Summary:
    """Write the report of the selected findings to `out` as `fmt` ("html" or "pdf")."""
    if fmt not in FORMATS:
        raise ValueError(f"report format {fmt!r} is not one of {', '.join(FORMATS)}")
    groups = collect(con, selection)
    page = render_html(groups, selection)
    if fmt == "html":
        out.write_text(page, encoding="utf-8")
    else:
        try:  # imported here: it loads Pango, which only the PDF needs
            from weasyprint import HTML
        except (ImportError, OSError) as exc:
            raise ReportError(f"a PDF needs WeasyPrint and the Pango library ({exc}); --format html "
                              "needs neither") from None
        HTML(string=page).write_pdf(out)
    parts = [p for _, _, ps in groups for p in ps]
    return Summary(sum(len(p.items) for p in parts), len(parts), len(groups))
