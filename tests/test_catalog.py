"""The catalog says what each game's rulebook section says."""

from __future__ import annotations

import pytest

from evaluator.cards import card_order, showing_key
from evaluator.catalog import GAMES, LEFT_OF_BIG_BLIND, SHOWING
from evaluator.profiles import OPTIONS, PROFILES, resolve
from evaluator.variants import VARIANTS
from tests.rulebook import hand_text, rule_codes


def test_every_variant_id_has_a_game() -> None:
    assert set(GAMES) == set(VARIANTS)
    assert all(g.rule == f"BARGE 2025 §{VARIANTS[g.id].section}" for g in GAMES.values())


@pytest.mark.parametrize(
    ("variant", "size"),
    [
        ("texas_holdem", 52),
        ("short_deck_holdem", 36),
        ("short_deck_omaha", 36),
        ("mexican_poker", 41),
        ("california_lowball", 53),
        ("five_card_draw", 53),
        ("razz", 52),
    ],
)
def test_decks(variant: str, size: int) -> None:
    assert GAMES[variant].deck.size == size


@pytest.mark.parametrize(
    ("variant", "street", "limits"),
    [
        ("deuce_to_seven_triple_draw", "first_draw", (0, 5)),
        ("badugi", "third_draw", (0, 4)),
        ("dramaha", "flop", (0, 5)),
        ("dramaha_49", "flop", (0, 3)),
        ("dramadugi", "flop", (0, 3)),
        ("triple_draw_dramaha", "river", (0, 5)),
    ],
)
def test_draw_limits(variant: str, street: str, limits: tuple[int, int]) -> None:
    assert GAMES[variant].street(street).draw == limits


@pytest.mark.parametrize(
    ("variant", "street", "count"),
    [
        ("super_stud", "3rd_street", (2, 2)),
        ("super_razz", "3rd_street", (2, 2)),
        ("crazy_pineapple_hi_lo", "flop", (1, 1)),
        ("irish", "flop", (2, 2)),
        ("scrotum", "hole_cards", (0, 4)),
    ],
)
def test_discards_without_a_draw(variant: str, street: str, count: tuple[int, int]) -> None:
    assert GAMES[variant].street(street).discard == count


def test_bring_in_card_orders() -> None:
    # 2♣ is the lowest card in Stud (§2.47), K♠ the highest in Razz (§2.40), A♠ in 2-7 Razz (§2.16).
    cards = ["2c", "2d", "2s", "Kc", "Ks", "Ac", "As"]

    def bring_in(variant: str) -> str:
        order = GAMES[variant].bring_in
        assert order is not None
        return max(cards, key=lambda c: card_order(c, order))

    assert bring_in("stud") == "2c"
    assert bring_in("razz") == "Ks"
    assert bring_in("deuce_to_seven_razz") == "As"


def test_first_to_act_showing() -> None:
    assert showing_key(["8h", "8c", "5d", "5s"], "high") > showing_key(["Kd", "Kc", "Ah", "4s"], "high")
    assert showing_key(["5h", "3c"], "low_a5") > showing_key(["6h", "Ac"], "low_a5")
    assert showing_key(["Ah", "3c"], "low_27") < showing_key(["7h", "3c"], "low_27")
    assert GAMES["razz"].street("4th_street").first == SHOWING
    assert GAMES["mississippi_stud"].street("3rd_street").first == LEFT_OF_BIG_BLIND


def test_limits_by_round() -> None:
    assert [s.bet for s in GAMES["california_lowball"].streets] == ["small", "big"]
    assert [s.bet for s in GAMES["stud"].streets] == ["small", "small", "big", "big", "big"]
    assert [s.bet for s in GAMES["texas_holdem"].streets] == ["small", "small", "big", "big"]


def test_profiles_name_only_known_options() -> None:
    for options in PROFILES.values():
        assert set(options) == set(OPTIONS)
        assert all(options[name] in OPTIONS[name].values for name in options)
    assert resolve("barge-2025", (("raise_cap", "9"),)).unknown == (("raise_cap", "9"),)


OKLAHOMA = [
    "Ann: posts small blind 100",
    "Bo: posts big blind 200",
    "*** HOLE CARDS ***",
    "Ann: calls 100",
    "Bo: checks",
    "*** FLOP ***",
    "Dealer: deals board 1 [Qh Js 2s]",
    "Dealer: deals board 2 [Ks 9d 4c]",
    "Dealer: deals board 3 [Ac 9h 5s]",
    "Bo: checks",
    "Ann: checks",
    "*** TURN ***",
    "Dealer: deals board 1 [6c]",
    "Dealer: deals board 2 [7h]",
    "Dealer: deals board 3 [Tc]",
    "Bo: checks",
    "Ann: checks",
    "*** RIVER ***",
]


@pytest.mark.parametrize(
    ("rivers", "removed", "rules", "codes"),
    [
        (("3h", "8s", "3c"), ("1", "3"), "barge-2025", []),  # §2.34's example: both rows with a 3
        (("3h", "8s", "3c"), ("1",), "barge-2025", ["WRONG_BOARD_REMOVAL"]),
        (("8h", "8s", "8c"), (), "barge-2025", []),  # all three the same rank: none removed
        (("2h", "8s", "Ad"), ("1",), "barge-2025", []),  # the deuce is lowest, the ace highest
        (("2h", "8s", "Ad"), ("1", "2", "3"), "barge-2025; oklahoma=cash", []),  # the cash-game rule
    ],
)
def test_oklahoma_board_removal(
    rivers: tuple[str, ...], removed: tuple[str, ...], rules: str, codes: list[str]
) -> None:
    lines = OKLAHOMA + [f"Dealer: deals board {i} [{c}]" for i, c in enumerate(rivers, 1)]
    lines += [f"Dealer: removes board {b}" for b in removed] + ["Bo: checks", "Ann: checks"]
    text = hand_text(
        "oklahoma limit (blinds 100/200, bets 200/400)", [("Ann", 2000), ("Bo", 2000)], lines, rules=rules
    )
    assert rule_codes(text) == codes


def test_joker_only_where_the_profile_deals_it() -> None:
    lines = [
        "Bo: posts small blind 50",
        "Cy: posts big blind 100",
        "*** HOLE CARDS ***",
        "Dealt to Ann [Jk 7h 5d 3c 2s]",
    ]
    seats = [("Ann", 1000), ("Bo", 1000), ("Cy", 1000)]
    header = "california_lowball limit (blinds 50/100, bets 100/200)"
    assert rule_codes(hand_text(header, seats, [*lines, "Ann: folds"])) == []
    no_joker = hand_text(header, seats, [*lines, "Ann: folds"], rules="barge-2025; joker=no")
    assert rule_codes(no_joker) == ["CARD_NOT_IN_DECK"]
