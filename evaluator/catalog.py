"""The catalog: every game of the BARGE Rulebook as data, in the rulebook's own shape.

Each `Game` says what the rulebook's Forced Money, Dealing Procedure and Evaluating the
Showdown paragraphs say: the deck, the forced bets (button and blinds, or antes and a
bring-in with its card order), the streets in order (cards dealt to each player and to each
board, the draws, discards, dice, exposures and board removals, the betting round and its
limit, who acts first), and the ways the pot is won. One replay engine (`evaluator.replay`)
follows any entry; a new variant is a new entry here. Where each step is *written* in a hand
history is in `docs/procedures.md`.

>>> GAMES["razz"].bring_in, GAMES["razz"].showing
('high_card', 'low_a5')
>>> [s.name for s in GAMES["deuce_to_seven_triple_draw"].streets]
['hole_cards', 'first_draw', 'second_draw', 'third_draw']
>>> GAMES["irish"].street("flop").discard
(2, 2)
>>> len(GAMES)
59
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from evaluator.cards import MEXICAN, SHORT, STANDARD, WITH_JOKER, Deck
from evaluator.variants import ROOM_VARIANTS, VARIANTS, Variant

# Who acts first on a betting round.
LEFT_OF_BIG_BLIND = "left_of_big_blind"  # first round of blind games (after a straddle, left of it)
LEFT_OF_BUTTON = "left_of_button"  # later rounds of blind games, bomb pots
BRING_IN = "bring_in"  # first round of stud games: the bring-in, by the game's card order
SHOWING = "showing"  # later stud rounds: the best hand showing, by the game's `showing` scale

# When a step comes against its street's betting round, as the game's Dealing Procedure orders it.
BEFORE_BETTING = "before"  # e.g. the draws of the draw games (§2.17), Oklahoma's removal (§2.34)
AFTER_BETTING = "after"  # e.g. Dramaha's draw (§2.19), Binglaha's die (§2.10), Sohe's split (§2.46)
WITH_OWN_ACTION = "with_action"  # once the player has acted: Scrotum's discard (§2.43), Pick'em's door card


@dataclass(frozen=True, slots=True)
class Street:
    """One street of the dealing procedure.

    `down`/`up`: cards each live player receives; `boards`: (board, cards) dealt to the board;
    `bet`: the limit of its betting round ("small", "big") or None for no betting;
    `draw`: discards replaced from the stub, (fewest, most); `discard`: discards not replaced;
    `dice`: dice rolled by the player on the button after the betting (§1.13);
    `steps`: other player steps allowed ("split", "expose", "choose", "remove_board");
    `timing`: (step, when) for the steps the game's section places against the betting round
    ("draw" for a draw's discards and replacement cards, "discard", "roll", or a name in
    `steps`; when: BEFORE_BETTING, AFTER_BETTING, WITH_OWN_ACTION); a step not named may come
    anywhere on its street; `in_turn`: the steps each player takes in turn, from the first
    active player to the left of the button (the draws, §2.17).
    """

    name: str
    down: int = 0
    up: int = 0
    boards: tuple[tuple[str, int], ...] = ()
    bet: str | None = "small"
    first: str = LEFT_OF_BUTTON
    draw: tuple[int, int] | None = None
    discard: tuple[int, int] | None = None
    dice: int = 0
    steps: frozenset[str] = frozenset()
    timing: tuple[tuple[str, str], ...] = ()
    in_turn: frozenset[str] = frozenset()

    def when(self, step: str) -> str | None:
        """Where `step` comes against the betting round, or None where the section does not say."""
        return dict(self.timing).get(step)


@dataclass(frozen=True, slots=True)
class Game:
    """A variant's rules. `showdown` names the scales the pot is split by (see evaluator docs),
    `structures` the betting formats the rulebook mentions for the game."""

    variant: Variant
    deck: Deck
    forced: str  # "blinds", "antes" (stud: antes and a bring-in), "antes_button" (Mexican), "button_blind"
    streets: tuple[Street, ...]
    showdown: tuple[str, ...]
    structures: tuple[str, ...] = ("limit",)
    bring_in: str | None = None
    showing: str | None = None
    # Equal hands showing: "a tie is broken by position, with the player who received cards first
    # acting first" (cardroom stud procedures): seat 1 first, or clockwise of the button where the
    # deal starts there (Mexican Poker).
    ties: str = "seat"
    rules: frozenset[str] = frozenset()
    choices: tuple[tuple[str, tuple[Street, ...]], ...] = field(default=())

    @property
    def id(self) -> str:
        return self.variant.id

    @property
    def rule(self) -> str:
        return self.variant.rule

    def street(self, name: str) -> Street:
        for street in self.streets:
            if street.name == name:
                return street
        raise KeyError(name)

    @property
    def hole_cards(self) -> int:
        return sum(s.down + s.up for s in self.streets)


# ---- the families' dealing procedures --------------------------------------------------------

def flop(hole: int, spit: int = 0) -> tuple[Street, ...]:
    """Hole cards and a board of flop, turn and river (§2.51 and its relatives)."""
    return (
        Street("hole_cards", down=hole, boards=(("1", spit),) if spit else (), first=LEFT_OF_BIG_BLIND),
        Street("flop", boards=(("1", 3 - spit),)),
        Street("turn", boards=(("1", 1),), bet="big"),
        Street("river", boards=(("1", 1),), bet="big"),
    )


def drawing(most: int, when: str) -> dict[str, object]:
    """A draw of zero to `most` cards: "each player in turn discards ... Once all of the discards
    have been announced, the dealer will deal each player an appropriate number of replacement
    cards" (§2.17 and every draw game), before or after the street's betting."""
    return {"draw": (0, most), "timing": (("draw", when),), "in_turn": frozenset({"draw"})}


