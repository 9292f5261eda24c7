"""The order of steps inside a street, the roller of the dice, and Oklahoma's board removal: each
game's Dealing Procedure says whether a draw, discard, roll, split, exposure, choice or removal
comes before or after its street's betting, and whether players take it in turn (§2.17)."""

from __future__ import annotations

from evaluator.catalog import AFTER_BETTING, BEFORE_BETTING, GAMES, WITH_OWN_ACTION
from evaluator.findings import Finding
from evaluator.replay import replay
from grammar.barge_parser import parse_hand
from tests.rulebook import UNFINISHED, hand_text

TWO = [("Ann", 3000), ("Bo", 3000)]
THREE = [("Ann", 3000), ("Bo", 3000), ("Cy", 3000)]
HEADS_UP_BLINDS = ["Ann: posts small blind 100", "Bo: posts big blind 200", "*** HOLE CARDS ***",
                   "Ann: calls 100", "Bo: checks"]


def findings(header: str, seats: list[tuple[str, int]], lines: list[str]) -> list[Finding]:
    """The findings about the recorded part of a short hand (tests.rulebook)."""
    return [f for f in replay(parse_hand(hand_text(header, seats, lines))) if f.code.name not in UNFINISHED]


def codes(header: str, seats: list[tuple[str, int]], lines: list[str]) -> list[tuple[str, str]]:
    return [(f.code.name, f.rule) for f in findings(header, seats, lines)]


# ---- the catalog -----------------------------------------------------------------------------


def test_every_step_a_section_places_against_the_betting_is_in_the_catalog() -> None:
    placed = {
        (g.id, s.name, step): when for g in GAMES.values() for s in g.streets for step, when in s.timing
    }
    for game in ("ace_to_five_triple_draw", "archie", "badacey", "badeucy", "badugi", "duck_flush",
                 "korean", "deuce_to_seven_triple_draw"):
        for street in ("first_draw", "second_draw", "third_draw"):
            assert placed[game, street, "draw"] == BEFORE_BETTING  # §2.17: a draw, then a round of betting
    for game in ("california_lowball", "deuce_to_seven_lowball", "five_card_draw", "quick_quads"):
        assert placed[game, "draw", "draw"] == BEFORE_BETTING
    for game in ("dramaha", "dramaha_49", "dramadugi"):
        assert placed[game, "flop", "draw"] == AFTER_BETTING  # §2.19: "the draw follows" the flop betting
    for street in ("flop", "turn", "river"):
        assert placed["triple_draw_dramaha", street, "draw"] == BEFORE_BETTING  # §2.53
    for game in ("binglaha", "omaha_x_or_better", "bidirectional_chowaha"):
        assert placed[game, "flop", "roll"] == AFTER_BETTING  # §2.10, §2.37, §2.8
    assert placed["oklahoma", "river", "remove_board"] == BEFORE_BETTING  # §2.34
    assert placed["sohe", "hole_cards", "split"] == AFTER_BETTING  # §2.46
    assert placed["scrotum", "hole_cards", "discard"] == WITH_OWN_ACTION  # §2.43
    for game in ("super_stud", "super_stud_hi_lo", "super_razz"):
        assert placed[game, "3rd_street", "discard"] == AFTER_BETTING  # §2.50
    assert placed["paradise_road_pickem", "hole_cards", "choose"] == BEFORE_BETTING  # §2.38
    choices = dict(GAMES["paradise_road_pickem"].choices)
    assert choices["texas_holdem"][0].when("discard") == BEFORE_BETTING  # "each player must discard one"
    assert choices["stud"][0].when("expose") == WITH_OWN_ACTION  # "If they call or raise they will expose"
    for stud_street in GAMES["mexican_poker"].streets:
        assert stud_street.when("expose") == AFTER_BETTING  # §2.31: "After the betting round is complete"
    # §2.14, §2.26: "before the next board card is revealed", with the flop chips: anywhere on the flop
    assert GAMES["crazy_pineapple_hi_lo"].street("flop").when("discard") is None
    assert GAMES["irish"].street("flop").when("discard") is None
    # every draw is taken "each player in turn"
    assert all("draw" in s.in_turn for g in GAMES.values() for s in g.streets if s.draw)


