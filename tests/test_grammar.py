"""The native grammar: what it reads, what it writes back, and how it reports bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from grammar.barge_parser import EXAMPLE, parse_hand
from grammar.errors import HandSyntaxError
from pipeline.model import ACTION_KINDS, Action
from pipeline.sources import read_blocks
from pipeline.writer import write_hand
from tests.conftest import sample_files

SAMPLE_FILES = sample_files()


def test_samples_cover_the_required_variants() -> None:
    variants = {parse_hand(b.text).variant for f in SAMPLE_FILES for b in read_blocks(f)}
    assert {"texas_holdem", "omaha_hi_lo", "stud", "razz", "deuce_to_seven_triple_draw",
            "badugi", "chowaha"} <= variants


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.name)
def test_every_sample_hand_round_trips(path: Path) -> None:
    blocks = list(read_blocks(path))
    assert len(blocks) >= 3
    for block in blocks:
        hand = parse_hand(block.text)
        assert parse_hand(write_hand(hand)) == hand
        assert {a.kind for a in hand.actions} <= ACTION_KINDS


def test_line_kinds_become_actions() -> None:
    lines = "Bo: discards [7c 2d] and draws [Ah 3s]\nBo: folds [K♠ Qd]"
    hand = parse_hand(EXAMPLE.replace("Bo: folds", lines))
    assert hand.actions[3:5] == (
        Action("hole_cards", "discard", "Bo", cards=("7c", "2d")),
        Action("hole_cards", "draw", "Bo", cards=("Ah", "3s")),
    )
    assert hand.actions[-1] == Action("hole_cards", "return", "Ann", amount=40000)
    assert hand.actions[5] == Action("hole_cards", "fold", "Bo", cards=("Ks", "Qd"))
    assert hand.actions[2] == Action("hole_cards", "raise", "Ann", amount=40000, to_amount=60000)


def test_every_post_reads_and_writes_back() -> None:
    posts = ["small blind 50", "big blind 100", "straddle 200", "dead blind 50", "kill blind 200",
             "the ante 25", "big blind ante 100"]
    lines = "\n".join(f"Bo: posts {p}" for p in posts)
    hand = parse_hand(EXAMPLE.replace("Bo: posts big blind 200", lines))
    details = [a.detail for a in hand.actions if a.player == "Bo" and a.kind in ("post", "ante")]
    assert details == ["small_blind", "big_blind", "straddle", "dead_blind", "kill_blind", "ante",
                       "big_blind_ante"]
    assert parse_hand(write_hand(hand)) == hand


def test_suit_symbols_are_stored_as_letters() -> None:
    hand = parse_hand(EXAMPLE.replace("Bo: folds", "Bo: folds [K♠ Q♦]"))
    assert ("Ks", "Qd") in {a.cards for a in hand.actions}


def test_forced_bets_before_the_first_marker_belong_to_the_first_street() -> None:
    hand = parse_hand(EXAMPLE)
    assert {a.street for a in hand.actions} == {"hole_cards"}


@pytest.mark.parametrize("when", ["2025-07-10 14:03", "0225-08-07 09:05:01"])
def test_dates_round_trip(when: str) -> None:
    # Found by fuzzing: a year below 1000 was written without its leading zeros.
    hand = parse_hand(EXAMPLE.replace("(blinds 100/200)", f"(blinds 100/200) - {when}"))
    assert hand.started_at is not None and hand.started_at.isoformat(sep=" ").startswith(when)
    assert parse_hand(write_hand(hand)) == hand


def test_a_button_without_a_table_name_round_trips() -> None:
    # The writer used to drop the button of a hand with no table name (the recorder's finding).
    hand = parse_hand(EXAMPLE.replace("Seat 1: Ann", "Seat #2 is the button\nSeat 1: Ann", 1))
    assert (hand.table_name, hand.button_seat) == (None, 2)
    assert parse_hand(write_hand(hand)) == hand


def test_decimal_and_thousands_amounts() -> None:
    hand = parse_hand(EXAMPLE.replace("(5,000 in chips)", "(1,234,567.89 in chips)"))
    assert hand.seats[0].stack == 123456789


def _error(text: str) -> HandSyntaxError:
    with pytest.raises(HandSyntaxError) as caught:
        parse_hand(text)
    return caught.value


@pytest.mark.parametrize(
    ("old", "new", "line", "column", "message", "expected"),
    [
        ("Bo: folds", "Bo: flods", 8, 5, "unexpected 'flods'", "'folds'"),
        ("raises 400 to 600", "raises 400 too 600", 7, 19, "unexpected 'too'", "an amount"),
        # Found by fuzzing: where a whole number belongs, an amount raised a ValueError.
        ("from pot", "from side pot 4,050", 10, 34, "unexpected '4,050'", "the end of the line"),
        ("Seat 2: Bo", "Seat 2.5: Bo", 3, 7, "unexpected '2.5:'", "':'"),
        ("*** HOLE CARDS ***", "*** HOLE CARDS", 6, 15, "unexpected end of the line", "'***'"),
        ("(5,000 in chips)", "(5,000 chips)", 2, 20, "unexpected 'chips'", "'in chips'"),
        ("Bo: folds", "Bo: shows [Ah Kx]", 8, 15, "unexpected 'Kx'", "a card such as Ah"),
        ("Ann: raises", "Zed: raises", 7, 1, "'Zed' is not seated", None),
        ("texas_holdem", "texas_holdum", 1, 21, "no game definition for `texas_holdum`", None),
        ("no-limit", "no limit", 1, 34, "unexpected 'no'", "limit, pot-limit or no-limit"),
        ("Bo: folds", "Bo: calls 1.005", 8, 11, "more than two decimals", None),
        ("Bo: folds", "Bo: rolls 7", 8, 11, "a die shows 1 to 6", None),
        ("Seat 2: Bo", "Seat 2: Dealer", 3, 9, "reserved word", None),
        ("Seat 2: Bo (5,000", "Seat 1: Bo (5,000", 3, 9, "appears twice", None),
        ("(blinds 100/200)", "(blinds 100/200)\nRules: barge-1999", 2, 8, "unknown rules profile", None),
    ],
)
def test_errors_name_line_column_and_what_was_expected(
    old: str, new: str, line: int, column: int, message: str, expected: str | None
) -> None:
    assert old in EXAMPLE
    error = _error(EXAMPLE.replace(old, new, 1))
    assert (error.line, error.column) == (line, column)
    assert message in error.message
    if expected is not None:
        assert any(expected in e for e in error.expected), error.expected


def test_a_truncated_hand_says_where_it_ends() -> None:
    error = _error(EXAMPLE.split("Seat 1")[0])
    assert error.message == "the hand ends too early"
    assert error.line == 1
    assert "'Seat'" in error.expected


def test_error_positions_shift_to_the_file() -> None:
    error = _error(EXAMPLE.replace("Bo: folds", "Bo: flods")).shifted(100)
    assert str(error).startswith("line 108, column 5: unexpected 'flods' (expected ")
