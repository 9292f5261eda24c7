"""Turns the lines of `partypoker.lark` into the lines 888poker's reader follows
(`grammar.poker888_transformer.Reading`), which writes them as PokerStars' for
`grammar.pokerstars_assembly`: PartyPoker's play is written as 888's is (amounts are the chips each
line adds, "raises [$0.08 USD]" included; no uncalled bet and no rake are written), so one reading
serves both. What is PartyPoker's own:

- a cash table's header names its largest buy-in, not its stakes ("$2 USD NL Texas Hold'em" at
  $0.01/$0.02): the blinds are the ones posted; a tournament's header names its level's;
- "is all-In [$X]" is X chips added, a call, bet or raise as they stand to the top wager;
- "posts big blind + dead [$0.03]" is a live big blind and a dead small blind;
- the shows and the pushes ("wins $0.65 USD from the main pot with ...") close the play, with no
  summary: they are the summary 888's reader reads.

The reader is documented in docs/interop.md (PartyPoker).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from lark import Token, Transformer, v_args

from grammar.poker888_transformer import Reading
from grammar.pokerstars_assembly import SYMBOLS, Header, Item, assemble, error
from grammar.pokerstars_dialects import Dialect
from grammar.reading import is_token
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import Hand

SITE = "PartyPoker"
DIALECT = Dialect("partypoker", re.compile(r"\*{5} Hand History for Game \d+ \*{5}\s*$"), "partypoker",
                  site=SITE, prefix="PP")
# PartyPoker's game names and structures in PokerStars' words (grammar.pokerstars_games reads those).
_GAMES = {"Texas Hold'em": "Hold'em", "Texas Holdem": "Hold'em", "Holdem": "Hold'em", "Omaha": "Omaha",
          "Omaha Hi": "Omaha", "Omaha Hi-Lo": "Omaha Hi/Lo", "7 Card Stud": "7 Card Stud",
          "7 Card Stud Hi-Lo": "7 Card Stud Hi/Lo", "Short Deck": "6+ Hold'em"}
_STREETS = {"": "3RD STREET", "DOWN CARDS": "HOLE CARDS", "FOURTH STREET": "4TH STREET",
            "FIFTH STREET": "5TH STREET", "SIXTH STREET": "6TH STREET"}  # "** Dealing **": stud's first deal
_ENDING = ("shows", "mucks", "quiet", "collected")
_TOURNAMENT_IN_NAME = re.compile(r"\((\d+)\) Table #\d+$")
_DECIMALS = re.compile(r"[.,](\d{1,2})$")
_STRUCTURES = {"NL": "No Limit", "PL": "Pot Limit", "FL": "Limit"}

Cards = tuple[str, ...]


def money(token: Token) -> int:
    """An amount in hundredths: "$1,534.96", "4,520", "$ 530"; a comma or dot before the last one or
    two digits is the decimal point ("$24,72"), other commas group thousands.

    >>> [money(Token("MONEY", t)) for t in ("$1,534.96", "4,520", "$ 530", "\u20ac10", "$24,72")]
    [153496, 452000, 53000, 1000, 2472]
    """
    text = re.sub(r"[^\d.,]", "", str(token))
    decimals = _DECIMALS.search(text)
    whole = re.sub(r"\D", "", text[: decimals.start()] if decimals else text)
    try:
        return parse_amount(whole + (f".{decimals[1]}" if decimals else ""))
    except AmountError as exc:
        raise error(token, str(exc)) from None


def _symbol(token: Token) -> str:
    return next((c for c in str(token) if c in SYMBOLS), "")


@dataclass(frozen=True, slots=True)
class _Stakes:
    """The header's second line: the game, its structure and time; a cash table's buy-in currency, or a
    tournament's number, buy-in, level and blinds."""

    game: Token
    structure: str
    currency: str | None
    started_at: datetime | None
    tournament: str | None = None
    in_tournament: bool = False
    buy_in: str | None = None
    level: str | None = None
    blinds: tuple[int, int, int] | None = None  # small, big, ante
    bets: tuple[int, int] | None = None  # a limit game's small and big bets


@dataclass(frozen=True, slots=True)
class _Table:
    name: str
    play_money: bool


