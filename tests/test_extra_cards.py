"""Extra down cards a street's board cards call for (docs/games.md, a street's `extra`): Wonky
Donkey's mostly black flop (§2.55) and Wild Kingdom's common fours (home game #709), the loader's
checks, the replay's WRONG_DEAL when one is not dealt, and Wild Kingdom's generated hands and
samples."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES, GAMES, MOSTLY_BLACK, Extra
from evaluator.replay import replay
from pipeline.generate.world import max_players
from tests import home_samples as home
from tests.home_samples import loaded_home_games  # noqa: F401 (the fixture, used by pytestmark)

pytestmark = pytest.mark.usefixtures("loaded_home_games")


def test_wonky_donkeys_flop_is_the_configured_condition() -> None:
    """§2.55: two or three black flop cards deal two more down cards; the flag became the flop's
    `extra`, the rest of the game unchanged."""
    flop = GAMES["wonky_donkey"].street("flop")
    assert flop.extra == Extra(2, when=MOSTLY_BLACK) and not GAMES["wonky_donkey"].rules
    assert [flop.extra.cards(board) for board in (["Kc", "4s", "9h"], ["Kh", "4s", "9h"])] == [2, 0]
    assert max_players(GAMES["wonky_donkey"]) == 9


def test_each_common_four_deals_one_card() -> None:
    river = ALL_GAMES["wild_kingdom"].street("river")
    assert river.extra == Extra(1, each="4")
    assert river.extra.cards(["4s"]) == 1 and ALL_GAMES["wild_kingdom"].street("flop").extra.cards(
        ["4c", "4h", "Td"]) == 2
    assert max_players(ALL_GAMES["wild_kingdom"]) == 5  # 4 + 5 extra down cards, 5 common cards


def test_an_extra_card_without_a_four_is_a_wrong_deal() -> None:
    """Rule 13: the turn's 7s is no four, so a down card dealt to Ann on the turn is a wrong deal;
    the flop's 4d dealt her one, two are wrong too."""
    hand = home.sample_hands("wild_kingdom")[0]
    flop = next(a for a in hand.actions if a.kind == "deal" and a.street == "flop" and a.player == "Ann")
    turn = hand.actions.index(next(a for a in hand.actions if a.street == "turn"))
    on_turn = replace(flop, street="turn", cards=("9d",))
    dealt = replace(hand, actions=(*hand.actions[:turn + 1], on_turn, *hand.actions[turn + 1:]))
    assert "the game deals 0 down" in {f.code.name: f.message for f in replay(dealt)}.get("WRONG_DEAL", "")
    two = replace(hand, actions=tuple(replace(a, cards=("6d", "9d")) if a is flop else a
                                      for a in hand.actions))
    assert "the game deals 1 down" in {f.code.name: f.message for f in replay(two)}.get("WRONG_DEAL", "")


def test_generated_hands_have_no_findings(tmp_path: Path) -> None:
    home.assert_generated_clean("wild_kingdom", tmp_path)


def test_the_samples_agree_with_the_rules() -> None:
    home.assert_samples_agree("wild_kingdom")


HEAD = 'id = "extra"\nname = "Extra"\nrule = "house"\nextends = "omaha"\n[[street]]\n'


@pytest.mark.parametrize(("body", "key", "expected"), [
    ('name = "flop"\nextra = { down = 1 }\n', "street[1].extra", "one of `when`"),
    ('name = "flop"\nextra = { down = 1, when = "mostly_black", each = "4" }\n', "street[1].extra",
     "one of `when`"),
    ('name = "flop"\nextra = { down = 0, each = "4" }\n', "street[1].extra.down", "1 or more"),
    ('name = "flop"\nextra = { down = 1, each = "1" }\n', "street[1].extra.each", "expected one of 2, 3"),
    ('name = "flop"\nextra = { down = 1, when = "red" }\n', "street[1].extra.when", "mostly_black"),
    ('name = "hole_cards"\nextra = { down = 1, each = "4" }\n', "street[1].extra", "deals none"),
])
def test_a_wrong_extra_is_located(tmp_path: Path, body: str, key: str, expected: str) -> None:
    home.assert_located(tmp_path, "extra", HEAD + body, 7, key, expected)
