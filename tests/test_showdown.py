"""The showdown of evaluator/showdown.py against the BARGE Rulebook (2025): each game's
"Evaluating the Showdown" paragraph and its worked examples, §1.4 (ties, odd-chip order)."""

from __future__ import annotations

import pytest

from evaluator.catalog import GAMES
from evaluator.codes import parse
from evaluator.showdown import Award, Holding, Portion, best_hands, showdown

PICKEM = "paradise_road_pickem"


def cards(text: str) -> tuple[str, ...]:
    return tuple(parse(text))


def portion(game: str, name: str, hole: str, board: str = "", *,
            boards: dict[str, tuple[str, ...]] | None = None, dice: tuple[int, ...] | list[int] = (),
            options: dict[str, str] | None = None) -> Portion:
    """One portion of a player's best hands; `board` is board "1" as text."""
    table = {"1": cards(board)} if board else boards
    return {p.name: p for p in best_hands(game, cards(hole), table, dice, options)}[name]


def winners(awards: tuple[Award, ...]) -> dict[str, tuple[int, ...]]:
    return {a.portion: a.winners for a in awards}


def test_every_catalog_game_has_a_showdown() -> None:
    deck = [r + u for u in "cdhs" for r in "23456789TJQKA"]
    names = {"high", "low", "badugi", "points", "draw", "omaha", "hold'em"}
    for game in GAMES:
        n = 7 if game == PICKEM else GAMES[game].hole_cards
        hole, rest = tuple(deck[:n]), deck[n:]
        boards = {"1": tuple(rest[0:5]), "2": tuple(rest[5:10]), "3": tuple(rest[10:15]),
                  "top": tuple(rest[15:18]), "middle": tuple(rest[18:21]), "bottom": tuple(rest[21:24]),
                  "turn": tuple(rest[24:26]), "river": tuple(rest[26:27])}
        hands = best_hands(game, hole, boards, [1, 2], split=(hole[:2], hole[2:6]), chosen="stud")
        assert hands and {p.name for p in hands} <= names, game
        assert any(p.rank is not None for p in hands), game


# ---- §2.2 Action Razz ---------------------------------------------------------------------------

def test_action_razz_extreme_example() -> None:
    butt = cards("Ah2h3s4c5d6s7c")
    face = cards("KhKdKsKcQdQsQc")
    assert winners(showdown("action_razz", [butt, face])) == {"low": (1,)}
    hand = portion("action_razz", "low", "KhKdKsKcQdQsQc")
    assert hand.description == "Face full house, Queens full of Kings"
    assert portion("action_razz", "low", "Ah2h3s4c5d6s7c").description.startswith("Butt 5-4-3-2-A")


def test_action_razz_three_players_and_side_pot() -> None:
    p1, p2, p3 = cards("2h2d3s3c4d5s7c"), cards("AhAd2s4c4h6s8c"), cards("3h5d7s8d9hQsKc")
    main = showdown("action_razz", [p1, p2, p3])
    assert winners(main) == {"low": (2,)}
    assert main[0].description.startswith("Face 9-8-7-5-3")
    side = showdown("action_razz", [p1, p2])
    assert winners(side) == {"low": (0,)}
    assert side[0].description.startswith("Butt 7-5-4-3-2")
    assert portion("action_razz", "low", "AhAd2s4c4h6s8c").description.startswith("Butt 8-6-4-2-A")


def test_action_razzdugi_badugi_needs_no_face() -> None:
    face, butt = cards("KcQdJh9s9c8d7h"), cards("Ac2d3h4s5c6d7h")
    assert winners(showdown("action_razzdugi", [face, butt])) == {"low": (0,), "badugi": (1,)}


# ---- §2.21 Duck Flush ---------------------------------------------------------------------------

def test_duck_flush_first_example_flushes_compare_high() -> None:
    awards = showdown("duck_flush", [cards("AhQhJhTh2h"), cards("KcJc8c5c3c")])
    assert winners(awards) == {"high": (0,)}
    assert len(awards) == 1  # not a split pot


