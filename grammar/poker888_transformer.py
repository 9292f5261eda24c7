"""Turns the lines of `poker888.lark` into the tagged lines `grammar.pokerstars_assembly` builds a hand
from, so that one assembly reads both sites: 888poker's words become PokerStars' ("Holdem" is
"Hold'em", "** Dealing flop **" the FLOP marker, "posts dead blind [$0.01 + $0.02]" a live big blind
and a dead small blind), and what 888 writes otherwise is written PokerStars' way first:

- "raises [$X]" is the chips the raise adds (888), not "raises X to Y": the wager it reaches is
  counted from the player's chips already in on the street;
- a player whose chips run out is all-in (888 does not say so);
- 888 writes no uncalled bet: the unmatched part of the last wager goes back after its street, as
  the rules give it back (`Return`), and where 888 pushed it with the pot ("collected"), it is
  taken off that push;
- the summary's shows and mucks are the showdown when two hands or more meet there;
- no rake is written: in a cash game it is what the pushes leave of the pot; a tournament has none.

A hand 888 cancelled (no big blind posted, the only chips pushed back to their poster) is refused
with that reason. The reader is documented in docs/interop.md (888poker).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from lark import Token, Transformer, v_args

from grammar.errors import HandSyntaxError
from grammar.pokerstars_assembly import SYMBOLS, Header, Item, assemble, error
from grammar.pokerstars_dialects import Dialect
from grammar.reading import is_token
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import PLAY_MONEY, Hand

PROFILE = "888poker"
CANCELLED = ("the hand was cancelled: no big blind was posted, and the only chips put in went back to "
             "the player who posted them (888 writes a cancelled hand so)")
DIALECT = Dialect("888poker", re.compile(r"\*{4,5} \S+(?: Snap Poker| BLAST)? Hand History for Game \d+"),
                  PROFILE, prefix="888")
# 888's game names and structures in PokerStars' words (grammar.pokerstars_games reads those).
_GAMES = {"Holdem": "Hold'em", "Hold'em": "Hold'em", "Omaha": "Omaha", "OmahaHL": "Omaha Hi/Lo",
          "Omaha Hi/Lo": "Omaha Hi/Lo"}
_STRUCTURES = {"Fix Limit": "Limit"}
# The site's own names: Cassava is the software 888poker ran on (and named its histories after);
# a regional site ("888.ro", "888poker.ca-on") keeps its name, with its own players and hand numbers.
_HOME = ("Cassava", "888poker", "888")
SITE = "888poker"
# Ranks in the client's language: Swedish and Norwegian, Russian (and its cp1251 bytes read as cp1252).
_RANKS = str.maketrans({"D": "Q", "E": "A", "\u0412": "J", "\u0414": "Q", "\u041a": "K", "\u0422": "A",
                        "\u00c2": "J", "\u00c4": "Q", "\u00ca": "K", "\u00d2": "A"})
_DECIMALS = re.compile(r"[.,](\d{1,2})$")
_CARDS = re.compile("(?:[2-9TJQKA]|Kn|D|E|[\u0412\u0414\u041a\u0422\u00c2\u00c4\u00ca\u00d2])[shdc]\\b")

Cards = tuple[str, ...]


def money(token: Token) -> int:
    """An amount in the client's locale, in hundredths: the comma or dot before the last one or two
    digits is the decimal point, other commas, dots and spaces group thousands.

    >>> [money(Token("MONEY", t)) for t in ("$1,728.25", "7,17$", "3.000 $", "15 788,50 $", "1 123 698")]
    [172825, 717, 300000, 1578850, 112369800]
    """
    digits = re.sub(r"[^\d.,]", "", str(token))
    decimals = _DECIMALS.search(digits)
    whole = re.sub(r"\D", "", digits[: decimals.start()] if decimals else digits)
    try:
        return parse_amount(whole + (f".{decimals[1]}" if decimals else ""))
    except AmountError as exc:
        raise error(token, str(exc)) from None


def _symbol(token: Token) -> str:
    """The currency symbol written with an amount, or "" for chips."""
    return next((c for c in str(token) if c in SYMBOLS), "")


def _card(token: str) -> str:
    """A card in English: "Knh" is "Jh", "Ec" "Ac"."""
    text = str(token)
    rank = "J" if text.startswith("Kn") else text[0].translate(_RANKS)
    return rank + text[-1]


@dataclass(frozen=True, slots=True)
class _Stakes:
    """The header's second line: the blinds, their currency symbol, the game and its time."""

    token: Token
    small: int
    big: int
    symbol: str
    structure: str
    game: Token
    jackpot: bool
    started_at: datetime | None


