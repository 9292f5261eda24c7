"""Turns the lines of `bovada.lark` into the tagged tuples of the PokerStars reader, so that one
assembly (`grammar.pokerstars_assembly`, configured by the `BOVADA` dialect) builds the hand.

Bovada, Ignition and Bodog (one network) write what PokerStars writes in other words and leave out
what PokerStars says; both are settled here, in one walk over the hand's lines (`_Walk`):

- players are named by position; who each is, is decided by `_Names` (docs/interop.md, "Who the
  players are");
- amounts: "Raises $1.25 to $1.25" is chips put in, then the street's total (PokerStars: the raise,
  then the total); a limit game's "Raises $16" is the total; "All-in $39" puts in what the player
  has left, whatever else the line says: each is written in PokerStars' terms from the chips each
  player has in on the street;
- streets: older histories deal the board as "Card dealt to table [..]" and stud's later streets
  without a marker (a player dealt again opens the next street); two hands shown at the end meet
  on a showdown street the history does not name;
- the stakes: a cash header names none, so the blinds are read from their posts (a limit game's
  bets are its big blind and twice it, stud's from its first full bet), or from an MVS history's
  "Table Info";
- what each player is dealt is written out (every hand's cards are in the history), and a shown
  hand is the player's cards, not the five the history names;
- the site's slips: a line written twice in a row is read once, a board only the summary shows is
  dealt where the betting says its streets began, an ante returned before the deal comes back after
  the first street's betting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from lark import Token, Transformer, v_args

from grammar.pokerstars_assembly import Header, Item, assemble, error
from grammar.pokerstars_dialects import Dialect
from grammar.reading import is_token
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import Hand

# The first line of a Bovada, Ignition or Bodog hand; the network numbers their hands in one sequence,
# so one hand-id prefix serves the three. Its rules profile: evaluator/profiles.py.
BOVADA = Dialect("bovada", re.compile(r"(?:Bovada|Ignition|Bodog(?:\.eu| UK)?) Hand #\d+"), "bovada",
                 prefix="BOV")

# Bovada's game names in PokerStars' words (grammar.pokerstars_games maps those to the catalog), and the
# structure a tournament's header leaves out when it names the speed instead ("Turbo- Level 7").
GAMES = {"HOLDEM": "Hold'em", "OMAHA": "Omaha", "OMAHA HiLo": "Omaha Hi/Lo", "7CARD": "7 Card Stud",
         "7CARD HiLo": "7 Card Stud Hi/Lo"}
_STRUCTURES = {"No Limit", "Pot Limit", "Fixed Limit"}
_HOUSE_STRUCTURE = {"HOLDEM": "No Limit", "OMAHA": "Pot Limit", "OMAHA HiLo": "Pot Limit",
                    "7CARD": "Fixed Limit", "7CARD HiLo": "Fixed Limit"}
_SITES = {"Bovada": "Bovada", "Ignition": "Ignition", "Bodog": "Bodog", "Bodog.eu": "Bodog",
          "Bodog UK": "Bodog"}
_BOARD_STREETS = {0: "FLOP", 3: "TURN", 4: "RIVER"}
_STUD_STREETS = ("3RD STREET", "4TH STREET", "5TH STREET", "6TH STREET", "RIVER")
HERO = "Hero"
_OPENING = frozenset({"fold", "check", "bet", "all_in"})  # what may open a betting round
# A table seats at most ten: a larger seat number is the player's number in the tournament.
_TABLE_SEATS = 10
_STAKES = re.compile(r"Stakes: \$?([\d,.]+)-\$?([\d,.]+)")
_BUY_IN = re.compile(r"Buyin: (\S+?),? TableType")
_PLAYER_IDS = re.compile(r"Seat(\d+): (P\d+-\w+)")

Cards = tuple[str, ...]


def _money(token: Token) -> int:
    try:
        return parse_amount(str(token).lstrip("$"))
    except AmountError as exc:
        raise error(token, str(exc)) from None


def _label(token: Token) -> tuple[str, bool]:
    """A position as the history names it ("Big Blind  [ME]"), without the hero's mark, and the mark."""
    text = " ".join(str(token).split())
    return text.removesuffix(" [ME]"), text.endswith("[ME]")


