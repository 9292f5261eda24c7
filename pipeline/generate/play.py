"""Playing one generated hand: the dealing procedure of its game, random legal play, the showdown.

The hand is played through the replay engine itself (`evaluator.legal.LiveHand`): each street of
the game's plan (`evaluator.catalog`, changed by a Pick'em choice) is dealt from a shuffled deck
of the game, its steps come where docs/procedures.md writes them, and each betting decision is
one of the moves the engine says are legal. The engine judges every action as it is played, so
a generated hand replays with no findings; a break (`pipeline.generate.breaks`) is a mistake
made on purpose at one of these points. The pots are settled by the engine's own settlement
and written as the dealer's awards, with the total pot and every final stack.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from random import Random

from evaluator.catalog import GAMES, LEFT_OF_BIG_BLIND, Street
from evaluator.legal import LiveHand, Moves, Post, forced_bets
from evaluator.profiles import resolve
from evaluator.scales import low_floor
from evaluator.settle import Settlement
from evaluator.showdown import best_hands
from pipeline.generate import strategy
from pipeline.generate.world import Setup
from pipeline.model import Action, Award, FinalStack, Hand

# Games whose draw comes after the flop's betting (Dramaha, Dramaha 49, Dramadugi); every other
# draw is made before its street's betting (docs/procedures.md, "Where each step is written").
DRAW_AFTER_BETTING = frozenset({"dramaha", "dramaha_49", "dramadugi"})
BOARD_ROWS = ("1", "2", "3")


class GenerationError(RuntimeError):
    """The generator played something the engine does not accept: a bug in the generator or the
    engine, reported with the hand so it can be reproduced."""


@dataclass(slots=True)
class Mistake:
    """A rule break to make in this hand (`pipeline.generate.breaks`): `kind` names it, `made`
    says whether an opportunity came and it was made."""

    kind: str
    made: bool = False
    kept: tuple[str, int] | None = None  # an uncalled bet not returned: (bettor, chips)

    def wants(self, kind: str) -> bool:
        return not self.made and self.kind == kind


@dataclass(frozen=True, slots=True)
class Played:
    """A finished hand and the settlement its awards come from."""

    hand: Hand
    settlement: Settlement


class _Play:
    def __init__(self, setup: Setup, rng: Random, mistake: Mistake | None) -> None:
        self.setup = setup
        self.rng = rng
        self.mistake = mistake
        shell = setup.hand
        self.game = GAMES[shell.variant]
        profile = resolve(shell.rules_profile, shell.rules_options)
        self.first = self.game.streets[0].name
        posts = self._mistaken_posts(forced_bets(shell, profile, setup.straddle))
        forced = tuple(Action(self.first, p.kind, p.player, p.amount, all_in=p.all_in, detail=p.detail)
                       for p in posts)
        self.table = LiveHand(replace(shell, actions=forced))
        self.engine = self.table.engine
        deck = sorted(self.engine.game.deck.cards)
        rng.shuffle(deck)
        self.stub = deck
        self.discards: list[str] = []
        self.strict = mistake is None
        self.settled: Settlement | None = None
        self.shared: int | None = None  # board 1's cards when the dealer ran it twice

    # ---- bookkeeping ----
    def apply(self, action: Action) -> None:
        self.table.apply(action)
        if self.strict and self.table.findings:
            found = "; ".join(f"{f.code.name}: {f.message}" for f in self.engine.findings)
            raise GenerationError(f"hand {self.setup.hand.hand_id}: the engine flags {action}: {found}")

    def take(self, count: int) -> tuple[str, ...]:
        cards = tuple(self.stub[-count:]) if count else ()
        del self.stub[len(self.stub) - count:]
        return cards

    def order(self) -> list[str]:
        """Live players in the order cards go round: from the button's left, or from seat 1."""
        button = self.setup.hand.button_seat
        live = self.table.live
        ordered = self.engine.clockwise_after(button) if button is not None else live
        return [p.name for p in ordered]

    # ---- the hand ----
    def play(self) -> Played:
        index = 0
        while index < len(self.engine.plan) and len(self.table.live) >= 2:
            self.street(self.engine.plan[index])
            index += 1
        if len(self.table.live) >= 2:
            self.showdown()
        return self.finish()

    def street(self, spec: Street) -> None:
        name = spec.name
        self.table.enter(name)
        for board, count in spec.boards:
            self.board(name, board, count)
        later = self.engine.plan[self.engine.plan_index + 1:]
        if self.shared is not None and not any(s.boards for s in later):
            # The second run: the cards board 1 got since the dealer ran it twice (docs/format.md).
            count = len(self.engine.board_cards["1"]) - self.shared
            self.apply(Action(name, "board", None, cards=self.take(count), detail="2"))
        self.deal(name, spec)
        if "choose" in spec.steps:
            self.choose(name)
        spec = self.table.street or spec
        if spec.draw and self.game.id not in DRAW_AFTER_BETTING:
            self.draws(name, spec)
        if "remove_board" in spec.steps:
            self.remove_boards(name)
        self.betting(name, spec)
        if len(self.table.live) < 2:
            return
        if spec.discard:
            self.discard(name, spec)
        if spec.draw and self.game.id in DRAW_AFTER_BETTING:
            self.draws(name, spec)
        if "split" in spec.steps:
            self.split(name)
        last = self.engine.plan_index + 1 >= len(self.engine.plan)
        if spec.dice and not last:
            self.roll(name, spec.dice)
        if "expose" in spec.steps and not self.game.choices and not last:
            self.expose_all(name)
        if self.may_run_twice(later):
            self.shared = len(self.engine.board_cards["1"])
            self.apply(Action(name, "run_it", None, 2))

    def may_run_twice(self, later: list[Street]) -> bool:
        """In a cash game, players all-in before the last board card may run the board twice,
        where the rest of the hand is board 1's cards alone."""
        if self.shared is not None or not self.setup.run_twice:
            return False
        if sum(not p.all_in for p in self.table.live) > 1 or not later:
            return False
        if len(self.stub) < 2 * sum(n for s in later for _, n in s.boards):
            return False  # the stub cannot give the second run its cards
        plain = all(s.boards and {b for b, _ in s.boards} == {"1"} and not (
            s.down or s.up or s.draw or s.discard or s.dice or s.steps) for s in later)
        return plain and not self.game.rules and self.rng.random() < 0.3

    # ---- cards ----
    def board(self, street: str, board: str, count: int) -> None:
        cards = self.take(count)
        if self.mistake is not None and self.mistake.wants("duplicate_card") and street != self.first:
            held = [c for n in self.order() for c in self.table.players[n].cards]
            if held:
                cards = (self.rng.choice(held), *cards[1:])
                self.mistake.made = True
        self.apply(Action(street, "board", None, cards=cards, detail=board))

    def deal(self, street: str, spec: Street) -> None:
        players = self.table.live
        wanted = {p.name: self.engine.expected_deal(p, spec) for p in players}
        needed = sum(d + u for d, u in wanted.values())
        if needed > len(self.stub) and self.discards and needed <= len(self.stub) + len(self.discards):
            self.reshuffle(street)  # Super Stud's discards make up the stub (cardroom procedures)
        if needed > len(self.stub) and not spec.boards:
            # §2.47: when the stub cannot give every player a card, one common card is dealt.
            per_player = max(d + u for d, u in wanted.values())
            self.apply(Action(street, "board", None, cards=self.take(per_player), detail="common"))
            return
        for name in self.order():
            down, up = wanted[name]
            if down:
                self.apply(Action(street, "deal", name, cards=self.take(down), detail="down"))
            if up:
                self.apply(Action(street, "deal", name, cards=self.take(up), detail="up"))

    def choose(self, street: str) -> None:
        """§2.38: the player under the gun (the button three-handed or fewer) picks a HORSE game."""
        chooser = self.engine.chooser()
        names = self.order()
        who = chooser.name if chooser is not None else names[0]
        if self.mistake is not None and self.mistake.wants("wrong_game_choice"):
            others = [n for n in names if n != who]
            if others:
                who = self.rng.choice(others)
                self.mistake.made = True
        choice = self.rng.choice([name for name, _ in self.game.choices])
        self.apply(Action(street, "choose", who, detail=choice))
        spec = self.table.street
        assert spec is not None
        start = names.index(who) if who in names else 0
        turn = names[start:] + names[:start]
        if choice == "texas_holdem":
            for name in turn:  # each player discards one of the three cards
                thrown = self.rng.choice(self.held(name))
                self.apply(Action(street, "discard", name, cards=(thrown,)))
                self.discards.append(thrown)
        elif choice == "omaha_hi_lo":
            for name in turn:  # each player is dealt a fourth card
                self.apply(Action(street, "deal", name, cards=self.take(1), detail="down"))

    def held(self, name: str) -> list[str]:
        return list(self.table.players[name].cards)

    def draws(self, street: str, spec: Street) -> None:
        assert spec.draw is not None
        low, high = spec.draw
        # The boards still to come are dealt from the stub: a draw leaves enough for them.
        later = self.engine.plan[self.engine.plan_index + 1:]
        reserve = sum(n for s in later for _, n in s.boards)
        for name in self.order():
            held = self.held(name)
            available = len(self.stub) - reserve + len(self.discards)
            count = max(0, min(strategy.discard_count(self.rng, low, min(high, len(held))), available))
            if self.mistake is not None and self.mistake.wants("wrong_discard_count") \
                    and high < min(len(held), available):
                count = high + 1
                self.mistake.made = True
            if count == 0:
                self.apply(Action(street, "stand_pat", name))
                continue
            if count > len(self.stub) - reserve:
                self.reshuffle(street)  # the discards so far, not this player's own
            thrown = tuple(self.rng.sample(held, count))
            self.apply(Action(street, "discard", name, cards=thrown))
            self.apply(Action(street, "draw", name, cards=self.take(count)))
            self.discards.extend(thrown)

    def reshuffle(self, street: str) -> None:
        """The stub ran out: the discards are shuffled into a new stub, under what is left."""
        self.apply(Action(street, "reshuffle", None))
        self.rng.shuffle(self.discards)
        self.stub = self.discards + self.stub
        self.discards = []

    def discard(self, street: str, spec: Street) -> None:
        """Discards not replaced: Crazy Pineapple, Irish, Super Stud, Scrotum (after the betting)."""
        assert spec.discard is not None
        low, high = spec.discard
        done = self.engine.street.discarded if self.engine.street is not None else set()
        for name in self.order():
            if name in done:
                continue
            player = self.table.players[name]
            pool = [c for c in player.cards if c not in player.up] or list(player.cards)
            count = strategy.discard_count(self.rng, low, min(high, len(pool)))
            if self.mistake is not None and self.mistake.wants("wrong_discard_count") and low == high:
                count = high - 1 if high > 1 else high + 1
                self.mistake.made = True
            if count == 0:
                self.apply(Action(street, "stand_pat", name))
                continue
            thrown = tuple(self.rng.sample(pool, min(count, len(pool))))
            self.apply(Action(street, "discard", name, cards=thrown))
            self.discards.extend(thrown)

    def split(self, street: str) -> None:
        """Sohe: each player splits six cards into a Hold'em two and an Omaha four."""
        for name in self.order():
            held = self.held(name)
            self.rng.shuffle(held)
            self.apply(Action(street, "split", name, cards=tuple(held), detail=f"2+{len(held) - 2}"))

    def roll(self, street: str, dice: int) -> None:
        """§1.13: the player on the button rolls."""
        button = self.engine.button_player
        who = button.name if button is not None else None
        if self.mistake is not None and self.mistake.wants("wrong_dice"):
            others = [n for n in self.order() if n != who]
            if others:
                who = self.rng.choice(others)
                self.mistake.made = True
        faces = " ".join(str(self.rng.randint(1, 6)) for _ in range(dice))
        self.apply(Action(street, "roll", who, detail=faces))

    def remove_boards(self, street: str) -> None:
        """§2.34: the dealer removes the rows the river cards say (the engine's own reading)."""
        removed = sorted(self.engine.boards_to_remove() or ())
        if self.mistake is not None and self.mistake.wants("wrong_board_removal"):
            kept = [name for name in BOARD_ROWS if name not in removed]
            removed = [self.rng.choice(kept)] if kept else []
            self.mistake.made = True
        for name in removed:
            self.apply(Action(street, "remove_board", None, detail=name))

    def expose_all(self, street: str) -> None:
        """Mexican Poker: a player may turn up their down card, so the next card comes down."""
        for name in self.order():
            player = self.table.players[name]
            hidden = [c for c in player.cards if c not in player.up]
            if hidden and self.rng.random() < 0.3:
                self.apply(Action(street, "expose", name, cards=(hidden[0],)))

    def expose_door(self, street: str, name: str) -> None:
        """§2.38, a stud game chosen: a player who stays in exposes a door card of their choice."""
        player = self.table.players[name]
        if not player.up and player.cards:
            self.apply(Action(street, "expose", name, cards=(self.rng.choice(player.cards),)))

    # ---- betting ----
    def betting(self, street: str, spec: Street) -> None:
        door = bool(self.game.choices) and "expose" in spec.steps and spec.first == LEFT_OF_BIG_BLIND
        first_round = street == self.first
        while True:
            who = self.table.to_act()
            if who is None:
                break
            moves = self.table.moves(who)
            choice = self.decide(moves, first_round)
            action = self.action(street, choice, moves)
            self.apply(action)
            if door and action.kind in ("call", "raise", "check", "bet", "complete"):
                self.expose_door(street, who)
        back = self.table.uncalled()
        if back is not None:
            if self.mistake is not None and self.mistake.wants("uncalled_bet_kept"):
                self.mistake.made = True
                self.mistake.kept = back
                return
            self.apply(Action(street, "return", back[0], amount=back[1]))

    def decide(self, moves: Moves, first_round: bool) -> strategy.Choice:
        rng, chip = self.rng, self.setup.chip
        pot = self.engine.pot()
        manner = strategy.style(moves.player)
        mistake = self.breaking(moves)
        if mistake is not None:
            return mistake
        if moves.jam_only:
            return strategy.jam_or_fold(moves, manner, rng)
        if self.engine.after_draw_from is not None and self._seven_or_better(moves.player):
            return self._sevens(moves)
        return strategy.choose(moves, manner, rng, chip, pot, first_round)

    def _seven_or_better(self, name: str) -> bool:
        cards = self.held(name)
        low = best_hands(self.game.id, cards, options=self.engine.profile.options)[0]
        return low.raw >= low_floor(7)

    def _sevens(self, moves: Moves) -> strategy.Choice:
        """Appendix B: with a seven or better after the draw, a player bets rather than check, and
        does not just call a short all-in bet."""
        state = self.engine.street
        r = state.round if state is not None else None
        total = strategy.wager_total(moves, self.rng, self.setup.chip, self.engine.pot())
        if moves.owed == 0:
            if total is None:
                return strategy.Choice("check")
            return strategy.Choice(moves.wager or "bet", total)
        if r is not None and r.all_in_wager and r.current < r.size:
            if total is not None:
                return strategy.Choice(moves.wager or "raise", total)
            return strategy.Choice("fold")
        return strategy.choose(moves, strategy.style(moves.player), self.rng, self.setup.chip,
                               self.engine.pot(), False)

    def action(self, street: str, choice: strategy.Choice, moves: Moves) -> Action:
        who, kind = moves.player, choice.kind
        if kind in ("fold", "check"):
            return Action(street, kind, who)
        if kind == "call":
            amount = choice.total or moves.call
            return Action(street, "call", who, amount, all_in=amount == moves.stack)
        if kind == "bring_in":
            return Action(street, "bring_in", who, choice.total, all_in=choice.total == moves.stack)
        all_in = choice.total == moves.all_in
        if kind == "bet":
            return Action(street, "bet", who, choice.total - (moves.all_in - moves.stack), all_in=all_in)
        if kind == "raise":
            return Action(street, "raise", who, choice.total - moves.current, choice.total, all_in=all_in)
        return Action(street, "complete", who, to_amount=choice.total, all_in=all_in)

    # ---- mistakes made while playing (pipeline.generate.breaks) ----
    def _mistaken_posts(self, posts: list[Post]) -> list[Post]:
        mistake = self.mistake
        if mistake is None:
            return posts
        chip = self.setup.chip
        for i, post in enumerate(posts):
            wrong_blind = mistake.wants("wrong_blind") and post.detail == "big_blind"
            wrong_ante = mistake.wants("wrong_ante") and post.detail == "ante"
            if (wrong_blind or wrong_ante) and not post.all_in and post.amount > chip:
                posts[i] = replace(post, amount=post.amount - chip)
                mistake.made = True
                break
        return posts

    def breaking(self, moves: Moves) -> strategy.Choice | None:
        """The rule-breaking choice the planned mistake makes here, if this is its chance."""
        mistake = self.mistake
        if mistake is None or mistake.made:
            return None
        chip, kind = self.setup.chip, mistake.kind
        choice: strategy.Choice | None = None
        limit = self.setup.hand.structure == "limit"
        if kind == "wrong_bring_in" and moves.bring_in is not None and moves.bring_in + chip < moves.stack:
            choice = strategy.Choice("bring_in", moves.bring_in + chip)
        elif moves.bring_in is not None:
            return None
        elif kind == "illegal_check" and moves.owed > 0:
            choice = strategy.Choice("check")
        elif kind == "wrong_call_amount" and moves.owed > chip and moves.call == moves.owed:
            choice = strategy.Choice("call", moves.owed - chip)
        elif moves.wager is None:
            return None
        elif kind == "wrong_limit_bet" and limit and moves.sizes[0] + chip < moves.all_in \
                and moves.sizes[0] + chip not in moves.sizes:
            choice = strategy.Choice(moves.wager, moves.sizes[0] + chip)
        elif kind == "bet_below_minimum" and not limit and moves.wager == "bet" and moves.low > chip:
            choice = strategy.Choice("bet", max(chip, moves.low // 2 // chip * chip))
        elif (kind == "raise_below_minimum" and not limit and moves.owed > 0
              and moves.low - moves.current > chip and moves.low < moves.all_in):
            short = max(chip, (moves.low - moves.current) // 2 // chip * chip)
            choice = strategy.Choice("raise", moves.current + short)
        elif kind == "bet_over_pot_limit" and self.setup.hand.structure == "pot-limit" \
                and moves.high + chip < moves.all_in:
            choice = strategy.Choice(moves.wager, moves.high + chip)
        if choice is not None:
            mistake.made = True
        return choice

    # ---- the showdown ----
    def showdown(self) -> None:
        self.table.enter("showdown")
        shell = replace(self.setup.hand, actions=tuple(self.table.actions))
        preview = self.table.settle(shell)  # who wins when everyone shows
        won = Counter[str]()
        for share in preview.shares:
            won[share.player] += share.amount
        shown = mucked = 0
        for name in self.order():
            if shown and not won[name] and self.rng.random() < 0.5:
                self.apply(Action("showdown", "muck", name))
                mucked += 1
                continue
            shown += 1
            cards = tuple(self.table.players[name].cards)
            self.apply(Action("showdown", "show", name, cards=cards, detail=_describe(preview, name)))
        # Shown cards change nothing the settlement read; a muck gives up a pot, so settle again.
        self.settled = None if mucked else preview

    def finish(self) -> Played:
        shell = replace(self.setup.hand, actions=tuple(self.table.actions))
        self.table.close()
        settlement = self.settled or self.table.settle(shell)
        if self.strict and (settlement.notes or settlement.unchecked):
            raise GenerationError(f"hand {shell.hand_id}: the settlement says {settlement.notes} "
                                  f"{settlement.unchecked or ''}")
        awards = [Award(s.player, s.amount, s.pot, s.portion) for s in settlement.shares if s.amount]
        kept = self.mistake.kept if self.mistake is not None else None
        if kept is not None:
            # The uncalled chips were never returned; the dealer pushes them with the pot instead.
            awards.append(Award(kept[0], kept[1], 0, None))
        hand = replace(shell, awards=tuple(awards), total_pot=self.engine.pot(), rake=0)
        return Played(with_final_stacks(hand, self.table), settlement)


def with_final_stacks(hand: Hand, table: LiveHand) -> Hand:
    """The summary's final stacks: what each player has left plus what they were pushed."""
    won = Counter[str]()
    for award in hand.awards:
        won[award.player] += award.amount
    finals = tuple(FinalStack(s.number, s.player, table.players[s.player].stack + won[s.player])
                   for s in hand.seats)
    return replace(hand, final_stacks=finals)


def _describe(settlement: Settlement, name: str) -> str | None:
    """The hand as the showdown reads it, for the `shows` line (no parentheses: the format's
    description ends at the first closing one)."""
    portions = settlement.hands.get(name)
    if not portions:
        return None
    text = portions[0].description if len(portions) == 1 else \
        "; ".join(f"{p.name}: {p.description}" for p in portions)
    return text.replace(" (", " - ").replace("(", "").replace(")", "")


def play(setup: Setup, rng: Random, mistake: Mistake | None = None) -> Played:
    """Play the hand of `setup` with `rng`; `mistake`, if given, is made at its first chance."""
    return _Play(setup, rng, mistake).play()
