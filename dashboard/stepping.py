"""Stepping through a hand: the table after each written line (stacks, bets, pots, cards, boards).

`steps(hand, awards)` replays a stored hand's actions at face value, as the record says (the rules
engine judges them; this only shows them), and returns one `TableState` per step: the seats before
any action, then one per line of the history (a player's "Dealt to" line with its up cards, a
discard with its draw, count as one line, as `pipeline.writer` writes them), then one step per pot
pushed, as the record pushed it. Where the rules push a pot otherwise (the audit's computed awards,
passed as `rules`), that pot's step carries both pushes, the record's and the rules', with the hands
each was pushed for. Chip accounting follows `pipeline.accounting`: antes, dead blinds and fees (a
paid option's `pays A`) go straight to the pot, wagers sit in front of their player until the street
ends, "raises to T" puts in T minus what the player had in front. The pots in the middle are
`evaluator.awarding.side_pots` of the chips collected at the end of each street.

>>> from grammar.barge_parser import parse_hand
>>> hand = parse_hand(EXAMPLE)
>>> states = steps(hand, hand.awards)
>>> len(states), states[0].text, states[-1].text, states[-1].rules
(17, 'Seats', 'Ann collected 1,600 from pot', ())
>>> states[7].street, states[7].text, [b.cards for b in states[7].boards]
('flop', 'Dealer: deals board 1 [Qs 7h 2c]', [((1, 'Qs'), (2, '7h'), (3, '2c'))])

Amounts are hundredths, as in the hand model: after "Ann: bets 400" on the flop, 400 is in front
of her and the pot holds 1,200, of which 800 were collected before the flop.

>>> [(s.player, s.stack, s.bet) for s in states[9].seats], states[9].pot, [p.amount for p in states[9].pots]
([('Ann', 420000, 40000), ('Bo', 460000, 0)], 120000, [80000])
>>> [(s.player, s.stack, s.won) for s in states[-1].seats]
[('Ann', 580000, 160000), ('Bo', 420000, 0)]

A record that cannot be followed (chips returned that are not in front of the player) stops the
table where it is, saying why: the pot is never negative.

>>> broken = parse_hand(EXAMPLE.replace("Uncalled bet (800)", "Uncalled bet (8,000)"))
>>> last = steps(broken, broken.awards)[-1]
>>> last.stopped, last.pot
('step 15: 8,000 returned to Ann, who has 800 in front of them', 160000)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from evaluator.awarding import side_pots
from evaluator.catalog import ALL_GAMES
from evaluator.profiles import resolve
from evaluator.replay import Replay
from evaluator.settle import run_hands
from evaluator.variants import ALL_VARIANTS
from pipeline.amounts import format_amount
from pipeline.model import UNKNOWN_CARD, Action, Award, Hand
from pipeline.writer import action_lines, award_line

EXAMPLE = """\
BARGE Hand #DOC-1: texas_holdem no-limit (blinds 100/200) - 2025-07-10 14:03:55
Table '7' 6-max Seat #1 is the button
Seat 1: Ann (5,000 in chips)
Seat 2: Bo (5,000 in chips)
Ann: posts small blind 100
Bo: posts big blind 200
*** HOLE CARDS ***
Dealt to Ann [Ah Kd]
Dealt to Bo [?? ??]
Ann: raises 200 to 400
Bo: calls 200
*** FLOP *** [Qs 7h 2c]
Bo: checks
Ann: bets 400
Bo: calls 400
*** TURN *** [9d]
Bo: checks
Ann: bets 800
Bo: folds
Uncalled bet (800) returned to Ann
Ann collected 1,600 from pot
"""


@dataclass(frozen=True, slots=True)
class Card:
    """A card in front of a player: `code` as stored ("??" face down and unknown); `up` when
    dealt or exposed face up (stud up cards), so it is drawn as everyone saw it."""

    code: str
    up: bool = False


@dataclass(frozen=True, slots=True)
class SeatState:
    seat: int
    player: str
    stack: int
    bet: int = 0  # chips in front of the player on this street
    cards: tuple[Card, ...] = ()
    folded: bool = False
    all_in: bool = False
    sitting_out: bool = False
    won: int = 0  # pushed to the player so far, as the record pushed it
    shown: str | None = None  # the hand as the player announced it at the showdown
    strength: tuple[str, ...] = ()  # the hand as the rules read it, per portion (the evaluator's words)
    declared: str | None = None  # what the player declared (high, low, both: docs/games.md `[declare]`)


@dataclass(frozen=True, slots=True)
class BoardState:
    """A board's cards as (position, card), positions counted within the board from 1."""

    name: str
    cards: tuple[tuple[int, str], ...]
    removed: bool = False


