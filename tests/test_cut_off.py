"""A hand whose record stops before the hand is over is refused as cut off, in every format, with
its raw text and the line where it stops; its results never reach the statistics."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from pipeline.cli import main

NATIVE_HEAD = """\
BARGE Hand #CUT-{n}: texas_holdem no-limit (blinds 100/200) - 2025-07-10 14:03:55
Table '7' 9-max Seat #1 is the button
Seat 1: Ann (5,000 in chips)
Seat 2: Bo (5,000 in chips)
Seat 3: Cy (5,000 in chips)
Bo: posts small blind 100
Cy: posts big blind 200
*** HOLE CARDS ***
Ann: calls 200
Bo: calls 100
Cy: checks
*** FLOP *** [Qs 7h 2c]
"""
FLOP_BET = "Bo: bets 400\nCy: calls 400\n"  # Ann has still to act
FINISHED = FLOP_BET + "Ann: folds\n*** TURN *** [5d]\nBo: checks\nCy: bets 800\nBo: folds\n" \
    "Uncalled bet (800) returned to Cy\nCy collected 1,400 from pot\n"

PHH = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 TcQc', 'd dh p2 8s4c', 'd dh p3 9c3d', 'p3 cbr 300', 'p1 cc', 'p2 f',
           'd db 7d5h9d', 'p1 cbr 400']
hand = {n}
players = ['Ann', 'Bo', 'Cy']
"""

POKERSTARS = """\
PokerStars Hand #99000000{n}:  Hold'em No Limit ($0.50/$1.00 USD) - 2012/01/10 20:00:00 ET
Table 'Cutty' 6-max Seat #1 is the button
Seat 1: Ann ($100 in chips)
Seat 2: Bo ($100 in chips)
Seat 3: Cy ($100 in chips)
Bo: posts small blind $0.50
Cy: posts big blind $1
*** HOLE CARDS ***
Ann: raises $2 to $3
Bo: calls $2.50
Cy: calls $2
*** FLOP *** [Qs 7h 2c]
Bo: bets $5
"""


def ingest(path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["ingest", str(path), "--db", str(db), "--json"]) == 0
    summary: dict[str, object] = json.loads(capsys.readouterr().out)
    return summary


def rejects(db: Path) -> list[tuple[int, str, str]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return [(int(line), str(error), str(raw)) for line, error, raw in
                con.execute("SELECT line, error, raw_text FROM rejects ORDER BY line").fetchall()]


def hands(db: Path) -> list[str]:
    with duckdb.connect(str(db), read_only=True) as con:
        return [str(r[0]) for r in con.execute("SELECT hand_id FROM hands ORDER BY hand_id").fetchall()]


def test_a_native_hand_cut_off_in_the_middle_of_a_street_is_refused_at_its_last_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = NATIVE_HEAD.format(n=1) + FINISHED
    cut = NATIVE_HEAD.format(n=2) + FLOP_BET  # the file ends while Ann owes a call
    path = tmp_path / "event.bhh"
    path.write_text(whole + "\n" + cut, encoding="utf-8")
    summary = ingest(path, tmp_path / "n.duckdb", capsys)
    assert (summary["hands"], summary["rejects"]) == (1, 1)
    [(line, error, raw)] = rejects(tmp_path / "n.duckdb")
    assert line == whole.count("\n") + 1 + cut.count("\n")  # the cut hand's last line, in the file
    assert "the hand is cut off" in error and "Ann is still to act on the flop" in error
    assert raw.rstrip() == cut.rstrip()
    assert hands(tmp_path / "n.duckdb") == ["CUT-1"]


def test_a_native_hand_that_stops_between_streets_is_cut_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "between.bhh"
    path.write_text(NATIVE_HEAD.format(n=3) + FLOP_BET + "Ann: calls 400\n", encoding="utf-8")
    summary = ingest(path, tmp_path / "b.duckdb", capsys)
    assert summary["rejects"] == 1
    [(_, error, _)] = rejects(tmp_path / "b.duckdb")
    assert "the turn is never dealt" in error


def test_a_hand_whose_record_says_how_it_ended_is_not_cut_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pushes or a summary mean the record went to the end: what is missing is the audit's finding."""
    path = tmp_path / "pushed.bhh"
    path.write_text(NATIVE_HEAD.format(n=4) + FLOP_BET + "Bo collected 2,000 from pot\n", encoding="utf-8")
    summary = ingest(path, tmp_path / "p.duckdb", capsys)
    assert (summary["hands"], summary["rejects"]) == (1, 0)


def test_a_phh_hand_cut_off_in_the_middle_of_a_street_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.phh"
    path.write_text(PHH.format(n=7), encoding="utf-8")
    summary = ingest(path, tmp_path / "h.duckdb", capsys)
    assert (summary["hands"], summary["rejects"]) == (0, 1)
    [(_, error, raw)] = rejects(tmp_path / "h.duckdb")
    assert "the hand is cut off" in error and "Cy is still to act on the flop" in error
    assert raw.strip() == PHH.format(n=7).strip()


def test_a_finished_phh_hand_without_winnings_is_settled_not_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished = PHH.format(n=8).replace("'p1 cbr 400']", "'p1 cbr 400', 'p3 f']")
    path = tmp_path / "whole.phh"
    path.write_text(finished, encoding="utf-8")
    summary = ingest(path, tmp_path / "w.duckdb", capsys)
    assert (summary["hands"], summary["rejects"]) == (1, 0)


def test_a_pokerstars_hand_cut_off_in_the_middle_of_a_street_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "stars.txt"
    path.write_text(POKERSTARS.format(n=1), encoding="utf-8")
    summary = ingest(path, tmp_path / "s.duckdb", capsys)
    assert (summary["hands"], summary["rejects"]) == (0, 1)
    [(_, error, _)] = rejects(tmp_path / "s.duckdb")
    assert "the hand is cut off" in error
