"""Board shapes (docs/games.md, a game's `paths`): the loader's checks, the showdown playing a
hand along each path, and the home games built on them (Chowahaha, Cross Over, Southern Cross,
Southern Cross II): generated hands with no findings and their hand-written samples."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

from evaluator.cards import STANDARD
from evaluator.catalog import ALL_GAMES, add_games
from evaluator.codes import parse
from evaluator.game_files import GameDefinitionError, load
from evaluator.replay import replay
from evaluator.showdown import best_hands
from tests.home_samples import HOME, generated_findings, home_games, sample_hands


@pytest.fixture(autouse=True)
def _home_games() -> Iterator[None]:
    with home_games():
        yield


SHAPES = ("chowahaha", "cross_over", "southern_cross", "southern_cross_ii")
CROSS = {"top": ["Ah"], "right": ["Kh"], "bottom": ["7c"], "left": ["8d"], "center": ["2h"]}


def test_a_hand_uses_one_row_or_column_of_the_cross() -> None:
    """Cross Over rule 15: Ah, Kh and 2h are three hearts of the cross, but in no one row."""
    [high] = best_hands("cross_over", parse("9h5hTs4c"), CROSS)
    assert high.description == "high card, A-T-9-7-5"
    assert set(high.cards) == {"Ah", "7c", "Ts", "9h", "5h"}  # the column Ah-2h-7c: any five


def test_chowahaha_pairs_any_flop_with_either_single_card() -> None:
    """Rule 10: the top flop with the second single card, which Chowaha's four paths lack."""
    boards = {"top": parse("AhKh2c"), "middle": parse("7d8d3s"), "bottom": parse("4c4d9s"),
              "turn": parse("5sQh"), "river": parse("Tc")}
    [high] = best_hands("chowahaha", parse("JdTd6c6h"), boards)
    assert high.description == "straight, Ace high"
    [chowaha, _] = best_hands("four_card_chowaha_hi_lo", parse("JdTd6c6h"), boards)
    assert chowaha.description != "straight, Ace high"


def test_a_removed_board_takes_its_paths_out_of_play() -> None:
    without_column = {name: cards for name, cards in CROSS.items() if name != "top"}
    [high] = best_hands("cross_over", parse("AsAd3c4c"), without_column)
    assert high.description == "pair of Aces with K-8-4"  # the row alone


AS_PATHS = {
    "oklahoma": '[["1"], ["2"], ["3"]]',
    "chowaha": '[["top", "turn[1]", "river"], ["middle", "turn[1]", "river"], '
               '["middle", "turn[2]", "river"], ["bottom", "turn[2]", "river"]]',
}


@pytest.fixture
def as_paths(tmp_path: Path) -> dict[str, str]:
    """Oklahoma and Chowaha written with `paths` and Omaha/8, as house games (for one test, as
    the home games)."""
    folder = tmp_path
    for game, paths in AS_PATHS.items():
        (folder / f"{game}_paths.toml").write_text(
            f'id = "{game}_paths"\nname = "{game} as paths"\nrule = "test"\nextends = "{game}"\n'
            f'hand = "omaha_hi_lo8"\npaths = {paths}\n', encoding="utf-8")
    add_games([folder])
    return {game: f"{game}_paths" for game in AS_PATHS}


@pytest.mark.parametrize("game", list(AS_PATHS))
def test_oklahomas_rows_and_chowahas_paths_are_paths(game: str, as_paths: dict[str, str]) -> None:
    """The general mechanism makes the same hands as the two games' own rules, boards removed
    (Oklahoma, §2.34) included."""
    rng = Random(5)
    sizes: dict[str, int] = {}
    for street in ALL_GAMES[game].streets:
        for board, count in street.boards:
            sizes[board] = sizes.get(board, 0) + count
    hole = ALL_GAMES[game].hole_cards
    for _ in range(150):
        cards = rng.sample(sorted(STANDARD.cards), hole + sum(sizes.values()))
        boards, at = {}, hole
        for name, count in sizes.items():
            boards[name], at = cards[at:at + count], at + count
        if game == "oklahoma":
            for name in rng.sample(sorted(boards), rng.randint(0, 3)):
                del boards[name]
        own = best_hands(game, cards[:hole], boards)
        general = best_hands(as_paths[game], cards[:hole], boards)
        assert [(p.rank, p.raw) for p in own] == [(p.rank, p.raw) for p in general]


def _load(tmp_path: Path, text: str) -> None:
    (tmp_path / "shape.toml").write_text(text, encoding="utf-8")
    load([tmp_path / "shape.toml"], ALL_GAMES, house=True)


HEAD = 'id = "shape"\nname = "Shape"\nrule = "house"\nextends = "cross_over"\n'


@pytest.mark.parametrize(("paths", "key", "expected"), [
    ('[["left", "middle"]]', "paths[1][2]", "a board the streets deal"),
    ('[["top[2]"]]', "paths[1][1]", "a card board top is dealt: it gets 1, not 2"),
    ('[["left", "top["]]', "paths[1][2]", "a board name or a card of one"),
    ("[[]]", "paths[1]", "a path of at least one board"),
    ('"left"', "paths", "a list of paths"),
])
def test_a_wrong_path_is_located(tmp_path: Path, paths: str, key: str, expected: str) -> None:
    with pytest.raises(GameDefinitionError) as error:
        _load(tmp_path, f"{HEAD}paths = {paths}\n")
    assert (error.value.line, error.value.key) == (5, key)
    assert expected in error.value.expected


def test_paths_need_a_hand_that_plays_one_board(tmp_path: Path) -> None:
    with pytest.raises(GameDefinitionError) as error:
        _load(tmp_path, f'{HEAD}hand = "murder"\n')
    assert error.value.key == "paths" and "hand must be one of" in error.value.expected


@pytest.mark.parametrize("game", SHAPES)
def test_generated_hands_have_no_findings(game: str, tmp_path: Path) -> None:
    hands, findings = generated_findings(game, tmp_path)
    assert [(f.hand_id, f.code.name, f.message) for f in findings] == []
    assert any(a.kind == "show" for h in hands for a in h.actions)  # showdowns along the paths


@pytest.mark.parametrize("game", SHAPES)
def test_the_samples_agree_with_the_rules(game: str) -> None:
    """Three hand-written hands each, whose winners the game's rules name (their `Note:`); an
    award moved to another player is a misread hand."""
    hands = sample_hands(game)
    assert len(hands) == 3 and (HOME / f"{game}.toml").is_file()
    for hand in hands:
        assert replay(hand) == []
        [award] = hand.awards
        other = next(s.player for s in hand.seats if s.player != award.player)
        moved = replace(hand, awards=(replace(award, player=other),))
        assert "MISREAD_HAND" in {f.code.name for f in replay(moved)}
