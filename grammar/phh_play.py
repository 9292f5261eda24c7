"""The steps of a PHH hand read from its `actions` strings, and played into the model's
actions; compiled by mypyc (`pipeline.hot_path`), with `phh_hand` and `phh_toml`.

Reading: `read_steps` reads the strings of the notation `phh_actions.lark` defines with one
regular expression a string, for the strings written the usual way (words apart by spaces or
tabs, no newline, ASCII digits, an amount with at most two decimals).  Anything it does not read,
it leaves to the grammar (`phh_parser.parse_steps`), which stays the judge: of errors, and of the
strings written some other way; it reads nothing the grammar would read otherwise.  Lark's
transformer (`phh_transformer.StepTransformer`) cannot be compiled, its base class being Lark's;
both build their `Step`s with `step_of`.

Playing (`build_actions`): the forced bets the fields imply, the streets (PHH has no street
markers: a board card, a stud card beyond the street's count, a discard after betting or the
last showdown begin them), PHH's "cbr T" as the completion, bet or raise *to* T it is, calls and
checks from "cc", all-in marks, the uncalled bets returned, draws written after their discards,
and a reshuffle where PokerKit dealt from a rebuilt stub.

Heads-up, p1 is the big blind and p2 the button, who posts the small blind and folds:

>>> steps = read_steps(["d dh p1 AhKh", "d dh p2 ????", "p2 f"])
>>> setup = Setup("NT", ("Ann", "Bo"), (1, 2), (10000, 10000), (0, 0), (50, 100))
>>> [(a.kind, a.player, a.amount) for a in build_actions(setup, steps or [])]
[('post', 'Bo', 50), ('post', 'Ann', 100), ('deal', 'Ann', None), ('deal', 'Bo', None),
 ('fold', 'Bo', None), ('return', 'Ann', 50)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from evaluator.catalog import ALL_GAMES, Game, Street
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import UNKNOWN_CARD, Action

# The 11 variant codes of phh-std ("Required Fields") and the game and structure each is here.
PHH_VARIANTS: dict[str, tuple[str, str]] = {
    "FT": ("texas_holdem", "limit"),
    "NT": ("texas_holdem", "no-limit"),
    "NS": ("short_deck_holdem", "no-limit"),
    "PO": ("omaha", "pot-limit"),
    "FO/8": ("omaha_hi_lo", "limit"),
    "F7S": ("stud", "limit"),
    "F7S/8": ("stud_hi_lo", "limit"),
    "FR": ("razz", "limit"),
    "N2L1D": ("deuce_to_seven_lowball", "no-limit"),
    "F2L3D": ("deuce_to_seven_triple_draw", "limit"),
    "FB": ("badugi", "limit"),
}
# 6+ Hold'em with a button blind, which PokerKit plays as "NS" with antes and the only blind on the
# button (the Triton rules): the room game (evaluator.variants.ROOM_VARIANTS), not §2.45's blinds.
BUTTON_BLIND_VARIANT = ("six_plus_holdem", "no-limit")
BUTTON_BLIND_CODE = "NS"
STUD_CODES = frozenset({"F7S", "F7S/8", "FR"})
LIMIT_CODES = frozenset(code for code, (_, structure) in PHH_VARIANTS.items() if structure == "limit")
SHOWDOWN = "showdown"
FLOOR_PREFIX = "Floor:"  # a commentary that is a floor ruling, as the native `Floor:` line
PLAY_VERBS = frozenset({"db", "dh", "pb", "cbr", "cc", "f", "sd"})


@dataclass(frozen=True, slots=True)
class Step:
    """One string of `actions`. `verb` is the notation's ("db", "dh", "pb", "cbr", "cc", "f",
    "sd", "sm") or "" for a commentary alone; `player` the 0-based PHH index of the actor (of
    the player dealt to for "dh"); `amount` the "cbr" total in hundredths; `shown` marks
    "sm -" (show the cards already dealt).  Where the string is, only an error needs: the
    parser finds it then."""

    verb: str
    player: int | None = None
    cards: tuple[str, ...] = ()
    amount: int | None = None
    shown: bool = False
    commentary: str | None = None


@dataclass(frozen=True, slots=True)
class Setup:
    """What the fields say about the table: players in PHH order (the first is left of the
    button, the last on it; stud: left of the dealer), and the forced bets as written
    (positional arrays, reversed for heads-up as the standard says); `button_blind`: the only
    blind is the button's (6+ Hold'em, `BUTTON_BLIND_VARIANT`)."""

    code: str
    names: tuple[str, ...]
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    antes: tuple[int, ...]
    blinds: tuple[int, ...] = ()
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    big_blind_ante: bool = False
    button_blind: bool = False

    @property
    def variant(self) -> str:
        return BUTTON_BLIND_VARIANT[0] if self.button_blind else PHH_VARIANTS[self.code][0]


def button_blind_position(players: int) -> int:
    """The index in `blinds_or_straddles` of the button's blind (heads-up the array is reversed)."""
    return positional(range(players), players).index(players - 1)


