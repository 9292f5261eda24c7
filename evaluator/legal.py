"""What is legal now in a hand being played: the moves the replay engine would accept.

The hand generator (`pipeline.generate`) plays hands through the very `evaluator.replay.Replay`
the audit uses, one action at a time, and asks this module what the player to act may do. Every
answer is read off the engine's own state (its betting `Round`, its players, its profile) with
the functions of `evaluator.betting` that judge the wagers, so what is generated and what is
audited have one source of truth:

- who acts: the engine's turn order (`Replay.next_to_act`);
- fold, check or call, and the chips a call puts in (all the player has when short, §1.2);
- limit: the fixed levels of the round (§1.1), the raise cap of the profile (lifted heads-up per
  `cap_heads_up`), completing a bring-in or a short all-in (§1.1's half-bet rule);
- no-limit and pot-limit: from the minimum bet or raise (§1.2) up to the stack or the pot after
  the call (§1.3), and an all-in for less;
- `pl-nl` (PokerStars): pot limit on the first betting round, no limit after; a cap game (the room's
  cap): a player may put in no more than the cap over the hand, antes aside, and is all-in at it;
- a short all-in does not reopen the betting for a player who already acted (§1.1, §1.2; a room
  may say otherwise in limit: `short_all_in_raise`);
- no check-raise where California Lowball's sevens rule applies (§2.11, Appendix B);
- stud: the bring-in or a completion for the player the game's card order names (§2.47).

>>> from dataclasses import replace
>>> from grammar.barge_parser import EXAMPLE, parse_hand
>>> hand = parse_hand(EXAMPLE)  # blinds 100/200, stacks 5,000 (amounts in hundredths)
>>> table = LiveHand(replace(hand, actions=hand.actions[:2], awards=()))
>>> moves = table.moves(table.to_act() or "")
>>> moves.player, moves.call, moves.wager, moves.low, moves.high
('Ann', 10000, 'raise', 40000, 500000)
"""

from __future__ import annotations

from dataclasses import dataclass

from evaluator import betting
from evaluator.catalog import ALL_GAMES, BRING_IN, Street
from evaluator.findings import Finding
from evaluator.profiles import Profile, resolve
from evaluator.replay import Player, Replay
from evaluator.settle import Settlement, settle
from pipeline.model import Action, Hand, Seat


@dataclass(frozen=True, slots=True)
class Moves:
    """What `player` may do now.

    `owed`: chips needed to call in full; `call`: what a call puts in (less when the stack is
    short); `check`: nothing is owed. `bring_in`: the round opens with this forced bring-in
    (stud), which the player must post unless they complete. `wager`: how a bet or raise is
    written here ("bet", "raise", "complete") or None when none is allowed; its total (the
    player's whole wager on the street) is one of `sizes` in limit, or from `low` to `high` in
    big-bet games. `all_in`: the player's total when all-in, legal as a wager when it is one of
    `sizes` or, in big-bet games, when it is at most `high` (an all-in for less than `low`).
    `may_call`: a call is allowed (owed chips aside); `jam_only`: a jam-or-fold first action, where
    the only wager is all-in (§1.8)."""

    player: str
    stack: int
    owed: int
    call: int
    check: bool
    bring_in: int | None
    wager: str | None
    sizes: tuple[int, ...]
    low: int
    high: int
    all_in: int
    may_call: bool = True
    jam_only: bool = False

    @property
    def current(self) -> int:
        """The bet to call: the highest wager of the round."""
        return self.all_in - self.stack + self.owed

    @property
    def can_wager_all_in(self) -> bool:
        if self.wager is None:
            return False
        if self.sizes:
            return self.all_in in self.sizes
        return self.all_in <= self.high


@dataclass(frozen=True, slots=True)
class Post:
    """One forced bet due before the cards: who, the action kind and detail, how much."""

    player: str
    kind: str  # "post" or "ante"
    detail: str  # "small_blind", "big_blind", "straddle", "ante", "big_blind_ante"
    amount: int
    all_in: bool