def test_duck_flush_second_example_straight_is_no_high() -> None:
    awards = showdown("duck_flush", [cards("8h5d4c3s2d"), cards("8c6d5s4h3c"), cards("7h6c5h4s3d")])
    assert winners(awards) == {"high": (0,)}
    # a flush, even the worst, beats the best low
    assert winners(showdown("duck_flush", [cards("7h5d4c3s2d"), cards("7c5c4c3c2c")])) == {"high": (1,)}


# ---- §2.54 Two or Five Omaha --------------------------------------------------------------------

def test_two_or_five_omaha_example() -> None:
    hands = best_hands("two_or_five_omaha_hi_lo", cards("AhQhJhTh2h"), {"1": cards("3s5h7cKhQd")})
    high, low = hands
    assert (high.name, set(high.cards), high.description) == (
        "high", set(cards("AhQhJhTh2h")), "flush, A-Q-J-T-2")
    assert (low.name, set(low.cards)) == ("low", set(cards("Ah2h3s5h7c")))
    assert low.description.startswith("7-5-3-2-A")


def test_two_or_five_omaha_all_five_low() -> None:
    # the five hole cards make a wheel although only one low card pair is on the board
    low = portion("two_or_five_omaha_hi_lo", "low", "Ac2d3h4s5c", "KsKdQh8c9c")
    assert set(low.cards) == set(cards("Ac2d3h4s5c"))
    assert portion("omaha_hi_lo", "low", "Ac2d3h4s", "KsKdQh8c9c").rank is None


# ---- §2.12 / §2.25 Chowaha, §2.8 Bidirectional Chowaha ----------------------------------------

SQUARE = {"top": cards("QhJh2c"), "middle": cards("3d4s9c"), "bottom": cards("5d6s8c"),
          "turn": cards("7dTh"), "river": cards("2s")}


def test_chowaha_top_row_with_bottom_turn_is_forbidden() -> None:
    # A♥K♥ + Q♥J♥ (top row) + T♥ (bottom turn) would be a royal flush: not a board path
    high = portion("chowaha", "high", "AhKh", boards=SQUARE)
    assert high.description == "pair of Deuces with A-K-Q"
    # the same T♥ as the top turn card is contiguous with the top row
    moved = dict(SQUARE, turn=cards("Th7d"))
    assert portion("chowaha", "high", "AhKh", boards=moved).description == "royal flush"


def test_chowaha_bottom_row_with_top_turn_is_forbidden() -> None:
    square = {"top": cards("2c3d4s"), "middle": cards("9c9dKs"), "bottom": cards("QhJh8c"),
              "turn": cards("Th7d"), "river": cards("2s")}
    assert portion("chowaha", "high", "AhKh", boards=square).description != "royal flush"
    assert portion("four_card_chowaha_hi_lo", "high", "AhKh6c6d", boards=square).description != "royal flush"
    square["turn"] = cards("7dTh")
    assert portion("four_card_chowaha_hi_lo", "high", "AhKh6c6d", boards=square).description == "royal flush"


def test_chowaha_format_example() -> None:
    board = {"top": cards("KhQd9s"), "middle": cards("JsTc4d"), "bottom": cards("Ac8h8d"),
             "turn": cards("Kc5s"), "river": cards("2h")}
    awards = showdown("chowaha", [cards("7c6c"), cards("KsKd")], board)
    assert winners(awards) == {"high": (1,), "low": (0,)}
    assert awards[0].description == "four of a kind, Kings with a Queen"
    assert awards[1].description.startswith("7-6-5-2-A")