@dataclass(frozen=True, slots=True)
class PotState:
    """`index` 0 the main pot, n side pot n; `eligible` the players still contending for it."""

    index: int
    amount: int
    eligible: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Push:
    """Chips pushed to one player from one pot (0 the main pot), by the record or by the rules;
    `hand` what they were pushed for: as the player announced it (the record), as the evaluator
    reads it (the rules)."""

    pot: int
    player: str
    amount: int
    hand: str | None = None


@dataclass(frozen=True, slots=True)
class TableState:
    """The table after step `step`: what the SVG picture (`dashboard.table_svg`) draws.

    `seqs` are the `actions.seq` numbers of the step's actions (findings cite them); `pot` is
    every chip put in so far, bets in front included; `pots` the pots formed in the middle.
    """

    hand_id: str
    variant: str
    step: int
    text: str
    street: str | None
    seats: tuple[SeatState, ...]
    boards: tuple[BoardState, ...] = ()
    pots: tuple[PotState, ...] = ()
    pot: int = 0
    button: int | None = None
    max_seats: int | None = None
    dice: tuple[int, ...] = ()
    runs: int = 1
    actor: str | None = None
    seqs: tuple[int, ...] = ()
    title: str = ""
    record: tuple[Push, ...] = ()  # at a pot's step where the rules differ: the record's pushes of it
    rules: tuple[Push, ...] = ()  # ... and the rules' (empty where they agree)
    stopped: str | None = None  # where and why the record stopped being followable


def line_groups(actions: Sequence[Action]) -> list[tuple[int, int]]:
    """[start, stop) of the actions written on each line, the way `pipeline.writer` joins them:
    a player's consecutive deals, and a discard with the draw that follows it.

    >>> deal = Action("3rd_street", "deal", "Bo", cards=("??",))
    >>> line_groups([deal, deal, Action("3rd_street", "deal", "Cy"), Action("3rd_street", "check", "Cy")])
    [(0, 2), (2, 3), (3, 4)]
    """
    groups: list[tuple[int, int]] = []
    i = 0
    while i < len(actions):
        first, stop = actions[i], i + 1
        if first.kind == "deal":
            same = ("deal", first.player)
            while stop < len(actions) and (actions[stop].kind, actions[stop].player) == same:
                stop += 1
        elif first.kind == "discard" and stop < len(actions) and actions[stop].kind == "draw" \
                and actions[stop].player == first.player:
            stop += 1
        groups.append((i, stop))
        i = stop
    return groups


def reveal(held: Sequence[Card], shown: Sequence[str]) -> list[Card]:
    """The cards held once `shown` are seen: each unknown card takes the next shown card that is
    not already held; shown cards beyond those held (no deal was recorded) are added.

    >>> [c.code for c in reveal([Card("??"), Card("Kd", up=True), Card("??")], ["Ah", "Kd", "2c"])]
    ['Ah', 'Kd', '2c']
    """
    known = {card.code for card in held if card.code != UNKNOWN_CARD}
    fresh = iter([code for code in shown if code not in known and code != UNKNOWN_CARD])
    out = []
    for card in held:
        code = next(fresh, None) if card.code == UNKNOWN_CARD else None
        out.append(Card(code, card.up) if code is not None else card)
    out.extend(Card(code) for code in fresh)
    return out


