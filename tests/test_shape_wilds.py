"""Board shapes with written portions and wild cards (docs/games.md, "Paths with written portions
and the table's last card"): `paths` with `hand = "portions"`, a wild `table = "last"` read from
the whole table in the order its cards were dealt, the loader's checks, and the home games built
on them (Criss Cross, Texas League II, Big V, Southern Cross Wild), with Nine Card Stud II's flips
opening each round by the high hand showing: generated hands with no findings and their
hand-written samples."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES, GAMES
from evaluator.codes import parse
from evaluator.game_files import load
from evaluator.profiles import resolve
from evaluator.replay import Replay, replay
from evaluator.settle import Seat, Table, _Showdown, settle
from evaluator.showdown import best_hands
from pipeline.generate.world import max_players
from tests.home_samples import (
    assert_generated_clean,
    assert_located,
    assert_samples_agree,
    home_games,
    sample_hands,
)


@pytest.fixture(autouse=True)
def _home_games() -> Iterator[None]:
    with home_games():
        yield


GAMES_HERE = ("criss_cross", "texas_league_ii", "big_v", "southern_cross_wild", "nine_card_stud_ii")
# Cross Over's cross, turned top, right, bottom, left, then the centre.
CROSS = {"top": ["6c"], "right": ["9h"], "bottom": ["4d"], "left": ["Jc"], "center": ["Qh"]}
TURNED = ["6c", "9h", "4d", "Jc", "Qh"]


def test_the_last_card_turned_is_wild_whatever_row_a_hand_uses() -> None:
    """Criss Cross rule 16: the centre Qh, turned last, not the end of the row (9h) or of the
    column (4d): Bo's Qs Qc are wild with it, a straight flush with his 8h and the row's 9h."""
    [high] = best_hands("criss_cross", parse("QsQc8h2d"), CROSS, dealt=TURNED)
    assert high.description == "straight flush, Queen high"
    # The same cards turned in another order make another card the last one, and another rank wild.
    [other] = best_hands("criss_cross", parse("QsQc8h2d"), CROSS, dealt=["Qh", "6c", "4d", "Jc", "9h"])
    assert other.description == "four of a kind, Queens with a Jack"  # nines wild: the row's 9h


def test_without_the_order_the_boards_are_read_in_turn() -> None:
    """`best_hands` without `dealt` reads the boards' cards in the order the mapping lists them."""
    assert best_hands("criss_cross", parse("QsQc8h2d"), CROSS) == \
        best_hands("criss_cross", parse("QsQc8h2d"), CROSS, dealt=TURNED)


def test_a_settled_table_without_the_order_reads_the_boards_in_turn() -> None:
    """A `Table` built without `dealt` (not by the replay) settles with the boards' own order."""
    seats = (Seat("A", 1, 100, cards=tuple(parse("QsQc8h2d"))),
             Seat("B", 2, 100, cards=tuple(parse("AsAdAc3h"))))
    boards = {name: tuple(cards) for name, cards in CROSS.items()}
    shares = settle(Table("criss_cross", seats, 1, boards)).shares
    assert [(s.player, s.amount) for s in shares] == [("A", 200)]  # a straight flush over four Aces
    assert settle(Table("criss_cross", seats, 1, boards, dealt=tuple(TURNED))).shares == shares


def test_exactly_two_down_cards_along_the_paths() -> None:
    """Southern Cross Wild rule 24: four natural Nines and a wild six in the hand, but two of them
    play: an Ace-high straight, not five Nines."""
    boards = {"top": ["2c"], "right": ["7d"], "bottom": ["Jd"], "left": ["4s"], "top_inner": ["Kh"],
              "right_inner": ["8c"], "bottom_inner": ["Qs"], "left_inner": ["5h"], "center": ["6d"]}
    [high] = best_hands("southern_cross_wild", parse("9h9d9cAh6c"), boards)
    assert high.description == "straight, Ace high"


