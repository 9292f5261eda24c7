"""`barge audit` end to end: the samples replay clean, each audit sample gives its finding,
findings are stored, replaced on a new audit, and readable as JSON."""

from __future__ import annotations

import json
import re
from contextlib import nullcontext
from pathlib import Path

import duckdb
import pytest

from evaluator.catalog import GAMES
from evaluator.findings import CODES
from pipeline.cli import main
from tests.conftest import ROOT, SAMPLES, sample_files
from tests.home_samples import HOME, home_games

AUDIT_SAMPLES = SAMPLES / "audit"
# The codes of a mechanism only house games have (a declaration, a fee, a guts burn): their samples
# are hands of a home game, beside its definition (home_games/audit/CODE.bhh), ingested with
# `--games home_games` and citing the game's own rule.
HOME_AUDIT_SAMPLES = HOME / "audit"


def audit_sample(code: str) -> Path:
    home = HOME_AUDIT_SAMPLES / f"{code}.bhh"
    return home if home.exists() else AUDIT_SAMPLES / f"{code}.bhh"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def query(db: Path, sql: str) -> list[tuple[object, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


@pytest.fixture(scope="module")
def samples_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("audit") / "samples.duckdb"
    assert main(["ingest", *map(str, sample_files()), "--db", str(db), "--json"]) == 0
    return db


def test_every_finding_code_has_an_audit_sample() -> None:
    samples = [*AUDIT_SAMPLES.glob("*.bhh"), *HOME_AUDIT_SAMPLES.glob("*.bhh")]
    assert sorted(p.stem for p in samples) == sorted(CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_each_audit_sample_gives_its_finding(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, code: str
) -> None:
    sample = audit_sample(code)
    house = ["--games", str(HOME)] if sample.parent == HOME_AUDIT_SAMPLES else []
    with home_games() if house else nullcontext():  # the catalog as it was, after the test
        report = run_json(capsys, "ingest", str(sample), *house, "--db", str(tmp_path / "a.duckdb"))
    audit = report["audit"]
    assert isinstance(audit, dict)
    assert {f["code"] for f in audit["findings"]} == {code}
    for finding in audit["findings"]:
        cited = (r"BARGE 2025 (§\d|Appendix [A-C])|Cardroom procedures, |the room's cap$"
                 r"|Home game variants #\d+ ")
        assert re.match(cited, finding["rule"])
        assert finding["severity"] == CODES[code].severity
        if finding["rule"].startswith(("BARGE", "Cardroom")):  # the rule's words (tests/test_rulebook.py)
            assert finding["rule_text"]


def test_the_samples_replay_without_errors_or_warnings(samples_db: Path) -> None:
    bad = query(
        samples_db, "SELECT hand_id, code, message FROM findings WHERE severity IN ('error', 'warning')"
    )
    assert bad == []
    assert (
        query(samples_db, "SELECT count(*) FROM audits")[0][0]
        == query(samples_db, "SELECT count(*) FROM hands")[0][0]
    )


def test_every_variant_has_three_sample_hands_and_a_showdown(samples_db: Path) -> None:
    rows = query(
        samples_db,
        """
        SELECT h.variant, count(DISTINCT h.hand_id),
               count(DISTINCT CASE WHEN a.street = 'showdown' THEN h.hand_id END)
        FROM hands h LEFT JOIN actions a USING (hand_id) GROUP BY h.variant""",
    )
    counts = {variant: (hands, showdowns) for variant, hands, showdowns in rows}
    short = {
        v: counts.get(v, (0, 0))
        for v in GAMES
        if counts.get(v, (0, 0))[0] < 3 or counts.get(v, (0, 0))[1] < 1
    }
    assert short == {}


def test_audit_under_the_2021_profile_runs_on_the_same_database(
    capsys: pytest.CaptureFixture[str], samples_db: Path, tmp_path: Path
) -> None:
    db = tmp_path / "copy.duckdb"
    db.write_bytes(samples_db.read_bytes())
    report = run_json(capsys, "audit", "--db", str(db), "--rules", "barge-2021")
    assert report["profile"] == "barge-2021"
    assert report["hands"] == query(db, "SELECT count(*) FROM hands")[0][0]
    assert query(db, "SELECT DISTINCT profile FROM audits") == [("barge-2021",)]


def test_a_new_audit_replaces_the_findings_of_its_hands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "a.duckdb"
    run_json(capsys, "ingest", str(AUDIT_SAMPLES), "--db", str(db))
    home = {p.stem for p in HOME_AUDIT_SAMPLES.glob("*.bhh")}  # the house games' codes: hands of home games
    assert {row[0] for row in query(db, "SELECT DISTINCT code FROM findings")} == set(CODES) - home
    before = query(db, "SELECT count(*) FROM findings")[0][0]
    report = run_json(capsys, "audit", "--db", str(db), "--hand", "AUDIT-STACK_MISMATCH")
    assert report["hands"] == 1
    assert query(db, "SELECT count(*) FROM findings")[0][0] == before


def test_big_blind_ante_example_depends_on_the_profile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The same short big blind is right under one edition and wrong under the other (§1.5).
    text = (AUDIT_SAMPLES / "FLOOR_RULING.bhh").read_text(encoding="utf-8")
    short = text.replace("Seat 8: Di (3,000 in chips)", "Seat 8: Di (300 in chips)")
    short = short.replace("Di: posts big blind 200", "Di: posts big blind 100 and is all-in")
    short = short.replace("Rules: barge-2025; bba_first=blind", "Rules: barge-2025")
    path = tmp_path / "short.bhh"
    path.write_text(short, encoding="utf-8")
    db = str(tmp_path / "b.duckdb")
    run_json(capsys, "ingest", str(path), "--db", db, "--no-audit")
    codes_2025 = {f["code"] for f in run_json(capsys, "audit", "--db", db)["findings"]}  # type: ignore[index, union-attr]
    codes_2021 = {
        f["code"] for f in run_json(capsys, "audit", "--db", db, "--rules", "barge-2021")["findings"]
    }  # type: ignore[index, union-attr]
    assert "WRONG_BLIND" in codes_2025 and "WRONG_BLIND" not in codes_2021


def test_variants_json_lists_all_59_with_their_sections(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["variants", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    rows = [r for r in rows if r["room"] is None]  # the rulebook's; the rooms' own follow them
    assert len(rows) == 59 == len({r["id"] for r in rows})
    assert all(r["rule"] == f"BARGE 2025 §{r['section']}" for r in rows)
    chowaha = next(r for r in rows if r["id"] == "chowaha")
    assert (chowaha["name"], chowaha["section"], chowaha["deck_size"], chowaha["forced"]) == (
        "Chowaha", "2.12", 52, "blinds")
    assert [s["boards"] for s in chowaha["streets"]] == [
        {}, {"top": 3, "middle": 3, "bottom": 3}, {"turn": 2}, {"river": 1}]


def test_audit_without_a_database_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["audit", "--db", str(tmp_path / "none.duckdb")]) == 3
    assert "no database" in capsys.readouterr().err


def test_the_rules_engine_doc_lists_every_code_with_its_severity() -> None:
    doc = (ROOT / "docs" / "rules-engine.md").read_text(encoding="utf-8")
    for code in CODES.values():
        assert f"| `{code.name}` | {code.severity} |" in doc
