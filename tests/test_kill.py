"""Table cards that kill (docs/games.md `kill`): GBU (home game #991)'s "Discard all cards with the
same rank as the last revealed table card, except the last revealed table card": the showdown
plays no killed card (the players' cards of the rank, the common cards of it turned by then) and
no table card; a record that pays a hand needing a killed card is a finding; the loader's located
errors; generated hands and the samples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evaluator.replay import replay
from evaluator.showdown import best_hands
from grammar.barge_parser import parse_hand
from tests.home_samples import (
    HOME,
    assert_generated_clean,
    assert_samples_agree,
    definition_error,
    loaded_home_games,  # noqa: F401 (the fixture, used by pytestmark)
)

pytestmark = pytest.mark.usefixtures("loaded_home_games")


def _high(hole: str, commons: str, table: str, dealt: str) -> str:
    boards = {"1": commons.split(), "table": table.split()}
    hands = best_hands("gbu", hole.split(), boards, dealt=dealt.split())
    return hands[0].description


def test_a_table_card_kills_the_players_cards_of_its_rank() -> None:
    # Kings and Nines without the kill; the table's Kh kills the Ks Kd
    assert _high("Ks Kd 9c 9s 4c", "2d Jc Th 5h", "Kh 3s 8d 2h", "2d Kh Jc 3s Th 8d 5h 2h").startswith(
        "pair of Nines")


def test_a_common_card_turned_before_is_killed_and_one_turned_after_plays() -> None:
    hole, commons, table = "5d 3s 2d 6h 7c", "Ah Kd 9d 8s", "9s 4c Qs Ac"
    assert _high(hole, commons, table, "Ah 9s Kd 4c 9d Qs 8s Ac").startswith("straight")  # 9d after 9s
    # the same 9s turned after the common 9d: the 9d is discarded
    assert not _high(hole, commons, table, "Ah 4c Kd Qs 9d 9s 8s Ac").startswith("straight")


def test_the_table_cards_are_in_no_hand() -> None:
    # the table's 6c would make Td 9d 8c 7h a straight
    assert _high("Td 9d 8c 7h 2s", "Ac Kh Qd 9s", "6c 5d 2c 3c", "Ac 6c Kh 5d Qd 2c 9s 3c").startswith("pair")


def _sample(n: int) -> str:
    return re.split(r"\n(?=BARGE Hand #)", (HOME / "samples" / "gbu.bhh").read_text().strip())[n]


def test_a_pot_paid_to_a_hand_of_killed_cards_is_a_finding() -> None:
    # sample 1: Bob's Kings and Nines would beat Ann's Queens and Nines, but his Kings are dead
    text = _sample(0).replace("Ann collected 300 from pot (high)", "Bob collected 300 from pot (high)")
    text = text.replace("Ann ends with 10,100", "Ann ends with 9,800").replace("Bob ends with 9,800",
                                                                                "Bob ends with 10,100")
    found = {f.code.name for f in replay(parse_hand(text))}
    assert found and found <= {"MISREAD_HAND", "WRONG_AWARD"}


BASE = ('id = "k"\nname = "K"\nrule = "house"\nextends = "gbu"\n')


@pytest.mark.parametrize(("text", "expected"), [
    (BASE + 'kill = "dead"\n', "a board the streets deal (1, table); got 'dead'"),
    (BASE + 'kill = "1"\n', "a board of table cards, in no hand: a portion or a path plays 1"),
    (BASE + "kill = 1\n", "expected the name of a board of table cards"),
])
def test_a_wrong_kill_is_located(tmp_path: Path, text: str, expected: str) -> None:
    error = definition_error(tmp_path, "k", text)
    assert error.key == "kill" and expected in error.expected and error.line == 5


def test_generated_hands_have_no_findings(tmp_path: Path) -> None:
    assert_generated_clean("gbu", tmp_path, kind="declare")


def test_the_samples_agree_with_the_rules() -> None:
    assert_samples_agree("gbu")
