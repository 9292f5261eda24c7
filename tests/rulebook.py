"""Building short hands for rule tests: a header, seats and the lines that matter.

The hands stop where the rule under test has been exercised, so findings about the unfinished
rest of the hand (nothing awarded, a round left open) are left out by `rule_codes`.
"""

from __future__ import annotations

from evaluator.replay import replay
from grammar.barge_parser import parse_hand

UNFINISHED = frozenset({"AWARDS_MISMATCH", "UNCALLED_BET_WRONG", "BETTING_ROUND_INCOMPLETE", "WRONG_BOARD"})


def hand_text(header: str, seats: list[tuple[str, int]], lines: list[str], rules: str = "barge-2025",
              button: int | None = 1, tournament: bool = True) -> str:
    table = "Table '1' 9-max" + (f" Seat #{button} is the button" if button else "")
    head = [f"BARGE Hand #T-1: {header}", f"Rules: {rules}"]
    if tournament:
        head.append("Tournament: 1")
    head.append(table)
    seat_lines = [f"Seat {i}: {name} ({stack} in chips)" for i, (name, stack) in enumerate(seats, start=1)]
    return "\n".join(head + seat_lines + lines) + "\n"


def rule_codes(text: str, profile: str | None = None) -> list[str]:
    """The codes of the findings about the recorded part of the hand, in order."""
    return [f.code.name for f in replay(parse_hand(text), profile) if f.code.name not in UNFINISHED]
