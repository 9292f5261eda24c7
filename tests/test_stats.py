"""Player statistics checked against values worked out by hand on small hand sets (a flop game, a
stud game and a draw game), the filters, the awards' origin, and `barge stats`.

The hands below are legal under the rulebook (the audit finds nothing in them); the comments of
each test say how its numbers come from them.
"""

from __future__ import annotations

import datetime
import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from pipeline.cli import main
from pipeline.schema import FACTS_TABLE
from pipeline.stats import (
    Filters,
    player_hands,
    player_stats,
    refresh_facts,
    stat_columns,
    stats_by,
)
from tests.conftest import sample_files

FLOP = """\
BARGE Hand #T-F1: texas_holdem no-limit (blinds 50/100) - 2025-07-01 10:00:00
Event: Flop Event
Table 'A' 6-max Seat #4 is the button
Seat 1: Ann (10,000 in chips)
Seat 2: Bo (10,000 in chips)
Seat 3: Cy (10,000 in chips)
Seat 4: Di (10,000 in chips)
Ann: posts small blind 50
Bo: posts big blind 100
*** HOLE CARDS ***
Cy: raises 200 to 300
Di: raises 600 to 900
Ann: folds
Bo: folds
Cy: calls 600
*** FLOP *** [Kd 7s 2c]
Cy: checks
Di: bets 1,000
Cy: calls 1,000
*** TURN *** [4h]
Cy: checks
Di: checks
*** RIVER *** [9c]
Cy: bets 2,000
Di: folds
Uncalled bet (2,000) returned to Cy
Cy collected 3,950 from pot
*** SUMMARY ***
Total pot 3,950 | Rake 0

BARGE Hand #T-F2: texas_holdem no-limit (blinds 50/100) - 2025-07-01 10:05:00
Event: Flop Event
Table 'A' 6-max Seat #1 is the button
Seat 1: Ann (9,950 in chips)
Seat 2: Bo (9,900 in chips)
Seat 3: Cy (12,050 in chips)
Seat 4: Di (8,100 in chips)
Bo: posts small blind 50
Cy: posts big blind 100
*** HOLE CARDS ***
Di: calls 100
Ann: raises 300 to 400
Bo: folds
Cy: folds
Di: calls 300
*** FLOP *** [Ah 9h Kc]
Di: checks
Ann: checks
*** TURN *** [8d]
Di: bets 1,000
Ann: raises 1,500 to 2,500
Di: calls 1,500
*** RIVER *** [3h]
Di: checks
Ann: bets 3,000
Di: calls 3,000
*** SHOWDOWN ***
Ann: shows [Ac Td] (a pair of Aces)
Di: shows [5h 4h] (a flush, Ace high)
Di collected 11,950 from pot
*** SUMMARY ***
Total pot 11,950 | Rake 0

BARGE Hand #T-F3: texas_holdem no-limit (blinds 50/100) - 2025-07-02 11:00:00
Event: Flop Event
Table 'B' 6-max Seat #2 is the button
Seat 1: Ann (4,050 in chips)
Seat 2: Bo (9,850 in chips)
Seat 3: Cy (11,950 in chips)
Seat 4: Di (14,150 in chips)
Cy: posts small blind 50
Di: posts big blind 100
*** HOLE CARDS ***
Ann: raises 200 to 300
Bo: folds
Cy: folds
Di: calls 200
*** FLOP *** [Ah 9h Kc]
Di: checks
Ann: checks
*** TURN *** [8d]
Di: bets 500
Ann: raises 3,250 to 3,750 and is all-in
Di: calls 3,250
*** RIVER *** [3h]
*** SHOWDOWN ***
Ann: shows [Ac Td] (a pair of Aces)
Di: shows [5h 4h] (a flush, Ace high)
Di collected 8,150 from pot
*** SUMMARY ***
Total pot 8,150 | Rake 0
"""