def dead_small_blind(blinds: Sequence[int]) -> bool:
    """Whether `blinds_or_straddles` has one blind, on the first player, and none on the second:
    PokerKit's record of a dead small blind (the big blind moved up to the first player left of
    the button, BARGE 2025 §1.1; WSOP 2023 Event 43 hand 76 has it), never heads-up."""
    return len(blinds) > 2 and blinds[0] > 0 and blinds[1] == 0


def positional(values: Sequence[int], players: int) -> tuple[int, ...]:
    """Per-player values from a positional array or back: heads-up, the array is reversed
    (the big blind is p1 and the button p2); the mapping is its own inverse."""
    return tuple(reversed(values)) if players == 2 else tuple(values)


# ---- the action notation --------------------------------------------------------------------

def split_cards(text: str) -> tuple[str, ...]:
    return tuple(text[i:i + 2] for i in range(0, len(text), 2))


def commentary(comment: str) -> str | None:
    """A commentary's text, from the "#" that starts it (None when it says nothing)."""
    return comment[1:].strip() or None


def step_of(verb: str, player: str | None, cards: str | None, amount: int | None, shown: bool,
            comment: str | None) -> Step:
    """A `Step` from the words of one string: `player` as written ("p3"), `cards` as written
    together, `comment` with its "#"."""
    return Step(verb, int(player[1:]) - 1 if player is not None else None,
                split_cards(cards) if cards else (), amount, shown,
                commentary(comment) if comment is not None else None)


# The notation written the usual way: words apart by spaces or tabs (`%ignore` in the grammar),
# each word ended by a space, a commentary or the end, as the grammar's terminals are.
_CARDS = r"(?:[2-9TJQKA][cdhs]|\?\?)+"
_GAP = r"[ \t\r]+"
_STRING = re.compile(
    rf"[ \t\r]*(?:"
    rf"d{_GAP}(?:(?P<db>db){_GAP}(?P<board>{_CARDS})|(?P<dh>dh){_GAP}(?P<dealt>p[1-9][0-9]*){_GAP}(?P<hole>{_CARDS}))"
    rf"|(?P<player>p[1-9][0-9]*){_GAP}(?:"
    rf"(?P<bare>pb|cc|f)"
    rf"|(?P<cbr>cbr){_GAP}(?P<amount>[0-9]+(?:\.[0-9]+)?)"
    rf"|(?P<sd>sd)(?:{_GAP}(?P<discard>{_CARDS}))?"
    rf"|(?P<sm>sm)(?:{_GAP}(?:(?P<shown>{_CARDS})|(?P<dash>-)))?"
    rf"))?(?=[ \t\r#]|\Z)[ \t\r]*(?P<comment>#[^\n]*)?\Z")


# The steps of the strings read: a step is its string's alone, and strings recur from hand to
# hand ("p2 f", "p1 cc", "d db 7h"); emptied when full, to bound it.
_KNOWN: dict[str, Step | None] = {}
KNOWN_LIMIT = 1 << 16


def read_step(text: str) -> Step | None:
    """One string of `actions` when it is written the usual way; None for anything else."""
    if text in _KNOWN:
        return _KNOWN[text]
    if len(_KNOWN) >= KNOWN_LIMIT:
        _KNOWN.clear()
    step = _KNOWN[text] = _read_step(text)
    return step