@dataclass(frozen=True, slots=True)
class _Table:
    """The table line: a cash table's name, or a tournament's number, buy-in and table number."""

    name: str | None
    tournament: str | None
    buy_in: str | None
    max_seats: int | None
    play_money: bool


@v_args(inline=True)
class Poker888Transformer(Transformer[Token, Any]):
    # ---- values ----
    def cards(self, *tokens: Token) -> Cards:
        return tuple(_card(t) for t in tokens)

    def stamp(self, date: Token, time: Token) -> datetime:
        try:
            return datetime.strptime(f"{date} {time}", "%d %m %Y %H:%M:%S")
        except ValueError:
            raise error(date, f"'{date} {time}' is not a valid date and time") from None

    # ---- header ----
    def game_number(self, _number: Token) -> None:
        return None

    def title(self, site: Token, number: Token) -> Item:
        return ("title", site, str(number))

    def stakes(self, small: Token, big: Token, structure: Token, game: Token, *rest: Any) -> _Stakes:
        jackpot = any(is_token(r) and r.type == "JACKPOT" for r in rest)
        started = next((r for r in rest if isinstance(r, datetime)), None)
        return _Stakes(small, money(small), money(big), _symbol(small) or _symbol(big), str(structure),
                       game, jackpot, started)

    def cash_table(self, name: Token, *rest: Token) -> _Table:
        return _Table(str(name), None, None, _max_seats(rest), _play_money(rest))

    def tournament_table(self, _kw: Token, number: Token, buy_in: Token, *rest: Token) -> _Table:
        table = next((str(t) for t in rest if t.type == "INT"), None)
        return _Table(table, str(number), str(buy_in).strip(), _max_seats(rest), _play_money(rest))

    def button(self, seat: Token) -> Item:
        return ("button", int(seat.value))

    def player_count(self, _count: Token) -> None:
        return None

    # ---- the play ----
    def seat_line(self, number: Token, name: Token, stack: Token) -> Item:
        return ("seat", name, int(number.value), str(name).strip(), money(stack), "", None)

    def street_line(self, street: Token, cards: Cards = ()) -> Item:
        word = str(street).split()[-1].upper()
        marker = Token.new_borrow_pos("STREET_NAME", "HOLE CARDS" if word == "CARDS" else word, street)
        return ("street", marker, [(marker, [cards] if cards else [])])

    def action_line(self, actor: Token, action: Item) -> Item:
        return ("play", actor, str(actor).strip(), action)

    def post_small_blind(self, amount: Token) -> Item:
        return ("post", money(amount), "small_blind")

    def post_big_blind(self, amount: Token) -> Item:
        return ("post", money(amount), "big_blind")

    def post_ante(self, amount: Token) -> Item:
        return ("ante", money(amount), "ante")

    def post_dead_blind(self, dead: Token, live: Token) -> Item:
        return ("dead_blind", money(dead), money(live))

    def bet(self, amount: Token) -> Item:
        return ("bet", money(amount), None)

    def call(self, amount: Token) -> Item:
        return ("call", money(amount), None)

    def raise_(self, amount: Token) -> Item:
        return ("raise", money(amount), None)

    def check(self) -> Item:
        return ("check", None, None)

    def fold(self) -> Item:
        return ("fold", None, None)

    def dealt_line(self, name: Token, cards: Cards) -> Item:
        return ("dealt", name, str(name).strip(), (cards,))

    # ---- summary ----
    def summary(self, token: Token, *lines: Item) -> Item:
        return ("summary888", token, lines)

    def shows_line(self, actor: Token, cards: Cards, *descriptions: Token) -> Item:
        # "(Hi: Jd, Jc, 2d, 2s, Ks)": the cards in the client's words too, written as the model's
        text = "; ".join(_CARDS.sub(lambda card: _card(card[0]), str(d)[1:-1].strip()) for d in descriptions)
        return ("shows", actor, str(actor).strip(), cards, text or None)

    def mucks_line(self, actor: Token, cards: Cards) -> Item:
        return ("mucks", actor, str(actor).strip(), cards, None)

    def quiet_line(self, _actor: Token) -> Item:
        return ("quiet",)

    def collected_line(self, actor: Token, amount: Token) -> Item:
        return ("collected", actor, str(actor).strip(), money(amount), 0)

    # ---- the whole hand ----
    def start(self, *items: Any) -> Hand:
        return Reading([i for i in items if i is not None]).hand()


