"""Turns the lines of `winning.lark` into the tagged lines `grammar.pokerstars_assembly` makes a hand
of, while the LALR parser runs: the Winning Poker Network's words become PokerStars' ("Holdem" Hold'em,
"posts dead $0.07" a small and big blind, "*** FLOP 1 ***" the first run's flop), so that one assembly
holds the sites' conventions. Amounts become hundredths (`pipeline.amounts`).
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from typing import Any

from lark import Token, Transformer, v_args

from grammar.pokerstars_assembly import Header, Item, assemble, currency_of_symbol, error
from grammar.pokerstars_dialects import WINNING
from grammar.pokerstars_names import unmask
from grammar.reading import is_token
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import UNKNOWN_CARD as UNKNOWN
from pipeline.model import Hand

Cards = tuple[str, ...]
# The network's game names, in PokerStars' words (grammar.pokerstars_games)
_GAMES = {"holdem": "Hold'em", "omaha": "Omaha", "omaha h/l": "Omaha Hi/Lo", "5card omaha": "5 Card Omaha",
          "5card omaha h/l": "5 Card Omaha Hi/Lo", "7stud": "7 Card Stud", "7stud h/l": "7 Card Stud Hi/Lo"}
_STRUCTURES = {"Fixed Limit": "Limit", "Pot Limit": "Pot Limit", "No Limit": "No Limit"}
# "*** FLOP 1 ***" ... "*** SHOW DOWN 2 ***": a board run twice, in PokerStars' words ("FIRST FLOP")
_RUNS = {"1": "FIRST", "2": "SECOND", "3": "THIRD"}
# "*** RUN IT TWICE ***" announces the runs; the runs' markers say the rest.
_NO_STREET = "RUN IT TWICE"
# A shown hand's words: "HI - a straight, Five high [5d 4s 3h 2h As] | LO - [5,4,3,2,1]"
_FIVE_CARDS = re.compile(r"\s*\[[^\]]*\]\s*$")
_LOW = re.compile(r"\[([\d,]*)\]")
_WAGERS = frozenset({"post", "bet", "call", "raise", "bring_in", "complete"})


def _name(token: Token) -> str:
    """A player's name as the history writes it (the older shape's names are masked to one word:
    grammar.winning_parser)."""
    return unmask(str(token).strip())


def _money(token: Token) -> int:
    try:
        return parse_amount(str(token).lstrip("$"))
    except AmountError as exc:
        raise error(token, str(exc)) from None


def _marker(token: Token) -> str:
    words = str(token).strip("* ").upper().split()
    if len(words) > 1 and words[-1] in _RUNS:
        words = [_RUNS[words[-1]], *words[:-1]]
    return " ".join(words)


def description(text: str) -> str | None:
    """A shown hand's words as PokerStars writes them, the five cards WPN adds in brackets left out:
    "HI - a flush, Queen high [Qd 7d 5d 4d 2d] | LO - [8,7,5,2,1]" is "HI: a flush, Queen high; LO:
    8,7,5,2,A" (the ace of a low is WPN's 1); "LO - []", no low, says nothing.

    >>> description("HI - a straight, Five high [5d 4s 3h 2h As] | LO - [5,4,3,2,1]")
    'HI: a straight, Five high; LO: 5,4,3,2,A'
    >>> description("a pair of Queens [Qh Qd As 9c 6c]")
    'a pair of Queens'
    >>> description("HI - two pair, Sixs and Deuces [6s 6c 2h 2d Jh] | LO - []")
    'HI: two pair, Sixs and Deuces'
    """
    halves = [part.strip() for part in text.split(" | ")]
    if not halves[0].startswith("HI - "):
        return _FIVE_CARDS.sub("", text).strip() or None
    words = [f"HI: {_FIVE_CARDS.sub('', halves[0].removeprefix('HI - ')).strip()}"]
    low = _LOW.search(halves[1]) if len(halves) > 1 else None
    if low is not None and low.group(1):
        words.append("LO: " + ",".join("A" if rank == "1" else rank for rank in low.group(1).split(",")))
    return "; ".join(words)


@v_args(inline=True)
class WinningTransformer(Transformer[Token, Any]):
    # ---- values ----
    def cards(self, *tokens: Token) -> Cards:
        return tuple(str(t) for t in tokens)

    # ---- header and table ----
    def header(self, site: Token, number: Token, *parts: Any) -> Item:
        tourney = next((p[1] for p in parts if isinstance(p, tuple) and p[0] == "tourney"), None)
        stakes = next((p[1] for p in parts if isinstance(p, tuple) and p[0] == "stakes"), None)
        level = next((p[1] for p in parts if isinstance(p, tuple) and p[0] == "level"), None)
        game, structure, date, time = (t for t in parts if is_token(t) and t.type in
                                       ("GAME", "STRUCTURE", "DATE", "TIME"))
        name = _GAMES.get(" ".join(str(game).lower().split()))
        if name is None:
            raise error(game, f"unknown game '{str(game).strip()}' (docs/interop.md (Winning Poker Network) "
                        "lists the games)")
        try:
            started = datetime.strptime(f"{date} {time}", "%Y/%m/%d %H:%M:%S")
        except ValueError:
            raise error(date, f"'{date} {time}' is not a valid date and time") from None
        head = Header(site, "Winning Poker Network", str(number), None, tourney, None,
                      Token.new_borrow_pos("GAME", name, game), _STRUCTURES[str(structure)], stakes, level,
                      started)
        return ("header", head)

    def tourney(self, _kw: Token, number: Token) -> Item:
        return ("tourney", (str(number), ""))

    def stakes(self, small: Token, big: Token) -> Item:
        return ("stakes", ("blinds", _money(small), _money(big), currency_of_symbol(str(small)[0])))

    def level(self, _kw: Token, number: Token, small: Token, big: Token) -> Item:
        return ("level", (f"{number} ({small}/{big})", _money(small), _money(big)))

    def table(self, name: Token, size: Token, button: int | None = None) -> Item:
        words = str(name).strip()
        if words.startswith("Table '") and words.endswith("'"):  # a tournament's "Table '1'"
            words = words[len("Table '"):-1]
        return ("table", words, int(str(size).split("-")[0]), button, False)

    def button(self, seat: Token) -> int:
        return int(seat.value)

    # ---- seats and the play ----
    def seat_line(self, _kw: Token, number: Token, name: Token, stack: Token,
                  flag: Token | None = None) -> Item:
        flags = "is sitting out" if flag else ""
        return ("seat", name, int(number.value), _name(name), _money(stack), flags, None)

    def street_line(self, marker: Token, *groups: Cards) -> Item:
        if _marker(marker) == _NO_STREET:
            return ("quiet",)
        return ("street", marker, [(_marker(marker), list(groups))])

    def pot_line(self, _text: Token) -> Item:
        return ("quiet",)

    def dealt_line(self, _kw: Token, name: Token, *groups: Cards) -> Item:
        return ("dealt", name, _name(name), groups)

    def uncalled_line(self, _kw: Token, amount: Token, name: Token) -> Item:
        return ("uncalled", name, _name(name), _money(amount))

    def collected_line(self, name: Token, amount: Token, pot: Token) -> Item:
        # "main pot 2" is the second run's main pot; the run is the showdown marker's
        words = str(pot).split()
        return ("collected", name, _name(name), _money(amount), 1 if words[0] == "side" else 0)

    def action_line(self, actor: Token, partial: Item | None, all_in: Token | None = None) -> Item:
        if partial is None:
            return ("quiet",)
        return ("action", actor, _name(actor), partial, all_in is not None)

    def post_small_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "small_blind")

    def post_big_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "big_blind")

    def post_small_and_big(self, amount: Token) -> Item:
        # "posts dead $0.07" at $0.02/$0.05: the big blind live and the small blind dead, as PokerStars'
        # "posts small & big blinds"
        return ("post", _money(amount), None, (), "small_and_big")

    def post_ante(self, amount: Token) -> Item:
        return ("ante", _money(amount), None, (), "ante")

    def bring_in(self, amount: Token) -> Item:
        return ("bring_in", _money(amount), None, (), None)

    def bet(self, amount: Token) -> Item:
        return ("bet", _money(amount), None, (), None)

    def call(self, amount: Token) -> Item:
        return ("call", _money(amount), None, (), None)

    def raise_to(self, _added: Token, to: Token) -> Item:
        # "raises $30.00 to $40.00": the chips this action adds, then the street's total; the replay
        # computes the raise from the total
        return ("raise", None, _money(to), (), None)

    def cap(self, amount: Token) -> Item:
        # "caps $0.55": a raise adding these chips, up to the table's cap; the total is known in `start`
        return ("cap", _money(amount), None, (), None)

    def check(self) -> Item:
        return ("check", None, None, (), None)

    def fold(self) -> Item:
        return ("fold", None, None, (), None)

    def show(self, cards: Cards, words: Token | None = None) -> Item:
        return ("show", None, None, cards, description(str(words)[1:-1]) if words else None)

    def muck(self) -> Item:
        return ("muck", None, None, (), None)

    def quiet(self) -> None:
        return None

    # ---- summary ----
    def summary(self, token: Token, *lines: Item) -> Item:
        """A board run twice has the seat lines once per run ("Board 1 [..]", the seats, "Board 2 [..]",
        the seats again): one player's words of each run join ("HI: a flush, Queen high; LO: 8,7,5,2,A;
        HI: two pair, Sixs and Deuces")."""
        joined: list[Item] = []
        first: dict[str, int] = {}
        for line in lines:
            if line[0] == "seat_summary" and line[2] in first:
                at = first[line[2]]
                kind, cards, wins, text = joined[at][3]
                words = "; ".join(t for t in (text, line[3][3]) if t) or None
                joined[at] = (*joined[at][:3], (kind, cards, wins + line[3][2], words))
                continue
            if line[0] == "seat_summary":
                first[line[2]] = len(joined)
            joined.append(line)
        return ("summary", token, tuple(joined))

    def total_line(self, _kw: Token, total: Token, *rest: Any) -> Item:
        """The written total is the pot after the rake and fees; PokerStars' (the assembly's) is the
        chips put in, so they are added back."""
        fees = [r for r in rest if isinstance(r, tuple)]
        rake = next((_money(r) for r in rest if is_token(r) and r.type == "MONEY"), None)
        put_in = _money(total) + (rake or 0) + sum(amount for _, _, amount in fees)
        return ("total", put_in, [], rake, [(text, amount) for _, text, amount in fees])

    def fee(self, word: Token, amount: Token) -> Item:
        return ("fee", f"{word} {amount}", _money(amount))

    def board_line(self, *_parts: Any) -> Item:
        return ("board",)

    def summary_seat(self, _kw: Token, _number: Token, name: Token, *rest: Any) -> Item:
        outcome = next(r for r in rest if isinstance(r, tuple))
        return ("seat_summary", name, _name(name), outcome)

    def folded(self, *_parts: Any) -> Item:
        return ("folded", (), [], None)

    def showed_won(self, cards: Cards, amount: Token, text: Token | None = None) -> Item:
        return ("showed", cards, [(None, _money(amount))], description(str(text)) if text else None)

    def showed_lost(self, cards: Cards, text: Token | None = None) -> Item:
        return ("showed", cards, [], description(str(text)) if text else None)

    def mucked(self, cards: Cards) -> Item:
        return ("mucked", cards, [], None)

    def won(self, amount: Token) -> Item:
        return ("won", (), [(None, _money(amount))], None)

    # ---- the whole hand ----
    def start(self, header: Item, table: Item, *items: Item) -> Hand:
        """The cards dealt before the first street decide a tournament's first button (the high card):
        they are not the hand's. A "caps" is a raise to the chips already in plus those it adds; a stud
        hand's first raise over the bring-in is its completion."""
        head: Header = header[1]
        first_street = next((i for i, item in enumerate(items) if item[0] == "street"), len(items))
        lines: list[Item] = [header, table]
        chips: Counter[str] = Counter()
        stud = "Stud" in str(head.game)
        completed = False
        for index, item in enumerate(items):
            if item[0] == "dealt" and index < first_street:
                continue
            if item[0] == "street":
                chips.clear()
            if item[0] == "action":
                item = self._wager(item, chips, stud and not completed)
                kind, amount, to = item[3][:3]
                completed = completed or kind in ("complete", "bet", "raise")
                if kind in _WAGERS:
                    chips[item[2]] = to if to is not None else chips[item[2]] + (amount or 0)
            lines.append(item)
        return assemble(lines, WINNING)

    @staticmethod
    def _wager(item: Item, chips: Counter[str], completes: bool) -> Item:
        _, actor, player, (kind, amount, to, cards, detail), all_in = item
        if kind == "cap":
            kind, amount, to = "raise", None, chips[player] + (amount or 0)
        if kind == "raise" and completes:
            kind, amount = "complete", None  # stud: the bring-in completed to the small bet
        return ("action", actor, player, (kind, amount, to, cards, detail), all_in)