# ---- before or after the betting -------------------------------------------------------------

DRAMAHA = "dramaha limit (blinds 100/200, bets 200/400)"


def test_dramaha_draw_follows_the_flop_betting() -> None:
    # §2.19: "Three community cards ... a round of betting ... Then each player in turn discards"
    before = [*HEADS_UP_BLINDS, "*** FLOP *** [Kh 8h 3c]", "Bo: discards 2 and draws [?? ??]",
              "Bo: checks", "Ann: checks"]
    assert codes(DRAMAHA, TWO, before) == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.19")]
    after = [*HEADS_UP_BLINDS, "*** FLOP *** [Kh 8h 3c]", "Bo: checks", "Ann: checks",
             "Bo: discards 2 and draws [?? ??]", "Ann: stands pat", "*** TURN *** [4s]"]
    assert codes(DRAMAHA, TWO, after) == []


def test_a_draw_in_the_middle_of_the_betting_is_out_of_order() -> None:
    # §2.19: the draw comes once the flop betting is over, not while Ann still owes a call.
    lines = [*HEADS_UP_BLINDS, "*** FLOP *** [Kh 8h 3c]", "Bo: bets 200", "Bo: discards 1 and draws [??]",
             "Ann: calls 200"]
    assert codes(DRAMAHA, TWO, lines) == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.19")]


def test_triple_draw_dramaha_draws_before_each_betting_round() -> None:
    # §2.53: "Note that this differs from Dramaha, where the draw takes place AFTER the flop betting."
    header = "triple_draw_dramaha limit (blinds 100/200, bets 200/400)"
    after = [*HEADS_UP_BLINDS, "*** FLOP *** [Kh 8h 3c]", "Bo: checks", "Ann: checks",
             "Bo: stands pat", "Ann: stands pat"]
    assert codes(header, TWO, after) == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.53")] * 2
    before = [*HEADS_UP_BLINDS, "*** FLOP *** [Kh 8h 3c]", "Bo: stands pat", "Ann: stands pat",
              "Bo: checks", "Ann: checks"]
    assert codes(header, TWO, before) == []


def test_a_draw_game_draws_before_the_betting_of_its_street() -> None:
    # §2.17: "Each player in turn discards ... This is followed by a round of betting".
    header = "deuce_to_seven_triple_draw limit (blinds 100/200, bets 200/400)"
    lines = [*HEADS_UP_BLINDS, "*** FIRST DRAW ***", "Bo: stands pat", "Bo: checks",
             "Ann: discards 1 and draws [??]", "Ann: checks"]
    assert codes(header, TWO, lines) == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.17")]


BINGLAHA = "binglaha pot-limit (blinds 100/200)"


def test_binglaha_die_is_rolled_after_the_flop_betting() -> None:
    # §2.10: the flop, "a round of betting ... At this point a single (standard) die is rolled".
    early = [*HEADS_UP_BLINDS, "*** FLOP *** [9c 8d 2s]", "Ann: rolls 5", "Bo: checks", "Ann: checks"]
    assert codes(BINGLAHA, TWO, early) == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.10")]
    on_time = [*HEADS_UP_BLINDS, "*** FLOP *** [9c 8d 2s]", "Bo: checks", "Ann: checks", "Ann: rolls 5",
               "*** TURN *** [Kh]"]
    assert codes(BINGLAHA, TWO, on_time) == []


def test_oklahoma_removal_comes_before_the_river_betting() -> None:
    # §2.34: "Board removal is followed by a round of betting at the big bet limit."
    late = [*OKLAHOMA_TO_RIVER, "Bo: checks", "Ann: checks", "Dealer: removes board 1"]
    assert codes(OKLAHOMA, TWO, late) == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.34")]


def test_sohe_split_follows_the_pre_flop_betting() -> None:
    # §2.46: "Each player still in the hand after the pre-flop betting separates their six cards".
    header = "sohe limit (blinds 100/200, bets 200/400)"
    lines = ["Ann: posts small blind 100", "Bo: posts big blind 200", "*** HOLE CARDS ***",
             "Ann: splits [Ah Kh] [9c 9d 5s 4s]", "Ann: calls 100", "Bo: checks",
             "Bo: splits [Qh Qd] [8c 7c 6s 2s]", "*** FLOP *** [Kd 8d 3h]"]
    assert codes(header, TWO, lines) == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.46")]


