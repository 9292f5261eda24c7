"""Guts games (docs/games.md `[guts]`, evaluator/guts.py): the loader's checks, the lines of a
deal's money across deals read and written, the replay's WRONG_DECLARATION, WRONG_BURN,
WRONG_CARRY and WRONG_LEG citing the game's rule, the accounting of a burn, the checks across a
table's consecutive deals, and generated deals that follow each other with no findings."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from dashboard.stepping import steps
from dashboard.table_svg import render
from evaluator.catalog import ALL_GAMES
from evaluator.game_files import GameDefinitionError, load
from evaluator.replay import replay, replay_hand
from evaluator.sequences import TableHand, check, guts_deals
from grammar.barge_parser import parse_hand
from pipeline.accounting import recorded_ending_stacks
from pipeline.cli import main
from pipeline.generate.world import SESSION, TABLES_PER_VARIANT
from pipeline.model import Action, Award, Hand
from pipeline.writer import write_hand
from tests.home_samples import (
    HOME,
    assert_samples_clean,
    generated_findings,
    home_games,
    sample_hands,
)

GUTS = ("piranha", "omaha_burns", "progressive_omaha_burns", "evolution")


@pytest.fixture(autouse=True)
def _home_games() -> Iterator[None]:
    with home_games():
        yield


def _codes(hand: Hand) -> dict[str, str]:
    """Each code found, with its findings' messages and rules (joined by "; ")."""
    found: dict[str, list[str]] = defaultdict(list)
    for f in replay(hand):
        found[f.code.name].append(f"{f.message} ({f.rule})")
    return {code: "; ".join(messages) for code, messages in found.items()}


def _changed(hand: Hand, old: Action, new: Action | None) -> Hand:
    actions = tuple(a for a in (new if a is old else a for a in hand.actions) if a is not None)
    return replace(hand, actions=actions)


def _line(hand: Hand, kind: str, player: str | None = None) -> Action:
    return next(a for a in hand.actions if a.kind == kind and (player is None or a.player == player))


@pytest.mark.parametrize("game", GUTS)
def test_the_samples_agree_with_the_rules_and_read_back(game: str) -> None:
    for hand in assert_samples_clean(game):
        assert parse_hand(write_hand(hand)) == hand  # the new lines are written as they are read