# ---- the older shape (grammar/winning_classic.lark) -------------------------------------------------

# The older shape's game names, in PokerStars' words; it writes no betting structure (below)
_CLASSIC_GAMES = {"Hold'em": "Hold'em", "Omaha": "Omaha", "Omaha HiLow": "Omaha Hi/Lo",
                  "Seven Cards Stud": "7 Card Stud", "Seven Cards Stud HiLow": "7 Card Stud Hi/Lo"}
# Its stud markers name each street one before the street they start: the first betting round (third
# street) has no marker, and "*** Third street ***" deals the fourth card.
_STUD_MARKERS = {"THIRD STREET": "4TH STREET", "FOURTH STREET": "5TH STREET", "FIFTH STREET": "6TH STREET",
                 "SIXTH STREET": "7TH STREET"}
_BOARD_STREETS = frozenset({"FLOP", "TURN", "RIVER"})
# "$2.40 Hyper Turbo Heads-up, Table 1": a tournament's name and its table
_TOURNAMENT_TABLE = re.compile(r"^(?P<name>.+), Table (?P<table>\d+)$")
# "PM Hold`em 5/10": a play-money table
_PLAY_MONEY = re.compile(r"^PM ")
UNNAMED = "\ue010"  # the parser's stand-in for a name a line leaves out ("Player  has big blind (2)")
_NAMING = frozenset({"player", "uncalled", "seat_summary"})  # the lines that name a player


