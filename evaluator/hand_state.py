"""The state of a hand under replay, and what every part of the replay reads from it.

The replay engine (`evaluator.replay.Replay`) is built in layers, one concern each, every layer a
class on top of the one below it: the state here (the players, the street, the cards seen, the
findings); the cards dealt (`evaluator.dealing`); the chips that go in and come back outside the
betting decisions (`evaluator.money`); the betting (`evaluator.wagering`); the card steps
(`evaluator.card_steps`); the paid options (`evaluator.fees`); the end of the hand
(`evaluator.finish`); and the walk over the actions (`evaluator.replay`). Each layer reads and
changes this one state, so a layer calls only what the layers below it define.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from evaluator.betting import Round
from evaluator.cards import STANDARD
from evaluator.catalog import Game, Openers, Street, showing_of
from evaluator.findings import CODES, Finding, cite
from evaluator.profiles import Profile
from evaluator.settle import Settlement
from pipeline.model import Hand


class Stop(Exception):
    """The record cannot be followed past this action."""


@dataclass(slots=True)
class Player:
    name: str
    seat: int
    stack: int
    dealt_in: bool
    folded: bool = False
    bet: int = 0  # live chips in front of the player on this street
    total: int = 0  # chips put in the pot this hand, dead money included
    cards: list[str] = field(default_factory=list)  # every card held, "??" for unseen ones
    up: list[str] = field(default_factory=list)  # cards face up (stud up cards, exposed cards)
    dealt_up: list[str] = field(default_factory=list)  # cards dealt face up (Mexican Poker's bug)
    voluntary: bool = False  # has made a first voluntary action (jam-or-fold)
    dead: int = 0  # antes and dead blinds: in the main pot, no part of any wager
    mucked: bool = False  # gave up the pot at the showdown
    showed: bool = False  # showed cards at the showdown
    split: list[str] | None = None  # Sohe: the six cards as split, the Hold'em two first
    sevens: tuple[str, str | None] | None = None  # Appendix B breach: ("checked"|"called", bettor)
    cap: int | None = None  # a cap game: the most the player may put in over the hand, antes aside
    ante: int = 0  # antes posted: dead money that a cap does not count
    declared: str | None = None  # the word declared, in a game where players declare (docs/games.md)
    hole_count: int | None = None  # the number of their own cards a purchase lets them play (Omaha 33)

    @property
    def left(self) -> int:
        """What the player may still put in: their stack, or less when the room's cap is nearer."""
        if self.cap is None:
            return self.stack
        return min(self.stack, self.cap - (self.total - self.ante))

    @property
    def all_in(self) -> bool:
        """No chips left to put in (or the cap reached: all-in for the rest of the hand)."""
        return self.left <= 0 and self.dealt_in

    @property
    def live(self) -> bool:
        return self.dealt_in and not self.folded


@dataclass(slots=True)
class StreetState:
    spec: Street | None
    name: str
    deals: dict[str, list[int]] = field(default_factory=dict)  # player -> [down, up]
    boards: Counter[str] = field(default_factory=Counter)
    board_dealt: list[str] = field(default_factory=list)  # the cards dealt to boards on the street
    settled: bool = False
    discarded: set[str] = field(default_factory=set)
    pending_draw: dict[str, tuple[int, int]] = field(default_factory=dict)  # player -> (count, seq)
    rolled: bool = False
    removed: set[str] = field(default_factory=set)
    common: bool = False
    round: Round | None = None
    extra_deal: dict[str, int] = field(default_factory=dict)
    returns: Counter[str] = field(default_factory=Counter)
    antes: Counter[str] = field(default_factory=Counter)  # antes posted on this street, by player
    all_exposed: set[str] = field(default_factory=set)  # players showing every card at its start
    bettors: set[str] = field(default_factory=set)  # players who have acted in the street's betting
    flipped: set[str] = field(default_factory=set)  # players who made the street's required flip
    paid: set[str] = field(default_factory=set)  # players who put chips in on the street (flips.pays)
    bought: set[str] = field(default_factory=set)  # players who paid for the street's option (`sells`)
    buying: tuple[str, int] | None = None  # a fee whose card has not followed yet: (player, seq)
    declared: set[str] = field(default_factory=set)  # players who declared on the street (in turn)
    last_seq: int = 0


ON_TOP = "top"  # `where`'s holder of a discard placed back on top of the stub (`Street.discards_to`)