def test_a_burn_of_the_wrong_amount_cites_the_rule() -> None:
    hand = sample_hands("piranha")[0]
    burn = _line(hand, "burn", "Bob")
    found = _codes(_changed(hand, burn, replace(burn, amount=burn.amount // 2)))
    assert found["WRONG_BURN"] == ("Bob pays 150 to the next pot but owes 300: in Piranha each player who "
                                   "went in and lost pays the pot to the next pot (Home game variants #1090 "
                                   "(shared/rules/home-game-variants.md))")


def test_a_missing_burn_and_a_burn_by_a_winner() -> None:
    hand = sample_hands("piranha")[0]
    burn = _line(hand, "burn", "Bob")
    assert "Bob pays 0 to the next pot but owes 300" in _codes(_changed(hand, burn, None))["WRONG_BURN"]
    ann = _changed(hand, burn, replace(burn, player="Ann"))
    assert "Ann pays 300 to the next pot but did not go in and lose" in _codes(ann)["WRONG_BURN"]


def test_a_pot_nobody_went_in_for_is_carried_not_pushed() -> None:
    hand = sample_hands("piranha")[1]
    carry = _line(hand, "carry_out")
    pushed = replace(_changed(hand, carry, None), awards=(Award("Ann", carry.amount or 0),))
    found = _codes(pushed)
    assert "0 carried to the next deal; the rule carries 600 (nobody went in)" in found["WRONG_CARRY"]


def test_declarations_once_each_and_only_in_or_out() -> None:
    hand = sample_hands("piranha")[0]
    cy = _line(hand, "declare", "Cy")
    twice = replace(hand, actions=tuple(a for b in hand.actions for a in ((b, b) if b is cy else (b,))))
    assert "Cy declares out after declaring out" in _codes(twice)["WRONG_DECLARATION"]
    assert "Cy declares 'high'" in _codes(_changed(hand, cy, replace(cy, detail="high")))["WRONG_DECLARATION"]
    missing = _codes(_changed(hand, cy, None))["MISSING_DECLARATION"]
    assert missing.startswith("Cy did not declare on flop") and "(Home game variants #1090" in missing


def test_declarations_one_at_a_time_from_the_dealers_left() -> None:
    """Omaha Burns rule 7: Bob (left of the dealer) declares first, then Cy, then Ann."""
    hand = sample_hands("omaha_burns")[0]
    bob, cy = _line(hand, "declare", "Bob"), _line(hand, "declare", "Cy")
    swapped = replace(hand, actions=tuple(cy if a is bob else bob if a is cy else a for a in hand.actions))
    assert _codes(swapped)["OUT_OF_TURN"].startswith(
        "Cy takes the declaration when it was Bob's turn: each player declares in turn from the first player "
        "to the left of the button (Home game variants #951")
    piranha = sample_hands("piranha")[0]  # simultaneous: any order
    ann, cy = _line(piranha, "declare", "Ann"), _line(piranha, "declare", "Cy")
    assert replay(replace(piranha, actions=tuple(cy if a is ann else ann if a is cy else a
                                                 for a in piranha.actions))) == []


def test_the_declarations_are_the_games_declare_step() -> None:
    """One mechanism: a guts game's in/out is its `[declare]` words on a street's declare step."""
    piranha, burns = ALL_GAMES["piranha"], ALL_GAMES["omaha_burns"]
    assert piranha.declare is not None and piranha.declare.words == ("in", "out")
    assert not piranha.declare.portions  # settled as a guts deal, not among declared portions
    assert [s.name for s in piranha.streets if "declare" in s.steps] == ["flop"]
    assert [s.name for s in burns.streets if "declare" in s.in_turn] == ["turn"]


def test_the_dashboard_shows_each_declaration() -> None:
    hand = sample_hands("piranha")[0]
    states = [s for s in steps(hand, hand.awards) if ": declares " in s.text]
    assert [s.text for s in states] == ["Ann: declares in", "Bob: declares in", "Cy: declares out"]
    last = {s.player: s for s in states[-1].seats}
    assert {name: seat.declared for name, seat in last.items()} == {"Ann": "in", "Bob": "in", "Cy": "out"}
    assert last["Cy"].folded and not last["Ann"].folded  # a player out has dropped
    assert "· in" in render(states[-1])


def test_a_progressive_burn_is_times_the_number_of_pots() -> None:
    """Progressive Omaha Burns rule 11: in pot 2, ten max bets times two; Omaha Burns: ten max bets."""
    hand = sample_hands("progressive_omaha_burns")[1]
    burn = _line(hand, "burn", "Bob")
    short = _changed(hand, burn, replace(burn, amount=200000))
    assert "Bob pays 2,000 to the next pot but owes 4,000" in _codes(short)["WRONG_BURN"]
    assert "10 times the max bet times the number of pots" in _codes(short)["WRONG_BURN"]


def test_a_leg_to_the_high_hand_and_one_more_than_those_held() -> None:
    """Evolution rules 5, 7: the high hand among those in gets the leg; the third wins the pot."""
    hands = sample_hands("evolution")
    leg = _line(hands[0], "leg", "Ann")
    assert "a leg to Bob; the high hand among those in is Ann's" in \
        _codes(_changed(hands[0], leg, replace(leg, player="Bob")))["WRONG_LEG"]
    table = [TableHand(h, "barge", recorded_ending_stacks(h)) for h in hands]
    assert check(table) == []
    third = _line(hands[2], "leg", "Ann")
    early = _changed(hands[1], _line(hands[1], "leg", "Ann"), replace(third, street="flop", detail="3"))
    found = [(f.code.name, f.message) for f in check([table[0], replace(table[1], hand=early)])]
    assert found == [("WRONG_LEG", "Ann gets leg 3 but held 1 in this game after HG-evolution-THome-1: a "
                                   "leg is one more than those held")]


def test_a_leg_in_a_game_without_legs() -> None:
    hand = sample_hands("piranha")[2]
    leg = Action(hand.actions[-1].street, "leg", "Cy", detail="1")
    assert set(_codes(replace(hand, actions=(*hand.actions, leg)))) == {"WRONG_LEG"}


def test_a_burn_leaves_the_stack_and_the_pot_alone() -> None:
    hand = sample_hands("piranha")[0]
    assert recorded_ending_stacks(hand) == {"Ann": 220000, "Bob": 160000, "Cy": 190000}
    assert replay_hand(hand).ending == {"Ann": 220000, "Bob": 160000, "Cy": 190000}
    assert hand.total_pot == 30000  # the burn is the next deal's, not this pot's


def test_consecutive_deals_carry_what_the_deal_before_left() -> None:
    hands = sample_hands("piranha")
    table = [TableHand(h, "barge", recorded_ending_stacks(h)) for h in hands]
    assert check(table) == []
    second = hands[1]
    carry_in = _line(second, "carry_in")
    wrong = replace(table[1], hand=_changed(second, carry_in, replace(carry_in, amount=20000)))
    found = [(f.hand_id, f.code.name, f.message) for f in check([table[0], wrong, table[2]])]
    assert found == [("HG-piranha-THome-2", "WRONG_CARRY", "brings in 200 carried from the last deal, but "
                      "HG-piranha-THome-1 carried out and paid 300 to the next pot: in Piranha the next "
                      "deal's pot is what the deal before carried and its losers paid")]


def test_a_players_net_counts_what_they_paid_to_the_next_pot(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.duckdb")
    assert main(["ingest", "--games", str(HOME), str(HOME / "samples" / "piranha.bhh"), "--db", db]) == 0
    capsys.readouterr()
    assert main(["stats", "--db", db, "--json"]) == 0
    nets = {row["player"]: row["net"] for row in json.loads(capsys.readouterr().out)}
    # Ann +200 -100 -100; Bob -100-300 (his burn) -100 -100; Cy -100 -100 +800: the game's pot was won
    assert nets == {"Ann": 0.0, "Bob": -600.0, "Cy": 600.0}


@pytest.mark.parametrize(("text", "key", "expected"), [
    ('[guts]\nburn = "pot"\n', "guts", 'a guts game declares in or out: [declare] words = ["in", "out"]'),
    ('[guts]\nburn = "double"\n', "guts.burn", "expected one of pot, max_bet"),
    ('[guts]\nburn = "pot"\nodds = 2\n', "guts.odds", "unknown key"),
    ('[[street]]\nname = "flop"\ndeclare = ["in", "out"]\n', "street[1].declare", "unknown key"),
    ('[declare]\nwords = ["in", "out"]\n\n[[street]]\nname = "flop"\nsteps = ["declare"]\n',
     "declare.words[1]", "'in' is a guts game's declaration: the game needs [guts]"),
    ('[declare]\nwords = ["high", "low"]\n\n[guts]\nburn = "pot"\n\n[[street]]\nname = "flop"\n'
     'steps = ["declare"]\n', "declare.words", 'a guts game\'s words are ["in", "out"]'),
])
def test_a_wrong_guts_key_is_located(tmp_path: Path, text: str, key: str, expected: str) -> None:
    (tmp_path / "g.toml").write_text(f'id = "g"\nname = "G"\nrule = "house"\nextends = "omaha"\n\n{text}',
                                     encoding="utf-8")
    with pytest.raises(GameDefinitionError) as error:
        load([tmp_path / "g.toml"], ALL_GAMES, house=True)
    assert error.value.key == key and expected in error.value.expected


@pytest.mark.parametrize("game", GUTS)
def test_generated_deals_follow_each_other_with_no_findings(game: str, tmp_path: Path) -> None:
    hands, findings = generated_findings(game, tmp_path, hands=120)
    assert [(f.hand_id, f.code.name, f.message) for f in findings] == []
    kinds = {a.kind for h in hands for a in h.actions}
    assert {"declare", "burn", "carry_in"} <= kinds
    by_table: dict[str, list[Hand]] = defaultdict(list)
    for hand in hands:
        by_table[hand.table_name or ""].append(hand)
    for t, deals in enumerate(by_table.values()):  # the table's k-th deal follows its (k-1)-th in a session
        for k, (before, after) in enumerate(pairwise(deals), start=1):
            out = sum(a.amount or 0 for a in before.actions if a.kind in ("carry_out", "burn"))
            brought = sum(a.amount or 0 for a in after.actions if a.kind == "carry_in")
            assert brought == (0 if k % SESSION == 0 else out), (before.hand_id, after.hand_id)
        # The checks across deals read them as numbered hands of one table (`-T<table>-<k>`).
        numbered = [TableHand(replace(h, hand_id=f"G-T{t}-{k}", table_name=str(t)), "barge", {})
                    for k, h in enumerate(deals, start=1)]
        assert guts_deals(numbered) == []
    assert len(by_table) == TABLES_PER_VARIANT
