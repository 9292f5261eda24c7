"""The rulebook in the product: the shipped sections, the citations of every finding code and the
sentences quoted for them (evaluator/rulebook.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluator.findings import CODES, cite
from evaluator.rulebook import (
    DATA,
    GAME_PARTS,
    PROCEDURES,
    QUOTES,
    build,
    dump,
    quote_for,
    rule_for,
    rule_text,
    rules,
)
from evaluator.variants import ALL_VARIANTS, VARIANTS
from pipeline.store import Store
from tests.conftest import SHARED

RULES_DIR = SHARED / "rules"


def test_the_packaged_sections_are_a_fresh_parse_of_the_rulebooks() -> None:
    if not (RULES_DIR / "barge-rulebook-2025.txt").exists():
        pytest.skip(f"the rulebooks are not at {RULES_DIR}")
    assert DATA.read_text(encoding="utf-8") == dump(build(RULES_DIR))


def test_every_section_of_both_editions_is_shipped() -> None:
    # BARGE 2025: 14 common rules, 55 variants, appendices A-D; 2021: 12, 14 + 34, appendices A-B.
    for edition, chapters, appendices in (("BARGE 2025", {1: 14, 2: 55}, "ABCD"),
                                          ("BARGE 2021", {1: 12, 2: 14, 3: 34}, "AB")):
        sections = {r.section for r in rules() if r.edition == edition}
        for chapter, count in chapters.items():
            assert {f"{chapter}.{n}" for n in range(1, count + 1)} <= sections
        assert {f"Appendix {a}" for a in appendices} <= sections
        assert all(r.text for r in rules() if r.edition == edition)


def test_a_section_holds_its_whole_text_and_nothing_of_the_next() -> None:
    odd_chips = rule_for("BARGE 2025 §1.4")
    assert odd_chips is not None and odd_chips.title == "Ties & Odd Chips"
    assert odd_chips.text.startswith("When the situation arises where a pot needs to be split")
    assert odd_chips.text.endswith("“randomness may be applied to special situations”.")
    assert "Big Blind Ante" not in odd_chips.text
    sevens = rule_for("BARGE 2025 Appendix B")
    assert sevens is not None and sevens.title == "The “Sevens Rule”"
    assert "Colophon" not in (rule_for("BARGE 2025 Appendix D") or sevens).text


def test_the_procedures_are_parsed_without_the_news() -> None:
    procedures = [r for r in rules() if r.edition == PROCEDURES]
    titles = {r.title for r in procedures}
    assert {"Poker Tournament Rules", "Rules of Lowball", "Rules of Seven Card Stud",
            "Other Texas Hold\u2019em Poker Rules", "Rules for Using Blinds"} <= titles
    text = " ".join(r.text for r in procedures)
    assert "Mirage" not in text and "Negreanu" not in text and "High Roller" not in text


def test_every_variant_section_is_a_shipped_rule() -> None:
    for variant in ALL_VARIANTS.values():
        rule = rule_for(variant.rule)
        assert rule is not None, variant.rule
        assert rule.section == variant.section
    assert rule_for(VARIANTS["texas_holdem"].rule).title == "Texas Hold'em"  # type: ignore[union-attr]


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_names_a_shipped_rule_and_shows_its_text(code: str) -> None:
    # Each finding code's citation (its own section, else a game's) is a section whose text
    # a listing can show beside the finding.
    citation = CODES[code].rule or VARIANTS["texas_holdem"].rule
    if not citation.startswith(("BARGE", PROCEDURES)):
        pytest.skip(f"{code} cites {citation!r}, a room's own rule that no shipped book holds")
    assert rule_for(citation) is not None, citation
    assert rule_text(code, citation)


@pytest.mark.parametrize(("code", "section"), sorted(QUOTES))
def test_every_quote_is_the_books_own_words(code: str, section: str) -> None:
    citation = section if section.startswith(PROCEDURES) else cite(section)
    rule = rule_for(citation)
    assert rule is not None and QUOTES[code, section] in rule.text
    assert quote_for(code, citation) == QUOTES[code, section]


def test_a_misdeal_cites_the_card_room_procedure() -> None:
    # Cardroom procedures, Rules of Lowball: the list of misdeals of every button game.
    assert CODES["WRONG_DEAL"].rule == "Cardroom procedures, Rules of Lowball"
    quote = quote_for("WRONG_DEAL", "Cardroom procedures, Rules of Lowball")
    assert quote is not None and quote.startswith("These rules governing misdeals")
    assert "dealt faceup or exposed through dealer error." in quote  # a card dealt up for down
    assert quote.endswith("An incorrect number of cards has been dealt to a player, except the button "
                          "can receive one more card to complete a starting hand.")


def test_a_game_code_quotes_the_part_of_the_game_it_applies() -> None:
    # BARGE 2025 §2.51: a misread hand is judged by "Evaluating the Showdown".
    quote = quote_for("MISREAD_HAND", "BARGE 2025 §2.51")
    assert quote is not None and quote.startswith("The best high five-card hand wins the pot.")
    assert "Notes" not in quote and "Dealing Procedure" not in quote
    blinds = quote_for("WRONG_BLIND", "BARGE 2025 §2.51")
    assert blinds == "The game is played with a button and blinds."
    # A room's game is not dealt as the section it extends: the whole section, no part of it.
    assert quote_for("UNEXPECTED_STREET", "BARGE 2025 §2.23, as extended by PokerStars") is None
    assert set(GAME_PARTS) <= set(CODES)


def test_a_quote_needs_the_words_in_the_cited_edition() -> None:
    # §1.2 of 2021 words the minimum raise otherwise: the whole section is shown, not a quote
    # the section does not hold.
    rule_2021 = rule_for("BARGE 2021 §1.2")
    assert rule_2021 is not None
    quote = quote_for("RAISE_BELOW_MINIMUM", "BARGE 2021 §1.2")
    assert quote is None or quote in rule_2021.text
    assert rule_for("BARGE 2025 §9.99") is None and quote_for("WRONG_BLIND", "nonsense") is None


def test_the_store_holds_the_rules_so_sql_joins_findings_to_their_text(tmp_path: Path) -> None:
    count = "SELECT count(*) FROM rules"
    with Store(tmp_path / "r.duckdb") as store:
        assert store.con.execute(count).fetchone() == (len(rules()),)
        row = store.con.execute("SELECT title, text FROM rules WHERE citation = ?",
                                [CODES["WRONG_DEAL"].rule]).fetchone()
    assert row is not None and row[0] == "Rules of Lowball" and "misdeal" in row[1]
    with Store(tmp_path / "r.duckdb") as store:  # opened again: filled once, not twice
        assert store.con.execute(count).fetchone() == (len(rules()),)