STUD = """\
BARGE Hand #T-S1: stud limit (ante 10, bring-in 10, bets 40/80) - 2025-07-03 12:00:00
Event: Stud Event
Table 'C' 8-max
Seat 1: Ann (1,000 in chips)
Seat 2: Bo (1,000 in chips)
Seat 3: Cy (1,000 in chips)
Ann: posts the ante 10
Bo: posts the ante 10
Cy: posts the ante 10
*** 3RD STREET ***
Dealt to Ann [?? ??] up [Kd]
Dealt to Bo [?? ??] up [3c]
Dealt to Cy [?? ??] up [9s]
Bo: brings in for 10
Cy: completes to 40
Ann: calls 40
Bo: folds
*** 4TH STREET ***
Dealt to Ann up [2h]
Dealt to Cy up [Jc]
Ann: checks
Cy: bets 40
Ann: folds
Uncalled bet (40) returned to Cy
Cy collected 120 from pot
*** SUMMARY ***
Total pot 120 | Rake 0

BARGE Hand #T-S2: stud limit (ante 10, bring-in 10, bets 40/80) - 2025-07-03 12:10:00
Event: Stud Event
Table 'C' 8-max
Seat 1: Ann (950 in chips)
Seat 2: Bo (980 in chips)
Seat 3: Cy (330 in chips)
Ann: posts the ante 10
Bo: posts the ante 10
Cy: posts the ante 10
*** 3RD STREET ***
Dealt to Ann [?? ??] up [Ad]
Dealt to Bo [?? ??] up [Tc]
Dealt to Cy [Kh Qh] up [8h]
Cy: brings in for 10
Ann: completes to 40
Bo: folds
Cy: calls 30
*** 4TH STREET ***
Dealt to Ann up [7d]
Dealt to Cy up [3h]
Ann: bets 40
Cy: calls 40
*** 5TH STREET ***
Dealt to Ann up [4s]
Dealt to Cy up [5c]
Ann: bets 80
Cy: calls 80
*** 6TH STREET ***
Dealt to Ann up [2c]
Dealt to Cy up [6d]
Ann: bets 80
Cy: raises 80 to 160 and is all-in
Ann: calls 80
*** 7TH STREET ***
Dealt to Ann [??]
Dealt to Cy [9h]
*** SHOWDOWN ***
Ann: shows [As 9c Ad 7d 4s 2c Jc] (a pair of Aces)
Cy: shows [Kh Qh 8h 3h 5c 6d 9h] (a flush, King high)
Cy collected 670 from pot
*** SUMMARY ***
Total pot 670 | Rake 0
"""

# Edge cases: a limped pot whose big blind checks (not voluntary), a bet into the pre-flop raiser
# (no c-bet chance for him, nothing to fold to), a walk (no decision at all), a c-bet raised before
# a player acts (no fold-to-c-bet chance for him).
OMAHA = """\
BARGE Hand #T-O1: omaha pot-limit (blinds 50/100) - 2025-07-05 09:00:00
Event: Omaha Event
Table 'O' 6-max Seat #1 is the button
Seat 1: Ann (5,000 in chips)
Seat 2: Bo (5,000 in chips)
Seat 3: Cy (5,000 in chips)
Bo: posts small blind 50
Cy: posts big blind 100
*** HOLE CARDS ***
Ann: calls 100
Bo: calls 50
Cy: checks
*** FLOP *** [Qc 8d 3s]
Bo: checks
Cy: bets 300
Ann: folds
Bo: calls 300
*** TURN *** [5h]
Bo: checks
Cy: checks
*** RIVER *** [Jd]
Bo: bets 300
Cy: folds
Uncalled bet (300) returned to Bo
Bo collected 900 from pot
*** SUMMARY ***
Total pot 900 | Rake 0

BARGE Hand #T-O2: omaha pot-limit (blinds 50/100) - 2025-07-05 09:05:00
Event: Omaha Event
Table 'O' 6-max Seat #2 is the button
Seat 1: Ann (5,000 in chips)
Seat 2: Bo (5,000 in chips)
Seat 3: Cy (5,000 in chips)
Cy: posts small blind 50
Ann: posts big blind 100
*** HOLE CARDS ***
Bo: raises 250 to 350
Cy: calls 300
Ann: calls 250
*** FLOP *** [Ac 7d 2h]
Cy: bets 500
Ann: folds
Bo: calls 500
*** TURN *** [9s]
Cy: checks
Bo: checks
*** RIVER *** [4c]
Cy: checks
Bo: checks
*** SHOWDOWN ***
Cy: shows [Ah Ad Ks Qs] (three of a kind, Aces)
Bo: shows [Kh Kd Jc Tc] (a pair of Kings)
Cy collected 2,050 from pot
*** SUMMARY ***
Total pot 2,050 | Rake 0

BARGE Hand #T-O3: omaha pot-limit (blinds 50/100) - 2025-07-05 09:10:00
Event: Omaha Event
Table 'O' 6-max Seat #3 is the button
Seat 1: Ann (5,000 in chips)
Seat 2: Bo (5,000 in chips)
Seat 3: Cy (5,000 in chips)
Ann: posts small blind 50
Bo: posts big blind 100
*** HOLE CARDS ***
Cy: folds
Ann: folds
Uncalled bet (50) returned to Bo
Bo collected 100 from pot
*** SUMMARY ***
Total pot 100 | Rake 0

BARGE Hand #T-O4: omaha pot-limit (blinds 50/100) - 2025-07-05 09:15:00
Event: Omaha Event
Table 'O' 6-max Seat #1 is the button
Seat 1: Ann (5,000 in chips)
Seat 2: Bo (5,000 in chips)
Seat 3: Cy (5,000 in chips)
Bo: posts small blind 50
Cy: posts big blind 100
*** HOLE CARDS ***
Ann: calls 100
Bo: raises 300 to 400
Cy: calls 300
Ann: calls 300
*** FLOP *** [Ts 6c 2d]
Bo: bets 600
Cy: raises 600 to 1,200
Ann: folds
Bo: calls 600
*** TURN *** [Kh]
Bo: checks
Cy: bets 1,000
Bo: folds
Uncalled bet (1,000) returned to Cy
Cy collected 3,600 from pot
*** SUMMARY ***
Total pot 3,600 | Rake 0
"""

