"""Net and bb/100 agree: within one unit and one stake level they come from the same hands and
divide by the same big blind (big bet in limit), so they have the same sign (docs/stats.md,
"bb/100"); and `barge stats --min-hands --sort --limit` picks and orders the rows."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from pipeline.cli import SORTABLE, main
from pipeline.stats import NO_FILTERS, Filters, player_stats, stats_by
from tests.conftest import SHARED

PS_CORPUS = SHARED / "corpus" / "pokerstars"
# Limit and big-bet structures, cash and tournament levels (two stake levels in one unit), a
# bring-in game, and bomb pots (hands without a big blind).
GENERATED = ("texas_holdem", "five_card_draw", "razz")


def _ingest(db: Path, *paths: Path) -> Path:
    assert main(["ingest", *map(str, paths), "--db", str(db), "--json", "--jobs", "1"]) in (0, 1)
    return db


@pytest.fixture(scope="module")
def generated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("generated")
    for variant in GENERATED:
        assert main(["generate", str(folder), "--variant", variant, "--hands", "80", "--seed", "3",
                     "--jobs", "1"]) == 0
    return _ingest(folder / "g.duckdb", *sorted(folder.glob("*.bhh")))


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not PS_CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {PS_CORPUS}")
    return _ingest(tmp_path_factory.mktemp("corpus") / "ps.duckdb", PS_CORPUS)


@pytest.fixture(params=["generated", "corpus"])
def con(request: pytest.FixtureRequest) -> Iterator[duckdb.DuckDBPyConnection]:
    db: Path = request.getfixturevalue(f"{request.param}_db")
    with duckdb.connect(str(db), read_only=True) as connection:
        yield connection


def _sign(x: float) -> int:
    """The sign of a sum of amounts, a float rounding error (0.1 + 0.2 - 0.3) being zero."""
    return 0 if abs(x) < 1e-9 else (1 if x > 0 else -1)


def test_net_and_bb_per_100_agree_in_sign_within_one_unit_and_stake_level(
        con: duckdb.DuckDBPyConnection) -> None:
    by_stakes = stats_by(con, NO_FILTERS, "stakes")
    levels = by_stakes.filter(by_stakes["stakes"].is_not_null())
    # The database can make the property fail: one unit holds two stake levels.
    assert levels.group_by("unit").agg(pl.col("stakes").n_unique().alias("n"))["n"].max() >= 2  # type: ignore[operator]
    for row in by_stakes.to_dicts():
        if row["stakes"] is None:  # hands without a big blind (bomb pots): no bb/100 to give
            assert row["net_bb_per_100"] is None, row
        else:
            assert _sign(row["net"]) == _sign(row["net_bb_per_100"]), row
    # Every other grouping, taken at one stake level, agrees as well.
    for stakes in levels["stakes"].unique().to_list():
        at_level = Filters(stakes=stakes)
        frames = [player_stats(con, at_level), stats_by(con, at_level, "variant"),
                  stats_by(con, at_level, "position")]
        for row in (r for frame in frames for r in frame.to_dicts()):
            assert _sign(row["net"]) == _sign(row["net_bb_per_100"]), (stakes, row)


def test_a_stake_level_adds_up_to_the_players_net(con: duckdb.DuckDBPyConnection) -> None:
    """The stake grouping splits a player's hands, it does not lose or double any."""
    whole = {(r["site"], r["player"], r["unit"]): r for r in player_stats(con).to_dicts()}
    split = stats_by(con, NO_FILTERS, "stakes").group_by("site", "player", "unit").sum().to_dicts()
    assert len(split) == len(whole)
    for row in split:
        key = (row["site"], row["player"], row["unit"])
        assert row["hands"] == whole[key]["hands"], key
        assert row["net"] == pytest.approx(whole[key]["net"]), key


def _stats(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert main(["stats", "--db", str(db), "--json", *args]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    return rows


def test_barge_stats_sorts_limits_and_drops_small_samples(
        generated_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    every = _stats(generated_db, capsys)
    nets = sorted((r["net"] for r in every if r["hands"] >= 20), reverse=True)
    top = _stats(generated_db, capsys, "--min-hands", "20", "--sort", "net", "--limit", "3")
    assert [r["net"] for r in top] == nets[:3]
    assert all(r["hands"] >= 20 for r in top)
    by_vpip = _stats(generated_db, capsys, "--sort", "vpip")
    vpips = [r["vpip"] for r in by_vpip]
    assert len(by_vpip) == len(every)
    assert vpips == sorted(vpips, key=lambda v: float("inf") if v is None else -v)
    staked = _stats(generated_db, capsys, "--by", "stakes", "--sort", "hands", "--limit", "1")
    assert len(staked) == 1 and "stakes" in staked[0]


def test_barge_stats_names_the_columns_of_an_unknown_sort(
        generated_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["stats", "--db", str(generated_db), "--sort", "profit"])
    assert exit_.value.code == 2
    message = capsys.readouterr().err
    assert "profit" in message and all(column in message for column in SORTABLE)
    with pytest.raises(SystemExit) as exit_:
        main(["stats", "--db", str(generated_db), "--limit", "0"])
    assert exit_.value.code == 2
