"""La Bumba's portions (home game #738) and Chicago Hold'em's declared split card (#697): a high
portion's category floor (`at_least`), the straight-flush-run scale (`scale =
"straight_flush_run"`, evaluator.runs), a game's `nobody_qualifies`, the loader's checks of each,
and both games' samples and generated hands."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from evaluator.catalog import ALL_GAMES
from evaluator.codes import encode_hands, parse
from evaluator.game_files import load
from evaluator.replay import replay
from evaluator.runs import NO_RUN, describe_run, run_batch
from evaluator.showdown import best_hands, showdown
from tests import home_samples as home
from tests.home_samples import loaded_home_games  # noqa: F401 (the fixture, used by pytestmark)

pytestmark = pytest.mark.usefixtures("loaded_home_games")

HEAD = 'id = "{id}"\nname = "Test"\nrule = "test"\nextends = "omaha"\nhand = "portions"\n'


def run(cards: str) -> str:
    return describe_run(int(run_batch(encode_hands([parse(cards)]))[0]))


def test_the_longest_run_then_its_top_card() -> None:
    """Rule 13: three-card straight flushes lose to four-card ones, which lose to five-card ones;
    the ace is high or low as in a straight, never both (K-A-2 is no run)."""
    assert run("Ah2h3h 9cKd") == "three-card straight flush, Three high"
    assert run("QsKsAs 4d7c") == "three-card straight flush, Ace high"
    assert run("KsAs2s 4d7c") == "no three-card straight flush"
    assert run("Ac2c3c4c5c") == "five-card straight flush, Five high"
    assert run("9d8d 7d 6d 2c3c4c") == "four-card straight flush, Nine high"
    hands = ("2c3c4c9hKd", "QsKsAs4d7c", "2d3d4d5d9h", "2h3h4h5h6h")
    ranks = run_batch(encode_hands([parse(c) for c in hands]))
    assert ranks.tolist() == sorted(ranks.tolist()) and len(set(ranks.tolist())) == 4
    assert int(run_batch(encode_hands([parse("2c3d4h5s6c")]))[0]) == NO_RUN


def test_the_high_hand_needs_a_full_house() -> None:
    """Rule 15: a straight flush and four of a kind qualify, a flush does not."""
    board = {"1": parse("5h6h7hKcKd")}
    high = [best_hands("la_bumba", parse(h), board)[0] for h in ("KsKh2c3d", "Ah2h3c4s", "8h9hTh2s")]
    assert [p.rank is not None for p in high] == [True, False, True]
    assert high[1].description == "flush, A-7-6-5-2 (does not qualify)"


def test_nobody_qualifying_leaves_the_pot_to_the_best_high_hand() -> None:
    """The text is silent when no full house, no seven low and no three-card straight flush is
    made: the game's `nobody_qualifies = "high"` gives the pot to the best high hand (a straight
    here), as Archie's §2.4 does."""
    assert ALL_GAMES["la_bumba"].nobody_qualifies == "high"
    awards = showdown("la_bumba", [parse("AhAd8s4s"), parse("QhQd8c2d")], {"1": parse("9cTdJhKs3c")})
    assert [(a.portion, a.winners, a.description) for a in awards] == [("high", (1,), "straight, King high")]
    without = replace(ALL_GAMES["la_bumba"], nobody_qualifies=None)
    ALL_GAMES["la_bumba_strict"] = without
    try:
        players = [parse("AhAd8s4s"), parse("QhQd8c2d")]
        assert showdown("la_bumba_strict", players, {"1": parse("9cTdJhKs3c")}) == ()
    finally:
        del ALL_GAMES["la_bumba_strict"]


@pytest.mark.parametrize(("body", "line", "key", "expected"), [
    ('[[portion]]\nname = "low"\nscale = "ace_to_five"\nat_least = "pair"\n', 9, "portion[1].at_least",
     'a category floor only on a scale = "high" portion'),
    ('[[portion]]\nname = "high"\nscale = "high"\nat_least = "fullhouse"\n', 9, "portion[1].at_least",
     "expected one of pair, two pair"),
    ('[[portion]]\nname = "split-hand"\nscale = "straight_flush_run"\nwild = { ranks = ["2"] }\n', 9,
     "portion[1].wild", "no wild cards in a straight_flush_run portion"),
    ('nobody_qualifies = "low"\n[[portion]]\nname = "high"\nscale = "high"\n', 6, "nobody_qualifies",
     "the name of one of the game's [[portion]] tables (high); got 'low'"),
    ('nobody_qualifies = 1\n[[portion]]\nname = "high"\nscale = "high"\n', 6, "nobody_qualifies",
     "expected the name of a [[portion]]"),
])
def test_wrong_floors_and_fallbacks_are_located(tmp_path: Path, body: str, line: int, key: str,
                                                 expected: str) -> None:
    home.assert_located(tmp_path, "house_test", HEAD.format(id="house_test") + body, line, key, expected)


def test_a_straight_flush_floor_is_general(tmp_path: Path) -> None:
    """Qualifier (#984)'s "at least a straight" is the same key."""
    text = '[[portion]]\nname = "high"\nscale = "high"\nat_least = "straight"\n'
    (tmp_path / "house_test.toml").write_text(HEAD.format(id="house_test") + text)
    game = load([tmp_path / "house_test.toml"], ALL_GAMES, house=True)["house_test"]
    assert game.parts[0].at_least == "straight"


@pytest.mark.parametrize("game", ["la_bumba", "chicago_holdem"])
def test_samples_replay_and_a_moved_pot_is_misread(game: str) -> None:
    hands = home.sample_hands(game)
    assert len(hands) == 3
    for hand in hands:
        assert replay(hand) == []
        winners = {a.player for a in hand.awards}
        losers = [s.player for s in hand.seats if s.player not in winners]
        if losers:  # La Bumba's first hand pays all three players
            moved = replace(hand, awards=tuple(replace(a, player=losers[0]) for a in hand.awards))
            # La Bumba's third hand moved to Ann pays a low nobody made
            assert {f.code.name for f in replay(moved)} & {"MISREAD_HAND", "LOW_DID_NOT_QUALIFY"}


def test_a_split_card_declaration_is_a_word_of_the_game() -> None:
    """Rule 9: high/split-card/both; both plays for the high hand and the split card."""
    declare = ALL_GAMES["chicago_holdem"].declare
    assert declare is not None and declare.words == ("high", "split-card", "both")
    assert [name for name in ("high", "split-card") if declare.covers("both", name)] == ["high", "split-card"]
    hand = home.sample_hands("chicago_holdem")[0]
    lines = [a for a in hand.actions if a.kind == "declare"]
    assert len(lines) == 3


@pytest.mark.parametrize(("game", "kind"), [("la_bumba", "show"), ("chicago_holdem", "declare")])
def test_generated_hands_replay_clean(game: str, kind: str, tmp_path: Path) -> None:
    home.assert_generated_clean(game, tmp_path, kind)