def discard(held: Sequence[Card], cards: Sequence[str]) -> list[Card]:
    """The cards left after discarding `cards`: a known card leaves by identity, else an unknown
    one leaves in its place ("discards 2" is stored as two "??").

    >>> [c.code for c in discard([Card("7h"), Card("??"), Card("Kd")], ["Kd", "??"])]
    ['7h']
    """
    left = list(held)
    for code in cards:
        at = next((i for i, c in enumerate(left) if c.code == code and code != UNKNOWN_CARD), None)
        if at is None:
            at = next((i for i, c in enumerate(left) if c.code == UNKNOWN_CARD), None)
        if at is None:
            at = next((i for i in range(len(left) - 1, -1, -1) if not left[i].up), None)
        if at is not None:
            del left[at]
    return left


@dataclass(slots=True)
class _Player:
    seat: int
    name: str
    stack: int
    sitting_out: bool
    bet: int = 0  # live chips in front on the current street
    live: int = 0  # live chips put in over the hand
    cards: list[Card] = field(default_factory=list)
    folded: bool = False
    all_in: bool = False
    won: int = 0
    declared: str | None = None


class _Table:
    """The mutable table the actions are applied to, one at a time."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.players = {s.player: _Player(s.number, s.player, s.stack, s.sitting_out) for s in hand.seats}
        self.dead = 0
        self.street: str | None = None
        self.boards: dict[str, list[tuple[int, str]]] = {}
        self.removed: set[str] = set()
        self.dice: tuple[int, ...] = ()
        self.runs = 1
        self.shared = 0  # cards of board "1" every run shares (positions of a run board start after)
        self.shown: dict[str, str] = {}
        self.stopped: str | None = None
        self.step = 0

    def _put_in(self, player: _Player, chips: int, live: bool = True) -> None:
        player.stack -= chips
        if live:
            player.bet += chips
            player.live += chips
        else:
            self.dead += chips

    def apply(self, action: Action) -> None:
        if action.street != self.street:
            self.street = action.street
            for p in self.players.values():  # the street's bets go to the middle
                p.bet = 0
        if action.player is None or action.player not in self.players:
            self._dealer(action)
            return
        player = self.players[action.player]
        kind, amount = action.kind, action.amount or 0
        if kind in ("ante", "fee") or (kind == "post" and action.detail == "dead_blind"):
            self._put_in(player, amount, live=False)  # a fee (a paid option) is dead money, as an ante
        elif kind in ("post", "bring_in", "bet", "call"):
            self._put_in(player, amount)
        elif kind in ("raise", "complete"):
            self._put_in(player, (action.to_amount or 0) - player.bet)
        elif kind == "return":
            # Chips can only come back from in front of the player; a record returning more
            # cannot be followed (the audit's REPLAY_STOPPED), and the table stops there.
            if amount > player.bet and self.stopped is None:
                self.stopped = (f"step {self.step}: {format_amount(amount)} returned to {player.name}, "
                                f"who has {format_amount(player.bet)} in front of them")
            self._put_in(player, -min(amount, max(player.bet, 0)))
        elif kind == "fold":
            player.folded = True
        elif kind == "declare":
            player.declared = action.detail
        self._cards(player, action)
        if action.all_in:
            player.all_in = True

    def _cards(self, player: _Player, action: Action) -> None:
        kind, cards = action.kind, action.cards
        if kind == "deal":
            player.cards += [Card(code, up=action.detail == "up") for code in cards]
        elif kind == "draw":
            player.cards += [Card(code) for code in cards]
        elif kind == "discard":
            player.cards = discard(player.cards, cards)
        elif kind in ("show", "muck", "fold") and cards:
            player.cards = reveal(player.cards, cards)
            if kind == "show" and action.detail:
                self.shown[player.name] = action.detail
        elif kind == "split":
            shown = reveal(player.cards, cards)
            known = UNKNOWN_CARD not in cards
            player.cards = [Card(code) for code in cards] if known else shown
        elif kind == "expose":
            player.cards = [Card(c.code, c.up or c.code in cards) for c in reveal(player.cards, cards)]
        elif kind == "roll" and action.detail:
            self.dice = _dice(action.detail)

    def _dealer(self, action: Action) -> None:
        kind, name = action.kind, action.detail or "1"
        if kind == "board":
            cards = self.boards.setdefault(name, [])
            # Positions follow the last card of the board, whatever the cards per line: a run's
            # board starts after the cards every run shares.
            run = self.runs > 1 and name.isdigit() and name != "1"
            start = cards[-1][0] if cards else (self.shared if run else 0)
            cards += [(start + i, code) for i, code in enumerate(action.cards, start=1)]
        elif kind == "remove_board":
            self.removed.add(name)
        elif kind == "run_it":
            self.runs = action.amount or 2
            self.shared = len(self.boards.get("1", []))
        elif kind == "roll" and action.detail:
            self.dice = _dice(action.detail)

    def contenders(self) -> list[str]:
        return [p.name for p in sorted(self.players.values(), key=lambda p: p.seat)
                if not p.folded and not p.sitting_out]

    def pots(self) -> tuple[PotState, ...]:
        collected = {p.name: p.live - p.bet for p in self.players.values()}
        if not self.dead and not any(collected.values()):
            return ()
        return tuple(PotState(p.index, p.amount, p.eligible)
                     for p in side_pots(collected, self.dead, self.contenders()))

    def snapshot(self, text: str, actor: str | None, seqs: tuple[int, ...],
                 pots: tuple[PotState, ...] | None = None,
                 strengths: Mapping[str, tuple[str, ...]] | None = None,
                 record: tuple[Push, ...] = (), rules: tuple[Push, ...] = ()) -> TableState:
        hand = self.hand
        strengths = strengths or {}
        seats = tuple(
            SeatState(p.seat, p.name, p.stack, p.bet, tuple(p.cards), p.folded,
                      p.all_in or (p.live > 0 and p.stack <= 0), p.sitting_out, p.won,
                      self.shown.get(p.name), strengths.get(p.name, ()) if p.name in self.shown else (),
                      p.declared)
            for p in sorted(self.players.values(), key=lambda p: p.seat))
        boards = tuple(BoardState(name, tuple(cards), name in self.removed)
                       for name, cards in self.boards.items())
        return TableState(
            hand_id=hand.hand_id, variant=hand.variant, step=self.step, text=text, street=self.street,
            seats=seats, boards=boards, pots=self.pots() if pots is None else pots,
            pot=self.dead + sum(p.live for p in self.players.values()), button=hand.button_seat,
            max_seats=hand.max_seats, dice=self.dice, runs=self.runs, actor=actor, seqs=seqs,
            title=title(hand), record=record, rules=rules, stopped=self.stopped)

    def push(self, award: Award) -> None:
        for p in self.players.values():
            p.bet = 0
        player = self.players.get(award.player)
        if player is not None:
            player.stack += award.amount
            player.won += award.amount


def title(hand: Hand) -> str:
    """The hand id, the game's name (a room's own game marked with its room) and the betting
    structure.

    >>> from grammar.barge_parser import parse_hand
    >>> title(parse_hand(EXAMPLE))
    "DOC-1 · Texas Hold'em · no-limit"
    >>> from dataclasses import replace
    >>> title(replace(parse_hand(EXAMPLE), variant="six_card_omaha", structure="pot-limit"))
    'DOC-1 · 6 Card Omaha (a PokerStars game) · pot-limit'
    """
    variant = ALL_VARIANTS.get(hand.variant)
    room = "" if variant is None or variant.barge else f" (a {variant.room} game)"
    name = hand.variant if variant is None else variant.name + room
    return f"{hand.hand_id} · {name} · {hand.structure}"


def _dice(detail: str) -> tuple[int, ...]:
    return tuple(int(d) for d in detail.split() if d.isdigit())


def strengths(hand: Hand) -> dict[str, tuple[str, ...]]:
    """Each hand tabled at the showdown as the rules read it: the evaluator's description of the
    player's best hand for each portion ("high: ...", "low: ..." where there are several), as the
    audit settles the pots (evaluator.settle); empty when they cannot be settled from the record.

    >>> from grammar.barge_parser import parse_hand
    >>> strengths(parse_hand(EXAMPLE))  # won without a showdown
    {}
    """
    engine = Replay(hand, ALL_GAMES[hand.variant], resolve(hand.rules_profile, hand.rules_options))
    try:
        engine.run()
    except Exception:  # as replay_hand: the engine's own fault must not stop the page
        return {}
    if engine.settlement is None:
        return {}
    table = engine.table()
    out: dict[str, tuple[str, ...]] = {}
    for player in engine.settlement.hands:
        try:
            runs = run_hands(table, player)  # a board run out twice: the hand on each run
        except (ValueError, KeyError):
            continue
        out[player] = tuple(
            _labelled(f"run {run}" if len(runs) > 1 else "", p.name if len(portions) > 1 else "",
                      p.description)
            for run, portions in enumerate(runs, start=1) for p in portions)
    return out


def _labelled(run: str, portion: str, description: str) -> str:
    """ "run 2 low: 5-4-3-2-A", "high: flush", or the description alone."""
    label = " ".join(part for part in (run, portion) if part)
    return f"{label}: {description}" if label else description


def compare_pushes(awards: Sequence[Award], rules: Sequence[Award], shown: Mapping[str, str],
                   rules_hands: Mapping[int, str]) -> dict[int, tuple[tuple[Push, ...], tuple[Push, ...]]]:
    """Per pot where the rules push other amounts to other players than the record: the record's
    pushes of it (with the hands as announced) and the rules' (with `rules_hands`, by the index of
    the rules' award). Portions and their order do not matter, only who gets how much.

    >>> record = [Award("Ann", 1800), Award("Ann", 2000, 1)]
    >>> rules = [Award("Ann", 1800), Award("Bo", 2000, 1)]
    >>> compare_pushes(record, rules, {"Ann": "aces"}, {1: "kings"})  # doctest: +NORMALIZE_WHITESPACE
    {1: ((Push(pot=1, player='Ann', amount=2000, hand='aces'),),
         (Push(pot=1, player='Bo', amount=2000, hand='kings'),))}
    """
    def totals(pushes: Sequence[Award], pot: int) -> dict[str, int]:
        out: dict[str, int] = {}
        for a in pushes:
            if a.pot == pot:
                out[a.player] = out.get(a.player, 0) + a.amount
        return out

    differ = {}
    for pot in sorted({a.pot for a in [*awards, *rules]}):
        if totals(awards, pot) != totals(rules, pot):
            differ[pot] = (
                tuple(Push(pot, a.player, a.amount, shown.get(a.player)) for a in awards if a.pot == pot),
                tuple(Push(pot, a.player, a.amount, rules_hands.get(i)) for i, a in enumerate(rules)
                      if a.pot == pot))
    return differ


def steps(hand: Hand, awards: Sequence[Award], rules: Sequence[Award] = (),
          rules_hands: Mapping[int, str] | None = None,
          strengths: Mapping[str, tuple[str, ...]] | None = None) -> list[TableState]:
    """The table before any action, after each line of the history, and after each of the
    record's pushes (`awards`). `rules`: what the rules push (the audit's computed awards, with
    `rules_hands` the hand of each by its index), shown beside the record's at the last step of
    each pot they push otherwise (a pot only the rules push: at the last step); `strengths` each
    player's hand as the evaluator reads it, shown once the player has shown it."""
    table = _Table(hand)
    states = [table.snapshot("Seats", None, ())]
    for start, stop in line_groups(hand.actions):
        table.step = len(states)
        for action in hand.actions[start:stop]:
            table.apply(action)
        text = " ".join(action_lines(hand.actions, start, stop))
        first = hand.actions[start]
        states.append(table.snapshot(text, first.player, tuple(range(start + 1, stop + 1)),
                                     strengths=strengths))
    differ = compare_pushes(awards, rules, table.shown, rules_hands or {}) if rules else {}
    last_of_pot = {a.pot: i for i, a in enumerate(awards)}
    unpushed = [pot for pot in differ if pot not in last_of_pot]
    pots = table.pots()
    side = any(a.pot for a in awards)
    for i, award in enumerate(awards):
        table.step = len(states)
        table.push(award)
        here = [pot for pot, at in last_of_pot.items() if at == i and pot in differ]
        if i == len(awards) - 1:
            here += unpushed
        record = tuple(p for pot in here for p in differ[pot][0])
        rule = tuple(p for pot in here for p in differ[pot][1])
        states.append(table.snapshot(award_line(award, side), None, (), pots=pots, strengths=strengths,
                                     record=record, rules=rule))
    return states
