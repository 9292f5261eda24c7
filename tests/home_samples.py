"""The checks a home game of `home_games/` passes on this branch's own tests: its generated hands
replay with no findings, and its hand-written samples (`home_games/samples/<id>.bhh`, three hands
checked against the game's rules) do too."""

from __future__ import annotations

from pathlib import Path

from evaluator.catalog import add_games
from evaluator.findings import Finding
from evaluator.replay import replay
from grammar.barge_parser import parse_hand
from pipeline.cli import main
from pipeline.model import Hand
from pipeline.sources import read_blocks

HOME = Path(__file__).resolve().parent.parent / "home_games"
add_games([HOME])


def sample_hands(game: str) -> list[Hand]:
    """The game's hand-written samples, parsed."""
    return [parse_hand(block.text) for block in read_blocks(HOME / "samples" / f"{game}.bhh")]


def generated_findings(game: str, out: Path, hands: int = 40) -> tuple[list[Hand], list[Finding]]:
    """`barge generate --games home_games --variant GAME`'s hands, and their findings."""
    assert main(["generate", "--games", str(HOME), "--variant", game, "--hands", str(hands), "--seed", "7",
                 "--jobs", "1", str(out)]) == 0
    played = [parse_hand(block.text) for block in read_blocks(out / f"{game}.bhh")]
    return played, [f for hand in played for f in replay(hand)]
