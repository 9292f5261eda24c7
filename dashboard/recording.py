"""The guided hand recorder: a hand entered step by step, each step as the rules allow it.

A `Recorder` holds the hand so far and asks the replay engine (`evaluator.legal.LiveHand`) what
comes next, in the order the game's dealing procedure gives (`evaluator.catalog`, the order
`pipeline.generate.play` deals in): the cards each player or board is dealt, a Pick'em choice,
draws and discards, a split, the dice, the rows Oklahoma removes, exposures, each betting
decision with the amounts allowed, the showdown, and finally the pushes the engine settles.
Each `Step` says what is wanted and what is legal; the director answers with the actions that
happened (`Recorder.enter`), legal or not: every answer is replayed at once, and the findings it
produces are kept beside it (`Recorder.marks`). Dealer chores with one possible answer (an
uncalled bet's return, a reshuffle of the discards when the stub runs out) are entered by the
recorder itself.

No Streamlit here: the "Record a hand" page (`dashboard/views/recorder.py`) only shows the step
and builds the answer.

>>> from pipeline.model import Seat, Stakes
>>> shell = Hand("rec-1", "texas_holdem", "no-limit", Stakes(small_blind=50, big_blind=100),
...              (Seat(1, "Ann", 10000), Seat(2, "Bo", 10000)), button_seat=1)
>>> recorder = Recorder(shell)
>>> step = recorder.step
>>> step.kind, step.player, step.detail, step.count  # the deal starts left of the button
('deal', 'Bo', 'down', 2)
"""

from __future__ import annotations

import re
from collections.abc import Generator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from evaluator.catalog import GAMES, LEFT_OF_BIG_BLIND, Street
from evaluator.findings import Finding
from evaluator.legal import LiveHand, Moves, forced_bets
from evaluator.profiles import resolve
from evaluator.replay import replay
from grammar.barge_parser import parse_hand
from grammar.errors import HandSyntaxError
from pipeline.generate.play import DRAW_AFTER_BETTING, _describe, with_final_stacks
from pipeline.model import Action, Award, Hand, Seat, Stakes
from pipeline.writer import write_hand

Answer = tuple[Action, ...]

# What a step asks for (`Step.kind`).
DEAL = "deal"  # `count` cards to `player`, `detail` "down" or "up"
BOARD = "board"  # `count` cards to board `detail` ("1", "2", ..., or "common", §2.47)
CHOOSE = "choose"  # `player` names one of `options` (§2.38)
DRAW = "draw"  # `player` changes `fewest` to `most` of `cards` (discard, then draw as many)
DISCARD = "discard"  # `player` throws away `fewest` to `most` of `cards`, not replaced
SPLIT = "split"  # `player` splits `cards` into a two and the rest (Sohe)
ROLL = "roll"  # `player` rolls `dice` dice (§1.13)
REMOVE = "remove_board"  # the dealer removes the rows `options` (§2.34)
EXPOSE = "expose"  # `player` may turn up one of `cards` (must, when `fewest` is 1)
ACT = "act"  # `player` acts in the betting round: `moves`
SHOW = "show"  # `player` shows `cards` (described as `detail`) or mucks
PUSH = "push"  # the hand is over: the dealer pushes the pots (`Recorder.settlement`)
DONE = "done"


class RecordingError(ValueError):
    """An answer the recorder cannot place at all (not merely illegal): the message says why."""


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


# The stakes a header states, by name (`pipeline.model.Stakes`), and an example of each, in
# hundredths: what the page offers first.
EXAMPLE_STAKES = {"small_blind": 100, "big_blind": 200, "ante": 50, "bring_in": 100, "small_bet": 200,
                  "big_bet": 400}


def stake_items(variant: str, structure: str) -> tuple[str, ...]:
    """The stakes a hand of `variant` in `structure` states: blinds, or antes and (stud) a
    bring-in (§1.1); the small and big bet in limit."""
    forced = GAMES[variant].forced
    items: tuple[str, ...] = ("small_blind", "big_blind") if forced == "blinds" else ("ante",)
    if forced == "antes":
        items += ("bring_in",)
    return items + (("small_bet", "big_bet") if structure == "limit" else ())


