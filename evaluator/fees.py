"""Paid options under replay (docs/games.md "Paid options": a street's `sells` and `price`): a
player pays the game's price (`pays A`, a fee) and gets what the street sells on their next line,
a twist (`discards [c] and draws [d]`), one more card (`Dealt to P [c]`, `Dealt to P up [c]`), or
another number of their own cards played at the showdown (`declares 3`).

A fee is money into the pot that is not a wager: it does not change what anyone owes in the
betting, and like an ante it is dead money in the main pot, which every player still in can win
(`Player.dead`, `evaluator.awarding.side_pots`); the player's total put in counts it, so their
net does. The replay holds each purchase to the game's rule (its `rule` is cited): the price,
the stack, the card that must follow, the street that sells it, once a street, in turn.
"""

from __future__ import annotations

from evaluator.card_steps import CardSteps
from evaluator.catalog import BUY, SELL_DOWN, SELL_HOLE, SELL_UP, TWIST, Street
from evaluator.hand_state import Player, StreetState
from pipeline.amounts import format_amount as chips
from pipeline.model import Action

OFFERS = {TWIST: "twist one card", SELL_DOWN: "buy one down card", SELL_UP: "buy one up card"}
# The lines that carry what a fee bought: a twist's discard and draw, a bought card's deal, the
# number of cards bought to play (declared).
FOLLOWS = {TWIST: ("discard", "draw"), SELL_DOWN: ("deal",), SELL_UP: ("deal",), SELL_HOLE: ("declare",)}
ASIDE = frozenset({"note", "ruling"})  # lines that may come between a fee and its card


def offer(spec: Street) -> str:
    """What the street sells, in words (a number of cards to play: the street's counts)."""
    if spec.sells == SELL_HOLE:
        return f"play {' or '.join(map(str, spec.counts))} of their down cards, declaring which,"
    return OFFERS.get(spec.sells or "", "buy nothing")


def price_words(spec: Street) -> str:
    return "the max bet (the big bet)" if spec.price == "big" else "the small bet"


