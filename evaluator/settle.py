"""Settling a replayed hand: who the rules say wins each pot, and what every player ends with.

The replay engine hands over the end of the hand as a `Table` (what each player put in, the
cards they hold, the boards); `settle` forms the pots (:mod:`evaluator.awarding`), asks the
showdown (:mod:`evaluator.showdown`) who wins each portion (among the declared hands, in a game
where the players declare), applies California Lowball's sevens rule (Appendix B), and returns
the chips every player should be pushed. It never looks at the recorded awards;
:mod:`evaluator.award_check` compares the two.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from evaluator.awarding import Pot, Result, Share, award, side_pots
from evaluator.catalog import ALL_GAMES, NEIGHBOUR_RIGHT, Guts
from evaluator.codes import JOKER, RANKS
from evaluator.guts import burn_due
from evaluator.scales import low_floor
from evaluator.showdown import Holding, Portion, best_hands, decide, decide_declared
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import UNKNOWN_CARD

SUITS_BY_RANK = "cdhs"  # §1.4 rule 3b: spades, hearts, diamonds, clubs, highest first
SEVENS_RULE = "Appendix B"
RETURNED = "returned: sevens rule"
CASH_OUT = "cash out"  # PokerStars' all-in cash-out: the player's result instead of the pots
SPLASH = "splash the pot"  # money the site adds to the main pot (Run It Once's "STP added")


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the end of the hand.

    `live`/`dead`: chips put in (after the uncalled bets the rules return) as wagers and as dead
    money (antes, dead blinds); `contending`: still in the hand (not folded, not mucked);
    `cards`: every card held ("??" for one never seen); `up`: the cards dealt face up; `split`:
    Sohe's six cards as split, Hold'em two first; `after_draw`: chips put in after the draw;
    `sevens`: how the player broke the sevens rule, if they did ("checked", or "called" with the
    short all-in bettor's name), Appendix B; `showed`: the player showed cards at the showdown;
    `declared`: the word the player declared (docs/games.md `[declare]`), None for none.
    """

    name: str
    seat: int
    live: int
    dead: int = 0
    contending: bool = True
    cards: tuple[str, ...] = ()
    up: tuple[str, ...] = ()
    split: tuple[str, ...] | None = None
    after_draw: int = 0
    sevens: tuple[str, str | None] | None = None
    showed: bool = False
    declared: str | None = None  # what the player declared, in a game where players declare
    hole_count: int | None = None  # the number of their cards they bought to play (a `hole` purchase)
    mucked: bool = False  # the player was still in at the showdown and mucked (not `contending`)


@dataclass(frozen=True, slots=True)
class Table:
    """The end of a hand. `boards`: name -> cards, removed boards left out; `dealt`: every card
    dealt to a board, removed boards' included, in the order dealt (a wild `table = "last"`);
    `runs`: how many times the board was run and `shared` how many cards of board "1" every run
    shares; `odd_chip`: "button" (clockwise from `button`) or "card" (highest card by suit, stud)."""

    game: str
    seats: tuple[Seat, ...]
    unit: int
    boards: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    dice: tuple[int, ...] = ()
    options: Mapping[str, str] = field(default_factory=dict)
    chosen: str | None = None
    runs: int = 1
    shared: int = 0
    button: int | None = None
    odd_chip: str = "button"
    rake: int = 0
    sevens_rule: bool = False
    cash_outs: Mapping[str, int] = field(default_factory=dict)  # player -> what the site paid them
    splash: int = 0  # splash-the-pot money in the main pot, when the room counts it
    dealt: tuple[str, ...] = ()
    # A guts game's deal (evaluator.guts): the pot carried in from the deal before (dead money in
    # the main pot, nobody's), the deal's pot number (1 for a game's first deal), the limit's big
    # bet (a burn of "max bet"), and the leg the deal's high hand takes (Evolution: the recorded
    # `gets leg N`, 1 when none is recorded).
    carried: int = 0
    went_in: tuple[str, ...] = ()  # the players who declared in (a mucked hand among them lost)
    pot_number: int = 1
    max_bet: int = 0
    leg: int = 1


