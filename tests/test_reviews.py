"""The review trail: a director's decisions about findings, entered with `barge review`, kept across
re-audits, re-ingests and purges (pipeline/reviews.py, pipeline/store.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from pipeline.cli import main
from pipeline.reviews import ReviewError, add_review, check_target, latest, reviews
from pipeline.store import Store
from tests.conftest import SAMPLES

AUDIT = SAMPLES / "audit"
ODD_CHIP = "AUDIT-WRONG_ODD_CHIP"  # sample_histories/audit/WRONG_ODD_CHIP.bhh: one WRONG_ODD_CHIP (§1.4)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("WRONG_ODD_CHIP.bhh", "BOMB_POT_BETTING.bhh"):
        shutil.copy(AUDIT / name, folder / name)
    path = tmp_path / "r.duckdb"
    assert run(capsys, "ingest", str(folder), "--db", str(path), "--jobs", "1")[0] == 0
    return path


def test_a_review_entered_on_the_command_line_is_the_findings_current_decision(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, out, _ = run(capsys, "review", ODD_CHIP, "WRONG_ODD_CHIP", "--status", "confirmed",
                       "--note", "Cy was owed the odd chip", "--by", "Pat Floor", "--db", str(db))
    assert code == 0 and "confirmed by Pat Floor" in out
    code, out, _ = run(capsys, "review", ODD_CHIP, "--db", str(db), "--json")
    listed = json.loads(out)
    assert code == 0 and [f["status"] for f in listed["findings"]] == ["confirmed"]
    # BARGE 2025 §1.4 is quoted beside the finding it applies to.
    assert listed["findings"][0]["quote"].startswith("3. When two or more hands tie")
    assert [(r["status"], r["by"], r["note"]) for r in listed["reviews"]] == [
        ("confirmed", "Pat Floor", "Cy was owed the odd chip")]


def test_reviews_survive_a_re_audit_a_re_ingest_and_a_purge(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path
) -> None:
    run(capsys, "review", ODD_CHIP, "WRONG_ODD_CHIP", "--status", "confirmed", "--by", "Pat", "--db", str(db))
    assert run(capsys, "audit", "--db", str(db), "--jobs", "1")[0] == 0
    # The same file corrected: §1.4 gives the odd chip to the high hand. Its new version replaces
    # the stored hand (its rows deleted and written again) and the finding is gone.
    corrected = tmp_path / "in" / "WRONG_ODD_CHIP.bhh"
    fixed_text = corrected.read_text(encoding="utf-8")
    for wrong, right in (("Cy collected 400", "Cy collected 425"), ("Bo collected 425", "Bo collected 400"),
                         ("Bo ends with 3,025", "Bo ends with 3,000"),
                         ("Cy ends with 3,000", "Cy ends with 3,025")):
        assert wrong in fixed_text
        fixed_text = fixed_text.replace(wrong, right)
    corrected.write_text(fixed_text, encoding="utf-8")
    code, out, _ = run(capsys, "ingest", str(corrected), "--db", str(db), "--jobs", "1", "--json")
    assert code == 0 and json.loads(out)["audit"]["findings"] == []
    with Store(db) as store:
        gone = store.con.execute("SELECT count(*) FROM findings WHERE hand_id = ?", [ODD_CHIP]).fetchone()
        store.purge_source(1)  # what an interrupted ingest's clean-up deletes
        history = reviews(store.con, [ODD_CHIP])
    assert gone == (0,)
    assert [(r.code, r.status, r.reviewer) for r in history] == [("WRONG_ODD_CHIP", "confirmed", "Pat")]


def test_the_latest_decision_wins_and_the_history_keeps_every_one(db: Path) -> None:
    con = duckdb.connect(str(db))
    try:
        add_review(con, ODD_CHIP, "WRONG_ODD_CHIP", "confirmed", "", "Ann")
        add_review(con, ODD_CHIP, "WRONG_ODD_CHIP", "open", "asked the dealer again", "Bo")
        assert [r.status for r in reviews(con)] == ["confirmed", "open"]
        assert latest(con)[ODD_CHIP, "WRONG_ODD_CHIP", None].reviewer == "Bo"
        with pytest.raises(ReviewError, match="not one of open, confirmed, overturned"):
            add_review(con, ODD_CHIP, "WRONG_ODD_CHIP", "maybe", "", "Ann")
    finally:
        con.close()


@pytest.mark.parametrize(("args", "names"), [
    (["NO-SUCH-HAND", "WRONG_ODD_CHIP"], "no hand 'NO-SUCH-HAND'"),
    ([ODD_CHIP, "MISREAD_HAND"], "its findings: WRONG_ODD_CHIP"),
    ([ODD_CHIP, "WRONG_ODD_CHIP", "--seq", "99"], "no WRONG_ODD_CHIP finding at seq 99"),
])
def test_a_review_of_what_does_not_exist_is_a_usage_error_naming_what_does(
    capsys: pytest.CaptureFixture[str], db: Path, args: list[str], names: str
) -> None:
    code, _, err = run(capsys, "review", *args, "--status", "confirmed", "--by", "Pat", "--db", str(db))
    assert code == 2 and names in err and "Traceback" not in err
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert reviews(con) == []
        check_target(con, ODD_CHIP, "WRONG_ODD_CHIP", None)
    finally:
        con.close()


def test_a_review_needs_a_status_name_and_reviewer(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    assert run(capsys, "review", ODD_CHIP, "WRONG_ODD_CHIP", "--by", "Pat", "--db", str(db))[0] == 2
    code, _, err = run(capsys, "review", ODD_CHIP, "WRONG_ODD_CHIP", "--status", "confirmed", "--db", str(db))
    assert code == 2 and "--by NAME" in err