def test_bidirectional_chowaha_die() -> None:
    # 1-3: rows as in Chowaha; 4-6: the columns with the turn cards below them
    low_roll = portion("bidirectional_chowaha", "high", "AhKh9h9d", boards=SQUARE, dice=[2])
    assert low_roll.description == "three of a kind, Nines with T-4"  # middle row + bottom turn
    high_roll = portion("bidirectional_chowaha", "high", "AhKh9h9d", boards=SQUARE, dice=[5])
    assert high_roll.description == "full house, Nines full of Deuces"  # right column 2♣ 9♣ 8♣
    assert set(high_roll.cards) == set(cards("9h9d9c2c2s"))
    # the left column Q♥ J♥ 8♥ may not be played with turn position 2 (T♥), only with position 1
    left = {"top": cards("Qh2c9s"), "middle": cards("Jh3d4s"), "bottom": cards("8h5d6s"),
            "turn": cards("7dTh"), "river": cards("2s")}
    game = "bidirectional_chowaha"
    assert portion(game, "high", "AhKh", boards=left, dice=[4]).description != "royal flush"
    left["turn"] = cards("Th7d")
    assert portion(game, "high", "AhKh", boards=left, dice=[4]).description == "royal flush"
    assert portion(game, "high", "AhKh", boards=left, dice=[3]).description != "royal flush"  # rows


# ---- §2.34 Oklahoma, §2.33 Murder ---------------------------------------------------------------

def test_oklahoma_format_example_and_one_row() -> None:
    board = {"2": cards("Ks9d4c7h8s")}  # rows 1 and 3 removed by the caller
    awards = showdown("oklahoma", [cards("KcKd5d6h"), cards("AhTd2cJd")], board)
    assert winners(awards) == {"high": (1,), "low": (1,)}
    assert awards[0].description == "straight, Jack high"
    assert awards[1].description.startswith("8-7-4-2-A")


def test_oklahoma_three_board_cards_from_one_row() -> None:
    rows = {"1": cards("Qh2c3d7s8c"), "2": cards("JhTh4s5c9d")}
    # A♥K♥ + Q♥ (row 1) + J♥T♥ (row 2) would be a royal flush
    high = portion("oklahoma", "high", "AhKh6c6d", boards=rows)
    assert high.description not in ("royal flush", "straight, Ace high")
    rows["1"] = cards("QhJhTh7s8c")
    assert portion("oklahoma", "high", "AhKh6c6d", boards=rows).description == "royal flush"


def test_murder_one_card_per_row() -> None:
    grid = {"1": cards("QhJh2c3d"), "2": cards("4s5c6d3h"), "3": cards("8c9dTcKs")}
    # A♥K♥ + Q♥ J♥ 3♥ is a flush only with two cards of row 1
    high = portion("murder", "high", "AhKh2s2d", boards=grid)
    assert "flush" not in high.description
    rows = {n: {c[:1] for c in high.cards if c in grid[n]} for n in grid}
    assert all(len(used) == 1 for used in rows.values())
    grid = {"1": cards("Qh2cJc3d"), "2": cards("4s5c6d3h"), "3": cards("8cJh9dTc")}
    assert portion("murder", "high", "AhKh2s2d", boards=grid).description.startswith("flush")


# ---- §2.4 Archie, §2.27 Korean ------------------------------------------------------------------

def test_archie_scoop_when_nobody_qualifies() -> None:
    fives, ace_high = cards("5c5dKhQs9c"), cards("AhKdQcJs9h")
    awards = showdown("archie", [fives, ace_high])
    assert awards == (Award("high", (0,), awards[0].rank, "pair of Fives with K-Q-9"),)
    assert portion("archie", "high", "5c5dKhQs9c").rank is None


def test_archie_qualifiers() -> None:
    eights, low = cards("8c8dKhQs9c"), cards("Ah2d3c4s7h")
    assert winners(showdown("archie", [eights, low])) == {"high": (0,), "low": (1,)}
    # with the nines option the eights do not qualify: the low scoops
    nines = {"archie_qualifier": "nines"}
    assert winners(showdown("archie", [eights, low], options=nines)) == {"low": (1,)}
    # high qualifies, nobody has a low: the high scoops
    assert winners(showdown("archie", [eights, cards("9c9dKcQd2h")])) == {"high": (1,)}