@v_args(inline=True)
class PartyPokerTransformer(Transformer[Token, Any]):
    # ---- values ----
    def cards(self, *tokens: Token) -> Cards:
        return tuple(str(t) for t in tokens)

    def amount(self, value: Token, *_code: Token) -> int:
        return money(value)

    def stamp(self, _weekday: Token, month: Token, day: Token, time: Token, *rest: Token) -> datetime:
        year = rest[-1]
        try:
            return datetime.strptime(f"{year} {month} {day} {time}", "%Y %B %d %H:%M:%S")
        except ValueError:
            raise error(month, f"'{month} {day} {year} {time}' is not a valid date and time") from None

    # ---- header ----
    def starts_line(self, _number: Token) -> None:
        return None

    def game_number(self, _number: Token) -> None:
        return None

    def title(self, number: Token, origin: Token | None = None) -> tuple[Token, str | None]:
        return number, str(origin)[1:-1].replace(" ", "") if origin is not None else None

    def cash_stakes(self, *parts: Any) -> _Stakes:
        tokens = [p for p in parts if is_token(p)]
        amounts = [money(t) for t in tokens if t.type == "MONEY"]
        code = next((str(t) for t in tokens if t.type == "CODE"), None) or SYMBOLS.get(_symbol(tokens[0]))
        structure = next((str(t) for t in tokens if t.type == "STRUCTURE"), "FL")  # stud names none
        game = next(t for t in tokens if t.type == "GAME")
        # two amounts are a limit game's bets; one is a big-bet table's largest buy-in
        bets = (amounts[0], amounts[1]) if len(amounts) == 2 else None
        return _Stakes(game, _STRUCTURES[structure], code, parts[-1], bets=bets)

    def buy_in(self, *tokens: Token) -> Item:
        words = " + ".join(str(t).replace(" ", "") for t in tokens if t.type == "MONEY")
        code = next((str(t) for t in tokens if t.type == "CODE"), None) or SYMBOLS.get(_symbol(tokens[0]))
        return ("buy_in", words, code)

    def trny(self, number: Token, level: Token) -> Item:
        return ("trny", str(number), str(level))

    def level_stakes(self, kind: Token, small: Token, big: Token, ante: Token | None = None) -> Item:
        # "Stakes(200/400)" are a limit game's bets, whose big blind is the small bet
        bets = money(small), money(big)
        blinds = (bets[0] // 2, bets[0]) if kind.value.startswith("Stakes") else bets
        return ("level", *blinds, money(ante) if ante is not None else 0, bets)

    def tournament_stakes(self, structure: Token, game: Token, *rest: Any) -> _Stakes:
        parts = {r[0]: r[1:] for r in rest if isinstance(r, tuple)}
        buy_in, trny, blinds = parts.get("buy_in"), parts.get("trny"), parts.get("level")
        return _Stakes(game, _STRUCTURES[str(structure)], buy_in[1] if buy_in else None, rest[-1],
                       tournament=trny[0] if trny else None, in_tournament=True,
                       buy_in=buy_in[0] if buy_in else "",
                       level=trny[1] if trny else None,
                       blinds=(blinds[0], blinds[1], blinds[2]) if blinds else None,
                       bets=blinds[3] if blinds and str(structure) == "FL" else None)

    def table(self, name: Token, kind: Token) -> _Table:
        return _Table(str(name).strip(), "Real" not in kind.value)

    def button(self, seat: Token) -> int:
        return int(seat.value)

    def player_count(self, *_counts: Token) -> None:
        return None

    # ---- the play ----
    def seat_line(self, _word: Token, number: Token, name: Token, stack: Token, *_rest: Token) -> Item:
        return ("seat", name, int(number.value), str(name).strip(), money(stack), "", None)

    def street_line(self, street: Token, cards: Cards = ()) -> Item:
        word = str(street).removeprefix("Dealing").strip().upper()
        upper = _STREETS.get(word, word)
        marker = Token.new_borrow_pos("STREET_NAME", upper, street)
        return ("street", marker, [(marker, [cards] if cards else [])])

    def action_line(self, actor: Token, action: Item) -> Item:
        return ("play", actor, str(actor).strip(), action)

    def post_small_blind(self, amount: int) -> Item:
        return ("post", amount, "small_blind")

    def post_big_blind(self, amount: int) -> Item:
        return ("post", amount, "big_blind")

    def post_both(self, amount: int) -> Item:
        # the big blind's share is known once the hand's big blind is: `_with_big_blind`
        return ("both", amount, None)

    def post_button_blind(self, amount: int) -> Item:
        return ("post", amount, "button_blind")

    def post_ante(self, amount: int) -> Item:
        return ("ante", amount, "ante")

    def bet(self, amount: int) -> Item:
        return ("bet", amount, None)

    def call(self, amount: int) -> Item:
        return ("call", amount, None)

    def raise_(self, amount: int) -> Item:
        return ("raise", amount, None)

    def raise_to(self, _by: Token, to: Token) -> Item:
        # the newer layout's "raises 0.85 to 0.85": its first amount is not the raise, the second the total
        return ("raise_to", money(to), None)

    def all_in(self, amount: int) -> Item:
        return ("all_in", amount, None)

    def bring_in(self, amount: int) -> Item:
        return ("bring_in", amount, None)

    def complete(self, amount: int) -> Item:
        return ("complete", amount, None)

    def check(self) -> Item:
        return ("check", None, None)

    def fold(self) -> Item:
        return ("fold", None, None)

    def dealt_line(self, name: Token, cards: Cards) -> Item:
        return ("dealt", name, str(name).strip(), (cards,))

    def shows_line(self, actor: Token, cards: Cards, *_description: Token) -> Item:
        return ("shows", actor, str(actor).strip(), cards, None)

    def mucks_line(self, actor: Token, cards: Cards, *_description: Token) -> Item:
        return ("mucks", actor, str(actor).strip(), cards, None)

    def quiet_line(self, actor: Token) -> Item:
        return ("quiet", actor)

    def wins_line(self, actor: Token, *rest: Token) -> Item:
        amount = next(t for t in rest if t.type == "MONEY")
        return ("collected", actor, str(actor).strip(), money(amount), 0)

    def note(self, *tokens: Token) -> Item | None:
        # a player who joins is written among no seats: their lines cannot be read (`_joined_unseated`)
        if len(tokens) == 2 and tokens[1].value.startswith("has joined"):
            return ("joined", tokens[0], str(tokens[0]).strip())
        return None

    # ---- the newer layout ----
    def newer_title(self, number: Token) -> tuple[Token, str | None]:
        return number, None

    def newer_stakes(self, small: Token, big: Token, *rest: Any) -> _Stakes:
        tokens = [r for r in rest if is_token(r)]
        parts = {r[0]: r[1:] for r in rest if isinstance(r, tuple)}
        game = next(t for t in tokens if t.type == "GAME")
        structure = next(str(t) for t in tokens if t.type == "STRUCTURE")
        tourney = any(t.type == "TOURNEY" for t in tokens)
        buy_in = parts.get("buy_in")
        # a cash table's stakes are its blinds here ("0.10/0.25"), in dollars though no symbol is written
        return _Stakes(game, _STRUCTURES[structure], (buy_in[1] if buy_in else None) if tourney else "USD",
                       rest[-1], tournament=parts["trny"][0] if "trny" in parts else None,
                       in_tournament=tourney, buy_in=buy_in[0] if buy_in else "",
                       blinds=(money(small), money(big), 0))

    def newer_tournament(self, number: Token) -> Item:
        return ("trny", str(number))

    def newer_buy_in(self, *amounts: Token) -> Item:
        return ("buy_in", " + ".join(str(a) for a in amounts), SYMBOLS.get(_symbol(amounts[0])))

    def newer_stamp(self, _day: Token, month: Token, day: Token, time: Token, _zone: Token,
                    year: Token) -> datetime:
        try:
            return datetime.strptime(f"{year} {month} {day} {time}", "%Y %b %d %H:%M:%S")
        except ValueError:
            raise error(month, f"'{month} {day} {year} {time}' is not a valid date and time") from None

    def newer_table(self, name: Token, kind: Token, button: Token) -> tuple[_Table, int]:
        return _Table(str(name).strip(), "Real" not in kind.value), int(button.value)

    def newer_summary(self, _token: Token, pots: Item, *lines: Any) -> list[Item]:
        return [pots, *(line for group in lines if isinstance(group, list) for line in group)]

    def pots_line(self, main: Token, *rest: int | Item) -> Item:
        """The total pot as written (the pots after the rake, and the rake) and the rake, or None where
        none is written (a tournament)."""
        sides = [r for r in rest if isinstance(r, int)]
        rake = next((r[1] for r in rest if isinstance(r, tuple)), None)
        return ("pots", money(main) + sum(sides) + (rake or 0), rake)

    def side_pot(self, _number: Token, amount: Token) -> int:
        return money(amount)

    def rake(self, amount: Token) -> Item:
        return ("rake", money(amount))

    def balance_line(self, name: Token, *rest: Any) -> list[Item]:
        """A seat's line of the summary: a push ("collected $41.47"), and the cards of a hand shown
        (not a folded one's). A cash-out's "collected" is the site's payment for the player's share of
        the pot, not a push from it: the pot goes to the hand the rules rank first."""
        player = str(name).strip()
        cashed_out = any(is_token(r) and r.type == "CASHED_OUT" for r in rest)
        folded = any(is_token(r) and r.type == "FOLDED" for r in rest)
        cards = next((r for r in rest if isinstance(r, tuple) and r and isinstance(r[0], str)
                      and r[0] not in ("won",)), None)
        won = next((r[1] for r in rest if isinstance(r, tuple) and r and r[0] == "won"), None)
        found: list[Item] = []
        if cards and not folded:
            found.append(("shows", name, player, cards, None))
        if won is not None and not cashed_out:
            found.append(("collected", name, player, won, 0))
        return found

    def no_bet(self) -> None:
        return None

    def lost(self, _amount: Token) -> None:
        return None

    def collected(self, _bet: Token, won: Token, _net: Token) -> Item:
        return ("won", money(won))

    def newer(self, title: tuple[Token, str | None], stakes: _Stakes, table: tuple[_Table, int],
              *items: Any) -> Hand:
        lines = [i for i in items if i is not None]
        ending = [line for group in lines if isinstance(group, list) for line in group]
        play = [line for line in lines if not isinstance(line, list)]
        pots = next((line for line in ending if line[0] == "pots"), None)
        ending = [line for line in ending if line[0] != "pots"]
        hand = _hand(title[0], stakes, table[0], table[1], _chips_added(play) + ending, with_pot=True)
        if pots is None:
            return hand
        # the summary's total pot and rake are the record's, checked against the chips put in
        _, total, rake = pots
        return replace(hand, total_pot=total, rake=rake if rake is not None else hand.rake)

    # ---- the whole hand ----
    def start(self, *items: Any) -> Hand:
        (number, origin), stakes, table, button, *lines = [i for i in items if i is not None]
        hand = _hand(number, stakes, table, button, lines)
        if origin is None:
            return hand
        # a converted hand is the other site's, its number the converter's (PP-PokerBros-1111111111)
        return replace(hand, site=origin, hand_id=f"PP-{origin}-{number}",
                       event=f"{origin} (converted to PartyPoker's layout)")


def _hand(number: Token, stakes: _Stakes, table: _Table, button: int, lines: list[Item],
          with_pot: bool = False) -> Hand:
    """The hand of a block's lines; `with_pot`: the pushes hold the uncalled bet (the newer layout's
    "collected 6600" of a 4,400 pot and a raise of 2,200 nobody called)."""
    _joined_unseated(lines)
    lines = _seats_in_play([line for line in lines if line[0] != "joined"])
    if stakes.blinds and "Stud" not in stakes.game.value and \
            not any(line[0] == "play" and line[3][0] in ("post", "both") for line in lines):
        lines = _tournament_blinds(lines, button, stakes.blinds)
    big = _big_blind(lines, stakes.blinds[1] if stakes.blinds else 0)
    play = [_with_big_blind(line, big) for line in lines if line[0] not in _ENDING]
    ending = [line for line in lines if line[0] in _ENDING]
    if ending:
        play.append(("summary888", ending[0][1], tuple(ending)))
    tournament = stakes.in_tournament
    reading = Reading([])
    rake = reading.play(("table", table.name, None, button, table.play_money), play, tournament, with_pot)
    small = reading.small_posted or (stakes.blinds[0] if stakes.blinds else 0)
    game = Token.new_borrow_pos("GAME", _GAMES[str(stakes.game)], stakes.game)
    if stakes.structure == "Limit":
        small, big = stakes.bets or (big, 2 * big)
    # a header without "Trny:" leaves the number to the table's name: "$1 Sit & Go Hero (128487129) Table #1"
    number_in_name = _TOURNAMENT_IN_NAME.search(table.name)
    tournament_id = stakes.tournament or (number_in_name[1] if number_in_name else table.name)
    tourney = (tournament_id, stakes.buy_in or "") if tournament else None
    level = (stakes.level, stakes.blinds[0], stakes.blinds[1]) if stakes.level and stakes.blinds else None
    button_blind = next((line[3][1] for line in lines
                         if line[0] == "play" and line[3][2] == "button_blind"), None)
    ante = next((line[3][1] for line in lines if line[0] == "play" and line[3][0] == "ante"), 0)
    pair = ("button", button_blind, ante, "") if button_blind is not None else ("blinds", small, big, "")
    header = Header(number, SITE, str(number), None, tourney, None, game, stakes.structure, pair, level,
                    stakes.started_at)
    hand = assemble([("header", header), *reading.out[1:]], DIALECT)
    event = ", ".join(p for p in (SITE, stakes.buy_in or (None if tournament else stakes.currency)) if p)
    return replace(hand, event=event, currency=stakes.currency, rake=rake)


def _with_big_blind(line: Item, big: int) -> Item:
    """"posts big blind + dead [$0.03]": the big blind live, the rest a dead small blind."""
    if line[0] == "play" and line[3][0] == "both":
        amount = line[3][1]
        both = ("dead_blind", amount - big, big) if amount > big else ("post", amount, "big_blind")
        return (*line[:3], both)
    return line


def _joined_unseated(lines: list[Item]) -> None:
    """Refuse a hand in which a player who joined the table plays: PartyPoker lists the seats as the
    hand began, so neither their seat nor their stack is written, and no chip they put in can be
    judged."""
    seated = {line[3] for line in lines if line[0] == "seat"}
    joined = {line[2] for line in lines if line[0] == "joined"} - seated
    late = next((line for line in lines if line[0] == "play" and line[2] in joined), None)
    if late is not None:
        raise error(late[1], f"{late[2]} joined the table and plays in this hand, but the history writes "
                             "neither their seat nor their stack")


def _players(lines: list[Item]) -> set[str]:
    """The players the hand's lines show playing: posting, acting, dealt cards, showing, winning."""
    return {line[2] for line in lines if line[0] in ("play", "dealt", "shows", "mucks", "collected")}


def _seats_in_play(lines: list[Item]) -> list[Item]:
    """A seated player of whom the hand says nothing was not dealt in: PartyPoker lists the players
    sitting out (or waiting for the big blind) among the seats, not always saying so, and every
    player dealt in has a line (a blind, an ante, a fold, or the win of a hand nobody contested)."""
    playing = _players(lines)
    return [(*line[:5], "sits out", line[6]) if line[0] == "seat" and line[3] not in playing else line
            for line in lines]


def _tournament_blinds(lines: list[Item], button: int, blinds: tuple[int, int, int]) -> list[Item]:
    """The blinds a tournament hand of the classic layout posts without writing them (the header and
    "Blinds(300/600)" give them; the pushes count them): the small blind the first player dealt in
    after the button, the big blind the next, as the rules seat them; heads-up the button posts the
    small blind. A stack shorter than its blind goes all in on it."""
    seats = sorted((line[2], line[3], line[4], line[1]) for line in lines
                   if line[0] == "seat" and line[5] != "sits out")
    if len(seats) < 2:
        return lines
    after = [s for s in seats if s[0] > button] + [s for s in seats if s[0] <= button]
    if len(seats) == 2:
        after = after[-1:] + after[:-1]
    antes = {line[2]: line[3][1] for line in lines if line[0] == "play" and line[3][0] == "ante"}
    posts = [("play", token, name, ("post", min(amount, stack - antes.get(name, 0)), detail))
             for (_, name, stack, token), amount, detail
             in zip(after[:2], blinds[:2], ("small_blind", "big_blind"), strict=True)]
    at = next((i for i, line in enumerate(lines) if line[0] == "street"), len(lines))
    return lines[:at] + posts + lines[at:]


def _big_blind(lines: list[Item], level: int) -> int:
    """The table's big blind: a cash header names none, so the one posted; where every big blind
    posted is a short stack's all-in, the first call before the flop of a player who had put nothing
    in (PP-9485557849: "posts big blind [$0.01 USD]" with $0.01, then "calls [$0.02 USD]")."""
    stacks = {line[3]: line[4] for line in lines if line[0] == "seat"}
    posts = [(line[2], line[3][1]) for line in lines
             if line[0] == "play" and line[3][0] == "post" and line[3][2] == "big_blind"]
    full = [amount for name, amount in posts if amount < stacks.get(name, 0)]
    if full or not posts:
        return max(full, default=level)
    flop = next((i for i, line in enumerate(lines) if line[0] == "street" and str(line[1]) != "HOLE CARDS"),
                len(lines))
    plays = [line for line in lines[:flop] if line[0] == "play"]
    in_already = {line[2] for line in plays if line[3][0] in ("post", "both")}
    calls: list[int] = [line[3][1] for line in plays if line[3][0] == "call" and line[2] not in in_already]
    return calls[0] if calls else max(amount for _, amount in posts)


def _chips_added(lines: list[Item]) -> list[Item]:
    """The newer layout's "raises X to Y" as the chips the raise adds (Y less the player's chips
    already in on the street), as every other line is written."""
    wagers: dict[str, int] = {}
    out: list[Item] = []
    for line in lines:
        if line[0] == "street" and str(line[1]) != "HOLE CARDS":
            wagers = {}
        if line[0] == "play":
            kind, amount, detail = line[3]
            if kind == "raise_to":
                line = (*line[:3], ("raise", amount - wagers.get(line[2], 0), detail))
                kind, amount = "raise", line[3][1]
            if kind in ("post", "bet", "call", "raise") and detail != "ante":
                wagers[line[2]] = wagers.get(line[2], 0) + amount
        out.append(line)
    return out