def draws(cards: int, rounds: int, most: int | None = None) -> tuple[Street, ...]:
    """Draw games: a deal and one or three draws (§2.17, §2.15), each before its street's betting;
    the last two rounds are big."""
    draw = drawing(cards if most is None else most, BEFORE_BETTING)
    names = ["draw"] if rounds == 1 else ["first_draw", "second_draw", "third_draw"]
    rest = tuple(
        Street(n, bet="small" if rounds == 3 and i == 0 else "big", **draw)  # type: ignore[arg-type]
        for i, n in enumerate(names)
    )
    return (Street("hole_cards", down=cards, first=LEFT_OF_BIG_BLIND), *rest)


def stud(first_down: int = 2, showing_first: str = SHOWING) -> tuple[Street, ...]:
    """Seven-card stud: two down and one up, three more up, one down (§2.47)."""
    return (
        Street("3rd_street", down=first_down, up=1, first=BRING_IN),
        Street("4th_street", up=1, first=showing_first),
        Street("5th_street", up=1, bet="big", first=showing_first),
        Street("6th_street", up=1, bet="big", first=showing_first),
        Street("7th_street", down=1, bet="big", first=showing_first),
    )


def modify(streets: tuple[Street, ...], name: str, **changes: object) -> tuple[Street, ...]:
    """The same streets with one of them changed: how a game differs from its family."""
    return tuple(replace(s, **changes) if s.name == name else s for s in streets)  # type: ignore[arg-type]


BIG_BET = ("limit", "pot-limit", "no-limit")
HI_LO8 = ("high", "a5_low8")
_FLOP_BLACK = "extra_hole_cards_on_black_flop"  # Wonky Donkey (§2.55)

FIVE_CARD_STUD = (
    Street("2nd_street", down=1, up=1, first=BRING_IN),
    Street("3rd_street", up=1, first=SHOWING),
    Street("4th_street", up=1, bet="big", first=SHOWING),
    Street("5th_street", up=1, bet="big", first=SHOWING),
)
# §2.31: "After the betting round is complete, each remaining player has to decide whether or not to
# expose their down card."
MEXICAN_STREETS = tuple(
    replace(s, first=SHOWING, steps=frozenset({"expose"}), timing=(("expose", AFTER_BETTING),))
    for s in FIVE_CARD_STUD
)
MISSISSIPPI = (
    Street("3rd_street", down=2, up=1, first=LEFT_OF_BIG_BLIND),
    Street("5th_street", up=2, first=SHOWING),
    Street("6th_street", up=1, bet="big", first=SHOWING),
    Street("7th_street", up=1, bet="big", first=SHOWING),
)
CHOWAHA_BOARDS = (
    Street("flop", boards=(("top", 3), ("middle", 3), ("bottom", 3))),
    Street("turn", boards=(("turn", 2),), bet="big"),
    Street("river", boards=(("river", 1),), bet="big"),
)
OKLAHOMA_BOARDS = (
    Street("flop", boards=(("1", 3), ("2", 3), ("3", 3))),
    Street("turn", boards=(("1", 1), ("2", 1), ("3", 1)), bet="big"),
    # §2.34: the rows are removed once the rivers are out; "Board removal is followed by a round of betting".
    Street("river", boards=(("1", 1), ("2", 1), ("3", 1)), bet="big", steps=frozenset({"remove_board"}),
           timing=(("remove_board", BEFORE_BETTING),)),
)
MURDER_BOARDS = (
    Street("flop", boards=(("1", 2), ("2", 2), ("3", 2))),
    Street("turn", boards=(("1", 1), ("2", 1), ("3", 1)), bet="big"),
    Street("river", boards=(("1", 1), ("2", 1), ("3", 1)), bet="big"),
)


