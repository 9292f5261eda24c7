"""Incident reports (`barge report`): every finding of the audit samples with its hand drawn, the
rule's words and its review, as self-contained HTML and as a PDF checked page by page."""

from __future__ import annotations

import html
import re
from pathlib import Path

import duckdb
import pytest

from evaluator.rulebook import rule_text
from pipeline.cli import main
from tests.conftest import SAMPLES

AUDIT = SAMPLES / "audit"


def _flat(text: str) -> str:
    """Text without its layout: no white space, and a hyphen where a line was broken at one
    (PDFium marks those U+FFFE)."""
    return re.sub(r"\s+", "", text.replace("\ufffe", "-"))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "r.duckdb"
    assert main(["ingest", str(AUDIT), "--db", str(path), "--jobs", "1", "--json"]) == 0
    assert main(["review", "AUDIT-WRONG_ODD_CHIP", "WRONG_ODD_CHIP", "--status", "overturned", "--note",
                 "house chip rule <high hand>", "--by", "Pat Floor", "--db", str(path)]) == 0
    return path


def _findings(db: Path) -> list[tuple[str, str, str]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT hand_id, code, rule FROM findings").fetchall()
    finally:
        con.close()


def test_the_html_report_holds_every_finding_its_hand_its_rule_and_its_review(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    assert main(["report", "--format", "html", str(out), "--db", str(db)]) == 0
    page = out.read_text(encoding="utf-8")
    findings = _findings(db)
    assert f"wrote {len(findings)} findings" in capsys.readouterr().out
    for hand_id, code, rule in findings:
        assert f">{code}</span>" in page and html.escape(hand_id) in page
        words = rule_text(code, rule)
        if words is not None:  # a room's own rule has no text in the books
            assert html.escape(words, quote=True) in page
    hands = {h for h, _, _ in findings}
    assert page.count("<svg") >= len(hands)  # each hand drawn at least once, inline
    assert "Pat Floor" in page and "house chip rule &lt;high hand&gt;" in page  # escaped, not markup
    assert not re.search(r"""(src|href)=["']?(https?:|/|file:)""", page)  # nothing fetched: one file


def test_a_status_filter_keeps_the_findings_with_that_decision(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "overturned.html"
    assert main(["report", "--format", "html", "--status", "overturned", str(out), "--db", str(db)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "1 finding ·" in page and ">WRONG_ODD_CHIP</span>" in page and ">DUPLICATE_CARD</span>" not in page


def test_dates_select_the_hands_played_between_them(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "later.html"
    assert main(["report", "--format", "html", "--from", "2030-01-01", str(out), "--db", str(db)]) == 0
    assert "No findings match." in out.read_text(encoding="utf-8")
    assert main(["report", "--format", "html", "--from", "2025-07-12", "--to", "2025-07-12", str(out),
                 "--db", str(db)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "No findings match." not in page and "2025-07-12" in page


def test_an_unwritable_report_is_an_error_not_a_traceback(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = tmp_path / "no" / "such" / "r.html"
    assert main(["report", "--format", "html", str(nowhere), "--db", str(db)]) == 3
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err


def test_an_unknown_event_or_table_is_a_usage_error_naming_those_stored(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--format", "html", "--event", "no such event", str(tmp_path / "x.html"),
                 "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "no event 'no such event'" in err and "BARGE 2025 Event #" in err
    assert not (tmp_path / "x.html").exists()


def test_the_pdf_report_prints_every_finding_with_its_rule_text(db: Path, tmp_path: Path) -> None:
    pdfium = pytest.importorskip("pypdfium2")
    out = tmp_path / "report.pdf"
    assert main(["report", "--format", "pdf", str(out), "--db", str(db)]) == 0
    pdf = pdfium.PdfDocument(str(out))
    try:
        pages = len(pdf)
        text = "".join(pdf[i].get_textpage().get_text_range() for i in range(pages))
        first = pdf[0].render(scale=0.5).to_pil().convert("L")
    finally:
        pdf.close()
    findings = _findings(db)
    assert 1 < pages < 3 * len(findings)  # laid out, not a page per picture
    flat = _flat(text)
    for _, code, rule in findings:
        assert code in text
        words = rule_text(code, rule)
        # Every paragraph of the rule's words, by its opening (which fits on the paragraph's first
        # line): a page's text comes in drawing order, so a paragraph that runs on to the next page
        # may be read after that page's pictures.
        for paragraph in (words or "").split("\n\n"):
            assert _flat(paragraph)[:40] in flat, (code, rule, paragraph)
    assert "Pat Floor" in text
    # The first page carries a drawing: many shades, not a page of text on white.
    assert len(first.getcolors(maxcolors=1 << 24) or []) > 40
