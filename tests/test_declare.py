"""Declarations (docs/games.md `[declare]` and a street's `declare` step): the loader's located
errors, the settlement among the declared hands and the readings where the games' text is
silent, the replay's WRONG_DECLARATION and MISSING_DECLARATION citing the game's own rule, the
generator's declarations, a portion's `hole_counts`, and the home games built on them (Double
Board Omaha, Triple Board Omaha, Z, Chowaha Teddy Prime, Twin Beds Roll'em Over, Full Bicester)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from dashboard.stepping import steps
from dashboard.table_svg import render
from evaluator.catalog import add_games
from evaluator.replay import replay, replay_hand
from evaluator.showdown import Portion, best_hands, decide_declared
from pipeline.model import Action, Hand
from tests.home_samples import (
    assert_generated_clean,
    assert_samples_clean,
    definition_error,
    generated_findings,
    home_games,
    sample_hands,
)

DECLARING = ("double_board_omaha", "triple_board_omaha", "z", "chowaha_teddy_prime", "twin_beds_roll_em_over",
             "full_bicester")
RULE_928 = "Home game variants #928 (shared/rules/home-game-variants.md)"


@pytest.fixture(autouse=True)
def _home_games() -> Iterator[None]:
    with home_games():
        yield


def _codes(hand: Hand) -> dict[str, str]:
    return {f.code.name: f"{f.message} ({f.rule})" for f in replay(hand)}


def _declaration(hand: Hand, player: str) -> Action:
    return next(a for a in hand.actions if a.kind == "declare" and a.player == player)


def _hands(*ranks: tuple[int | None, int | None]) -> list[tuple[Portion, ...]]:
    return [(Portion("high", high, (), f"high {high}"), Portion("low", low, (), f"low {low}"))
            for high, low in ranks]


def _decided(words: list[str | None], *ranks: tuple[int | None, int | None],
             plain: list[tuple[Portion, ...]] | None = None) -> list[tuple[str, tuple[int, ...]]]:
    hands = _hands(*ranks)
    awards = decide_declared("z", hands, words, lambda: plain if plain is not None else hands)
    return [(a.portion, a.winners) for a in awards]


# ---- the settlement: the rules' words and the readings of docs/games.md ------------------------

def test_a_both_declarer_who_wins_both_scoops() -> None:
    assert _decided(["both", "high", "low"], (9, 9), (5, 1), (1, 5)) == [("high", (0,)), ("low", (0,))]


def test_a_both_declarer_who_loses_one_portion_wins_nothing() -> None:
    """"Hands declared as both must win both to win anything": the portions go to the others."""
    assert _decided(["both", "high", "low"], (9, 1), (5, 1), (1, 5)) == [("high", (1,)), ("low", (2,))]


def test_a_tie_wins_its_portion_for_a_both_declarer() -> None:
    assert _decided(["both", "low"], (9, 5), (1, 5)) == [("high", (0,)), ("low", (0, 1))]


def test_a_portion_nobody_declared_does_not_exist() -> None:
    assert _decided(["high", "high"], (3, 9), (5, 1)) == [("high", (1,))]


def test_a_portion_no_declared_hand_qualifies_for_does_not_exist() -> None:
    assert _decided(["high", "low"], (3, 9), (5, None)) == [("high", (0,))]


def test_only_the_declared_portion_counts() -> None:
    """The best high hand declared low plays for the low only."""
    assert _decided(["low", "high"], (9, 3), (5, 1)) == [("high", (1,)), ("low", (0,))]


def test_a_hand_not_declared_cannot_win() -> None:
    assert _decided([None, "high"], (9, 9), (1, 1)) == [("high", (1,))]


def test_when_no_declared_hand_can_win_the_cards_speak() -> None:
    """Two declarers of both who each lose a portion: the cards speak among the declared hands."""
    plain = _hands((9, 1), (5, 4))
    assert _decided(["both", "both"], (9, 1), (5, 4), plain=plain) == [("high", (0,)), ("low", (1,))]


def test_a_hand_where_every_declaration_of_both_fails_is_settled_by_the_cards() -> None:
    """Triple Board Omaha's second sample with everyone declaring both: Cy's royal flush loses the
    low, Ann's T-9-5-4-A the high, Bob both; nobody is left, so the cards speak (any flop): Cy's
    royal flush takes the high half and Ann's wheel on the bottom flop the low half."""
    hand = sample_hands("triple_board_omaha")[1]
    everyone = replace(hand, actions=tuple(replace(a, detail="both") if a.kind == "declare" else a
                                           for a in hand.actions))
    pushed = replay_hand(everyone).awards
    assert pushed is not None
    assert {(s.player, s.portion, s.amount) for s in pushed} == {("Cy", "high", 30000), ("Ann", "low", 30000)}


