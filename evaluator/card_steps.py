"""The card steps of a hand under replay, other than the deal: draws, discards and standing pat,
dice, the game choice, splits, exposed cards, Oklahoma's board removal, declarations, and the shows
and mucks; each step against its street's betting round and in turn where the game says so.
"""

from __future__ import annotations

from evaluator.cards import rank_value
from evaluator.catalog import (
    AFTER_BETTING,
    BEFORE_BETTING,
    BUY,
    DISCARDS_ON_TOP,
    OUT,
    TWIST,
    WITH_OWN_ACTION,
    Game,
    Street,
    showing_of,
)
from evaluator.flips import owing, who_flips
from evaluator.hand_state import ON_TOP, Player, StreetState
from evaluator.wagering import Wagering
from pipeline.model import UNKNOWN_CARD, Action

STEP_WORDS = {"draw": "draw", "discard": "discard", "roll": "roll of the dice", "split": "split",
              "expose": "exposed card", "choose": "game choice", "remove_board": "board removal",
              "buy": "purchase", "declare": "declaration"}


class CardSteps(Wagering):
    """The replay's card steps other than the deal, and their order in the street."""

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
            or (kind == "expose" and spec.flip)
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
                if spec is not None and spec.flip:
                    self.on_flip(player, action, spec)
                player.up.extend(c for c in action.cards if c not in player.up)
        elif kind == "choose":
            self.on_choose(player, action)
        elif kind == "declare" and allowed and spec is not None:
            self.on_declare(player, action, spec)

    def on_declare(self, player: Player, action: Action, spec: Street) -> None:
        """A declaration (docs/games.md `[declare]`): each player still in declares once, a word the
        game allows, on its declaring street; a guts game's player who declares out drops (`[guts]`)."""
        street = self.street
        declare = self.game.declare
        assert street is not None
        if declare is None:
            return
        word = action.detail or ""
        rule = declaring_rule(self.game, spec)
        if player.declared is not None:  # before a fold: a guts player's out is one
            self.flag("WRONG_DECLARATION",
                      f"{player.name} declares {word} after declaring {player.declared}: {rule}")
        elif not player.live:
            self.flag("WRONG_DECLARATION", f"{player.name} declares {word} but has folded: {rule}")
        elif word not in declare.words:
            self.flag("WRONG_DECLARATION", f"{player.name} declares {word!r}: {rule}")
        else:
            player.declared = word
            if word == OUT and self.game.guts is not None:
                player.folded = True  # a guts player out drops, and has no part in this deal's pot
        street.declared.add(player.name)

    def check_declarations(self, street: StreetState) -> None:
        """At the end of the declaring street: every player still in has declared, where two or more
        were left to (once the declarations began, a guts game's last player in too)."""
        spec = street.spec
        if spec is None or "declare" not in spec.steps or self.game.declare is None:
            return
        if len(self.live) < 2 and not street.declared:
            return  # the hand was over before anybody had to declare
        for p in self.live:
            if p.declared is None:
                self.flag("MISSING_DECLARATION",
                          f"{p.name} did not declare on {spec.name.replace('_', ' ')}, so cannot win the pot "
                          f"(a hand not declared does not play): {declaring_rule(self.game, spec)}",
                          seq=street.last_seq)

    def on_flip(self, player: Player, action: Action, spec: Street) -> None:
        """A street's required flip (`Street.flip`): a player who owes it turns up that many of
        their down cards, once."""
        street = self.street
        assert street is not None
        rule = f"in {self.game.variant.name} {who_flips(spec)} on {spec.name.replace('_', ' ')}"
        shown = [c for c in action.cards if c in player.up]
        turned = f"{player.name} turns up {' '.join(action.cards)}"
        if player.name not in owing(spec, [player.name], street.paid):
            self.flag("WRONG_FLIP", f"{turned} but owes no flip: {rule}")
        elif player.name in street.flipped:
            self.flag("WRONG_FLIP", f"{turned} after their flip: {rule}")
        elif len(action.cards) != spec.flip or shown:
            what = f"{' '.join(shown)} already face up" if shown else f"{len(action.cards)} card(s)"
            self.flag("WRONG_FLIP", f"{player.name} turns up {what}: {rule}")
        street.flipped.add(player.name)

    def check_flips(self, street: StreetState) -> None:
        """At the end of a street with a required flip: every player who owes it has made it."""
        spec = street.spec
        if spec is None or not spec.flip:
            return
        for name in owing(spec, [p.name for p in self.live], street.paid):
            if name not in street.flipped:
                self.flag("WRONG_FLIP", f"{name} did not turn up a card on {spec.name.replace('_', ' ')}: in "
                          f"{self.game.variant.name} {who_flips(spec)}", seq=street.last_seq)

    def check_order(self, action: Action, spec: Street) -> None:
        """The step against its street's betting round, and in seat order where the players take it in
        turn, as the game's section orders them (the catalog's `timing` and `in_turn`)."""
        street = self.street
        assert street is not None
        kind = action.kind
        if kind == "draw":
            return  # the replacement cards follow their discard, whose place is checked
        step = ("draw" if spec.draw else "discard") if kind in ("discard", "stand_pat") else kind
        step = BUY if kind == "fee" else step  # a paid option's fee places the purchase (evaluator.fees)
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
        done = street.declared if step == "declare" else street.discarded
        buying = step == BUY  # a purchase's turn is evaluator.fees' (a decline writes no line)
        if step in spec.in_turn and not buying and player is not None and player.name not in done:
            self.check_turn(player, done, STEP_WORDS.get(step, step))

    def check_turn(self, player: Player, done: set[str], step: str) -> None:
        """§2.17 and every draw: "each player in turn", from the first active player to the left of the
        button, all the discards announced before the replacement cards are dealt; a declaration made
        in turn (docs/games.md) the same way. `done`: the players who took the step already."""
        button = self.hand.button_seat
        if button is None:
            return
        due = next((p for p in self.clockwise_after(button) if p.name not in done), None)
        if due is not None and due.name != player.name:
            verb = "declares" if step == STEP_WORDS["declare"] else "draws"
            self.flag("OUT_OF_TURN", f"{player.name} takes the {step} when it was {due.name}'s turn: each "
                      f"player {verb} in turn from the first player to the left of the button")

    def betting_over(self, street: StreetState) -> bool:
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
        on_top = spec is not None and spec.discards_to == DISCARDS_ON_TOP
        for card in cards:
            if card in player.cards:
                player.cards.remove(card)
                if card in player.up:
                    player.up.remove(card)
            elif UNKNOWN_CARD in player.cards:
                player.cards.remove(UNKNOWN_CARD)
            if on_top:  # back on top of the stub, the next cards dealt (Thermonuclear Pineapple II #1056)
                self.stub += 1
                self.top_left += 1
                self.top_street = street.name
                if card != UNKNOWN_CARD:
                    self.where[card] = ON_TOP
                    self.top.add(card)
            elif card != UNKNOWN_CARD:
                self.where[card] = "discards"
            else:
                self.unseen_discards += 1  # unseen, but back in the stub on a reshuffle all the same
        if spec is not None and (spec.draw or spec.sells == TWIST) and cards:
            street.pending_draw[player.name] = (len(cards), self.seq)

    def on_draw(self, player: Player, action: Action) -> None:
        street = self.street
        assert street is not None
        count, _ = street.pending_draw.pop(player.name, (0, 0))
        if count != len(action.cards):
            self.flag("DRAW_COUNT_MISMATCH", f"{player.name} discarded {count} and drew {len(action.cards)}")
        self.from_top(action.cards, player.name)
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
        self.showing = showing_of(choice) or self.showing
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

    def check_removal(self, street: StreetState) -> None:
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


def declaring_rule(game: Game, spec: Street) -> str:
    """What a game's declaration rule says, in words, for a finding."""
    words = game.declare.words if game.declare is not None else ()
    how = "in turn" if "declare" in spec.in_turn else "at once"
    return (f"in {game.variant.name} every player still in declares {', '.join(words[:-1])} or {words[-1]} "
            f"{how} on {spec.name.replace('_', ' ')}, once")
