"""Reads iPoker's XML hand histories (docs/interop.md (iPoker)): a file's hand blocks, and one block
into a `Hand`.

An iPoker file holds sessions, `<session sessioncode=...>`, each a `<general>` header (the game,
stakes, table, currency, tournament) and its hands, one `<game gamecode=...>` each; files join
sessions without a root element, each behind its own XML declaration. A block is one `<game>`
element as the file writes it, followed by its session's header: the hand cannot be read without
it, and so the stored text is whole. The XML is read by expat (`grammar.ipoker_xml`), never by a
grammar, and every error is located in the file.

>>> blocks = list(split_ipoker(EXAMPLE.splitlines(keepends=True)))
>>> [(b.line, b.text.splitlines()[0]) for b in blocks]
[(9, '<game gamecode="77">')]
>>> hand = parse_ipoker(blocks[0].text)
>>> hand.hand_id, hand.variant, hand.structure, hand.site, hand.currency, hand.stakes.big_blind
('IP-77', 'texas_holdem', 'no-limit', 'iPoker', 'USD', 2)
>>> [(a.kind, a.player, a.amount) for a in hand.actions]
[('post', 'Bo', 1), ('post', 'Ann', 2), ('deal', 'Ann', None), ('raise', 'Bo', 4), ('fold', 'Ann', None), \
('return', 'Bo', 4)]
>>> hand.awards, hand.rake
((Award(player='Bo', amount=4, pot=0, portion=None),), 0)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime

from evaluator.catalog import ALL_GAMES
from evaluator.ending import unfinished
from grammar.errors import HandSyntaxError
from grammar.ipoker_xml import CUT_OFF, Node, read_document
from grammar.pokerstars_games import omaha_by_hole_cards
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import PLAY_MONEY, UNKNOWN_CARD, Action, Award, Hand, Seat, Stakes
from pipeline.sources import Block

SITE = "iPoker"
PREFIX = "IP"
PROFILE = "ipoker"  # the rules profile of iPoker's games (evaluator/profiles.py)
SHOWDOWN = "showdown"

EXAMPLE = """\
<?xml version="1.0" encoding="utf-8"?>
<session sessioncode="1">
 <general>
  <mode>real</mode>
  <gametype>Holdem NL $0.01/$0.02</gametype>
  <tablename>Ajaccio, 486280776</tablename>
  <currency>USD</currency><nickname>Ann</nickname>
 </general>
<game gamecode="77">
 <general><startdate>2017-01-23 22:27:48</startdate><players>
  <player seat="1" name="Ann" chips="$2" dealer="0" win="$0" bet="$0.02"/>
  <player seat="2" name="Bo" chips="$3" dealer="1" win="$0.08" bet="$0.06"/>
 </players></general>
 <round no="0">
  <action no="1" player="Bo" type="1" sum="$0.01"/><action no="2" player="Ann" type="2" sum="$0.02"/>
 </round>
 <round no="1">
  <cards type="Pocket" player="Ann">H8 C10</cards><cards type="Pocket" player="Bo">X X</cards>
  <action no="3" player="Bo" type="23" sum="$0.06"/><action no="4" player="Ann" type="0" sum="$0"/>
 </round>