@v_args(inline=True)
class WinningClassicTransformer(Transformer[Token, Any]):
    """The older shape's lines as tagged lines. Each card comes on a line of its own ("Player Ann
    received card: [Ah]", "received a card." when unseen); each player's cards of a street are
    gathered into one "Dealt to" line. Its amounts are the chips an action adds ("raises (80)",
    "allin (40)"), from which the street's totals are computed."""

    # ---- values ----
    def cards(self, *tokens: Token) -> Cards:
        return tuple(str(t).replace("10", "T") for t in tokens)

    # ---- header ----
    def started(self, _kw: Token, date: Token, time: Token) -> Item:
        try:
            return ("started", datetime.strptime(f"{date} {time}", "%Y/%m/%d %H:%M:%S"))
        except ValueError:
            raise error(date, f"'{date} {time}' is not a valid date and time") from None

    def game_id(self, _kw: Token, number: Token, small: Token, big: Token, *rest: Token) -> Item:
        words = next((str(t).strip() for t in rest if t.type == "TABLE_WORDS"), "")
        game = next(t for t in rest if t.type == "GAME")
        size = next((int(str(t).split("-")[0]) for t in rest if t.type == "MAX_SEATS"), None)
        return ("game_id", number, _money(small), _money(big), words, game, size)

    # ---- the play ----
    def button_line(self, _kw: Token, seat: Token) -> Item:
        return ("button", int(seat.value))

    def seat_line(self, _kw: Token, number: Token, name: Token, stack: Token) -> Item:
        return ("seat", name, int(number.value), _name(name), _money(stack), "", None)

    def street_line(self, marker: Token, *groups: Cards) -> Item:
        return ("street", marker, [(_marker(marker), list(groups))])

    def uncalled_line(self, _kw: Token, amount: Token, name: Token) -> Item:
        return ("uncalled", name, _name(name), _money(amount))

    def player_line(self, _kw: Token, name: Token, partial: Item | None) -> Item:
        if partial is None:
            return ("quiet",)
        return ("player", name, _name(name), partial)

    def small_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "small_blind")

    def big_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "big_blind")

    def posts(self, amount: Token) -> Item:
        # "posts (10)": a player coming in posts a blind out of turn; which one the amount says (`start`)
        return ("posts", _money(amount), None, (), None)

    def ante(self, amount: Token) -> Item:
        return ("ante", _money(amount), None, (), "ante")

    def straddle(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "straddle")

    def bring_in(self, amount: Token) -> Item:
        return ("bring_in", _money(amount), None, (), None)

    def bet(self, amount: Token) -> Item:
        return ("bet", _money(amount), None, (), None)

    def call(self, amount: Token) -> Item:
        return ("call", _money(amount), None, (), None)

    def raise_by(self, amount: Token) -> Item:
        return ("raise_by", _money(amount), None, (), None)

    def all_in(self, amount: Token | None = None) -> Item:
        return ("all_in", _money(amount) if amount is not None else None, None, (), None)

    def check(self) -> Item:
        return ("check", None, None, (), None)

    def fold(self) -> Item:
        return ("fold", None, None, (), None)

    def muck(self) -> Item:
        return ("muck", None, None, (), None)

    def unseen_card(self) -> Item:
        return ("card", None, None, (UNKNOWN,), None)

    def seen_card(self, cards: Cards) -> Item:
        return ("card", None, None, cards, None)

    def disconnected(self) -> Item:
        return ("disconnected", None, None, (), None)

    def absent(self, word: Token) -> Item | None:
        # "sitting out", "wait BB" (waiting for the big blind): not dealt in; "is timed out." says nothing
        return None if str(word).startswith("is timed out") else ("absent", None, None, (), None)

    # ---- summary ----
    def summary(self, token: Token, *lines: Any) -> Item:
        return ("summary", token, tuple(line for line in lines if isinstance(line, tuple)))

    def pot_line(self, _kw: Token, total: Token, *rest: Token) -> Item:
        """The written pot is what is left after the rake and fees; PokerStars' (the assembly's) total
        is the chips put in, so they are added back."""
        amounts = [t for t in rest if t.type == "AMOUNT"]
        words = [t for t in rest if t.type in ("RAKE", "FEE")]
        rake = next((_money(a) for w, a in zip(words, amounts, strict=True) if w.type == "RAKE"), None)
        fees = [(f"{w} {a}", _money(a)) for w, a in zip(words, amounts, strict=True) if w.type == "FEE"]
        put_in = _money(total) + (rake or 0) + sum(amount for _, amount in fees)
        return ("total", put_in, [], rake, fees)

    def board_line(self, *_parts: Any) -> Item:
        return ("board",)

    def result(self, *parts: Any) -> Item:
        name = next(p for p in parts if is_token(p) and p.type == "NAME")
        kind, cards, words = next(p for p in parts if isinstance(p, tuple))
        collects = [p for p in parts if is_token(p) and p.type == "AMOUNT"][1]
        wins = [(None, _money(collects))] if _money(collects) else []
        return ("seat_summary", name, _name(name), (kind, cards, wins, words))

    def not_shown(self, _words: Token | None = None) -> tuple[str, Cards, None]:
        return ("folded", (), None)

    def mucked(self, cards: Cards) -> tuple[str, Cards, None]:
        return ("mucked", cards, None)

    def shown(self, *parts: Any) -> tuple[str, Cards, str | None]:
        # WPN's words for the hand ("Two pairs. 7s and 2s", "Full House (5/8)") are its own: not read
        cards = next(p for p in parts if isinstance(p, tuple))
        return ("showed", cards, None)

    # ---- the whole hand ----
    def start(self, started: Item, game_id: Item, *items: Item) -> Hand:
        _, number, small, big, words, game, size = game_id
        posts = {item[3][0:2] for item in items if item[0] == "player" and item[3][0] == "post"}
        name = _CLASSIC_GAMES[str(game)]
        stud = "Stud" in name
        # No structure is written: stud is limit, and a big blind of the first amount makes the pair the
        # limit's small and big bet. Otherwise pot limit and no limit cannot be told apart (the
        # network dealt both): the hand is read as no-limit, so that no pot-limit bound is judged
        # (docs/interop.md (Winning Poker Network)).
        limit = stud or (("post", small) in posts and ("post", big) not in posts)
        structure = "Limit" if limit else "No Limit"
        tournament = _TOURNAMENT_TABLE.match(words)
        table = tournament.group("table") if tournament else words
        play = tournament is None and _PLAY_MONEY.match(words) is not None
        money = "" if tournament or play else "USD"  # the network's real-money tables play in dollars
        seats = size or next((2 if m.group(0).lower() == "heads-up" else int(m.group(1))
                              for m in re.finditer(r"(\d+)-max|heads-up", words, re.I)), None)
        head = Header(number, "Winning Poker Network", str(number), None,
                      ("", tournament.group("name")) if tournament else None, None,
                      Token.new_borrow_pos("GAME", name, game), structure, ("blinds", small, big, money),
                      None, started[1])
        button = next((item[1] for item in items if item[0] == "button"), None)
        lines: list[Item] = [("header", head), ("table", table, seats, button, play)]
        lines += self._play(self._sitting_out(self._named(items)), stud, (small, big))
        return assemble(lines, WINNING)

    @staticmethod
    def _named(items: tuple[Item, ...]) -> tuple[Item, ...]:
        """A line that leaves its player's name out ("Player  has big blind (2)") is the one seated
        player no other line names; with none or several such players the line cannot be read."""
        if not any(item[0] in _NAMING and item[2] == UNNAMED for item in _lines(items)):
            return items
        seated = [item[3] for item in items if item[0] == "seat"]
        named = {item[2] for item in _lines(items) if item[0] in _NAMING}
        left = [player for player in seated if player not in named]
        where = next(item[1] for item in _lines(items) if item[0] in _NAMING and item[2] == UNNAMED)
        if len(left) != 1:
            raise error(where, "a line names no player, and the seats leave "
                        f"{'no player' if not left else 'several players'} it could be")

        def fill(item: Item) -> Item:
            if item[0] in _NAMING and item[2] == UNNAMED:
                return (item[0], item[1], left[0], *item[3:])
            if item[0] == "summary":
                return ("summary", item[1], tuple(fill(line) for line in item[2]))
            return item

        return tuple(fill(item) for item in items)

    @staticmethod
    def _sitting_out(items: tuple[Item, ...]) -> tuple[Item, ...]:
        """A player the play says is "sitting out" (or waits for the big blind), or who is dealt no card
        where the others' cards are written one by one, is not dealt in: their seat gets the flag, so
        that the assembly leaves them out unless they play."""
        out = {item[2] for item in items if item[0] == "player" and item[3][0] == "absent"}
        dealt = {item[2] for item in items if item[0] == "player" and item[3][0] == "card"}
        if dealt:
            out |= {item[3] for item in items if item[0] == "seat"} - dealt
        return tuple((*item[:5], "is sitting out", *item[6:]) if item[0] == "seat" and item[3] in out
                     else item for item in items if not (item[0] == "player" and item[3][0] == "absent"))

    def _play(self, items: tuple[Item, ...], stud: bool, blinds: tuple[int, int]) -> list[Item]:
        """The play's lines in PokerStars' tags: each player's cards of a street as one "Dealt to",
        the chips each action adds as the street's total, an out-of-turn post as the blind it is, a
        showdown where two hands or more are shown."""
        lines: list[Item] = []
        dealt: dict[str, int] = {}  # the player's "Dealt to" line of this street
        chips: Counter[str] = Counter()
        for item in items:
            tag = item[0]
            if tag in ("button", "seat_summary"):
                continue
            if tag == "street":
                marker = item[2][0][0]
                if marker in _BOARD_STREETS and not item[2][0][1]:
                    continue  # "*** FLOP ***:" with no cards, before the deal: no street
                if stud:
                    marker = _STUD_MARKERS.get(marker, marker)
                dealt, chips = {}, Counter()
                lines.append(("street", item[1], [(marker, item[2][0][1])]))
                continue
            if tag == "summary":
                shown = sum(1 for line in item[2] if line[0] == "seat_summary" and line[3][0] == "showed")
                if shown >= 2:
                    lines.append(("street", item[1], [("SHOW DOWN", [])]))
                lines.append(item)
                continue
            if tag != "player":
                lines.append(item)
                continue
            _, token, player, (kind, amount, _to, cards, detail) = item
            if kind == "card":
                if player not in dealt:
                    dealt[player] = len(lines)
                    lines.append(("dealt", token, player, ((),)))
                at = dealt[player]
                lines[at] = (*lines[at][:3], (lines[at][3][0] + cards,))
                continue
            if kind == "disconnected":
                lines.append(("kept", token, f"{player} is disconnected and all-in"))
                continue
            if kind == "all_in" and amount is None:
                continue  # the disconnected player's "allin": said by the line before
            action = self._action(kind, amount, player, detail, chips, blinds)
            if action[4] == "small_and_big":
                chips[player] += min(action[1] or 0, blinds[1])  # the small blind's part is dead
            elif action[0] in _WAGERS and action[4] != "dead_blind":
                chips[player] = action[2] if action[2] is not None else chips[player] + (action[1] or 0)
            lines.append(("action", token, player, action, kind == "all_in"))
        # a player's unseen cards of a flop game say nothing; stud's unseen down cards keep their place
        return [line for line in lines if not (line[0] == "dealt" and not stud
                                               and all(card == UNKNOWN for card in line[3][0]))]

    @staticmethod
    def _action(kind: str, amount: int | None, player: str, detail: str | None, chips: Counter[str],
                blinds: tuple[int, int]) -> Item:
        """One action in PokerStars' tags, its amount the chips it adds."""
        added = amount or 0
        top = max(chips.values(), default=0)
        if kind == "posts":
            small, big = blinds
            # a small blind's amount is read as PokerStars' second small blind: dead, unless the poster's
            # call says it was live (grammar.pokerstars_assembly)
            which = {big: "big_blind", small: "small_blind", small + big: "small_and_big"}.get(added,
                                                                                                "big_blind")
            return ("post", added, None, (), which)
        if kind == "all_in":
            to = chips[player] + added
            if top == 0:
                return ("bet", added, None, (), None)
            if to <= top:
                return ("call", added, None, (), None)
            return ("raise", None, to, (), None)
        if kind == "raise_by":
            return ("raise", None, chips[player] + added, (), None)
        return (kind, amount, None, (), detail)


def _lines(items: tuple[Item, ...]) -> list[Item]:
    """The play's lines and the summary's, in order."""
    return [line for item in items for line in (item[2] if item[0] == "summary" else (item,))]