def test_korean_straights_and_flushes_qualify_both_ways() -> None:
    straight, kings, wheel = cards("5c6d7h8s9c"), cards("KcKd2h3s4c"), cards("Ah2d3c4s6h")
    hands = best_hands("korean", straight)
    assert all(p.rank is not None for p in hands)
    flush = best_hands("korean", cards("2h5h9hJhKh"))
    assert all(p.rank is not None for p in flush)
    assert winners(showdown("korean", [straight, kings, wheel])) == {"high": (0,), "low": (2,)}
    assert portion("korean", "high", "Ah2d3c4s6h").rank is None
    assert portion("korean", "low", "KcKd2h3s4c").rank is None
    # nobody pairs: the low scoops; everyone pairs: the high scoops
    assert winners(showdown("korean", [wheel, cards("Kh9d7c4h3s")])) == {"low": (0,)}
    assert winners(showdown("korean", [kings, cards("2c2dAh3d4d")])) == {"high": (0,)}


# ---- badugi games -------------------------------------------------------------------------------

def test_badugi_appendix_examples() -> None:
    # same three-card 32A: the fourth card is not used, the pot is split
    assert winners(showdown("badugi", [cards("7s3s2hAd"), cards("3c3d2sAh")])) == {"badugi": (0, 1)}
    # 742 beats 75A
    assert winners(showdown("badugi", [cards("7s4c2h2d"), cards("7d5cAhAd")])) == {"badugi": (0,)}


def test_badacey_and_badeucy_splits() -> None:
    low, badugi = cards("2c3c4d5d7h"), cards("KsQhJdTc9c")
    assert winners(showdown("badacey", [low, badugi])) == {"low": (0,), "badugi": (1,)}
    assert [p.name for p in best_hands("badacey", low)] == ["low", "badugi"]  # the five-card hand first
    # Badeucy: the ace is high in both halves, so A-2-3-4 is no badugi wheel
    ace, deuce = cards("Ac2d3h4sKc"), cards("7c5d4h3s2d")
    assert winners(showdown("badacey", [ace, deuce])) == {"low": (1,), "badugi": (0,)}  # A-2-3-4 badugi
    assert winners(showdown("badeucy", [ace, deuce])) == {"low": (1,), "badugi": (1,)}  # 7-4-3-2 badugi
    assert portion("badeucy", "badugi", "Ac2d3h4sKc").description == "four-card K-4-3-2 badugi"


def test_razzdugi() -> None:
    low, badugi = cards("Ac2c3c4c5c9h9d"), cards("KsQhJdTc8s8h8d")
    assert winners(showdown("razzdugi", [low, badugi])) == {"low": (0,), "badugi": (1,)}


def test_dramadugi_badugi_uses_only_hole_cards() -> None:
    hands = best_hands("dramadugi", cards("Ac2d3h4sKs"), {"1": cards("KcKdKh9s8s")})
    assert [p.name for p in hands] == ["omaha", "badugi"]
    assert hands[0].description.startswith("four of a kind, Kings")
    assert hands[1].description == "four-card 4-3-2-A badugi"


# ---- Dramaha family -----------------------------------------------------------------------------

def test_dramaha_49_points() -> None:
    board = {"1": cards("2c3d4h5s6c")}
    assert portion("dramaha_49", "points", "TcTdThTs9c", boards=board).rank == 49
    assert portion("dramaha_49", "points", "KcQdJhAs9c", boards=board).rank == 10
    faces = {"dramaha49_faces": "1"}
    assert portion("dramaha_49", "points", "KcQdJhAs9c", boards=board, options=faces).rank == 13
    hands = best_hands("dramaha_49", cards("TcTdThTs9c"), board)
    assert [p.name for p in hands] == ["points", "omaha"]


