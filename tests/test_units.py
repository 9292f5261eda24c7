"""Every hand knows its unit (docs/format.md, "Units"): the site, game type and currency each
reader fills, the native lines' round trip, the migration of an old database, and `barge stats`,
which never adds amounts of two units."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from grammar.barge_parser import parse_hand
from grammar.errors import HandSyntaxError
from grammar.phh_parser import parse_phh
from grammar.pokerstars_parser import parse_pokerstars
from pipeline.cli import main
from pipeline.model import Hand
from pipeline.parquet_export import export_parquet
from pipeline.phh_writer import hand_to_phh
from pipeline.store import Store
from pipeline.units import unit_label, unit_of
from pipeline.writer import write_hand
from tests.conftest import SHARED, sample_files

PS_CORPUS = SHARED / "corpus" / "pokerstars"

# A PokerStars hand whose header line the tests replace; the body's amounts are bare numbers,
# which the reader takes in the header's unit.
PS_BODY = """Table 'Olga' 6-max{kind} Seat #1 is the button
Seat 1: Ann (200 in chips)
Seat 2: Bo (200 in chips)
Ann: posts small blind 1
Bo: posts big blind 2
*** HOLE CARDS ***
Ann: raises 4 to 6
Bo: folds
Uncalled bet (4) returned to Ann
Ann collected 4 from pot
*** SUMMARY ***
Total pot 4 | Rake 0
Seat 1: Ann (button) (small blind) collected (4)
Seat 2: Bo (big blind) folded before Flop
"""
WHEN = "2025/04/24 11:21:34 ET"


def ps_hand(header: str, kind: str = "") -> Hand:
    return parse_pokerstars(f"{header} - {WHEN}\n" + PS_BODY.format(kind=kind))


def units(hand: Hand) -> tuple[str | None, str | None, str | None, str]:
    return hand.site, hand.game_type, hand.currency, unit_of(hand)


@pytest.mark.parametrize(("header", "kind", "expected"), [
    ("PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD)", "", ("PokerStars", "cash", "USD", "USD")),
    ("PokerStars Hand #2:  Hold'em No Limit (\u20ac1/\u20ac2)", "", ("PokerStars", "cash", "EUR", "EUR")),
    ("PokerStars Hand #3:  Hold'em No Limit (\u00a31/\u00a32 GBP)", "", ("PokerStars", "cash", "GBP", "GBP")),
    ("PokerStars Hand #4:  Hold'em No Limit (1/2)", " (Play Money)", ("PokerStars", "cash", "play", "play")),
    ("POKERSTARS Hand #5:  Hold'em No Limit (1/2)", "", ("PokerStars", "cash", "play", "play")),
    ("PokerStars Home Game Hand #6: {Club}  Hold'em No Limit (1/2)", " (Play Money)",
     ("PokerStars", "home_game", "play", "play")),
    ("Full Tilt Rush Hand #7:  Hold'em No Limit ($1/$2)", "", ("Full Tilt", "cash", "USD", "USD")),
    ("Run It Once Poker Hand #8:  Hold'em No Limit (\ufffd1/\ufffd2)", "",
     ("Run It Once", "cash", None, "chips")),
    ("PokerStars Hand #9: Tournament #2475523986, \u20b9136.50+\u20b913.50 INR Hold'em No Limit - "
     "Level I (1/2)", "", ("PokerStars", "tournament", "INR", "T:PokerStars:2475523986")),
    ("PokerStars Hand #10: Tournament #11, 300+20 Hold'em No Limit - Level I (1/2)", "",
     ("PokerStars", "tournament", "play", "T:PokerStars:11")),
    ("PokerStars Hand #11: Tournament #12, Freeroll  Hold'em No Limit - Level I (1/2)", "",
     ("PokerStars", "tournament", None, "T:PokerStars:12")),
    ("PokerStars Hand #12: Tournament #13, 250 SC Hold'em No Limit - Level I (1/2)", "",
     ("PokerStars", "tournament", None, "T:PokerStars:13")),
    ("PokerStars Hand #13: Tournament #14, 1FPP Hold'em No Limit - Level I (1/2)", "",
     ("PokerStars", "tournament", None, "T:PokerStars:14")),
    ("PokerStars Home Game Hand #14: {Club} Tournament #15, 100+9 Hold'em No Limit - Level I (1/2)", "",
     ("PokerStars", "tournament", "play", "T:PokerStars:15")),
])  # fmt: skip
def test_pokerstars_headers_give_the_unit(header: str, kind: str,
                                          expected: tuple[str | None, str | None, str | None, str]) -> None:
    assert units(ps_hand(header, kind)) == expected


def test_the_same_tournament_number_on_two_sites_is_two_units() -> None:
    stars = ps_hand("PokerStars Hand #1: Tournament #7, $10+$1 USD Hold'em No Limit - Level I (1/2)")
    tilt = ps_hand("Full Tilt Hand #1: Tournament #7, $10+$1 USD Hold'em No Limit - Level I (1/2)")
    assert unit_of(stars) != unit_of(tilt)
    assert unit_label(unit_of(stars)) == "T chips of PokerStars #7"


PHH = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AcAd", "d dh p2 7h6h", "p2 cbr 6", "p1 f"]
players = ["Ann", "Bo"]
"""