def _hole(cards: int) -> Street:
    return Street("hole_cards", down=cards, first=LEFT_OF_BIG_BLIND)


# Paradise Road Pick'em (§2.38): three cards, then the player under the gun picks a HORSE game.
# The choice fixes the rest of the hand: what happens on the first street and the streets after.
PICKEM_STUD = (
    Street("4th_street", up=1, first=SHOWING),
    Street("5th_street", up=1, bet="big", first=SHOWING),
    Street("6th_street", up=1, bet="big", first=SHOWING),
    Street("7th_street", down=1, bet="big", first=SHOWING),
)
# Stud chosen: "each player will in turn ... either fold, call, or raise. If they call or raise they will
# expose (i.e. roll) a door card of their choice at that time." Hold'em chosen: each player discards one,
# then "the hand then plays out as the selected game".
PICKEM_DOOR = Street("hole_cards", first=LEFT_OF_BIG_BLIND, steps=frozenset({"expose"}),
                     timing=(("expose", WITH_OWN_ACTION),))
PICKEM_CHOICES: tuple[tuple[str, tuple[Street, ...]], ...] = (
    ("texas_holdem", modify(flop(3), "hole_cards", discard=(1, 1), timing=(("discard", BEFORE_BETTING),))),
    ("omaha_hi_lo", flop(4)),
    ("razz", (PICKEM_DOOR, *PICKEM_STUD)),
    ("stud", (PICKEM_DOOR, *PICKEM_STUD)),
    ("stud_hi_lo", (PICKEM_DOOR, *PICKEM_STUD)),
)
PICKEM_SHOWING = {"razz": "low_a5", "stud": "high", "stud_hi_lo": "high"}


def _game(variant_id: str, deck: Deck, streets: tuple[Street, ...], showdown: tuple[str, ...],
          forced: str = "blinds", **more: object) -> Game:
    return Game(VARIANTS[variant_id], deck, forced, streets, showdown, **more)  # type: ignore[arg-type]


def _stud_game(variant_id: str, showdown: tuple[str, ...], bring_in: str, showing: str,
               first_down: int = 2, **more: object) -> Game:
    return _game(variant_id, STANDARD, stud(first_down), showdown, forced="antes",
                 bring_in=bring_in, showing=showing, **more)


_SUPER = {"discard": (2, 2), "timing": (("discard", AFTER_BETTING),)}  # §2.50: after the betting
_DICE_AFTER = (("roll", AFTER_BETTING),)  # "... a round of betting. At this point a die is rolled" (§2.10)

