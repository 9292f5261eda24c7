"""The home games (issue 20): every definition of `home_games/` (a house-games folder, loaded with
`--games home_games`) loads, its generated hands are stored with no finding, and its hand-written
sample hands (`home_games/samples/<id>.bhh`) are stored with no finding and award the pot as the
game's rules (../shared/rules/home-game-variants.md, rule numbers of that file) say.

A stored sample with no finding means the engine agrees with the sample's `collected` lines; the
table EXPECTED says what those lines must be, worked out by hand from the game's text. The commands
run in their own processes (as in tests/test_games.py): loading house games adds to the catalog
of the process.

Each sample hand has the same table: Ann (seat 1, the button), Bob (small blind) and Cy (big
blind) see every street by checking (a pot of 600) and show down (the later games' samples: Bo,
and blinds of 50/100 for a pot of 300; Nine Card Stud II's antes of 50, a pot of 150); a guts
game's samples are the consecutive deals of one game (hand ids naming the table, so the checks
across deals read them).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

FOLDER = Path(__file__).parents[1] / "home_games"
SAMPLES = FOLDER / "samples"
GAMES = sorted(f.stem for f in FOLDER.glob("*.toml"))
BARGE = [sys.executable, "-m", "pipeline.cli"]

Won = tuple[tuple[str, str, int], ...]  # (player, portion or "" for the whole pot, amount)

# Who wins what in each sample hand, in the file's order, and the rule step it exercises.
EXPECTED: dict[str, list[Won]] = {
    "evolution": [
        # 5, 6 Ann's Aces full is the high hand: her first leg, the pot stays; Bob matches it
        (("Ann", "leg", 1), ("Bob", "burn", 300), ("Dealer", "carry", 300)),
        (("Ann", "leg", 2), ("Dealer", "carry", 900)),  # 5 Ann alone in: her second leg, the pot stays
        (("Ann", "leg", 3), ("Cy", "burn", 1200), ("Ann", "", 1200)),  # 7 the third leg wins; Cy matches
    ],
    "omaha_burns": [
        # 10, 11 Bob's Kings and 7-4-3-2-A scoop those in; Cy pays ten max bets (10 x 200)
        (("Cy", "burn", 2000), ("Bob", "high", 150), ("Bob", "low", 150)),
        # 10, 12 Ann's straight and Cy's J-5-4-3-2 split the redeal's pot; Bob wins neither and burns
        (("Bob", "burn", 2000), ("Ann", "high", 1150), ("Cy", "low", 1150)),
        (("Dealer", "carry", 2300),),  # 11 nobody goes in: the pot is carried
    ],
    "progressive_omaha_burns": [
        (("Cy", "burn", 2000), ("Bob", "high", 150), ("Bob", "low", 150)),  # 11 pot 1: 10 x 200 x 1
        (("Bob", "burn", 4000), ("Ann", "high", 1150), ("Cy", "low", 1150)),  # 11 pot 2: 10 x 200 x 2
        (("Bob", "", 4300),),  # 7, 10 Bob alone goes in and takes the whole pot
    ],
    "piranha": [
        (("Bob", "burn", 300), ("Ann", "", 300)),  # 5, 6 Ann's Aces full beats Bob's Kings full; Bob matches
        (("Dealer", "carry", 600),),  # 6 nobody goes in: the pot (Bob's 300 and the antes) is carried
        (("Cy", "", 900),),  # 3, 5 Cy alone goes in and wins the pot; nobody lost, the game is over
    ],
    "omaha_holdem": [
        (("Cy", "", 600),),  # 10 exactly two down cards: Bob's single heart makes no royal flush
        (("Bob", "", 300), ("Cy", "", 300)),  # 9 the same straight splits
        (("Ann", "", 600),),  # 10 two down cards with a paired board: Kings full beats Nines full
    ],
    "tomohawk": [
        (("Cy", "", 600),),  # 10 both down cards play: four hearts on the board, Bob holds one
        (("Bob", "", 300), ("Cy", "", 300)),  # 5, 7 two cards a street; the same Kings split
        (("Ann", "", 600),),  # 10 a straight made with both down cards and three of seven
    ],
    "omaha_high_low": [
        (("Cy", "high", 300), ("Bob", "low", 300)),  # 9, 10 high and low split the pot
        (("Cy", "", 600),),  # 12 one low board card: no low, the high hand takes all
        (("Cy", "high", 300), ("Bob", "low", 150), ("Cy", "low", 150)),  # 10 the same low splits
    ],
    "rickiebears_five_card_flop": [
        (("Bob", "", 600),),  # 3 five common cards at once: one down card makes a royal flush
        (("Ann", "", 600),),  # 5 three down cards and one common card: four Kings
        (("Cy", "", 300), ("Ann", "", 300)),  # 5 the same straight splits
    ],
    "courcheval_home": [
        (("Bob", "", 600),),  # 2 the first common card comes with the down cards: four eights
        (("Cy", "", 600),),  # 11 exactly two of FOUR down cards: Bob's single heart plays no flush
        (("Bob", "", 300), ("Cy", "", 300)),  # 10 the same straight splits
    ],
    "dublin_holdem": [
        (("Bob", "", 600),),  # any five of nine: one down card and four common cards
        (("Cy", "", 600),),  # three down cards and the board's King: four Kings
        (("Bob", "", 200), ("Cy", "", 200), ("Ann", "", 200)),  # the board's royal flush splits
    ],
    "billmaha": [
        (("Ann", "high", 300), ("Bob", "low", 300)),  # 11 a ten low qualifies (no eight low exists)
        (("Ann", "", 600),),  # 11 two low board cards: no low, the high hand takes all
        (("Ann", "high", 300), ("Bob", "low", 150), ("Cy", "low", 150)),  # 11 a nine low splits
    ],
    "goofy_omaha": [
        (("Ann", "high", 300), ("Bob", "low", 300)),  # 13 no qualifier: a Queen low wins; 5 Cy draws
        (("Cy", "high", 300), ("Bob", "low", 300)),  # 5, 9 both draws; Bob's drawn five makes his low
        (("Bob", "high", 300), ("Bob", "low", 300)),  # 14 the wheel wins both ways
    ],
    "twin_beds": [
        (("Cy", "", 600),),  # 15 one row: Ann's sevens on both rows make no four of a kind
        (("Bob", "", 200), ("Cy", "", 200), ("Ann", "", 200)),  # 15 a row's royal flush, no down card
        (("Ann", "", 600),),  # 15 the first row's full house beats the second row's flushes
    ],
    "ultimate_omaha": [
        (("Bob", "", 600),),  # 15, 16 two down cards and three of the first row: a straight flush
        (("Bob", "", 600),),  # 15 four Aces on the first row beat four eights on the third
        (("Bob", "", 300), ("Cy", "", 300)),  # 15 the same straight on two rows splits
    ],
    "down_in_the_delta": [
        (("Bob", "", 600),),  # 12 two down cards and three up or common cards: a royal flush
        (("Cy", "", 600),),  # 12 Bob's four Aces need his up cards without his down cards
        (("Bob", "", 300), ("Cy", "", 300)),  # 12 the same straight splits
    ],
    "lincoln": [
        (("Bob", "", 600),),  # 11 the low common four is wild: five Aces
        (("Bob", "", 300), ("Cy", "", 300)),  # 11 deuces wild in the hand and on the board
        (("Cy", "", 600),),  # 11 the ace is high, so the three is the low card: three wilds
    ],
    "oklahoma_home": [
        (("Cy", "", 600),),  # 12, 14 a roll of 5: Kings (the last card) and eights (13 - 5) wild
        (("Cy", "", 600),),  # 13 sixes (the die) and fours wild; 14 four minus six: no third rank
        (("Bob", "", 300), ("Cy", "", 300)),  # 13 a one: Aces wild; 14 King minus one: Queens wild
    ],
    "joemaha": [
        (("Bob", "high", 300), ("Bob", "low", 150), ("Cy", "low", 150)),  # 13 one three wild, 14 one king
        (("Bob", "high", 300), ("Ann", "low", 300)),  # 14 the board's king as Ann's wild low card
        (("Cy", "", 600),),  # 13 the board's three: five Nines; no low
    ],
    "full_joemaha": [
        (("Bob", "high", 300), ("Bob", "low", 150), ("Cy", "low", 150)),  # 13 both threes: four Aces
        (("Bob", "high", 300), ("Cy", "low", 300)),  # 14 both of Cy's kings wild in the low
        (("Cy", "high", 300), ("Bob", "low", 150), ("Cy", "low", 150)),  # 13 threes not wild in the low
    ],
    "twin_beds_wild": [
        (("Bob", "", 600),),  # 16 the other row's last rank is wild too: five Aces
        (("Ann", "", 600),),  # 16 the last cards (sevens, Jacks), not the first, are wild
        (("Bob", "", 300), ("Cy", "", 300)),  # 16 two rows ending in threes: royal flushes split
    ],
    "twin_beds_low_wild": [
        (("Ann", "", 600),),  # 16 each row's low card (fives, sevens) wild: five Aces
        (("Cy", "", 600),),  # 16 the ace is high: nines, not Aces, are the first row's wild rank
        (("Bob", "", 300), ("Cy", "", 300)),  # 16 threes and fours wild: four Aces split
    ],
    "nebraska_ii": [
        (("Ann", "", 600),),  # 10 three down cards and two common: four Aces
        (("Cy", "", 600),),  # 10 three suited down cards make the straight flush
        (("Cy", "", 600),),  # 10 two common cards only: Bob's A-K makes no straight
    ],
    "omaha_nebraska": [
        (("Cy", "", 600),),  # 10 three down cards: a straight flush
        (("Ann", "", 600),),  # 10 two down cards: Queens full
        (("Cy", "", 600),),  # 10 never four down cards: Bob's four Aces are three
    ],
    # The board shapes' and flips' samples: each hand's `Note:` line quotes the rule that decides it.
    "chowahaha": [
        (("Bo", "", 300),),  # rule 10: the sample's Note line says why
        (("Cy", "", 300),),  # rule 10-11: the sample's Note line says why
        (("Bo", "", 300),),  # rule 10-11: the sample's Note line says why
    ],
    "cross_over": [
        (("Cy", "", 300),),  # rule 15: the sample's Note line says why
        (("Ann", "", 300),),  # rule 15: the sample's Note line says why
        (("Bo", "", 300),),  # rule 15: the sample's Note line says why
    ],
    "southern_cross": [
        (("Bo", "", 300),),  # rule 23: the sample's Note line says why
        (("Bo", "", 300),),  # rule 23: the sample's Note line says why
        (("Ann", "", 300),),  # rule 23: the sample's Note line says why
    ],
    "southern_cross_ii": [
        (("Bo", "", 300),),  # rule 1, 23: the sample's Note line says why
        (("Bo", "", 300),),  # rule 23: the sample's Note line says why
        (("Ann", "", 300),),  # rule 23: the sample's Note line says why
    ],
    "studaha": [
        (("Cy", "", 300),),  # rule 3: the sample's Note line says why
        (("Bo", "", 200),),  # rule 3: the sample's Note line says why
        (("Ann", "", 300),),  # rule 3, 11: the sample's Note line says why
    ],
    "highlander": [
        (("Cy", "high", 150), ("Bo", "low", 150)),  # rule 9-10: the sample's Note line says why
        (("Bo", "", 300),),  # rule 9, 14: the sample's Note line says why
        (("Bo", "high", 150), ("Cy", "low", 150)),  # rule 9-12: the sample's Note line says why
    ],
    "disclosure": [
        (("Cy", "", 300),),  # rule 3, 6: the sample's Note line says why
        (("Bo", "", 500),),  # rule 6: the sample's Note line says why
        (("Cy", "", 400),),  # rule 3, 6: the sample's Note line says why
    ],
    # A second hand of the cards the high hand does not use.
    "omaha_high_high": [
        (("Cy", "high", 300), ("Bob", "split-hand", 300)),  # 10 Bob's Fives play high, J-9 the split
        (("Cy", "high", 300), ("Cy", "split-hand", 300)),  # 10 quads leave Aces full: a scoop
        (("Cy", "high", 300), ("Bob", "split-hand", 150), ("Ann", "split-hand", 150)),  # the same split hand
    ],
    # A split card: a portion won by the card the rule names, not by a hand.
    "omaha_spade": [
        (("Cy", "high", 300), ("Bob", "split-card", 300)),  # 9, 10 the lowest spade, the deuce
        (("Cy", "high", 300), ("Cy", "split-card", 300)),  # 9, 10 the high hand holds the lowest spade
        (("Cy", "", 600),),  # 10 no face-down spade (the board's are common cards): high takes all
    ],
    # Board shapes with wild cards: the last common card flipped is the last dealt to the table.
    "criss_cross": [
        (("Bo", "", 300),),  # 16 the centre's Fives wild, in the hand too: five Aces
        (("Bo", "", 300),),  # 12, 16 the centre (Queens), not the first card nor a row's end, is wild
        (("Cy", "", 300),),  # 15, 16 one row even with a wild: Bo's hearts make no flush
    ],
    "texas_league_ii": [
        (("Cy", "", 300),),  # 16, 17 two wild down cards: five Queens beat a royal flush
        (("Bo", "", 300),),  # 15, 17 the column's wild nine plays in the column only
        (("Bo", "", 150), ("Cy", "", 150)),  # 16, 17 the same four Kings split
    ],
    "big_v": [
        (("Cy", "", 300),),  # 16 the point's Fours wild: five Kings beat five Nines
        (("Cy", "", 300),),  # 15 one side: no straight flush across the V
        (("Bo", "", 150), ("Cy", "", 150)),  # 15, 16 the wild point on both sides: royal flushes split
    ],
    "southern_cross_wild": [
        (("Cy", "", 300),),  # 24, 25 exactly two down cards, even wild ones
        (("Bo", "", 300),),  # 25 the centre's Deuces wild: a straight flush
        (("Bo", "", 150), ("Cy", "", 150)),  # 23-25 the wild centre in a row and a column: royal flushes
    ],
    # A stud game of flips: antes of 50, every round checked (a pot of 150).
    "nine_card_stud_ii": [
        (("Bo", "", 150),),  # 2, 3 the cards turned up open each round; Kings full win
        (("Ann", "", 150),),  # 4, 19 the common deuce is wild for all: five Queens beat five Sevens
        (("Bo", "", 75), ("Cy", "", 75)),  # 3, 19 equal Kings showing: Bo opens; the same straight splits
    ],
    # Paid options (`sells`, docs/games.md "Paid options"): the fees are dead money in the pots.
    "waco": [
        (("Bob", "", 1000),),  # 5 the twisted-in Th makes a royal flush; the fee is in the pot
        (("Bob", "", 1000),),  # 5, 12 three spades in hand make no flush: exactly two down cards
        (("Bob", "", 700), ("Cy", "", 700)),  # 5 two fees in the pot, split by equal straights
    ],
    "mutual_of_omaha": [
        (("Ann", "high", 500), ("Cy", "low", 500)),  # 8 the bought 2d makes the better low
        (("Bob", "high", 700), ("Bob", "low", 700)),  # 8, 11 two buy in turn; two different pairs
        (("Bob", "", 1000),),  # 8, 10 no low; the bought card's straight loses to Kings full
    ],
    # Paid options and declarations: up cards bought, then high or low declared.
    "retro_holdem": [
        (("Cy", "high", 700), ("Bob", "low", 700)),  # 7-14 two bought up cards make a flush; the wheel
        (("Ann", "high", 1800),),  # 13-14 all declare high: three Aces take the pot and three fees
        (("Ann", "high", 500), ("Bob", "low", 500)),  # 14 a flush declared high; a bought 4 makes the low
    ],
    "polynesian_holdem": [
        (("Cy", "high", 700), ("Bob", "low", 700)),  # 7 the flips: a Jack showing opens; then as Retro
        (("Ann", "high", 1800),),  # 7, 13-15 all declare high: three Aces take the pot
        (("Ann", "high", 500), ("Bob", "low", 500)),  # 7, 15 a flush declared high; the lowest low
    ],
    "omaha_33": [
        (("Bob", "high", 500), ("Cy", "low", 500)),  # 9 three down cards bought make a flush
        (("Ann", "high", 500), ("Cy", "low", 500)),  # 9, 12 one card bought; both loses the high
        (("Cy", "high", 300), ("Cy", "low", 300)),  # 12 no purchase: both wins both, a scoop
    ],
    # Declarations (docs/games.md `[declare]`): each hand's `Note:` line says who declared what and why.
    "double_board_omaha": [
        (("Cy", "high", 300), ("Bob", "low", 300)),  # 10, 11 high plays the top flop, low the bottom
        (("Bob", "high", 600),),  # 11 all declare high: Cy's flush on the bottom flop does not play
        (("Ann", "high", 300), ("Bob", "low", 150), ("Cy", "low", 150)),  # 10 two declared lows tie
    ],
    "triple_board_omaha": [
        (("Cy", "high", 300), ("Cy", "low", 300)),  # 10, 11 both on the middle flop wins both: a scoop
        (("Bob", "high", 300), ("Ann", "low", 300)),  # 10 both loses the low: Cy wins nothing
        (("Bob", "high", 300), ("Cy", "low", 300)),  # 11 Ann's flush is on the middle flop only
    ],
    "z": [
        (("Cy", "high", 300), ("Cy", "low", 300)),  # 13, 14 both wins both down the column: a scoop
        (("Bob", "high", 300), ("Ann", "low", 300)),  # 13 both loses the low: Cy wins nothing
        (("Bob", "high", 300), ("Cy", "low", 300)),  # 13 the best high declared low plays for low only
    ],
    "dizzy_liz": [
        (("Ann", "high", 225), ("Cy", "low", 225)),  # 3, 13 Jacks open; the best high declared low
        (("Bo", "high", 225), ("Bo", "low", 225)),  # 5 openers with the common card; both wins both
        (("Ann", "high", 375), ("Cy", "low", 375)),  # 13 both loses the low: the next high declared
    ],
    "qualifier": [
        (("Bo", "high", 475), ("Cy", "low", 475)),  # 12, 18 a twist makes the straight a high needs
        (("Cy", "low", 150),),  # 18 no declared high is a straight: the low takes the pot
        (("Bo", "high", 150),),  # 16, 18 nobody qualifies: the high hand without its floor
    ],
    "gbu": [
        (("Ann", "high", 300), ("Cy", "low", 300)),  # 7 the table's King kills Bob's Kings
        (("Cy", "high", 300), ("Ann", "low", 300)),  # 15, 19 a common Nine turned after the kill plays
        (("Bob", "high", 600),),  # 3, 22 table cards play in no hand; all declare high
    ],
    "chowaha_teddy_prime": [
        (("Bob", "high", 300), ("Cy", "low", 300)),  # 10, 11 a high and a low declarer split
        (("Cy", "high", 600),),  # 14 the declared low does not qualify: the high takes the pot
        (("Bob", "low", 600),),  # 10 everyone declares low: the best low takes the pot
    ],
    "twin_beds_roll_em_over": [
        (("Cy", "high", 300), ("Cy", "low", 300)),  # 21 both wins both on one row: a scoop
        (("Bob", "high", 300), ("Ann", "low", 300)),  # 21 both loses the high: Cy wins nothing
        (("Bob", "high", 300), ("Cy", "low", 300)),  # 22 one row: Ann's flush across both rows does not play
    ],
    "full_bicester": [
        (("Cy", "high", 300), ("Bob", "low", 300)),  # 17 five of the six cards, no common card
        (("Bob", "high", 600),),  # 16 the declared low does not qualify: the high takes the pot
        (("Bob", "high", 300), ("Ann", "low", 300)),  # 17 two cards and the three common cards
    ],
    # Three portions: a high floor, a seven low, a straight-flush run (`at_least`, `straight_flush_run`).
    "la_bumba": [
        (("Cy", "high", 200), ("Bob", "low", 200), ("Ann", "split-hand", 200)),  # 11, 13-15 three portions
        (("Bob", "low", 300), ("Cy", "split-hand", 300)),  # 15 no full house: no high; 13 A-2-3 a run
        (("Cy", "high", 300), ("Bob", "split-hand", 300)),  # 13 four cards beat three; 14 no seven low
    ],
    # Declaring a split card: high/split-card/both.
    "chicago_holdem": [
        (("Cy", "high", 300), ("Bob", "split-card", 300)),  # 11 a Jack last: the high spade
        (("Cy", "high", 300), ("Cy", "split-card", 300)),  # 9, 11 a Three last: the low heart; both scoops
        (("Ann", "high", 300), ("Bob", "split-card", 300)),  # 10 both loses the high: the next heart wins
    ],
    # Discards back on top of the deck (`discards_to`): the next cards dealt.
    "thermonuclear_pineapple_ii": [
        (("Ann", "", 600),),  # 3, 4 the three discards are the flop: Ann's own Five makes her straight
        (("Bob", "", 400),),  # 3 two discards and a card of the deck; 6, 9 later discards are out
        (("Bob", "", 300), ("Cy", "", 300)),  # 3, 12 the discarded Aces play for all: the same two pair
    ],
    # A neighbour's down cards (`neighbour = "right"`).
    "tex_mex_holdem": [
        (("Ann", "", 600),),  # 10 Ann plays Cy's Kings (seat 3 is to seat 1's right): four Kings
        (("Bob", "", 200), ("Cy", "", 200)),  # 10 Ann folded: her Aces are dead; Cy plays Bob's Queens
        (("Cy", "", 600),),  # 10 Cy plays Bob's Jh 8h: a straight; Bob plays Ann's cards, not Cy's
    ],
    "wild_kingdom": [
        (("Cy", "", 300),),  # 13 a common four deals an extra down card: a wild three, four Kings
        (("Cy", "", 300),),  # 13 two flop fours deal two each, the river's four one more: five Fours
        (("Bo", "", 150), ("Cy", "", 150)),  # 10, 12 no four, no extra card; a wild nine's straight splits
    ],
}


def barge(*args: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "BARGE_GAMES"}
    return subprocess.run([*BARGE, *args], capture_output=True, text=True, env=environ, check=False)


def ingest(folder: Path, db: Path) -> dict[str, object]:
    stored = barge("ingest", "--games", str(FOLDER), "--db", str(db), "--json", "--jobs", "2", str(folder))
    assert stored.returncode == 0, stored.stderr
    summary: dict[str, object] = json.loads(stored.stdout)
    return summary


def findings(summary: dict[str, object]) -> list[str]:
    audit = summary["audit"]
    assert isinstance(audit, dict)
    return [f"{f['hand_id']}: {f['code']} {f['message']}" for f in audit["findings"]]


def test_the_documented_examples_are_the_files() -> None:
    """docs/games.md shows home games' files as they are (a shortened one, "# ...", is not compared)."""
    blocks = (Path(__file__).parents[1] / "docs" / "games.md").read_text().split("```toml\n")[1:]
    shown = [block.split("```")[0] for block in blocks]
    compared = [(tomllib.loads(text)["id"], text) for text in shown if "# ..." not in text]
    mine = [(game_id, text) for game_id, text in compared if game_id in GAMES]
    assert len(mine) >= 6
    for game_id, text in mine:
        assert (FOLDER / f"{game_id}.toml").read_text() == text