@dataclass(frozen=True, slots=True)
class Settlement:
    """What the rules push to each player. `shares` is empty and `unchecked` says why when the
    hand cannot be settled from the record (a contender's cards were never shown). `hands`: each
    contender's best hands in the main pot's showdown (first run), for the findings' messages;
    `notes`: (code, message, section) for the director (the sevens rule applied); `room`: what the
    players were paid where the room pays otherwise than the pots (a cash-out, splash-the-pot
    money), empty when it pays the pots; `declared`: what each player declared, in a game where
    players declare (docs/games.md `[declare]`)."""

    shares: tuple[Share, ...]
    pots: tuple[Pot, ...] = ()
    hands: Mapping[str, tuple[Portion, ...]] = field(default_factory=dict)
    notes: tuple[tuple[str, str, str], ...] = ()
    unchecked: str | None = None
    room: tuple[Share, ...] = ()
    declared: Mapping[str, str] = field(default_factory=dict)  # player -> word, where players declare
    # A guts game (evaluator.guts): the pot carried to the next deal (not won), what each player
    # who went in and lost owes the next deal's pot (before their stack caps it), and who gets a leg.
    carried_out: int = 0
    burns: tuple[tuple[str, int], ...] = ()
    legs: tuple[str, ...] = ()

    @property
    def paid(self) -> tuple[Share, ...]:
        """What each player ends up with from the hand: the room's payments, else the pots."""
        return self.room or self.shares


# The room's payments as the PokerStars reader keeps them, in notes (docs/interop.md, "What is kept").
_MONEY = r"\D*?(?P<amount>\d[\d,]*(?:\.\d+)?)"
_CASHED_OUT = re.compile(rf"(?P<player>.+) cashed out the hand for {_MONEY}")
_SPLASHED = re.compile(rf"STP added: {_MONEY}")


def room_money(notes: Iterable[str], options: Mapping[str, str]) -> tuple[dict[str, int], int]:
    """The cash-outs (player -> amount paid) and the splash-the-pot money the hand's notes record,
    as far as the profile counts them (`cash_out`, `splash_the_pot`).

    >>> room_money(["Hero cashed out the hand for $56.99 | Cash Out Fee $0.58", "STP added: €0.50"],
    ...            {"cash_out": "counted", "splash_the_pot": "counted"})
    ({'Hero': 5699}, 50)
    """
    cash_outs: dict[str, int] = {}
    splash = 0
    for note in notes:
        try:
            if options.get("cash_out") == "counted" and (cashed := _CASHED_OUT.match(note)):
                cash_outs[cashed["player"]] = parse_amount(cashed["amount"])
            elif options.get("splash_the_pot") == "counted" and (splashed := _SPLASHED.match(note)):
                splash += parse_amount(splashed["amount"])
        except AmountError:
            continue  # not an amount the model can hold: the note stays a note
    return cash_outs, splash


class _Unknown(ValueError):
    """The record does not say which cards decide a pot."""


def _card_key(card: str) -> tuple[int, int]:
    if card in (JOKER, UNKNOWN_CARD):
        return (-1, -1)
    return (RANKS.index(card[0]), SUITS_BY_RANK.index(card[1]))


def odd_chip_order(table: Table) -> dict[str, int]:
    """§1.4 rule 3: a player's place in the odd-chip order (lower first)."""
    seats = table.seats
    if table.odd_chip == "card":
        ranked = sorted(seats, key=lambda s: max(map(_card_key, s.cards), default=(-1, -1)), reverse=True)
        return {s.name: i for i, s in enumerate(ranked)}
    button = table.button if table.button is not None else 0
    clockwise = sorted(seats, key=lambda s: (s.seat <= button, s.seat))
    return {s.name: i for i, s in enumerate(clockwise)}


# (player, run) -> the player's best hands on that run: what the cards of one table make, kept so
# that the settlement, a settlement without the rake and the check of the players' descriptions
# evaluate each hand once. A run below 0 holds the hands as if nobody had declared (run -1 for
# run 1), in a game where the board is chosen by the declaration.
Known = dict[tuple[str, int], tuple[Portion, ...]]