class Fees(CardSteps):
    """The replay's paid options: the fee, what it buys, and the rule they are held to."""

    def price(self, spec: Street) -> int:
        """What the street's option costs: the limit bet its `price` names (the big bet is the max
        bet), raised by a kill blind as the betting is."""
        return self.bet_size(spec.price)

    def rule_of(self, spec: Street) -> str:
        street = spec.name.replace("_", " ")
        turn = " in turn" if BUY in spec.in_turn else ""
        return (f"in {self.game.variant.name} each player{turn} may {offer(spec)} once on the {street}, for "
                f"{chips(self.price(spec))}, {price_words(spec)}")

    # ---- the fee ----
    def on_fee(self, action: Action) -> None:
        street = self.street
        assert street is not None and action.player is not None
        player = self.players[action.player]
        spec = street.spec
        amount = action.amount or 0
        paid = f"{player.name} pays {chips(amount)}"
        if spec is None or not spec.sells:
            self.flag("WRONG_PURCHASE", f"{paid} on {street.name.replace('_', ' ')}, where "
                      f"{self.game.variant.name} sells nothing")
        else:
            rule = self.rule_of(spec)
            if not player.live:
                self.flag("WRONG_PURCHASE", f"{paid} but is out of the hand: {rule}")
            elif player.name in street.bought:
                self.flag("WRONG_PURCHASE", f"{paid} for a second purchase: {rule}")
            if amount != self.price(spec):
                self.flag("WRONG_FEE", f"{paid}: {rule}")
            self.check_order(action, spec)
            if BUY in spec.in_turn and player.live:
                self.check_buy_turn(player, street, rule)
        if amount > player.stack:
            self.flag("FEE_OVER_STACK", f"{paid} with {chips(player.stack)} left")
        # Dead money: in the pot, no part of a wager (the amount to call is unchanged).
        player.stack -= amount
        player.total += amount
        player.dead += amount
        street.bought.add(player.name)
        street.buying = (player.name, self.seq)

    def check_buy_turn(self, player: Player, street: StreetState, rule: str) -> None:
        """"Each player in turn": a purchase comes after those of every player before it in turn,
        from the left of the button (a player who declines writes no line, so a purchase is out of
        turn when a player after it in turn has bought already)."""
        button = self.hand.button_seat
        if button is None:
            return
        order = [p.name for p in self.clockwise_after(button)]
        later = [n for n in order[order.index(player.name) + 1:] if n in street.bought]
        if later:
            self.flag("OUT_OF_TURN", f"{player.name} buys after {later[0]}, who comes after them: {rule}")

    # ---- what it buys ----
    def check_buying(self, action: Action) -> None:
        """Before each line: a fee's card is the payer's next line (a note aside)."""
        street = self.street
        if street is None or street.buying is None or action.kind in ASIDE:
            return
        spec = street.spec
        follows = FOLLOWS.get(spec.sells or "", ()) if spec is not None else ()
        if action.player != street.buying[0] or action.kind not in follows:
            self.unbought(street)

    def unbought(self, street: StreetState) -> None:
        """The fee of `street.buying` had no card after it."""
        if street.buying is None:
            return
        name, seq = street.buying
        street.buying = None
        spec = street.spec
        rule = self.rule_of(spec) if spec is not None and spec.sells else "nothing is sold there"
        self.flag("FEE_WITHOUT_CARD", f"{name} pays but what it buys is not their next line: {rule}", seq=seq)

    def deal(self, action: Action) -> None:
        """A card dealt to one player on a street that sells cards: bought with the fee before it,
        or unpaid where the game deals that player nothing."""
        street = self.street
        assert street is not None and action.player is not None
        spec = street.spec
        if spec is None or spec.sells not in (SELL_DOWN, SELL_UP):
            super().deal(action)
            return
        player = self.players[action.player]
        face = "up" if action.detail == "up" else "down"
        if street.buying is not None and street.buying[0] == player.name:
            street.buying = None
            if len(action.cards) != 1 or face != spec.sells:
                self.flag("WRONG_PURCHASE", f"{player.name} is dealt {len(action.cards)} card(s) {face} for "
                          f"their fee: {self.rule_of(spec)}")
            self.receive(player, action.cards, face == "up")
            return
        extra = street.extra_deal.get(player.name, 0)
        if not extra and (street.settled or self.expected_deal(player, spec) == (0, 0)):
            self.flag("UNPAID_CARD", f"{player.name} is dealt {' '.join(action.cards)} with no fee paid: "
                      f"{self.rule_of(spec)}")
            self.receive(player, action.cards, face == "up")
            return
        super().deal(action)

    def card_step(self, action: Action) -> None:
        """A twist: the payer's discard of one card and its replacement, after the fee; a number of
        cards to play, declared after the fee."""
        street = self.street
        assert street is not None
        spec = street.spec
        if spec is not None and spec.sells == SELL_HOLE and action.kind == "declare" and action.player \
                and (action.detail or "").isdigit():
            self.on_count(self.players[action.player], action, spec)
            return
        if spec is None or spec.sells != TWIST or action.kind not in ("discard", "draw") or not action.player:
            super().card_step(action)
            return
        player = self.players[action.player]
        buying = street.buying is not None and street.buying[0] == player.name
        if action.kind == "discard":
            if not buying:
                self.flag("UNPAID_CARD", f"{player.name} twists {' '.join(action.cards)} with no fee paid: "
                          f"{self.rule_of(spec)}")
            elif len(action.cards) != 1:
                self.flag("WRONG_PURCHASE", f"{player.name} twists {len(action.cards)} cards: "
                          f"{self.rule_of(spec)}")
            self.on_discard(player, action, spec)
            return
        self.on_draw(player, action)
        if buying:
            street.buying = None

    def on_count(self, player: Player, action: Action, spec: Street) -> None:
        """`declares 3` after a fee: the number of their own cards the player plays at the showdown
        (`Player.hole_count`), one the street offers."""
        street = self.street
        assert street is not None
        count = int(action.detail or "0")
        said = f"{player.name} declares {count} cards"
        if street.buying is None or street.buying[0] != player.name:
            self.flag("UNPAID_CARD", f"{said} with no fee paid: {self.rule_of(spec)}")
        elif count not in spec.counts:
            self.flag("WRONG_PURCHASE", f"{said}: {self.rule_of(spec)}")
        street.buying = None
        if count in spec.counts:
            player.hole_count = count
