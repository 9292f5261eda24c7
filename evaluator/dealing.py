"""The cards of a hand under replay: each card taken from the stub and who holds it, the cards a
player reveals, the deal to each player and to each board, and the check of each street's deal
against the game's (`evaluator.catalog`).
"""

from __future__ import annotations

from evaluator.catalog import Street
from evaluator.hand_state import ON_TOP, HandState, Player
from pipeline.model import UNKNOWN_CARD, Action


class Dealing(HandState):
    """The replay's cards: the stub, the holders, each street's deal."""

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
        if self.where.get(card) == ON_TOP:  # a discard back on top of the stub (`discards_to`), dealt again
            self.top.discard(card)
        elif card in self.where:
            self.flag(
                "DUPLICATE_CARD",
                f"{card} dealt to {holder.removeprefix('board:')} is already "
                f"{self._describe(self.where[card])}",
            )
        self.where[card] = holder

    def from_top(self, cards: tuple[str, ...], holder: str) -> None:
        """The discards a street placed on top of the stub (`Street.discards_to`) are the next cards
        dealt, in any order (Thermonuclear Pineapple II #1056 rule 3: "The discards are shuffled
        and placed on top of the deck"): of one deal's `cards`, as many as are left on top must be
        discards, which the record names or does not show."""
        if not self.top_left:
            return
        due = min(len(cards), self.top_left)
        named = sum(c in self.top for c in cards)
        others = sum(c not in self.top and c != UNKNOWN_CARD for c in cards)
        possible = named + sum(c == UNKNOWN_CARD for c in cards) + min(others, self.top_left - len(self.top))
        if possible < due:
            left = sorted(self.top - set(cards))
            self.flag(
                "DISCARDS_NOT_ON_TOP",
                f"{', '.join(c for c in cards if c not in self.top)} dealt to {holder.replace(':', ' ')} "
                f"while {', '.join(left) or 'discards'} of the cards discarded on "
                f"{self.top_street.replace('_', ' ')} {'is' if len(left) == 1 else 'are'} still on top "
                f"of the deck: the {self.top_left} discard(s) put back are the next cards dealt",
            )
        self.top_left -= due

    def _describe(self, holder: str) -> str:
        if holder.startswith("board:"):
            return f"on board {holder[6:]}"
        if holder == "discards":
            return "among the discards"
        if holder == ON_TOP:
            return "among the discards on top of the deck"
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
        self.receive(player, action.cards, face_up)
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

    def receive(self, player: Player, cards: tuple[str, ...], face_up: bool) -> None:
        """`cards` dealt to `player` from the stub, face up or down."""
        self.from_top(cards, player.name)
        for card in cards:
            self.place(card, player.name)
            player.cards.append(card)
            if face_up:
                player.up.append(card)
                player.dealt_up.append(card)

    def board(self, action: Action) -> None:
        street = self.street
        assert street is not None
        name = action.detail or "1"
        self.from_top(action.cards, f"board:{name}")
        for card in action.cards:
            self.place(card, f"board:{name}")
            self.board_cards[name].append(card)
            self.board_order.append(card)
            street.board_dealt.append(card)
        street.boards[name] += len(action.cards)
        if name == "common":
            street.common = True

    def expected_deal(self, player: Player, spec: Street) -> tuple[int, int]:
        street = self.street
        assert street is not None
        if street.common:
            return (0, 0)
        if "deal_down_when_exposed" in self.game.rules and spec.up and not spec.down:
            return (1, 0) if player.name in street.all_exposed else (0, 1)  # §2.31
        if spec.extra is not None:  # Wonky Donkey's black flop (§2.55), a home game's common four
            return (spec.down + spec.extra.cards(street.board_dealt), spec.up)
        return (spec.down, spec.up)

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
