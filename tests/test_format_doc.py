"""docs/format.md is the specification: every example in it must read, and read back."""

from __future__ import annotations

import pytest

from grammar.barge_parser import parse_hand
from pipeline.accounting import recorded_ending_stacks
from pipeline.model import ACTION_KINDS
from pipeline.writer import write_hand
from tests.conftest import doc_examples

EXAMPLES = doc_examples()


def test_the_spec_has_an_example_for_each_feature() -> None:
    # Boards, dice, choice, joker, split, bomb pot, run-outs, draws, stud, split pots, side pots.
    text = "\n".join(EXAMPLES)
    for needle in ("deals board top", "removes board", "deals board 3", "rolls 5", "chooses",
                   "[Jk]", "splits", "bomb pot", "runs it twice", "and draws", "up [",
                   "side pot 1", "(low)", "is sitting out", "posts straddle", "big blind ante",
                   "brings in for", "completes to", "Rules:", "Level:", "Tournament:", "ends with"):
        assert needle in text, needle


@pytest.mark.parametrize("text", EXAMPLES, ids=lambda t: t.split(":")[0].split("#")[1])
def test_example_round_trips(text: str) -> None:
    hand = parse_hand(text)
    assert parse_hand(write_hand(hand)) == hand


@pytest.mark.parametrize("text", EXAMPLES, ids=lambda t: t.split(":")[0].split("#")[1])
def test_example_chips_add_up(text: str) -> None:
    hand = parse_hand(text)
    recorded = recorded_ending_stacks(hand)
    for final in hand.final_stacks:
        assert recorded[final.player] == final.amount, final.player
    # A guts game's deal: what came in from the deal before and went out to the next (docs/format.md).
    came = sum(a.amount or 0 for a in hand.actions if a.kind == "carry_in")
    carried = sum(a.amount or 0 for a in hand.actions if a.kind == "carry_out")
    burned = sum(a.amount or 0 for a in hand.actions if a.kind == "burn")
    assert sum(s.stack for s in hand.seats) + came == sum(recorded.values()) + carried + burned
    if hand.total_pot is not None:
        assert sum(a.amount for a in hand.awards) + carried == hand.total_pot


def test_examples_use_only_the_documented_vocabulary() -> None:
    kinds = {a.kind for text in EXAMPLES for a in parse_hand(text).actions}
    assert kinds <= ACTION_KINDS
