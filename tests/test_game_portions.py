"""A definition's written portions (`hand = "portions"`, `[[portion]]` tables, docs/games.md):
how they are read, and where a wrong one is reported. `load` builds the games without adding them
to the process's catalog."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES, Part, SplitCard, WildRule
from evaluator.codes import parse
from evaluator.game_files import GameDefinitionError, load
from evaluator.showdown import Portion, _part, _split_card, _Table, _unused

HEAD = 'id = "{id}"\nname = "Test"\nrule = "test"\nextends = "omaha"\nhand = "portions"\n'


def define(tmp_path: Path, body: str, game_id: str = "house_test") -> Path:
    file = tmp_path / f"{game_id}.toml"
    file.write_text(HEAD.format(id=game_id) + body)
    return file


def test_portions_are_read_with_their_wild_cards(tmp_path: Path) -> None:
    file = define(tmp_path, """
[[portion]]
name = "high"
scale = "high"
hole = [2, 3]
wild = { ranks = ["3"], board = "lowest", most = 1 }

[[portion]]
name = "low"
scale = "ace_to_five"
qualifier = 10
""")
    game = load([file], ALL_GAMES, house=True)["house_test"]
    assert game.parts == (
        Part("high", "high", None, (2, 3), ("1",), False, WildRule(frozenset({"3"}), "lowest", most=1)),
        Part("low", "ace_to_five", 10, None, ("1",), False, None),
    )


@pytest.mark.parametrize(("body", "line", "key", "expected"), [
    ("", 5, "hand", 'hand = "portions" exactly when the game has [[portion]] tables'),
    ('[[portion]]\nname = "high"\n', 6, "portion[1]", "a portion needs `scale = ...`"),
    ('[[portion]]\nname = "high"\nscale = "badugi"\n', 8, "portion[1].scale", "expected one of high"),
    ('[[portion]]\nname = "high"\nscale = "high"\nqualifier = 8\n', 9, "portion[1].qualifier",
     "a qualifier only on an ace_to_five portion"),
    ('[[portion]]\nname = "high"\nscale = "high"\nhole = [3, 6]\n', 9, "portion[1].hole", "at most 5"),
    ('[[portion]]\nname = "high"\nscale = "high"\nboards = ["2"]\n', 9, "portion[1].boards",
     "a board the streets deal (1); not 2"),
    ('[[portion]]\nname = "high"\nscale = "high"\nwild = { die = ["rank"] }\n', 9, "portion[1].wild",
     "a die rolled on a street"),
    ('[[portion]]\nname = "high"\nscale = "high"\nwild = { ranks = ["1"] }\n', 9, "portion[1].wild.ranks[1]",
     "expected one of 2, 3"),
    ('[[portion]]\nname = "high"\nscale = "high"\nwild = { most = 1 }\n', 9, "portion[1].wild",
     "at least one of ranks, board, table or die"),
    ('[[portion]]\nname = "high"\nscale = "high"\nwilds = { ranks = ["2"] }\n', 9, "portion[1].wilds",
     "unknown key"),
    ('[[portion]]\nname = "split-card"\nscale = "split_card"\n', 6, "portion[1].card",
     'a card table exactly when scale = "split_card"'),
    ('[[portion]]\nname = "high"\nscale = "high"\ncard = { suit = "s" }\n', 8, "portion[1].scale",
     'a card table exactly when scale = "split_card"'),
    ('[[portion]]\nname = "split-card"\nscale = "split_card"\ncard = { suit = "x" }\n', 9,
     "portion[1].card.suit", "expected one of s, h, d, c, last"),
    ('[[portion]]\nname = "split-card"\nscale = "split_card"\ncard = { rank = "lowest" }\n', 9,
     "portion[1].card", "a card needs `suit = ...`"),
    ('[[portion]]\nname = "split-hand"\nscale = "high"\nunused_by = "high"\n', 9, "portion[1].unused_by",
     "expected one of (an earlier portion)"),
    ('[[portion]]\nname = "high"\nscale = "high"\n[[portion]]\nname = "split-hand"\nscale = "high"\n'
     'unused_by = "low"\n', 12, "portion[2].unused_by", "expected one of high"),
])
def test_a_wrong_portion_is_located(tmp_path: Path, body: str, line: int, key: str, expected: str) -> None:
    file = define(tmp_path, body)
    with pytest.raises(GameDefinitionError) as error:
        load([file], ALL_GAMES, house=True)
    assert (error.value.line, error.value.key) == (line, key)
    assert expected in error.value.expected


def _split(rule: SplitCard, hole: str, board: str, up: str = "") -> Portion:
    table = _Table(tuple(parse(hole)), {"1": tuple(parse(board))}, (), {}, frozenset(parse(up)), None)
    return _split_card(table, Part("split-card", "split_card", card=rule))


def test_the_split_card_is_the_face_down_card_the_rule_names() -> None:
    low_spade = SplitCard("s")  # Omaha Spade (#705): "the low, face-down spade"
    mine, theirs = _split(low_spade, "Ks3s9h2d", "As2s4c"), _split(low_spade, "5s4s9c2c", "As2s4c")
    assert (mine.cards, theirs.cards) == (("3s",), ("4s",))
    assert mine.rank is not None and theirs.rank is not None and mine.rank > theirs.rank
    assert _split(low_spade, "AhKh9h2d", "2s3s4s").rank is None  # the board's spades are nobody's
    assert _split(low_spade, "3s9s9h2d", "", up="3s").cards == ("9s",)  # a spade turned up is not down
    # Chicago Hold'em (#697): the last common card's suit, its high card from an eight up, else the low
    chicago = SplitCard("last", "lowest", "8")
    assert _split(chicago, "Kh3h9c2d", "2c5d7s4s8h").cards == ("Kh",)
    assert _split(chicago, "Kh3h9c2d", "2c5d7s8s4h").cards == ("3h",)


def test_a_hand_of_the_unused_cards_leaves_the_best_it_can() -> None:
    # Omaha High/High (#952): where two high hands are equally best, the one leaving the better
    # split hand plays.
    file = Path(__file__).parents[1] / "home_games" / "omaha_high_high.toml"
    game = load([file], ALL_GAMES, house=True)["omaha_high_high"]
    high, split = game.parts
    table = _Table(tuple(parse("Ad8s6dTh")), {"1": tuple(parse("6s7d7s8h9d"))}, (), {}, frozenset(), None)
    assert _part(table, high).description == "straight, Ten high"  # Th with 8s, or Th with 6d
    # Th 8s would leave Ad 6d (Sevens and Sixes); Th 6d leaves Ad 8s: Eights and Sevens.
    assert _unused(table, split, high).description == "two pair, Eights and Sevens with an Ace"