# The forms a hand of a blinds game in a big-bet structure may take besides the plain one, and
# the amount each asks for (None: none), as a multiple of the big blind to offer first.
FORMS = {"plain": None, "big_blind_ante": 1, "jam_or_fold": None, "straddle": None, "bomb_pot": 2}


def forms(variant: str, structure: str) -> tuple[str, ...]:
    """The forms a hand of `variant` in `structure` may take: a big blind ante (§1.5), and in
    no-limit jam-or-fold (§1.8) and a straddle of twice the big blind, for blinds games without
    cards up; a bomb pot (§1.6) where there is a board to play."""
    game = GAMES[variant]
    if game.forced != "blinds" or structure == "limit" or game.showing is not None:
        return ("plain",)
    found = ["plain", "big_blind_ante"]
    if structure == "no-limit":
        found += ["jam_or_fold", "straddle"]
    if any(s.boards for s in game.streets):
        found.append("bomb_pot")
    return tuple(found)


def in_form(stakes: Stakes, form: str, amount: int | None = None) -> Stakes:
    """The stakes of a hand in `form` (see `forms`); `amount`: the big blind ante or each
    player's bomb-pot ante. A straddle changes no stake: it is posted (`Recorder(straddle=True)`)."""
    if form == "big_blind_ante":
        return replace(stakes, big_blind_ante=amount)
    if form == "jam_or_fold":
        return replace(stakes, jam_or_fold=True)
    if form == "bomb_pot":
        return Stakes(bomb_pot=amount)  # §1.6: every player antes, no blinds
    return stakes


def stakes_of(amounts: Mapping[str, int]) -> Stakes:
    """The stakes named in `amounts` (the items of `stake_items`, in hundredths)."""
    return Stakes(small_blind=amounts.get("small_blind"), big_blind=amounts.get("big_blind"),
                  small_bet=amounts.get("small_bet"), big_bet=amounts.get("big_bet"),
                  ante=amounts.get("ante"), bring_in=amounts.get("bring_in"))


def new_hand(hand_id: str, variant: str, structure: str, stakes: Stakes, seats: tuple[Seat, ...],
             button_seat: int | None, table_name: str, started_at: datetime | None = None,
             event: str | None = None) -> Hand:
    """The shell of a hand to record: header, table and seats. Raises RecordingError when the
    game, the structure, the seats or the button cannot make a hand. (The table is named because
    the format writes the button on the table's line.)"""
    game = GAMES.get(variant)
    if game is None:
        raise RecordingError(f"{variant!r} is not a game of the BARGE catalog")
    if structure not in game.structures:
        raise RecordingError(f"{game.variant.name} is played {' or '.join(game.structures)}, not {structure}")
    names = [s.player for s in seats]
    if len([s for s in seats if not s.sitting_out]) < 2:
        raise RecordingError("a hand needs at least two players dealt in")
    if len(set(names)) != len(names) or len({s.number for s in seats}) != len(seats):
        raise RecordingError("each player and each seat number may appear once")
    if any(s.number < 1 for s in seats):
        raise RecordingError("seats are numbered from 1")
    if any(s.stack <= 0 for s in seats):
        raise RecordingError("every stack must be more than nothing")
    if game.forced != "antes" and button_seat not in {s.number for s in seats}:
        raise RecordingError("the button must be on one of the seats")
    hand = Hand(hand_id, variant, structure, stakes, seats, started_at=started_at, event=event,
                table_name=table_name, max_seats=max(9, *(s.number for s in seats)),
                button_seat=button_seat if game.forced != "antes" else None)
    # The format is the judge of ids and names: the shell must read back as it was written.
    try:
        read = parse_hand(write_hand(hand))
    except HandSyntaxError as exc:
        raise RecordingError(f"the hand cannot be written in the native format: {exc}") from None
    if (read.hand_id, read.table_name, read.seats) != (hand.hand_id, hand.table_name, hand.seats):
        raise RecordingError("the hand id, the table or a player's name cannot be written in the native "
                             "format (docs/format.md, Header and Names)")
    return hand


SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_CARD = re.compile(r"[2-9TJQKA][shdc]|Jk|\?\?")


def parse_cards(text: str) -> tuple[str, ...]:
    """Cards typed as the format writes them (`Ah Kd`, `10` for a ten and suit symbols read
    too); raises RecordingError naming the column of the first word that is not a card."""
    cards: list[str] = []
    for match in re.finditer(r"\S+", text.replace(",", " ")):
        word = match.group()
        card = word.replace("10", "T")
        card = card[:-1].upper() + SUITS.get(card[-1], card[-1].lower()) if card[-1:] != "?" else card
        card = "Jk" if card.lower() == "jk" else card
        if not _CARD.fullmatch(card):
            raise RecordingError(f"column {match.start() + 1}: {word!r} is not a card: a rank "
                                 "(2-9, T, J, Q, K, A) then a suit (s, h, d, c), Jk or ??")
        cards.append(card)
    return tuple(cards)


def betting_action(street: str, moves: Moves, kind: str, total: int = 0) -> Action:
    """The action line of a betting decision: `kind` is fold, check, call, bring_in, bet, raise or
    complete; `total` the player's whole wager on the street after a bet, raise or completion
    (the bring-in's amount for a bring-in; a call puts in `moves.call`)."""
    who = moves.player
    if kind in ("fold", "check"):
        return Action(street, kind, who)
    if kind == "call":
        return Action(street, "call", who, moves.call, all_in=moves.call == moves.stack)
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
    raise RecordingError(f"{kind!r} is not a betting decision")


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
    if kind == CHOOSE:
        return tuple(Action(street, "choose", who, detail=game) for game in picked)
    if kind == ROLL:
        return (Action(street, "roll", who, detail=" ".join(picked)),)
    if kind == REMOVE:
        return tuple(Action(street, "remove_board", None, detail=row) for row in picked)
    if kind == SHOW:
        if picked == ("muck",):
            return (Action(street, "muck", who),)
        return (Action(street, "show", who, cards=step.cards, detail=step.detail),)
    raise RecordingError(f"a {kind} step is not answered with cards or a choice")


def is_legal(moves: Moves, action: Action) -> bool:
    """Whether the betting decision `action` is one of `moves` (what the page offers)."""
    kind = action.kind
    if moves.bring_in is not None:
        return (kind == "bring_in" and action.amount == moves.bring_in) or \
            (kind == "complete" and action.to_amount in moves.sizes)
    if kind == "fold":
        return moves.owed > 0
    if kind == "check":
        return moves.check and not moves.jam_only
    if kind == "call":
        return moves.owed > 0 and moves.may_call and action.amount == moves.call
    if kind != moves.wager:
        return False
    total = action.to_amount if kind in ("raise", "complete") else \
        (action.amount or 0) + moves.all_in - moves.stack
    if total is None:
        return False
    if total == moves.all_in:
        return moves.can_wager_all_in
    if moves.sizes:
        return total in moves.sizes
    return not moves.jam_only and moves.low <= total <= moves.high