def test_dramaha_draw_hand_and_omaha_hand() -> None:
    board = {"1": cards("AsAdKcQh2d")}
    hands = best_hands("dramaha", cards("7c7d7h3s4s"), board)
    assert [(p.name, p.description) for p in hands] == [
        ("draw", "three of a kind, Sevens with 4-3"), ("omaha", "two pair, Aces and Sevens with a King")]
    awards = showdown("triple_draw_dramaha", [cards("7c7d7h3s4s"), cards("8c8d9h9sJc")], board)
    assert winners(awards) == {"draw": (0,), "omaha": (1,)}


# ---- §2.39 Quick Quads --------------------------------------------------------------------------

def test_quick_quads() -> None:
    quick = portion("quick_quads", "high", "8c8d8h6s2c")
    assert quick.description == "four of a kind, Eights (quick quads)"
    full_house, sevens = cards("AcAdAhKcKd"), cards("7c7d7h7s3d")
    assert winners(showdown("quick_quads", [cards("8c8d8h6s2c"), full_house, sevens])) == {"high": (0,)}
    # 44422 is a full house that the rule makes four Fours
    assert portion("quick_quads", "high", "4c4d4h2s2c").description.startswith("four of a kind, Fours")
    # trips of Jacks and up, or cards that do not add up, are what they are
    assert portion("quick_quads", "high", "JcJdJh9s2c").description.startswith("three of a kind")
    assert portion("quick_quads", "high", "8c8d8h6s3c").description.startswith("three of a kind")
    # same hand in Five Card Draw: trips
    assert portion("five_card_draw", "high", "8c8d8h6s2c").description.startswith("three of a kind")


def test_quick_quads_uncovered_ace_counts_one() -> None:
    """The rule names 2s to 10s and "two other cards that add to the value" but not the ace's
    value; read as one (the only point value the rulebook gives an ace, §2.20), and the bug,
    which plays as an ace, counts one too: 333A2 is four Threes, 777+joker+6 four Sevens."""
    assert portion("quick_quads", "high", "3c3d3hAs2c").description == "four of a kind, Threes (quick quads)"
    assert portion("quick_quads", "high", "7c7d7hJk6c").description == "four of a kind, Sevens (quick quads)"
    assert portion("quick_quads", "high", "TcTdTh9sAc").description == "four of a kind, Tens (quick quads)"


# ---- dice ---------------------------------------------------------------------------------------

def test_binglaha_die() -> None:
    hole, board = cards("Ah2dKsKd"), {"1": cards("3c4h8sKcQh")}
    assert [p.name for p in best_hands("binglaha", hole, board, [3])] == ["high", "low"]
    assert [p.name for p in best_hands("binglaha", hole, board, [4])] == ["high"]
    players = [hole, cards("Ac2cQdJd")]
    assert winners(showdown("binglaha", players, board, [1])) == {"high": (0,), "low": (0, 1)}
    assert winners(showdown("binglaha", players, board, [6])) == {"high": (0,)}
    with pytest.raises(ValueError):
        best_hands("binglaha", hole, board)


def test_omaha_x_or_better_dice() -> None:
    hole, board = cards("Ah9dKsKd"), {"1": cards("3c4h9sKcTc")}  # best low T-9-4-3-A
    assert portion("omaha_x_or_better", "low", "Ah9dKsKd", boards=board, dice=[6, 4]).rank is not None
    assert portion("omaha_x_or_better", "low", "Ah9dKsKd", boards=board, dice=[5, 4]).rank is None  # nine
    assert portion("omaha_x_or_better", "low", "AhQdKsKd", boards=board, dice=[6, 6]).rank is not None
    assert portion("omaha_x_or_better", "low", "AhQdKsKd", boards=board, dice=[6, 5]).rank is None  # Jack
    for roll in ([1, 1], [1, 2], [2, 2]):
        assert [p.name for p in best_hands("omaha_x_or_better", hole, board, roll)] == ["high"]


# ---- §2.46 Sohe, §2.55 Wonky Donkey, §2.43 Scrotum, §2.28 Lazy Pineapple ----------------------