def _described(cards: Cards) -> str | None:
    """What a showing says the hand is, in the words `evaluator.descriptions` reads: the five cards the
    site names ("Showdown [Kh Kc 7h 7d Qd]"), a split game's high five then low five ("[Ad Jh 7h 6d 4h
    Ad 2s 3s 4h 6d]"). The category word after them ("(Two pair)") says less, and is left."""
    if len(cards) == 5:
        return ", ".join(cards)
    if len(cards) == 10:
        return f"Hi: {', '.join(cards[:5])}; Lo: {', '.join(cards[5:])}"
    return None


def _street(name: str, token: Token, cards: tuple[Cards, ...] = ()) -> Item:
    return ("street", token, ((Token.new_borrow_pos("STREET_NAME", name, token), list(cards)),))


@v_args(inline=True)
class BovadaTransformer(Transformer[Token, Any]):
    """Each line as a raw tuple; `start` walks them into the PokerStars reader's items."""

    # ---- header ----
    def header(self, site: Token, number: Token, room: dict[str, Any]) -> Item:
        return ("header", {"site": site, "number": str(number), **room})

    def cash_room(self, table: Token, game: Token, structure: Token, *rest: Any) -> dict[str, Any]:
        return {"table": str(table), "game": game, "structure": str(structure), "started_at": rest[-1]}

    def zone_room(self, pool: Token, game: Token, structure: Token, *rest: Any) -> dict[str, Any]:
        return {"zone": str(pool), "game": game, "structure": str(structure), "started_at": rest[-1]}

    def tournament_room(self, game: Token, tourney: Token, table: Token, kind: Token, level: Token,
                        small: Token, big: Token, *rest: Any) -> dict[str, Any]:
        name = str(game).removesuffix("ZonePoker")
        words = " ".join(str(kind).split())
        structure = words if words in _STRUCTURES else _HOUSE_STRUCTURE.get(name, "No Limit")
        return {"table": str(table), "game": game, "structure": structure, "tourney": str(tourney),
                "speed": None if words in _STRUCTURES else words,
                "level": (f"{level} ({small}/{big})", _money(small), _money(big)), "started_at": rest[-1]}

    def stamp(self, date: Token, time: Token, _zone: Token | None = None) -> datetime:
        try:
            return datetime.strptime(f"{date} {time}", "%Y-%m-%d %H:%M:%S")
        except ValueError:
            raise error(date, f"'{date} {time}' is not a valid date and time") from None

    # ---- lines ----
    def cards(self, *tokens: Token) -> Cards:
        return tuple(str(t) for t in tokens)

    def seat_line(self, number: Token, name: Token, stack: Token) -> Item:
        label, hero = _label(name)
        return ("seat", name, int(str(number)[5:-1]), label, hero, _money(stack), stack.value.startswith("$"))

    def stud_seat_line(self, seat: Token, stack: Token) -> Item:
        label, hero = _label(Token.new_borrow_pos("NAME", str(seat).rstrip(":"), seat))
        return ("seat", seat, int(label[5:]), label, hero, _money(stack), stack.value.startswith("$"))

    def street_line(self, name: Token, *groups: Cards) -> Item:
        return ("marker", name, " ".join(str(name).upper().split()), groups)

    def table_cards_line(self, cards: Cards) -> Item:
        return ("table_cards", cards)

    def info_line(self, text: Token) -> Item:
        return ("info", str(text))

    def table_line(self, _text: Token) -> Item:
        return ("quiet",)

    def action_line(self, name: Token, action: Item | None) -> Item:
        if action is None:
            return ("quiet",)
        label, hero = _label(name)
        return ("act", name, label, hero, *action)

    # Each action: (verb, amount, total, cards, description). The verb is what the history says;
    # `_Walk` writes it in PokerStars' terms.
    def set_dealer(self, _word: Token, seat: Token | None = None) -> Item:
        return ("dealer", int(seat.value) if seat is not None else None, None, (), None)

    def small_blind(self, _word: Token, amount: Token) -> Item:
        return ("small_blind", _money(amount), None, (), None)

    def big_blind(self, word: Token, amount: Token) -> Item:
        verb = "big_blind_or_bring_in" if "Bring in" in word.value else "big_blind"  # stud: the bring-in
        return (verb, _money(amount), None, (), None)

    def ante(self, amount: Token) -> Item:
        return ("ante", _money(amount), None, (), None)

    def bring_in(self, amount: Token) -> Item:
        return ("bring_in", _money(amount), None, (), None)

    def posts_chip(self, amount: Token) -> Item:
        return ("posts_chip", _money(amount), None, (), None)

    def posts_dead_chip(self, amount: Token) -> Item:
        return ("posts_dead_chip", _money(amount), None, (), None)

    def dealt(self, cards: Cards) -> Item:
        return ("dealt", None, None, cards, None)

    def fold(self, _word: Token, *rest: Any) -> Item:
        shown = next((r for r in rest if isinstance(r, tuple)), ())
        return ("fold", None, None, shown, None)

    def check(self, _word: Token) -> Item:
        return ("check", None, None, (), None)

    def call(self, _word: Token, amount: Token) -> Item:
        return ("call", _money(amount), None, (), None)

    def bet(self, word: Token, amount: Token) -> Item:
        return ("bet", _money(amount), None, (), "double" if word.value.startswith("D") else None)

    def raise_(self, _word: Token, amount: Token, total: Token | None = None) -> Item:
        return ("raise", _money(amount), _money(total if total is not None else amount), (), None)

    def all_in(self, _word: Token, amount: Token) -> Item:
        return ("all_in", _money(amount), None, (), None)

    def all_in_raise(self, _word: Token, amount: Token, total: Token | None = None) -> Item:
        return ("all_in", _money(amount), _money(total if total is not None else amount), (), None)

    def uncalled(self, amount: Token) -> Item:
        return ("uncalled", _money(amount), None, (), None)

    def showdown(self, _word: Token, *rest: Any) -> Item:
        shown = next((r for r in rest if isinstance(r, tuple)), ())
        words = next((str(r)[1:-1].strip() for r in rest if is_token(r)), None)
        return ("show", None, None, shown, words)

    def muck(self, shown: Cards, _words: Token | None = None) -> Item:
        return ("muck", None, None, shown, None)

    def result(self, *parts: Token) -> Item:
        return ("result", _money(parts[-1]), 1 if len(parts) > 2 else 0, (), None)

    def prize(self, text: Token) -> Item:
        return ("prize", None, None, (), str(text))

    def quiet(self, *_parts: Any) -> None:
        return None

    # ---- summary ----
    def summary(self, token: Token, *lines: Item | None) -> Item:
        total = next((line for line in lines if line is not None and line[0] == "total"), None)
        board = next((line[1] for line in lines if line is not None and line[0] == "board"), ())
        return ("summary", token, total, board)

    def total_line(self, total: Token, rake: Token | None = None) -> Item:
        return ("total", _money(total), _money(rake) if rake is not None else None)

    def board_line(self, cards: Cards) -> Item:
        return ("board", cards)

    def summary_seat(self, _text: Token) -> None:
        return None  # what each seat did and won, which the play says

    # ---- the whole hand ----
    def start(self, *items: Item) -> Hand:
        return _Walk(items).hand()