def _read_step(text: str) -> Step | None:
    match = _STRING.match(text)
    if match is None:
        return None
    player, comment = match["player"], match["comment"]
    if player is None:
        if match["db"] is not None:
            return step_of("db", None, match["board"], None, False, comment)
        if match["dh"] is not None:
            return step_of("dh", match["dealt"], match["hole"], None, False, comment)
        return step_of("", None, None, None, False, comment)
    if match["bare"] is not None:
        return step_of(match["bare"], player, None, None, False, comment)
    if match["cbr"] is not None:
        try:
            amount = parse_amount(match["amount"])
        except AmountError:  # the grammar's reading tells where
            return None
        return step_of("cbr", player, None, amount, False, comment)
    if match["sd"] is not None:
        return step_of("sd", player, match["discard"], None, False, comment)
    return step_of("sm", player, match["shown"], None, match["dash"] is not None, comment)


def read_steps(texts: Sequence[str]) -> list[Step] | None:
    """The `Step`s of all the strings of `actions`; None when one of them is not written the
    usual way (the grammar reads them then)."""
    steps = []
    for text in texts:
        step = read_step(text)
        if step is None:
            return None
        steps.append(step)
    return steps


# ---- playing the steps ----------------------------------------------------------------------

@dataclass(slots=True)
class _Player:
    name: str
    seat: int
    stack: int
    wager: int = 0  # live chips in front of the player on this street
    dealt: int = 0  # cards dealt so far (stud: which street a card belongs to)
    held: list[str] = field(default_factory=list)


