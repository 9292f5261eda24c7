"""The replay engine: plays a recorded hand again under the rulebook and reports each place
where what happened differs from what the rules allow.

`replay(hand)` walks the hand's actions in order, keeping the state the rules need: every
player's stack, chips in front of them and in the pot, who folded and who is all-in, the cards
in each hand and on each board, the cards dealt from the stub, and the betting round
(`evaluator.betting.Round`). The game's steps come from the catalog (`evaluator.catalog`), the
house rules from the profile (`evaluator.profiles`). A record too broken to go on gets a
`REPLAY_STOPPED` finding at the action where replay stopped; replay never raises.

>>> from grammar.barge_parser import EXAMPLE, parse_hand
>>> replay(parse_hand(EXAMPLE))
[]
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from evaluator import betting
from evaluator.award_check import check_awards, rake_breaches
from evaluator.awarding import Share, chip_unit
from evaluator.betting import Round
from evaluator.cards import STANDARD, card_order, rank_value, showing_key
from evaluator.catalog import (
    AFTER_BETTING,
    ALL_GAMES,
    BEFORE_BETTING,
    BRING_IN,
    EXTRA_HOLE_CARDS_ON_BLACK_FLOP,
    LEFT_OF_BIG_BLIND,
    LEFT_OF_BUTTON,
    PICKEM_SHOWING,
    WITH_OWN_ACTION,
    Game,
    Street,
)  # fmt: skip
from evaluator.descriptions import misdescriptions
from evaluator.findings import CODES, Finding, cite
from evaluator.forced import check_forced
from evaluator.profiles import Profile, resolve
from evaluator.settle import Seat, Settlement, Table, room_money, settle
from pipeline.amounts import format_amount as chips
from pipeline.amounts import parse_amount
from pipeline.model import UNKNOWN_CARD, Action, Hand

BETTING_KINDS = frozenset({"bring_in", "complete", "bet", "call", "raise", "check", "fold"})
CARD_STEPS = frozenset({"discard", "draw", "stand_pat", "split", "expose", "roll", "choose", "remove_board"})
END_STREETS = frozenset({"showdown", "summary"})
CARD_FAULTS = frozenset({"DUPLICATE_CARD", "SHOWN_CARDS_NOT_HELD", "CARD_NOT_IN_DECK"})
STEP_WORDS = {"draw": "draw", "discard": "discard", "roll": "roll of the dice", "split": "split",
              "expose": "exposed card", "choose": "game choice", "remove_board": "board removal"}


class _Stop(Exception):
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
class _StreetState:
    spec: Street | None
    name: str
    deals: dict[str, list[int]] = field(default_factory=dict)  # player -> [down, up]
    boards: Counter[str] = field(default_factory=Counter)
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
    last_seq: int = 0


class Replay:
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
        self.removed_boards: set[str] = set()
        self.street: _StreetState | None = None
        self.forced_checked = False
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
        if self.chosen in PICKEM_SHOWING and stakes.big_blind:
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
        """Every chip put in this hand: antes and dead blinds, and all wagers (less returns)."""
        return sum(p.total for p in self.players.values())

    def contributed(self, player: Player) -> int:
        """What `player` put in once the rules returned the uncalled part of their bets."""
        return player.total + self.returns[player.name] - self.owed_returns[player.name]

    # ---- the walk ----
    def run(self) -> list[Finding]:
        for option, value in self.profile.unknown:
            self.flag(
                "UNKNOWN_RULES_OPTION",
                f"option {option}={value} is not known to {self.profile.name}; it was ignored",
                seq=0,
            )
        if not self.walk():
            return self.findings
        try:
            self.finish()
        except _Stop as stop:
            self.flag("REPLAY_STOPPED", f"replay stopped at the end of the hand: {stop}")
        return self.findings

    def walk(self) -> bool:
        """Every recorded action in turn; False when the record is too broken to go on."""
        for seq, action in enumerate(self.hand.actions, start=1):
            self.seq = seq
            try:
                self.step(action)
            except _Stop as stop:
                self.flag("REPLAY_STOPPED", f"replay stopped at action {seq}: {stop}")
                return False
        self.seq = len(self.hand.actions)
        return True

    def step(self, action: Action) -> None:
        if self.street is None or action.street != self.street.name:
            self.enter_street(action.street)
        street = self.street
        assert street is not None
        street.last_seq = self.seq
        kind = action.kind
        if kind == "ruling":
            self.flag("FLOOR_RULING", f"floor ruling: {action.detail}")
            return
        if kind in ("note", "run_it", "reshuffle"):
            if kind == "run_it":
                self.run_it = True
                self.runs = action.amount or 2
                self.shared = len(self.board_cards.get("1", []))
            elif kind == "reshuffle":
                # The new stub is the discards and the muck (folded hands): PokerKit rebuilds it so,
                # and the burn cards the cardroom procedures add are in no record (docs/interop.md).
                gone = {p.name for p in self.players.values() if p.folded or p.mucked}
                back = [c for c, holder in self.where.items() if holder == "discards" or holder in gone]
                for card in back:
                    del self.where[card]
                self.stub += len(back) + self.unseen_discards
                self.unseen_discards = 0
            return
        if kind in ("post", "ante"):
            self.forced(action)
            return
        if kind == "deal":
            self.deal(action)
            return
        if kind == "board":
            self.board(action)
            return
        self.settle()
        if kind == "return":
            self.take_back(action)
        elif kind in BETTING_KINDS:
            street.bettors.add(action.player or "")
            self.betting(action)
        elif kind in CARD_STEPS:
            self.card_step(action)
        elif kind in ("show", "muck"):
            self.reveal(action)

    # ---- streets ----
    def enter_street(self, name: str) -> None:
        if self.street is not None:
            self.close_street()
        spec: Street | None = None
        if name not in END_STREETS:
            names = [s.name for s in self.plan]
            if name in names and names.index(name) > self.plan_index:
                self.plan_index = names.index(name)
                spec = self.plan[self.plan_index]
            else:
                where = "out of order" if name in names else f"not a street of {self.game.variant.name}"
                self.flag("UNEXPECTED_STREET", f"street {name.replace('_', ' ')} is {where}")
        self.street = _StreetState(spec, name)
        self.short_calls = {}
        if spec is not None and spec.draw and self.sevens_rule():
            self.after_draw_from = {p.name: self.contributed(p) for p in self.players.values()}
        for p in self.players.values():
            p.bet = 0
            if p.cards and all(c in p.up for c in p.cards):
                self.street.all_exposed.add(p.name)
        # A street the game does not have still has its betting judged, at the big bet.
        betting_spec = spec or (None if name in END_STREETS else Street(name, bet="big"))
        if betting_spec and betting_spec.bet is not None and not self._bomb_pot_first(betting_spec):
            self.street.round = self.new_round(betting_spec)

    def _bomb_pot_first(self, spec: Street) -> bool:
        return bool(self.hand.stakes.bomb_pot) and spec.name == self.game.streets[0].name

    def new_round(self, spec: Street) -> Round:
        structure = self.round_structure(spec)
        if structure == "limit":
            return Round("limit", self.bet_size(spec.bet), self.min_bet())
        return Round(structure, 0, self.min_bet())

    def round_structure(self, spec: Street) -> str:
        """The betting of a round: the hand's structure, except `pl-nl` (PokerStars' "Pot Limit
        Pre-Flop, No Limit Post-Flop"): pot limit on the first betting round, no limit after."""
        if self.hand.structure != "pl-nl":
            return self.hand.structure
        first = next((s.name for s in self.game.streets if s.bet is not None), spec.name)
        return "pot-limit" if spec.name == first else "no-limit"

    def close_street(self) -> None:
        street = self.street
        assert street is not None
        self.settle()
        spec = street.spec
        going_on = len(self.live) >= 2
        r = street.round
        if r is not None and going_on:
            waiting = self.next_to_act(r)
            if waiting is not None:
                self.flag(
                    "BETTING_ROUND_INCOMPLETE",
                    f"{street.name.replace('_', ' ')} ended with {waiting} still to act",
                    seq=street.last_seq,
                )
        self._owe_uncalled(street)
        if spec is not None and "remove_board" in spec.steps and (going_on or street.removed):
            self.check_removal(street)  # §2.34: a removal is checked whoever is left to play the river
        if spec is None or not going_on:
            return
        if spec.dice and not street.rolled and self.plan_index + 1 < len(self.plan):
            self.flag(
                "WRONG_DICE",
                f"no roll of {spec.dice} dice after the {spec.name} betting",
                seq=street.last_seq,
            )
        lowest = (spec.discard or spec.draw or (0, 0))[0]
        if lowest:
            for p in self.live:
                if p.name not in street.discarded:
                    self.flag(
                        "WRONG_DISCARD_COUNT",
                        f"{p.name} did not discard on {spec.name}; {lowest} must be discarded",
                        seq=street.last_seq,
                    )
        for name, (count, seq) in street.pending_draw.items():
            self.flag("DRAW_COUNT_MISMATCH", f"{name} discarded {count} and drew nothing", seq=seq)

    def _owe_uncalled(self, street: _StreetState) -> None:
        """The part of the street's top wager that nobody matched is owed back to its maker (§1.1).
        Where the room returns the unmatched part of an ante with it (`uncalled_ante`), a return
        of that is what was owed."""
        owed = self._uncalled(street, Counter())
        if self.profile.get("uncalled_ante") == "returned":
            with_ante = self._uncalled(street, street.antes)
            if with_ante is not None and street.returns[with_ante[0]] == with_ante[1]:
                owed = with_ante
        if owed is None:
            return
        name, amount = owed
        self.owed_returns[name] += amount
        self.owed_seq.setdefault(name, street.last_seq)

    def _uncalled(self, street: _StreetState, antes: Counter[str]) -> tuple[str, int] | None:
        """Who put in the most on the street (counting `antes`), and by how much nobody matched it."""
        bets = sorted(((p.bet + street.returns[p.name] + antes[p.name], p.name)
                       for p in self.players.values()), reverse=True)
        if len(bets) < 2 or bets[0][0] <= bets[1][0]:
            return None
        return bets[0][1], bets[0][0] - bets[1][0]

    # ---- cards ----
    def place(self, card: str, holder: str) -> None:
        """Take `card` from the stub for `holder`: it must be in the deck and not yet seen."""
        self.dealt += 1
        if self.dealt > self.stub and not self.stub_warned:
            self.stub_warned = True
            self.flag(
                "STUB_EXHAUSTED",
                f"card {self.dealt} dealt from a {self.game.deck.name} with no "
                "reshuffle of the discards and no common card",
            )
        if card == UNKNOWN_CARD:
            return
        self.check_card(card)
        if card in self.where:
            self.flag(
                "DUPLICATE_CARD",
                f"{card} dealt to {holder.removeprefix('board:')} is already "
                f"{self._describe(self.where[card])}",
            )
        self.where[card] = holder

    def _describe(self, holder: str) -> str:
        if holder.startswith("board:"):
            return f"on board {holder[6:]}"
        if holder == "discards":
            return "among the discards"
        return f"held by {holder}"

    def check_card(self, card: str) -> None:
        if card not in self.game.deck:
            self.flag("CARD_NOT_IN_DECK", f"{card} is not in the {self.game.deck.name}")

    def claim(self, player: Player, cards: tuple[str, ...], what: str) -> None:
        """`player` reveals `cards`: each must be one they hold (an unseen card becomes it)."""
        for card in cards:
            if card == UNKNOWN_CARD or card in player.cards:
                continue
            self.check_card(card)
            holder = self.where.get(card)
            if holder is not None and holder != player.name:
                self.flag("DUPLICATE_CARD", f"{player.name} {what} {card}, which is {self._describe(holder)}")
            elif UNKNOWN_CARD in player.cards:
                player.cards[player.cards.index(UNKNOWN_CARD)] = card
                self.where[card] = player.name
            else:
                self.flag("SHOWN_CARDS_NOT_HELD", f"{player.name} {what} {card} but was not dealt it")

    def deal(self, action: Action) -> None:
        street = self.street
        assert street is not None and action.player is not None
        player = self.players[action.player]
        face_up = action.detail == "up"
        for card in action.cards:
            self.place(card, player.name)
            player.cards.append(card)
            if face_up:
                player.up.append(card)
                player.dealt_up.append(card)
        if street.settled:
            extra = street.extra_deal.pop(player.name, 0)
            if extra != len(action.cards):
                self.flag(
                    "WRONG_DEAL",
                    f"{player.name} dealt {len(action.cards)} card(s) after the deal "
                    f"of {street.name.replace('_', ' ')}",
                )
            return
        counts = street.deals.setdefault(player.name, [0, 0])
        counts[1 if face_up else 0] += len(action.cards)

    def board(self, action: Action) -> None:
        street = self.street
        assert street is not None
        name = action.detail or "1"
        for card in action.cards:
            self.place(card, f"board:{name}")
            self.board_cards[name].append(card)
        street.boards[name] += len(action.cards)
        if name == "common":
            street.common = True

    def expected_deal(self, player: Player, spec: Street) -> tuple[int, int]:
        street = self.street
        assert street is not None
        if street.common:
            return (0, 0)
        rules = self.game.rules
        if "deal_down_when_exposed" in rules and spec.up and not spec.down:
            return (1, 0) if player.name in street.all_exposed else (0, 1)  # §2.31
        if EXTRA_HOLE_CARDS_ON_BLACK_FLOP in rules and spec.name == "flop":
            return (2, 0) if self._black_flop() else (0, 0)
        return (spec.down, spec.up)

    def _black_flop(self) -> bool:
        flop = self.board_cards.get("1", [])[:3]
        return sum(1 for c in flop if c[1:] in ("s", "c")) >= 2

    def settle(self) -> None:
        """The deal of the street is over: check the counts, fill in cards nobody recorded."""
        street = self.street
        if street is None or street.settled:
            return
        street.settled = True
        spec = street.spec
        if spec is None:
            return
        for player in self.live:
            down, up = self.expected_deal(player, spec)
            got = street.deals.get(player.name)
            if got is None:
                for _ in range(down + up):
                    self.place(UNKNOWN_CARD, player.name)
                    player.cards.append(UNKNOWN_CARD)
                    if up:
                        player.up.append(UNKNOWN_CARD)
            elif (got[0] + got[1], got[1] if self.game.forced != "blinds" or up else 0) != (down + up, up):
                self.flag(
                    "WRONG_DEAL",
                    f"{player.name} was dealt {got[0]} down and {got[1]} up on "
                    f"{spec.name.replace('_', ' ')}; the game deals {down} down and {up} up",
                )
        expected = dict(spec.boards)
        for name in street.boards:
            if name in expected or name == "common" or (self.run_it and name.isdigit() and name != "1"):
                continue
            self.flag("WRONG_BOARD", f"board {name} is not a board of {self.game.variant.name}")
        if len(self.live) >= 2 or street.boards:
            for name, count in expected.items():
                if street.boards[name] != count and not (self.run_it and street.boards[name] == 0):
                    self.flag(
                        "WRONG_BOARD",
                        f"board {name} got {street.boards[name]} card(s) on "
                        f"{spec.name.replace('_', ' ')}; the game deals {count}",
                    )

    # ---- forced money ----
    def forced(self, action: Action) -> None:
        assert action.player is not None
        player = self.players[action.player]
        amount = action.amount or 0
        if action.kind == "ante":
            player.ante += amount  # before `take`: the room's cap counts no ante
            if self.street is not None:
                self.street.antes[player.name] += amount
        self.take(player, amount)
        if action.kind == "ante" or action.detail == "dead_blind":
            player.bet -= amount  # dead money: in the pot, not a wager of the street
            player.dead += amount
            return
        street = self.street
        assert street is not None
        if street.round is not None:
            level = player.bet
            if action.all_in and action.detail == "big_blind" and self.profile.get("short_blind") == "full":
                level = max(level, self.hand.stakes.big_blind or 0)  # the profile's short blind rule
            street.round.post(level)

    def take(self, player: Player, amount: int) -> None:
        if amount > player.stack:
            self.flag(
                "BET_EXCEEDS_STACK", f"{player.name} puts in {chips(amount)} with {chips(player.stack)} left"
            )
        elif player.cap is not None and amount > player.left:
            self.flag(
                "BET_OVER_CAP",
                f"{player.name} puts in {chips(amount)} with {chips(max(player.left, 0))} left under the cap "
                f"of {chips(player.cap)} (the most a player puts in over the hand, antes aside)",
            )
        player.stack -= amount
        player.bet += amount
        player.total += amount

    def check_forced_once(self) -> None:
        if self.forced_checked:
            return
        self.forced_checked = True
        for code, message, section in check_forced(self.hand, self.game, self.profile):
            self.flag(code, message, section)

    # ---- betting ----
    def first_to_act(self, spec: Street) -> Player | None:
        live = self.live
        if not live:
            return None
        if spec.first == LEFT_OF_BIG_BLIND:
            anchor = self.anchor
            return self.clockwise_after(anchor)[0] if anchor is not None else live[0]
        if spec.first == LEFT_OF_BUTTON:
            seat = self.hand.button_seat
            return self.clockwise_after(seat)[0] if seat is not None else live[0]
        if spec.first == BRING_IN:
            return self.bring_in_player() or live[0]
        return self.best_showing()

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

    def bring_in_player(self) -> Player | None:
        order = self.game.bring_in
        candidates = [p for p in self.live if p.up and p.up[-1] != UNKNOWN_CARD]
        if order is None or not candidates:
            return None
        return max(candidates, key=lambda p: (card_order(p.up[-1], order), -p.seat))

    def best_showing(self) -> Player | None:
        scale = self.showing or "high"
        live = self.live
        if self.game.ties == "button" and self.hand.button_seat is not None:
            ordered = self.clockwise_after(self.hand.button_seat)
        else:
            ordered = live
        if not ordered:
            return None
        ranked = [(showing_key(p.up, scale), -i, p) for i, p in enumerate(ordered)]
        return max(ranked, key=lambda t: (t[0], t[1]))[2]

    def next_to_act(self, r: Round) -> str | None:
        if r.order is None:
            return None
        live = self.live
        able = [p for p in live if not p.all_in]
        n = len(r.order)
        for k in range(1, n + 1):
            name = r.order[(r.pos + k) % n]
            p = self.players[name]
            if not p.live or p.all_in:
                continue
            if len(live) < 2:
                return None
            owes = p.bet < self.call_level(r, p)
            if name in r.acted and not owes:
                continue
            if not owes and len(able) == 1:
                continue  # everyone else is all-in: nobody left to bet against
            return name
        return None

    def start_round(self, r: Round, spec: Street, first: Player | None = None) -> None:
        first = first or self.first_to_act(spec)
        if first is None:
            r.order = []
            return
        ordered = self.clockwise_after(first.seat - 1, [p for p in self.players.values() if p.dealt_in])
        r.order = [p.name for p in ordered]
        r.pos = -1

    def betting(self, action: Action) -> None:
        street = self.street
        assert street is not None and action.player is not None
        self.check_forced_once()
        player = self.players[action.player]
        spec = street.spec
        if street.round is None:
            if self.hand.stakes.bomb_pot and spec is not None and spec.name == self.game.streets[0].name:
                self.flag("BOMB_POT_BETTING", f"{player.name} {action.kind}s before the flop in a bomb pot")
            else:
                self.flag(
                    "UNEXPECTED_STEP",
                    f"{player.name} {action.kind}s on "
                    f"{street.name.replace('_', ' ')}, which has no betting round",
                )
            self.move_chips(player, action)
            if action.kind == "fold":
                player.folded = True
            return
        r = street.round
        if r.order is None:
            self.start_round(r, spec or Street(street.name))
        if player.folded:
            self.flag("ACTION_AFTER_FOLD", f"{player.name} {action.kind}s after folding")
            self.move_chips(player, action)
            return
        if (
            spec is not None
            and spec.first == BRING_IN
            and r.current == 0
            and action.kind in ("bring_in", "complete")
        ):
            # Whoever opens with the bring-in sets the order; WRONG_BRING_IN says if it was not theirs.
            self.start_round(r, spec, first=player)
        expected = self.next_to_act(r)
        if expected is None:
            self.flag("OUT_OF_TURN", f"{player.name} {action.kind}s but nobody was due to act")
        elif expected != player.name:
            self.flag("OUT_OF_TURN", f"{player.name} acted when it was {expected}'s turn")
        if r.order and player.name in r.order:
            r.pos = r.order.index(player.name)
        self.jam_or_fold(player, action, r)
        handler = getattr(self, f"on_{action.kind}")
        handler(player, action, r, spec)
        if action.kind in ("call", "bet", "raise", "complete"):
            self.acted_behind(player)
        r.acted[player.name] = r.full
        if action.kind not in ("fold", "check") and action.kind in BETTING_KINDS:
            self.check_all_in_mark(player, action)

    def move_chips(self, player: Player, action: Action) -> None:
        """Chips of an action that is not judged (out of place): the record is followed."""
        if action.kind in ("bet", "call", "bring_in"):
            self.take(player, action.amount or 0)
        elif action.kind in ("raise", "complete"):
            self.take(player, (action.to_amount or 0) - player.bet)

    def jam_or_fold(self, player: Player, action: Action, r: Round) -> None:
        if not self.hand.stakes.jam_or_fold or player.voluntary:
            return
        player.voluntary = True
        if action.kind == "fold" or action.all_in or (action.kind == "call" and r.all_in_wager):
            return
        self.flag("JAM_OR_FOLD", f"{player.name} {action.kind}s; the first action must be all-in or fold")

    def check_all_in_mark(self, player: Player, action: Action) -> None:
        if action.all_in and player.left > 0:
            self.flag("ALL_IN_MISMARKED", f"{player.name} is marked all-in with {chips(player.left)} left")
        elif not action.all_in and player.stack == 0:
            self.flag("ALL_IN_MISMARKED", f"{player.name} put in the last chips without 'and is all-in'")

    def allowed_sizes(self, r: Round, spec: Street | None) -> tuple[int, ...]:
        if spec is None:
            return (r.size,)
        rules = self.game.rules
        if "spread_limit" in rules:  # §2.31: the small or the big bet; a raise at least the last bet
            sizes = (self.bet_size("small"), self.bet_size("big"))
            return tuple(s for s in sizes if s >= r.last_raise) if r.current else sizes
        if (
            "double_bet_open_pair" in rules
            and self.profile.get("stud_double_bet") == "yes"
            and spec.name == "4th_street"
            and self._open_pair()
        ):
            return (r.size, self.bet_size("big"))
        return (r.size,)

    def _open_pair(self) -> bool:
        return any(
            max(Counter(rank_value(c) for c in p.up if c != UNKNOWN_CARD).values(), default=0) >= 2
            for p in self.live
        )

    def wager(self, player: Player, target: int, action: Action, r: Round, spec: Street | None) -> None:
        """A bet, raise or completion to `target`: size rules, then the chips."""
        before_pot = self.pot()
        all_in = target - player.bet >= player.left
        raising = r.base > 0  # over a full bet (not a stud bring-in): what a short all-in raise raises
        if r.structure == "limit":
            allowed = self.allowed_sizes(r, spec)
            covers = max((p.bet + p.left for p in self.live if p is not player), default=0)
            spread = "spread_limit" in self.game.rules  # §2.31: a raise at least the last bet
            breaches = betting.judge_spread_raise(r, target, all_in) if spread else []
            for code, message, section in breaches or betting.judge_limit(r, target, all_in, allowed, covers):
                self.flag(code, f"{player.name} {message}", section)
            half_bet = self.profile.get("short_all_in_raise") == "half_bet"
            full = betting.limit_full(r, target, allowed, half_bet)
            if len(allowed) > 1 and target - r.base >= max(allowed):
                r.size = max(allowed)  # §2.47: a big bet may not be met by a small-bet raise
        else:
            for code, message, section in betting.judge_big_bet(r, target, all_in, before_pot, player.bet):
                self.flag(code, f"{player.name} {message}", section)
            full = betting.big_bet_full(r, target)
        self.take(player, target - player.bet)
        r.raise_to(target, full)
        if r.structure == "limit" and raising and all_in and not full \
                and self.profile.get("short_all_in_raise") == "completes":
            r.reopen()  # the room's rule: the next raise completes the short one, from anyone
        r.all_in_wager = player.all_in

    def on_fold(self, player: Player, action: Action, r: Round, spec: Street | None) -> None:
        player.folded = True
        if action.cards:
            self.claim(player, action.cards, "folds face up")

    def on_check(self, player: Player, action: Action, r: Round, spec: Street | None) -> None:
        if player.bet < r.current:
            self.flag(
                "ILLEGAL_CHECK", f"{player.name} checks facing a bet of {chips(r.current - player.bet)}"
            )
        r.checked.add(player.name)
        if self.after_draw_from is not None and r.current == 0 and player.sevens is None:
            player.sevens = ("checked", None)  # a breach if the hand is a seven or better

    def call_level(self, r: Round, player: Player) -> int:
        """What a call must match: the round's bet, but no more than the others have in when they
        are all all-in (a full big blind still to call behind a short one: `short_blind`)."""
        others = [p for p in self.live if p is not player]
        if others and all(p.all_in for p in others):
            return min(r.current, max(p.bet for p in others))
        return r.current

    def on_call(self, player: Player, action: Action, r: Round, spec: Street | None) -> None:
        owed = min(self.call_level(r, player) - player.bet, player.left)
        amount = action.amount or 0
        if r.current - player.bet <= 0:
            self.flag("ILLEGAL_ACTION", f"{player.name} calls {chips(amount)} with nothing to call")
        elif amount != owed:
            self.flag("WRONG_CALL_AMOUNT", f"{player.name} calls {chips(amount)}; the call is {chips(owed)}")
        full = r.size if r.structure == "limit" else r.min_bet
        if self.after_draw_from is not None and r.all_in_wager and r.current < full:
            bettor = next((p.name for p in self.live if p.bet == r.current and p.all_in), None)
            if bettor is not None:
                self.short_calls[player.name] = bettor
        self.take(player, amount)

    def on_bet(self, player: Player, action: Action, r: Round, spec: Street | None) -> None:
        amount = action.amount or 0
        if r.current > 0:
            self.flag(
                "ILLEGAL_ACTION",
                f"{player.name} bets {chips(amount)} facing a bet of {chips(r.current)}; that is a raise",
            )
        self.wager(player, player.bet + amount, action, r, spec)

    def on_raise(self, player: Player, action: Action, r: Round, spec: Street | None) -> None:
        target = action.to_amount or 0
        if target <= player.bet:
            raise _Stop(
                f"{player.name} raises to {chips(target)} with {chips(player.bet)} already in: no chips go in"
            )
        if r.current == 0:
            self.flag("ILLEGAL_ACTION", f"{player.name} raises with no bet to raise; that is a bet")
        elif action.amount is not None and action.amount not in (
                target - r.current, target - max(p.bet for p in self.players.values())):
            # (the second: a raise counted from a short all-in blind rather than the full blind)
            self.flag(
                "RAISE_ARITHMETIC",
                f"{player.name} raises {chips(action.amount)} to {chips(target)}, but the bet "
                f"was {chips(r.current)}: a raise of {chips(target - r.current)}",
            )
        self.raise_checks(player, r, spec)
        self.wager(player, target, action, r, spec)

    def raise_checks(self, player: Player, r: Round, spec: Street | None) -> None:
        if not r.reopened_for(player.name):
            self.flag(
                "BETTING_NOT_REOPENED",
                f"{player.name} raises, but only a short all-in came since they acted",
                "1.1" if r.structure == "limit" else "1.2",
            )
        if r.structure != "limit":
            return
        if self.capped(r):
            self.flag(
                "RAISE_CAP_EXCEEDED",
                f"{player.name} makes raise {r.raises} after the cap of a bet "
                f"and {self.profile.raise_cap} raises",
            )
        if player.name in r.checked and self.sevens_rule():
            self.flag("CHECK_RAISE", f"{player.name} raises after checking", "2.11")

    def capped(self, r: Round) -> bool:
        """§1.1: a bet and the profile's number of raises have been made, and the cap holds."""
        return r.raises >= 1 + self.profile.raise_cap and not self.cap_lifted()

    def cap_lifted(self) -> bool:
        setting = self.profile.get("cap_heads_up")
        lifted = setting == "lifted" or (setting == "auto" and self.hand.tournament is None)
        return lifted and len(self.live) == 2

    def acted_behind(self, actor: Player) -> None:
        """Appendix B: a seven-or-better that just called a short all-in bet breaks the sevens
        rule once somebody calls or raises behind it."""
        for caller, bettor in self.short_calls.items():
            player = self.players[caller]
            if caller != actor.name and player.sevens is None:
                player.sevens = ("called", bettor)

    def sevens_rule(self) -> bool:
        if "sevens_rule" not in self.game.rules:
            return False
        setting = self.profile.get("sevens_rule")
        return setting == "yes" or (setting == "auto" and self.hand.structure == "limit")

    def on_complete(self, player: Player, action: Action, r: Round, spec: Street | None) -> None:
        target = action.to_amount or 0
        opening = r.current == 0 and spec is not None and spec.first == BRING_IN
        if opening:
            self.check_bring_in_player(player)
        elif not (r.bring_in or r.base < r.current < r.base + r.size):  # §1.1: a short wager to complete
            self.flag("ILLEGAL_ACTION", f"{player.name} completes with no bring-in or short bet to complete")
        if not opening and not r.bring_in:
            self.raise_checks(player, r, spec)
        self.wager(player, target, action, r, spec)

    def on_bring_in(self, player: Player, action: Action, r: Round, spec: Street | None) -> None:
        amount = action.amount or 0
        self.check_bring_in_player(player)
        expected = self.hand.stakes.bring_in
        if expected is not None and amount != expected and not (amount < expected and amount >= player.left):
            self.flag(
                "WRONG_BRING_IN",
                f"{player.name} brings in for {chips(amount)}; the bring-in is {chips(expected)}",
                "1.1",
            )
        if r.current:
            self.flag("ILLEGAL_ACTION", f"{player.name} brings in after the betting was opened")
        self.take(player, amount)
        r.current = amount
        r.bring_in = True
        if r.structure != "limit":
            r.base = amount
            r.last_raise = amount

    def check_bring_in_player(self, player: Player) -> None:
        expected = self.bring_in_player()
        if expected is not None and expected.name != player.name:
            self.flag(
                "WRONG_BRING_IN",
                f"{player.name} brings in, but {expected.name}'s {expected.up[-1]} is the bring-in card",
            )

    def take_back(self, action: Action) -> None:
        assert action.player is not None
        player = self.players[action.player]
        amount = action.amount or 0
        street = self.street
        assert street is not None
        ante_back = 0
        if self.profile.get("uncalled_ante") == "returned":  # the room returns an unmatched ante too
            ante_back = min(max(amount - player.bet, 0), street.antes[player.name])
        if amount - ante_back > player.bet:
            raise _Stop(
                f"{chips(amount)} returned to {player.name}, who has {chips(player.bet)} in front of them"
            )
        player.stack += amount
        player.bet -= amount - ante_back
        player.total -= amount
        player.dead -= ante_back
        player.ante -= ante_back
        street.antes[player.name] -= ante_back
        self.returns[player.name] += amount
        street.returns[player.name] += amount
        if street.round is not None:
            street.round.current = max(p.bet for p in self.players.values())

    # ---- other steps ----
    def card_step(self, action: Action) -> None:
        street = self.street
        assert street is not None
        spec = street.spec
        kind = action.kind
        player = self.players[action.player] if action.player else None
        allowed = spec is not None and (
            (kind in ("discard", "draw", "stand_pat") and (spec.draw or spec.discard))
            or (kind == "roll" and spec.dice)
            or kind in (spec.steps if spec else ())
        )
        if not allowed:
            self.flag(
                "UNEXPECTED_STEP",
                f"{kind.replace('_', ' ')} on {street.name.replace('_', ' ')} "
                f"is not a step of {self.game.variant.name}",
            )
        elif spec is not None:
            self.check_order(action, spec)
        if kind == "roll":
            self.on_roll(action, spec)
        elif kind == "remove_board":
            street.removed.add(action.detail or "")
            self.removed_boards.add(action.detail or "")
        elif player is None:
            return
        elif kind == "discard":
            self.on_discard(player, action, spec)
        elif kind == "draw":
            self.on_draw(player, action)
        elif kind == "stand_pat":
            self.on_discard(player, action, spec)
        elif kind in ("split", "expose"):
            self.claim(player, action.cards, "shows")
            if kind == "split":
                player.split = list(action.cards)
            if kind == "expose":
                player.up.extend(c for c in action.cards if c not in player.up)
        elif kind == "choose":
            self.on_choose(player, action)

    def check_order(self, action: Action, spec: Street) -> None:
        """The step against its street's betting round, and in seat order where the players take it in
        turn, as the game's section orders them (the catalog's `timing` and `in_turn`)."""
        street = self.street
        assert street is not None
        kind = action.kind
        if kind == "draw":
            return  # the replacement cards follow their discard, whose place is checked
        step = ("draw" if spec.draw else "discard") if kind in ("discard", "stand_pat") else kind
        when = spec.when(step)
        what = f"{action.player or 'the dealer'}'s {STEP_WORDS.get(step, step)}"
        betting = f"the {street.name.replace('_', ' ')} betting"
        player = self.players.get(action.player or "")
        # a player all-in before acting puts no chips in and cannot check: their first action is the step
        acted = action.player in street.bettors or (player is not None and player.all_in)
        if when == BEFORE_BETTING and street.bettors:
            self.flag("STEP_OUT_OF_ORDER", f"{what} came after {betting} began; in "
                      f"{self.game.variant.name} it comes before that betting")
        elif when == AFTER_BETTING and not self.betting_over(street):
            self.flag("STEP_OUT_OF_ORDER", f"{what} came before {betting} was over; in "
                      f"{self.game.variant.name} it follows that betting")
        elif when == WITH_OWN_ACTION and not acted and not self.betting_over(street):
            self.flag("STEP_OUT_OF_ORDER", f"{what} came before they acted in {betting}; in "
                      f"{self.game.variant.name} it is made with the player's first action")
        if step in spec.in_turn and player is not None and player.name not in street.discarded:
            self.check_turn(player, street, STEP_WORDS.get(step, step))

    def check_turn(self, player: Player, street: _StreetState, step: str) -> None:
        """§2.17 and every draw: "each player in turn", from the first active player to the left of the
        button, all the discards announced before the replacement cards are dealt."""
        button = self.hand.button_seat
        if button is None:
            return
        due = next((p for p in self.clockwise_after(button) if p.name not in street.discarded), None)
        if due is not None and due.name != player.name:
            self.flag("OUT_OF_TURN", f"{player.name} takes the {step} when it was {due.name}'s turn: each "
                      "player draws in turn from the first player to the left of the button")

    def betting_over(self, street: _StreetState) -> bool:
        """Whether the street's betting round is over, or there is none to play."""
        r = street.round
        if r is None:
            return True
        if r.order is None:  # nobody has acted yet: a round is due if two players can still bet
            return sum(1 for p in self.live if not p.all_in) < 2
        return self.next_to_act(r) is None

    def on_discard(self, player: Player, action: Action, spec: Street | None) -> None:
        street = self.street
        assert street is not None
        cards = action.cards
        street.discarded.add(player.name)
        limits = (spec.draw or spec.discard) if spec is not None else None
        if limits and not (limits[0] <= len(cards) <= limits[1]):
            most = f"exactly {limits[0]}" if limits[0] == limits[1] else f"{limits[0]} to {limits[1]}"
            self.flag("WRONG_DISCARD_COUNT", f"{player.name} discards {len(cards)}; {most} may be discarded")
        self.claim(player, cards, "discards")
        for card in cards:
            if card in player.cards:
                player.cards.remove(card)
                if card in player.up:
                    player.up.remove(card)
            elif UNKNOWN_CARD in player.cards:
                player.cards.remove(UNKNOWN_CARD)
            if card != UNKNOWN_CARD:
                self.where[card] = "discards"
            else:
                self.unseen_discards += 1  # unseen, but back in the stub on a reshuffle all the same
        if spec is not None and spec.draw and cards:
            street.pending_draw[player.name] = (len(cards), self.seq)

    def on_draw(self, player: Player, action: Action) -> None:
        street = self.street
        assert street is not None
        count, _ = street.pending_draw.pop(player.name, (0, 0))
        if count != len(action.cards):
            self.flag("DRAW_COUNT_MISMATCH", f"{player.name} discarded {count} and drew {len(action.cards)}")
        for card in action.cards:
            self.place(card, player.name)
            player.cards.append(card)

    def on_roll(self, action: Action, spec: Street | None) -> None:
        street = self.street
        assert street is not None
        street.rolled = True
        dice = (action.detail or "").split()
        self.dice.extend(int(d) for d in dice if d.isdigit())
        if spec is None or not spec.dice:
            return  # a roll the game lacks here: UNEXPECTED_STEP says so
        if len(dice) != spec.dice:
            self.flag("WRONG_DICE", f"{len(dice)} dice rolled; {self.game.variant.name} rolls {spec.dice}")
        # §1.13: "the dice (or die) are rolled by the player on the button". The dealer may roll for a
        # button player who is out of the hand (the section is silent), never for one still in it.
        button = self.button_player
        if button is None:
            return
        if action.player is None and button.live:
            self.flag("WRONG_DICE", f"the dealer rolls; the player on the button ({button.name}) is in the "
                      "hand and rolls")
        elif action.player is not None and action.player != button.name:
            self.flag("WRONG_DICE", f"{action.player} rolls; the player on the button ({button.name}) rolls")

    def on_choose(self, player: Player, action: Action) -> None:
        choice = action.detail or ""
        choices = dict(self.game.choices)
        if choice not in choices:
            self.flag(
                "WRONG_GAME_CHOICE",
                f"{player.name} chooses {choice}, which is not a game of "
                f"{self.game.variant.name} ({', '.join(choices)})",
            )
            return
        chooser = self.chooser()
        if chooser is not None and chooser.name != player.name:
            self.flag("WRONG_GAME_CHOICE", f"{player.name} chooses the game; {chooser.name} chooses (§2.38)")
        street = self.street
        assert street is not None and street.spec is not None
        old = street.spec
        streets = choices[choice]
        self.chosen = choice
        self.showing = PICKEM_SHOWING.get(choice, self.showing)
        self.plan = [streets[0], *list(streets[1:])]
        self.plan_index = 0
        street.spec = streets[0]
        for p in self.live:
            extra = streets[0].down - old.down
            if extra:
                street.extra_deal[p.name] = extra

    def chooser(self) -> Player | None:
        """§2.38: the player under the gun, or the button heads-up and three-handed."""
        dealt = [p for p in self.players.values() if p.dealt_in]
        button = self.button_player
        if button is None:
            return None
        if len(dealt) <= 3:
            return button
        anchor = self.anchor
        return self.clockwise_after(anchor, dealt)[0] if anchor is not None else None

    def river_cards(self) -> dict[str, str]:
        """Oklahoma's rows that have their river card, and that card."""
        return {
            name: cards[-1]
            for name, cards in self.board_cards.items()
            if name in ("1", "2", "3") and len(cards) == 5
        }

    def boards_to_remove(self) -> set[str] | None:
        """§2.34: the rows whose river card is lowest (deuce low, ace high), none when all three
        tie, all three under the cash-game rule; None before the three rivers are dealt."""
        rivers = self.river_cards()
        if len(rivers) != 3:
            return None
        if self.profile.get("oklahoma") == "cash":
            return set(rivers)
        lowest = min(rank_value(c) for c in rivers.values())
        expected = {n for n, c in rivers.items() if rank_value(c) == lowest}
        return set() if len(expected) == 3 else expected

    def check_removal(self, street: _StreetState) -> None:
        """§2.34: the rows whose river card is lowest are removed."""
        expected = self.boards_to_remove()
        if expected is None:
            return
        rivers = self.river_cards()
        if street.removed != expected:
            said = ", ".join(sorted(street.removed)) or "none"
            due = ", ".join(sorted(expected)) or "none"
            self.flag(
                "WRONG_BOARD_REMOVAL",
                f"boards removed: {said}; the river cards "
                f"{' '.join(rivers[n] for n in sorted(rivers))} remove {due}",
                seq=street.last_seq,
            )

    def reveal(self, action: Action) -> None:
        if action.player is None:
            return
        player = self.players[action.player]
        self.claim(player, action.cards, "shows" if action.kind == "show" else "mucks")
        if action.kind == "muck":
            player.mucked = True
            return
        player.showed = True
        if player.split and UNKNOWN_CARD in player.split and len(action.cards) == len(player.split):
            player.split = list(action.cards)  # shown in the order of the split (docs/format.md)

    # ---- the end ----
    def finish(self) -> None:
        if self.street is not None:
            self.close_street()
        self.check_forced_once()
        for name, owed in self.owed_returns.items():
            if self.returns[name] != owed:
                self.flag(
                    "UNCALLED_BET_WRONG",
                    f"{chips(owed)} of {name}'s bet was not called; {chips(self.returns[name])} was returned",
                    seq=self.owed_seq.get(name, self.seq),
                )
        for name, back in self.returns.items():
            if name not in self.owed_returns and back:
                self.flag("UNCALLED_BET_WRONG", f"{chips(back)} returned to {name}, whose bet was called")
        pot = self.pot()
        awarded = Counter[str]()
        for award in self.hand.awards:
            awarded[award.player] += award.amount
        rake = self.hand.rake or 0
        over = len(self.live) <= 1 or self.plan_index == len(self.plan) - 1
        if not self.hand.awards and over and self.settle_unrecorded():
            pass
        elif sum(awarded.values()) + rake != pot:
            self.flag(
                "AWARDS_MISMATCH",
                f"the pot is {chips(pot)} but {chips(sum(awarded.values()))} was awarded"
                + (f" and {chips(rake)} raked" if rake else ""),
            )
        elif sum(awarded.values()) + rake == pot:
            self.check_showdown()
        if self.hand.total_pot is not None and self.hand.total_pot != pot:
            self.flag(
                "TOTAL_POT_MISMATCH",
                f"the summary says the total pot is {chips(self.hand.total_pot)}; {chips(pot)} was put in",
            )
        for code, message in rake_breaches(self.hand, pot):
            self.flag(code, message)
        for seq, message in misdescriptions(self.hand, self.table()):
            self.flag("MISDESCRIBED_HAND", message, seq=seq)
        for final in self.hand.final_stacks:
            player = self.players.get(final.player)
            if player is None:
                continue
            computed = player.stack + awarded[player.name]
            if computed != final.amount:
                self.flag(
                    "STACK_MISMATCH",
                    f"{player.name} ends with {chips(final.amount)} but started with "
                    f"{chips(computed - awarded[player.name] + player.total)}, "
                    f"put in {chips(player.total)} and won {chips(awarded[player.name])}: {chips(computed)}",
                )


    # ---- the showdown and the pots ----
    def table(self) -> Table:
        """The end of the hand as the settlement needs it (evaluator.settle)."""
        before = self.after_draw_from or {}
        seats = []
        for p in (self.players[n] for n in self.order):
            if not (p.dealt_in or p.total):
                continue
            put_in = self.contributed(p)
            seats.append(Seat(
                p.name, p.seat, put_in - p.dead, p.dead, p.live and not p.mucked, tuple(p.cards),
                tuple(p.dealt_up), tuple(p.split) if p.split else None,
                put_in - before.get(p.name, put_in), p.sevens, p.showed,
            ))
        boards = {n: tuple(cards) for n, cards in self.board_cards.items() if n not in self.removed_boards}
        notes = (a.detail or "" for a in self.hand.actions if a.kind == "note")
        cash_outs, splash = room_money(notes, self.profile.options)
        cash_outs = {name: amount for name, amount in cash_outs.items() if name in self.players}
        return Table(
            self.game.id, tuple(seats), self.unit(), boards, tuple(self.dice), self.profile.options,
            self.chosen, self.runs, self.shared, self.hand.button_seat,
            odd_chip="card" if self.game.forced == "antes" else "button",  # §1.4 rule 3: stud, or a button
            rake=self.hand.rake or 0, sevens_rule=self.after_draw_from is not None,
            cash_outs=cash_outs, splash=splash,
        )

    def unit(self) -> int:
        """The smallest chip in play (§1.4 rule 1): the profile's, or read off the hand's amounts."""
        chosen = self.profile.get("smallest_chip")
        if chosen != "auto":
            return parse_amount(chosen)
        stakes = self.hand.stakes
        amounts = [s.stack for s in self.hand.seats]
        amounts += [a.amount or 0 for a in self.hand.actions] + [a.to_amount or 0 for a in self.hand.actions]
        amounts += [a.amount for a in self.hand.awards]
        amounts += [v or 0 for v in (stakes.small_blind, stakes.big_blind, stakes.small_bet, stakes.big_bet,
                                     stakes.ante, stakes.big_blind_ante, stakes.bring_in, stakes.bomb_pot)]
        return chip_unit(amounts)

    def check_showdown(self) -> None:
        """Who the rules say wins each pot, against what the dealer pushed."""
        table = self.table()
        settlement = settle(table)
        if settlement.unchecked:
            # Cards the replay already found at fault explain why; otherwise say so.
            if not any(f.code.name in CARD_FAULTS for f in self.findings):
                self.flag("AWARD_NOT_CHECKED", f"the awards could not be checked: {settlement.unchecked}")
            return
        self.settlement = settlement
        rake_free = settle(replace(table, rake=0)) if table.rake else None
        breaches = check_awards(settlement, self.hand.awards, self.returns, self.owed_returns, table.unit,
                                rake_free, table.rake)
        # The note that the sevens rule applied is in the error when the dealer did not apply it.
        ignored = any(code == "SEVENS_REFUND_IGNORED" for code, _, _ in breaches)
        notes = [n for n in settlement.notes if not (ignored and n[0] == "SEVENS_RULE")]
        for code, message, section in [*notes, *breaches]:
            self.flag(code, message, section)

    def settle_unrecorded(self) -> bool:
        """A finished hand whose record has no pushes (PHH writes none): what the rules push is the
        hand's result (BARGE 2025 §1.4), when the cards the showdown needs are in the record; a
        hand shown as unknown cards (`sm ????`) is not tabled and cannot win (TDA)."""
        settlement = settle(self.table(), recorded=False)
        if settlement.unchecked:
            return False
        self.settlement = settlement
        for code, message, section in settlement.notes:
            self.flag(code, message, section)
        return True