DRAW = """\
BARGE Hand #T-D1: deuce_to_seven_triple_draw limit (blinds 50/100, bets 100/200) - 2025-07-04 20:14:09
Event: Draw Event
Table '1' 6-max Seat #1 is the button
Seat 1: Ann (3,000 in chips)
Seat 2: Bo (3,000 in chips)
Seat 3: Cy (3,000 in chips)
Bo: posts small blind 50
Cy: posts big blind 100
*** HOLE CARDS ***
Dealt to Ann [?? ?? ?? ?? ??]
Dealt to Bo [?? ?? ?? ?? ??]
Dealt to Cy [7h 4c 2d Kh Qd]
Ann: raises 100 to 200
Bo: folds
Cy: calls 100
*** FIRST DRAW ***
Cy: discards [Kh Qd] and draws [6d 9c]
Ann: discards 1 and draws [??]
Cy: checks
Ann: bets 100
Cy: calls 100
*** SECOND DRAW ***
Cy: discards [9c] and draws [3s]
Ann: stands pat
Cy: checks
Ann: bets 200
Cy: raises 200 to 400
Ann: calls 200
*** THIRD DRAW ***
Cy: stands pat
Ann: discards 1 and draws [??]
Cy: bets 200
Ann: folds
Uncalled bet (200) returned to Cy
Cy collected 1,450 from pot
*** SUMMARY ***
Total pot 1,450 | Rake 0

BARGE Hand #T-D2: deuce_to_seven_triple_draw limit (blinds 50/100, bets 100/200) - 2025-07-04 20:20:00
Event: Draw Event
Table '1' 6-max Seat #2 is the button
Seat 1: Ann (2,300 in chips)
Seat 2: Bo (2,950 in chips)
Seat 3: Cy (300 in chips)
Cy: posts small blind 50
Ann: posts big blind 100
*** HOLE CARDS ***
Dealt to Cy [7h 5c 4d 3s 2h]
Dealt to Ann [Kd Qc 8s 6h 2d]
Bo: folds
Cy: raises 100 to 200
Ann: raises 100 to 300
Cy: calls 100 and is all-in
*** FIRST DRAW ***
Cy: stands pat
Ann: discards [Kd Qc] and draws [7d 4c]
*** SECOND DRAW ***
Cy: stands pat
Ann: discards [8s] and draws [5s]
*** THIRD DRAW ***
Cy: stands pat
Ann: stands pat
*** SHOWDOWN ***
Cy: shows [7h 5c 4d 3s 2h] (7-5-4-3-2)
Ann: shows [7d 6h 5s 4c 2d] (7-6-5-4-2)
Cy collected 600 from pot
*** SUMMARY ***
Total pot 600 | Rake 0
"""


@pytest.fixture(scope="module")
def built_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stats")
    for name, text in (("flop.bhh", FLOP), ("stud.bhh", STUD), ("draw.bhh", DRAW), ("omaha.bhh", OMAHA)):
        (folder / name).write_text(text, encoding="utf-8")
    db = folder / "stats.duckdb"
    assert main(["ingest", str(folder), "--db", str(db), "--json"]) == 0
    return db