@pytest.mark.parametrize(("extra", "expected"), [
    ('venue = "The Card Room"\ncurrency = "USD"\n', ("The Card Room", "cash", "USD", "USD")),
    ('event = "2019 WSOP Event #58"\n', (None, "tournament", None, "T::2019 WSOP Event #58")),
    ('event = "Million Dollar Cash Game"\ncurrency = "USD"\n', (None, "cash", "USD", "USD")),
    ("", (None, "cash", None, "chips")),
    ('_barge_game = "sit_and_go"\n_barge_tournament = "88"\n_barge_currency = "play"\n',
     (None, "sit_and_go", "play", "T::88")),
])  # fmt: skip
def test_phh_fields_give_the_unit(extra: str,
                                  expected: tuple[str | None, str | None, str | None, str]) -> None:
    assert units(parse_phh(PHH + extra)) == expected


def test_phh_rejects_an_unknown_game_type() -> None:
    with pytest.raises(HandSyntaxError, match="unknown game type"):
        parse_phh(PHH + '_barge_game = "ring"\n')


NATIVE = """BARGE Hand #N1: texas_holdem no-limit (blinds 1/2)
{lines}Seat 1: Ann (200 in chips)
Seat 2: Bo (200 in chips)
Ann: posts small blind 1
Bo: posts big blind 2
*** HOLE CARDS ***
Ann: raises 4 to 6
Bo: folds
Uncalled bet (4) returned to Ann
Ann collected 4 from pot
"""


@pytest.mark.parametrize(("lines", "expected"), [
    ("", (None, "cash", None, "chips")),
    ("Tournament: 77\n", (None, "tournament", None, "T::77")),
    ("Site: The Card Room\nCurrency: GBP\n", ("The Card Room", "cash", "GBP", "GBP")),
    ("Site: BARGE\nGame: home_game\nCurrency: play\n", ("BARGE", "home_game", "play", "play")),
    ("Event: Summer Classic\nSite: Bellagio\nGame: live_event\n",
     ("Bellagio", "live_event", None, "T:Bellagio:Summer Classic")),
    ("Tournament: 5\nSite: BARGE\nGame: sit_and_go\nCurrency: USD\n",
     ("BARGE", "sit_and_go", "USD", "T:BARGE:5")),
])  # fmt: skip
def test_native_lines_give_the_unit_and_round_trip(
        lines: str, expected: tuple[str | None, str | None, str | None, str]) -> None:
    hand = parse_hand(NATIVE.format(lines=lines))
    assert units(hand) == expected
    assert parse_hand(write_hand(hand)) == hand
    assert parse_phh(hand_to_phh(hand)) == hand


@pytest.mark.parametrize(("line", "message"), [
    ("Game: ring\n", "unknown game type 'ring'"),
    ("Currency: dollars\n", "neither an ISO 4217 code"),
])
def test_native_lines_with_bad_values_say_where(line: str, message: str) -> None:
    with pytest.raises(HandSyntaxError, match=message) as caught:
        parse_hand(NATIVE.format(lines=line))
    assert (caught.value.line, caught.value.column) == (2, line.index(":") + 3)


@pytest.mark.parametrize("header", [
    "PokerStars Hand #4:  Hold'em No Limit (1/2)",
    "PokerStars Hand #9: Tournament #2475523986, \u20b9136.50+\u20b913.50 INR Hold'em No Limit - "
    "Level I (1/2)",
    "PokerStars Home Game Hand #6: {Club}  Hold'em No Limit (1/2)",
])
def test_the_writers_give_a_pokerstars_hands_unit_back(header: str) -> None:
    hand = ps_hand(header)
    assert units(parse_hand(write_hand(hand))) == units(hand)
    assert units(parse_phh(hand_to_phh(hand))) == units(hand)


# ---- the shared PokerStars corpus ---------------------------------------------------------------


def corpus_db(tmp_path: Path, *paths: Path) -> Path:
    if not PS_CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {PS_CORPUS}")
    db = tmp_path / "units.duckdb"
    assert main(["ingest", *map(str, paths), "--db", str(db), "--json", "--jobs", "1"]) in (0, 1)
    return db


