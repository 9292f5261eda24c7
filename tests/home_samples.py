"""The checks a home game of `home_games/` passes on this branch's own tests: its generated hands
replay with no findings, and its hand-written samples (`home_games/samples/<id>.bhh`, three hands
checked against the game's rules) do too."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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


def definition_error(folder: Path, game_id: str, text: str) -> GameDefinitionError:
    """The error of loading `text` as the house game `game_id` (its file written in `folder`)."""
    (folder / f"{game_id}.toml").write_text(text, encoding="utf-8")
    with pytest.raises(GameDefinitionError) as error:
        load([folder / f"{game_id}.toml"], ALL_GAMES, house=True)
    return error.value