def test_sohe_split() -> None:
    board = {"1": cards("Kc9s2h7d3c")}
    ann = Holding(cards("AhKh9c9d5s4s"), split=(cards("AhKh"), cards("9c9d5s4s")))
    bo = Holding(cards("QcQdKdKs8h8s"), split=(cards("QcQd"), cards("KdKs8h8s")))
    hands = best_hands("sohe", ann.cards, board, split=ann.split)
    assert [(p.name, p.description) for p in hands] == [
        ("omaha", "three of a kind, Nines with K-7"), ("hold'em", "pair of Kings with A-9-7")]
    assert winners(showdown("sohe", [ann, bo], board)) == {"omaha": (1,), "hold'em": (0,)}
    # hold'em: any of the two; the Omaha four must play exactly two (no four of a kind with 9♠)
    two, four = cards("Ah2h"), cards("9c9d5s4s")
    omaha = best_hands("sohe", two + four, {"1": cards("9s9h2c7d3c")}, split=(two, four))[0]
    assert omaha.description.startswith("four of a kind, Nines")
    assert sum(c in four for c in omaha.cards) == 2
    with pytest.raises(ValueError):
        best_hands("sohe", ann.cards, board)


def test_wonky_donkey_red_and_black_flops() -> None:
    red = {"1": cards("Ah5d8cKhQs")}
    assert [p.name for p in best_hands("wonky_donkey", cards("2c3c"), red)] == ["high"]
    # Hold'em: both hole cards or none
    assert portion("wonky_donkey", "high", "AsAc", boards=red).description.startswith("three of a kind")
    black = {"1": cards("As5c8dKhQs")}
    hands = best_hands("wonky_donkey", cards("2c3c4d4h"), black)
    assert [p.name for p in hands] == ["high", "low"]
    assert hands[1].description.startswith("8-5-3-2-A")
    # Omaha: exactly two hole cards, so one spade in hand and four on the board make no flush
    assert portion("wonky_donkey", "high", "AhJdTc9s", "As5c8sKs2s").description == "pair of Aces with K-J-8"
    assert portion("texas_holdem", "high", "9sJd", "As5c8sKs2s").description.startswith("flush")


def test_scrotum_kept_cards() -> None:
    board = {"1": cards("2c3d4h5sKc")}
    one = best_hands("scrotum", cards("Ah"), board)
    assert [p.description for p in one] == ["straight, Five high", "5-4-3-2-A, number 1 in ace-to-five"]
    five = best_hands("scrotum", cards("KcKd9h9s2c"), {"1": cards("AcAdAhAsQc")})
    assert five[0].description == "two pair, Kings and Nines with a Deuce"  # no board card at all
    assert five[1].rank is None
    # three kept cards: all three play, with two board cards
    three = portion("scrotum", "high", "KhKdQh", "AhJhTh2c3d")
    assert set(cards("KhKdQh")) <= set(three.cards)
    assert three.description == "pair of Kings with A-Q-J"


def test_lazy_pineapple_not_all_three_hole_cards() -> None:
    hole, board = "AhKhQh", "JhTh2c3d4s"
    lazy = portion("lazy_pineapple", "high", hole, board)
    assert lazy.description == "high card, A-K-J-T-4"
    assert sum(c in cards(hole) for c in lazy.cards) <= 2
    assert portion("lazy_pineapple_hi_lo", "high", hole, board).description == "high card, A-K-J-T-4"
    assert portion("rio_bravo", "high", hole, board).description == "royal flush"  # any five


def test_crazy_pineapple_and_irish_after_the_discard() -> None:
    nine = portion("crazy_pineapple_hi_lo", "low", "Ah2d", "3c4h9sKcQc")
    assert nine.rank is None and nine.description == "9-4-3-2-A (does not qualify)"
    assert portion("crazy_pineapple_hi_lo", "low", "Ah2d", "3c4h8sKcQc").description.startswith("8-4-3-2-A")
    assert portion("irish", "high", "AhKh", "QhJhTh2c3d").description == "royal flush"
    assert portion("irish", "high", "2c3d", "AhKhQhJhTh").description == "royal flush"