class HandState:
    """What the replay knows of the hand so far, and the findings it has made."""

    def __init__(self, hand: Hand, game: Game, profile: Profile) -> None:
        self.hand = hand
        if "joker_option" in game.rules and profile.get("joker") == "no":
            game = replace(game, deck=STANDARD)  # §2.11, §2.22: played without the joker
        self.game = game
        self.profile = profile
        self.findings: list[Finding] = []
        self.players = {s.player: Player(s.player, s.number, s.stack, not s.sitting_out, cap=hand.stakes.cap)
                        for s in hand.seats}
        self.order = [p.name for p in sorted(self.players.values(), key=lambda p: p.seat)]
        self.plan: list[Street] = list(game.streets)
        self.plan_index = -1
        self.showing = game.showing
        self.chosen: str | None = None
        self.where: dict[str, str] = {}  # card -> holder (a player, "board:<name>", "discards")
        self.dealt = 0
        self.stub = game.deck.size
        self.stub_warned = False
        self.unseen_discards = 0
        # The discards a street's `discards_to = "top"` put back on top of the stub: the next cards
        # dealt are they, in any order (Thermonuclear Pineapple II #1056 rule 3). `top`: those the
        # record names; `top_left`: how many of them (named or not) are still to be dealt.
        self.top: set[str] = set()
        self.top_left = 0
        self.top_street = ""
        self.returns: Counter[str] = Counter()
        self.owed_returns: Counter[str] = Counter()
        self.owed_seq: dict[str, int] = {}
        self.run_it = False
        self.runs = 1
        self.shared = 0  # cards of board "1" that every run of the board shares
        self.dice: list[int] = []
        self.after_draw_from: dict[str, int] | None = None  # totals when the draw's betting began
        self.short_calls: dict[str, str] = {}  # caller -> the short all-in bettor (Appendix B)
        self.settlement: Settlement | None = None
        self.board_cards: defaultdict[str, list[str]] = defaultdict(list)
        self.board_order: list[str] = []  # every board card in the order dealt, whatever its board
        self.removed_boards: set[str] = set()
        self.street: StreetState | None = None
        # each first bet of a round whose street needs openers (`Street.open`): the opener, their
        # cards then, the common cards dealt then, the action's number, the openers needed
        self.openings: list[tuple[str, tuple[str, ...], tuple[str, ...], int, Openers]] = []
        self.false_openers: set[str] = set()  # openers found false: their hands are dead
        self.forced_checked = False
        # A guts game's deal (evaluator.guts): the pot brought in from the deal before, the pot
        # carried to the next, what each player paid to the next deal's pot, the legs given.
        self.carried_in = 0
        self.carried_out = 0
        self.burns: Counter[str] = Counter()
        self.legs: dict[str, int] = {}
        self.scale = self._kill_scale()
        self.anchor = self._blind_anchor()  # the seat the first betting round starts after
        self.seq = 0

    # ---- findings ----
    def flag(self, code: str, message: str, section: str | None = None, seq: int | None = None) -> None:
        entry = CODES[code]
        cited = cite(section) if section else (entry.rule or self.game.rule)
        at = self.seq if seq is None else seq
        self.findings.append(Finding(self.hand.hand_id, at, entry, message, cited))

    # ---- helpers ----
    @property
    def live(self) -> list[Player]:
        return [self.players[n] for n in self.order if self.players[n].live]

    def clockwise_after(self, seat: int, players: list[Player] | None = None) -> list[Player]:
        pool = self.live if players is None else players
        return sorted(pool, key=lambda p: (p.seat <= seat, p.seat))

    @property
    def button_player(self) -> Player | None:
        seat = self.hand.button_seat
        return next((p for p in self.players.values() if p.seat == seat), None)

    def _kill_scale(self) -> tuple[int, int]:
        """A kill blind raises the limits by its ratio to the big blind (cardroom kill pots)."""
        bb = self.hand.stakes.big_blind
        for action in self.hand.actions:
            if action.kind == "post" and action.detail == "kill_blind" and bb and action.amount:
                return (action.amount, bb)
        return (1, 1)

    def bet_size(self, limit: str | None) -> int:
        """The limit bet of a round ("small" or "big"), raised by a kill blind."""
        stakes = self.hand.stakes
        if showing_of(self.chosen) is not None and stakes.big_blind:  # a stud game chosen
            small, big = stakes.big_blind, 2 * stakes.big_blind  # §2.38
        else:
            small = stakes.small_bet or stakes.big_blind or 0
            big = stakes.big_bet or 2 * small
        size = big if limit == "big" else small
        return size * self.scale[0] // self.scale[1]

    def min_bet(self) -> int:
        stakes = self.hand.stakes
        return stakes.bomb_pot or stakes.big_blind or stakes.bring_in or stakes.small_bet or 0

    def pot(self) -> int:
        """Every chip put in this hand: antes and dead blinds, and all wagers (less returns), and a
        guts game's pot carried in from the deal before."""
        return sum(p.total for p in self.players.values()) + self.carried_in

    def contributed(self, player: Player) -> int:
        """What `player` put in once the rules returned the uncalled part of their bets."""
        return player.total + self.returns[player.name] - self.owed_returns[player.name]

    def _blind_anchor(self) -> int | None:
        """The seat the first round starts after: the straddle, else the big blind."""
        anchor = None
        for action in self.hand.actions:
            if (
                action.kind == "post"
                and action.detail in ("big_blind", "straddle")
                and action.player
                and (anchor is None or action.detail == "straddle")
            ):
                anchor = self.players[action.player].seat
        if anchor is None and self.hand.button_seat is not None:
            dealt = [p for p in self.players.values() if p.dealt_in]
            after = self.clockwise_after(self.hand.button_seat, dealt)
            anchor = after[0].seat if len(after) == 2 else after[min(1, len(after) - 1)].seat
        return anchor