def _max_seats(rest: tuple[Token, ...]) -> int | None:
    return next((int(t.value.split()[0]) for t in rest if t.type == "MAX_SEATS"), None)


def _play_money(rest: tuple[Token, ...]) -> bool:
    return any(t.type == "KIND" and "Real" not in t.value for t in rest)


@dataclass(slots=True)
class Reading:
    """One hand's lines, written as PokerStars' for `grammar.pokerstars_assembly`: the chips each
    player has put in (the street's wagers, the hand's total) and what is left of each stack are
    followed line by line, for the raises' totals, the all-ins and the uncalled bet."""

    items: list[Any]
    out: list[Item] = field(default_factory=list)
    stacks: dict[str, int] = field(default_factory=dict)
    wagers: Counter[str] = field(default_factory=Counter)  # this street's live chips
    put_in: Counter[str] = field(default_factory=Counter)  # the hand's chips, dead ones too
    big_blind: bool = False
    dealt: bool = False  # past "** Dealing down cards **" (an observed hand has no such line)
    small_posted: int | None = None
    last_wagers: tuple[int, Counter[str]] | None = None  # where the last street with wagers ends

    def hand(self) -> Hand:
        title: Item = self.items[0]
        stakes: _Stakes = self.items[1]
        table: _Table = self.items[2]
        button: int = self.items[3][1]
        site = _site(str(title[1]))
        rake = self.play(("table", table.name, table.max_seats, button, table.play_money), self.items[4:],
                         tournament=table.tournament is not None)
        self.out[0] = ("header", self._header(title, stakes, table))
        hand = assemble(self.out, DIALECT)
        return replace(
            hand, hand_id=_hand_id(site, title[2]), site=site, event=_event(site, stakes, table),
            currency=_currency(site, stakes, table), rake=rake,
        )

    def play(self, table: Item, lines: list[Item], tournament: bool, with_pot: bool = False) -> int | None:
        """The table line and the play's lines written as PokerStars' (`self.out`, after a header
        placeholder the caller fills); returns a cash game's rake. PartyPoker's reader, whose lines
        mean what 888's do, reads its hands with this too (grammar/partypoker_transformer.py);
        `with_pot`: the pushes always hold the uncalled bet (PartyPoker's newer summaries)."""
        self.out.append(("header", None))
        self.out.append(table)
        summary: Item | None = None
        for item in lines:
            if item[0] == "summary888":
                summary = item
            else:
                self._line(item)
        self._close_street()
        collected: list[Item] = []
        if summary is not None:
            collected = self._summary(summary)
        return self._returns(collected, tournament, with_pot)

    def _header(self, title: Item, stakes: _Stakes, table: _Table) -> Header:
        game = Token.new_borrow_pos("GAME", _GAMES[str(stakes.game)], stakes.game)
        structure = _STRUCTURES.get(stakes.structure, stakes.structure)
        # A limit game's header gives its blinds; PokerStars' (which the assembly reads) gives the bets.
        small, big = (stakes.big, 2 * stakes.big) if structure == "Limit" else (stakes.small, stakes.big)
        if big % 2 and small == big // 2 and self.small_posted is not None and structure != "Limit":
            # "$0.12/$0.25": the header halves a big blind of odd cents, the table's small blind is the
            # one posted ($0.10 at 888poker.ca-on's $0.25 tables)
            small = self.small_posted
        tourney = (table.tournament, table.buy_in or "") if table.tournament else None
        return Header(title[1], SITE, title[2], None, tourney, None, game, structure,
                      ("blinds", small, big, ""), None, stakes.started_at)

    # ---- lines ----
    def _line(self, item: Item) -> None:
        tag = item[0]
        if tag == "seat":
            self.stacks[item[3]] = item[4]
            self.out.append(item)
        elif tag == "street":
            if str(item[1]) != "HOLE CARDS":  # the blinds are the first street's wagers
                self._close_street()
            self.dealt = True
            self.out.append(item)
        elif tag == "play" and item[3][0] == "fold" and not self.dealt:
            # A player who folds among the blinds, before the deal, declined to post and sits the hand
            # out: 888 writes it so. They are seated, not dealt in.
            self.out = [(*line[:5], "sits out", line[6]) if line[0] == "seat" and line[3] == item[2] else line
                        for line in self.out]
        elif tag == "play":
            self._play(item)
        else:
            self.out.append(item)

    def _put(self, player: str, amount: int, live: bool) -> bool:
        """Chips into the pot; whether they are the player's last."""
        self.put_in[player] += amount
        if live:
            self.wagers[player] += amount
        self.stacks[player] = self.stacks.get(player, 0) - amount
        return self.stacks[player] <= 0

    def _play(self, item: Item) -> None:
        _, token, name, (kind, amount, detail) = item
        if kind not in ("post", "ante", "dead_blind"):
            self.dealt = True
        if kind == "post" and detail == "small_blind" and self.small_posted is None:
            self.small_posted = amount
        if kind == "dead_blind":
            # "posts dead blind [$0.01 + $0.02]": a missed small blind (dead) and the big blind (live).
            if detail:
                self.big_blind = True
                self._act(token, name, ("post", detail, None, (), "big_blind"), self._put(name, detail, True))
            self._act(token, name, ("post", amount, None, (), "dead_blind"), self._put(name, amount, False))
            return
        if kind == "all_in":
            # PartyPoker's "is all-In [$X]": X chips added, a call unless they go past the top wager
            top = max(self.wagers.values(), default=0)
            kind = "call" if self.wagers[name] + amount <= top else "raise" if top else "bet"
        if kind == "complete":
            # PartyPoker's "completes [$0.50 USD]": the chips added, up to the full bet
            to = self.wagers[name] + amount
            self._act(token, name, ("complete", None, to, (), None), self._put(name, amount, True))
            return
        if kind == "raise":
            top = max(self.wagers.values(), default=0)
            to = self.wagers[name] + amount
            all_in = self._put(name, amount, True)
            self._act(token, name, ("raise", to - top, to, (), None), all_in)
            return
        if kind == "post" and detail == "big_blind":
            self.big_blind = True
        all_in = self._put(name, amount, kind != "ante") if amount else False
        self._act(token, name, (kind, amount, None, (), detail if kind in ("post", "ante") else None), all_in)

    def _act(self, token: Token, name: str, action: tuple[Any, ...], all_in: bool) -> None:
        self.out.append(("action", token, name, action, all_in))

    def _close_street(self) -> None:
        if any(self.wagers.values()):
            self.last_wagers = (len(self.out), self.wagers)
        self.wagers = Counter()

    # ---- the summary ----
    def _summary(self, summary: Item) -> list[Item]:
        """The summary's lines as PokerStars writes them: the shows (at a showdown when two hands or
        more meet there), then the pushes, then the summary itself. Returns the pushes."""
        _, token, lines = summary
        shown = [line for line in lines if line[0] in ("shows", "mucks")]
        if len({line[2] for line in shown}) >= 2:
            marker = Token.new_borrow_pos("STREET_NAME", "SHOW DOWN", token)
            self.out.append(("street", marker, [(marker, [])]))
        collected = [line for line in lines if line[0] == "collected"]
        if not self.big_blind and len(self.put_in) == 1 and \
                sum(line[3] for line in collected) == sum(self.put_in.values()):
            raise HandSyntaxError(CANCELLED, token.line or 1, token.column or 1)
        outcomes: tuple[Item, ...] = tuple(
            ("seat_summary", line[1], line[2],
             ("showed" if line[0] == "shows" else "mucked", line[3], [], line[4]))
            for line in shown)
        self.out.append(("summary", token, outcomes))
        return collected

    def _returns(self, collected: list[Item], tournament: bool, with_pot: bool = False) -> int | None:
        """Write the uncalled bet back, take it off a push that holds it, and put the pushes before the
        summary; the rake of a cash game is what they leave of the pot."""
        unmatched, owner = 0, ""
        if self.last_wagers is not None:
            at, wagers = self.last_wagers
            ranked = wagers.most_common()
            owner, top = ranked[0]
            unmatched = top - (ranked[1][1] if len(ranked) > 1 else 0)
            if unmatched > 0:
                self.out.insert(at, ("uncalled", Token("LINE_NAME", owner), owner, unmatched))
        pot = sum(self.put_in.values())
        pushed: int = sum(line[3] for line in collected)
        owners: int = sum(line[3] for line in collected if line[2] == owner)
        # 888 pushes an uncalled bet either apart from the pot (the push is the pot less the bet) or
        # with it: the push holds the bet when the pot without it cannot pay the push and any rake.
        left = pot - unmatched - pushed
        if unmatched > 0 and owners >= unmatched and (with_pot or left < 0 <= pot - pushed):
            collected = _take_off(collected, owner, unmatched)
            left = pot - unmatched - sum(int(line[3]) for line in collected)
        at = next((i for i, item in enumerate(self.out) if item[0] == "summary"), len(self.out))
        self.out[at:at] = collected
        if tournament or not collected or left < 0:
            return None
        return left