def test_the_run_of_a_board_run_twice_sees_its_own_last_card() -> None:
    """A board run twice: each run's last card is its own, the other run's cards left out."""
    table = Table("texas_holdem", (Seat("A", 1, 100),), 1, {"1": ("2c", "3d", "4h", "5s", "6c"),
                                                           "2": ("7d", "8h")},
                  runs=2, shared=3, dealt=("2c", "3d", "4h", "5s", "6c", "7d", "8h"))
    judge = _Showdown(table)
    assert judge.dealt(1) == ("2c", "3d", "4h", "5s", "6c")
    assert judge.dealt(2) == ("2c", "3d", "4h", "7d", "8h")


def test_the_replay_keeps_the_order_the_board_cards_were_dealt() -> None:
    hand = sample_hands("criss_cross")[1]
    engine = Replay(hand, ALL_GAMES["criss_cross"], resolve(hand.rules_profile, hand.rules_options))
    assert engine.walk()
    assert engine.board_order == TURNED
    assert engine.table().dealt == tuple(TURNED)


@pytest.mark.parametrize("game", GAMES_HERE)
def test_generated_hands_have_no_findings(game: str, tmp_path: Path) -> None:
    assert_generated_clean(game, tmp_path)


@pytest.mark.parametrize("game", GAMES_HERE)
def test_the_samples_agree_with_the_rules(game: str) -> None:
    """Three hand-written hands each (their `Note:` says why)."""
    assert_samples_agree(game)


def test_a_card_turned_up_shows_when_the_high_hand_opens() -> None:
    """Nine Card Stud II rules 2, 3: only the turned-up Ah shows on the first round, so Ann opens;
    Bo opening instead acts out of turn."""
    hand = sample_hands("nine_card_stud_ii")[0]
    first = [a for a in hand.actions if a.street == "3rd_street" and a.kind == "check"]
    assert [a.player for a in first] == ["Ann", "Bo", "Cy"]
    swapped = [*hand.actions]
    i, j = swapped.index(first[0]), swapped.index(first[1])
    swapped[i], swapped[j] = swapped[j], swapped[i]
    assert "OUT_OF_TURN" in {f.code.name for f in replay(replace(hand, actions=tuple(swapped)))}


def test_a_stud_game_with_common_cards_seats_what_the_deck_holds() -> None:
    """Nine Card Stud II: seven players of seven cards and two common cards (51 cards); the
    rulebook's stud games still seat eight (§2.47's common card)."""
    assert max_players(ALL_GAMES["nine_card_stud_ii"]) == 7
    assert max_players(GAMES["stud"]) == 8 and max_players(GAMES["razz"]) == 8


HEAD = ('id = "wild_shape"\nname = "Wild shape"\nrule = "house"\nextends = "cross_over"\nhand = "portions"\n'
        '[[portion]]\nname = "high"\nscale = "high"\n')


@pytest.mark.parametrize(("body", "key", "expected"), [
    ('boards = ["top"]\n', "portion[1].boards", 'each path is the hand\'s board "1"'),
    ('wild = { board = "last", every_board = true }\n', "portion[1].wild.every_board",
     'a card of the whole table'),
    ('wild = { table = "first" }\n', "portion[1].wild.table", "expected one of last"),
    ('wild = { ranks = ["2"], every_board = true }\n', "portion[1].wild.every_board", "it needs `board"),
])
def test_a_wrong_portion_along_paths_is_located(tmp_path: Path, body: str, key: str, expected: str) -> None:
    assert_located(tmp_path, "wild_shape", HEAD + body, 9, key, expected)


def test_paths_take_written_portions(tmp_path: Path) -> None:
    text = HEAD + 'hole = [2, 2]\nwild = { table = "last", ranks = ["2"] }\n'
    (tmp_path / "wild_shape.toml").write_text(text, encoding="utf-8")
    assert load([tmp_path / "wild_shape.toml"], ALL_GAMES, house=True)["wild_shape"].paths
