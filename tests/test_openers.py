"""Openers (docs/games.md, a street's `open`): what a hand needs to open a round, the loader's
located errors, the replay's FALSE_OPENERS (citing the game's rule) where the opener's cards are
shown and nothing where they are not, the false opener's dead hand (Cardroom procedures, Rules of
Draw High), the procedure that offers the opening bet only to a player with openers, and Dizzy Liz
(home game #733) built on them."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES, Openers
from evaluator.openers import holds
from evaluator.replay import replay, replay_hand
from grammar.barge_parser import parse_hand
from pipeline.model import Hand
from pipeline.sources import read_blocks
from tests.home_samples import (
    HOME,
    assert_samples_agree,
    definition_error,
    generated_findings,
    loaded_home_games,  # noqa: F401 (the fixture, used by pytestmark)
    sample_hands,
)

RULE_733 = "Home game variants #733 (shared/rules/home-game-variants.md)"
JACKS = Openers("pair", "J")


pytestmark = pytest.mark.usefixtures("loaded_home_games")


def _codes(hand: Hand) -> dict[str, str]:
    return {f.code.name: f"{f.message} ({f.rule})" for f in replay(hand)}


def _false_opener() -> Hand:
    """The audit sample: Bo opens with a pair of Tens, shown at the showdown."""
    (block,) = read_blocks(HOME / "audit" / "FALSE_OPENERS.bhh")
    return parse_hand(block.text)


# ---- the hand openers need ----------------------------------------------------------------------

@pytest.mark.parametrize(("cards", "board", "opens"), [
    ("Jc Jd 2h 3s 4c", "", True),  # a pair of Jacks, the least openers
    ("Tc Td 2h 3s 4c", "", False),  # Tens
    ("3c 3d 2h 2s 9c", "", True),  # two small pairs beat a pair
    ("Ac Kd 2h 3s 4c", "", False),  # no pair
    ("Ac Kd 2h 3s 4c", "Ah", True),  # made with the common card turned
    ("Ac Kd 2h 3s 7c", "5d 6h", False),  # A-K high still
    ("Ac Kd 2h 3s 7c", "5d 4h", True),  # a straight with two common cards
])
def test_a_pair_of_jacks_or_better(cards: str, board: str, opens: bool) -> None:
    assert holds(JACKS, cards.split(), board.split()) is opens


def test_unknown_cards_say_nothing() -> None:
    assert holds(JACKS, ["??", "??", "??", "??", "??"]) is None


def test_dizzy_liz_needs_openers_on_every_round() -> None:
    game = ALL_GAMES["dizzy_liz"]
    assert [s.open for s in game.streets] == [JACKS] * 5
    assert game.forced == "antes_button" and {s.first for s in game.streets} == {"left_of_button"}


# ---- the replay --------------------------------------------------------------------------------

def test_false_openers_shown_at_the_showdown_cite_the_games_rule_and_the_hand_is_dead() -> None:
    hand = _false_opener()
    assert _codes(hand) == {"FALSE_OPENERS": "Bo opened the betting without openers (Th Td 8c 5s 2d): in "
                            "Dizzy Liz the opener must hold a pair of Jacks or better; the false opener has "
                            f"a dead hand (Cardroom procedures, Rules of Draw High) ({RULE_733})"}
    # Bo's Tens and Deuces would beat Ann's Sixes for the high half; dead, they win nothing
    to_bo = replace(hand, awards=tuple(replace(a, player="Bo") if a.player == "Ann" else a
                                       for a in hand.awards))
    assert {"FALSE_OPENERS", "WRONG_AWARD"} <= set(_codes(to_bo))  # and the stacks following
    pushed = replay_hand(hand).awards
    assert pushed is not None and {(s.player, s.portion) for s in pushed} == {("Ann", "high"), ("Cy", "low")}


def test_an_opener_dealt_unseen_cards_is_held_to_the_cards_shown_later() -> None:
    text = (HOME / "audit" / "FALSE_OPENERS.bhh").read_text()
    hidden = parse_hand(text.replace("Dealt to Bo [Th Td 8c 5s 2d]", "Dealt to Bo [?? ?? ?? ?? ??]"))
    assert set(_codes(hidden)) == {"FALSE_OPENERS"}


def test_an_opener_whose_cards_are_never_shown_gives_no_finding() -> None:
    hand = _false_opener()
    hidden = tuple(replace(a, cards=("??",) * 5) if (a.kind, a.player) == ("deal", "Bo") else a
                   for a in hand.actions if not (a.kind == "show" and a.player == "Bo"))
    mucked = replace(hand, actions=tuple(a for a in hidden if not (a.kind == "declare" and a.player == "Bo")))
    assert "FALSE_OPENERS" not in _codes(mucked)


def test_openers_made_with_the_common_card_turned_so_far() -> None:
    (_, text, _) = re.split(r"\n(?=BARGE Hand #)", (HOME / "samples" / "dizzy_liz.bhh").read_text().strip())
    hand = parse_hand(text)  # Bo opens flip 1 with Qh and the common Qd
    assert replay(hand) == []
    checked, opened = "Bo: checks\nCy: checks\nAnn: checks\n", "Bo: bets 100\nCy: calls 100\nAnn: calls 100\n"
    turned = "*** FLIP 1 ***\nDealer: deals board 1 [Qd]\n"
    assert checked + turned + opened in text
    # the same bet a round earlier, before the Queen is turned: Queen-high, false openers
    early = parse_hand(text.replace(checked + turned + opened, opened + turned + checked))
    # his hand is dead (Rules of Draw High): the pot the sample pushes to him is a wrong award
    assert set(_codes(early)) == {"FALSE_OPENERS", "WRONG_AWARD"}
    assert "(Qh 9c 7d 4s 3h)" in _codes(early)["FALSE_OPENERS"]


def test_a_raise_needs_no_openers() -> None:
    hand = sample_hands("dizzy_liz")[2]  # Cy raises Bo's opening bet with Kings, Ann calls with Nines
    assert any(a.kind == "raise" for a in hand.actions) and replay(hand) == []


# ---- the loader --------------------------------------------------------------------------------

BASE = 'id = "jax"\nname = "Jax"\nrule = "house"\nextends = "dizzy_liz"\n\n[[street]]\nname = "flip_1"\n'


@pytest.mark.parametrize(("text", "key", "expected"), [
    (BASE + 'open = { at_least = "pairs" }\n', "street[1].open.at_least", "expected one of pair, two_pair"),
    (BASE + 'open = { at_least = "pair", rank = "X" }\n', "street[1].open.rank", "expected one of 2, 3"),
    (BASE + 'open = { rank = "J" }\n', "street[1].open", "`at_least`"),
    (BASE + 'open = { at_least = "pair", suit = "s" }\n', "street[1].open.suit", "unknown key"),
    (BASE + 'open = "jacks"\n', "street[1].open", "a table such as"),
])
def test_a_wrong_open_key_is_located(tmp_path: Path, text: str, key: str, expected: str) -> None:
    error = definition_error(tmp_path, "jax", text)
    assert error.key == key and expected in error.expected and error.line > 1


# ---- the generator and the samples -------------------------------------------------------------

def test_generated_hands_open_only_with_openers(tmp_path: Path) -> None:
    hands, findings = generated_findings("dizzy_liz", tmp_path, hands=60)
    assert [(f.hand_id, f.code.name, f.message) for f in findings] == []
    openings = [(h, a) for h in hands for a in h.actions if a.kind == "bet"]
    assert len(openings) > 20  # every one checked against the cards dealt (the record shows them all)
    assert any(a.kind == "declare" for h in hands for a in h.actions)


def test_the_samples_agree_with_the_rules() -> None:
    assert_samples_agree("dizzy_liz")


# ---- Qualifier (#984): openers with a twist, a high floor -------------------------------------

def test_qualifier_reads_the_twist_rounds_openers_with_the_twisted_card() -> None:
    (text, _, _) = re.split(r"\n(?=BARGE Hand #)", (HOME / "samples" / "qualifier.bhh").read_text().strip())
    assert replay(parse_hand(text)) == []  # Bo's straight is made with the 7h he drew
    kept = text.replace("Bo: pays 200\nBo: discards [2s] and draws [7h]\n", "")
    kept = kept.replace("9c 8d 2c Kd 7h", "9c 8d 2s 2c Kd").replace("Total pot 950", "Total pot 750")
    assert "FALSE_OPENERS" in _codes(parse_hand(kept))  # a pair of Deuces without the twist


@pytest.mark.parametrize(("portion", "expected"), [
    ('scale = "high"\nat_least = "straights"', "expected one of pair, two pair"),
    ('scale = "ace_to_five"\nat_least = "straight"', 'only on a scale = "high" portion'),
])
def test_a_wrong_high_floor_is_located(tmp_path: Path, portion: str, expected: str) -> None:
    head = 'id = "q"\nname = "Q"\nrule = "house"\nextends = "qualifier"\n'
    text = f'{head}\n[[portion]]\nname = "high"\n{portion}\n'
    error = definition_error(tmp_path, "q", text)
    assert error.key == "portion[1].at_least" and expected in error.expected


def test_qualifier_generated_hands_twist_and_have_no_findings(tmp_path: Path) -> None:
    hands, findings = generated_findings("qualifier", tmp_path, hands=60)
    assert [(f.hand_id, f.code.name, f.message) for f in findings] == []
    assert any(a.kind == "draw" for h in hands for a in h.actions)


def test_qualifier_samples_agree_with_the_rules() -> None:
    """As `assert_samples_agree`; a pot moved to Ann, whose low does not qualify, is that finding."""
    for hand in sample_hands("qualifier"):
        assert replay(hand) == []
        moved = replace(hand, awards=tuple(replace(a, player="Ann") for a in hand.awards))
        assert {"MISREAD_HAND", "LOW_DID_NOT_QUALIFY"} & set(_codes(moved))