def _take_off(collected: list[Item], owner: str, amount: int) -> list[Item]:
    """The pushes less `amount` of the owner's, from their last push back."""
    kept: list[Item] = []
    for line in reversed(collected):
        taken = min(amount, line[3]) if line[2] == owner else 0
        amount -= taken
        if line[3] - taken:
            kept.append((*line[:3], line[3] - taken, line[4]))
    return kept[::-1]


def _site(written: str) -> str:
    """The site a title names, without the kind of game ("Snap Poker", "BLAST")."""
    name = written.split()[0]
    return SITE if name in _HOME else name


def _hand_id(site: str, number: str) -> str:
    """888-<number>; a regional site's own numbers behind its domain: 888.ro-1059729553."""
    if site == SITE:
        return f"888-{number}"
    return f"888{site.removeprefix('888poker').removeprefix('888')}-{number}"


def _event(site: str, stakes: _Stakes, table: _Table) -> str:
    """The site, the tournament's buy-in as written, the cash game's currency, play money and the
    table's kind ("888poker, USD, Jackpot table", "888.ro, 40 $ + 4 $")."""
    parts = [site]
    if table.buy_in:
        parts.append(table.buy_in)
    elif not table.play_money and (code := _currency(site, stakes, table)):
        parts.append(code)
    if table.play_money:
        parts.append("play money")
    if stakes.jackpot:
        parts.append("Jackpot table")
    return ", ".join(parts)


def _currency(site: str, stakes: _Stakes, table: _Table) -> str | None:
    """Play money, else the symbol's ISO code: the stakes' in a cash game, the buy-in's in a tournament
    (none for a freeroll). 888poker's dollar is the US dollar; a regional site's "$" (888.ro,
    888poker.ca-on) is not said to be any dollar."""
    if table.play_money:
        return PLAY_MONEY
    symbol = next((c for c in table.buy_in or "" if c in SYMBOLS), "") if table.tournament else stakes.symbol
    if symbol == "$" and site != SITE:
        return None
    return SYMBOLS.get(symbol)