def test_every_game_has_a_table_of_expected_samples() -> None:
    assert sorted(EXPECTED) == [g for g in GAMES if (SAMPLES / f"{g}.bhh").exists()]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Thirty hands of each game (one process a game, run side by side), stored together."""
    out = tmp_path_factory.mktemp("generated")

    def generate(game: str) -> tuple[str, subprocess.CompletedProcess[str]]:
        return game, barge("generate", "--games", str(FOLDER), "--variant", game, "--hands", "30",
                           "--seed", "3", "--jobs", "1", str(out / game))

    with ThreadPoolExecutor(4) as pool:
        for game, made in pool.map(generate, GAMES):
            assert made.returncode == 0, f"{game}: {made.stderr}"
    return ingest(out, out / "x.duckdb")


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Every game's samples, stored together."""
    return ingest(SAMPLES, tmp_path_factory.mktemp("samples") / "x.duckdb")


def stored(summary: dict[str, object], game: str) -> list[tuple[str, int, int]]:
    files = summary["files"]
    assert isinstance(files, list)
    return [(f["status"], f["hands"], f["rejects"]) for f in files if Path(f["path"]).stem == game]


@pytest.mark.parametrize("game", GAMES)
def test_generated_hands_are_stored_without_findings(game: str, generated: dict[str, object]) -> None:
    assert stored(generated, game) == [("ingested", 30, 0)]
    assert [f for f in findings(generated) if f"-{game}-" in f] == []


