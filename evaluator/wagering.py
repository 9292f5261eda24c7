"""The betting of a hand under replay: each street's round and its structure, the turn order
(who acts first, who is next), and each wager judged: checks, calls, bets, raises, completions
and the bring-in, against the limit, pot-limit and no-limit rules (`evaluator.betting`), the cap,
jam-or-fold and the sevens rule (Appendix B).
"""

from __future__ import annotations

from collections import Counter

from evaluator import betting
from evaluator.betting import Round
from evaluator.cards import card_order, rank_value, showing_key
from evaluator.catalog import BRING_IN, LEFT_OF_BIG_BLIND, LEFT_OF_BUTTON, Street
from evaluator.hand_state import Player, Stop
from evaluator.money import Money
from pipeline.amounts import format_amount as chips
from pipeline.model import UNKNOWN_CARD, Action

BETTING_KINDS = frozenset({"bring_in", "complete", "bet", "call", "raise", "check", "fold"})


class Wagering(Money):
    """The replay's betting rounds: the turn order and each wager judged."""

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

    def order_unseen(self, spec: Street | None) -> bool:
        """Whether the first to act is decided by up cards of which some were not seen."""
        return spec is not None and spec.first not in (LEFT_OF_BIG_BLIND, LEFT_OF_BUTTON) \
            and any(UNKNOWN_CARD in p.up for p in self.live)

    def bring_in_player(self) -> Player | None:
        order = self.game.bring_in
        candidates = [p for p in self.live if p.up and p.up[-1] != UNKNOWN_CARD]
        if order is None or not candidates or any(p.up and p.up[-1] == UNKNOWN_CARD for p in self.live):
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
            # Where up cards nobody saw decide who acts first (PartyPoker shows no one's but the
            # hero's), whoever acts first is taken to be first: the order cannot be judged.
            first = player if self.order_unseen(spec) else None
            self.start_round(r, spec or Street(street.name), first=first)
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
        """A live player shows a pair, or may: up cards nobody saw cannot rule the double bet out."""
        return any(
            UNKNOWN_CARD in p.up
            or max(Counter(rank_value(c) for c in p.up if c != UNKNOWN_CARD).values(), default=0) >= 2
            for p in self.live
        )

    def wager(self, player: Player, target: int, action: Action, r: Round, spec: Street | None) -> None:
        """A bet, raise or completion to `target`: size rules, then the chips."""
        before_pot = self.pot()
        all_in = target - player.bet >= player.left
        level: int | None = None  # the limit level a short all-in stands for (`short_all_in_raise`)
        raising = r.base > 0  # over a full bet (not a stud bring-in): what a short all-in raise raises
        if r.structure == "limit":
            allowed = self.allowed_sizes(r, spec)
            covers = max((p.bet + p.left for p in self.live if p is not player), default=0)
            spread = "spread_limit" in self.game.rules  # §2.31: a raise at least the last bet
            breaches = betting.judge_spread_raise(r, target, all_in) if spread else []
            # A limit no record states (a stud tournament hand of all-ins: iPoker) is not judged.
            if not breaches and any(allowed):
                breaches = betting.judge_limit(r, target, all_in, allowed, covers)
            for code, message, section in breaches:
                self.flag(code, f"{player.name} {message}", section)
            rule = self.profile.get("short_all_in_raise")
            full = betting.limit_full(r, target, allowed, rule != "completes")
            # Bovada: an all-in of half a bet or more stands for the full bet, the next raise a bet above it.
            if rule == "full_level" and full and target < r.base + min(allowed):
                level = r.base + min(allowed)
            if len(allowed) > 1 and target - r.base >= max(allowed):
                r.size = max(allowed)  # §2.47: a big bet may not be met by a small-bet raise
        else:
            for code, message, section in betting.judge_big_bet(r, target, all_in, before_pot, player.bet):
                self.flag(code, f"{player.name} {message}", section)
            full = betting.big_bet_full(r, target)
        self.take(player, target - player.bet)
        r.raise_to(target, full)
        if level is not None:
            r.base = level
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
            raise Stop(
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