def test_scrotum_discard_goes_with_the_players_first_action() -> None:
    # §2.43: "When a player first indicates their willingness to continue ... at the same time they
    # should place the cards they wish to discard under the chips".
    header = "scrotum limit (blinds 100/200, bets 200/400)"
    blinds = ["Ann: posts small blind 100", "Bo: posts big blind 200", "*** HOLE CARDS ***"]
    early = [*blinds, "Ann: discards [9c 8c 3d]", "Ann: calls 100", "Bo: checks", "Bo: discards [2h]"]
    assert codes(header, TWO, early) == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.43")]
    with_chips = [*blinds, "Ann: calls 100", "Ann: discards [9c 8c 3d]", "Bo: checks", "Bo: discards [2h]",
                  "*** FLOP *** [Kd 8d 3h]"]
    assert codes(header, TWO, with_chips) == []


def test_super_stud_discards_after_the_third_street_betting() -> None:
    # §2.50: "there is a bring-in and a round of betting. Next, each player must discard two cards"
    header = "super_stud limit (ante 25, bring-in 25, bets 100/200)"
    deal = ["Ann: posts the ante 25", "Bo: posts the ante 25", "*** 3RD STREET ***",
            "Dealt to Ann [?? ?? ?? ??] up [9c]", "Dealt to Bo [?? ?? ?? ??] up [3c]"]
    early = [*deal, "Ann: discards 2", "Bo: brings in for 25", "Ann: calls 25", "Bo: discards 2"]
    found = findings(header, TWO, early)
    assert [(f.code.name, f.rule) for f in found] == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.50")]
    assert "Ann's discard came before the 3rd street betting was over" in found[0].message
    on_time = [*deal, "Bo: brings in for 25", "Ann: calls 25", "Ann: discards 2", "Bo: discards 2",
               "*** 4TH STREET ***"]
    assert codes(header, TWO, on_time) == []


def test_pickem_game_choice_comes_before_the_betting() -> None:
    # §2.38: three cards, then "the player under the gun determines" the game; heads-up the button.
    header = "paradise_road_pickem limit (blinds 100/200, bets 200/400)"
    late = ["Ann: posts small blind 100", "Bo: posts big blind 200", "*** HOLE CARDS ***", "Ann: calls 100",
            "Ann: chooses omaha_hi_lo", "Bo: checks"]
    assert codes(header, TWO, late) == [("STEP_OUT_OF_ORDER", "BARGE 2025 §2.38")]


# ---- in turn ---------------------------------------------------------------------------------

TRIPLE_DRAW = "deuce_to_seven_triple_draw limit (blinds 50/100, bets 100/200)"
TRIPLE_DRAW_DEAL = ["Bo: posts small blind 50", "Cy: posts big blind 100", "*** HOLE CARDS ***",
                    "Ann: calls 100", "Bo: calls 50", "Cy: checks", "*** FIRST DRAW ***"]


def test_draws_go_in_turn_from_the_left_of_the_button() -> None:
    # §2.17: "Each player in turn discards zero to five cards", from the first player left of the
    # button (Ann, seat 1, has the button: Bo, Cy, then Ann).
    wrong = [*TRIPLE_DRAW_DEAL, "Cy: discards 2 and draws [?? ??]", "Bo: stands pat",
             "Ann: discards 1 and draws [??]"]
    found = findings(TRIPLE_DRAW, THREE, wrong)
    assert [(f.code.name, f.rule) for f in found] == [("OUT_OF_TURN", "BARGE 2025 §2.17")]
    assert "Cy takes the draw when it was Bo's turn" in found[0].message
    right = [*TRIPLE_DRAW_DEAL, "Bo: stands pat", "Cy: discards 2 and draws [?? ??]",
             "Ann: discards 1 and draws [??]", "Bo: checks"]
    assert codes(TRIPLE_DRAW, THREE, right) == []


def test_a_folded_player_is_skipped_in_the_draw_order() -> None:
    lines = ["Bo: posts small blind 50", "Cy: posts big blind 100", "*** HOLE CARDS ***",
             "Ann: calls 100", "Bo: folds", "Cy: checks", "*** FIRST DRAW ***",
             "Cy: discards 2 and draws [?? ??]", "Ann: stands pat", "Cy: checks"]
    assert codes(TRIPLE_DRAW, THREE, lines) == []