_ENTRIES: tuple[Game, ...] = (
    _game("ace_to_five_triple_draw", STANDARD, draws(5, 3), ("a5_low",), structures=("limit", "pot-limit")),
    _stud_game("action_razz", ("action_razz",), "high_card", "low_a5"),
    _stud_game("action_razzdugi", ("action_razz", "badugi"), "high_card", "low_a5"),
    _game("archie", STANDARD, draws(5, 3), ("high_archie", "a5_low8")),
    _game("badacey", STANDARD, draws(5, 3), ("a5_low", "badugi")),
    _game("badeucy", STANDARD, draws(5, 3), ("27_low", "badugi_27")),
    _game("badugi", STANDARD, draws(4, 3), ("badugi",)),
    _game("bidirectional_chowaha", STANDARD,
          (_hole(4), *modify(CHOWAHA_BOARDS, "flop", dice=1, timing=_DICE_AFTER)), HI_LO8),
    _game("big_o", STANDARD, flop(5), HI_LO8, structures=("limit", "pot-limit")),
    _game("binglaha", STANDARD, modify(flop(4), "flop", dice=1, timing=_DICE_AFTER), HI_LO8,
          structures=("limit", "pot-limit")),
    _game("california_lowball", WITH_JOKER, draws(5, 1), ("a5_low",), structures=("limit", "no-limit"),
          rules=frozenset({"joker_option", "sevens_rule"})),
    _game("chowaha", STANDARD, (_hole(2), *CHOWAHA_BOARDS), HI_LO8),
    _game("courchevel", STANDARD, flop(5, spit=1), ("high",)),
    _game("crazy_pineapple_hi_lo", STANDARD, modify(flop(3), "flop", discard=(1, 1)), HI_LO8),
    _game("deuce_to_seven_lowball", STANDARD, draws(5, 1), ("27_low",), structures=BIG_BET),
    _stud_game("deuce_to_seven_razz", ("27_low",), "high_card_ace_high", "low_27"),
    _game("deuce_to_seven_triple_draw", STANDARD, draws(5, 3), ("27_low",),
          structures=("limit", "pot-limit")),
    _game("dramadugi", STANDARD, modify(flop(5), "flop", **drawing(3, AFTER_BETTING)), ("high", "badugi"),
          structures=("limit", "pot-limit")),
    _game("dramaha", STANDARD, modify(flop(5), "flop", **drawing(5, AFTER_BETTING)), ("draw_high", "high")),
    _game("dramaha_49", STANDARD, modify(flop(5), "flop", **drawing(3, AFTER_BETTING)), ("points49", "high")),
    _game("duck_flush", STANDARD, draws(5, 3), ("duck_flush",)),
    _game("five_card_draw", WITH_JOKER, draws(5, 1), ("high_bug",), structures=BIG_BET,
          rules=frozenset({"joker_option"})),
    _game("five_card_omaha", STANDARD, flop(5), ("high",), structures=("limit", "pot-limit")),
    _game("five_card_stud", STANDARD, FIVE_CARD_STUD, ("high",), forced="antes",
          bring_in="low_card", showing="high"),
    _game("four_card_chowaha_hi_lo", STANDARD, (_hole(4), *CHOWAHA_BOARDS), HI_LO8),
    _game("irish", STANDARD, modify(flop(4), "flop", discard=(2, 2)), ("high",),
          structures=("limit", "pot-limit")),
    _game("korean", STANDARD, draws(5, 3), ("high_pair", "a5_low_unpaired")),
    _game("lazy_pineapple", STANDARD, flop(3), ("high",)),
    _game("lazy_pineapple_hi_lo", STANDARD, flop(3), HI_LO8),
    _stud_game("london_lowball", ("a6_low",), "high_card", "low_a6", structures=("pot-limit", "limit")),
    _game("mexican_poker", MEXICAN, MEXICAN_STREETS, ("high_mexican",), forced="antes_button",
          showing="high", ties="button", rules=frozenset({"spread_limit", "deal_down_when_exposed"})),
    _game("mississippi_stud", STANDARD, MISSISSIPPI, ("high",), showing="high",
          structures=("pot-limit", "limit")),
    _game("mississippi_stud_hi_lo", STANDARD, MISSISSIPPI, HI_LO8, showing="high",
          structures=("pot-limit", "limit")),
    _game("mississippi_razz", STANDARD, MISSISSIPPI, ("a5_low",), showing="low_a5",
          structures=("pot-limit", "limit")),
    _game("murder", STANDARD, (_hole(4), *MURDER_BOARDS), HI_LO8),
    _game("oklahoma", STANDARD, (_hole(4), *OKLAHOMA_BOARDS), HI_LO8),
    _game("omaha", STANDARD, flop(4), ("high",), structures=("pot-limit", "limit")),
    _game("omaha_hi_lo", STANDARD, flop(4), HI_LO8, structures=("limit", "pot-limit")),
    _game("omaha_x_or_better", STANDARD, modify(flop(4), "flop", dice=2, timing=_DICE_AFTER),
          ("high", "a5_low_x")),
    _game("paradise_road_pickem", STANDARD,
          (Street("hole_cards", down=3, first=LEFT_OF_BIG_BLIND, steps=frozenset({"choose"}),
                  timing=(("choose", BEFORE_BETTING),)),),
          ("chosen",), choices=PICKEM_CHOICES),
    _game("quick_quads", WITH_JOKER, draws(5, 1), ("high_quick_quads",), rules=frozenset({"joker_option"})),
    _stud_game("razz", ("a5_low",), "high_card", "low_a5"),
    _stud_game("razzdugi", ("a5_low", "badugi"), "high_card", "low_a5"),
    _game("rio_bravo", STANDARD,
          (*flop(2), Street("fifth_round", down=1, bet="big")), ("high",), structures=BIG_BET),
    # §2.43: the discard goes "under the chips" when the player first acts (puts chips in or checks).
    _game("scrotum", STANDARD,
          modify(flop(5), "hole_cards", discard=(0, 4), timing=(("discard", WITH_OWN_ACTION),)), HI_LO8),
    _game("short_deck_omaha", SHORT, flop(4), ("high_short_deck",), structures=BIG_BET),
    _game("short_deck_holdem", SHORT, flop(2), ("high_short_deck",), structures=BIG_BET),
    _game("sohe", STANDARD, modify(flop(6), "hole_cards", steps=frozenset({"split"}),
                                   timing=(("split", AFTER_BETTING),)), ("omaha", "holdem")),
    _stud_game("stud", ("high",), "low_card", "high", rules=frozenset({"double_bet_open_pair"})),
    _stud_game("stud_hi_lo", HI_LO8, "low_card", "high"),
    _stud_game("stud_hi_lo_no_qualifier", ("high", "a5_low"), "high_card", "low_a5"),
    _game("super_stud", STANDARD, modify(stud(4), "3rd_street", **_SUPER), ("high",), forced="antes",
          bring_in="low_card", showing="high", rules=frozenset({"double_bet_open_pair"})),
    _game("super_stud_hi_lo", STANDARD, modify(stud(4), "3rd_street", **_SUPER), HI_LO8, forced="antes",
          bring_in="low_card", showing="high"),
    _game("super_razz", STANDARD, modify(stud(4), "3rd_street", **_SUPER), ("a5_low",), forced="antes",
          bring_in="high_card", showing="low_a5"),
    _game("texas_holdem", STANDARD, flop(2), ("high",), structures=BIG_BET),
    _game("texas_holdem_hi_lo", STANDARD, flop(2), HI_LO8),
    _game("triple_draw_dramaha", STANDARD,
          flop(5)[:1] + tuple(replace(s, **drawing(5, BEFORE_BETTING)) for s in flop(5)[1:]),  # type: ignore[arg-type]
          ("draw_high", "high")),
    _game("two_or_five_omaha_hi_lo", STANDARD, flop(5), HI_LO8),
    _game("wonky_donkey", STANDARD, flop(2), ("high", "a5_low8_if_black"), rules=frozenset({_FLOP_BLACK})),
)