def _position(label: str) -> int | None:
    """A position's place clockwise from the button: Dealer 0, Small Blind 1, Big Blind 2, UTG 3, UTG+1 4;
    None for stud's "Seat+N" (no button)."""
    fixed = {"Dealer": 0, "Small Blind": 1, "Big Blind": 2, "UTG": 3}
    if label in fixed:
        return fixed[label]
    return 3 + int(label[4:]) if label.startswith("UTG+") else None


def _clockwise(numbered: list[tuple[int, int]]) -> bool:
    """Whether seats numbered so (number, position) sit in the positions' clockwise order."""
    keys = [key for _, key in sorted(numbered)]
    start = keys.index(min(keys))
    return keys[start:] + keys[:start] == sorted(keys)


def _table_seats(seats: list[Item], dealt: set[str]) -> list[int]:
    """Each seat's number at the table. The history's numbers, when they are a table's (ten at most) and
    sit the positions of the players dealt in clockwise (a player sitting out keeps a position name that
    may stand anywhere: BOV-2601409566); a tournament's numbers past the table's are its players' (the
    seats are then listed in table order, which "Set dealer [6]" and the summary's "Seat+6" count); a
    history whose numbers put the positions out of order is numbered by position from the button's
    seat 1, the players sitting out after them."""
    keys = [_position(item[3]) for item in seats]
    listed = [item[2] for item in seats]
    if None in keys:
        return listed if max(listed, default=0) <= _TABLE_SEATS else list(range(1, len(seats) + 1))
    playing = [i for i, item in enumerate(seats) if item[3] in dealt] or list(range(len(seats)))
    # Without a Dealer the button is dead: an empty seat is left for it before the small blind's.
    dead = int(0 not in keys)
    small = next((i for i, k in enumerate(keys) if k == 1), 0)
    ranked = sorted(range(len(seats)), key=lambda i: (i not in playing, keys[i] or 0))
    counted = (listed, [i + 1 + dead * (i >= small) for i in range(len(seats))])
    for numbers in counted:
        pairs = [(numbers[i], keys[i] or 0) for i in playing]
        if max(numbers, default=0) <= _TABLE_SEATS and _clockwise(pairs):
            return numbers
    return [ranked.index(i) + 1 + dead for i in range(len(seats))]


