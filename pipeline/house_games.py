"""A command's house games (docs/games.md): the `--games DIR` option, and loading the definitions
of BARGE_GAMES, of `games/` beside the database and of `--games` before the command runs."""

from __future__ import annotations

import argparse
from pathlib import Path

from evaluator.catalog import GAMES, HOUSE_GAMES, add_games
from evaluator.game_files import GameDefinitionError, house_folders

__all__ = ["GameDefinitionError", "add_games_option", "generatable", "load_house_games"]


def add_games_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", action="append", default=[], metavar="DIR",
                   help="also the game definitions in DIR (docs/games.md; repeatable)")


def load_house_games(args: argparse.Namespace) -> None:
    """Every command loads the house's games (worker processes load the same folders); a wrong
    file raises GameDefinitionError, located."""
    db = Path(args.db) if isinstance(getattr(args, "db", None), str) else None
    add_games(house_folders(db, getattr(args, "games", [])))


def generatable(variant: str) -> bool:
    """Whether `barge generate` writes hands of `variant`: a rulebook game or a house game."""
    return variant in GAMES or variant in HOUSE_GAMES