# ---- the replay's checks, citing the game's rule ------------------------------------------------

def test_a_missing_declaration_cites_the_games_rule_and_the_hand_cannot_win() -> None:
    hand = sample_hands("triple_board_omaha")[1]
    found = _codes(replace(hand, actions=tuple(a for a in hand.actions if a is not _declaration(hand, "Cy"))))
    assert found == {"MISSING_DECLARATION": "Cy did not declare on river, so cannot win the pot (a hand not "
                     "declared does not play): in Triple Board Omaha every player still in declares high, "
                     f"low or both at once on river, once ({RULE_928})"}


def test_a_word_the_game_does_not_allow() -> None:
    hand = sample_hands("double_board_omaha")[0]
    bob = _declaration(hand, "Bob")
    both = replace(hand, actions=tuple(replace(a, detail="both") if a is bob else a for a in hand.actions))
    found = _codes(both)
    assert found["WRONG_DECLARATION"].startswith("Bob declares 'both': in Double Board Omaha every player "
                                                 "still in declares high or low at once on river")
    assert "MISSING_DECLARATION" in found  # the word is no declaration: Bob has not declared


def test_a_second_declaration_and_one_by_a_folded_player() -> None:
    hand = sample_hands("triple_board_omaha")[2]
    at = max(i for i, a in enumerate(hand.actions) if a.kind == "declare") + 1
    again = replace(hand, actions=(*hand.actions[:at], Action("river", "declare", "Bob", detail="low"),
                                   *hand.actions[at:]))
    assert set(_codes(again)) == {"WRONG_DECLARATION"}
    assert "Bob declares low after declaring high" in _codes(again)["WRONG_DECLARATION"]
    # the first declaration stands: the pot is pushed as the sample's
    assert replay_hand(again).awards is not None
    checks = next(a for a in hand.actions if (a.street, a.player, a.kind) == ("river", "Ann", "check"))
    kept = [a for a in hand.actions if (a.kind, a.player) != ("show", "Ann")]
    folded = replace(hand, actions=tuple(replace(a, kind="fold") if a is checks else a for a in kept))
    assert set(_codes(folded)) == {"WRONG_DECLARATION"}
    assert "Ann declares high but has folded" in _codes(folded)["WRONG_DECLARATION"]


def test_a_declaration_on_a_street_without_the_step() -> None:
    hand = sample_hands("z")[0]
    decl = _declaration(hand, "Bob")
    rest = [a for a in hand.actions if a is not decl]
    turn = next(i for i, a in enumerate(rest) if a.street == "flip_4")  # Bob declares before the last turn
    early = replace(hand, actions=(*rest[:turn], replace(decl, street="flip_3"), *rest[turn:]))
    assert {"UNEXPECTED_STEP", "MISSING_DECLARATION"} <= set(_codes(early))


# ---- the loader ---------------------------------------------------------------------------------

BASE = 'id = "dec"\nname = "Dec"\nrule = "house"\nextends = "omaha_hi_lo"\n'
RIVER = '\n[[street]]\nname = "river"\nsteps = ["declare"]\n'


@pytest.mark.parametrize(("text", "key", "expected"), [
    (BASE + RIVER, "street[1].steps", "a declare step (street river) needs the game's [declare] table"),
    (BASE + '\n[declare]\nwords = ["high", "low"]\n', "declare", "one street with steps = [\"declare\"]"),
    (BASE + '\n[declare]\nwords = ["high", "middle"]\n' + RIVER, "declare.words[2]", "expected one of high"),
    (BASE + '\n[declare]\nwords = ["high"]\n' + RIVER, "declare.words", "at least two different words"),
    (BASE + '\n[declare]\nwords = ["high", "low"]\ncolour = 1\n' + RIVER, "declare.colour", "unknown key"),
    (BASE + '\n[declare]\nwords = ["high", "low"]\npaths = { both = [["1"]] }\n' + RIVER,
     "declare.paths.both", "expected one of high, low"),
    (BASE + '\n[declare]\nwords = ["high", "low"]\npaths = { high = [["top"]] }\n' + RIVER,
     "declare.paths.high[1][1]", "a board the streets deal"),
    (BASE.replace("omaha_hi_lo", "omaha") + '\n[declare]\nwords = ["high", "low"]\n' + RIVER,
     "declare.words[2]", "a portion of the game's hand (high)"),
])
def test_a_wrong_declare_key_is_located(tmp_path: Path, text: str, key: str, expected: str) -> None:
    error = definition_error(tmp_path, "dec", text)
    assert error.key == key and expected in error.expected and error.line > 1