class _Showdown:
    """The judge of `awarding.award`: the portions of a pot among its eligible players."""

    def __init__(self, table: Table, recorded: bool = True, known: Known | None = None) -> None:
        self.table = table
        self.recorded = recorded
        self.seats = {s.name: s for s in table.seats}
        self.known: Known = {} if known is None else known

    def boards(self, run: int) -> dict[str, tuple[str, ...]]:
        boards = dict(self.table.boards)
        if run > 1:
            boards["1"] = boards.get("1", ())[: self.table.shared] + boards.get(str(run), ())
        return {name: cards for name, cards in boards.items() if not name.isdigit() or name == "1"
                or self.table.runs == 1}

    def dealt(self, run: int) -> tuple[str, ...]:
        """The board cards in the order dealt, as run `run` sees the table: the cards of the other
        runs left out (a board removed stays: it was dealt)."""
        if self.table.runs == 1:  # one run: every board card is the run's
            return self.table.dealt
        used = {c for cards in self.boards(run).values() for c in cards}
        others = {c for cards in self.table.boards.values() for c in cards} - used
        return tuple(c for c in self.table.dealt if c not in others)

    def tabled(self, names: Sequence[str]) -> list[str]:
        """The players whose hands are known. A hand never shown and not in the record cannot win
        (TDA: a hand must be tabled to win); one shown but not readable leaves the recorded pushes
        unchecked, and where nothing was recorded (PHH's `sm ????`) it cannot win either: only a
        hand the record tables can take the pot, as PokerKit plays such a history."""
        known = [n for n in names if self.seats[n].cards and UNKNOWN_CARD not in self.seats[n].cards]
        for name in names:
            if name not in known and self.seats[name].showed and self.recorded:
                raise _Unknown(f"the cards {name} showed are not all in the record")
        if not known:
            raise _Unknown(f"none of {', '.join(names)} showed their cards")
        return known

    def holding(self, name: str) -> Holding:
        seat = self.seats[name]
        split = None
        if seat.split is not None and UNKNOWN_CARD not in seat.split:
            split = (seat.split[:2], seat.split[2:])
        return Holding(seat.cards, frozenset(seat.up), split)

    def best(self, name: str, run: int = 1, as_declared: bool = True) -> tuple[Portion, ...]:
        """The player's best hands on run `run`, evaluated once for all the pots they are in: on
        the boards their declaration plays (`as_declared`), or as if nobody had declared."""
        declared = self.seats[name].declared if as_declared else None
        key = (name, run if as_declared else -run)
        if key not in self.known:
            t, h = self.table, self.holding(name)
            self.known[key] = best_hands(t.game, h.cards + self.neighbours(name), self.boards(run), t.dice,
                                         t.options,
                                         up=h.up, split=h.split, chosen=t.chosen,
                                         dealt=self.dealt(run) or None,  # None: board by board
                                         declared=declared, holes=self.seats[name].hole_count)
        return self.known[key]

    def neighbours(self, name: str) -> tuple[str, ...]:
        """The down cards of another player that `name`'s hand may use (`Game.neighbour`): Tex Mex
        Hold'em (#301 rule 10), "the down cards of the player to your right", the player dealt in
        at the next lower seat (the highest after seat 1). Where the text is silent: a neighbour
        who folded is out of the hand and their cards are dead, so the hand is the player's own
        cards and the board (the next player to the right does not stand in); a neighbour still in
        at the showdown plays their cards for the player to their left whether they show or muck."""
        if ALL_GAMES[self.table.game].neighbour != NEIGHBOUR_RIGHT:
            return ()
        seat = self.seats[name]
        dealt = sorted((s for s in self.table.seats if s.cards), key=lambda s: s.seat)
        right = max((s for s in dealt if s.seat < seat.seat), key=lambda s: s.seat, default=dealt[-1])
        if right.name == name or not (right.contending or right.mucked):
            return ()
        if UNKNOWN_CARD in right.cards:
            raise _Unknown(f"the cards of {right.name}, which {name}'s hand may use, are not all in the "
                           "record")
        return tuple(c for c in right.cards if c not in right.up)

    def hands(self, names: Sequence[str]) -> dict[str, tuple[Portion, ...]]:
        return {name: self.best(name) for name in names}

    def __call__(self, contenders: tuple[str, ...], run: int) -> list[Result]:
        t = self.table
        eligible = self.tabled(contenders)
        if len(eligible) == 1:
            return [Result(None, (eligible[0],))]
        hands = [self.best(name, run) for name in eligible]
        declare = ALL_GAMES[t.game].declare
        if declare is not None and declare.portions:  # the declared hands take the pot (docs/games.md)
            words = [self.seats[name].declared for name in eligible]
            awards = decide_declared(t.game, hands, words,
                                     lambda: [self.best(n, run, False) for n in eligible], chosen=t.chosen)
        else:
            awards = decide(t.game, hands, chosen=t.chosen)
        if not awards:
            return []  # no hand can be made: Oklahoma's cash-game rule, the dealer wins (§2.34)
        one_portion = len(hands[0]) == 1  # a pot won whole needs no portion
        return [
            Result(None if one_portion else a.portion, tuple(eligible[i] for i in a.winners), a.description)
            for a in awards
        ]