GAMES: dict[str, Game] = {g.id: g for g in _ENTRIES}
EXTRA_HOLE_CARDS_ON_BLACK_FLOP = _FLOP_BLACK

# Games of other rooms (evaluator.variants.ROOM_VARIANTS): each is the BARGE game it extends, changed
# where the room deals it differently. `GAMES` stays the 59 BARGE games; the replay looks in ALL_GAMES.
_ROOM = ROOM_VARIANTS
ROOM_GAMES: dict[str, Game] = {g.id: g for g in (
    replace(GAMES["five_card_omaha"], variant=_ROOM["six_card_omaha"], streets=flop(6), structures=BIG_BET),
    replace(GAMES["big_o"], variant=_ROOM["six_card_omaha_hi_lo"], streets=flop(6), structures=BIG_BET),
    replace(GAMES["courchevel"], variant=_ROOM["courchevel_hi_lo"], showdown=HI_LO8, structures=BIG_BET),
    # PokerStars' 6+ Hold'em: the button posts the only blind and acts last before the flop; everyone
    # antes; three of a kind beats a straight (the §2.45 option, fixed).
    replace(GAMES["short_deck_holdem"], variant=_ROOM["six_plus_holdem"], forced="button_blind",
            streets=modify(flop(2), "hole_cards", first=LEFT_OF_BUTTON), showdown=("high_short_deck_trips",)),
    # PokerStars' Split Hold'em: Hold'em dealt two boards at once, each street's cards to both; every
    # pot is split between the best hand on each board (evaluator.showdown, "board 1" and "board 2").
    replace(GAMES["texas_holdem"], variant=_ROOM["split_holdem"], showdown=("high", "high"),
            streets=tuple(replace(s, boards=tuple((b, n) for b in ("1", "2") for _, n in s.boards))
                          for s in flop(2))),
)}
ALL_GAMES: dict[str, Game] = {**GAMES, **ROOM_GAMES}


def catalog_entry(game: Game) -> dict[str, object]:
    """A game as plain data, in the rulebook's order: what `barge variants --json` prints."""
    return {
        "id": game.id, "name": game.variant.name, "section": game.variant.section, "rule": game.rule,
        "deck": game.deck.name, "deck_size": game.deck.size, "forced": game.forced,
        "bring_in": game.bring_in, "structures": list(game.structures),
        "streets": [
            {"name": s.name, "down": s.down, "up": s.up, "boards": dict(s.boards), "bet": s.bet,
             "first": s.first, "draw": s.draw, "discard": s.discard, "dice": s.dice,
             "steps": sorted(s.steps), "timing": dict(s.timing), "in_turn": sorted(s.in_turn)}
            for s in game.streets
        ],
        "choices": [name for name, _ in game.choices],
        "showdown": list(game.showdown),
    }