# A guts game's deal also ends with what its losers pay to the next pot, the pot carried to the
# next deal and the leg the high hand gets (docs/format.md): written (player, "burn", A),
# ("Dealer", "carry", A), (player, "leg", N) in the order of the lines, before the pushes.
_GUTS = re.compile(r"^(?:(\w+): pays ([\d,]+) to the next pot|Dealer: carries ([\d,]+) to the next deal"
                   r"|(\w+): gets leg (\d+))$", re.M)


def _won(text: str) -> Iterator[Won]:
    for hand in re.split(r"\n(?=BARGE Hand #)", text.strip()):
        guts = [(m[1], "burn", m[2]) if m[1] else ("Dealer", "carry", m[3]) if m[3] else (m[4], "leg", m[5])
                for m in _GUTS.finditer(hand)]
        lines = re.findall(r"^(\w+) collected ([\d,]+) from pot(?: \(([^)]+)\))?$", hand, re.M)
        yield tuple((who, what, int(amount.replace(",", ""))) for who, what, amount in guts) + \
            tuple((who, portion, int(amount.replace(",", ""))) for who, amount, portion in lines)


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_samples_award_what_the_rules_say(game: str, samples: dict[str, object]) -> None:
    assert list(_won((SAMPLES / f"{game}.bhh").read_text())) == EXPECTED[game]
    assert stored(samples, game) == [("ingested", len(EXPECTED[game]), 0)] and len(EXPECTED[game]) >= 3
    assert [f for f in findings(samples) if f"HG-{game}-" in f] == []
