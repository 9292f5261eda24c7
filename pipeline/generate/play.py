"""Playing one generated hand: the dealing procedure of its game, random legal play, the showdown.

The hand is played by answering the steps of its game's dealing procedure (`evaluator.procedure`,
the state machine the guided hand recorder shares), which plays each answer into the replay
engine itself (`evaluator.legal.LiveHand`): cards come from a shuffled deck of the game, and each
answer is one the step allows, chosen at random (`pipeline.generate.strategy` for the betting).
The engine judges every action as it is played, so a generated hand replays with no findings; a
break (`pipeline.generate.breaks`) is a mistake made on purpose at one of these steps. The pots
are settled by the engine's own settlement and written as the dealer's awards, with the total pot
and every final stack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from random import Random

from evaluator.catalog import ALL_GAMES, BOTH, DISCARDS_ON_TOP, IN, OUT, TWIST
from evaluator.legal import Moves, Post
from evaluator.procedure import (
    ACT,
    BOARD,
    BURN,
    BUY,
    CARRY,
    CHOOSE,
    DEAL,
    DECLARE,
    DISCARD,
    DRAW,
    EXPOSE,
    LEG,
    REMOVE,
    RESHUFFLE,
    RETURN,
    ROLL,
    RUN_TWICE,
    SHOW,
    SPLIT,
    Answer,
    Procedure,
    Step,
    answer,
    betting_action,
    opening,
    with_final_stacks,
)
from evaluator.scales import category, low_floor
from evaluator.settle import Settlement
from evaluator.showdown import Portion, best_hands
from pipeline.generate import strategy
from pipeline.generate.guts import FRESH, Carry
from pipeline.generate.world import Setup
from pipeline.model import Action, Award, Hand

BOARD_ROWS = ("1", "2", "3")  # Oklahoma's rows (§2.34), one of which a mistaken removal takes


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
    """One hand played by answering its dealing procedure's steps (`evaluator.procedure`) at
    random among what the rules allow, or with the planned mistake where its chance comes."""

    def __init__(self, setup: Setup, rng: Random, mistake: Mistake | None,
                 carry: Carry | None = None) -> None:
        self.setup = setup
        self.rng = rng
        self.mistake = mistake
        self.game = ALL_GAMES[setup.hand.variant]
        self.first = self.game.streets[0].name
        self.carry = carry or FRESH
        shell = setup.hand
        if self.carry.amount:  # a guts game's redeal: the pot the deal before left comes in first
            shell = replace(shell, actions=(Action(self.first, "carry_in", None, self.carry.amount,
                                                   detail=str(self.carry.pot)),))
        self.table = opening(shell, setup.straddle, self._mistaken_posts)
        self.engine = self.table.engine
        self.procedure = Procedure(self.table, run_twice=setup.run_twice)
        deck = sorted(self.engine.game.deck.cards)
        rng.shuffle(deck)
        self.stub = deck
        self.on_top = 0  # the last cards of the stub are discards placed back on top (`discards_to`)
        self.strict = mistake is None
        self.shown = 0
        self.mucked = False
        self.answers: dict[str, Callable[[Step], Answer]] = {
            DEAL: self.deal, BOARD: self.board, CHOOSE: self.choose, DRAW: self.draw,
            DISCARD: self.discard, SPLIT: self.split, ROLL: self.roll, REMOVE: self.remove_boards,
            EXPOSE: self.expose, BUY: self.buy, ACT: self.act, RUN_TWICE: self.run_twice, SHOW: self.show,
            RESHUFFLE: self.reshuffle, RETURN: self.give_back, DECLARE: self.declare, LEG: self.leg,
            BURN: self.burn, CARRY: self.chore,
        }

    def take(self, count: int) -> tuple[str, ...]:
        cards = tuple(self.stub[-count:]) if count else ()
        del self.stub[len(self.stub) - count:]
        self.on_top = max(0, self.on_top - count)
        return cards

    def wants(self, kind: str) -> bool:
        return self.mistake is not None and self.mistake.wants(kind)

    def made(self) -> None:
        assert self.mistake is not None
        self.mistake.made = True

    # ---- the hand ----
    def play(self) -> Played:
        flow = self.procedure.steps()
        step = next(flow, None)
        while step is not None:
            given = self.answers[step.kind](step)
            try:
                step = flow.send(given)
            except StopIteration:
                step = None
            if self.strict and self.table.findings:
                found = "; ".join(f"{f.code.name}: {f.message}" for f in self.engine.findings)
                raise GenerationError(f"hand {self.setup.hand.hand_id}: the engine flags {given}: {found}")
        return self.finish()

    # ---- cards ----
    def deal(self, step: Step) -> Answer:
        return answer(step, self.take(step.count))

    def board(self, step: Step) -> Answer:
        cards = self.take(step.count)
        if self.wants("duplicate_card") and step.street != self.first and step.detail != "common":
            held = [c for n in self.procedure.order() for c in self.table.players[n].cards]
            if held:
                cards = (self.rng.choice(held), *cards[1:])
                self.made()
        return answer(step, cards)

    def choose(self, step: Step) -> Answer:
        """§2.38: the player under the gun (the button three-handed or fewer) picks a game."""
        who = step.player
        if self.wants("wrong_game_choice"):
            others = [n for n in self.procedure.order() if n != who]
            if others:
                who = self.rng.choice(others)
                self.made()
        return answer(step, (self.rng.choice(step.options),), player=who)

    def draw(self, step: Step) -> Answer:
        count = strategy.discard_count(self.rng, step.fewest, step.most)
        if self.wants("wrong_discard_count") and step.most < min(len(step.cards), step.count):
            count = step.most + 1
            self.made()
        thrown = tuple(self.rng.sample(step.cards, count)) if count else ()
        return answer(step, thrown, self.take(count))

    def reshuffle(self, step: Step) -> Answer:
        """The stub ran out: the cards it gets back are shuffled into a new stub, under what is left."""
        back = list(step.cards)
        self.rng.shuffle(back)
        self.stub = back + self.stub
        return step.chore

    def discard(self, step: Step) -> Answer:
        """Discards not replaced: Crazy Pineapple, Irish, Super Stud, Scrotum (after the betting),
        and the card each player throws when Hold'em is chosen in Pick'em."""
        if step.detail is not None:  # a Pick'em choice asks it: one card of the three
            return answer(step, (self.rng.choice(step.cards),))
        count = strategy.discard_count(self.rng, step.fewest, step.most)
        if self.wants("wrong_discard_count") and step.fewest == step.most:
            count = step.most - 1 if step.most > 1 else step.most + 1
            self.made()
        thrown = tuple(self.rng.sample(step.cards, min(count, len(step.cards)))) if count else ()
        state = self.engine.street
        if state is not None and state.spec is not None and state.spec.discards_to == DISCARDS_ON_TOP:
            # Thermonuclear Pineapple II (#1056 rule 3): "The discards are shuffled and placed on top
            # of the deck": with the street's other discards, they are the next cards taken
            self.on_top += len(thrown)
            top = [*self.stub[len(self.stub) - self.on_top + len(thrown):], *thrown]
            self.rng.shuffle(top)
            self.stub[len(self.stub) - self.on_top + len(thrown):] = top
        return answer(step, thrown)

    def split(self, step: Step) -> Answer:
        """Sohe: each player splits six cards into a Hold'em two and an Omaha four."""
        held = list(step.cards)
        self.rng.shuffle(held)
        return answer(replace(step, cards=tuple(held)), tuple(held[:2]))

    def roll(self, step: Step) -> Answer:
        """§1.13: the player on the button rolls."""
        who = step.player
        if self.wants("wrong_dice"):
            others = [n for n in self.procedure.order() if n != who]
            if others:
                who = self.rng.choice(others)
                self.made()
        return answer(step, tuple(str(self.rng.randint(1, 6)) for _ in range(step.dice)), player=who)

    def remove_boards(self, step: Step) -> Answer:
        """§2.34: the dealer removes the rows the river cards say (the engine's own reading)."""
        removed = step.options
        if self.wants("wrong_board_removal"):
            kept = [name for name in BOARD_ROWS if name not in removed]
            removed = (self.rng.choice(kept),) if kept else ()
            self.made()
        return answer(step, removed)

    def expose(self, step: Step) -> Answer:
        """A required flip (§2.38's door card, Studaha's two cards): the player turns up the cards
        owed, of their choice; Mexican Poker: a player may turn up their down card, so the next
        card comes down."""
        if step.fewest:
            return answer(step, tuple(self.rng.sample(step.cards, step.fewest)))
        return answer(step, step.cards[:1] if self.rng.random() < 0.3 else ())

    def buy(self, step: Step) -> Answer:
        """A paid option (Waco's twist, Mutual of Omaha's down card): sometimes bought, for the price
        the step names; a twist throws one of the player's down cards."""
        if self.rng.random() >= 0.35 or (step.detail == TWIST and not step.cards):
            return ()
        if step.detail == TWIST:
            return answer(step, (self.rng.choice(step.cards),), self.take(1))
        if step.options:  # the number of their cards to play (Omaha 33)
            return answer(step, (self.rng.choice(step.options),))
        return answer(step, self.take(1))

    def declare(self, step: Step) -> Answer:
        """A declaration (docs/games.md `[declare]`), chosen from the hand: both with a strong high
        and a good low, the stronger side otherwise, and now and then a bold "both" or a coin
        toss, so that hands scoop, fail a declaration of both, and split; a guts game's in or out."""
        assert step.player is not None
        if self.game.guts is not None:
            return self.guts_declaration(step)
        player = self.table.players[step.player]
        boards = {name: tuple(cards) for name, cards in self.engine.board_cards.items()
                  if name not in self.engine.removed_boards}

        def hand(word: str) -> dict[str, Portion]:
            made = best_hands(self.game.id, player.cards, boards, self.engine.dice,
                              self.engine.profile.options, up=player.dealt_up, declared=word)
            return {p.name: p for p in made}

        words = step.options
        # the portion other than high: a low, or a split card (Chicago Hold'em #697)
        other = next((w for w in words if w not in ("high", BOTH)), "low")
        high = hand("high")["high"] if "high" in words else None
        second = hand(other).get(other) if other in words else None
        strong = high is not None and high.rank is not None and \
            category("high", high.rank) not in ("high card", "pair", "two pair", "three of a kind")
        good = second is not None and second.rank is not None and \
            (second.name != "low" or second.rank >= low_floor(7))
        roll = self.rng.random()
        if BOTH in words and ((strong and good and roll < 0.8) or roll < 0.1):
            word = BOTH
        elif strong != good:
            word = "high" if strong else other
        else:
            word = other if second is not None and second.rank is not None and roll < 0.55 else "high"
        return answer(step, (word if word in words else self.rng.choice(words),))

    def guts_declaration(self, step: Step) -> Answer:
        """A guts declaration: in more often with a hand that is ahead of the board alone (a pair or
        better of the player's own cards), else now and then; out otherwise."""
        holding = self.table.players[step.player or ""].cards
        ranks = [c[0] for c in holding]
        paired = len(set(ranks)) < len(ranks)
        word = IN if self.rng.random() < (0.6 if paired else 0.3) else OUT
        return answer(step, (word,) if word in step.options else step.options[:1])

    def leg(self, step: Step) -> Answer:
        """Evolution: the high hand's leg is one more than the legs the player held."""
        return answer(step, (str(self.carry.held(step.player or "") + 1),))

    @staticmethod
    def chore(step: Step) -> Answer:
        """A guts deal's carried pot: the one answer the rule gives."""
        return step.chore

    def burn(self, step: Step) -> Answer:
        """A guts loser pays the next pot what the rule says, unless the mistake pays half of it."""
        if self.wants("wrong_burn") and step.count > 1:
            self.made()
            return (Action(step.street, "burn", step.player, step.count // 2),)
        return step.chore

    def run_twice(self, step: Step) -> Answer:
        return step.chore if self.rng.random() < 0.3 else ()

    # ---- betting ----
    def act(self, step: Step) -> Answer:
        moves = step.moves
        assert moves is not None
        choice = self.decide(moves, step.street == self.first)
        return (betting_action(step.street, moves, choice.kind, choice.total),)

    def give_back(self, step: Step) -> Answer:
        """§1.1: the uncalled part of the top wager goes back, unless the mistake keeps it."""
        if self.wants("uncalled_bet_kept"):
            assert self.mistake is not None and step.player is not None
            self.made()
            self.mistake.kept = (step.player, step.count)
            return ()
        return step.chore

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
        cards = self.procedure.held(name)
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
    def show(self, step: Step) -> Answer:
        """Everyone shows, save that a player who wins nothing may muck once someone has shown."""
        preview = self.procedure.preview
        assert preview is not None
        won = sum(s.amount for s in preview.shares if s.player == step.player) or step.player in preview.legs
        if self.shown and not won and self.rng.random() < 0.5:
            self.mucked = True
            return answer(step, ("muck",))
        self.shown += 1
        return answer(step, ("show",))

    def finish(self) -> Played:
        shell = replace(self.setup.hand, actions=tuple(self.table.actions))
        self.table.close()
        # Shown cards change nothing the showdown's settlement read; a muck gives up a pot, so
        # then the hand is settled again.
        shown = None if self.mucked or self.game.guts else self.procedure.preview  # a leg changes a guts pot
        settlement = shown or self.table.settle(shell)
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


def play(setup: Setup, rng: Random, mistake: Mistake | None = None, carry: Carry | None = None) -> Played:
    """Play the hand of `setup` with `rng`; `mistake`, if given, is made at its first chance;
    `carry`: what a guts game's deal starts from (the deal before's pot, the legs held)."""
    return _Play(setup, rng, mistake, carry).play()