# ---- the roller of the dice (§1.13) ----------------------------------------------------------

BINGLAHA_THREE = ["Bo: posts small blind 100", "Cy: posts big blind 200", "*** HOLE CARDS ***"]


def test_the_player_on_the_button_rolls_while_in_the_hand() -> None:
    # §1.13: "the dice (or die) are rolled by the player on the button" (Ann, seat 1).
    lines = [*BINGLAHA_THREE, "Ann: calls 200", "Bo: calls 100", "Cy: checks", "*** FLOP *** [9c 8d 2s]",
             "Bo: checks", "Cy: checks", "Ann: checks", "Dealer: rolls 3"]
    found = findings(BINGLAHA, THREE, lines)
    assert [(f.code.name, f.rule) for f in found] == [("WRONG_DICE", "BARGE 2025 §1.13")]
    assert "the dealer rolls; the player on the button (Ann) is in the hand" in found[0].message
    assert codes(BINGLAHA, THREE, [*lines[:-1], "Ann: rolls 3"]) == []


def test_the_dealer_may_roll_once_the_button_player_has_folded() -> None:
    lines = [*BINGLAHA_THREE, "Ann: folds", "Bo: calls 100", "Cy: checks", "*** FLOP *** [9c 8d 2s]",
             "Bo: checks", "Cy: checks", "Dealer: rolls 3", "*** TURN *** [Kh]"]
    assert codes(BINGLAHA, THREE, lines) == []
    # another player still is not the player on the button
    assert codes(BINGLAHA, THREE, [*lines[:-2], "Bo: rolls 3"]) == [("WRONG_DICE", "BARGE 2025 §1.13")]


# ---- Oklahoma's removal (§2.34) --------------------------------------------------------------

OKLAHOMA = "oklahoma limit (blinds 100/200, bets 200/400)"
OKLAHOMA_TO_RIVER = [
    *HEADS_UP_BLINDS,
    "*** FLOP ***", "Dealer: deals board 1 [Qh Js 4s]", "Dealer: deals board 2 [Ks 9d 4c]",
    "Dealer: deals board 3 [Tc 9h 5s]", "Bo: checks", "Ann: checks",
    "*** TURN ***", "Dealer: deals board 1 [6c]", "Dealer: deals board 2 [7h]", "Dealer: deals board 3 [8d]",
    "Bo: checks", "Ann: checks",
    # the rivers: a deuce, an ace, a king; "The deuce is the lowest rank and the Ace is the highest"
    "*** RIVER ***", "Dealer: deals board 1 [2h]", "Dealer: deals board 2 [Ac]", "Dealer: deals board 3 [Kd]",
]


def test_the_deuce_row_is_removed_and_the_ace_is_high() -> None:
    right = [*OKLAHOMA_TO_RIVER, "Dealer: removes board 1", "Bo: checks", "Ann: checks"]
    assert codes(OKLAHOMA, TWO, right) == []
    ace_low = [*OKLAHOMA_TO_RIVER, "Dealer: removes board 2", "Bo: checks", "Ann: checks"]
    assert codes(OKLAHOMA, TWO, ace_low) == [("WRONG_BOARD_REMOVAL", "BARGE 2025 §2.34")]


def test_a_removal_is_checked_when_nobody_reaches_the_showdown() -> None:
    # The wrong row removed, then a bet that wins the pot: the removal is still wrong (§2.34).
    lines = [*OKLAHOMA_TO_RIVER, "Dealer: removes board 3", "Bo: bets 400", "Ann: folds",
             "Uncalled bet (400) returned to Bo", "Bo collected 400 from pot"]
    assert codes(OKLAHOMA, TWO, lines) == [("WRONG_BOARD_REMOVAL", "BARGE 2025 §2.34")]
    right = [*OKLAHOMA_TO_RIVER, "Dealer: removes board 1", "Bo: bets 400", "Ann: folds",
             "Uncalled bet (400) returned to Bo", "Bo collected 400 from pot"]
    assert codes(OKLAHOMA, TWO, right) == []