def forced_bets(hand: Hand, profile: Profile, straddle: bool = False) -> list[Post]:
    """The forced bets of `hand` (its seats, button and stakes) in the order they are posted.

    Antes from every player dealt in (§1.1; a bomb pot's antes, §1.6); blinds from the first two
    players clockwise of the button, the button posting the small blind heads-up (§1.1); the
    big blind ante by the big blind, reduced short-handed and ordered when short as the profile
    says (§1.5); a straddle of twice the big blind by the next player. A short stack posts what
    it has.
    """
    game = ALL_GAMES[hand.variant]
    stakes = hand.stakes
    dealt = [s for s in sorted(hand.seats, key=lambda s: s.number) if not s.sitting_out]
    posts: list[Post] = []

    def post(seat: Seat, kind: str, detail: str, due: int, left: int) -> int:
        amount = min(due, left)
        if amount > 0:
            posts.append(Post(seat.player, kind, detail, amount, amount == left))
        return left - amount

    every = stakes.bomb_pot or stakes.ante
    if every:
        for seat in dealt:
            post(seat, "ante", "ante", every, seat.stack)
    if stakes.bomb_pot or game.forced != "blinds" or hand.button_seat is None or len(dealt) < 2:
        return posts
    button = hand.button_seat
    after = sorted(dealt, key=lambda s: (s.number <= button, s.number))
    if len(dealt) == 2:
        small = next((s for s in dealt if s.number == button), after[0])
        big = next(s for s in dealt if s is not small)
    else:
        small, big = after[0], after[1]
    antes = {p.player: p.amount for p in posts}
    if stakes.small_blind:
        post(small, "post", "small_blind", stakes.small_blind, small.stack - antes.get(small.player, 0))
    left = big.stack - antes.get(big.player, 0)
    blind = stakes.big_blind or 0
    if stakes.big_blind_ante:
        ante = stakes.big_blind_ante
        reduce_at = int(profile.get("bba_reduce_at"))
        if reduce_at and len(dealt) <= reduce_at and stakes.small_blind is not None:
            ante = stakes.small_blind  # §1.5: reduced to the small blind short-handed
        if profile.get("bba_first") == "blind":
            left = post(big, "post", "big_blind", blind, left)
            post(big, "ante", "big_blind_ante", ante, left)
        else:
            left = post(big, "ante", "big_blind_ante", ante, left)
            post(big, "post", "big_blind", blind, left)
    else:
        post(big, "post", "big_blind", blind, left)
    if straddle and len(dealt) >= 4:
        third = after[2]
        if third.stack > 4 * blind:
            post(third, "post", "straddle", 2 * blind, third.stack)
    return posts