class _Procedure:
    """The dealing procedure of one hand, written as a generator: it yields each `Step` and is
    sent the actions that answer it, which it plays into the engine."""

    def __init__(self, table: LiveHand) -> None:
        self.table = table
        self.engine = table.engine
        self.game = self.engine.game

    def apply(self, action: Action) -> None:
        self.table.apply(action)

    def ask(self, step: Step) -> Generator[Step, Answer, Answer]:
        answer = yield step
        for action in answer:
            self.apply(action)
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
        return [c for c in sorted(self.engine.game.deck.cards) if c not in self.engine.where]

    def discards(self) -> int:
        """Cards a reshuffle would give back: the discards and the folded or mucked hands."""
        gone = {p.name for p in self.engine.players.values() if p.folded or p.mucked}
        return sum(holder == "discards" or holder in gone for holder in self.engine.where.values())

    def reshuffle_for(self, street: str, needed: int) -> None:
        """The stub cannot give `needed` cards: the discards are shuffled into a new stub."""
        if needed > len(self.stub()) and self.discards():
            self.apply(Action(street, "reshuffle", None))

    # ---- the hand ----
    def run(self) -> Generator[Step, Answer, None]:
        index = 0
        while index < len(self.engine.plan) and len(self.table.live) >= 2:
            yield from self.street(self.engine.plan[index])
            index += 1
        if len(self.table.live) >= 2:
            yield from self.showdown()

    def street(self, spec: Street) -> Generator[Step, Answer, None]:
        name = spec.name
        self.table.enter(name)
        for board, count in spec.boards:
            yield from self.ask(Step(name, BOARD, detail=board, count=count))
        yield from self.deal(name, spec)
        if "choose" in spec.steps:
            yield from self.choose(name)
        spec = self.table.street or spec
        after = self.game.id in DRAW_AFTER_BETTING
        if spec.draw and not after:
            yield from self.draws(name, spec)
        if "remove_board" in spec.steps:
            removed = self.engine.boards_to_remove() or set()
            yield from self.ask(Step(name, REMOVE, options=tuple(sorted(removed))))
        yield from self.betting(name, spec)
        if len(self.table.live) < 2:
            return
        if spec.discard:
            yield from self.discard(name, spec)
        if spec.draw and after:
            yield from self.draws(name, spec)
        if "split" in spec.steps:
            for who in self.order():
                yield from self.ask(Step(name, SPLIT, who, cards=self.held(who)))
        last = self.engine.plan_index + 1 >= len(self.engine.plan)
        if spec.dice and not last:
            button = self.engine.button_player  # §1.13: the player on the button rolls
            yield from self.ask(Step(name, ROLL, button.name if button else None, dice=spec.dice))
        if "expose" in spec.steps and not self.game.choices and not last:
            for who in self.order():  # Mexican Poker: a player may turn up their down card
                player = self.table.players[who]
                hidden = tuple(c for c in player.cards if c not in player.up)
                if hidden:
                    yield from self.ask(Step(name, EXPOSE, who, cards=hidden, most=1))

    def deal(self, street: str, spec: Street) -> Generator[Step, Answer, None]:
        wanted = {p.name: self.engine.expected_deal(p, spec) for p in self.table.live}
        needed = sum(d + u for d, u in wanted.values())
        self.reshuffle_for(street, needed)  # Super Stud's discards make up the stub
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
                yield from self.ask(Step(street, DISCARD, name, fewest=1, most=1, cards=self.held(name)))
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
            self.reshuffle_for(street, min(high, len(held)) + reserve)
            most = max(0, min(high, len(held), len(self.stub()) - reserve))
            yield from self.ask(Step(street, DRAW, name, fewest=min(low, most), most=most, cards=held))

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

    def betting(self, street: str, spec: Street) -> Generator[Step, Answer, None]:
        door = bool(self.game.choices) and "expose" in spec.steps and spec.first == LEFT_OF_BIG_BLIND
        while True:
            who = self.table.to_act()
            if who is None:
                break
            answer = yield from self.ask(Step(street, ACT, who, moves=self.table.moves(who)))
            player = self.table.players[who]
            stays = any(a.kind in ("call", "raise", "check", "bet", "complete") for a in answer)
            if door and stays and not player.up and player.cards:
                # §2.38, a stud game chosen: a player who stays in exposes a door card of their choice.
                yield from self.ask(Step(street, EXPOSE, who, cards=self.held(who), fewest=1, most=1))
        back = self.table.uncalled()
        if back is not None:  # §1.1: the uncalled part of the top wager goes back
            self.apply(Action(street, "return", back[0], amount=back[1]))

    def showdown(self) -> Generator[Step, Answer, None]:
        self.table.enter("showdown")
        preview = self.table.settle(replace(self.engine.hand, actions=tuple(self.table.actions)))
        for name in self.order():
            yield from self.ask(Step("showdown", SHOW, name, _describe(preview, name), cards=self.held(name)))