@dataclass(frozen=True, slots=True)
class Outcome:
    """A replayed hand: its findings, and when the pots could be settled, what the rules push to
    each player (`awards`) and the stacks everyone ends with under the rules (`ending`)."""

    findings: list[Finding]
    awards: tuple[Share, ...] | None = None
    ending: dict[str, int] | None = None


def replay_hand(hand: Hand, profile: str | None = None) -> Outcome:
    """Replay `hand` under its rules profile (or `profile`, which overrides it)."""
    game = ALL_GAMES[hand.variant]
    chosen = resolve(profile or hand.rules_profile, hand.rules_options)
    engine = Replay(hand, game, chosen)
    try:
        findings = engine.run()
    except Exception as exc:  # the engine's own fault must not stop an audit of many hands
        engine.flag(
            "REPLAY_STOPPED",
            f"replay stopped by an internal error ({type(exc).__name__}: {exc}); please report this hand",
        )
        return Outcome(engine.findings)
    settlement = engine.settlement
    if settlement is None:
        return Outcome(findings)
    won = Counter[str]()
    paid = settlement.paid  # the room's payments (a cash-out, splash-the-pot money) where it has them
    for share in paid:
        won[share.player] += share.amount
    ending = {s.player: s.stack - engine.contributed(engine.players[s.player]) + won[s.player]
              for s in hand.seats}
    return Outcome(findings, paid, ending)


def replay(hand: Hand, profile: str | None = None) -> list[Finding]:
    """The findings of `hand` under its rules profile (or `profile`), in the order of the actions
    they concern."""
    return replay_hand(hand, profile).findings