</game>
</session>
"""

_SESSION = re.compile(r"<session\b")
_GAME = re.compile(r"<game\b")
_MARKS = re.compile(r"<session\b|</general>|<game\b|</game>")

# iPoker's game words -> catalog ids (docs/interop.md (iPoker), "Games"); Omaha by its hole cards.
GAMES = {
    "holdem": "texas_holdem", "omaha": "omaha", "omaha hi-lo": "omaha_hi_lo", "omaha hilow": "omaha_hi_lo",
    "7 card stud": "stud", "7 card stud hi-lo": "stud_hi_lo", "7 card stud hilow": "stud_hi_lo",
    "5 card stud": "five_card_stud", "six plus holdem": "short_deck_holdem",
}  # fmt: skip
# Structures: "SL" is the Spanish client's no-limit (sin límite), "LP" its pot limit.
STRUCTURES = {"nl": "no-limit", "sl": "no-limit", "lz": "no-limit", "бл": "no-limit", "no limit": "no-limit",
              "pl": "pot-limit", "lp": "pot-limit", "pot limit": "pot-limit", "l": "limit", "limit": "limit"}
_GAMETYPE = re.compile(r"(?P<lh>LH [\d.,]+/[\d.,]+ x2 )?(?P<game>.*?)\s*\b"
                       r"(?P<limit>NL|SL|LZ|БЛ|PL|LP|L|No limit|Pot limit|Limit)"
                       r"(?:\s+(?P<stakes>\S+/\S+))?\s*$", re.I)
SYMBOLS = {"$": "USD", "\u20ac": "EUR", "\u00a3": "GBP"}
_AMOUNT = re.compile(r"\s*(?P<before>[^\d\s]*)\s*(?P<number>\d[\d,]*(?:\.\d+)?)\s*(?P<after>[^\d\s]*)\s*")
_TRAILING_NUMBER = re.compile(r"(\d+)\)?\s*$")
_DATES = ("%Y-%m-%d %H:%M:%S", "%d-%b-%Y %H:%M:%S", "%Y/%m/%d %H:%M:%S")
_SUITS = {"S": "s", "H": "h", "D": "d", "C": "c"}

# Action types (`<action type=...>`): what `sum` holds is said with each in `_Builder._action`.
FOLD, SMALL_BLIND, BIG_BLIND, CALL, CHECK, BET, RAISE_BY, ALL_IN = 0, 1, 2, 3, 4, 5, 6, 7
SITS_OUT, SITS_OUT_AFTER, ANTE, BRING_IN, RAISE_TO = 8, 9, 15, 16, 23
KNOWN_TYPES = frozenset({FOLD, SMALL_BLIND, BIG_BLIND, CALL, CHECK, BET, RAISE_BY, ALL_IN, SITS_OUT,
                         SITS_OUT_AFTER, ANTE, BRING_IN, RAISE_TO})
_WAGERS = frozenset({"post", "bring_in", "complete", "bet", "call", "raise"})


def sniff(head: str) -> bool:
    """An iPoker history: a session element within its first lines."""
    top = "\n".join(head.lstrip("\ufeff").splitlines()[:5])
    return _SESSION.search(top) is not None and "sessioncode=" in top


@dataclass(slots=True)
class _Splitter:
    """Cuts a file's lines into game blocks, carrying the session header to each."""

    header: list[str] = field(default_factory=list)
    in_header: bool = False
    game: list[str] | None = None
    start: int = 0

    def feed(self, number: int, line: str) -> Iterator[Block]:
        header_line: str | None = None
        game_line: str | None = None
        cut = 0  # text before `cut` on this line belongs to what came before
        spans: list[tuple[int, int, str]] = []  # (start, end, target) pieces of the line
        for mark in _MARKS.finditer(line):
            word = mark.group(0)
            if word == "<session" and self.game is None:
                spans.append((cut, mark.start(), "skip"))
                self.header, self.in_header, cut = [], True, mark.start()
            elif word == "</general>" and self.in_header:
                spans.append((cut, mark.end(), "header"))
                self.in_header, cut = False, mark.end()
            elif word == "<game":
                spans.append((cut, mark.start(), "game" if self.game is not None else "skip"))
                if self.game is not None:
                    yield from self._flush(game_line)
                    game_line = None
                self.game, self.start, cut = [], number, mark.start()
            elif word == "</game>" and self.game is not None:
                spans.append((cut, mark.end(), "game"))
                cut = mark.end()
                game_line = self._piece(game_line, line, spans[-1])
                yield from self._flush(game_line)
                game_line = None
                spans.clear()
        rest = "header" if self.in_header else "game" if self.game is not None else "skip"
        spans.append((cut, len(line), rest))
        for span in spans:
            if span[2] == "header":
                header_line = self._piece(header_line, line, span)
            elif span[2] == "game":
                game_line = self._piece(game_line, line, span)
        if header_line is not None:
            self.header.append(header_line)
        if game_line is not None and self.game is not None:
            self.game.append(game_line)

    @staticmethod
    def _piece(kept: str | None, line: str, span: tuple[int, int, str]) -> str:
        """The line with what is not the target's blanked out before it (columns stay as in the file)."""
        start, end, _ = span
        base = kept if kept is not None else " " * start
        return (base + " " * (start - len(base)) + line[start:end]).rstrip()

    def _flush(self, last: str | None) -> Iterator[Block]:
        if self.game is None:
            return
        lines = self.game + ([last] if last is not None else [])
        self.game = None
        yield Block(self.start, "\n".join(lines + self.header) + "\n")

    def finish(self) -> Iterator[Block]:
        yield from self._flush(None)


