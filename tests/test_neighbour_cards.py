"""A neighbour's down cards in a hand (a game's `neighbour = "right"`, docs/games.md): Tex Mex
Hold'em (home game #301) rule 10, "Your final hand may use your down cards and the down cards of
the player to your right"; a folded neighbour's cards are dead (the reading where the text is
silent), a neighbour who mucks at the showdown still plays them; the loader's check; the game's
samples and generated hands."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES, NEIGHBOUR_RIGHT
from evaluator.codes import parse
from evaluator.replay import replay
from evaluator.settle import Seat, Table, settle
from tests import home_samples as home
from tests.home_samples import loaded_home_games  # noqa: F401 (the fixture, used by pytestmark)

pytestmark = pytest.mark.usefixtures("loaded_home_games")

GAME = "tex_mex_holdem"
BOARD = {"1": tuple(parse("Ks9d4c2h7s"))}


def table(*seats: Seat) -> Table:
    return Table(GAME, seats, 1, BOARD, button=1)


def winners(t: Table) -> list[str]:
    return sorted({s.player for s in settle(t, recorded=False).shares if s.amount})


def test_the_game_reads_its_neighbour() -> None:
    assert ALL_GAMES[GAME].neighbour == NEIGHBOUR_RIGHT and ALL_GAMES["texas_holdem"].neighbour is None


def test_the_player_to_the_right_is_the_next_lower_seat() -> None:
    """Seat 1's right is the highest seat dealt in: Ann (seat 1) plays Cy's Kings (seat 5)."""
    ann = Seat("Ann", 1, 100, cards=tuple(parse("Kc8c")))
    bob = Seat("Bob", 3, 100, cards=tuple(parse("9s9c")))
    cy = Seat("Cy", 5, 100, cards=tuple(parse("KdKh")))
    assert winners(table(ann, bob, cy)) == ["Ann"]  # four Kings
    assert winners(table(replace(ann, seat=4), bob, cy)) == ["Cy"]  # Ann's right is Bob: Cy's Kings full


def test_a_folded_neighbour_is_dead_and_a_mucked_one_is_not() -> None:
    ann = Seat("Ann", 1, 100, cards=tuple(parse("Kc8c")))
    bob = Seat("Bob", 3, 100, cards=tuple(parse("9s9c")))
    cy = Seat("Cy", 5, 0, contending=False, cards=tuple(parse("KdKh")))
    assert winners(table(ann, bob, cy)) == ["Bob"]  # Cy folded: Ann's pair of Kings, Bob's Nines full
    mucked = replace(cy, live=100, mucked=True)
    assert winners(table(ann, bob, mucked)) == ["Ann"]


def test_an_unseen_neighbour_leaves_the_pot_unchecked() -> None:
    ann = Seat("Ann", 1, 100, cards=tuple(parse("Kc8c")))
    cy = Seat("Cy", 5, 100, cards=("??", "??"))
    settled = settle(table(ann, Seat("Bob", 3, 100, cards=tuple(parse("9s9c"))), cy), recorded=True)
    assert settled.unchecked is not None


def test_a_wrong_neighbour_is_located(tmp_path: Path) -> None:
    text = 'id = "house_test"\nname = "Test"\nrule = "test"\nextends = "texas_holdem"\nneighbour = "left"\n'
    home.assert_located(tmp_path, "house_test", text, 5, "neighbour", "expected one of right")


def test_samples_replay_and_a_moved_pot_is_misread() -> None:
    hands = home.sample_hands(GAME)
    assert len(hands) == 3
    for hand in hands:
        assert replay(hand) == []
        folded = {a.player for a in hand.actions if a.kind == "fold"}
        winners = {a.player for a in hand.awards}
        loser = next((s.player for s in hand.seats if s.player not in winners | folded), None)
        if loser is None:  # the second hand: the two players still in split
            continue
        moved = replace(hand, awards=tuple(replace(a, player=loser) for a in hand.awards))
        assert "MISREAD_HAND" in {f.code.name for f in replay(moved)}


def test_generated_hands_replay_clean(tmp_path: Path) -> None:
    home.assert_generated_clean(GAME, tmp_path)
