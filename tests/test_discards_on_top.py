"""Discards placed back on top of the deck (a street's `discards_to = "top"`, docs/games.md):
Thermonuclear Pineapple II (home game #1056) rule 3, "The discards are shuffled and placed on top
of the deck". The replay takes a discard dealt again as no DUPLICATE_CARD, and flags
DISCARDS_NOT_ON_TOP (citing the game's rule) when a card comes from under discards still on top;
the loader's check; the generator deals the discards next; the game's samples."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES, DISCARDS_ON_TOP
from evaluator.profiles import resolve
from evaluator.replay import Replay, replay
from pipeline.model import Hand
from tests import home_samples as home
from tests.home_samples import loaded_home_games  # noqa: F401 (the fixture, used by pytestmark)

pytestmark = pytest.mark.usefixtures("loaded_home_games")

GAME = "thermonuclear_pineapple_ii"
HEAD = 'id = "house_test"\nname = "Test"\nrule = "test"\nextends = "texas_holdem"\n'


def with_flop(hand: Hand, flop: tuple[str, ...]) -> Hand:
    actions = tuple(replace(a, cards=flop) if a.kind == "board" and a.street == "flop" else a
                    for a in hand.actions)
    return replace(hand, actions=actions)


def codes(hand: Hand) -> dict[str, str]:
    return {f.code.name: f.message for f in replay(hand)}


def test_the_first_street_puts_its_discards_on_top() -> None:
    streets = ALL_GAMES[GAME].streets
    assert [s.discards_to for s in streets] == [DISCARDS_ON_TOP, None, None, None]
    assert [s.discard for s in streets] == [(1, 1), (1, 1), (1, 1), None]


def test_the_discards_are_the_flop_in_any_order() -> None:
    """Rules 3, 4: the flop is the three discards, shuffled; dealt again, none is a duplicate."""
    hand = home.sample_hands(GAME)[0]
    for flop in (("3c", "5s", "2s"), ("2s", "3c", "5s")):
        assert replay(with_flop(hand, flop)) == []


def test_a_card_from_under_the_discards_is_flagged_with_the_rule() -> None:
    hand = home.sample_hands(GAME)[0]
    findings = [f for f in replay(with_flop(hand, ("3c", "5s", "9d")))]
    assert [f.code.name for f in findings] == ["DISCARDS_NOT_ON_TOP"]
    assert findings[0].rule == ALL_GAMES[GAME].rule
    assert "9d dealt to board 1 while 2s" in findings[0].message


def test_two_discards_and_a_card_of_the_deck() -> None:
    """Rule 3 with two players left: both discards are in the flop, the third card is the deck's;
    the flop without one of them is flagged."""
    hand = home.sample_hands(GAME)[1]
    assert replay(hand) == []
    assert "DISCARDS_NOT_ON_TOP" in codes(with_flop(hand, ("2h", "Ks", "Qd")))


def test_a_later_street_deals_discards_left_on_top() -> None:
    """More discards than the flop: the turn is the fourth discard (checked directly on the state)."""
    hand = home.sample_hands(GAME)[0]
    engine = Replay(hand, ALL_GAMES[GAME], resolve(hand.rules_profile, hand.rules_options))
    engine.top, engine.top_left, engine.top_street = {"Ad", "Kd"}, 2, "hole_cards"
    engine.from_top(("Ad",), "board:1")
    assert engine.top_left == 1 and not engine.findings
    engine.from_top(("7s",), "board:1")
    assert [f.code.name for f in engine.findings] == ["DISCARDS_NOT_ON_TOP"]


def test_discards_to_needs_a_discard(tmp_path: Path) -> None:
    body = '[[street]]\nname = "flop"\ndiscards_to = "top"\n'
    home.assert_located(tmp_path, "house_test", HEAD + body, 7, "street[1].discards_to",
                        "flop needs `discard = [fewest, most]`")
    body = '[[street]]\nname = "flop"\ndiscard = [1, 1]\ndiscards_to = "bottom"\n'
    home.assert_located(tmp_path, "house_test", HEAD + body, 8, "street[1].discards_to",
                        "expected one of top")


def test_samples_replay_and_a_moved_pot_is_misread() -> None:
    for hand in home.sample_hands(GAME):
        assert replay(hand) == []
        winners = {a.player for a in hand.awards}
        live = [s.player for s in hand.seats if s.player not in winners and not any(
            a.kind == "fold" and a.player == s.player for a in hand.actions)]
        moved = replace(hand, awards=tuple(replace(a, player=live[0]) for a in hand.awards))
        assert "MISREAD_HAND" in codes(moved)


def test_generated_hands_deal_the_discards_next(tmp_path: Path) -> None:
    hands, findings = home.generated_findings(GAME, tmp_path)
    assert findings == []
    flops = 0
    for hand in hands:
        thrown = [c for a in hand.actions if a.kind == "discard" and a.street == "hole_cards"
                  for c in a.cards]
        flop = next((a.cards for a in hand.actions if a.kind == "board" and a.street == "flop"), None)
        if flop is not None:
            flops += 1
            assert set(thrown[:3]) <= set(flop) or set(flop) <= set(thrown)
    assert flops > 5