def test_every_corpus_hand_has_a_unit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = corpus_db(tmp_path, PS_CORPUS)
    capsys.readouterr()
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM hands WHERE unit IS NULL OR game_type IS NULL "
                           "OR site IS NULL").fetchall() == [(0,)]
        rows = dict(con.execute("SELECT hand_id, [site, game_type, currency, unit] FROM hands WHERE hand_id "
                                "IN ('PS-194396658766', 'PS-74151663721', 'PS-35602019775', "
                                "'PS-74655014750')").fetchall())
    assert rows == {
        "PS-194396658766": ["PokerStars", "tournament", "INR", "T:PokerStars:2475523986"],
        "PS-74151663721": ["PokerStars", "cash", "play", "play"],
        "PS-35602019775": ["PokerStars", "cash", "EUR", "EUR"],
        "PS-74655014750": ["PokerStars", "home_game", "play", "play"],
    }


def test_barge_stats_never_adds_two_units(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Over the samples and the PokerStars corpus: one row per (site, player, unit), and each row's
    net is exactly the sum over that player's hands in that unit alone."""
    db = corpus_db(tmp_path, PS_CORPUS, *sample_files())
    capsys.readouterr()
    assert main(["stats", "--db", str(db), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    with duckdb.connect(str(db), read_only=True) as con:
        nets = {(site, player, unit): float(net) for site, player, unit, net in con.execute(
            "SELECT h.site, s.player, h.unit, sum(s.ending_stack - s.starting_stack) FROM seats s "
            "JOIN hands h USING (hand_id) WHERE NOT s.sitting_out GROUP BY ALL").fetchall()}
        players_in_two_units = con.execute(
            "SELECT count(*) FROM (SELECT h.site, s.player FROM seats s JOIN hands h USING (hand_id) "
            "GROUP BY ALL HAVING count(DISTINCT h.unit) > 1)").fetchall()[0][0]
    assert players_in_two_units > 0  # the database does hold a player with two units
    assert len(rows) == len(nets)
    for row in rows:
        key = (row["site"], row["player"], row["unit"])
        assert row["net"] == pytest.approx(nets[key]), key
        assert row["units"] == {"net": row["unit"], "allin_adjusted_net": row["unit"],
                                "net_bb_per_100": "bb/100"}
        assert row["unit_label"] == unit_label(row["unit"])


def test_barge_stats_filters_and_names_the_unit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = corpus_db(tmp_path, PS_CORPUS)
    capsys.readouterr()
    assert main(["stats", "--db", str(db), "--json", "--currency", "EUR", "--game-type", "cash"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and {r["unit"] for r in rows} == {"EUR"}
    assert main(["stats", "--db", str(db), "--json", "--site", "Full Tilt"]) == 0
    assert {r["site"] for r in json.loads(capsys.readouterr().out)} == {"Full Tilt"}
    assert main(["stats", "--db", str(db), "--unit", "T:PokerStars:2475523986"]) == 0
    out = capsys.readouterr().out
    assert "T chips of PokerStars #2475523986" in out and "│ $ " not in out


# ---- an old database ----------------------------------------------------------------------------


def test_an_old_database_gains_the_unit_columns_on_open(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "cash.txt").write_text(f"PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD) - {WHEN}\n"
                                     + PS_BODY.format(kind=""), encoding="utf-8")
    (folder / "t.bhh").write_text(NATIVE.format(lines="Tournament: 77\n"), encoding="utf-8")
    db = tmp_path / "old.duckdb"
    assert main(["ingest", str(folder), "--db", str(db), "--json"]) == 0
    capsys.readouterr()
    with duckdb.connect(str(db)) as con:  # as an earlier version wrote it
        for column in ("site", "game_type", "currency", "unit"):
            con.execute(f"ALTER TABLE hands DROP COLUMN {column}")
    assert main(["stats", "--db", str(db)]) == 3  # read-only: told to open it for writing
    assert "before hands had units" in capsys.readouterr().err
    with Store(db) as store:
        rows = store.con.execute("SELECT hand_id, site, game_type, currency, unit FROM hands "
                                 "ORDER BY hand_id").fetchall()
    assert rows == [("N1", None, "tournament", None, "T::77"), ("PS-1", "PokerStars", "cash", "USD", "USD")]
    assert main(["stats", "--db", str(db), "--json"]) == 0
    assert {r["unit"] for r in json.loads(capsys.readouterr().out)} == {"USD", "T::77"}
    with duckdb.connect(str(db), read_only=True) as con:  # and the Parquet export carries them
        export_parquet(con, tmp_path / "out")
        exported = con.execute(f"SELECT hand_id, site, game_type, currency, unit FROM read_parquet("
                               f"'{tmp_path / 'out'}/hands/**/*.parquet') ORDER BY hand_id").fetchall()
    assert exported == rows