@pytest.fixture
def con(built_db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect(str(built_db), read_only=True)
    yield connection
    connection.close()


def by_player(frame: pl.DataFrame) -> dict[str, dict[str, Any]]:
    return {row["player"]: row for row in frame.to_dicts()}


def check(row: dict[str, Any], expected: dict[str, float | None]) -> None:
    for key, value in expected.items():
        if value is None:
            assert row[key] is None, key
        else:
            assert row[key] == pytest.approx(value), key


def test_the_test_hands_are_legal(con: duckdb.DuckDBPyConnection) -> None:
    assert con.execute("SELECT count(*) FROM hands").fetchall() == [(11,)]
    assert con.execute("SELECT count(*) FROM findings").fetchall() == [(0,)]


# T-F3: all in on the turn, AcTd against 5h4h on Ah 9h Kc 8d: the flush comes on 9 of 44 rivers.
# The pot is 8,150 (Cy's dead small blind and 4,050 from each); the river did bring a heart.
F3_ANN = 8150 * 35 / 44 - 4050
F3_DI = 8150 * 9 / 44 - 4050


def test_flop_game(con: duckdb.DuckDBPyConnection) -> None:
    stats = by_player(player_stats(con, Filters(variant="texas_holdem")))
    # Ann: folds the SB to a 3-bet (F1: no 3-bet chance at level 2), opens F2 and F3; checks the
    # flop as the raiser twice (c-bet 0 of 2); after the flop she raises F2's turn, bets its river
    # and raises F3's turn: 3 aggressive actions, no call, no fold; loses both showdowns.
    check(stats["Ann"], {
        "hands": 3, "vpip": 200 / 3, "pfr": 200 / 3, "three_bet": None, "fold_to_three_bet": None,
        "cbet": 0.0, "fold_to_cbet": None, "af": None, "afq": 100.0, "wtsd": 100.0, "wsd": 0.0,
        "wwsd": None, "wwsf": 0.0, "net": -10_000, "net_bb_per_100": -10_000 / 3,
        "allin_adjusted_net": -50 - 5900 + F3_ANN, "allin_adjusted_hands": 1,
    })
    # Bo: three folds; two of them facing one raise (F2, F3).
    check(stats["Bo"], {
        "hands": 3, "vpip": 0.0, "pfr": 0.0, "three_bet": 0.0, "cbet": None, "af": None, "afq": None,
        "wtsd": None, "wsd": None, "net": -150, "net_bb_per_100": -50.0, "allin_adjusted_net": -150,
    })
    # Cy: opens F1 and calls the 3-bet (fold to 3-bet 0 of 1), calls the c-bet (0 of 1), bets the
    # river: AF 1/1, AFq 1/2; wins F1 without showdown; folds the blinds to one raise twice.
    check(stats["Cy"], {
        "hands": 3, "vpip": 100 / 3, "pfr": 100 / 3, "three_bet": 0.0, "fold_to_three_bet": 0.0,
        "cbet": None, "fold_to_cbet": 0.0, "af": 1.0, "afq": 50.0, "wtsd": 0.0, "wsd": None,
        "wwsd": 100.0, "wwsf": 100.0, "net": 1900, "net_bb_per_100": 1900 / 3,
    })
    # Di: 3-bets F1 and c-bets; limps and calls F2, calls F3: VPIP 3/3, PFR and 3-bet 1/3.
    # After the flop: bet, fold (F1); bet, call, call (F2); bet, call (F3): AF 3/3, AFq 3/7.
    check(stats["Di"], {
        "hands": 3, "vpip": 100.0, "pfr": 100 / 3, "three_bet": 100 / 3, "fold_to_three_bet": None,
        "cbet": 100.0, "fold_to_cbet": None, "af": 1.0, "afq": 300 / 7, "wtsd": 200 / 3, "wsd": 100.0,
        "wwsd": 0.0, "wwsf": 200 / 3, "net": 8250, "net_bb_per_100": 2750.0,
        "allin_adjusted_net": -1900 + 6050 + F3_DI, "allin_adjusted_hands": 1,
    })


# T-S2: all in on 6th street, the aces against four hearts: 9 hearts among the 39 cards nobody has
# seen (Bo's Tc is out), one 7th-street card each. The pot is 670; each put in 330.
S2_ANN = 670 * 30 / 39 - 330
S2_CY = 670 * 9 / 39 - 330


def test_stud_game(con: duckdb.DuckDBPyConnection) -> None:
    stats = by_player(player_stats(con, Filters(variant="stud")))
    # Ann: calls Cy's completion (S1: a 3-bet chance, not taken), folds to his 4th-street c-bet;
    # completes S2 and bets 4th (c-bet), 5th and 6th, calls the raise: AF 3/1, AFq 3/5.
    check(stats["Ann"], {
        "hands": 2, "vpip": 100.0, "pfr": 50.0, "three_bet": 0.0, "fold_to_three_bet": None,
        "cbet": 100.0, "fold_to_cbet": 100.0, "af": 3.0, "afq": 60.0, "wtsd": 50.0, "wsd": 0.0,
        "wwsd": 0.0, "net": -380, "net_bb_per_100": -380 / 80 / 2 * 100,
        "allin_adjusted_net": -50 + S2_ANN, "allin_adjusted_hands": 1,
    })
    # Bo: brings in (not voluntary) and folds to the completion, twice.
    check(stats["Bo"], {"hands": 2, "vpip": 0.0, "pfr": 0.0, "three_bet": 0.0, "cbet": None, "net": -30})
    # Cy: completes S1 and c-bets 4th; calls S2's completion from the bring-in, calls 4th and 5th,
    # raises 6th all in: AF 2/2, AFq 2/4; wins S1 without showdown and S2 at it.
    check(stats["Cy"], {
        "hands": 2, "vpip": 100.0, "pfr": 50.0, "three_bet": 0.0, "cbet": 100.0, "fold_to_cbet": 0.0,
        "af": 1.0, "afq": 50.0, "wtsd": 50.0, "wsd": 100.0, "wwsd": 100.0, "net": 410,
        "net_bb_per_100": 410 / 80 / 2 * 100, "allin_adjusted_net": 70 + S2_CY, "allin_adjusted_hands": 1,
    })


def test_draw_game(con: duckdb.DuckDBPyConnection) -> None:
    stats = by_player(player_stats(con, Filters(variant="deuce_to_seven_triple_draw")))
    # Ann: opens D1 and bets after the first draw (a c-bet), bets, calls the raise, folds the last
    # round; 3-bets D2 all in before the draw: draws are still to come, so no adjustment.
    check(stats["Ann"], {
        "hands": 2, "vpip": 100.0, "pfr": 100.0, "three_bet": 100.0, "cbet": 100.0, "fold_to_cbet": None,
        "af": 2.0, "afq": 50.0, "wtsd": 50.0, "wsd": 0.0, "wwsd": 0.0, "net": -1000,
        "net_bb_per_100": -250.0, "allin_adjusted_net": -1000, "allin_adjusted_hands": 0,
    })
    # Cy: calls D1's open, calls the c-bet, raises, bets; opens D2 and calls the 3-bet all in.
    check(stats["Cy"], {
        "hands": 2, "vpip": 100.0, "pfr": 50.0, "three_bet": 0.0, "fold_to_three_bet": 0.0, "cbet": None,
        "fold_to_cbet": 0.0, "af": 2.0, "afq": 200 / 3, "wtsd": 50.0, "wsd": 100.0, "wwsd": 100.0,
        "net": 1050, "allin_adjusted_net": 1050, "allin_adjusted_hands": 0,
    })
    # Bo: folds D1 to the open (a 3-bet chance), folds D2 first in (none).
    check(stats["Bo"], {"hands": 2, "vpip": 0.0, "three_bet": 0.0, "net": -50})


def test_limped_pots_bets_into_the_raiser_walks_and_raised_cbets(con: duckdb.DuckDBPyConnection) -> None:
    stats = by_player(player_stats(con, Filters(variant="omaha")))
    # Ann: limps O1 and O4, calls O2's raise and O4's (two 3-bet chances), folds O3's small blind
    # first in; folds to Cy's flop bets in O1 and O2 (not c-bets) and to O4's c-bet once Cy has
    # raised it (not a fold to a c-bet either): three folds after the first round, nothing else.
    check(stats["Ann"], {
        "hands": 4, "vpip": 75.0, "pfr": 0.0, "three_bet": 0.0, "cbet": None, "fold_to_cbet": None,
        "af": None, "afq": 0.0, "wtsd": 0.0, "wsd": None, "wwsd": 0.0, "net": -900,
    })
    # Bo: completes the small blind in O1, raises O2 and O4, gets a walk in O3 (no decision: 3
    # chances); in O2 Cy bets into him before he acts on the flop (no c-bet chance), in O4 he
    # c-bets. After the first round: bet and call (O1), call (O2), bet, call and fold (O4).
    check(stats["Bo"], {
        "hands": 4, "vpip": 100.0, "pfr": 200 / 3, "three_bet": None, "cbet": 100.0, "af": 2 / 3,
        "afq": 100 / 3, "wtsd": 100 / 3, "wsd": 0.0, "wwsd": 50.0, "net": -1900, "net_bb_per_100": -475.0,
    })
    # Cy: checks his big blind in O1 (not voluntary), calls O2's and O4's raises, folds O3 first in;
    # raises O4's c-bet (fold to c-bet 0 of 1) and bets the turn.
    check(stats["Cy"], {
        "hands": 4, "vpip": 50.0, "pfr": 0.0, "three_bet": 0.0, "cbet": None, "fold_to_cbet": 0.0,
        "af": None, "afq": 80.0, "wtsd": 100 / 3, "wsd": 100.0, "wwsd": 50.0, "net": 2800,
    })


def test_every_player_every_game(con: duckdb.DuckDBPyConnection) -> None:
    stats = player_stats(con)
    assert stats.columns == stat_columns()
    assert stats["player"].to_list() == ["Ann", "Bo", "Cy", "Di"]  # most hands first, then by name
    rows = by_player(stats)
    assert rows["Ann"]["hands"] == 11 and rows["Di"]["hands"] == 3
    assert rows["Ann"]["net"] == pytest.approx(-10_000 - 380 - 1000 - 900)
    assert rows["Ann"]["allin_adjusted_net"] == pytest.approx(
        -10_000 - 380 - 1000 - 900 + (F3_ANN + 4050) + (S2_ANN + 330))


def test_stats_by_variant(con: duckdb.DuckDBPyConnection) -> None:
    frame = stats_by(con, Filters(player="Ann"), "variant")
    assert frame.columns[:4] == ["variant", "site", "player", "unit"]
    nets = dict(zip(frame["variant"].to_list(), frame["net"].to_list(), strict=True))
    assert nets == {"deuce_to_seven_triple_draw": -1000, "omaha": -900, "stud": -380, "texas_holdem": -10_000}


def test_stats_by_position(con: duckdb.DuckDBPyConnection) -> None:
    # F1: Di on the button; F2: four-handed, Di two before the button (CO); F3: Di in the big blind.
    frame = stats_by(con, Filters(player="Di"), "position")
    assert {r["position"]: r["net"] for r in frame.to_dicts()} == {"BTN": -1900, "CO": 6050, "BB": 4100}
    stud = stats_by(con, Filters(variant="stud"), "position")
    assert set(stud["position"].to_list()) == {"no button"}
    with pytest.raises(ValueError, match="variant or position"):
        stats_by(con, Filters(), "table")


def test_player_hands_run_in_time_order_with_running_totals(con: duckdb.DuckDBPyConnection) -> None:
    hands = player_hands(con, Filters(player="Ann", date_to=datetime.date(2025, 7, 4)))
    assert hands["hand_id"].to_list() == ["T-F1", "T-F2", "T-F3", "T-S1", "T-S2", "T-D1", "T-D2"]
    assert hands["hand_number"].to_list() == list(range(1, 8))
    assert hands["net"].to_list() == [-50, -5900, -4050, -50, -330, -700, -300]
    assert hands["allin_adjusted"].to_list() == [False, False, True, False, True, False, False]
    assert hands["cum_net"].to_list()[-1] == pytest.approx(-11_380)
    assert hands["cum_allin_adjusted_net"].to_list()[2] == pytest.approx(-50 - 5900 + F3_ANN)
    assert hands["cum_allin_adjusted_net"].to_list()[-1] == pytest.approx(
        -11_380 + (F3_ANN + 4050) + (S2_ANN + 330))
    everyone = player_hands(con)
    assert everyone.height == 3 * 4 + 2 * 3 + 2 * 3 + 4 * 3
    assert everyone["started_at"].is_sorted()
    assert (everyone.group_by("player").agg(pl.len() == pl.col("hands").first())["len"]).all()


def test_a_chart_of_many_hands_gets_every_kth_and_the_last_with_totals_of_all(
        con: duckdb.DuckDBPyConnection) -> None:
    ann = Filters(player="Ann", date_to=datetime.date(2025, 7, 4))
    every = player_hands(con, ann)
    drawn = player_hands(con, ann, points=3)  # 7 hands, 3 points: every 3rd and the last
    assert drawn["hand_number"].to_list() == [1, 4, 7]
    kept = every.filter(pl.col("hand_number").is_in([1, 4, 7]))
    assert drawn.select("hand_id", "cum_net", "cum_allin_adjusted_net").equals(
        kept.select("hand_id", "cum_net", "cum_allin_adjusted_net"))
    assert player_hands(con, ann, points=100).equals(every)


@pytest.mark.parametrize(("filters", "ann_hands"), [
    (Filters(date_from=datetime.date(2025, 7, 2), date_to=datetime.date(2025, 7, 3)), 3),
    (Filters(date_to=datetime.date(2025, 7, 1)), 2),
    (Filters(date_from=datetime.date(2025, 7, 5)), 4),
    (Filters(date_from=datetime.date(2025, 7, 6)), 0),
    (Filters(table="A"), 2),
    (Filters(table="C", variant="stud"), 2),
    (Filters(structure="limit"), 4),
    (Filters(structure="no-limit", event="Flop Event"), 3),
    (Filters(event="Draw Event"), 2),
    (Filters(player="Ann"), 11),
    (Filters(player="Di"), 0),
])  # fmt: skip
def test_filters(con: duckdb.DuckDBPyConnection, filters: Filters, ann_hands: int) -> None:
    rows = by_player(player_stats(con, filters))
    assert rows.get("Ann", {"hands": 0})["hands"] == ann_hands
    if filters.player is not None:
        assert set(rows) <= {filters.player}


def test_user_text_is_a_parameter_not_sql(con: duckdb.DuckDBPyConnection) -> None:
    for text in ("Ann' OR '1'='1", "x'; DROP TABLE hands; --"):
        frame = player_stats(con, Filters(player=text, event=text))
        assert frame.height == 0 and frame.columns == stat_columns()
    assert con.execute("SELECT count(*) FROM hands").fetchall() == [(11,)]


def _copy(built_db: Path, tmp_path: Path) -> Path:
    db = tmp_path / "copy.duckdb"
    db.write_bytes(built_db.read_bytes())
    return db


def _ensure_origin(con: duckdb.DuckDBPyConnection) -> None:
    names = [r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'awards'").fetchall()]
    if "origin" not in names:  # a database written before awards had an origin
        con.execute("ALTER TABLE awards ADD COLUMN origin VARCHAR DEFAULT 'recorded'")


def _facts_again(con: duckdb.DuckDBPyConnection) -> None:
    """The awards were changed by hand, not through the store: derive the stored facts again."""
    con.execute(f"DROP TABLE IF EXISTS {FACTS_TABLE}")
    refresh_facts(con)


def test_wins_come_from_the_computed_awards_when_a_hand_has_them(built_db: Path, tmp_path: Path) -> None:
    db = _copy(built_db, tmp_path)
    with duckdb.connect(str(db)) as con:
        _ensure_origin(con)
        # The rules give T-F2 to Ann (say the dealer pushed it to the wrong player); T-F3 keeps
        # only its recorded awards, which Di won.
        con.execute("DELETE FROM awards WHERE hand_id IN ('T-F2', 'T-F3') AND origin = 'computed'")
        con.execute("INSERT INTO awards (hand_id, seq, pot, player, amount, origin) "
                    "VALUES ('T-F2', 1, 0, 'Ann', 11950, 'computed')")
        _facts_again(con)
        stats = by_player(player_stats(con, Filters(variant="texas_holdem")))
    assert stats["Ann"]["wsd"] == 50.0
    assert stats["Di"]["wsd"] == 50.0


def test_awards_without_an_origin_column_are_the_recorded_ones(built_db: Path, tmp_path: Path) -> None:
    db = _copy(built_db, tmp_path)
    with duckdb.connect(str(db)) as con:
        _ensure_origin(con)
        con.execute("DELETE FROM awards WHERE origin <> 'recorded'")
        con.execute("ALTER TABLE awards DROP COLUMN origin")
        _facts_again(con)
        stats = by_player(player_stats(con, Filters(variant="texas_holdem")))
    assert stats["Di"]["wsd"] == 100.0 and stats["Ann"]["wsd"] == 0.0 and stats["Cy"]["wwsd"] == 100.0


# ---- the command line -----------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_barge_stats_json(capsys: pytest.CaptureFixture[str], built_db: Path) -> None:
    code, out, _ = run(capsys, "stats", "--db", str(built_db), "--variant", "stud", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["player"] for r in rows] == ["Ann", "Bo", "Cy"]
    assert set(rows[0]) >= {"player", "hands", "vpip", "pfr", "three_bet", "fold_to_three_bet", "cbet",
                            "fold_to_cbet", "af", "afq", "wtsd", "wsd", "wwsd", "net", "net_bb_per_100",
                            "allin_adjusted_net"}
    assert rows[0]["fold_to_three_bet"] is None and rows[0]["af"] == 3.0
    code, out, _ = run(capsys, "stats", "--db", str(built_db), "--player", "Di", "--by", "position", "--json")
    assert code == 0 and {r["position"] for r in json.loads(out)} == {"BTN", "CO", "BB"}


def test_barge_stats_table(capsys: pytest.CaptureFixture[str], built_db: Path) -> None:
    code, out, _ = run(capsys, "stats", "--db", str(built_db), "--event", "Flop Event")
    assert code == 0
    assert "VPIP" in out and "W$SD" in out
    assert "Di" in out and "8,250" in out  # Di's net, on a line not cut to 80 columns
    code, out, _ = run(capsys, "stats", "--db", str(built_db), "--player", "Nobody")
    assert code == 0 and "no hands match" in out


def test_barge_stats_errors(capsys: pytest.CaptureFixture[str], built_db: Path, tmp_path: Path) -> None:
    code, _, err = run(capsys, "stats", "--db", str(tmp_path / "none.duckdb"))
    assert code == 3 and "no database" in err and "Traceback" not in err
    code, _, err = run(capsys, "stats", "--db", str(built_db), "--variant", "holdem")
    assert code == 2 and "unknown variant" in err
    with pytest.raises(SystemExit) as exit_:
        main(["stats", "--db", str(built_db), "--from", "2025-13-01"])
    assert exit_.value.code == 2
    empty = tmp_path / "empty.duckdb"
    duckdb.connect(str(empty)).close()
    code, _, err = run(capsys, "stats", "--db", str(empty))
    assert code == 3 and "holds no hands" in err


def test_barge_stats_has_a_row_for_every_player_of_the_samples(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "samples.duckdb"
    assert main(["ingest", *map(str, sample_files()), "--db", str(db), "--no-audit", "--json"]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, "stats", "--db", str(db), "--json")
    assert code == 0
    rows = json.loads(out)
    with duckdb.connect(str(db), read_only=True) as con:
        players = {tuple(r) for r in con.execute(
            "SELECT h.site, s.player, h.unit FROM seats s JOIN hands h USING (hand_id) "
            "WHERE NOT s.sitting_out").fetchall()}
        dealt = con.execute("SELECT count(*) FROM seats WHERE NOT sitting_out").fetchall()[0][0]
    # One row per player (site and name) and unit (docs/stats.md).
    assert {(r["site"], r["player"], r["unit"]) for r in rows} == players
    assert len(rows) == len(players)
    assert sum(r["hands"] for r in rows) == dealt
    for row in rows:
        for key in ("vpip", "pfr", "three_bet", "cbet", "afq", "wtsd", "wsd", "wwsd"):
            assert row[key] is None or 0 <= row[key] <= 100, (row["player"], key)


def test_barge_dashboard_starts_the_dashboard(capsys: pytest.CaptureFixture[str], built_db: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Path, int]] = []

    def serve(db: Path, port: int) -> int:
        calls.append((db, port))
        return 0

    launch = types.ModuleType("dashboard.launch")
    launch.serve = serve  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "dashboard.launch", launch)
    assert main(["dashboard", "--db", str(built_db), "--port", "8765"]) == 0
    assert calls == [(built_db, 8765)]
    monkeypatch.setitem(sys.modules, "dashboard.launch", None)  # not importable
    code, _, err = run(capsys, "dashboard", "--db", str(built_db))
    assert code == 3 and "cannot be loaded" in err


def test_stored_facts_give_the_statistics_the_actions_give(built_db: Path, tmp_path: Path) -> None:
    db = _copy(built_db, tmp_path)

    def same(frame: pl.DataFrame, stored: pl.DataFrame) -> None:
        # Sums of floats may be added in another order: equal to the last few bits.
        assert_frame_equal(frame.sort("player"), stored.sort("player"), check_exact=False, rel_tol=1e-9)

    with duckdb.connect(str(db)) as con:
        stored = player_stats(con, Filters())
        rows = con.execute(f"SELECT count(*) FROM {FACTS_TABLE}").fetchall()[0][0]
        assert rows == con.execute("SELECT count(*) FROM seats WHERE NOT coalesce(sitting_out, false)"
                                   ).fetchall()[0][0]
        con.execute(f"DELETE FROM {FACTS_TABLE} WHERE hand_id = 'T-F2'")  # stale: derived again
        same(player_stats(con, Filters()), stored)
        con.execute(f"DROP TABLE {FACTS_TABLE}")
        same(player_stats(con, Filters()), stored)
        refresh_facts(con)
        same(player_stats(con, Filters()), stored)


def test_the_facts_are_known_current_without_a_join_until_a_hand_changes(built_db: Path,
                                                                          tmp_path: Path) -> None:
    from pipeline.schema import AUDIT_TABLES, ENDINGS, ENDINGS_SCHEMA, FACTS_STATE, SCHEMAS
    from pipeline.stats import _facts_current
    from pipeline.store import Store

    nothing = {n: SCHEMAS[n].empty_table() for n in (*AUDIT_TABLES, "awards")}
    nothing[ENDINGS] = ENDINGS_SCHEMA.empty_table()

    db = _copy(built_db, tmp_path)
    with Store(db) as store:
        con = store.con
        assert con.execute(f"SELECT count(*) FROM {FACTS_STATE}").fetchall() == [(1,)]
        assert _facts_current(con)
        store.write_audit(["T-F2"], nothing)  # an audit again drops the hand's facts, and the print
        assert not con.execute(f"SELECT count(*) FROM information_schema.tables WHERE table_name = "
                               f"'{FACTS_STATE}'").fetchall()[0][0]
        assert not _facts_current(con)  # found by the join: T-F2 has no facts
        with store.transaction():
            refresh_facts(con)
        assert _facts_current(con)
        con.execute("UPDATE hands SET hand_id = 'T-F2b' WHERE hand_id = 'T-F2'")  # behind the store's back
        assert not _facts_current(con)


def test_stored_hand_totals_are_what_the_hands_give_until_a_hand_changes(built_db: Path,
                                                                          tmp_path: Path) -> None:
    from pipeline.schema import TOTALS_TABLE
    from pipeline.stats import hand_totals, totals_sql
    from pipeline.store import Store

    db = _copy(built_db, tmp_path)
    with Store(db) as store:
        con = store.con
        stored = con.execute(f"SELECT * FROM {TOTALS_TABLE} ORDER BY hand_id").fetchall()
        assert stored == con.execute(f"SELECT * FROM ({totals_sql(con)}) ORDER BY hand_id").fetchall()
        assert len(stored) == store.count("hands") and {sd for _, _, sd in stored} == {True, False}
        assert hand_totals(con) == f"SELECT * FROM {TOTALS_TABLE}"
        store.delete_hands(["T-F2"])  # the totals go with the hand, and the print with them
        assert hand_totals(con) == totals_sql(con)
        assert con.execute(f"SELECT count(*) FROM {TOTALS_TABLE} WHERE hand_id = 'T-F2'").fetchall() == [(0,)]
        with store.transaction():
            refresh_facts(con)
        assert hand_totals(con) == f"SELECT * FROM {TOTALS_TABLE}"