class _Play:
    """The walk over the steps: the state PHH leaves implicit and the native model spells out."""

    def __init__(self, setup: Setup, game: Game) -> None:
        self.setup = setup
        self.plan: tuple[Street, ...] = game.streets
        self.stud = setup.code in STUD_CODES
        self.players = [_Player(name, seat, stack)
                        for name, seat, stack in zip(setup.names, setup.seats, setup.stacks, strict=True)]
        self.at = 0  # index of the current street in `plan`
        self.showdown = False
        self.actions: list[Action] = []
        self.board_here = 0  # board cards dealt on this street
        self.discarded: set[int] = set()  # players who discarded on this street
        self.bet_since_discard = False
        self.discard_at: dict[int, int] = {}  # player -> index in `actions` of their discard here
        self.folded: set[int] = set()

    @property
    def street(self) -> str:
        return SHOWDOWN if self.showdown else self.plan[self.at].name

    def emit(self, kind: str, player: int | None = None, amount: int | None = None,
             to_amount: int | None = None, cards: tuple[str, ...] = (), all_in: bool = False,
             detail: str | None = None) -> None:
        name = self.players[player].name if player is not None else None
        self.actions.append(Action(self.street, kind, name, amount, to_amount, cards, all_in, detail))

    # ---- chips ----
    def put_in(self, player: int, amount: int) -> bool:
        """Move chips to the player's wager; whether that left them all-in."""
        p = self.players[player]
        p.stack -= amount
        p.wager += amount
        return p.stack <= 0 and amount > 0

    def top(self) -> int:
        return max(p.wager for p in self.players)

    def close_betting(self) -> None:
        """The street's betting is over: the part of the top wager nobody matched goes back
        (the native "Uncalled bet (A) returned to P"; BARGE 2025 §1.1)."""
        index, first, second = 0, self.players[0].wager, None
        for i in range(1, len(self.players)):
            wager = self.players[i].wager
            if wager > first:
                index, first, second = i, wager, first
            elif second is None or wager > second:
                second = wager
        if second is not None and first > second:
            back = first - second
            self.players[index].stack += back
            self.players[index].wager -= back
            self.emit("return", index, amount=back)

    def advance(self, to: int) -> None:
        if to <= self.at:
            return
        self.close_betting()
        self.at = max(self.at, min(to, len(self.plan) - 1))
        for p in self.players:
            p.wager = 0
        self.board_here = 0
        self.discarded = set()
        self.bet_since_discard = False
        self.discard_at = {}

    # ---- forced bets ----
    def forced(self, stakes_bba: bool) -> None:
        n = len(self.players)
        first = len(self.actions)
        antes = positional(self.setup.antes, n)
        for i in sorted(range(n), key=lambda k: self.players[k].seat):
            amount = min(antes[i], self.players[i].stack)
            if amount > 0:
                all_in = self.put_in(i, amount)
                self.players[i].wager -= amount  # an ante is dead money, no part of the wager
                self.emit("ante", i, amount=amount, all_in=all_in,
                          detail="big_blind_ante" if stakes_bba else "ante")
        if not self.setup.blinds:
            return
        blinds = self.setup.blinds
        to_player = positional(range(n), n)
        kinds = ("big_blind",) if dead_small_blind(blinds) else ("small_blind", "big_blind")
        for position, blind in enumerate(blinds):
            i = to_player[position]
            amount = min(abs(blind), self.players[i].stack)
            if amount <= 0:
                continue  # no blind, or a player all-in on the ante: PokerKit posts nothing
            detail = "button_blind" if self.setup.button_blind else "big_blind" if blind < 0 else \
                kinds[position] if position < len(kinds) else "straddle"
            self.emit("post", i, amount=amount, all_in=self.put_in(i, amount), detail=detail)
        if self.setup.button_blind and len(self.actions) > first:
            # The button blind stands before the antes, as PokerStars writes it (the amounts are
            # PokerKit's: antes first).
            self.actions.insert(first, self.actions.pop())

    # ---- the steps ----
    def step(self, step: Step, final_show: bool) -> None:
        verb = step.verb
        if verb in ("pb", "cbr", "cc", "f"):
            self.bet_since_discard = bool(self.discarded)
            if verb == "cc":
                self.on_cc(step)
            elif verb == "cbr":
                self.on_cbr(step)
            elif verb == "f":
                self.on_f(step)
            else:
                self.on_pb(step)
        elif verb == "db":
            self.on_board(step)
        elif verb == "dh":
            self.on_hole(step)
        elif verb == "sd":
            self.on_discard(step)
        elif verb == "sm":
            self.on_show(step, final_show)
        if step.commentary is not None and not (verb == "sm" and (step.cards or step.shown)):
            text = step.commentary
            if text.startswith(FLOOR_PREFIX):
                self.emit("ruling", detail=text[len(FLOOR_PREFIX):].strip())
            else:
                self.emit("note", detail=text)

    def on_pb(self, step: Step) -> None:
        assert step.player is not None
        amount = min(self.setup.bring_in or 0, self.players[step.player].stack)
        self.emit("bring_in", step.player, amount=amount, all_in=self.put_in(step.player, amount))

    def on_cbr(self, step: Step) -> None:
        assert step.player is not None and step.amount is not None
        i, target = step.player, step.amount
        p = self.players[i]
        top, before = self.top(), p.wager
        completing = self.stud and self.at == 0 and top < (self.setup.small_bet or 0)
        all_in = self.put_in(i, target - before)
        if completing:
            self.emit("complete", i, to_amount=target, all_in=all_in)
        elif top == 0:
            self.emit("bet", i, amount=target - before, all_in=all_in)
        else:
            self.emit("raise", i, amount=target - top, to_amount=target, all_in=all_in)

    def on_cc(self, step: Step) -> None:
        assert step.player is not None
        p = self.players[step.player]
        owed = min(self.top() - p.wager, p.stack)
        if owed <= 0:
            self.emit("check", step.player)
        else:
            self.emit("call", step.player, amount=owed, all_in=self.put_in(step.player, owed))

    def on_f(self, step: Step) -> None:
        assert step.player is not None
        self.folded.add(step.player)
        self.emit("fold", step.player)

    def uncalled(self) -> bool:
        """Whether the top wager can no longer be called: everyone else has folded or is all-in.
        A record that stops while someone could still call it is cut off, not uncalled."""
        top = max(range(len(self.players)), key=lambda i: self.players[i].wager)
        return all(i in self.folded or p.stack <= 0 for i, p in enumerate(self.players) if i != top)

    def on_board(self, step: Step) -> None:
        expected = dict(self.plan[self.at].boards).get("1", 0)
        if not expected or self.board_here >= expected:
            following = [k for k in range(self.at + 1, len(self.plan)) if dict(self.plan[k].boards)]
            self.advance(following[0] if following else self.at + 1)
        self.board_here += len(step.cards)
        # Stud has no board: a card in the middle is the common card of a stub too short to give
        # every player one (cardroom procedures, stud).
        self.emit("board", cards=step.cards, detail="common" if self.stud else "1")

    def on_hole(self, step: Step) -> None:
        assert step.player is not None
        i = step.player
        p = self.players[i]
        if self.plan[self.at].draw is not None:
            self.on_draw(i, step.cards)
            return
        if not self.stud:
            p.dealt += len(step.cards)
            p.held.extend(step.cards)
            self.emit("deal", i, cards=step.cards, detail="down")
            return
        groups: list[tuple[int, str, list[str]]] = []
        for card in step.cards:
            where, face = self.stud_position(p.dealt)
            p.dealt += 1
            if groups and groups[-1][:2] == (where, face):
                groups[-1][2].append(card)
            else:
                groups.append((where, face, [card]))
        for where, face, cards in groups:
            self.advance(where)
            p.held.extend(cards)
            self.emit("deal", i, cards=tuple(cards), detail=face)

    def stud_position(self, index: int) -> tuple[int, str]:
        """The street of a player's `index`th card (0-based) and whether it is dealt down or up."""
        before = 0
        for k, spec in enumerate(self.plan):
            count = spec.down + spec.up
            if index < before + count:
                return k, ("down" if index - before < spec.down else "up")
            before += count
        return len(self.plan) - 1, "down"

    def on_draw(self, i: int, cards: tuple[str, ...]) -> None:
        """The cards replacing a discard: written right after the player's discard, as the
        native "discards [..] and draws [..]" (PHH writes every discard of the round first)."""
        p = self.players[i]
        p.held.extend(cards)
        action = Action(self.street, "draw", p.name, cards=cards)
        where = self.discard_at.get(i)
        at = len(self.actions) if where is None else where + 1
        # PokerKit may deal a draw one card an action ('d dh p2 Qh', 'd dh p2 8c'): one draw.
        drawn = at - 1 if where is None else at
        if 0 <= drawn < len(self.actions) and (self.actions[drawn].kind, self.actions[drawn].player,
                                               self.actions[drawn].street) == ("draw", p.name, self.street):
            before = self.actions[drawn]
            self.actions[drawn] = replace(before, cards=before.cards + cards)
            return
        if where is None:
            self.actions.append(action)
            return
        self.actions.insert(at, action)
        for k, index in self.discard_at.items():
            if index >= at:
                self.discard_at[k] = index + 1

    def on_discard(self, step: Step) -> None:
        assert step.player is not None
        i = step.player
        spec = self.plan[self.at]
        if spec.draw is None or i in self.discarded or self.bet_since_discard:
            self.advance(self.next_draw())
        p = self.players[i]
        for card in step.cards:
            if card in p.held:
                p.held.remove(card)
            elif UNKNOWN_CARD in p.held:
                p.held.remove(UNKNOWN_CARD)
        self.discarded.add(i)
        self.discard_at[i] = len(self.actions)
        if step.cards:
            self.emit("discard", i, cards=step.cards)
        else:
            self.emit("stand_pat", i)

    def next_draw(self) -> int:
        following = [k for k in range(self.at + 1, len(self.plan)) if self.plan[k].draw is not None]
        return following[0] if following else self.at + 1

    def on_show(self, step: Step, final_show: bool) -> None:
        assert step.player is not None
        self.close_betting()  # cards are shown once the betting is over
        if final_show:
            self.showdown = True
        p = self.players[step.player]
        if step.shown:
            self.emit("show", step.player, cards=tuple(p.held), detail=step.commentary)
        elif step.cards:
            self.emit("show", step.player, cards=step.cards, detail=step.commentary)
        else:
            self.emit("muck", step.player)


