"""The `barge` command: ingest histories, audit them against the rulebook, list rejects and
findings, review findings and print incident reports, show stored hands, list the catalog, print
player statistics, start the dashboard, generate hands, export them (PHH, Parquet) and run the
benchmarks; `ingest --cluster ray` writes a Parquet dataset on a Ray cluster, which every reading
command opens with `--db DATASET` and `attach` turns into a DuckDB file of views.

Exit codes: 0 done (rejected hands are stored as rejects and still count as done);
1 with --strict when a hand was rejected or a file skipped; 2 for a usage error; 3 when a file or the
database could not be read or written, or a worker process died (its files are rolled back).
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress
from rich.table import Table

from evaluator.catalog import ALL_GAMES, GAMES, add_games, catalog_entry
from evaluator.findings import CODES, Finding
from evaluator.game_files import house_folders
from evaluator.profiles import PROFILES
from evaluator.rulebook import quote_for, rule_title
from evaluator.variants import ALL_VARIANTS, VARIANTS
from pipeline import dataset
from pipeline.audit import AuditSummary, audit, audit_sequences
from pipeline.generate.output import FORMATS as GENERATED_FORMATS
from pipeline.generate.output import Request, Summary, generate
from pipeline.house_games import GameDefinitionError, add_games_option, generatable, load_house_games
from pipeline.ingest import IngestSummary, Progress, ingest, retry_rejects
from pipeline.model import GAME_TYPES
from pipeline.parallel import WorkerError, default_jobs, fewer_collections, jobs_arg
from pipeline.parquet_export import ExportError, export_parquet
from pipeline.phh_export import export_phh
from pipeline.phh_writer import PHH_CODES, PHH_VARIANTS
from pipeline.report import FORMATS as REPORT_FORMATS
from pipeline.report import ReportError, Selection, write_report
from pipeline.reviews import (
    STATUSES,
    ReviewError,
    add_review,
    check_target,
    current_for,
    hand_findings,
    reviews,
)
from pipeline.sources import expand_paths
from pipeline.stats import GROUPINGS, PLAYER, Filters, UnitsMissing, player_stats, stat_columns, stats_by
from pipeline.store import DEFAULT_DB, Store, StoreError
from pipeline.units import unit_label
from pipeline.writer import write_hand

EXIT_OK, EXIT_REJECTS, EXIT_USAGE, EXIT_IO = 0, 1, 2, 3
MAX_LISTED_REJECTS = 20
MAX_LISTED_HANDS = 10

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class UsageError(ValueError):
    """A command line naming what does not exist (a variant, event, table or hand): exit 2."""


def _many(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _listing(names: Sequence[str], most: int = 20) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "") if names else "none"


def _count(con: duckdb.DuckDBPyConnection, sql: str, params: list[str]) -> int:
    rows = con.execute(sql, params).fetchall()  # read to the end: DuckDB 2 keeps an unread result open
    return int(rows[0][0]) if rows else 0


def check_catalog(con: duckdb.DuckDBPyConnection, variant: str | None = None, event: str | None = None,
                  table: str | None = None, hand: str | None = None) -> None:
    """UsageError unless each name given exists: a variant of the catalog (the 59 BARGE games and the
    rooms' own, `ALL_VARIANTS`), an event, table or hand of the database; the message names what
    does exist."""
    if variant is not None and variant not in ALL_VARIANTS:
        held = [r[0] for r in con.execute("SELECT DISTINCT variant FROM hands ORDER BY 1").fetchall()]
        close = difflib.get_close_matches(variant, list(ALL_VARIANTS), n=3)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise UsageError(f"unknown variant {variant!r}: {hint}the database holds {_listing(held)} "
                         f"(`barge variants` lists all {len(ALL_VARIANTS)} games)")
    for value, column, what in ((event, "event", "event"), (table, "table_name", "table")):
        if value is None:
            continue
        if not _count(con, f"SELECT count(*) FROM hands WHERE {column} = ?", [value]):
            held = [r[0] for r in con.execute(
                f"SELECT DISTINCT {column} FROM hands WHERE {column} IS NOT NULL ORDER BY 1").fetchall()]
            raise UsageError(f"no {what} {value!r} in the database; its {what}s: {_listing(held)}")
    if hand is not None and not _count(con, "SELECT count(*) FROM hands WHERE hand_id = ?", [hand]):
        stored = _count(con, "SELECT count(*) FROM hands", [])
        close = [r[0] for r in con.execute(
            "SELECT hand_id FROM hands ORDER BY jaro_winkler_similarity(hand_id, ?) DESC, hand_id LIMIT 3",
            [hand]).fetchall()]
        raise UsageError(f"no hand {hand!r} in the database ({stored:,} hands; the closest ids: "
                         f"{_listing(close)})")


def _print_summary(summary: IngestSummary) -> None:
    table = Table(title="Hands by variant", show_footer=True)
    table.add_column("variant", footer="total")
    table.add_column("hands", justify="right", footer=str(summary.total("hands")))
    for variant, count in sorted(summary.by_variant.items()):
        table.add_row(variant, str(count))
    if summary.by_variant:
        out.print(table)
    changed = f" ({summary.total('changed')} of them changed versions)" if summary.total("changed") else ""
    out.print(
        f"{summary.total('hands')} hands stored{changed}, {summary.total('rejects')} rejected, "
        f"{summary.total('duplicates')} duplicates skipped, from {summary.total('blocks')} hand "
        f"blocks in {len(summary.files)} files, in {summary.seconds:.2f} s"
    )
    for report in summary.files:
        if report.status != "ingested":
            out.print(f"  {report.status}: {report.path} ({report.reason})")
    for reject in summary.rejects[:MAX_LISTED_REJECTS]:
        out.print(f"  rejected: {reject.path}:{reject.line}:{reject.column}: {reject.error}")
    if len(summary.rejects) > MAX_LISTED_REJECTS:
        out.print(f"  ... and {len(summary.rejects) - MAX_LISTED_REJECTS} more (see the rejects table)")


@contextmanager
def _progress_bar(paths: list[Path], show: bool) -> Iterator[Progress | None]:
    """A progress bar over the bytes of the input, on a terminal only."""
    if not show or not paths:
        yield None
        return
    total = sum(p.stat().st_size for p, problem in expand_paths(paths) if problem is None)
    columns = (TextColumn("ingesting"), BarColumn(), DownloadColumn(), TimeRemainingColumn())
    with RichProgress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("ingest", total=total)
        yield lambda n: bar.advance(task, n)


def _ingest_cluster(args: argparse.Namespace, paths: list[Path], show_bar: bool) -> IngestSummary:
    """`--cluster ray`: the files read by Ray tasks into the Parquet dataset `--out`."""
    if args.retry_rejects:
        raise UsageError("--retry-rejects reads a database's rejects again: without --cluster")
    if not args.out:
        raise UsageError("--cluster ray writes a Parquet dataset: name its folder or URI with --out DATASET")
    from pipeline.cluster import ClusterError, ingest_cluster  # Ray is imported only for a cluster run

    add_games(house_folders(Path(args.out)))  # a dataset's `games/` is beside it, as a database file's

    try:
        with _progress_bar(paths, show_bar) as progress:
            return ingest_cluster(paths, args.out, progress, address=args.address, cpus=args.jobs,
                                  audit=not args.no_audit, rules=args.rules)
    except (ClusterError, dataset.DatasetError) as exc:
        raise StoreError(str(exc)) from None


def cmd_ingest(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.paths]
    if not paths and not args.retry_rejects:
        err.print("barge ingest: name at least one file or folder, or use --retry-rejects")
        return EXIT_USAGE
    show_bar = err.is_terminal and not args.json
    if args.cluster:
        summary = _ingest_cluster(args, paths, show_bar)
        return _ingested(args, summary, summary.audit)
    if args.out or args.address:
        raise UsageError("--out and --address go with --cluster ray")
    if dataset.is_dataset(args.db):
        raise UsageError(f"{args.db} is a Parquet dataset: add to it with --cluster ray --out {args.db}")
    started = datetime.datetime.now()
    with Store(Path(args.db), wait=args.wait, on_wait=err.print) as store:
        with _progress_bar(paths, show_bar) as progress:
            summary = retry_rejects(store) if args.retry_rejects else IngestSummary()
            if paths:
                summary.merge(ingest(paths, store, progress, jobs=args.jobs, audit=not args.no_audit,
                                     rules=args.rules))
        audited = None
        if not args.no_audit:
            with _audit_bar(show_bar) as tick:
                # The new hands were replayed as they were read; this audits the rest (retried rejects,
                # hands stored by an earlier --no-audit).
                audited = audit(store, args.rules, pending_only=True, progress=tick, jobs=args.jobs)
            if summary.audit is not None:
                audited = summary.audit.merge(audited)
            # The tables the new hands joined are checked in order again, with the hands before them
            # (no hand is replayed twice: only the findings are added).
            try:
                across = audit_sequences(store, since=started, jobs=args.jobs)
            except WorkerError as exc:  # the run's hands are committed; only these checks are missing
                raise WorkerError(f"{exc}; every hand is stored, but the checks across hands did not "
                                  "finish: run `barge audit --sequences`") from None
            audited = audited.merge(replace(across, hands=0))
    return _ingested(args, summary, audited)


def _ingested(args: argparse.Namespace, summary: IngestSummary, audited: AuditSummary | None) -> int:
    """The ingest's summary and audit, printed, and the exit code they make."""
    if args.json:
        report = summary.to_json()
        if audited is not None:
            report["audit"] = audited.to_json()
        # Written as it is: rich's highlighting took a millisecond for each file listed.
        out.file.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        _print_summary(summary)
        if audited is not None:
            _print_audit(audited)
    if summary.errors:
        return EXIT_IO
    if args.strict and (summary.total("rejects") or any(f.status == "skipped" for f in summary.files)):
        return EXIT_REJECTS
    return EXIT_OK


@contextmanager
def _audit_bar(show: bool) -> Iterator[Callable[[int, int], None] | None]:
    if not show:
        yield None
        return
    columns = (TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with RichProgress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("audit", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _print_audit(summary: AuditSummary, how: str | None = None) -> None:
    """The audit's findings by code and the hands with the most errors; `how` says what was done
    to the hands (by default, replayed under their profile or the one given)."""
    profile = summary.profile or "each hand's own profile"
    how = how or f"replayed under {profile}"
    out.print(f"audit: {summary.hands} hands {how}: {summary.count('error')} errors, "
              f"{summary.count('warning')} warnings, {summary.count('info')} notes")
    if not summary.findings:
        return
    table = Table(title="Findings by code")
    for column in ("code", "severity", "count", "rule", "what it means"):
        table.add_column(column, justify="right" if column == "count" else "left")
    for code, severity, rule, count in summary.by_code:
        title = rule_title(rule)
        table.add_row(code, severity, str(count), f"{rule} ({title})" if title else rule, CODES[code].summary)
    out.print(table)
    worst = summary.worst_hands
    if worst:
        out.print("hands with the most errors:")
    by_hand: dict[str, list[tuple[str, str | None]]] = {}
    for f in summary.findings:
        by_hand.setdefault(f.hand_id, []).append(
            (f"#{f.seq} {f.code.name}: {f.message} ({f.rule})", quote_for(f.code.name, f.rule)))
    for hand_id, errors, warnings in worst[:MAX_LISTED_HANDS]:
        out.print(f"  {hand_id}: {errors} errors, {warnings} warnings")
        for line, quote in by_hand[hand_id][:5]:
            out.print(f"    {line}", style="dim")
            if quote is not None:  # the rule's own words, under the finding that applies them
                out.print(f"      “{quote}”", style="dim italic")
    if len(worst) > MAX_LISTED_HANDS:
        out.print(f"  ... and {len(worst) - MAX_LISTED_HANDS} more hands (`barge audit --json` lists all)")


def _stored_findings(args: argparse.Namespace) -> AuditSummary:
    """A dataset's findings as its cluster ingest stored them (a dataset is not written again)."""
    with _reader(args.db, args.wait) as store:
        check_catalog(store.con, variant=args.variant, event=args.event, hand=args.hand)
        rows = store.con.execute(
            "SELECT f.hand_id, f.seq, f.code, f.message, f.rule FROM findings f JOIN hands h USING (hand_id) "
            "WHERE ($1::VARCHAR IS NULL OR h.variant = $1) AND ($2::VARCHAR IS NULL OR h.event = $2) "
            "AND ($3::VARCHAR IS NULL OR h.hand_id = $3) ORDER BY h.source_id, h.line, f.seq",
            [args.variant, args.event, args.hand]).fetchall()
        hands = store.con.execute(
            "SELECT count(*) FROM audits a JOIN hands h USING (hand_id) WHERE ($1::VARCHAR IS NULL OR "
            "h.variant = $1) AND ($2::VARCHAR IS NULL OR h.event = $2) "
            "AND ($3::VARCHAR IS NULL OR h.hand_id = $3)",
            [args.variant, args.event, args.hand]).fetchall()[0][0]
    return AuditSummary(int(hands), None, [Finding(h, seq, CODES[code], message, rule)
                                           for h, seq, code, message, rule in rows])


def cmd_audit(args: argparse.Namespace) -> int:
    if dataset.is_dataset(args.db):
        if args.rules or args.sequences:
            raise UsageError(f"{args.db} is a Parquet dataset, audited by the ingest that wrote it: it lists "
                             "its findings; to replay under --rules, ingest again with --cluster ray --rules")
        summary = _stored_findings(args)
        if args.json:
            out.print_json(json.dumps(summary.to_json()))
        else:
            _print_audit(summary, "audited by the cluster ingest that stored them")
        return EXIT_OK
    if not Path(args.db).exists():
        raise StoreError(f"no database at {args.db} (run `barge ingest` first or pass --db)")
    with Store(Path(args.db), wait=args.wait, on_wait=err.print) as store, \
            _audit_bar(err.is_terminal and not args.json) as tick:
        check_catalog(store.con, variant=args.variant, event=args.event, hand=args.hand)
        if args.sequences and (args.variant or args.hand or args.rules):
            raise UsageError("--sequences checks whole tables in order: with --event only, not --variant, "
                             "--hand or --rules")
        if args.sequences:
            summary = audit_sequences(store, event=args.event, jobs=args.jobs)
        else:
            summary = audit(store, args.rules, variant=args.variant, event=args.event, hand_id=args.hand,
                            progress=tick, jobs=args.jobs)
    if args.json:
        out.print_json(json.dumps(summary.to_json()))
    else:
        _print_audit(summary, "checked in order at their tables" if args.sequences else None)
    return EXIT_OK


def _reader(db: str, wait: float) -> Store:
    """The database opened read-only, waiting up to `wait` s while a writer holds it; a Parquet
    dataset (`pipeline.dataset`) through views with the same tables."""
    if dataset.is_dataset(db):
        try:
            return Store.over(dataset.connect(db), Path(db))
        except dataset.DatasetError as exc:
            raise StoreError(str(exc)) from None
    if not Path(db).exists():
        raise StoreError(f"no database at {db} (run `barge ingest` first or pass --db)")
    return Store(Path(db), read_only=True, wait=wait, on_wait=err.print)


def _review_line(status: str, reviewer: str, at: datetime.datetime, note: str) -> str:
    return f"{status} by {reviewer} at {at:%Y-%m-%d %H:%M} UTC" + (f": {note}" if note else "")


def _list_reviews(args: argparse.Namespace) -> int:
    """`barge review HAND_ID`: the hand's findings, each with its rule's words and its review,
    then the whole review history of the hand (findings a fix removed keep theirs)."""
    with _reader(args.db, args.wait) as store:
        check_catalog(store.con, hand=args.hand_id)
        found = hand_findings(store.con, args.hand_id)
        history = reviews(store.con, [args.hand_id])
    decisions = {r.key: r for r in history}
    current = [(f, current_for(decisions, args.hand_id, f.code, f.seq)) for f in found]
    if args.json:
        as_json = [{"code": r.code, "seq": r.seq, "status": r.status, "note": r.note, "by": r.reviewer,
                    "at": r.at.isoformat()} for r in history]
        out.print_json(json.dumps({"hand_id": args.hand_id, "findings": [
            {"seq": f.seq, "severity": f.severity, "code": f.code, "message": f.message, "rule": f.rule,
             "quote": quote_for(f.code, f.rule), "status": r.status if r else "open"}
            for f, r in current], "reviews": as_json}))
        return EXIT_OK
    out.print(f"{args.hand_id}: {_many(len(found), 'finding')}")
    for f, review in current:
        out.print(f"  #{f.seq} {f.code} ({f.severity}): {f.message} ({f.rule})")
        quote = quote_for(f.code, f.rule)
        if quote is not None:
            out.print(f"      “{quote}”", style="dim italic")
        state = "open, not reviewed" if review is None else _review_line(
            review.status, review.reviewer, review.at, review.note)
        out.print(f"      review: {state}")
    if history:
        out.print("review history, oldest first:")
        for r in history:
            seq = "" if r.seq is None else f" #{r.seq}"
            out.print(f"  {r.code}{seq}: {_review_line(r.status, r.reviewer, r.at, r.note)}")
    return EXIT_OK


def cmd_review(args: argparse.Namespace) -> int:
    if args.status is None:
        if args.code is not None or args.note or args.by or args.seq is not None:
            raise UsageError("a review needs --status confirmed|overturned|open (without it, "
                             "`barge review HAND_ID` lists the hand's findings and reviews)")
        return _list_reviews(args)
    if args.code is None:
        raise UsageError("name the finding: barge review HAND_ID CODE --status ... --by NAME")
    if not args.by or not args.by.strip():
        raise UsageError("say who reviews: --by NAME")
    if dataset.is_dataset(args.db):
        raise UsageError(f"{args.db} is a Parquet dataset, which is not written after its ingest: make a "
                         f"database of it with `barge attach {args.db} --db FILE` and review there")
    if not Path(args.db).exists():
        raise StoreError(f"no database at {args.db} (run `barge ingest` first or pass --db)")
    with Store(Path(args.db), wait=args.wait, on_wait=err.print) as store:
        check_catalog(store.con, hand=args.hand_id)
        try:
            check_target(store.con, args.hand_id, args.code, args.seq)
            review = add_review(store.con, args.hand_id, args.code, args.status, args.note or "", args.by,
                                seq=args.seq)
        except ReviewError as exc:
            raise UsageError(str(exc)) from None
    which = "" if review.seq is None else f" #{review.seq}"
    out.print(f"{review.hand_id} {review.code}{which}: "
              f"{_review_line(review.status, review.reviewer, review.at, review.note)}")
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    selection = Selection(event=args.event, table=args.table, date_from=args.date_from, date_to=args.date_to,
                          statuses=tuple(args.status or ()))
    with _reader(args.db, args.wait) as store:
        check_catalog(store.con, event=args.event, table=args.table)
        try:
            summary = write_report(store.con, selection, args.format, Path(args.out))
        except ReportError as exc:
            err.print(f"barge report: {exc}")
            return EXIT_IO
        except OSError as exc:
            err.print(f"barge report: cannot write {args.out}: {exc.strerror or exc}")
            return EXIT_IO
    out.print(f"wrote {_many(summary.findings, 'finding')} of {_many(summary.hands, 'hand')} at "
              f"{_many(summary.tables, 'table')} to {args.out} ({args.format})")
    return EXIT_OK


def cmd_rejects(args: argparse.Namespace) -> int:
    with _reader(args.db, args.wait) as store:
        rows = store.rejects()
    if args.json:
        out.print_json(json.dumps([
            {"path": r["path"], "line": r["line"], "column": r["column"], "error": r["error"],
             "raw_text": r["raw_text"]} for r in rows]))
        return EXIT_OK
    for r in rows:
        first = r["raw_text"].splitlines()[0] if r["raw_text"] else ""
        out.print(f"{r['path']}:{r['line']}:{r['column']}: {r['error']}")
        out.print(f"    {first[:100]}", style="dim")
    out.print(f"{len(rows)} rejected hands" + ("; fix the grammar or the files, then "
              "`barge ingest --retry-rejects`" if rows else ""))
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    with _reader(args.db, args.wait) as store:
        check_catalog(store.con, hand=args.hand_id)
        hand = store.load_hand(args.hand_id)
    assert hand is not None  # check_catalog found it
    sys.stdout.write(write_hand(hand))
    return EXIT_OK


def cmd_variants(args: argparse.Namespace) -> int:
    """Every game the database can hold: the rulebook's 59, then the rooms' own, marked."""
    games = [ALL_GAMES[v] for v in ALL_VARIANTS]
    if args.json:
        out.print_json(json.dumps([{**catalog_entry(g), "room": g.variant.room} for g in games]))
        return EXIT_OK
    rooms = len(games) - len(VARIANTS)
    table = Table(title=f"{len(VARIANTS)} variants of the BARGE Rulebook (2025) and {rooms} rooms' own games")
    for column in ("id", "name", "rule", "deck", "forced money", "streets"):
        table.add_column(column)
    for game in games:
        streets = ", ".join(s.name.replace("_", " ") for s in game.streets)
        room = game.variant.room
        name = game.variant.name if room is None else f"{game.variant.name} (a {room} game)"
        table.add_row(game.id, name, game.rule, str(game.deck.size), game.forced, streets)
    _print_table(table)
    return EXIT_OK


# (column, heading, format) of the `barge stats` table; None prints as a dash.
_STAT_COLUMNS = (
    ("hands", "hands", "{:,}"), ("vpip", "VPIP", "{:.1f}"), ("pfr", "PFR", "{:.1f}"),
    ("three_bet", "3B", "{:.1f}"), ("fold_to_three_bet", "F3B", "{:.1f}"), ("cbet", "CB", "{:.1f}"),
    ("fold_to_cbet", "FCB", "{:.1f}"), ("af", "AF", "{:.2f}"), ("afq", "AFq", "{:.1f}"),
    ("wtsd", "WTSD", "{:.1f}"), ("wsd", "W$SD", "{:.1f}"), ("wwsd", "WWSD", "{:.1f}"),
    ("net", "net", "{:,.2f}"), ("net_bb_per_100", "bb/100", "{:,.1f}"),
    ("allin_adjusted_net", "adj. net", "{:,.2f}"),
)  # fmt: skip


# The statistics `barge stats --sort` orders by: every figure of a row, not the player's names.
SORTABLE = [c for c in stat_columns() if c not in PLAYER]


def _at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a whole number of at least 1: {text!r}")
    return int(text)


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def _print_table(table: Table) -> None:
    """Piped output is not cut to 80 columns: the table keeps its natural width."""
    if out.is_terminal:
        out.print(table)
    else:
        wide = out.measure(table, options=out.options.update_width(1000)).maximum
        Console(width=max(wide, out.width), highlight=False, soft_wrap=True).print(table)


def _cell(value: Any, fmt: str) -> str:
    return "-" if value is None else fmt.format(value)


def cmd_stats(args: argparse.Namespace) -> int:
    filters = Filters(event=args.event, variant=args.variant, structure=args.structure, table=args.table,
                      player=args.player, date_from=args.date_from, date_to=args.date_to, site=args.site,
                      game_type=args.game_type, currency=args.currency, unit=args.unit)
    with _reader(args.db, args.wait) as store:
        try:
            check_catalog(store.con, variant=args.variant, event=args.event, table=args.table)
            if args.by is None:
                frame = player_stats(store.con, filters)
            else:
                frame = stats_by(store.con, filters, args.by)
        except duckdb.CatalogException:
            raise StoreError(f"{args.db} holds no hands (run `barge ingest` first)") from None
        except UnitsMissing as exc:
            raise StoreError(f"{args.db}: {exc}") from None
    frame = frame.filter(pl.col("hands") >= args.min_hands)
    if args.sort is not None:  # highest first; a row without the figure (no chance) last
        frame = frame.sort(args.sort, descending=True, nulls_last=True, maintain_order=True)
    if args.limit is not None:
        frame = frame.head(args.limit)
    # Each row is one player's in one unit: its money figures say it, bb/100 is in big blinds.
    rows = [{**row, "unit_label": unit_label(row["unit"]),
             "units": {"net": row["unit"], "allin_adjusted_net": row["unit"], "net_bb_per_100": "bb/100"}}
            for row in frame.to_dicts()]
    if args.json:
        out.print_json(json.dumps(rows))
        return EXIT_OK
    if not rows:
        out.print("no hands match")
        return EXIT_OK
    table = Table(title="Player statistics" + (f" by {args.by}" if args.by else ""))
    keys = ([args.by] if args.by else []) + ["site", "player", "unit_label"]
    for key in keys:
        table.add_column("unit" if key == "unit_label" else key, no_wrap=True)
    for _, heading, _ in _STAT_COLUMNS:
        table.add_column(heading, justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*(_cell(row[k], "{}") for k in keys),
                      *(_cell(row[c], fmt) for c, _, fmt in _STAT_COLUMNS))
    _print_table(table)
    out.print("percentages of the chances the player had, - where there was none; net and adj. net in "
              "the row's unit, bb/100 in big blinds (big bets in limit) per 100 hands (docs/stats.md)",
              style="dim")
    return EXIT_OK


def cmd_attach(args: argparse.Namespace) -> int:
    """A DuckDB file whose tables are views over a Parquet dataset."""
    target = Path(args.db)
    if target.exists():
        raise UsageError(f"{target} exists; `barge attach` makes a new database file (choose another name)")
    if not dataset.is_dataset(args.dataset):
        raise StoreError(f"{args.dataset} is not a barge Parquet dataset (make one with "
                         "`barge ingest --cluster ray --out DATASET`)")
    try:
        views = dataset.attach(args.dataset, target)
    except dataset.DatasetError as exc:
        raise StoreError(str(exc)) from None
    out.print(f"{target}: {len(views)} views over {args.dataset} ({', '.join(views)}), and a reviews table")
    return EXIT_OK


def cmd_dashboard(args: argparse.Namespace) -> int:
    db = Path(args.db)
    if not db.exists():
        raise StoreError(f"no database at {db} (run `barge ingest` first or pass --db)")
    try:  # imported here: the dashboard pulls in streamlit, which the other commands do not need
        from dashboard.launch import serve
    except ImportError as exc:
        err.print(f"barge dashboard: the dashboard cannot be loaded ({exc})")
        return EXIT_IO
    return serve(db, args.port)


def _print_generated(summary: Summary, folder: str) -> None:
    table = Table(title="Hands generated by variant", show_footer=True)
    table.add_column("variant", footer="total")
    table.add_column("hands", justify="right", footer=str(summary.hands))
    for variant, count in summary.by_variant.items():
        table.add_row(variant, str(count))
    if summary.by_variant:
        out.print(table)
    rate = summary.hands / summary.seconds if summary.seconds else 0.0
    kinds = len(summary.by_variant)
    out.print(f"{summary.hands} hands of {kinds} variant{'' if kinds == 1 else 's'} written to {folder} "
              f"in {len(summary.files)} files, in {summary.seconds:.2f} s ({rate:,.0f} hands/s)")
    if summary.breaks:
        out.print(f"{summary.breaks} hands broken on purpose, listed in breaks.csv")
    for variant, reason in summary.skipped.items():
        out.print(f"  skipped {variant}: {reason}")


def cmd_generate(args: argparse.Namespace) -> int:
    if args.variant != "all" and not generatable(args.variant):
        room = ALL_VARIANTS[args.variant].room if args.variant in ALL_VARIANTS else None
        what = f"{args.variant} is a {room} game" if room else f"unknown variant {args.variant!r}"
        raise UsageError(f"{what}; generate writes the rulebook's {len(GAMES)} games (`barge variants` "
                         "lists them) or all")
    if args.hands < 1:
        err.print(f"barge generate: --hands must be at least 1, not {args.hands}")
        return EXIT_USAGE
    if not 0 <= args.break_rate <= 1:
        err.print(f"barge generate: --break-rate is a fraction from 0 to 1, not {args.break_rate}")
        return EXIT_USAGE
    variants = tuple(VARIANTS) if args.variant == "all" else (args.variant,)
    request = Request(variants, args.hands, args.seed, args.format, args.break_rate, args.jobs)
    total = args.hands * len(variants)
    try:
        if err.is_terminal:
            columns = (TextColumn("generating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
            with RichProgress(*columns, console=err, transient=True) as bar:
                task = bar.add_task("generate", total=total)
                summary = generate(request, Path(args.out), lambda n: bar.advance(task, n))
        else:
            summary = generate(request, Path(args.out))
    except OSError as exc:
        err.print(f"barge generate: cannot write to {args.out}: {exc.strerror or exc}")
        return EXIT_IO
    _print_generated(summary, args.out)
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    target = Path(args.out)
    if args.format == "parquet" and (args.variant or args.per != "source"):
        err.print("barge export: --variant and --per apply to --format phh only")
        return EXIT_USAGE
    known = {v for v, _ in PHH_CODES} | set(PHH_VARIANTS)  # six_plus_holdem too (NS)
    unknown = [v for v in args.variant or () if v not in known]
    if unknown:
        err.print(f"barge export: PHH has no code for {', '.join(unknown)} (its games: "
                  f"{', '.join(sorted(PHH_VARIANTS))})")
        return EXIT_USAGE
    with _reader(args.db, args.wait) as store:
        try:
            if args.format == "parquet":
                rows = export_parquet(store.con, target, overwrite=args.force)
                out.print(f"wrote {sum(rows.values()):,} rows of {len(rows)} tables as Parquet under "
                          f"{target}: " + ", ".join(f"{name} {count:,}" for name, count in rows.items()))
                return EXIT_OK
            summary = export_phh(store.con, target, args.variant or None, args.per)
        except ExportError as exc:
            err.print(f"barge export: {exc}")
            return EXIT_USAGE
        except OSError as exc:
            err.print(f"barge export: cannot write {target}: {exc.strerror or exc}")
            return EXIT_IO
    out.print(f"wrote {summary.hands:,} hands to {len(summary.files)} .phhs files in {target}")
    for variant, count in sorted(summary.written.items()):
        lossy = summary.lossy.get(variant, 0)
        carried = f" ({lossy:,} carry fields PHH has no place for)" if lossy else ""
        out.print(f"  {variant}: {count:,}{carried}")
    if summary.skipped:
        out.print(f"skipped {sum(summary.skipped.values()):,} hands PHH has no code for: "
                  + ", ".join(f"{v} {n:,}" for v, n in sorted(summary.skipped.items())))
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from benchmarks import suite  # imported here: the peers and the data are only for this command

    def report(name: str, seconds: float, rows: list[dict[str, Any]]) -> None:
        err.print(f"{name}: {len(rows)} figures in {seconds:.1f} s")  # stderr: the JSON stays whole

    result = suite.run(args.quick, args.only, report)
    for name, why in result["failed"].items():
        err.print(f"[red]{name}: stopped, no figures:[/] {why}")
    status = EXIT_IO if result["failed"] else EXIT_OK
    if args.json:
        out.print_json(json.dumps(result))
        return status
    m = result["machine"]
    table = Table(title=f"barge bench{' --quick' if args.quick else ''}: {m['cpu']}, {m['cores']} cores, "
                        f"Python {m['python']}, {m['date']}; hot path {m['hot_path']}")
    for column in ("benchmark", "ours", "peer", "unit", "ours / peer", "input"):
        table.add_column(column, justify="right" if column in ("ours", "peer", "ours / peer") else "left")
    for r in result["rows"]:
        peer = "-" if r["peer"] is None else f"{_figure(r['peer'])} ({r['peer_name']})"
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:,.1f}x"
        table.add_row(r["benchmark"], _figure(r["ours"]), peer, r["unit"], ratio, r["note"])
    out.print(table)
    out.print(f"{result['seconds']:.0f} s in all")
    return status


def _figure(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.3g}"


def _add_wait(p: argparse.ArgumentParser) -> None:
    p.add_argument("--wait", type=float, default=30.0, metavar="SECONDS",
                   help="how long to wait while another process writes the database (default: 30)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="barge", description="Parse, store and audit poker hand histories of every BARGE variant.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = commands.add_parser("ingest", help="store hand histories in the database",
                            description="Parse history files (folders recursively) into the database.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="history files or folders")
    p.add_argument("--db", default=str(DEFAULT_DB), help="database file (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--strict", action="store_true",
                   help="exit with status 1 if any hand was rejected or any file skipped")
    p.add_argument("--retry-rejects", action="store_true",
                   help="read every stored reject again and store those that read now")
    _add_wait(p)
    add_games_option(p)
    p.add_argument("--no-audit", action="store_true", help="store only; do not replay the new hands")
    p.add_argument("--jobs", type=jobs_arg, default=default_jobs(), metavar="N",
                   help="worker processes that read and replay (default: one per core, %(default)s)")
    p.add_argument("--rules", choices=list(PROFILES), default=None,
                   help="audit under this rules profile instead of each hand's own")
    p.add_argument("--cluster", choices=["ray"], help="read on a Ray cluster into the Parquet dataset --out")
    p.add_argument("--address", metavar="ADDR",
                   help="the Ray cluster to join (ray://host:10001 or auto); without it a local one starts "
                        "on --jobs cores")
    p.add_argument("--out", metavar="DATASET", help="with --cluster: the dataset's folder or URI (s3://...)")
    p.set_defaults(run=cmd_ingest)

    p = commands.add_parser("attach", help="make a DuckDB file whose tables are views over a Parquet dataset",
                            description="Make a DuckDB database file of views over a dataset written by "
                                        "`barge ingest --cluster ray` (reviews can be written there).")
    p.add_argument("dataset", metavar="DATASET", help="the dataset's folder")
    p.add_argument("--db", required=True, help="the database file to make")
    p.set_defaults(run=cmd_attach)

    p = commands.add_parser("audit", help="replay stored hands and record where they break the rules",
                            description="Replay stored hands under the rulebook and store the findings "
                                        "(replacing earlier ones of the same hands).")
    p.add_argument("--db", default=str(DEFAULT_DB), help="database file (default: %(default)s)")
    p.add_argument("--rules", choices=list(PROFILES), default=None,
                   help="rules profile for every hand (default: each hand's own, else barge-2025)")
    p.add_argument("--variant", help="only hands of this variant id")
    p.add_argument("--event", help="only hands of this event (as written on the Event: line)")
    p.add_argument("--hand", help="only this hand id")
    p.add_argument("--sequences", action="store_true",
                   help="check each table's hands in order (the button, the stacks, the levels, the seats) "
                        "instead of replaying single hands; with --event, that event's tables")
    p.add_argument("--jobs", type=jobs_arg, default=default_jobs(), metavar="N",
                   help="worker processes that replay (default: one per core, %(default)s)")
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    _add_wait(p)
    add_games_option(p)
    p.set_defaults(run=cmd_audit)

    p = commands.add_parser("rejects", help="list the hands that could not be read",
                            description="List rejected hands with file, line, column and the error.")
    p.add_argument("--db", default=str(DEFAULT_DB), help="database file (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print the list as JSON, with raw texts")
    _add_wait(p)
    p.set_defaults(run=cmd_rejects)

    p = commands.add_parser("show", help="print a stored hand in the native format",
                            description="Print a stored hand back in the native BARGE format.")
    p.add_argument("hand_id", metavar="HAND_ID")
    p.add_argument("--db", default=str(DEFAULT_DB), help="database file (default: %(default)s)")
    _add_wait(p)
    p.set_defaults(run=cmd_show)

    p = commands.add_parser("review", help="confirm or overturn a finding, or list a hand's reviews",
                            description="Record a director's decision about a finding of a hand (kept "
                                        "across re-audits and re-ingests); with no --status, list the "
                                        "hand's findings, their rule text and their reviews.")
    p.add_argument("hand_id", metavar="HAND_ID")
    p.add_argument("code", metavar="CODE", nargs="?", help="the finding's code, e.g. WRONG_ODD_CHIP")
    p.add_argument("--status", choices=STATUSES, help="the decision")
    p.add_argument("--note", default="", help="why")
    p.add_argument("--by", metavar="NAME", help="who decides")
    p.add_argument("--seq", type=int, metavar="N",
                   help="one of several findings of CODE: the one at action N")
    p.add_argument("--db", default=str(DEFAULT_DB), help="database file (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="list as JSON")
    _add_wait(p)
    p.set_defaults(run=cmd_review)

    p = commands.add_parser("report", help="write an incident report (HTML or PDF) of the findings",
                            description="Per event and table, each finding with its hand drawn, the "
                                        "rule's text, the record's and the rules' pushes, and its review.")
    p.add_argument("out", metavar="OUT", help="the file to write")
    p.add_argument("--format", choices=REPORT_FORMATS, required=True)
    p.add_argument("--event", help="only hands of this event (as written on the Event: line)")
    p.add_argument("--table", help="only hands of this table (as written on the Table line)")
    p.add_argument("--from", dest="date_from", type=_date, metavar="DATE", help="hands on or after DATE")
    p.add_argument("--to", dest="date_to", type=_date, metavar="DATE", help="hands on or before DATE")
    p.add_argument("--status", action="append", choices=STATUSES,
                   help="only findings whose review is this (repeatable; open: not reviewed, or reopened)")
    p.add_argument("--db", default=str(DEFAULT_DB), help="database file (default: %(default)s)")
    _add_wait(p)
    p.set_defaults(run=cmd_report)

    p = commands.add_parser("variants", help="list the variant catalog",
                            description="List the 59 variant ids with their rulebook sections.")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    add_games_option(p)
    p.set_defaults(run=cmd_variants)

    p = commands.add_parser("stats", help="print per-player statistics",
                            description="Per-player statistics (VPIP, PFR, 3-bet, c-bet, AF, WTSD, W$SD, "
                                        "net, all-in adjusted net) of the stored hands; docs/stats.md "
                                        "defines each one.")
    p.add_argument("--db", default=str(DEFAULT_DB), help="database file (default: %(default)s)")
    p.add_argument("--player", help="only this player")
    p.add_argument("--variant", help="only hands of this variant id")
    p.add_argument("--event", help="only hands of this event (as written on the Event: line)")
    p.add_argument("--structure", choices=["limit", "pot-limit", "no-limit", "pl-nl"],
                   help="only this structure")
    p.add_argument("--table", help="only hands of this table (as written on the Table line)")
    p.add_argument("--from", dest="date_from", type=_date, metavar="DATE", help="hands on or after DATE")
    p.add_argument("--to", dest="date_to", type=_date, metavar="DATE", help="hands on or before DATE")
    p.add_argument("--site", help="only hands of this site or venue (PokerStars, Full Tilt, ...)")
    p.add_argument("--game-type", choices=GAME_TYPES, help="only hands of this game type")
    p.add_argument("--currency", help="only hands in this currency (USD, EUR, play, ...; a tournament's "
                                      "is its buy-in's)")
    p.add_argument("--unit", help="only hands counted in this unit (USD, play, T:PokerStars:123, ...)")
    p.add_argument("--by", choices=GROUPINGS,
                   help="one row per player and variant (or position, or stake level)")
    p.add_argument("--min-hands", type=_at_least_one, default=1, metavar="N",
                   help="only rows of at least N hands (default: %(default)s)")
    p.add_argument("--sort", choices=SORTABLE, metavar="COLUMN",
                   help=f"order the rows by this statistic, highest first: {', '.join(SORTABLE)}")
    p.add_argument("--limit", type=_at_least_one, metavar="N", help="print only the first N rows")
    p.add_argument("--json", action="store_true",
                   help="print a JSON list of per-player, per-unit objects")
    _add_wait(p)
    p.set_defaults(run=cmd_stats)

    p = commands.add_parser("dashboard", help="start the statistics dashboard in the browser",
                            description="Serve the Streamlit dashboard over a database.")
    p.add_argument("--db", default=str(DEFAULT_DB), help="database file (default: %(default)s)")
    p.add_argument("--port", type=int, default=8501, help="port to serve on (default: %(default)s)")
    p.set_defaults(run=cmd_dashboard)

    p = commands.add_parser("export", help="write stored hands as PHH, or every table as Parquet",
                            description="PHH: the hands of the 11 PHH games as .phhs files, one per "
                                        "ingested file (or event); other games are skipped and counted. "
                                        "Parquet: every table, partitioned by variant and date.")
    p.add_argument("out", metavar="OUT", help="folder to write into")
    p.add_argument("--format", choices=["phh", "parquet"], required=True)
    p.add_argument("--db", default=str(DEFAULT_DB), help="database file (default: %(default)s)")
    p.add_argument("--variant", action="append", metavar="ID",
                   help="phh: only this variant id or PHH code (repeatable)")
    p.add_argument("--per", choices=["source", "event"], default="source",
                   help="phh: one file per ingested file (default) or per event")
    p.add_argument("--force", action="store_true", help="parquet: replace an earlier export in OUT")
    _add_wait(p)
    p.set_defaults(run=cmd_export)

    p = commands.add_parser("bench", help="measure speed side by side with PokerKit and other peers",
                            description="Run the benchmarks of benchmarks/ and print each figure with the "
                                        "peer's on the same input and the ratio (docs/performance.md).")
    p.add_argument("--quick", action="store_true", help="small inputs: minutes, not an hour")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--only", action="append",
                   choices=["evaluation", "phh", "profile", "ingest", "small_files", "dashboard", "cluster"],
                   help="run only this suite (repeatable)")
    p.set_defaults(run=cmd_bench)

    p = commands.add_parser("generate", help="write random legal hands of every variant",
                            description="Generate random legal hands (deterministic for a seed), one file "
                                        "per variant, optionally with labelled rule breaks.")
    p.add_argument("out", metavar="OUT_FOLDER", help="folder for the files (created if needed)")
    p.add_argument("--variant", default="all", help="a variant id, or all (default: %(default)s)")
    p.add_argument("--hands", type=int, default=100, help="hands per variant (default: %(default)s)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default: %(default)s)")
    p.add_argument("--format", choices=GENERATED_FORMATS, default="native",
                   help="native .bhh or PHH .phhs (PHH variants only) (default: %(default)s)")
    p.add_argument("--break-rate", type=float, default=0.0, metavar="R",
                   help="fraction of hands with a known rule break, listed in breaks.csv (default: 0)")
    p.add_argument("--jobs", type=jobs_arg, default=default_jobs(), metavar="N",
                   help="worker processes (default: one per CPU)")
    add_games_option(p)
    p.set_defaults(run=cmd_generate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    fewer_collections()  # this process reads, replays and writes hands too
    try:
        load_house_games(args)
        code: int = args.run(args)
        return code
    except GameDefinitionError as exc:  # located like a history's error, no traceback
        err.print(f"barge {args.command}: {exc}", markup=False, highlight=False)
        return EXIT_USAGE
    except UsageError as exc:
        err.print(f"barge {args.command}: {exc}")
        return EXIT_USAGE
    except duckdb.CatalogException:  # a read command on a database no ingest has written
        err.print(f"barge {args.command}: {getattr(args, 'db', 'the database')} holds no hands "
                  "(run `barge ingest` first)")
        return EXIT_IO
    except StoreError as exc:
        err.print(f"barge: {exc}")
        return EXIT_IO
    except WorkerError as exc:  # a worker was killed (out of memory, say): not a bug of the input
        err.print(f"barge: {exc}")
        return EXIT_IO
    except KeyboardInterrupt:
        err.print("barge: interrupted; files not finished were rolled back, run the command again")
        return 130
    except Exception as exc:
        if os.environ.get("BARGE_DEBUG"):
            raise
        err.print(f"barge: internal error: {type(exc).__name__}: {exc} "
                  "(set BARGE_DEBUG=1 for details and please report it)")
        return 70


if __name__ == "__main__":
    raise SystemExit(main())
