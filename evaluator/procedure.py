"""What may happen next in a hand: the dealing procedure of its game as a state machine.

`Procedure` walks a hand on the replay engine (`evaluator.legal.LiveHand`) in the order the game's
plan gives (`evaluator.catalog`, changed by a Pick'em choice; docs/procedures.md, "Where each step
is written"): the cards each player or board is dealt, a Pick'em choice, draws and discards, a
split, the dice, the rows Oklahoma removes, exposures, paid options (a twist, a card bought),
declarations, each betting decision with the amounts allowed, running the board twice, the
showdown. Each `Step` says what is wanted and what the rules allow; whoever drives the procedure
answers with the actions that happened, legal or not, and the procedure plays them into the
engine, whose findings judge them. Dealer chores with one possible answer (a reshuffle of the
discards when the stub runs out, an uncalled bet's return) are steps too, carrying that answer, so
a driver may make them or (on purpose) not.

Two drivers share it: the hand generator (`pipeline.generate.play`, random answers and planned
mistakes) and the guided hand recorder (`dashboard.recording`, a director's answers). No
randomness and no Streamlit here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace

from evaluator.catalog import (
    AFTER_BETTING,
    ALL_GAMES,
    BEFORE_BETTING,
    SELL_HOLE,
    TWIST,
    WITH_OWN_ACTION,
    Street,
)
from evaluator.flips import owing
from evaluator.hand_state import ON_TOP
from evaluator.legal import LiveHand, Moves, Post, forced_bets
from evaluator.openers import holds
from evaluator.profiles import resolve
from evaluator.settle import Settlement
from pipeline.model import Action, FinalStack, Hand

Answer = tuple[Action, ...]

# What a step asks for (`Step.kind`).
DEAL = "deal"  # `count` cards to `player`, `detail` "down" or "up"
BOARD = "board"  # `count` cards to board `detail` ("1", "2", ..., or "common", §2.47)
CHOOSE = "choose"  # `player` names one of `options` (§2.38)
DRAW = "draw"  # `player` changes `fewest` to `most` of `cards` (discard, then draw as many); the
#               stub holds `count` cards for it
DISCARD = "discard"  # `player` throws away `fewest` to `most` of `cards`, not replaced (`detail`:
#                      the game chosen, when a Pick'em choice asks it)
SPLIT = "split"  # `player` splits `cards` into a two and the rest (Sohe)
ROLL = "roll"  # `player` rolls `dice` dice (§1.13)
REMOVE = "remove_board"  # the dealer removes the rows `options` (§2.34)
EXPOSE = "expose"  # `player` turns up `fewest` to `most` of `cards` (a required flip: exactly `fewest`)
BUY = "buy"  # `player` may pay `count` chips (a fee) for what the street sells, `detail`: "twist" (one
#              of `cards` discarded and replaced), "down" or "up" (one more card), "hole" (one of
#              `options`, the numbers of their cards to play, declared); or decline
DECLARE = "declare"  # `player` declares one of `options` (docs/games.md `[declare]`: high, low, both; a
#                      guts game's in, out)
ACT = "act"  # `player` acts in the betting round: `moves`
RUN_TWICE = "run_it"  # the players all-in may run the rest of the board twice (`chore`: the action)
SHOW = "show"  # `player` shows `cards` (described as `detail`) or mucks
RESHUFFLE = "reshuffle"  # chore: the stub ran out, `cards` (discards, muck) make a new one
RETURN = "return"  # chore: §1.1, the uncalled part of the top wager goes back to `player`
LEG = "leg"  # a guts game with legs: `player`, the high hand among those in, gets a leg (the driver
#             knows how many they held before this deal: `count` is 1 more than nothing held)
BURN = "burn"  # chore: `player`, in and beaten, pays `count` to the next deal's pot
CARRY = "carry"  # chore: the dealer carries `count`, the pot not won, to the next deal
PUSH = "push"  # the hand is over: the dealer pushes the pots
DONE = "done"

# Steps whose one answer the procedure knows (`Step.chore`).
CHORES = frozenset({RESHUFFLE, RETURN, BURN, CARRY})


class StepError(ValueError):
    """An answer that cannot be placed at all (not merely illegal): the message says why."""


@dataclass(frozen=True, slots=True)
class Step:
    """What the hand needs next, and what the rules allow for it (see the kinds above)."""

    street: str
    kind: str
    player: str | None = None
    detail: str | None = None
    count: int = 0
    fewest: int = 0
    most: int = 0
    cards: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    dice: int = 0
    moves: Moves | None = None
    chore: Answer = ()  # a chore's one answer, or running the board twice


def opening(shell: Hand, straddle: bool = False,
            adjust: Callable[[list[Post]], list[Post]] | None = None) -> LiveHand:
    """The hand with its forced bets posted as the rules say (`evaluator.legal.forced_bets`);
    `adjust` may change them first (a generator's planned mistake). A guts game's pot carried in
    from the deal before (a `carry_in` action of `shell`) comes first."""
    first = ALL_GAMES[shell.variant].streets[0].name
    posts = forced_bets(shell, resolve(shell.rules_profile, shell.rules_options), straddle)
    if adjust is not None:
        posts = adjust(posts)
    carried = tuple(replace(a, street=first) for a in shell.actions if a.kind == "carry_in")
    forced = tuple(Action(first, p.kind, p.player, p.amount, all_in=p.all_in, detail=p.detail) for p in posts)
    return LiveHand(replace(shell, actions=carried + forced))


def betting_action(street: str, moves: Moves, kind: str, total: int = 0) -> Action:
    """The action line of a betting decision: `kind` is fold, check, call, bring_in, bet, raise or
    complete; `total` the player's whole wager on the street after a bet, raise or completion
    (the bring-in's amount for a bring-in; a call puts in `total`, or `moves.call` when 0)."""
    who = moves.player
    if kind in ("fold", "check"):
        return Action(street, kind, who)
    if kind == "call":
        amount = total or moves.call
        return Action(street, "call", who, amount, all_in=amount == moves.stack)
    if kind == "bring_in":
        return Action(street, "bring_in", who, total, all_in=total == moves.stack)
    put_in = moves.all_in - moves.stack  # already in front of the player on this street
    all_in = total == moves.all_in
    if kind == "bet":
        return Action(street, "bet", who, total - put_in, all_in=all_in)
    if kind == "raise":
        return Action(street, "raise", who, total - moves.current, total, all_in=all_in)
    if kind == "complete":
        return Action(street, "complete", who, to_amount=total, all_in=all_in)
    raise StepError(f"{kind!r} is not a betting decision")


def answer(step: Step, picked: tuple[str, ...] = (), drawn: tuple[str, ...] = (),
           player: str | None = None) -> Answer:
    """The actions that answer a step other than a betting decision (`betting_action`):
    `picked` is what was chosen: the cards dealt (deal, board), thrown (draw, discard), exposed,
    or the two cards of a split; the game chosen, the dice's faces, the rows removed, or "show"
    or "muck" at the showdown. `drawn`: the cards a draw replaces them with. `player`: who did
    it, when not the player the step names (a deliberate mistake)."""
    who = player or step.player
    street, kind = step.street, step.kind
    if kind == DEAL:
        return (Action(street, "deal", who, cards=picked, detail=step.detail),)
    if kind == BOARD:
        return (Action(street, "board", None, cards=picked, detail=step.detail),)
    if kind in (DRAW, DISCARD):
        if not picked:
            return (Action(street, "stand_pat", who),)
        thrown = (Action(street, "discard", who, cards=picked),)
        return (*thrown, Action(street, "draw", who, cards=drawn)) if kind == DRAW else thrown
    if kind == SPLIT:
        rest = tuple(c for c in step.cards if c not in picked)
        return (Action(street, "split", who, cards=picked + rest, detail=f"{len(picked)}+{len(rest)}"),)
    if kind == EXPOSE:
        return (Action(street, "expose", who, cards=picked),) if picked else ()
    if kind == BUY:  # `picked`: the card twisted away (then `drawn`: its replacement), or the card bought
        if not picked:
            return ()
        fee = Action(street, "fee", who, step.count)
        if step.detail == SELL_HOLE:
            return (fee, Action(street, "declare", who, detail=picked[0]))
        if step.detail == TWIST:
            twisted = Action(street, "discard", who, cards=picked)
            return (fee, twisted, Action(street, "draw", who, cards=drawn))
        return (fee, Action(street, "deal", who, cards=picked, detail=step.detail))
    if kind == CHOOSE:
        return tuple(Action(street, "choose", who, detail=game) for game in picked)
    if kind == DECLARE:
        return tuple(Action(street, "declare", who, detail=word) for word in picked)
    if kind == ROLL:
        return (Action(street, "roll", who, detail=" ".join(picked)),)
    if kind == REMOVE:
        return tuple(Action(street, "remove_board", None, detail=row) for row in picked)
    if kind == LEG:
        return tuple(Action(street, "leg", who, detail=count) for count in picked)
    if kind == SHOW:
        if picked == ("muck",):
            return (Action(street, "muck", who),)
        return (Action(street, "show", who, cards=step.cards, detail=step.detail),)
    raise StepError(f"a {kind} step is not answered with cards or a choice")


def describe(settlement: Settlement, name: str) -> str | None:
    """The hand as the showdown reads it, for the `shows` line (no parentheses: the format's
    description ends at the first closing one)."""
    portions = settlement.hands.get(name)
    if not portions:
        return None
    text = portions[0].description if len(portions) == 1 else \
        "; ".join(f"{p.name}: {p.description}" for p in portions)
    return text.replace(" (", " - ").replace("(", "").replace(")", "")


def with_final_stacks(hand: Hand, table: LiveHand) -> Hand:
    """The summary's final stacks: what each player has left plus what they were pushed."""
    won = Counter[str]()
    for award in hand.awards:
        won[award.player] += award.amount
    finals = tuple(FinalStack(s.number, s.player, table.players[s.player].stack + won[s.player])
                   for s in hand.seats)
    return replace(hand, final_stacks=finals)


class Procedure:
    """The dealing procedure of one hand, written as a generator (`steps`): it yields each `Step`
    and is sent the actions that answer it, which it plays into the engine. `run_twice`: the
    players may run the board twice (a cash game's option, offered when the rules allow it)."""

    def __init__(self, table: LiveHand, run_twice: bool = False) -> None:
        self.table = table
        self.engine = table.engine
        self.game = self.engine.game
        self.run_twice = run_twice
        self.preview: Settlement | None = None  # who wins when everyone shows, at the showdown

    def ask(self, step: Step) -> Generator[Step, Answer, Answer]:
        answer = yield step
        for action in answer:
            self.table.apply(action)
        return answer

    def order(self) -> list[str]:
        """Live players in the order cards go round: from the button's left, or from seat 1."""
        button = self.engine.hand.button_seat
        live = self.table.live
        ordered = self.engine.clockwise_after(button) if button is not None else live
        return [p.name for p in ordered]

    def held(self, name: str) -> tuple[str, ...]:
        return tuple(self.table.players[name].cards)

    def stub(self) -> list[str]:
        """The cards not yet seen in this hand: what the dealer can still deal."""
        where = self.engine.where  # a discard back on top of the stub is dealt again (`discards_to`)
        return [c for c in sorted(self.engine.game.deck.cards) if where.get(c, ON_TOP) == ON_TOP]

    def returned(self) -> tuple[str, ...]:
        """Cards a reshuffle gives back: the discards and the folded or mucked hands (the
        engine's own reading, `evaluator.replay`)."""
        gone = {p.name for p in self.engine.players.values() if p.folded or p.mucked}
        return tuple(c for c, holder in self.engine.where.items() if holder == "discards" or holder in gone)

    def reshuffle_for(self, street: str, needed: int) -> Generator[Step, Answer, None]:
        """The stub cannot give `needed` cards: the discards are shuffled into a new stub."""
        back = self.returned() if needed > len(self.stub()) else ()
        if back:
            chore = (Action(street, "reshuffle", None),)
            yield from self.ask(Step(street, RESHUFFLE, cards=back, chore=chore))

    # ---- the hand ----
    def steps(self) -> Generator[Step, Answer, None]:
        index = 0
        while index < len(self.engine.plan) and len(self.table.live) >= 2:
            yield from self.street(self.engine.plan[index])
            index += 1
        if len(self.table.live) >= 2:
            yield from self.showdown()
        if self.game.guts is not None:
            yield from self.deal_end()

    def deal_end(self) -> Generator[Step, Answer, None]:
        """A guts game's deal ends (evaluator.guts): the high hand's leg (Evolution), what each
        player who went in and lost pays to the next deal's pot (the rule's amount, or what they
        have left), and the pot carried to the next deal when it is not won."""
        # Under the showdown's marker, opened when the deal ended before it: the street the deal
        # ended on is closed first, so that its uncalled bet is back before the pot is counted.
        street = "showdown"
        self.table.enter(street)
        settlement = self.table.settle(replace(self.engine.hand, actions=tuple(self.table.actions)))
        for who in settlement.legs:
            yield from self.ask(Step(street, LEG, who, count=1))
        if settlement.legs:  # the leg's number decides whether the pot is won
            settlement = self.table.settle(replace(self.engine.hand, actions=tuple(self.table.actions)))
        for who, due in settlement.burns:
            amount = min(due, self.table.players[who].stack)
            if amount:
                yield from self.ask(Step(street, BURN, who, count=amount,
                                         chore=(Action(street, "burn", who, amount),)))
        if settlement.carried_out:
            yield from self.ask(Step(street, CARRY, count=settlement.carried_out,
                                     chore=(Action(street, "carry_out", None, settlement.carried_out),)))

    def street(self, spec: Street) -> Generator[Step, Answer, None]:
        name = spec.name
        self.table.enter(name)
        for board, count in spec.boards:
            yield from self.ask(Step(name, BOARD, detail=board, count=count))
        later = self.engine.plan[self.engine.plan_index + 1:]
        if self.engine.run_it and not any(s.boards for s in later):
            # The second run: the cards board 1 got since the dealer ran it twice (docs/format.md).
            count = len(self.engine.board_cards["1"]) - self.engine.shared
            yield from self.ask(Step(name, BOARD, detail="2", count=count))
        yield from self.deal(name, spec)
        if "choose" in spec.steps:
            yield from self.choose(name)
        spec = self.table.street or spec
        # A draw comes before its street's betting unless the game's street says after (Dramaha's
        # flop, docs/procedures.md "Where each step is written").
        after = spec.when("draw") == AFTER_BETTING
        if spec.draw and not after:
            yield from self.draws(name, spec)
        # A die rolled before the betting (a house game's `timing = { roll = "before" }`)
        rolled_first = spec.dice > 0 and spec.when("roll") == BEFORE_BETTING
        if rolled_first:
            yield from self.roll(name, spec)
        if "remove_board" in spec.steps:
            removed = self.engine.boards_to_remove() or set()  # §2.34
            yield from self.ask(Step(name, REMOVE, options=tuple(sorted(removed))))
        if spec.when("expose") == BEFORE_BETTING:
            yield from self.flips(name, spec)
        bought_after = spec.when("buy") == AFTER_BETTING
        if spec.sells and not bought_after:
            yield from self.purchases(name, spec)
        if spec.when("declare") == BEFORE_BETTING:
            yield from self.declarations(name, spec)
        yield from self.betting(name, spec)
        if len(self.table.live) < 2:
            return
        yield from self.flips(name, spec)  # after the betting, or those left of a flip with the action
        if spec.sells and bought_after:
            yield from self.purchases(name, spec)
        yield from self.declarations(name, spec)  # after the betting (those before it are made)
        if spec.discard:
            yield from self.discard(name, spec)
        if spec.draw and after:
            yield from self.draws(name, spec)
        if "split" in spec.steps:
            for who in self.order():
                yield from self.ask(Step(name, SPLIT, who, cards=self.held(who)))
        last = self.engine.plan_index + 1 >= len(self.engine.plan)
        if spec.dice and not last and not rolled_first:
            yield from self.roll(name, spec)
        if "expose" in spec.steps and not last:
            for who in self.order():  # Mexican Poker: a player may turn up their down card
                player = self.table.players[who]
                hidden = tuple(c for c in player.cards if c not in player.up)
                if hidden:
                    yield from self.ask(Step(name, EXPOSE, who, cards=hidden, most=1))
        if self.may_run_twice(later):
            yield from self.ask(Step(name, RUN_TWICE, chore=(Action(name, "run_it", None, 2),)))

    def roll(self, name: str, spec: Street) -> Generator[Step, Answer, None]:
        button = self.engine.button_player  # §1.13: the player on the button rolls
        yield from self.ask(Step(name, ROLL, button.name if button else None, dice=spec.dice))

    def may_run_twice(self, later: list[Street]) -> bool:
        """In a cash game, players all-in before the last board card may run the board twice,
        where the rest of the hand is board 1's cards alone."""
        if not self.run_twice or self.engine.run_it:
            return False
        if sum(not p.all_in for p in self.table.live) > 1 or not later:
            return False
        if len(self.stub()) < 2 * sum(n for s in later for _, n in s.boards):
            return False  # the stub cannot give the second run its cards
        plain = all(s.boards and {b for b, _ in s.boards} == {"1"} and not (
            s.down or s.up or s.draw or s.discard or s.dice or s.steps) for s in later)
        return plain and not self.game.rules and not any(s.extra for s in self.game.streets)

    def deal(self, street: str, spec: Street) -> Generator[Step, Answer, None]:
        wanted = {p.name: self.engine.expected_deal(p, spec) for p in self.table.live}
        needed = sum(d + u for d, u in wanted.values())
        yield from self.reshuffle_for(street, needed)  # Super Stud's discards make up the stub
        if needed > len(self.stub()) and not spec.boards:
            # §2.47: when the stub cannot give every player a card, one common card is dealt.
            per_player = max(d + u for d, u in wanted.values())
            yield from self.ask(Step(street, BOARD, detail="common", count=per_player))
            return
        for name in self.order():
            down, up = wanted[name]
            if down:
                yield from self.ask(Step(street, DEAL, name, "down", down))
            if up:
                yield from self.ask(Step(street, DEAL, name, "up", up))

    def choose(self, street: str) -> Generator[Step, Answer, None]:
        """§2.38: the player under the gun (the button three-handed or fewer) picks a game."""
        chooser = self.engine.chooser()
        names = self.order()
        expected = chooser.name if chooser is not None else names[0]
        games = tuple(n for n, _ in self.game.choices)
        answer = yield from self.ask(Step(street, CHOOSE, expected, options=games))
        chosen = next((a for a in answer if a.kind == "choose"), None)
        if chosen is None or self.engine.chosen is None:
            return  # no game (or no game of Pick'em) was chosen: the rest is the engine's to flag
        who = chosen.player if chosen.player in names else expected
        turn = names[names.index(who):] + names[:names.index(who)]
        if self.engine.chosen == "texas_holdem":
            for name in turn:  # each player discards one of the three cards
                yield from self.ask(Step(street, DISCARD, name, "texas_holdem", fewest=1, most=1,
                                         cards=self.held(name)))
        elif self.engine.chosen == "omaha_hi_lo":
            for name in turn:  # each player is dealt a fourth card
                yield from self.ask(Step(street, DEAL, name, "down", 1))

    def draws(self, street: str, spec: Street) -> Generator[Step, Answer, None]:
        assert spec.draw is not None
        low, high = spec.draw
        later = self.engine.plan[self.engine.plan_index + 1:]
        reserve = sum(n for s in later for _, n in s.boards)  # the boards still to come
        for name in self.order():
            held = self.held(name)
            yield from self.reshuffle_for(street, min(high, len(held)) + reserve)
            room = len(self.stub()) - reserve
            most = max(0, min(high, len(held), room))
            yield from self.ask(Step(street, DRAW, name, count=max(0, room), fewest=min(low, most), most=most,
                                     cards=held))

    def discard(self, street: str, spec: Street) -> Generator[Step, Answer, None]:
        """Discards not replaced (Crazy Pineapple, Irish, Super Stud, Scrotum), after the betting."""
        assert spec.discard is not None
        low, high = spec.discard
        state = self.engine.street
        done = state.discarded if state is not None else set()
        for name in self.order():
            if name in done:
                continue
            player = self.table.players[name]
            pool = tuple(c for c in player.cards if c not in player.up) or tuple(player.cards)
            yield from self.ask(Step(street, DISCARD, name, fewest=min(low, len(pool)),
                                     most=min(high, len(pool)), cards=pool))

    def flips(self, street: str, spec: Street, only: str | None = None) -> Generator[Step, Answer, None]:
        """A street's required flip (`Street.flip`): each player who owes it and has not made it
        turns up that many down cards of their choice (`only`: just that player)."""
        state = self.engine.street
        done, paid = (state.flipped, state.paid) if state is not None else (set(), set())
        live = [only] if only is not None else self.order()
        for who in owing(spec, live, paid):
            player = self.table.players[who]
            hidden = tuple(c for c in player.cards if c not in player.up)
            if who not in done and len(hidden) >= spec.flip:
                yield from self.ask(Step(street, EXPOSE, who, cards=hidden, fewest=spec.flip, most=spec.flip))

    def purchases(self, street: str, spec: Street) -> Generator[Step, Answer, None]:
        """A street's paid option (`Street.sells`): each player in turn from the left of the button
        who can pay the price may buy it once, while the stub has a card for it beyond the cards
        still to come."""
        price = self.engine.price(spec)
        later = self.engine.plan[self.engine.plan_index + 1:]
        for who in self.order():
            player = self.table.players[who]
            reserve = sum(n for s in later for _, n in s.boards) + len(self.table.live) * sum(
                s.down + s.up for s in later)
            if spec.sells == TWIST:
                yield from self.reshuffle_for(street, 1 + reserve)
            dealt = spec.sells != SELL_HOLE  # a card comes from the stub
            if player.all_in or player.stack < price or (dealt and len(self.stub()) - reserve < 1):
                continue
            cards = tuple(c for c in player.cards if c not in player.up) if spec.sells == TWIST else ()
            options = tuple(str(n) for n in spec.counts)
            yield from self.ask(Step(street, BUY, who, spec.sells, count=price, cards=cards, options=options))

    def declarations(self, street: str, spec: Street) -> Generator[Step, Answer, None]:
        """A street's declarations (docs/games.md `[declare]`): each player still in who has not
        declared names one of the game's words, in the order cards go round (the order a
        declaration in turn is made in; simultaneous ones are written in it too)."""
        declare = self.game.declare
        if "declare" not in spec.steps or declare is None:
            return
        for who in self.order():
            if self.table.players[who].declared is None:
                yield from self.ask(Step(street, DECLARE, who, options=declare.words))

    def opening(self, spec: Street, moves: Moves) -> Moves:
        """A round that needs openers (`Street.open`): the first bet is offered only to a player
        whose cards, with the common cards dealt so far, make them (a hand the procedure does not
        know is offered it: a recorder writes what was done, the replay checks it)."""
        if spec.open is None or moves.wager != "bet":
            return moves
        if holds(spec.open, self.held(moves.player), self.engine.board_order) is not False:
            return moves
        return replace(moves, wager=None, sizes=(), low=0, high=0)

    def betting(self, street: str, spec: Street) -> Generator[Step, Answer, None]:
        with_action = spec.flip and spec.when("expose") == WITH_OWN_ACTION
        while True:
            who = self.table.to_act()
            if who is None:
                break
            yield from self.ask(Step(street, ACT, who, moves=self.opening(spec, self.table.moves(who))))
            if with_action and self.table.players[who].live:
                # §2.38, a stud game chosen: "If they call or raise they will expose (i.e. roll) a
                # door card of their choice at that time."
                yield from self.flips(street, spec, only=who)
        back = self.table.uncalled()
        if back is not None:  # §1.1: the uncalled part of the top wager goes back
            yield from self.ask(Step(street, RETURN, back[0], count=back[1],
                                     chore=(Action(street, "return", back[0], amount=back[1]),)))

    def showdown(self) -> Generator[Step, Answer, None]:
        self.table.enter("showdown")
        self.preview = self.table.settle(replace(self.engine.hand, actions=tuple(self.table.actions)))
        for name in self.order():
            shown = describe(self.preview, name)
            yield from self.ask(Step("showdown", SHOW, name, shown, cards=self.held(name)))
