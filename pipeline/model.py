"""The hand model: what one hand history records, independent of the text format it came from.

Every reader (the native BARGE format, and later PHH and PokerStars) produces these frozen,
slotted dataclasses; the store, the replay engine and the writer consume them.  Amounts are
integers in hundredths (see `pipeline.amounts`); cards are two-character strings such as
"Ah", "Td", "??" for a card nobody saw, and "Jk" for the joker.

>>> Action("flop", "bet", "Alice", amount=20000).kind
'bet'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

UNKNOWN_CARD = "??"
JOKER = "Jk"

# The action vocabulary of the `actions` table (docs/format.md, "Actions").
# A guts game's money across deals (docs/format.md): the pot brought in from the deal before (the
# dealer's), chips a loser pays to the next deal's pot ("burn", out of this hand), the pot not won
# and carried to the next deal (the dealer's), and a leg won (Evolution; `detail`: how many held).
GUTS_KINDS = frozenset({"carry_in", "carry_out", "burn", "leg"})
FORCED_KINDS = frozenset({"post", "ante", "bring_in"})
WAGER_KINDS = frozenset({"post", "bring_in", "complete", "bet", "call", "raise"})
ACTION_KINDS = frozenset(
    {
        "deal", "post", "ante", "bring_in", "complete", "bet", "call", "raise", "check",
        "fold", "stand_pat", "discard", "draw", "expose", "show", "muck", "roll", "choose",
        "split", "declare", "fee", "return", "board", "remove_board", "run_it", "reshuffle", "note", "ruling",
        "carry_in", "carry_out", "burn", "leg",
    }
)  # fmt: skip

# What kind of game a hand was dealt in: a home game is a cash home game (a home-game tournament
# is a tournament); a live event is a hand of a televised or live event that is neither told.
GAME_TYPES = ("cash", "tournament", "sit_and_go", "home_game", "live_event")
PLAY_MONEY = "play"  # the currency of play money


@dataclass(frozen=True, slots=True)
class Stakes:
    """The structure's amounts as the header states them; absent ones are None."""

    small_blind: int | None = None
    big_blind: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    ante: int | None = None
    big_blind_ante: int | None = None
    bring_in: int | None = None
    bomb_pot: int | None = None
    jam_or_fold: bool = False
    # Cap games (PokerStars' "Cap No Limit", "$10 Cap"): what one player may put in over the whole
    # hand; a player who reaches it is all-in for the rest of the hand.
    cap: int | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    number: int
    player: str
    stack: int
    sitting_out: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    """One recorded event of the hand, in the order it happened.

    `amount` is the number written on the line: chips put in for posts, antes, bring-ins, bets
    and calls, the raise size for "raises X to Y", the returned chips for an uncalled bet.
    `to_amount` is the player's total wager on the street after a raise or completion.
    `detail` qualifies the kind: which blind, up or down, the board name, the shown hand's
    description, the chosen game, the dice, or the text of a note.  Dealer actions have no player.
    """

    street: str
    kind: str
    player: str | None
    amount: int | None = None
    to_amount: int | None = None
    cards: tuple[str, ...] = ()
    all_in: bool = False
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class Award:
    """Chips the dealer pushed to a player: from which pot (0 = main or only pot, n = side pot n)
    and for which portion ("high", "low", "badugi", "points", ... or None for the whole pot)."""

    player: str
    amount: int
    pot: int = 0
    portion: str | None = None


@dataclass(frozen=True, slots=True)
class FinalStack:
    seat: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class Hand:
    hand_id: str
    variant: str
    structure: str
    stakes: Stakes
    seats: tuple[Seat, ...]
    actions: tuple[Action, ...] = ()
    awards: tuple[Award, ...] = ()
    started_at: datetime | None = None
    event: str | None = None
    tournament: str | None = None
    level: str | None = None
    table_name: str | None = None
    max_seats: int | None = None
    button_seat: int | None = None
    rules_profile: str | None = None
    rules_options: tuple[tuple[str, str], ...] = ()
    total_pot: int | None = None
    rake: int | None = None
    final_stacks: tuple[FinalStack, ...] = field(default=())
    # What the amounts are counted in (docs/format.md, "Units"; `pipeline.units.hand_unit`): the
    # site or venue, the game type (one of GAME_TYPES) and the ISO 4217 code of the money ("play"
    # for play money; a tournament's buy-in currency), None where the history does not say.
    # A game type left None is the default every format states: a tournament's when the hand
    # names one, else a cash game's (set here, so that every producer's hands compare alike).
    site: str | None = None
    game_type: str | None = None
    currency: str | None = None

    def __post_init__(self) -> None:
        if self.game_type is None:
            object.__setattr__(self, "game_type", "tournament" if self.tournament else "cash")

    def seat_of(self, player: str) -> int | None:
        for seat in self.seats:
            if seat.player == player:
                return seat.number
        return None
