"""Games as data (docs/games.md): the package's definition files build the catalog, a house's
own files add games without code, and a wrong file is reported by file, line and key.

The commands that load house games run in their own process: loading adds to the catalog of the
process, and the other tests of this one count its games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES, GAMES, ROOM_GAMES, catalog_entry
from evaluator.game_files import SHIPPED, GameDefinitionError, load, shipped

EXPECTED = Path(__file__).parent / "data" / "variants.json"  # `barge variants --json` before the files
BARGE = [sys.executable, "-m", "pipeline.cli"]
HOUSE_OMAHA = """\
# Friday Omaha: the club's Omaha, pot-limit only
id = "house_omaha"
name = "Friday Omaha"
rule = "Friday Club rules §4"
extends = "omaha"
structures = ["pot-limit"]
"""


def barge(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "BARGE_GAMES"}
    return subprocess.run([*BARGE, *args], capture_output=True, text=True, env={**environ, **(env or {})},
                          check=False)


def house(folder: Path, text: str = HOUSE_OMAHA, name: str = "house_omaha") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.toml").write_text(text)
    return folder


def test_every_shipped_file_loads_into_the_catalog() -> None:
    games = shipped()
    assert len(list(SHIPPED.glob("*.toml"))) == len(games) == len(ALL_GAMES) == 64
    assert games == {**GAMES, **ROOM_GAMES} and len(GAMES) == 59
    assert all(game.hand for game in games.values())


def test_the_documented_examples_are_the_shipped_files() -> None:
    """docs/games.md shows package files as they are (Pick'em's, shortened, is not compared)."""
    blocks = (Path(__file__).parents[1] / "docs" / "games.md").read_text().split("```toml\n")[1:]
    shown = [block.split("```")[0] for block in blocks]
    ids = [tomllib.loads(text)["id"] for text in shown]
    compared = [(game_id, text) for game_id, text in zip(ids, shown, strict=True)
                if "# ..." not in text and (SHIPPED / f"{game_id}.toml").exists()]
    assert len(compared) >= 6
    for game_id, text in compared:
        assert (SHIPPED / f"{game_id}.toml").read_text() == text


def test_the_catalog_prints_as_it_did_before_the_files() -> None:
    printed = [{**catalog_entry(g), "room": g.variant.room} for g in ALL_GAMES.values()]
    assert json.loads(json.dumps(printed)) == json.loads(EXPECTED.read_text())
    run = barge("variants", "--json")
    assert run.returncode == 0 and run.stdout == EXPECTED.read_text()


def test_a_house_game_is_generated_ingested_and_counted(tmp_path: Path) -> None:
    games = house(tmp_path / "defs")
    made = barge("generate", "--games", str(games), "--variant", "house_omaha", "--hands", "20",
                 "--seed", "4", str(tmp_path / "out"))
    assert made.returncode == 0, made.stderr
    db = str(tmp_path / "x.duckdb")
    stored = barge("ingest", "--games", str(games), "--db", db, "--json", "--jobs", "2",
                   str(tmp_path / "out"))
    assert stored.returncode == 0, stored.stderr
    summary = json.loads(stored.stdout)
    assert summary["hands"] == 20 and summary["rejects"] == 0 and summary["by_variant"] == {"house_omaha": 20}
    assert summary["audit"]["findings"] == [] and summary["audit"]["errors"] == 0
    stats = barge("stats", "--db", db, "--variant", "house_omaha", "--json", env={"BARGE_GAMES": str(games)})
    assert stats.returncode == 0, stats.stderr
    assert sum(row["hands"] for row in json.loads(stats.stdout)) > 0
    listed = barge("variants", "--json", "--games", str(games))
    entry = next(e for e in json.loads(listed.stdout) if e["id"] == "house_omaha")
    assert (entry["name"], entry["rule"], entry["room"]) == ("Friday Omaha", "Friday Club rules §4", "house")


def test_the_games_folder_beside_the_database(tmp_path: Path) -> None:
    house(tmp_path / "games")
    assert barge("generate", "--variant", "house_omaha", "--hands", "5", "--seed", "1", str(tmp_path / "out"),
                 env={"BARGE_GAMES": str(tmp_path / "games")}).returncode == 0
    stored = barge("ingest", "--db", str(tmp_path / "x.duckdb"), "--json", str(tmp_path / "out"))
    assert json.loads(stored.stdout)["by_variant"] == {"house_omaha": 5}, stored.stderr


def test_a_hand_of_an_unknown_game_names_the_missing_definition(tmp_path: Path) -> None:
    games = house(tmp_path / "defs")
    assert barge("generate", "--games", str(games), "--variant", "house_omaha", "--hands", "2", "--seed", "1",
                 str(tmp_path / "out")).returncode == 0
    stored = barge("ingest", "--db", str(tmp_path / "x.duckdb"), "--json", str(tmp_path / "out"))
    summary = json.loads(stored.stdout)
    assert summary["hands"] == 0 and summary["rejects"] == 2
    assert "no game definition for `house_omaha`: add a games/house_omaha.toml" in stored.stdout


def test_a_house_game_may_not_take_a_shipped_id(tmp_path: Path) -> None:
    games = house(tmp_path / "defs", HOUSE_OMAHA.replace('"house_omaha"', '"omaha"'), "omaha")
    run = barge("variants", "--games", str(games))
    assert run.returncode == 2
    assert f"{games / 'omaha.toml'}, line 2: id: a new game id: omaha is already a game of the package" \
        in run.stderr.replace("\n", "")
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(("change", "line", "key", "expected"), [
    (("structures = [\"pot-limit\"]", "structures = \"pot-limit\""), 6, "structures", "expected a list"),
    (("structures", "structure"), 6, "structure", "unknown key"),
    (("structures = [\"pot-limit\"]", "showdown = [\"high\", \"kings_low\"]"), 6, "showdown[2]",
     "expected one of 27_low"),
    (("structures = [\"pot-limit\"]", "[[street]]\nname = \"flop\"\nfirst = \"dealer\""), 8,
     "street[1].first", "expected one of left_of_big_blind, left_of_button, bring_in, showing; got 'dealer'"),
    (("name = \"Friday Omaha\"", "name = Friday Omaha"), 3, "(syntax)", "TOML: "),
    (("extends = \"omaha\"", "extends = \"omaha_7\""), 5, "extends", "no game 'omaha_7'"),
    (("rule = \"Friday Club rules §4\"\n", ""), 1, "(file)", "a house game's file needs `rule = ...`"),
])
def test_a_mistake_is_reported_by_file_line_and_key(tmp_path: Path, change: tuple[str, str], line: int,
                                                    key: str, expected: str) -> None:
    text = HOUSE_OMAHA.replace(*change)
    assert text != HOUSE_OMAHA
    file = house(tmp_path, text) / "house_omaha.toml"
    with pytest.raises(GameDefinitionError) as error:
        load([file], ALL_GAMES, house=True)
    assert (error.value.file, error.value.line, error.value.key) == (file, line, key)
    assert expected in error.value.expected


def test_the_command_prints_a_mistake_without_a_traceback(tmp_path: Path) -> None:
    games = house(tmp_path / "defs", HOUSE_OMAHA.replace("[\"pot-limit\"]", "[\"pot-limit\", \"spread\"]"))
    run = barge("ingest", "--games", str(games), "--db", str(tmp_path / "x.duckdb"), str(tmp_path))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    where = f"{games / 'house_omaha.toml'}, line 6: structures[2]"
    assert f"{where}: expected one of limit, pot-limit, no-limit" in run.stderr.replace("\n", "")


def test_a_shipped_copy_under_another_id_equals_its_original(tmp_path: Path) -> None:
    """A house file may be a whole definition: the package's Omaha family written out again."""
    folder = tmp_path / "defs"
    folder.mkdir()
    for name in ("texas_holdem", "omaha"):
        text = (SHIPPED / f"{name}.toml").read_text().replace(f'id = "{name}"', f'id = "my_{name}"')
        text = text.replace('extends = "texas_holdem"', 'extends = "my_texas_holdem"')
        text = text.replace("\nid =", '\nname = "Mine"\nrule = "mine"\nid =', 1)
        (folder / f"my_{name}.toml").write_text(text)
    games = load(sorted(folder.glob("*.toml")), GAMES, house=True)
    for name in ("texas_holdem", "omaha"):
        mine = games[f"my_{name}"]
        assert (mine.streets, mine.showdown, mine.hand, mine.structures) == \
            (GAMES[name].streets, GAMES[name].showdown, GAMES[name].hand, GAMES[name].structures)