class Recorder:
    """A hand being recorded. `shell` is the hand's header and seats (no actions); the forced
    bets are posted as the rules say (`evaluator.legal.forced_bets`), then `step` says what is
    wanted next until it is `DONE`.

    `entries` are the answers given, in order, and `marks[i]` the findings that answer `i`
    produced when it was replayed (empty when it was legal); `undo` takes the last one back."""

    def __init__(self, shell: Hand, straddle: bool = False) -> None:
        if shell.variant not in GAMES:
            raise RecordingError(f"{shell.variant!r} is not a game of the BARGE catalog")
        self.shell = replace(shell, actions=(), awards=(), total_pot=None, rake=None, final_stacks=())
        self.straddle = straddle
        self.entries: list[Answer] = []
        self.marks: list[tuple[Finding, ...]] = []
        self.awards: tuple[Award, ...] | None = None
        self.final: tuple[Finding, ...] = ()  # the whole hand's findings, once pushed
        self._begin()

    def _begin(self) -> None:
        shell = self.shell
        first = GAMES[shell.variant].streets[0].name
        profile = resolve(shell.rules_profile, shell.rules_options)
        forced = tuple(Action(first, p.kind, p.player, p.amount, all_in=p.all_in, detail=p.detail)
                       for p in forced_bets(shell, profile, self.straddle))
        self.table = LiveHand(replace(shell, actions=forced))
        self.procedure = _Procedure(self.table)
        self._flow = self.procedure.run()
        self._next(None)

    def _next(self, answer: Answer | None) -> None:
        try:
            self.step = next(self._flow) if answer is None else self._flow.send(answer)
        except StopIteration:
            self.table.close()
            self.settlement = self.table.settle(self.hand_so_far())
            self.step = Step("showdown", PUSH)

    @property
    def findings(self) -> list[Finding]:
        return self.table.findings

    @property
    def stub(self) -> list[str]:
        """The cards still in the stub, in deck order."""
        return self.procedure.stub()

    def enter(self, answer: Answer) -> tuple[Finding, ...]:
        """Play `answer` (the actions that answer `step`); returns the findings they produced."""
        if self.step.kind in (PUSH, DONE):
            raise RecordingError("the hand is over: only the pushes remain")
        before = len(self.findings)
        self.entries.append(answer)
        self._next(answer)
        marked = tuple(self.findings[before:])
        self.marks.append(marked)
        return marked

    def undo(self) -> None:
        """Take back the last answer (or the pushes): the hand is replayed without it."""
        if self.awards is not None:
            self.awards, self.final = None, ()
            self.step = Step("showdown", PUSH)
        elif self.entries:
            entries = self.entries[:-1]
            self.entries, self.marks = [], []
            self._begin()
            for answer in entries:
                self.enter(answer)

    def computed_awards(self) -> tuple[Award, ...]:
        """What the rules push from every pot (the engine's settlement)."""
        return tuple(Award(s.player, s.amount, s.pot, s.portion) for s in self.settlement.shares if s.amount)

    def push(self, awards: tuple[Award, ...] | None = None) -> tuple[Finding, ...]:
        """End the hand with the dealer's pushes: the engine's own (None) or those entered; returns
        the findings of the whole hand replayed as the audit will."""
        if self.step.kind != PUSH:
            raise RecordingError("the hand is not over yet: the pots cannot be pushed")
        self.awards = self.computed_awards() if awards is None else awards
        self.step = Step("showdown", DONE)
        self.final = tuple(replay(self.hand()))
        return self.final

    def hand_so_far(self) -> Hand:
        return replace(self.shell, actions=tuple(self.table.actions))

    def hand(self) -> Hand:
        """The record: every action, and once pushed the awards, total pot and final stacks."""
        hand = self.hand_so_far()
        if self.awards is None:
            return hand
        pushed = replace(hand, awards=self.awards, total_pot=self.table.engine.pot(), rake=0)
        return with_final_stacks(pushed, self.table)

    def text(self) -> str:
        """The hand in the native format (docs/format.md)."""
        return write_hand(self.hand())