def _reshuffles(actions: list[Action], deck_size: int) -> list[Action]:
    """Insert `Dealer: reshuffles the discards` before the first card dealt from a rebuilt stub.

    PokerKit, out of cards, deals from the muck and the discards (a card seen before), and the
    replay engine counts the cards dealt against the deck: the walk below follows the engine's
    bookkeeping (evaluator.replay: a reshuffle returns the discards, unseen ones included, and
    the folded hands).  A draw's reshuffle comes before the player's discard, as a dealer
    shuffles before serving the player (and the native "discards [..] and draws [..]" is one line).
    """
    if not _may_reshuffle(actions, deck_size):
        return actions
    out: list[Action] = []
    where: dict[str, str] = {}
    gone: set[str] = set()
    dealt, stub, unseen = 0, deck_size, 0
    def paired(draw: int) -> bool:
        """Whether `actions[draw]` is a draw right after the same player's discard."""
        return (0 < draw < len(actions) and actions[draw].kind == "draw"
                and (actions[draw - 1].kind, actions[draw - 1].player) == ("discard", actions[draw].player))

    for k, action in enumerate(actions):
        kind, player = action.kind, action.player
        dealing = None
        if kind in ("deal", "board") or (kind == "draw" and not paired(k)):
            dealing = action
        elif kind == "discard" and paired(k + 1):
            dealing = actions[k + 1]  # judged before the discard it replaces
        if dealing is not None:
            known = [c for c in dealing.cards if c != UNKNOWN_CARD]
            seen = any(where.get(c) == "discards" or where.get(c) in gone for c in known)
            # Only a card seen before, or a stub run short, can call for a reshuffle.
            back = ([c for c, holder in where.items() if holder == "discards" or holder in gone]
                    if seen or dealt + len(dealing.cards) > stub else [])
            if (back or unseen) and (seen or dealt + len(dealing.cards) > stub):
                for card in back:
                    del where[card]
                stub += len(back) + unseen
                unseen = 0
                out.append(Action(action.street, "reshuffle", None))
        if kind in ("deal", "draw", "board"):
            dealt += len(action.cards)
            for card in action.cards:
                if card != UNKNOWN_CARD:
                    where[card] = player if player is not None else "board"
        elif kind == "discard" and player is not None:
            for card in action.cards:
                if card == UNKNOWN_CARD:
                    unseen += 1
                else:
                    where[card] = "discards"
        elif kind in ("fold", "muck") and player is not None:
            gone.add(player)
        out.append(action)
    return out