def test_hole_counts_that_are_not_a_range() -> None:
    """Full Bicester rule 17: five of the six cards, or two and the three common cards, never
    three or four of them."""
    board = {"1": ("Kd", "Ks", "2c")}
    four_kings = best_hands("full_bicester", ("Kc", "Kh", "3d", "4d", "8s", "9s"), board)[0]
    assert four_kings.description.startswith("four of a kind, Kings")  # two and three common cards
    # Queens full would take three of the cards and two common cards: five of the hand is trips
    trips = best_hands("full_bicester", ("Qh", "Qd", "Qs", "8s", "7s", "3c"), board)[0]
    assert trips.description.startswith("three of a kind, Queens")


@pytest.mark.parametrize(("portion", "expected"), [
    ('hole = [2, 2]\nhole_counts = [2, 5]', "hole or hole_counts, not both"),
    ("hole_counts = [2, 6]", "counts of 0 to 5 cards"),
    ('hole_counts = "two"', "a list of card counts"),
])
def test_a_wrong_hole_count_is_located(tmp_path: Path, portion: str, expected: str) -> None:
    error = definition_error(tmp_path, "dec", BASE + 'hand = "portions"\n\n[[portion]]\nname = "high"\n'
                             f'scale = "high"\n{portion}\n')
    assert error.key.startswith("portion[1].hole") and expected in error.expected


# ---- the games ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", DECLARING)
def test_generated_hands_declare_and_have_no_findings(game: str, tmp_path: Path) -> None:
    assert_generated_clean(game, tmp_path, "declare")


def test_generated_hands_scoop_fail_and_split(tmp_path: Path) -> None:
    """The generator declares from the hand, so a declaration of both wins and fails, and high and
    low declarers split."""
    hands, _ = generated_findings("triple_board_omaha", tmp_path, hands=80)
    outcomes = set()
    for hand in hands:
        words = {a.player: a.detail for a in hand.actions if a.kind == "declare"}
        won = {a.player for a in hand.awards if a.amount}
        outcomes |= {"scoop" if p in won else "failed" for p, w in words.items() if w == "both"}
        portions = {a.portion for a in hand.awards if a.amount and a.pot == 0}
        if {"high", "low"} <= portions and len({a.player for a in hand.awards if a.pot == 0}) > 1:
            outcomes.add("split")
    assert outcomes == {"scoop", "failed", "split"}


@pytest.mark.parametrize("game", DECLARING)
def test_the_samples_agree_with_the_rules(game: str) -> None:
    assert_samples_clean(game)


def test_the_dashboard_shows_each_declaration() -> None:
    hand = sample_hands("triple_board_omaha")[0]
    states = [s for s in steps(hand, hand.awards) if ": declares " in s.text]
    assert [s.text for s in states] == ["Bob: declares high", "Cy: declares both", "Ann: declares low"]
    assert {s.player: s.declared for s in states[-1].seats} == {"Ann": "low", "Bob": "high", "Cy": "both"}
    assert "Cy" in render(states[-1]) and "· both" in render(states[-1])


def test_a_push_to_a_hand_that_lost_its_declaration_is_a_wrong_award() -> None:
    """The award check names a wrong push as for any game: Cy's failed declaration of both wins
    nothing, so the pot pushed to him went to the wrong hand (MISREAD_HAND, §1.4)."""
    hand = sample_hands("triple_board_omaha")[1]
    to_cy = replace(hand, awards=tuple(replace(a, player="Cy") for a in hand.awards))
    found = _codes(to_cy)
    assert found["MISREAD_HAND"].startswith("the chips went to the wrong hand")
    assert "Cy holds (declared both) high: royal flush" in found["MISREAD_HAND"]
    assert "Cy nothing" in found["MISREAD_HAND"]


def test_declarations_in_turn_are_checked_in_turn(tmp_path: Path) -> None:
    """`in_turn = ["declare"]`: one at a time from the left of the button (the draws' mechanism)."""
    (tmp_path / "turns.toml").write_text('id = "turns"\nname = "Turns"\nrule = "house"\n'
                                         'extends = "triple_board_omaha"\n\n[[street]]\nname = "river"\n'
                                         'in_turn = ["declare"]\n', encoding="utf-8")
    add_games([tmp_path])
    hand = replace(sample_hands("triple_board_omaha")[0], variant="turns")
    assert replay(hand) == []
    bob, cy = _declaration(hand, "Bob"), _declaration(hand, "Cy")
    swapped = replace(hand, actions=tuple(cy if a is bob else bob if a is cy else a for a in hand.actions))
    assert set(_codes(swapped)) == {"OUT_OF_TURN"}
    assert "each player declares in turn" in _codes(swapped)["OUT_OF_TURN"]
