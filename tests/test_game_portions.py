"""A definition's written portions (`hand = "portions"`, `[[portion]]` tables, docs/games.md):
how they are read, and where a wrong one is reported. `load` builds the games without adding them
to the process's catalog."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES, Part, WildRule
from evaluator.game_files import GameDefinitionError, load

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
])
def test_a_wrong_portion_is_located(tmp_path: Path, body: str, line: int, key: str, expected: str) -> None:
    file = define(tmp_path, body)
    with pytest.raises(GameDefinitionError) as error:
        load([file], ALL_GAMES, house=True)
    assert (error.value.line, error.value.key) == (line, key)
    assert expected in error.value.expected