@dataclass(slots=True)
class _Names:
    """Who the players are: the history's own player is "Hero"; a player the site identifies (the MVS
    "Player Info" id, a tournament's number for its player where a table's seat number would stand) is
    that id ("P103 (T44843212)": within its tournament); anyone else is a player of this hand only, named
    by position and hand number ("UTG+1 (2629950879)"): a position is not a person across hands.
    docs/interop.md (Bovada, Ignition and Bodog), "Who the players are"."""

    hand: str
    tourney: str | None
    ids: dict[int, str]  # table seat -> the site's id (MVS "Player Info")
    numbered: bool  # the seat numbers are the tournament's numbers for its players
    names: dict[str, str] = field(default_factory=dict)  # position -> player

    def seat(self, label: str, hero: bool, listed: int, table_seat: int) -> str:
        within = f" (T{self.tourney})" if self.tourney else ""
        if hero:
            name = HERO
        elif table_seat in self.ids:
            name = self.ids[table_seat] + within
        elif self.tourney and self.numbered:
            name = f"P{listed}{within}"
        else:
            name = f"{label} ({self.hand})"
        self.names[label] = name
        return name


@dataclass(slots=True)
class _Walk:
    """One walk over a hand's raw lines, in order, writing them as the PokerStars reader's items."""

    raw: tuple[Item, ...]
    out: list[Item] = field(default_factory=list)
    stud: bool = False
    limit: bool = False
    stacks: dict[str, int] = field(default_factory=dict)  # what each player has left
    starts: dict[str, int] = field(default_factory=dict)  # what each player sat down with
    on_street: dict[str, int] = field(default_factory=dict)  # live chips in on this street
    hole: dict[str, list[str]] = field(default_factory=dict)
    dealt_here: set[str] = field(default_factory=set)
    bet_here: bool = False
    stud_street: int = 0
    board: int = 0
    brought_in: bool = False  # stud: the bring-in is the street's only wager so far
    big_blind: int | None = None
    posts: dict[str, list[int]] = field(default_factory=dict)
    first_bets: dict[int, int] = field(default_factory=dict)  # stud street -> its first full bet
    shown: int = 0
    button: int | None = None
    names: dict[str, str] = field(default_factory=dict)  # position -> player
    mucked: list[Item] = field(default_factory=list)  # the summary's lines that give mucked cards
    collected: int = 0
    dollars: bool = False
    summary_board: Cards = ()  # the summary's board, whose cards some histories never deal in the play
    played: set[str] = field(default_factory=set)  # dealt in, not folded, not all-in
    acted: set[str] = field(default_factory=set)  # acted on this street since its last bet or raise
    started: bool = False  # the first street's marker was written: the forced bets are over
    returns: list[Item] = field(default_factory=list)  # returns written before the cards are dealt

    def hand(self) -> Hand:
        head: dict[str, Any] = self.raw[0][1]
        game = str(head["game"]).removesuffix("ZonePoker")
        if game not in GAMES:
            raise error(head["game"], f"unknown game '{game}' (docs/interop.md (Bovada, Ignition and Bodog))")
        self.stud = game.startswith("7CARD")
        self.limit = head["structure"] == "Fixed Limit"
        info = " ".join(item[1] for item in self.raw if item[0] == "info")
        seats = [item for item in self.raw if item[0] == "seat"]
        dealt = {item[2] for item in self.raw if item[0] == "act" and item[4] == "dealt"}
        numbers = _table_seats(seats, dealt)
        ids = {int(seat): pid for seat, pid in _PLAYER_IDS.findall(info)}
        numbered = any(item[2] > _TABLE_SEATS for item in seats)
        names = _Names(head["number"], head.get("tourney"), ids, numbered)
        self.dollars = any(item[6] for item in seats)
        for (_, token, listed, label, hero, stack, _dollars), table_seat in zip(seats, numbers, strict=True):
            player = names.seat(label, hero, listed, table_seat)
            self.stacks[player] = self.starts[player] = stack
            self.out.append(("seat", token, table_seat, player, stack, "[hero]" if hero else "", None))
        self.names = names.names
        self.summary_board = next((item[3] for item in self.raw if item[0] == "summary"), ())
        for before, item in zip(self.raw, self.raw[1:], strict=False):
            if item[0] == "act" and before[2:] == item[2:] and not self._opens_round(item[4]):
                # The site wrote the line again (BOV-3152355148 writes "All-in 1405" four times and each
                # "Hand Result" three): a player acts once in a row but to open the next betting round.
                continue
            self._line(item)
        self.button = self._button()
        played = {item[2] for item in self.out if item[0] in ("dealt", "action")}
        self.out = [(*item[:5], "is sitting out", *item[6:]) if item[0] == "seat" and item[3] not in played
                    else item for item in self.out]
        header = self._header(head, game, info)
        # Seats numbered here rather than by the history are not the table's: no check across the
        # table's hands may compare them (evaluator.sequences), so the hand names no table.
        renumbered = numbers != [item[2] for item in seats]
        table = ("table", None if renumbered else head.get("table"), None, self.button, False)
        hand = assemble([("header", header), table, *self.out], BOVADA)
        room = [str(head["site"]).removesuffix(" Hand #")]
        if "zone" in head:
            room.append("Zone Poker")
        if head.get("speed"):
            room.append(head["speed"])
        if header.tourney is not None and header.tourney[1]:
            room.append(header.tourney[1])
        if hand.currency and hand.game_type == "cash":
            room.append(hand.currency)
        if hand.stakes.small_blind == 0:  # nobody posted the small blind: the table's is not written
            hand = replace(hand, stakes=replace(hand.stakes, small_blind=None))
        if self.stud and not self.first_bets:  # no full bet made: the stud limit is not written
            hand = replace(hand, stakes=replace(hand.stakes, small_bet=None, big_bet=None))
        return replace(hand, site=_SITES[room[0]], event=", ".join(room))

    def _button(self) -> int | None:
        """The Dealer's seat; without a Dealer, a dead button on the empty seat before the small blind."""
        if "Dealer" in self.names:
            return self._seat_of(self.names["Dealer"])
        if "Small Blind" not in self.names or self.stud:
            return None
        seat = self._seat_of(self.names["Small Blind"]) - 1
        taken = {s[2] for s in self.out if s[0] == "seat"}
        return seat if seat >= 1 and seat not in taken else None

    # ---- the stakes ----
    def _header(self, head: dict[str, Any], game: str, info: str) -> Header:
        token: Token = head["site"]
        site = _SITES[str(token).removesuffix(" Hand #")]
        stakes = None
        buy_in = _BUY_IN.search(info)
        written = _STAKES.search(info)
        if "tourney" not in head:
            currency = "USD" if self.dollars else ""
            small, big = self._pair(written)
            stakes = ("blinds", small, big, currency)
        tourney = (head["tourney"], buy_in.group(1) if buy_in else "") if "tourney" in head else None
        level = head.get("level")
        if level is not None and self.stud:
            small, big = self._stud_bets()
            level = (level[0], small, big)
        elif level is not None and self.limit:
            level = (level[0], level[2], 2 * level[2])  # a limit level names its blinds, not its bets
        return Header(token, site, head["number"], None, tourney, None,
                      Token.new_borrow_pos("GAME", GAMES[game], head["game"]), head["structure"], stakes,
                      level, head["started_at"])

    def _pair(self, written: re.Match[str] | None) -> tuple[int, int]:
        """A cash game's two amounts (PokerStars' header's): the blinds, a limit game's bets."""
        if self.stud:
            return self._stud_bets()
        if written is not None:
            small, big = parse_amount(written.group(1)), parse_amount(written.group(2))
        else:
            # The blinds posted in full; a blind posted all-in says the blind only when none is, but in
            # limit the small blind posted in full does (half the big blind in every limit hand of the
            # corpus): BOV-2667379227's $15 big blind all-in at $30/$60.
            small = min(self.posts.get("small_blind") or self.posts.get("small_blind all-in") or [0])
            full = self.posts.get("big_blind") or ([2 * small] if self.limit and "small_blind" in self.posts
                                                   else self.posts.get("big_blind all-in"))
            big = max(full or [0])
        return (big, 2 * big) if self.limit else (small, big)

    def _stud_bets(self) -> tuple[int, int]:
        """Stud's small and big bet: no header says them, so the first full bet of a street does
        (third and fourth street's is the small bet, a later street's the big bet)."""
        for street, amount in sorted(self.first_bets.items()):
            return (amount, 2 * amount) if street < 2 else (amount // 2, amount)
        return 0, 0  # none made: `hand` writes no limit

    # ---- lines ----
    def _seat_of(self, player: str) -> int:
        return next(int(s[2]) for s in self.out if s[0] == "seat" and s[3] == player)

    def _line(self, item: Item) -> None:
        tag = item[0]
        if tag == "marker":
            self._marker(item[1], item[2], item[3])
        elif tag == "table_cards":
            token = self.out[-1][1]
            self._open(_BOARD_STREETS.get(self.board, "RIVER"), token, (item[1],))
            self.board += len(item[1])
        elif tag == "act":
            self._act(item)
        elif tag == "summary":
            self.out.append(("summary", item[1], (*self.mucked, *self._total(item[2]))))

    def _total(self, written: Item | None) -> tuple[Item, ...]:
        """The summary's total and rake. A cash game's total without a rake ("Total Pot($222.21)"), or no
        total at all (Zone Poker), leaves the rake unwritten: it is what the pushes leave of the pot, as
        the house keeps it (the total, when written, is still checked against the chips put in)."""
        cash = "tourney" not in self.raw[0][1]
        if written is None:
            pot = sum(self.starts.values()) - sum(self.stacks.values())
            kept = pot - self.collected
            return (("total", None, [], kept, []),) if cash and kept >= 0 else ()
        _, pot, rake = written
        if rake is None and cash and pot >= self.collected:
            rake = pot - self.collected
        return (("total", pot, [], rake, []),)

    def _marker(self, token: Token, name: str, groups: tuple[Cards, ...]) -> None:
        if self.stud and name in _STUD_STREETS:
            self.stud_street = _STUD_STREETS.index(name)
        elif not self.stud and groups:
            self.board = sum(len(g) for g in groups)  # "*** TURN *** [7d Kh 9h] [Qd]"
        self._open(name, token, groups)

    def _open(self, name: str, token: Token, groups: tuple[Cards, ...]) -> None:
        """A new street: the chips in on it start again (the blinds are the first street's)."""
        if name != "HOLE CARDS":
            self.on_street = {}
            self.out.extend(self.returns)
            self.returns = []
        self.started = True
        self.dealt_here, self.bet_here, self.acted = set(), False, set()
        self.out.append(_street(name, token, groups))

    def _round_over(self) -> bool:
        """Whether everyone still to bet has acted on the street since its last bet and matched it."""
        top = max(self.on_street.values(), default=0)
        return bool(self.acted) and all(p in self.acted and self.on_street.get(p, 0) == top
                                        for p in self.played)

    def _opens_round(self, verb: str) -> bool:
        """Whether an action may open the next betting round: the last one is over, and two players
        or more can still bet."""
        return verb in _OPENING and len(self.played) > 1 and self._round_over()

    def _deal_unwritten(self, token: Token, whole: bool) -> None:
        """Deal the board cards the play never dealt but the summary shows ("new format" histories write
        no board line): the next street's when the betting round is over (`whole`: every street left,
        before the hands are shown or the pot pushed)."""
        while not self.stud and self.board < len(self.summary_board) and (whole or self._round_over()):
            name = _BOARD_STREETS.get(self.board, "RIVER")
            size = 3 if name == "FLOP" else 1
            cards = self.summary_board[self.board: self.board + size]
            self._open(name, token, (cards,))
            self.board += size
            if not whole:
                return

    def _player(self, token: Token, label: str) -> str:
        if label not in self.names:
            raise error(token, f"'{label}' is not seated in this hand")
        return self.names[label]

    def _act(self, item: Item) -> None:
        _, token, label, _hero, verb, amount, total, cards, words = item
        if verb == "dealer":
            return  # "Set dealer [5]": the Dealer's seat, which the seats already say (`_button`)
        player = self._player(token, label)
        if verb == "all_in" and not self.started:
            # "Big Blind : All-in 20": a blind or an ante, all-in
            verb, amount = self._forced(player, label), self.stacks[player]
        if verb == "dealt":
            self._dealt(token, player, cards)
        elif verb in ("small_blind", "big_blind", "big_blind_or_bring_in", "bring_in", "posts_chip",
                      "posts_dead_chip", "ante"):
            self._post(token, player, verb, amount)
        elif verb in ("fold", "check"):
            self._deal_unwritten(token, whole=False)
            self.bet_here = True
            self.acted.add(player)
            if verb == "fold":
                self.played.discard(player)
            self._emit(token, player, (verb, None, None, cards, None))
        elif verb in ("call", "bet", "raise", "all_in"):
            self._deal_unwritten(token, whole=False)
            self._wager(token, player, verb, amount, total, words == "double")
        elif verb == "uncalled":
            self.stacks[player] += amount
            if self.started:
                self.out.append(("uncalled", token, player, amount))
            else:  # an ante nobody matched (BOV-2690849153): given back after the first street's betting
                self.returns.append(("uncalled", token, player, amount))
        elif verb in ("show", "muck"):
            self._deal_unwritten(token, whole=True)
            self._show(token, player, verb, cards, words)
        elif verb == "result":
            self._deal_unwritten(token, whole=True)
            self.collected += amount
            self.out.append(("collected", token, player, amount, total))
        elif verb == "prize":
            self.out.append(("kept", token, f"{player}: {words}"))

    def _forced(self, player: str, label: str) -> str:
        """What an "All-in" before the cards are dealt posts: the ante, when the hand has antes and the
        player has not put theirs in, else the blind of the player's position."""
        antes = any(item[0] == "act" and item[4] == "ante" for item in self.raw)
        anted = any(item[0] == "action" and item[2] == player and item[3][0] == "ante" for item in self.out)
        if antes and not anted:
            return "ante"
        if label == "Small Blind" or (label == "Dealer" and "small_blind" not in self.posts):
            return "small_blind"
        return "big_blind"

    def _emit(self, token: Token, player: str, action: Item, all_in: bool = False) -> None:
        self.out.append(("action", token, player, action, all_in))

    def _dealt(self, token: Token, player: str, cards: Cards) -> None:
        if self.stud and (player in self.dealt_here or self.bet_here) and self.stud_street < 4:
            # A stud history that writes no street marker: a player dealt again opens the next street.
            self.stud_street += 1
            self._open(_STUD_STREETS[self.stud_street], token, ())
        self.started = True
        self.dealt_here.add(player)
        if self.stacks[player] > 0 and player not in self.hole:
            self.played.add(player)
        self.hole.setdefault(player, []).extend(cards)
        self.out.append(("dealt", token, player, (cards,)))

    def _put(self, player: str, chips: int) -> bool:
        """Chips from the player's stack; whether they were the last."""
        self.stacks[player] -= chips
        return self.stacks[player] <= 0

    def _post(self, token: Token, player: str, verb: str, amount: int) -> None:
        if verb == "ante":
            self._emit(token, player, ("ante", amount, None, (), "ante"), self._put(player, amount))
            return
        if verb == "bring_in" or (verb == "big_blind_or_bring_in" and self.stud):
            self.posts.setdefault("bring_in", []).append(amount)
            self.on_street[player] = amount
            self.brought_in = True
            self._emit(token, player, ("bring_in", amount, None, (), None), self._put(player, amount))
            return
        big = self.big_blind or amount
        if verb in ("big_blind", "big_blind_or_bring_in"):
            detail = "big_blind"
            self.big_blind = self.big_blind or amount
        elif verb == "small_blind":
            detail = "small_blind"
        elif verb == "posts_chip":
            # A player coming in posts the big blind, or the small blind, which the assembly reads as
            # live or dead by what the poster calls next (BOV-2601409566's "$5" is live: "Calls $5").
            detail = "big_blind" if amount >= big else "small_blind"
        else:
            # "Posts dead chip $30" at $10/$20: the big blind, live, and the small blind, dead.
            live = min(amount, big)
            self.on_street[player] = self.on_street.get(player, 0) + live
            self._emit(token, player, ("post", live, None, (), "big_blind"), self._put(player, live))
            if amount > live:
                self._emit(token, player, ("post", amount - live, None, (), "dead_blind"),
                           self._put(player, amount - live))
            return
        all_in = self._put(player, amount)
        if detail != "dead_blind":
            self.on_street[player] = self.on_street.get(player, 0) + amount
            self.posts.setdefault(detail if not all_in else f"{detail} all-in", []).append(amount)
        self._emit(token, player, ("post", amount, None, (), detail), all_in)

    def _wager(self, token: Token, player: str, verb: str, amount: int, total: int | None,
               double: bool = False) -> None:
        """A call, bet, raise or all-in, in PokerStars' terms: a call and a bet are the chips put in,
        a raise is by how much and to what; an all-in puts in all the player has left."""
        self.bet_here = True
        before = self.on_street.get(player, 0)
        top = max(self.on_street.values(), default=0)
        if verb == "all_in":
            to = before + max(self.stacks[player], 0)
        elif verb == "raise":
            to = total or 0
        else:
            to = before + amount
        chips = to - before
        all_in = self._put(player, chips)
        self.on_street[player] = to
        if to <= top or verb == "call":  # a call of the full big blind over a short one stays a call
            action: Item = ("call", chips, None, (), None)
        elif self.stud and self.brought_in and self.stud_street == 0:
            action = ("complete", None, to, (), None)
            self.first_bets.setdefault(0, to)
        elif top == 0:
            action = ("bet", chips, None, (), None)
        else:
            action = ("raise", to - top, to, (), None)
        self.brought_in = self.brought_in and action[0] == "call"
        if action[0] == "call":
            self.acted.add(player)
        else:
            self.acted = {player}
        if all_in:
            self.played.discard(player)
        if self.stud and action[0] == "bet" and not all_in:
            # A double bet on fourth street (an open pair) is a big bet, as a later street's.
            self.first_bets.setdefault(max(self.stud_street, 2) if double else self.stud_street, chips)
        self._emit(token, player, action, all_in)

    def _show(self, token: Token, player: str, verb: str, cards: Cards, words: str | None) -> None:
        """A hand shown or mucked at the end: the player's own cards (the history names the five the
        hand plays, board cards among them). Two hands or more meet on the showdown street."""
        if self.shown == 0 and self._showing() > 1:
            self._open("SHOW DOWN", token, ())
        self.shown += 1
        hole = tuple(self.hole.get(player, ())) or cards
        if verb == "show":
            self._emit(token, player, ("show", None, None, hole, _described(cards) or words))
        else:
            self._emit(token, player, ("muck", None, None, (), None))
            self.mucked.append(("seat_summary", token, player, ("mucked", hole, [], None)))

    def _showing(self) -> int:
        return sum(1 for item in self.raw if item[0] == "act" and item[4] in ("show", "muck"))
