"""Per-player statistics checked against the flags fpdb records for hands of the PokerStars corpus.

fpdb (the open-source poker tracker) keeps, beside some of its regression hand histories, the
"hands-players" row it computed for every player of the hand: a `.hp` file (a Python dict) in
philroberts/FPDB-for-OSX, a `.snapshot.json` in jejellyroll-fr/fpdb-3. Five files of
../shared/corpus/pokerstars/ have one; each holds one hand. This test ingests each file, audits
it, and compares `pipeline.stats.hand_facts` for that hand with fpdb's row, flag by flag.

Only the flags whose fpdb definition is ours are compared; where fpdb defines a flag otherwise
for a family of games (3-bet in stud, c-bet in draw games, positions in stud or when the record's
button posts a blind), the file leaves it out. docs/stats.md, "Compared with fpdb", lists which
flags agree, which differ and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pipeline.audit import audit
from pipeline.ingest import ingest
from pipeline.stats import hand_facts
from pipeline.store import Store

CORPUS = Path(__file__).resolve().parents[2] / "shared/corpus/pokerstars"

Value = bool | int | float | str

# fpdb's flags, in its own words, and the same fact in ours (a `hand_facts` column or two).
BOOLEAN_FLAGS: dict[str, tuple[str, ...]] = {
    "street0VPI": ("vpip",),
    "street0Aggr": ("pfr",),
    "street0_3BChance": ("three_bet_opp",),
    "street0_3BDone": ("three_bet",),
    "street0_FoldTo3BChance": ("f3b_opp",),
    "street0_FoldTo3BDone": ("f3b",),
    "street1CBChance": ("cbet_opp",),
    "street1CBDone": ("cbet",),
    "foldToStreet1CBChance": ("fcb_opp",),
    "foldToStreet1CBDone": ("fcb",),
    "street1Seen": ("saw_second",),
    "sawShowdown": ("went_sd",),
    "wonAtSD": ("went_sd", "won"),  # fpdb: collected chips and sawShowdown
    "wonWhenSeenStreet1": ("saw_second", "won"),  # fpdb: collected chips and street1Seen
}
# fpdb counts bets, raises and calls per street; AF and AFq add up those of streets 1 to 4 (every
# round after the first), which `hand_facts` gives as `aggr` and `calls`.
LATER_STREETS = range(1, 5)
ALL_FLAGS = (*BOOLEAN_FLAGS, "totalProfit", "streets1to4BetsRaises", "streets1to4Calls", "position")


@dataclass(frozen=True, slots=True)
class Recorded:
    """fpdb's hands-players rows for the one hand of a corpus file.

    `players` holds, per player, fpdb's values that are not False or 0 (every flag of ALL_FLAGS
    that a player does not list is False or 0 in fpdb's file) and fpdb's `position`: "S" and "B"
    the blinds (in stud "S" is the bring-in), otherwise the number of seats before the button.
    `skipped` are the flags not compared for this file, their definitions differing."""

    corpus: str
    players: dict[str, dict[str, Value]]
    skipped: tuple[str, ...] = ()
    only: tuple[str, ...] = ALL_FLAGS  # the flags fpdb's file records at all


RECORDS: dict[str, Recorded] = {
    # philroberts/FPDB-for-OSX, pyfpdb/regression-test-files/cash/Stars/Draw/
    #   2-7 Single Draw-NL-USD-0.25-0.50-201106.allin.txt.hp (commit 75c6c50b4dfb0ca44c7e48ec11dae4bfe3881538)
    "single_draw": Recorded(
        corpus="cash/Draw/2-7 Single Draw-NL-USD-0.25-0.50-201106.allin.txt",
        players={
            "Player1": {"position": "S", "street0_3BChance": True, "totalProfit": -25},
            "Player2": {"position": "B", "street0VPI": True, "street0_3BChance": True, "street1Seen": True,
                        "sawShowdown": True, "totalProfit": -250},
            "Player3": {"position": 4, "street0VPI": True, "street0_3BChance": True, "totalProfit": -50},
            "Player4": {"position": 3},
            "Hero": {"position": 2},
            "Player5": {"position": 1},
            "Player6": {"position": 0, "street0VPI": True, "street0Aggr": True, "street1CBChance": True,
                        "street1Seen": True, "sawShowdown": True, "wonAtSD": 1.0, "wonWhenSeenStreet1": 1.0,
                        "totalProfit": 300},
        },
        # fpdb finds the aggressor's own discard before any bet after the draw: a c-bet chance
        # even when someone bet first (docs/stats.md, "Compared with fpdb").
        skipped=("street1CBChance", "street1CBDone", "foldToStreet1CBChance", "foldToStreet1CBDone"),
    ),
    # philroberts/FPDB-for-OSX, pyfpdb/regression-test-files/cash/Stars/Flop/
    #   LHE-USD-1.00-200508.BB.and.Button.same.player.txt.hp (commit 09701c59f99d3bf26046388b727a07e14160dd69)
    "button_posts_bb": Recorded(
        corpus="cash/Flop/LHE-USD-1.00-200508.BB.and.Button.same.player.txt",
        players={
            "Hero": {"position": "B", "totalProfit": 50},
            "fblm2002": {"position": "S", "totalProfit": -50},
        },
        # The record's button (Hero) posts the big blind: fpdb names positions by the blinds
        # posted, we by the button seat.
        skipped=("position",),
    ),
    # philroberts/FPDB-for-OSX, pyfpdb/regression-test-files/cash/Stars/Flop/
    #   PLO8-9max-USD-0.01-0.02-20100829.No.VPIP.from.posted.bb.txt.hp
    #   (commit 21d74463219168c7f905b70791416a79e54872ed)
    "posted_bb_checks": Recorded(
        corpus="cash/Flop/PLO8-9max-USD-0.01-0.02-20100829.No.VPIP.from.posted.bb.txt",
        players={
            "CoinJock": {"position": "S", "street0VPI": True, "street1Seen": True, "totalProfit": -2},
            "ros-r-reed": {"position": "B", "street1Seen": True, "totalProfit": -2},
            "skinner1947": {"position": 6},
            "2TONTOM": {"position": 5},
            "RadRandyF": {"position": 4, "street0VPI": True, "street1Seen": True, "totalProfit": -2},
            "Hero": {"position": 3, "street1Seen": True, "totalProfit": -2},
            "Mr NoNo! Srb": {"position": 2, "street0VPI": True, "street1Seen": True, "totalProfit": -2},
            "toxic7": {"position": 1, "street0VPI": True, "street1Seen": True, "street2Bets": 1,
                       "wonWhenSeenStreet1": 1.0, "totalProfit": 12},
            "jthegreat": {"position": 0, "street0VPI": True, "street1Seen": True, "totalProfit": -2},
        },
    ),
    # philroberts/FPDB-for-OSX, pyfpdb/regression-test-files/cash/Stars/Stud/
    #   7-StudHL-USD-0.04-0.08-200911.Cardtest.txt.hp (commit 09701c59f99d3bf26046388b727a07e14160dd69)
    "stud_hilo": Recorded(
        corpus="cash/Stud/7-StudHL-USD-0.04-0.08-200911.Cardtest.txt",
        players={
            "denny501": {"position": "S", "street1Seen": True, "totalProfit": -3},
            "Hero": {"position": 6, "street0VPI": True, "street1Seen": True, "street2Calls": 1,
                     "street3Calls": 1, "street4Calls": 1, "sawShowdown": True, "wonAtSD": 1.0,
                     "wonWhenSeenStreet1": 1.0, "totalProfit": 13},
            "TomSludge": {"position": 5, "totalProfit": -1},
            "Soroka69": {"position": 4, "street0VPI": True, "street1Seen": True, "street2Calls": 1,
                         "street3Calls": 1, "totalProfit": -19},
            "rdiezchang": {"position": 3, "street0VPI": True, "street1Seen": True, "totalProfit": -3},
            "u.pressure": {"position": 2, "totalProfit": -1},
            "123smoothie": {"position": 1, "street0VPI": True, "street1Seen": True, "totalProfit": -3},
            "gashpor": {"position": 0, "street0VPI": True, "street1Seen": True, "street2Bets": 1,
                        "street3Bets": 1, "street4Bets": 1, "sawShowdown": True, "wonAtSD": 1.0,
                        "wonWhenSeenStreet1": 1.0, "totalProfit": 13},
        },
        # fpdb's stud 3-bet is a re-raise of a raised completion, ours a raise of the completion;
        # fpdb numbers stud positions by the order of 3rd-street action, ours have no button.
        skipped=("street0_3BChance", "street0_3BDone", "street0_FoldTo3BChance", "street0_FoldTo3BDone",
                 "position"),
    ),
    # jejellyroll-fr/fpdb-3, regression-test-files/cash/Stars/Flop/2025-NL-uncalled-bet.txt.snapshot.json
    #   (commit 7a310480ffa515fe569f5727959bee4d239ded71): its players' `street0_vpi`, `saw_showdown`,
    #   `total_profit` (dollars, written here in cents as fpdb's totalProfit) and `position`.
    "uncalled_bet": Recorded(
        corpus="cash/Flop/2025-NL-uncalled-bet.txt",
        players={
            "Hero": {"position": "S", "street0VPI": True, "sawShowdown": True, "totalProfit": 267},
            "Player1": {"position": "B", "totalProfit": -5},
            "Player2": {"position": 3},
            "Player3": {"position": 2, "street0VPI": True, "totalProfit": -15},
            "Player4": {"position": 1},
            "Player5": {"position": 0, "street0VPI": True, "sawShowdown": True, "totalProfit": -283},
        },
        only=("street0VPI", "sawShowdown", "totalProfit", "position"),
    ),
}


def our_position(fpdb: Value, players: int) -> str:
    """fpdb's position in the names of docs/stats.md: seats counted clockwise from the button,
    SB, BB, UTG, UTG+1, ..., LJ, HJ, CO, BTN; heads-up the button (fpdb "S") and BB."""
    if fpdb in ("S", "B"):
        if players == 2:
            return "BTN" if fpdb == "S" else "BB"
        return "SB" if fpdb == "S" else "BB"
    before_button = int(fpdb)
    after_big_blind = players - 2 - before_button
    named = {0: "BTN", 1: "CO", 2: "HJ"}
    if before_button in named:
        return named[before_button]
    if after_big_blind == 1:
        return "UTG"
    return "LJ" if before_button == 3 else f"UTG+{after_big_blind - 1}"


def expected(values: dict[str, Value], players: int, position: bool) -> dict[str, Value]:
    """fpdb's row for one player, on the keys of ALL_FLAGS (`position` only when asked: fpdb's
    stud positions have no equivalent)."""
    def later(*kinds: str) -> int:
        return sum(int(values.get(f"street{n}{kind}", 0)) for n in LATER_STREETS for kind in kinds)

    row: dict[str, Value] = {flag: bool(values.get(flag, False)) for flag in BOOLEAN_FLAGS}
    row["totalProfit"] = int(values.get("totalProfit", 0))
    row["streets1to4BetsRaises"] = later("Bets", "Raises")
    row["streets1to4Calls"] = later("Calls")
    if position:
        row["position"] = our_position(values["position"], players)
    return row


def ours(facts: dict[str, Any]) -> dict[str, Value]:
    """Our `hand_facts` row for one player, on the keys of ALL_FLAGS."""
    row: dict[str, Value] = {flag: all(bool(facts[c]) for c in cols) for flag, cols in BOOLEAN_FLAGS.items()}
    row["totalProfit"] = round(facts["net"] * 100)  # stored amounts are in currency units
    row["streets1to4BetsRaises"] = int(facts["aggr"])
    row["streets1to4Calls"] = int(facts["calls"])
    row["position"] = str(facts["position"])
    return row


@pytest.fixture(scope="module")
def facts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, dict[str, Any]]]]:
    """Every corpus file of RECORDS ingested and audited: record key -> player -> `hand_facts` row."""
    if not CORPUS.is_dir():
        pytest.skip(f"the PokerStars corpus is not at {CORPUS}")
    paths = {key: CORPUS / record.corpus for key, record in RECORDS.items()}
    missing = [str(p) for p in paths.values() if not p.is_file()]
    if missing:
        pytest.skip(f"corpus files missing: {', '.join(missing)}")
    with Store(tmp_path_factory.mktemp("fpdb") / "db.duckdb") as store:
        summary = ingest(list(paths.values()), store)
        unread = [f"{Path(f.path).name}: {f.status} {f.reason} ({f.hands} hands, {f.rejects} rejected)"
                  for f in summary.files if f.hands != 1]
        rejects = [f"{Path(r.path).name}:{r.line}:{r.column}: {r.error}" for r in summary.rejects]
        assert not unread and not rejects, (
            "the PokerStars reader must store the one hand of each file:\n" + "\n".join(unread + rejects))
        audit(store)
        sources = dict(store.con.execute("SELECT source_id, path FROM sources").fetchall())
        by_path = {str(p.resolve()): key for key, p in paths.items()}
        rows: dict[str, dict[str, dict[str, Any]]] = {key: {} for key in RECORDS}
        for row in hand_facts(store.con).iter_rows(named=True):
            rows[by_path[sources[row["source_id"]]]][row["player"]] = row
        yield rows


@pytest.mark.parametrize("key", sorted(RECORDS))
def test_flags_agree_with_fpdb(facts: dict[str, dict[str, dict[str, Any]]], key: str) -> None:
    record = RECORDS[key]
    rows = facts[key]
    assert sorted(rows) == sorted(record.players), "the players dealt in differ from fpdb's"
    compared = [flag for flag in record.only if flag not in record.skipped]
    differences = []
    for player, values in sorted(record.players.items()):
        want, got = expected(values, len(rows), "position" in compared), ours(rows[player])
        differences += [f"{player} {flag}: fpdb {want[flag]!r}, ours {got[flag]!r}"
                        for flag in compared if want[flag] != got[flag]]
    assert not differences, f"{record.corpus}:\n" + "\n".join(differences)


def test_every_record_compares_what_it_claims() -> None:
    """The transcription itself: each player names fpdb's position and only known flags, so a
    misspelt flag cannot silently compare as False."""
    per_street = {f"street{n}{kind}" for n in LATER_STREETS for kind in ("Bets", "Raises", "Calls")}
    for key, record in RECORDS.items():
        assert set(record.skipped) <= set(record.only) <= set(ALL_FLAGS), key
        recorded = {*record.only, *(per_street if "streets1to4Calls" in record.only else ())}
        for player, values in record.players.items():
            assert "position" in values, (key, player)
            assert set(values) <= recorded, (key, player, set(values) - recorded)