def _may_reshuffle(actions: list[Action], deck_size: int) -> bool:
    """Whether `_reshuffles` may find a reshuffle: only a discard, a card dealt twice or more
    cards dealt than the deck holds can call for one (most hands have none of these)."""
    dealt: set[str] = set()
    count = 0
    for action in actions:
        kind = action.kind
        if kind == "discard":
            return True
        if kind == "deal" or kind == "draw" or kind == "board":
            count += len(action.cards)
            for card in action.cards:
                if card != UNKNOWN_CARD:
                    if card in dealt:
                        return True
                    dealt.add(card)
    return count > deck_size


def build_actions(setup: Setup, steps: Sequence[Step], big_blind_ante: bool = False,
                  deck_size: int | None = None) -> list[Action]:
    """The model's actions for PHH `steps` at the table `setup` describes."""
    game = ALL_GAMES[setup.variant]
    play = _Play(setup, game)
    # Commentary before the first action stands before the forced bets, as a native record's
    # notes stand before the posts.
    leading = next((k for k, s in enumerate(steps) if s.verb), len(steps))
    for step in steps[:leading]:
        play.step(step, final_show=False)
    play.forced(big_blind_ante)
    last_play = max((k for k, s in enumerate(steps) if s.verb in PLAY_VERBS), default=-1)
    # A showdown needs two players left in: a hand shown after the others folded stays on its street.
    contested = len(setup.names) - len({s.player for s in steps if s.verb == "f"}) > 1
    for k, step in enumerate(steps[leading:], leading):
        play.step(step, final_show=contested and k > last_play)
    if not play.showdown and play.uncalled():
        play.close_betting()
    return _reshuffles(play.actions, deck_size or game.deck.size)