class LiveHand:
    """A hand being played: the replay engine fed one action at a time.

    Built from the hand's seats, stakes and forced bets (`hand.actions`); every action given to
    `apply` is replayed at once, so `findings` says immediately when something the rules do not
    allow was played. `settle` settles the pots as the audit will."""

    def __init__(self, hand: Hand) -> None:
        profile = resolve(hand.rules_profile, hand.rules_options)
        self.engine = Replay(hand, ALL_GAMES[hand.variant], profile)
        self.actions: list[Action] = []
        for action in hand.actions:
            self.apply(action)

    @property
    def findings(self) -> list[Finding]:
        return self.engine.findings

    @property
    def players(self) -> dict[str, Player]:
        return self.engine.players

    @property
    def live(self) -> list[Player]:
        return self.engine.live

    @property
    def street(self) -> Street | None:
        state = self.engine.street
        return state.spec if state is not None else None

    @property
    def street_name(self) -> str | None:
        return self.engine.street.name if self.engine.street is not None else None

    def enter(self, name: str) -> None:
        """Begin street `name` (closing the one before), as the engine does on its first line."""
        if self.street_name != name:
            self.engine.enter_street(name)

    def apply(self, action: Action) -> None:
        self.engine.seq += 1
        self.engine.step(action)
        self.actions.append(action)

    def to_act(self) -> str | None:
        """The player whose turn it is in this street's betting round, or None when it is over."""
        state = self.engine.street
        if state is None or state.round is None:
            return None
        r = state.round
        if r.order is None:
            self.engine.start_round(r, state.spec or Street(state.name))
        return self.engine.next_to_act(r)

    def moves(self, name: str) -> Moves:
        """What `name`, the player to act, may do (see `Moves`)."""
        engine = self.engine
        state = engine.street
        assert state is not None and state.round is not None
        r, spec = state.round, state.spec
        p = engine.players[name]
        owed = max(r.current - p.bet, 0)
        call = min(owed, p.left)  # `left`: the stack, or less in a cap game (the room's cap)
        most = p.bet + p.left
        opening = spec is not None and spec.first == BRING_IN and r.current == 0
        bring_in = engine.hand.stakes.bring_in if opening else None
        sizes: tuple[int, ...] = ()
        if bring_in is not None:
            # §2.47: the bring-in, or a completion to the small bet in limit.
            sizes = (r.size,) if r.structure == "limit" and most > r.size else ()
            return Moves(name, p.left, 0, 0, False, min(bring_in, p.left),
                         "complete" if sizes else None, sizes, 0, 0, most)
        wager = self._wager_kind(p, r) if most > r.current and self._may_raise(p, r) else None
        low = high = 0
        if wager is not None and r.structure == "limit":
            levels = betting.limit_levels(r, engine.allowed_sizes(r, spec))
            sizes = tuple(t for t in levels if r.current < t <= most)
            if most < levels[-1] and most not in sizes:
                sizes += (most,)  # all-in for less than the limit (§1.1)
        elif wager is not None:
            low = betting.minimum_wager(r)
            high = most
            if r.structure == "pot-limit":
                high = min(high, betting.pot_limit_max(r, engine.pot(), p.bet))
        if engine.hand.stakes.jam_or_fold and not p.voluntary:
            # §1.8: the first action is all-in or fold; calling an all-in is allowed.
            jam = wager is not None and (most in sizes if sizes else most <= high)
            return Moves(name, p.left, owed, call, False, None, wager if jam else None,
                         (most,) if jam and sizes else (), most if jam else 0, most if jam else 0, most,
                         may_call=r.all_in_wager or call == p.left, jam_only=True)
        return Moves(name, p.left, owed, call, owed == 0, None, wager, sizes, low, high, most)

    def _may_raise(self, p: Player, r: betting.Round) -> bool:
        engine = self.engine
        if not any(q.name != p.name and not q.all_in for q in engine.live):
            return False  # nobody left to call: a wager would only come back
        if not r.reopened_for(p.name):
            return False  # only a short all-in since the player acted (§1.1, §1.2)
        if r.structure == "limit" and r.current and engine.capped(r):
            return False  # the cap (§1.1)
        return not (p.name in r.checked and r.structure == "limit" and engine.sevens_rule())  # §2.11

    @staticmethod
    def _wager_kind(p: Player, r: betting.Round) -> str:
        if r.current == 0:
            return "bet"
        if r.structure == "limit" and (r.bring_in or r.base < r.current < r.base + r.size):
            return "complete"  # a bring-in or an all-in of less than half a bet (§1.1)
        return "raise"

    def uncalled(self) -> tuple[str, int] | None:
        """The player whose wager on this street nobody matched, and the chips that go back."""
        bets = sorted(((p.bet, p.name) for p in self.engine.players.values()), reverse=True)
        if len(bets) < 2 or bets[0][0] <= bets[1][0]:
            return None
        return bets[0][1], bets[0][0] - bets[1][0]

    def close(self) -> None:
        """End the last street: the uncalled part of its top wager is owed back (§1.1)."""
        if self.engine.street is not None:
            self.engine.close_street()
            self.engine.street = None

    def settle(self, hand: Hand) -> Settlement:
        """The pots settled as the audit settles them, the streets with betting being closed.

        `hand` is the record so far: the odd chip's unit is read off its amounts (§1.4)."""
        self.engine.hand = hand
        return settle(self.engine.table())
