"""The checks a home game of `home_games/` passes on this branch's own tests: its generated hands
replay with no findings, and its hand-written samples (`home_games/samples/<id>.bhh`, three hands
checked against the game's rules) do too."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from evaluator import catalog
from evaluator.catalog import ALL_GAMES, add_games
from evaluator.findings import Finding
from evaluator.game_files import GameDefinitionError, load
from evaluator.replay import replay
from evaluator.variants import ALL_VARIANTS
from grammar.barge_parser import parse_hand
from pipeline.cli import main
from pipeline.model import Hand
from pipeline.sources import read_blocks

HOME = Path(__file__).resolve().parent.parent / "home_games"


@contextmanager
def home_games() -> Iterator[None]:
    """The games of home_games/ loaded for one test, and the catalog as it was again after it: a
    test worker's next test may list every game (`barge variants`, the shipped files)."""
    registries = (catalog.ALL_GAMES, ALL_VARIANTS, catalog.HOUSE_GAMES)
    saved = [dict(r) for r in registries]
    folders, files = list(catalog.HOUSE_FOLDERS), set(catalog._HOUSE_FILES)  # what add_games changes
    add_games([HOME])
    try:
        yield
    finally:
        for registry, before in zip(registries, saved, strict=True):
            registry.clear()
            registry.update(before)
        catalog.HOUSE_FOLDERS[:] = folders
        catalog._HOUSE_FILES.clear()
        catalog._HOUSE_FILES.update(files)


def sample_hands(game: str) -> list[Hand]:
    """The game's hand-written samples, parsed."""
    return [parse_hand(block.text) for block in read_blocks(HOME / "samples" / f"{game}.bhh")]


def generated_findings(game: str, out: Path, hands: int = 40) -> tuple[list[Hand], list[Finding]]:
    """`barge generate --games home_games --variant GAME`'s hands, and their findings."""
    assert main(["generate", "--games", str(HOME), "--variant", game, "--hands", str(hands), "--seed", "7",
                 "--jobs", "1", str(out)]) == 0
    played = [parse_hand(block.text) for block in read_blocks(out / f"{game}.bhh")]
    return played, [f for hand in played for f in replay(hand)]


def assert_generated_clean(game: str, out: Path, kind: str = "show") -> None:
    """The game's generated hands replay with no finding, and some of them take an action of
    `kind` (a showdown, a flip): the mechanism under test is played."""
    hands, findings = generated_findings(game, out)
    assert [(f.hand_id, f.code.name, f.message) for f in findings] == []
    assert any(a.kind == kind for h in hands for a in h.actions)


def assert_samples_clean(game: str) -> list[Hand]:
    """The game's three samples replay with no finding; returns them."""
    hands = sample_hands(game)
    assert len(hands) == 3 and (HOME / f"{game}.toml").is_file()
    for hand in hands:
        assert replay(hand) == []
    return hands


def assert_samples_agree(game: str) -> None:
    """The game's three samples replay with no finding, and each pot moved to a player who lost it
    is a misread hand."""
    for hand in assert_samples_clean(game):
        winners = {a.player for a in hand.awards}
        loser = next(s.player for s in hand.seats if s.player not in winners)
        moved = replace(hand, awards=tuple(replace(a, player=loser) for a in hand.awards))
        assert "MISREAD_HAND" in {f.code.name for f in replay(moved)}


def definition_error(folder: Path, game_id: str, text: str) -> GameDefinitionError:
    """The error of loading `text` as the house game `game_id` (its file written in `folder`)."""
    (folder / f"{game_id}.toml").write_text(text, encoding="utf-8")
    with pytest.raises(GameDefinitionError) as error:
        load([folder / f"{game_id}.toml"], ALL_GAMES, house=True)
    return error.value


def assert_located(folder: Path, game_id: str, text: str, line: int, key: str, expected: str) -> None:
    """A house file `<game_id>.toml` of `text` is refused at `line` and `key`, saying `expected`."""
    (folder / f"{game_id}.toml").write_text(text, encoding="utf-8")
    with pytest.raises(GameDefinitionError) as error:
        load([folder / f"{game_id}.toml"], catalog.ALL_GAMES, house=True)
    assert (error.value.line, error.value.key) == (line, key)
    assert expected in error.value.expected


@pytest.fixture
def loaded_home_games() -> Iterator[None]:
    """The games of home_games/ loaded for the test (`pytest.mark.usefixtures("loaded_home_games")`)."""
    with home_games():
        yield