def split_ipoker(lines: Iterable[str]) -> Iterator[Block]:
    """One block per `<game>`: its lines (what shares a line with it blanked out), then the header of
    the session it is in. A game the file cuts off ends at the next game or at the end of the file."""
    splitter = _Splitter()
    for number, raw in enumerate(lines, 1):
        yield from splitter.feed(number, raw.rstrip("\r\n").lstrip("\ufeff"))
    yield from splitter.finish()


def card(text: str) -> str:
    """iPoker's card, suit first ("SK", "H10"), in the model's notation; "X" is a card not seen.

    >>> card("SK"), card("H10"), card("X"), card("x")
    ('Ks', 'Th', '??', '??')
    """
    if text.upper() == "X":
        return UNKNOWN_CARD
    rank = text[1:].upper()
    return ("T" if rank == "10" else rank) + _SUITS[text[0].upper()]


def money(text: str) -> tuple[int, str]:
    """An amount as iPoker writes it ("€1,013.50", "RSD2", "12,345") and the symbol or code around it.

    >>> money("€1,013.50"), money("RSD2"), money("12,345"), money("Pts 11.00")
    ((101350, '€'), (200, 'RSD'), (1234500, ''), (1100, 'Pts'))
    """
    found = _AMOUNT.fullmatch(text)
    if found is None:
        raise ValueError(text)
    return parse_amount(found.group("number").replace(",", "")), found.group("before") or found.group("after")


@dataclass(frozen=True, slots=True)
class Session:
    """What a session's header says about its hands."""

    fields: dict[str, str]
    node: Node

    def get(self, tag: str) -> str:
        return self.fields.get(tag, "")


def _session(root: Node) -> Session:
    general = root.find("general")
    if general is None:
        raise HandSyntaxError("the session has no <general> header", root.line, root.column, ("<general>",))
    return Session({child.tag: child.text for child in general.children}, general)


def parse_ipoker(text: str) -> Hand:
    """One block (a `<game>` and its session's header) into a hand; line numbers in errors count
    from the block's first line, the game's start tag."""
    at = text.find("<session")
    if at < 0:
        raise HandSyntaxError("no session header: the game is not inside a <session> (expected the "
                              "session's <general>)", 1, 1, ("<session>",))
    game_text = text[:at]
    header_lines = game_text.count("\n")
    try:
        header = read_document(text[at:].rstrip() + "</session>").root
    except HandSyntaxError as exc:
        raise exc.shifted(header_lines) from None
    game = read_document(game_text.rstrip())
    if game.root.tag != "game":
        raise HandSyntaxError(f"unexpected <{game.root.tag}>", game.root.line, game.root.column, ("<game>",))
    builder = _Builder(_session(header), game.root, header_lines)
    hand = builder.hand()
    if game.unclosed:
        # The file stops where </game> was due (fpdb's samples cut so): whole if the play is over,
        # judged on the play as recorded (the returns and the showdown are the reader's, written as
        # if the hand were over).
        why = unfinished(replace(hand, awards=(), actions=builder.recorded))
        lines = game_text.rstrip().split("\n")
        if why is not None:
            raise HandSyntaxError(f"{CUT_OFF}: the record ends before </game> ({why})", len(lines),
                                  len(lines[-1]) + 1, ("</game>",))
        note = Action(hand.actions[0].street, "note", None,
                      detail="the record ends without </game> after its last round")
        hand = replace(hand, actions=(note, *hand.actions))
    return hand


@dataclass(slots=True)
class _Player:
    seat: int
    name: str
    stack: int
    win: int
    dealt: bool = False  # cards came to the player, or they played beyond an ante
    sat_out: bool = False  # said to sit out (types 8 and 9)
    left: int = 0
    folded: bool = False