def run_hands(table: Table, name: str, known: Known | None = None) -> list[tuple[Portion, ...]]:
    """A player's best hands on each run of the board (one run unless it was run out again);
    ValueError when the record does not give the cards they are made of. `known`: the hands of
    this table evaluated before, which this adds to."""
    judge = _Showdown(table, known=known)
    return [judge.best(name, run) for run in range(1, table.runs + 1)]


def _sevens_offender(table: Table, judge: _Showdown, contenders: Sequence[str]) -> Seat | None:
    """Appendix B: the player who broke the sevens rule with a seven-or-better that is the best
    hand. (Beaten, the breach costs them nothing more than the pot.)"""
    breakers = [s for s in table.seats if s.sevens and s.name in contenders]
    if not breakers or len(contenders) < 2:
        return None
    lows = {name: hands[0].raw for name, hands in judge.hands(judge.tabled(contenders)).items()}
    best = max(lows.values())
    for seat in breakers:
        if lows[seat.name] >= low_floor(7) and lows[seat.name] == best:
            return seat
    return None


def _void_after_draw(table: Table, offender: Seat) -> tuple[dict[str, int], dict[str, int]]:
    """Appendix B: all action after the draw is void. The offender keeps only the pot before the
    draw, and a short all-in bet they just called together with their call of it; every other
    chip put in after the draw goes back to whoever put it in."""
    kind, bettor = offender.sevens or ("checked", None)
    short = next((s.after_draw for s in table.seats if s.name == bettor), 0) if kind == "called" else 0
    live: dict[str, int] = {}
    refunds: dict[str, int] = {}
    for seat in table.seats:
        keep = short if seat.name in (bettor, offender.name) and kind == "called" else 0
        back = max(seat.after_draw - keep, 0)
        live[seat.name] = seat.live - back
        if back:
            refunds[seat.name] = back
    return live, refunds


def settle(table: Table, recorded: bool = True, known: Known | None = None) -> Settlement:
    """The chips the rules push to each player, pot by pot (main pot first); `recorded`: the hand
    has recorded pushes to check (else these are its only result); `known`: the hands of this
    table's cards evaluated before, which this adds to."""
    contenders = [s.name for s in table.seats if s.contending]
    judge = _Showdown(table, recorded, known)
    live = {s.name: s.live for s in table.seats}
    dead = sum(s.dead for s in table.seats)
    refunds: dict[str, int] = {}
    notes: list[tuple[str, str, str]] = []
    try:
        offender = _sevens_offender(table, judge, contenders) if table.sevens_rule else None
        if offender is not None:
            live, refunds = _void_after_draw(table, offender)
            what = "checked" if offender.sevens and offender.sevens[0] == "checked" else \
                "just called a short all-in bet with"
            notes.append(("SEVENS_RULE", f"{offender.name} {what} a seven-or-better after the draw and "
                          "won with it: the action after the draw is void", SEVENS_RULE))
        pots = side_pots(live, dead + table.carried, contenders)
        _take_rake(pots, table.rake, table.options.get("rake", "main_pot_first"))
        place = odd_chip_order(table)
        shares = award(pots, judge, table.unit, lambda names: sorted(names, key=place.__getitem__),
                       table.runs, one_odd_chip_per_pot=table.options.get("odd_chips") != "per_split")
        shown = judge.hands(judge.tabled(contenders)) if len(contenders) > 1 else {}
    except _Unknown as unknown:
        return Settlement((), unchecked=str(unknown))
    guts = ALL_GAMES[table.game].guts if table.game in ALL_GAMES else None
    declared = {s.name: s.declared for s in table.seats if s.declared is not None}
    if guts is not None:
        return guts_settlement(guts, table, contenders, tuple(shares), tuple(pots), shown, declared)
    # The void action is pushed back as one more "pot", after the pots the hand formed.
    returned = [Share(len(pots), name, back, RETURNED) for name, back in refunds.items()]
    pushed = tuple(shares + returned)
    return Settlement(pushed, tuple(pots), shown, tuple(notes), room=_room_payments(pushed, table, len(pots)),
                      declared=declared)


