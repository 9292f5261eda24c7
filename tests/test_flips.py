"""Required flips (docs/games.md, a street's `flip` and `flip_by`): the loader's checks, the
replay's WRONG_FLIP citing the game's own rule, the generator and the dashboard's stepping, and
the home games built on them (Studaha, Disclosure, Highlander): generated hands with no findings
and their hand-written samples."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from dashboard.stepping import steps
from evaluator.replay import replay
from pipeline.cli import main
from pipeline.model import Action, Hand
from tests.home_samples import (
    HOME,
    assert_generated_clean,
    assert_samples_clean,
    definition_error,
    home_games,
    sample_hands,
)

FLIPS = ("studaha", "disclosure", "highlander")


def _without(hand: Hand, drop: Action) -> Hand:
    return replace(hand, actions=tuple(a for a in hand.actions if a is not drop))


def _flip(hand: Hand, player: str) -> Action:
    return next(a for a in hand.actions if a.kind == "expose" and a.player == player)


def _codes(hand: Hand) -> dict[str, str]:
    return {f.code.name: f"{f.message} ({f.rule})" for f in replay(hand)}


@pytest.fixture(autouse=True)
def _home_games() -> Iterator[None]:
    with home_games():
        yield


def test_a_missing_flip_cites_the_games_rule() -> None:
    hand = sample_hands("studaha")[0]
    found = _codes(_without(hand, _flip(hand, "Cy")))
    assert found == {"WRONG_FLIP": "Cy did not turn up a card on hole cards: in Studaha every player turns "
                                   "up 2 down cards (Home game variants #706 "
                                   "(shared/rules/home-game-variants.md))"}


def test_a_flip_of_the_wrong_number_of_cards() -> None:
    hand = sample_hands("studaha")[0]
    flip = _flip(hand, "Ann")
    one = replace(hand, actions=tuple(replace(a, cards=a.cards[:1]) if a is flip else a
                                      for a in hand.actions))
    assert "Ann turns up 1 card(s)" in _codes(one)["WRONG_FLIP"]


def test_a_flip_by_a_player_who_put_nothing_in() -> None:
    """Disclosure rule 6: the flop was checked round, so nobody turns up a card after it."""
    hand = sample_hands("disclosure")[0]
    extra = Action("flop", "expose", "Bo", cards=("As",))
    at = max(i for i, a in enumerate(hand.actions) if a.street == "flop") + 1
    flipped = replace(hand, actions=(*hand.actions[:at], extra, *hand.actions[at:]))
    assert "Bo turns up As but owes no flip" in _codes(flipped)["WRONG_FLIP"]


def test_a_flip_before_the_betting_it_follows() -> None:
    hand = sample_hands("studaha")[0]
    flip = _flip(hand, "Bo")
    rest = [a for a in hand.actions if a is not flip]
    first_bet = next(i for i, a in enumerate(rest) if a.kind == "call")
    early = replace(hand, actions=(*rest[:first_bet], flip, *rest[first_bet:]))
    assert set(_codes(early)) == {"STEP_OUT_OF_ORDER"}


@pytest.mark.parametrize(("street", "expected"), [
    ('flip_by = "paid"', "flip_by names who flips: the street needs `flip = N`"),
    ('flip = 1\nflip_by = "everyone"', "expected one of live, paid"),
    ("flip = -1", "expected a number of 0 or more"),
])
def test_a_wrong_flip_key_is_located(tmp_path: Path, street: str, expected: str) -> None:
    error = definition_error(tmp_path, "flips", 'id = "flips"\nname = "Flips"\nrule = "house"\n'
                             f'extends = "omaha"\n\n[[street]]\nname = "flop"\n{street}\n')
    assert error.key.startswith("street[1].flip") and expected in error.expected


@pytest.mark.parametrize("game", FLIPS)
def test_generated_hands_flip_and_have_no_findings(game: str, tmp_path: Path) -> None:
    assert_generated_clean(game, tmp_path, "expose")


@pytest.mark.parametrize("game", FLIPS)
def test_the_samples_agree_with_the_rules(game: str) -> None:
    assert_samples_clean(game)


def test_the_dashboard_shows_flipped_cards_face_up() -> None:
    hand = sample_hands("studaha")[0]
    flop = next(s for s in steps(hand, hand.awards) if s.street == "flop")
    up = {s.player: sorted(c.code for c in s.cards if c.up) for s in flop.seats}
    assert up == {"Ann": ["9c", "9d"], "Bo": ["Ad", "As"], "Cy": ["3s", "Jh"]}


def test_ingest_of_every_sample_of_this_branch_finds_nothing(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    games = (*FLIPS, "chowahaha", "cross_over", "southern_cross", "southern_cross_ii")
    files = [str(HOME / "samples" / f"{g}.bhh") for g in games]
    capsys.readouterr()
    assert main(["ingest", "--games", str(HOME), *files, "--db", str(tmp_path / "s.duckdb"), "--json"]) == 0
    audit = json.loads(capsys.readouterr().out)["audit"]
    assert (audit["hands"], audit["findings"]) == (3 * len(games), [])
