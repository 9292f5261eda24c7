"""Paid options (docs/games.md "Paid options": a street's `sells` and `price`): the loader's checks,
the replay's findings citing the game's own rule, the fee as dead money in the main pot (the
settlement, the accounting of the record, the dashboard's pot, the player's net), the generator,
and the home games built on them (Waco, Mutual of Omaha; with declarations Retro Hold'em,
Polynesian Hold'em and Omaha 33)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from dashboard.stepping import steps
from evaluator.catalog import ALL_GAMES
from evaluator.game_files import GameDefinitionError, load
from evaluator.replay import replay, replay_hand
from grammar.barge_parser import parse_hand
from pipeline.accounting import live_and_dead, recorded_ending_stacks
from pipeline.cli import main
from pipeline.model import Action, Hand
from pipeline.writer import write_hand
from tests.home_samples import HOME, generated_findings, home_games, sample_hands

FEES = ("waco", "mutual_of_omaha", "retro_holdem", "polynesian_holdem", "omaha_33")
C = 100  # amounts are stored in hundredths

# Waco: Ann is all-in on the flop; Bob twists for the max bet, then bets Cy out. Ann's main pot
# holds Bob's fee (dead money, as an ante), the side pot only the wagers she could not match.
ALL_IN = """\
BARGE Hand #FEE-SIDE-1: waco limit (blinds 100/200, bets 200/400) - 2025-08-07 12:00:00
Table 'Home' 9-max Seat #1 is the button
Seat 1: Ann (400 in chips)
Seat 2: Bob (10,000 in chips)
Seat 3: Cy (10,000 in chips)
Bob: posts small blind 100
Cy: posts big blind 200
*** HOLE CARDS ***
Dealt to Bob [7h 6h 2c 3d]
Dealt to Cy [Kh Ks Qs Qh]
Dealt to Ann [As Ad Kc Qd]
Ann: calls 200
Bob: calls 100
Cy: checks
*** FLOP *** [Ac 9s 4h]
Bob: bets 200
Cy: calls 200
Ann: calls 200 and is all-in
*** TWIST ***
Bob: pays 400
Bob: discards [2c] and draws [8h]
Bob: bets 400
Cy: calls 400
*** TURN *** [Jd]
Bob: bets 400
Cy: folds
Uncalled bet (400) returned to Bob
*** RIVER *** [2s]
*** SHOWDOWN ***
Bob: shows [7h 6h 3d 8h]
Ann: shows [As Ad Kc Qd]
Ann collected 1,600 from pot
Bob collected 800 from side pot 1
*** SUMMARY ***
Total pot 2,400 | Rake 0
Seat 1: Ann ends with 1,600
Seat 2: Bob ends with 9,600
Seat 3: Cy ends with 9,200
"""


def _codes(hand: Hand) -> dict[str, str]:
    return {f.code.name: f"{f.message} ({f.rule})" for f in replay(hand)}


def _fee(hand: Hand, player: str) -> Action:
    return next(a for a in hand.actions if a.kind == "fee" and a.player == player)


@pytest.fixture(autouse=True)
def _home_games() -> Iterator[None]:
    with home_games():
        yield


def test_a_fee_is_dead_money_in_the_main_pot() -> None:
    hand = parse_hand(ALL_IN)
    outcome = replay_hand(hand)
    assert outcome.findings == []
    assert outcome.ending == {"Ann": 1600 * C, "Bob": 9600 * C, "Cy": 9200 * C}
    assert outcome.awards is not None
    pushed = {(s.pot, s.player, s.amount) for s in outcome.awards}
    assert pushed == {(0, "Ann", 1600 * C), (1, "Bob", 800 * C)}
    live, dead = live_and_dead(hand)
    assert dead == {"Bob": 400 * C} and live["Bob"] == 800 * C  # the fee is no wager: Bob's 1,200 in
    assert recorded_ending_stacks(hand) == outcome.ending  # each net counts the fee paid
    river = [s for s in steps(hand, hand.awards) if s.street == "river"][-1]
    assert sum(p.amount for p in river.pots) == 2400 * C


def test_each_players_net_counts_the_fees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`barge stats`: Bob's net is his fee and his wagers lost less the side pot he won."""
    (tmp_path / "fee.bhh").write_text(ALL_IN, encoding="utf-8")
    db = str(tmp_path / "s.duckdb")
    assert main(["ingest", str(tmp_path / "fee.bhh"), "--games", str(HOME), "--db", db, "--jobs", "1"]) == 0
    capsys.readouterr()
    assert main(["stats", "--db", db, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["player"]: r["net"] for r in rows} == {"Ann": 1200.0, "Bob": -400.0, "Cy": -800.0}


def test_the_record_is_written_back_as_read() -> None:
    hand = parse_hand(ALL_IN)
    assert parse_hand(write_hand(hand)).actions == hand.actions


def test_a_fee_of_another_amount_cites_the_games_rule() -> None:
    hand = sample_hands("waco")[0]
    fee = _fee(hand, "Bob")
    cheap = replace(hand, actions=tuple(replace(a, amount=200 * C) if a is fee else a for a in hand.actions))
    assert _codes(cheap)["WRONG_FEE"] == (
        "Bob pays 200: in Waco each player may twist one card once on the twist, for 400, the max bet (the "
        "big bet) (Home game variants #708 (shared/rules/home-game-variants.md))")


def test_a_twist_without_a_fee_and_a_fee_without_a_twist() -> None:
    hand = sample_hands("waco")[0]
    unpaid = replace(hand, actions=tuple(a for a in hand.actions if a.kind != "fee"))
    assert "Bob twists 9c with no fee paid" in _codes(unpaid)["UNPAID_CARD"]
    fee = _fee(hand, "Bob")
    at = hand.actions.index(fee)
    bare = replace(hand, actions=(*hand.actions[:at + 1], *hand.actions[at + 3:]))
    assert "Bob pays but what it buys is not their next line" in _codes(bare)["FEE_WITHOUT_CARD"]


def test_a_purchase_out_of_turn_and_after_the_betting() -> None:
    """Mutual of Omaha rule 8: "each player in turn" from the left of the button, before the betting."""
    hand = sample_hands("mutual_of_omaha")[1]  # Bob buys, then Ann
    actions = list(hand.actions)
    at = actions.index(_fee(hand, "Bob"))
    bob, ann = actions[at:at + 2], actions[at + 2:at + 4]
    swapped = replace(hand, actions=(*actions[:at], *ann, *bob, *actions[at + 4:]))
    assert _codes(swapped) == {"OUT_OF_TURN": "Bob buys after Ann, who comes after them: in Mutual of Omaha "
                               "each player in turn may buy one down card once on the river, for 400, the "
                               "max bet (the big bet) (Home game variants #949 "
                               "(shared/rules/home-game-variants.md))"}
    late = [a for a in actions if a not in bob]
    last = max(i for i, a in enumerate(late) if a.kind == "check")
    after = replace(hand, actions=(*late[:last + 1], *bob, *late[last + 1:]))
    assert set(_codes(after)) == {"STEP_OUT_OF_ORDER", "OUT_OF_TURN"}


def test_a_card_up_for_down_and_a_fee_where_nothing_is_sold() -> None:
    hand = sample_hands("mutual_of_omaha")[0]
    bought = next(a for a in hand.actions if a.kind == "deal" and a.street == "river")
    up = replace(hand, actions=tuple(replace(a, detail="up") if a is bought else a for a in hand.actions))
    assert "Cy is dealt 1 card(s) up for their fee" in _codes(up)["WRONG_PURCHASE"]
    fee = _fee(hand, "Cy")
    turn = next(i for i, a in enumerate(hand.actions) if a.street == "turn")
    early = [a for a in hand.actions if a is not fee and a is not bought]
    moved = replace(hand, actions=(*early[:turn], replace(fee, street="turn"), *early[turn:]))
    found = _codes(moved)
    assert "Cy pays 400 on turn, where Mutual of Omaha sells nothing" in found["WRONG_PURCHASE"]


@pytest.mark.parametrize(("text", "key", "expected"), [
    ('[[street]]\nname = "flop"\nprice = "big"\n', "street[1].price", "the street needs `sells`"),
    ('[[street]]\nname = "flop"\nsells = "card"\n', "street[1].sells", "expected one of twist, down, up"),
    ('[[street]]\nname = "flop"\nsells = "up"\nprice = "max"\n', "street[1].price",
     "expected one of small, big"),
    ('structures = ["limit", "pot-limit"]\n[[street]]\nname = "flop"\nsells = "down"\n', "structures",
     'structures = ["limit"]'),
    ('structures = ["limit"]\n[[street]]\nname = "flop"\nsells = "twist"\ndraw = [0, 1]\n', "street[1].sells",
     "a street that sells a twist draws nothing else"),
    ('structures = ["limit"]\n[[street]]\nname = "flop"\nsells = "up"\nin_turn = ["purchase"]\n',
     "street[1].in_turn[1]", "expected one of draw, discard, roll, buy"),
    ('structures = ["limit"]\n[[street]]\nname = "flop"\nsells = "hole"\n', "street[1].counts",
     'counts (the numbers of cards a purchase plays) exactly with sells = "hole"'),
    ('structures = ["limit"]\n[[street]]\nname = "flop"\ncounts = [1, 3]\n', "street[1].counts",
     'exactly with sells = "hole"'),
    ('structures = ["limit"]\n[[street]]\nname = "flop"\nsells = "hole"\ncounts = [1, 3]\n', "hand",
     'hand = "portions"'),
    ('structures = ["limit"]\n[[street]]\nname = "flop"\nsells = "hole"\ncounts = [1, 6]\n',
     "street[1].counts", "counts of 0 to 5 cards"),
])
def test_a_wrong_sale_key_is_located(tmp_path: Path, text: str, key: str, expected: str) -> None:
    (tmp_path / "sale.toml").write_text('id = "sale"\nname = "Sale"\nrule = "house"\nextends = "omaha"\n'
                                        + text, encoding="utf-8")
    with pytest.raises(GameDefinitionError) as error:
        load([tmp_path / "sale.toml"], ALL_GAMES, house=True)
    assert (error.value.key, expected in error.value.expected) == (key, True), error.value


def test_the_catalog_entry_names_the_sale() -> None:
    from evaluator.catalog import catalog_entry

    streets = catalog_entry(ALL_GAMES["mutual_of_omaha"])["streets"]
    assert isinstance(streets, list)
    assert [(s["name"], s.get("sells"), s.get("price")) for s in streets][-1] == ("river", "down", "big")
    assert all("sells" not in s for s in catalog_entry(ALL_GAMES["omaha_hi_lo"])["streets"])  # type: ignore[union-attr]


@pytest.mark.parametrize("game", FEES)
def test_generated_hands_buy_and_have_no_findings(game: str, tmp_path: Path) -> None:
    hands, findings = generated_findings(game, tmp_path)
    assert [(f.hand_id, f.code.name, f.message) for f in findings] == []
    fees = [a for h in hands for a in h.actions if a.kind == "fee"]
    assert fees and all(a.amount == h.stakes.big_bet for h in hands for a in h.actions if a.kind == "fee")
    for hand in hands:  # every net counts the fees: the stacks the record ends with are the rules'
        assert recorded_ending_stacks(hand) == {f.player: f.amount for f in hand.final_stacks}


@pytest.mark.parametrize("game", FEES)
def test_the_samples_agree_with_the_rules_and_pay_the_max_bet(game: str) -> None:
    hands = sample_hands(game)
    assert len(hands) == 3 and (HOME / f"{game}.toml").is_file()
    assert [f for hand in hands for f in replay(hand)] == []
    assert {a.amount for h in hands for a in h.actions if a.kind == "fee"} == {400 * C}


def test_the_high_hand_showing_ranks_unequal_numbers_of_cards_as_poker_does() -> None:
    """Retro Hold'em rule 8: "the player with the high hand showing opening", some players showing
    bought up cards and some not: a pair beats no pair, then the highest card."""
    from evaluator.cards import showing_key

    def key(cards: str) -> tuple[object, ...]:
        return showing_key(cards.split(), "high")

    assert key("Jc") > key("7s 2h") > key("7d") > key("")
    assert key("2c 2d") > key("As Kd Qh") and key("9c 9d 4h") > key("9s 9h")


def test_the_cards_bought_to_play_decide_the_hand() -> None:
    """Omaha 33 rule 9: "pay max bet to use one or three cards in their final hand. They must
    declare how many they are using. If you don't pay, you must use two"."""
    hand = sample_hands("omaha_33")[0]  # Bob pays to play three: a flush that two cards do not make
    count = next(a for a in hand.actions if a.kind == "declare" and a.detail == "3")
    dropped = replace(hand, actions=tuple(a for a in hand.actions if a is not count))
    assert set(_codes(dropped)) == {"FEE_WITHOUT_CARD", "MISREAD_HAND"}
    two = replace(hand, actions=tuple(replace(a, detail="2") if a is count else a for a in hand.actions))
    assert "Bob declares 2 cards: in Omaha 33 each player in turn may play 1 or 3 of their down cards" in \
        _codes(two)["WRONG_PURCHASE"]
    unpaid = replace(hand, actions=tuple(a for a in hand.actions if a.kind != "fee"))
    assert "Bob declares 3 cards with no fee paid" in _codes(unpaid)["UNPAID_CARD"]