def guts_settlement(guts: Guts, table: Table, contenders: Sequence[str], shares: tuple[Share, ...],
                    pots: tuple[Pot, ...], shown: Mapping[str, tuple[Portion, ...]],
                    declared: Mapping[str, str]) -> Settlement:
    """A guts game's deal (docs/games.md `[guts]`): the contenders are the players who declared in
    (a player out has dropped). Nobody in: the pot is carried to the next deal. Otherwise the best
    hands among them win as in any pot, save that with legs the high hand gets a leg and the pot
    stays until a player's leg is the last one; every player in who won nothing burns."""
    pot = sum(s.live + s.dead for s in table.seats) + table.carried - table.rake
    winners = tuple(dict.fromkeys(s.player for s in shares if s.amount))
    legs: tuple[str, ...] = ()
    if guts.legs and winners:
        legs = winners
        if table.leg < guts.legs:
            shares = ()
    losers = [name for name in dict.fromkeys([*table.went_in, *contenders]) if name not in winners]
    due = burn_due(guts, pot, table.max_bet, table.pot_number)
    carried = pot - sum(s.amount for s in shares)
    return Settlement(shares, pots, shown, declared=declared, carried_out=carried,
                      burns=tuple((n, due) for n in losers), legs=legs)


POT_RAKE = (5, 100)  # PokerStars' rate: 5% of each pot


def _take_rake(pots: list[Pot], rake: int, way: str = "main_pot_first") -> None:
    """The house takes the recorded rake from the main pot first; or (`rake=per_pot`, PokerStars)
    each pot in the order it formed pays 5% of itself, rounded down, until the recorded rake is
    taken, and a rake left over after that comes one chip at a time from the pots whose 5% had the
    largest fractions. (The corpus: 2.47/0.93/0.30 raked 0.12/0.05/0.01 of 0.18; 3.15/3.58 raked
    0.15/0.15 of a 0.30 cap; 581.37/12.42 raked 2.75/0 of a 2.75 cap.) Or (`rake=proportional`,
    Winamax) each side pot pays its share of the rake by its size, rounded down, and the main pot
    the rest (3.56/0.92 raked 0.18/0.04 of 0.22; 9.16/3.12 raked 0.60/0.20 of 0.80)."""
    if way == "proportional" and len(pots) > 1:
        size = sum(pot.amount for pot in pots)
        parts = [rake * pot.amount // size for pot in pots[1:]]
        parts.insert(0, min(rake - sum(parts), pots[0].amount))
        for i, pot in enumerate(pots):
            pots[i] = Pot(pot.index, pot.amount - parts[i], pot.eligible)
        rake -= sum(parts)  # what the main pot could not pay comes from the others, in order
    if way == "per_pot":
        rate, per = POT_RAKE
        shares = [divmod(pot.amount * rate, per) for pot in pots]
        taken: list[int] = []
        for whole, _ in shares:
            taken.append(min(whole, rake - sum(taken)))
        by_fraction = sorted(range(len(pots)), key=lambda i: -shares[i][1])
        while sum(taken) < rake and any(taken[i] < pots[i].amount for i in by_fraction):
            for i in by_fraction:
                if sum(taken) < rake and taken[i] < pots[i].amount:
                    taken[i] += 1
        for i, pot in enumerate(pots):
            pots[i] = Pot(pot.index, pot.amount - taken[i], pot.eligible)
        return
    for i, pot in enumerate(pots):
        taken_here = min(rake, pot.amount)
        pots[i] = Pot(pot.index, pot.amount - taken_here, pot.eligible)
        rake -= taken_here


def _room_payments(shares: tuple[Share, ...], table: Table, pots: int) -> tuple[Share, ...]:
    """What the room paid where it does not pay the pots: a player who cashed out an all-in hand
    gets the cash-out and the site keeps the pots they win (PokerStars' "pot not awarded as player
    cashed out"); splash-the-pot money goes to the main pot's winners in proportion to their shares
    of it, the chips a division leaves over one each in the order they were pushed. Empty when the
    room paid the pots (`cash_out`, `splash_the_pot`: the profile's options)."""
    if not (table.cash_outs or table.splash):
        return ()
    paid = [s for s in shares if s.player not in table.cash_outs]
    main = [i for i, s in enumerate(paid) if s.pot == 0 and s.amount]
    if table.splash and main:
        won = sum(paid[i].amount for i in main)
        extra = [table.splash * paid[i].amount // won for i in main]
        for k in range(table.splash - sum(extra)):
            extra[k % len(main)] += 1
        for i, more in zip(main, extra, strict=True):
            paid.append(Share(0, paid[i].player, more, SPLASH))
    paid += [Share(pots, name, amount, CASH_OUT) for name, amount in table.cash_outs.items()]
    return tuple(paid)