@dataclass(slots=True)
class _Builder:
    """Builds the hand: the header's game, the seats, then the rounds in order."""

    session: Session
    game: Node
    header_line: int
    variant: str = ""
    streets: tuple[str, ...] = ()
    stud: bool = False
    players: dict[str, _Player] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    bets: Counter[str] = field(default_factory=Counter)  # live chips of the street, by player
    put_in: Counter[str] = field(default_factory=Counter)  # chips put in over the hand
    cards: dict[str, list[str]] = field(default_factory=dict)  # every card dealt to a player, in order
    big_blind: int | None = None
    street: str = ""  # the street of the round being read
    recorded: tuple[Action, ...] = ()  # the play as the record writes it, before the reader's additions

    def fail(self, node: Node, message: str, expected: tuple[str, ...] = ()) -> HandSyntaxError:
        return HandSyntaxError(message, node.line, node.column, expected)

    def header_fail(self, tag: str, message: str) -> HandSyntaxError:
        """An error in the session header, at its element (the header follows the game in the block)."""
        node = next((c for c in self.session.node.children if c.tag == tag), self.session.node)
        return HandSyntaxError(message, node.line + self.header_line, node.column)

    # ---- the header ----
    def _game_words(self) -> tuple[str, str, tuple[int, int] | None]:
        written = self.session.get("gametype")
        found = _GAMETYPE.fullmatch(written)
        if found is None:
            raise self.header_fail("gametype", f"unknown game type '{written}' (expected a game and a limit "
                                   "such as 'Holdem NL $0.01/$0.02')")
        name = "holdem" if found.group("lh") else " ".join(found.group("game").lower().split())
        variant = GAMES.get(name)
        if variant is None:
            raise self.header_fail("gametype", f"unknown game '{found.group('game')}' in '{written}' "
                                   "(docs/interop.md (iPoker) lists the games)")
        pair = None
        if found.group("stakes"):
            try:
                low, high = (money(part)[0] for part in found.group("stakes").split("/"))
                pair = (low, high)
            except (ValueError, AmountError):
                pair = None
        return variant, STRUCTURES[found.group("limit").lower()], pair

    def _currency(self) -> str | None:
        """A cash game's: the table's currency (the account's `<currency>` may differ); play money in
        play mode. A tournament's: its buy-in's, none for one bought in with points."""
        if self.session.get("mode") and self.session.get("mode") != "real":
            return PLAY_MONEY
        if not self._tournament():
            return self.session.get("tablecurrency") or self.session.get("currency") or None
        buy_in = self.session.get("buyin")
        if buy_in:
            try:
                symbol = money(buy_in.split("+")[0])[1]
            except (ValueError, AmountError):
                return None
            return SYMBOLS.get(symbol) or (symbol if re.fullmatch(r"[A-Z]{3}", symbol) else None)
        return self.session.get("tournamentcurrency") or None

    def _tournament(self) -> str | None:
        """The tournament's number: `<tournamentcode>`, else the number that ends the table's name."""
        if self.session.get("tournamentcode"):
            return self.session.get("tournamentcode")
        if not self.session.get("tournamentname") and not self.session.get("buyin"):
            return None
        found = _TRAILING_NUMBER.search(self.session.get("tablename"))
        return found.group(1) if found else self.session.get("tournamentname") or None

    # ---- the hand ----
    def hand(self) -> Hand:
        variant, structure, pair = self._game_words()
        general = self.game.find("general")
        players = general.find("players") if general is not None else None
        if general is None or players is None:
            raise self.fail(self.game, "the game has no players", ("<general><players>",))
        seats = self._seats(players)
        rounds = sorted(self.game.all("round"), key=lambda r: _int(r.attrs.get("no", "0")))
        if not any(r.all("action") for r in rounds):
            raise self.fail(self.game, f"{CUT_OFF}: no action of the hand is written (its rounds are empty)",
                            ("<action>",))
        hole = next((len(c.text.split()) for r in rounds for c in r.all("cards")
                     if c.attrs.get("type") == "Pocket"), 0)
        self.variant = omaha_by_hole_cards(variant, hole)
        game = ALL_GAMES[self.variant]
        self.streets = tuple(s.name for s in game.streets)
        self.stud = any(s.up for s in game.streets)
        self.big_blind = pair[1] if pair and structure != "limit" else None
        for round_ in rounds:
            self._round(round_)
        self.recorded = tuple(self.actions)
        returned = self._return()
        self._showdown()
        awards = self._awards(returned)
        tournament = self._tournament()
        pot = sum(self.put_in.values()) - sum(a.amount or 0 for a in self.actions if a.kind == "return")
        dealt = {name for name, p in self.players.items() if p.dealt}
        button = next((s.number for s, node in seats if node.attrs.get("dealer") == "1"), None)
        notes = []
        if button is None and not self.stud:
            button = self._button_before_small_blind(dealt)
            if button is not None:
                notes.append(Action(self.streets[0], "note", None, detail="no seat is marked dealer: the "
                                    "button is the seat dealt in before the small blind's"))
        return Hand(
            hand_id=f"{PREFIX}-{self.game.attrs.get('gamecode', '')}", variant=self.variant,
            structure=structure, stakes=self._stakes(structure, pair),
            seats=tuple(Seat(s.number, s.player, s.stack, sitting_out=s.player not in dealt)
                        for s, _ in seats),
            actions=tuple(notes + self.actions), awards=tuple(awards),
            started_at=_date(general.find("startdate")), event=self._event(tournament),
            # A tournament's <tablename> is the tournament's name and number, whatever table Hero
            # is moved to (IP-3869372100): the table is not named.
            tournament=tournament, table_name=None if tournament else self.session.get("tablename") or None,
            button_seat=None if self.stud else button,
            rake=None if tournament else pot - sum(a.amount for a in awards),
            rules_profile=PROFILE, site=SITE, currency=self._currency(),
        )

    def _button_before_small_blind(self, dealt: set[str]) -> int | None:
        """The seat dealt in just before the small blind's, counter-clockwise (heads-up: its own)."""
        poster = next((a.player for a in self.actions if a.kind == "post" and a.detail == "small_blind"),
                      None)
        if poster is None:
            return None
        seats = sorted(p.seat for name, p in self.players.items() if name in dealt)
        small = self.players[poster].seat
        if len(seats) == 2:
            return small
        before = [seat for seat in seats if seat < small]
        return (before or seats)[-1]

    def _event(self, tournament: str | None) -> str:
        parts = [SITE]
        if tournament:
            parts += [w for w in (self.session.get("tournamentname"), self.session.get("buyin")) if w]
        elif self._currency():
            parts.append(self._currency() or "")
        return ", ".join(parts)

    def _seats(self, players: Node) -> list[tuple[Seat, Node]]:
        seats = []
        for node in players.all("player"):
            name = node.attrs.get("name", "")
            if not name:
                continue  # an empty seat
            try:
                stack, win = money(node.attrs.get("chips", "0"))[0], money(node.attrs.get("win", "0"))[0]
                number = int(node.attrs.get("seat", ""))
            except (ValueError, AmountError):
                raise self.fail(node, f"cannot read the seat of '{name}' (expected a seat number, chips and "
                                "win amounts)") from None
            if name in self.players:
                raise self.fail(node, f"player '{name}' is seated twice")
            self.players[name] = _Player(number, name, stack, win, left=stack)
            seats.append((Seat(number, name, stack), node))
        return seats

    def _street(self, round_: Node) -> str:
        number = _int(round_.attrs.get("no", "0"))
        # Round 0 holds the forced bets, round 1 the first deal (stud: round 2, the third street).
        index = max(number - (2 if self.stud else 1), 0)
        if index >= len(self.streets):
            raise self.fail(round_, f"round {number} is beyond the game's last street")
        return self.streets[index]

    def _round(self, round_: Node) -> None:
        street = self._street(round_)
        if street != self.street:  # a new betting round: nobody has a live bet in it yet
            self.bets.clear()
            self.street = street
        for node in round_.all("cards"):
            self._cards(street, node)
        for node in sorted(round_.all("action"), key=lambda a: _int(a.attrs.get("no", "0"))):
            self._action(street, node)

    def _cards(self, street: str, node: Node) -> None:
        try:
            cards = tuple(card(c) for c in node.text.split())
        except (KeyError, IndexError):
            raise self.fail(node, f"cannot read the cards '{node.text}' (expected cards such as SK H10, "
                            "or X)") from None
        owner = node.attrs.get("player", "")
        if not owner:  # a board card
            if cards:
                self.actions.append(Action(street, "board", None, cards=cards, detail="1"))
            return
        player = self._seated(node, owner)
        player.dealt = True
        spec = ALL_GAMES[self.variant].streets[self.streets.index(street)]
        self.cards.setdefault(owner, []).extend(cards)
        if spec.up and len(cards) == spec.down + spec.up:
            down, up = cards[: spec.down], cards[spec.down:]
            if down:
                self.actions.append(Action(street, "deal", owner, cards=down, detail="down"))
            self.actions.append(Action(street, "deal", owner, cards=up, detail="up"))
        elif any(c != UNKNOWN_CARD for c in cards) or self.stud:
            self.actions.append(Action(street, "deal", owner, cards=cards,
                                       detail="up" if spec.up else "down"))

    def _seated(self, node: Node, name: str) -> _Player:
        player = self.players.get(name)
        if player is None:
            raise self.fail(node, f"'{name}' is not seated in this hand")
        return player

    def _action(self, street: str, node: Node) -> None:
        player = self._seated(node, node.attrs.get("player", ""))
        try:
            kind = int(node.attrs.get("type", ""))
            amount = money(node.attrs.get("sum", "0"))[0]
        except (ValueError, AmountError):
            raise self.fail(node, f"cannot read the action {node.opening()} (expected a type and a "
                            "sum)") from None
        if kind not in KNOWN_TYPES:
            raise self.fail(node, f"unknown action type {kind}", tuple(str(k) for k in sorted(KNOWN_TYPES)))
        name = player.name
        top = max(self.bets.values(), default=0)
        if kind in (SITS_OUT, SITS_OUT_AFTER):
            player.sat_out = True  # not dealt in, or away after the ante: seated, sitting out
            return
        if kind != ANTE and not player.sat_out:
            player.dealt = True  # a blind's poster is dealt in even where the record stops before the deal
        if kind == FOLD:
            player.folded = True
            self._add(Action(street, "fold", name))
        elif kind == CHECK:
            self._add(Action(street, "check", name))
        elif kind == ANTE:
            self._put(player, amount, live=False)
            self._add(Action(street, "ante", name, amount, all_in=player.left == 0, detail="ante"))
        elif kind == SMALL_BLIND:
            self._put(player, amount)
            self._add(Action(street, "post", name, amount, all_in=player.left == 0, detail="small_blind"))
        elif kind == BIG_BLIND:
            self._big_blind(street, player, amount)
        elif kind == BRING_IN:
            self._put(player, amount)
            self._add(Action(street, "bring_in", name, amount, all_in=player.left == 0))
        elif kind == CALL:
            self._put(player, amount)
            self._add(Action(street, "call", name, amount, all_in=player.left == 0))
        else:
            # Bets and raises: "raise to" (23) gives the player's total on the street; a bet (5), a raise
            # (6) and an all-in (7) give the chips put in now.
            total = amount if kind == RAISE_TO else self.bets[name] + amount
            self._wager(street, player, total, top, kind)

    def _wager(self, street: str, player: _Player, total: int, top: int, kind: int) -> None:
        name = player.name
        chips = total - self.bets[name]
        self._put(player, chips)
        all_in = player.left == 0
        if kind == ALL_IN and total <= top:  # all-in for no more than the bet: a call
            self._add(Action(street, "call", name, chips, all_in=True))
        elif top == 0:
            self._add(Action(street, "bet", name, total, all_in=all_in))
        elif self.stud and street == self.streets[0] and not any(
                a.kind in ("complete", "bet", "raise") and a.street == street for a in self.actions):
            # the first full bet over the bring-in
            self._add(Action(street, "complete", name, total - top, total, all_in=all_in))
        else:
            self._add(Action(street, "raise", name, total - top, total, all_in=all_in))

    def _big_blind(self, street: str, player: _Player, amount: int) -> None:
        """A big blind; a second one larger than the first is a returning player's big blind and dead
        small blind, posted together ("posts $0.03" at $0.01/$0.02)."""
        posted = next((a.amount for a in self.actions if a.kind == "post" and a.detail == "big_blind"), None)
        big = self.big_blind or posted
        if posted is not None and big is not None and amount > big:
            self._put(player, big)
            self._add(Action(street, "post", player.name, big, all_in=False, detail="big_blind"))
            self._put(player, amount - big, live=False)
            self._add(Action(street, "post", player.name, amount - big, all_in=player.left == 0,
                             detail="dead_blind"))
            return
        self._put(player, amount)
        self._add(Action(street, "post", player.name, amount, all_in=player.left == 0, detail="big_blind"))

    def _put(self, player: _Player, chips: int, live: bool = True) -> None:
        player.left -= chips
        self.put_in[player.name] += chips
        if live:
            self.bets[player.name] += chips

    def _add(self, action: Action) -> None:
        self.actions.append(action)

    # ---- the end ----
    def _return(self) -> tuple[str, int] | None:
        """The uncalled part of the last wager, which iPoker does not write: it goes back to its maker
        after the betting of the last street with wagers."""
        wagers = [a for a in self.actions if a.player and a.kind in _WAGERS and a.detail != "dead_blind"]
        if not wagers:
            return None
        street = wagers[-1].street
        chips: Counter[str] = Counter()
        for action in wagers:
            if action.street == street and action.player:
                chips[action.player] += (action.to_amount - chips[action.player]) if action.to_amount else \
                    action.amount or 0
        ranked = chips.most_common()
        unmatched = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0)
        if unmatched <= 0:
            return None
        owner = ranked[0][0]
        at = max(i for i, a in enumerate(self.actions)
                 if a.street == street and a.player and a.kind != "deal")
        self.actions.insert(at + 1, Action(street, "return", owner, unmatched))
        return owner, unmatched

    def _showdown(self) -> None:
        """Two or more hands still in at the end meet at the showdown: a hand the record shows is
        shown, one it does not is mucked unless it wins."""
        live = [p for p in self.players.values() if p.dealt and not p.folded]
        if len(live) < 2:
            return
        for player in sorted(live, key=lambda p: p.seat):
            held = self.cards.get(player.name, [])
            if held and UNKNOWN_CARD not in held:
                self.actions.append(Action(SHOWDOWN, "show", player.name, cards=tuple(held)))
            elif not player.win:
                self.actions.append(Action(SHOWDOWN, "muck", player.name))

    def _awards(self, returned: tuple[str, int] | None) -> list[Award]:
        """Each player's `win`: iPoker pushes the uncalled bet with the pot, except in sessions that say
        `<uncalled_bet_enabled>true` (and clients from version 20), where it is apart."""
        apart = self.session.get("uncalled_bet_enabled").lower() == "true" or \
            _int(self.session.get("client_version").split(".")[0]) >= 20
        awards = []
        for player in self.players.values():
            win = player.win
            if returned and returned[0] == player.name and not apart:
                win -= returned[1]
            if win > 0:
                awards.append(Award(player.name, win))
        return awards

    def _stakes(self, structure: str, pair: tuple[int, int] | None) -> Stakes:
        """The header's amounts where it gives them, else those posted: limit games' bets are the
        header's pair (stud, "Holdem L $5/$10") or twice the big blind posted ("LH 20/40 x2")."""
        posts = {a.detail: a.amount for a in reversed(self.actions) if a.kind == "post" and not a.all_in}
        antes = [a.amount or 0 for a in self.actions if a.kind == "ante" and not a.all_in]
        ante = max(antes) if antes else None
        if self.stud:
            bring_in = next((a.amount for a in self.actions if a.kind == "bring_in" and not a.all_in), None)
            small, big = pair or self._stud_bets()
            return Stakes(small_bet=small, big_bet=big, ante=ante, bring_in=bring_in)
        small_blind, big_blind = posts.get("small_blind"), posts.get("big_blind")
        if structure == "limit":
            lh = self.session.get("gametype").startswith("LH ")
            small_bet = pair[0] if pair and not lh else big_blind
            return Stakes(small_blind=small_blind, big_blind=small_bet, small_bet=small_bet,
                          big_bet=2 * small_bet if small_bet else None, ante=ante)
        if pair:
            small_blind, big_blind = pair
        return Stakes(small_blind=small_blind, big_blind=big_blind, ante=ante)

    def _stud_bets(self) -> tuple[int | None, int | None]:
        """A tournament's stud bets, which its header does not give: a bet, completion or raise of the
        first two streets is a small bet, of the later ones a big bet (twice it); a hand with none
        plays at four bring-ins to the small bet, iPoker's stud structure (every hand of the corpus
        with a completion has it: docs/interop.md (iPoker))."""
        small = []
        for action in self.actions:
            if action.all_in or action.kind not in ("complete", "bet", "raise"):
                continue
            size = action.to_amount if action.kind == "complete" else action.amount
            if size:
                small.append(size if action.street in self.streets[:2] else size // 2)
        bet = min(small, default=None)
        return bet, 2 * bet if bet else None


def _int(text: str) -> int:
    return int(text) if text.strip().isdigit() else 0


def _date(node: Node | None) -> datetime | None:
    if node is None:
        return None
    for layout in _DATES:
        try:
            return datetime.strptime(node.text, layout)
        except ValueError:
            continue
    return None
