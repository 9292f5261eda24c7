"""The guided hand recorder: a hand entered step by step, each step as the rules allow it.

A `Recorder` holds the hand so far and asks the game's dealing procedure (`evaluator.procedure`,
which the hand generator `pipeline.generate.play` drives too) what comes next: the cards each
player or board is dealt, a Pick'em choice, draws and discards, a split, the dice, the rows
Oklahoma removes, exposures, each betting decision with the amounts allowed, the showdown, and
finally the pushes the engine settles.
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
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime

from evaluator.catalog import GAMES
from evaluator.findings import Finding
from evaluator.legal import Moves
from evaluator.procedure import (
    ACT,
    BOARD,
    BUY,
    CHOOSE,
    CHORES,
    DEAL,
    DECLARE,
    DISCARD,
    DONE,
    DRAW,
    EXPOSE,
    PUSH,
    REMOVE,
    ROLL,
    SHOW,
    SPLIT,
    Answer,
    Procedure,
    Step,
    StepError,
    answer,
    betting_action,
    opening,
    with_final_stacks,
)
from evaluator.replay import replay
from grammar.barge_parser import parse_hand
from grammar.errors import HandSyntaxError
from pipeline.model import Action, Award, Hand, Seat, Stakes
from pipeline.writer import write_hand

# The steps and their answers are the dealing procedure's (`evaluator.procedure`), named here too
# for the page.
__all__ = ["ACT", "BOARD", "BUY", "CHOOSE", "DEAL", "DECLARE", "DISCARD", "DONE", "DRAW", "EXAMPLE_STAKES",
           "EXPOSE", "FORMS", "PUSH", "REMOVE", "ROLL", "SHOW", "SPLIT", "SUITS", "Answer", "Recorder",
           "RecordingError", "Step", "answer", "betting_action", "forms", "in_form", "is_legal",
           "new_hand", "parse_cards", "stake_items", "stakes_of"]

# An answer the recorder cannot place at all (not merely illegal): the message says why.
RecordingError = StepError

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
        self.table = opening(self.shell, self.straddle)
        self.procedure = Procedure(self.table)
        self._flow = self.procedure.steps()
        self._next(None)

    def _next(self, answer: Answer | None) -> None:
        try:
            step = next(self._flow) if answer is None else self._flow.send(answer)
            while step.kind in CHORES:  # the recorder makes the dealer's chores itself
                step = self._flow.send(step.chore)
            self.step = step
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
