"""Ingest end to end: files in, tables out, rejects kept, nothing counted twice."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from evaluator.profiles import DEFAULT_PROFILE
from grammar.barge_parser import parse_hand
from pipeline.cli import main
from pipeline.sources import read_blocks
from pipeline.store import Store
from pipeline.writer import write_hand
from tests.conftest import SAMPLES, doc_examples, sample_files

REQUIRED_COLUMNS = {
    "sources": ["source_id", "path", "sha256", "format", "ingested_at", "hands", "rejects"],
    "hands": ["hand_id", "source_id", "line", "variant", "structure", "event", "table_name", "level",
              "started_at", "button_seat", "players", "rules_profile"],
    "seats": ["hand_id", "seat", "player", "starting_stack", "ending_stack"],
    "actions": ["hand_id", "seq", "street", "seat", "player", "kind", "amount", "to_amount", "cards",
                "all_in"],
    "boards": ["hand_id", "board", "position", "card"],
    "awards": ["hand_id", "pot", "seat", "player", "amount", "portion", "origin", "hand"],
    "rejects": ["source_id", "line", "column", "error", "raw_text"],
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def examples_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "examples.bhh").write_text("\n".join(doc_examples()), encoding="utf-8")
    return folder


def query(db: Path, sql: str) -> list[tuple[object, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_ingest_prints_a_json_summary_and_fills_every_table(
    capsys: pytest.CaptureFixture[str], examples_dir: Path, db_path: Path
) -> None:
    code, out, _ = run(capsys, "ingest", str(examples_dir), "--db", str(db_path), "--json")
    assert code == 0
    summary = json.loads(out)
    hands = [parse_hand(t) for t in doc_examples()]
    assert summary["hands"] == len(hands) and summary["rejects"] == 0
    assert summary["by_variant"]["texas_holdem"] == sum(h.variant == "texas_holdem" for h in hands)
    assert isinstance(summary["seconds"], float)
    for table, columns in REQUIRED_COLUMNS.items():
        described = [r[0] for r in query(db_path, f"DESCRIBE {table}")]
        assert set(columns) <= set(described), table
    assert query(db_path, "SELECT count(*) FROM seats")[0][0] == sum(len(h.seats) for h in hands)
    assert query(db_path, "SELECT count(*) FROM actions")[0][0] == sum(len(h.actions) for h in hands)
    assert query(db_path, "SELECT count(*) FROM awards WHERE origin = 'recorded'")[0][0] == sum(
        len(h.awards) for h in hands)
    assert query(db_path, "SELECT hands, rejects, format FROM sources") == [(len(hands), 0, "barge")]


def test_stored_hands_read_back_as_they_were_written(
    capsys: pytest.CaptureFixture[str], examples_dir: Path, db_path: Path
) -> None:
    run(capsys, "ingest", str(examples_dir), "--db", str(db_path))
    with Store(db_path, read_only=True) as store:
        for text in doc_examples():
            parsed = parse_hand(text)
            expected = replace(parsed, rules_profile=parsed.rules_profile or DEFAULT_PROFILE)
            assert store.load_hand(parsed.hand_id) == expected


def test_rows_hold_the_recorded_values(
    capsys: pytest.CaptureFixture[str], examples_dir: Path, db_path: Path
) -> None:
    run(capsys, "ingest", str(examples_dir), "--db", str(db_path))
    hand = "B25-E03-T07-0118"
    assert query(db_path, "SELECT variant, structure, event, tournament, table_name, level, button_seat, "
                          "players, big_blind, big_blind_ante, line FROM hands "
                          f"WHERE hand_id = '{hand}'") == [
        ("texas_holdem", "no-limit", "BARGE 2025 Event #3 No-Limit Hold'em", "3", "7",
         "4 (100/200, big blind ante 200)", 3, 5, Decimal("200.00"), Decimal("200.00"), 1)]
    assert query(db_path, f"SELECT seat, ending_stack, final_stack FROM seats WHERE hand_id = '{hand}' "
                          "ORDER BY seat") == [
        (1, Decimal("4650.00"), Decimal("4650.00")), (3, Decimal("3750.00"), Decimal("3750.00")),
        (5, Decimal("6300.00"), Decimal("6300.00")), (8, Decimal("850.00"), Decimal("850.00")),
        (9, Decimal("2500.00"), Decimal("2500.00"))]
    assert query(db_path, f"SELECT pot, seat, amount FROM awards WHERE hand_id = '{hand}' "
                          "AND origin = 'recorded' ORDER BY seq") == [
        (1, 1, Decimal("1600.00")), (0, 3, Decimal("3750.00"))]
    assert query(db_path, f"SELECT kind, amount, to_amount, all_in FROM actions WHERE hand_id = '{hand}' "
                          "AND player = 'Bo' AND kind = 'raise'") == [
        ("raise", Decimal("550.00"), Decimal("1150.00"), True)]
    # Oklahoma: rows 1 and 3 removed; five positions per row.
    assert query(db_path, "SELECT board, count(*), bool_and(removed) FROM boards "
                          "WHERE hand_id = 'B25-E14-T02-0013' GROUP BY board ORDER BY board") == [
        ("1", 5, True), ("2", 5, False), ("3", 5, True)]
    # Running it twice: board 2 continues after the shared flop.
    assert query(db_path, "SELECT board, position, card FROM boards WHERE hand_id = 'B25-CASH5-0412' "
                          "AND board = '2' ORDER BY position") == [("2", 4, "Ks"), ("2", 5, "Kh")]
    assert query(db_path, "SELECT board, position, card FROM boards WHERE hand_id = 'B25-E14-T05-0077' "
                          "AND board IN ('turn', 'river') ORDER BY board, position") == [
        ("river", 1, "2h"), ("turn", 1, "Kc"), ("turn", 2, "5s")]


def test_a_damaged_hand_is_rejected_with_its_line_and_the_others_are_stored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, db_path: Path
) -> None:
    texts = doc_examples()[:3]
    damaged = texts[1].replace("Ann: checks", "Ann: chekcs", 1)
    path = tmp_path / "damaged.bhh"
    path.write_text("\n".join([texts[0], damaged, texts[2]]), encoding="utf-8")
    bad_line = 1 + texts[0].count("\n") + 1 + damaged.splitlines().index("Ann: chekcs")
    code, out, _ = run(capsys, "ingest", str(path), "--db", str(db_path), "--json")
    assert code == 0
    assert (json.loads(out)["hands"], json.loads(out)["rejects"]) == (2, 1)
    [(line, column, error, raw)] = query(db_path, "SELECT line, \"column\", error, raw_text FROM rejects")
    assert (line, column) == (bad_line, 6)
    assert "unexpected 'chekcs'" in str(error) and "'checks'" in str(error)
    assert raw == damaged
    stored = {r[0] for r in query(db_path, "SELECT hand_id FROM hands")}
    assert stored == {parse_hand(texts[0]).hand_id, parse_hand(texts[2]).hand_id}
    code, _, _ = run(capsys, "ingest", str(path), "--db", str(tmp_path / "strict.duckdb"), "--strict")
    assert code == 1


def test_reingesting_the_same_file_adds_nothing(
    capsys: pytest.CaptureFixture[str], examples_dir: Path, db_path: Path
) -> None:
    run(capsys, "ingest", str(examples_dir), "--db", str(db_path))
    before = [query(db_path, f"SELECT count(*) FROM {t}")[0][0] for t in REQUIRED_COLUMNS]
    code, out, _ = run(capsys, "ingest", str(examples_dir), "--db", str(db_path), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["hands"] == 0 and summary["files"][0]["status"] == "already ingested"
    assert [query(db_path, f"SELECT count(*) FROM {t}")[0][0] for t in REQUIRED_COLUMNS] == before


def test_a_hand_stored_from_another_file_is_a_duplicate_or_a_clash(
    capsys: pytest.CaptureFixture[str], examples_dir: Path, db_path: Path
) -> None:
    run(capsys, "ingest", str(examples_dir), "--db", str(db_path))
    copy = examples_dir.parent / "copy.bhh"
    copy.write_text(doc_examples()[0].replace("\n", "  \r\n"), encoding="utf-8")
    code, out, _ = run(capsys, "ingest", str(copy), "--db", str(db_path), "--json")
    summary = json.loads(out)
    assert (code, summary["blocks"], summary["hands"], summary["duplicates"]) == (0, 1, 0, 1)
    clash = examples_dir.parent / "clash.bhh"
    clash.write_text(doc_examples()[0] + "Note: typed again, differently\n", encoding="utf-8")
    code, out, _ = run(capsys, "ingest", str(clash), "--db", str(db_path), "--json")
    summary = json.loads(out)
    assert (summary["hands"], summary["rejects"]) == (0, 1)
    assert "already stored from" in summary["reject_details"][0]["error"]


def test_show_prints_a_stored_hand_in_the_native_format(
    capsys: pytest.CaptureFixture[str], examples_dir: Path, db_path: Path
) -> None:
    run(capsys, "ingest", str(examples_dir), "--db", str(db_path))
    code, out, _ = run(capsys, "show", "B25-E14-T05-0077", "--db", str(db_path))
    assert code == 0
    original = parse_hand(next(t for t in doc_examples() if "B25-E14-T05-0077" in t))
    assert parse_hand(out) == replace(original, rules_profile=DEFAULT_PROFILE)
    assert out == write_hand(replace(original, rules_profile=DEFAULT_PROFILE))
    code, _, err = run(capsys, "show", "nope", "--db", str(db_path))
    assert code == 2 and "no hand 'nope'" in err  # a usage error naming what exists



def test_bad_paths_give_a_message_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, db_path: Path
) -> None:
    (tmp_path / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    code, out, err = run(capsys, "ingest", str(tmp_path / "missing.bhh"), str(tmp_path / "picture.png"),
                         "--db", str(db_path))
    assert code == 3
    assert "no such file or folder" in out and "binary file, not text" in out
    assert "Traceback" not in out + err
    not_a_db = tmp_path / "not.duckdb"
    not_a_db.write_text("hello")
    code, _, err = run(capsys, "ingest", str(tmp_path / "picture.png"), "--db", str(not_a_db))
    assert code == 3 and "barge:" in err and "Traceback" not in err


def test_help_is_available_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ([], ["ingest"], ["rejects"], ["show"], ["variants"]):
        with pytest.raises(SystemExit) as stop:
            main([*command, "--help"])
        assert stop.value.code == 0
        assert "usage: barge" in capsys.readouterr().out


SAMPLE_FILES = sample_files()


@pytest.mark.skipif(not SAMPLE_FILES, reason="no sample histories")
def test_samples_ingest_with_every_variant_and_no_rejects(
    capsys: pytest.CaptureFixture[str], db_path: Path
) -> None:
    code, out, _ = run(capsys, "ingest", *map(str, SAMPLE_FILES), "--db", str(db_path), "--json")
    summary = json.loads(out)
    blocks = sum(len(list(read_blocks(f))) for f in SAMPLE_FILES)
    assert code == 0
    assert (summary["hands"], summary["rejects"], summary["duplicates"]) == (blocks, 0, 0)
    assert {"texas_holdem", "omaha_hi_lo", "stud", "razz", "deuce_to_seven_triple_draw", "badugi",
            "chowaha"} <= set(summary["by_variant"])
    mismatched = query(db_path, "SELECT hand_id, player FROM seats WHERE final_stack IS NOT NULL "
                                "AND final_stack <> ending_stack")
    assert mismatched == []


@pytest.mark.skipif(not SAMPLE_FILES, reason="no sample histories")
def test_a_copy_of_a_sample_file_with_one_hand_damaged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, db_path: Path
) -> None:
    source = SAMPLES / "stud.bhh"
    blocks = list(read_blocks(source))
    victim = blocks[2]
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    target = victim.line + 8  # a seat line inside the third hand
    lines[target - 1] = lines[target - 1].replace(" in chips)", " chips)")
    copy = tmp_path / "stud-damaged.bhh"
    copy.write_text("".join(lines), encoding="utf-8")
    code, out, _ = run(capsys, "ingest", str(copy), "--db", str(db_path), "--json")
    assert code == 0 and json.loads(out)["rejects"] == 1
    [(line, raw)] = query(db_path, "SELECT line, raw_text FROM rejects")
    assert line == target and str(raw).startswith(victim.text.splitlines()[0])
    stored = {r[0] for r in query(db_path, "SELECT hand_id FROM hands")}
    assert stored == {parse_hand(b.text).hand_id for i, b in enumerate(blocks) if i != 2}