# ---- the others ---------------------------------------------------------------------------------

def test_holdem_uses_zero_one_or_two_hole_cards() -> None:
    assert portion("texas_holdem", "high", "2c3d", "AhKhQhJhTh").description == "royal flush"
    awards = showdown("texas_holdem", [cards("2c3d"), cards("4c5d")], {"1": cards("AhKhQhJhTh")})
    assert winners(awards) == {"high": (0, 1)}  # both play the board: split


def test_hi_lo_scoop_without_a_qualifying_low() -> None:
    board = {"1": cards("KcQd9s9h2c")}
    awards = showdown("omaha_hi_lo", [cards("AhAd3c4d"), cards("KhKd5c6d")], board)
    assert winners(awards) == {"high": (1,)}
    assert winners(showdown("texas_holdem_hi_lo", [cards("Ah3c"), cards("Kh5c")], board)) == {"high": (1,)}


def test_stud_hi_lo_no_qualifier_and_common_card() -> None:
    rough = cards("AcKdQhJs9c9d8h")  # no eight low, but the best low there is
    pair = cards("2c2d2h5s5c7d7h")
    assert winners(showdown("stud_hi_lo_no_qualifier", [rough, pair])) == {"high": (1,), "low": (0,)}
    assert winners(showdown("stud_hi_lo", [rough, pair])) == {"high": (1,)}
    # Mississippi: the common card plays for everyone
    common = {"common": cards("Ah")}
    six = best_hands("mississippi_stud", cards("AsAdKc7c4h2d"), common)
    assert six[0].description.startswith("three of a kind, Aces")


def test_mexican_poker_joker_up_is_a_bug_down_is_wild() -> None:
    hole = cards("KcKdJk5s6h")
    down = best_hands("mexican_poker", hole)
    assert down[0].description.startswith("three of a kind, Kings")
    up = best_hands("mexican_poker", hole, up=["Jk", "Kd", "5s", "6h"])
    assert up[0].description.startswith("pair of Kings")  # the bug plays as an ace
    # 5-6-7-J-Q is a straight in the 41-card deck; the bug completes it
    bug = best_hands("mexican_poker", cards("5c6d7hJkQs"), up=["Jk"])
    assert bug[0].description == "straight, Queen high"


def test_lowball_jokers_and_scales() -> None:
    assert portion("california_lowball", "low", "6h5d3cAsJk").description.startswith("6-5-3-2-A")
    assert portion("five_card_draw", "high", "AhAdJk5s6h").description.startswith("three of a kind, Aces")
    assert portion("london_lowball", "low", "As2d3c4h5s9cKd").description.startswith("9-4-3-2-A")
    assert portion("deuce_to_seven_razz", "low", "As2d3c4h5s9cKd").description.startswith("9-5-4-3-2")


def test_short_deck_trips_option() -> None:
    board = {"1": cards("9c8dTs6h6c")}
    trips, straight = cards("6sAd"), cards("7cKd")
    assert winners(showdown("short_deck_holdem", [trips, straight], board)) == {"high": (1,)}
    above = {"short_deck_trips": "above_straight"}
    assert winners(showdown("short_deck_holdem", [trips, straight], board, options=above)) == {"high": (0,)}
    # a flush beats a full house
    fh, flush = cards("6s9h"), cards("AcKc")
    assert winners(showdown("short_deck_holdem", [fh, flush], {"1": cards("9c8cTc6h6c")})) == {"high": (1,)}


def test_paradise_road_pickem_plays_the_chosen_game() -> None:
    board = {"1": cards("3c4h9sKcQc")}
    assert best_hands(PICKEM, cards("Ah2d5s6s"), board, chosen="omaha_hi_lo")[1].description.startswith("9")
    assert best_hands(PICKEM, cards("Ah2d3s4s5s6d7d"), chosen="razz")[0].name == "low"
    with pytest.raises(ValueError):
        best_hands(PICKEM, cards("Ah2d"), board)
