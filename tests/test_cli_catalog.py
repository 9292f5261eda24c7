"""One catalog for every command: every game the database can hold is known everywhere, and an
unknown variant, event, table or hand is a usage error (exit 2) naming what exists; read commands
wait for a busy database as long as `--wait` says."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from evaluator.variants import ALL_VARIANTS, ROOM_VARIANTS, VARIANTS
from pipeline.cli import main
from tests.conftest import SAMPLES

BARGE = [sys.executable, "-m", "pipeline.cli"]
HOLDER = """
import sys, duckdb
con = duckdb.connect(sys.argv[1])
print("holding", flush=True)
sys.stdin.read()  # hold the database until the test closes our stdin
"""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("catalog")
    for name in ("WRONG_ODD_CHIP.bhh", "BOMB_POT_BETTING.bhh"):
        shutil.copy(SAMPLES / "audit" / name, folder / name)
    path = folder / "c.duckdb"
    assert main(["ingest", str(folder), "--db", str(path), "--jobs", "1", "--json"]) == 0
    return path


@pytest.mark.parametrize(("args", "names"), [
    (["audit", "--variant", "nonsense"], "the database holds"),
    (["audit", "--variant", "texas_holdum"], "did you mean texas_holdem"),
    (["audit", "--hand", "NOPE"], "no hand 'NOPE' in the database (2 hands; the closest ids: AUDIT-"),
    (["audit", "--event", "no such event"], "its events: BARGE 2025 Event #"),
    (["stats", "--variant", "nonsense"], "unknown variant 'nonsense'"),
    (["stats", "--event", "no such event"], "its events: BARGE 2025 Event #"),
    (["stats", "--table", "99"], "no table '99'"),
    (["show", "NOPE"], "no hand 'NOPE'"),
    (["review", "NOPE"], "no hand 'NOPE'"),
])
def test_an_unknown_name_is_a_usage_error_naming_what_exists(
    capsys: pytest.CaptureFixture[str], db: Path, args: list[str], names: str
) -> None:
    code, out, err = run(capsys, *args, "--db", str(db))
    assert code == 2, out + err
    assert names in err and "Traceback" not in err
    assert "hands replayed" not in out  # the audit never ran on nothing


def test_the_rooms_games_are_known_to_every_command(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    # PokerStars' 6+ Hold'em is a game the database can hold: no hands of it is not an error.
    code, out, _ = run(capsys, "stats", "--variant", "six_plus_holdem", "--db", str(db))
    assert code == 0 and "no hands match" in out
    code, out, _ = run(capsys, "audit", "--variant", "six_plus_holdem", "--db", str(db))
    assert code == 0 and "0 hands replayed" in out


def test_barge_variants_lists_every_game_and_marks_the_rooms(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["id"] for r in rows] == list(ALL_VARIANTS)
    assert [r["id"] for r in rows if r["room"] is None] == list(VARIANTS)
    assert {r["id"]: r["room"] for r in rows if r["room"]} == {v.id: v.room for v in ROOM_VARIANTS.values()}
    code, out, _ = run(capsys, "variants")
    assert code == 0 and "(a PokerStars game)" in out and f"{len(VARIANTS)} variants" in out


def test_a_read_command_waits_for_a_busy_database_as_long_as_told(db: Path, tmp_path: Path) -> None:
    busy = tmp_path / "busy.duckdb"
    shutil.copy(db, busy)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(busy)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdin is not None and holder.stdout is not None
    assert holder.stdout.readline().strip() == "holding"
    started = time.monotonic()
    failed = subprocess.run([*BARGE, "stats", "--db", str(busy), "--wait", "0.5"], capture_output=True,
                            text=True)
    assert failed.returncode == 3 and "in use by another process" in failed.stderr
    assert time.monotonic() - started < 60
    waiting = subprocess.Popen([*BARGE, "rejects", "--db", str(busy), "--wait", "120", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)  # the reader starts and finds the database held
    holder.stdin.close()
    holder.wait()
    output, errors = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, errors
    assert json.loads(output) == []


@pytest.mark.parametrize("args", [["show", "X"], ["review", "X"], ["rejects"], ["stats", "--variant", "razz"],
                                  ["report", "--format", "html", "OUT"]])
def test_a_read_command_on_a_database_never_ingested_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str]
) -> None:
    empty = tmp_path / "empty.duckdb"
    duckdb.connect(str(empty)).close()
    code, _, err = run(capsys, *[str(tmp_path / a) if a == "OUT" else a for a in args], "--db", str(empty))
    assert code == 3 and "holds no hands" in err and "Traceback" not in err
