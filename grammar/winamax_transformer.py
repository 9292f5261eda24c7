"""Turns the lines of `winamax.lark` into the tagged tuples of the PokerStars reader, so that one
assembly (`grammar.pokerstars_assembly`, configured by the `WINAMAX` dialect) builds the hand.

Winamax writes what PokerStars writes in other words, and those words are translated here: the
amount's currency after it ("2€"), its game names ("Omaha8", "2-7 Triple Draw"), its street
markers ("*** ANTE/BLINDS ***", "*** FIRST-BET ***"), a tournament's number in its table's name.
Some of its habits are not the rules' and are undone before the assembly (`_undo_habits`), each
where it is done; docs/interop.md (Winamax) lists them with the hands that show them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from datetime import datetime

from lark import Token, v_args

from grammar.pokerstars_assembly import Header, Item, assemble, currency_of_symbol, error
from grammar.pokerstars_dialects import Dialect
from grammar.pokerstars_names import unmask
from grammar.pokerstars_transformer import PokerStarsTransformer
from pipeline.amounts import parse_amount
from pipeline.model import Hand

# The first line of a Winamax hand: "Winamax Poker - CashGame - HandId: #...", "- Go Fast "Buzau" -",
# "- Tournament "TEA TIME" buyIn: ...".
WINAMAX = Dialect("winamax", re.compile(r"Winamax Poker - (?:CashGame|Go Fast|Tournament) "), "winamax",
                  site="Winamax", prefix="WMX")

# Winamax's game names (lower case; the grammar's GAME reads no other) in PokerStars' words, which
# `grammar.pokerstars_games` maps to the catalog: docs/interop.md (Winamax), "What is read and mapped".
GAMES = {
    "holdem": "Hold'em",
    "omaha": "Omaha",
    "omaha5": "5 Card Omaha",
    "5 card omaha": "5 Card Omaha",
    "omaha8": "Omaha Hi/Lo",
    "omaha hi/lo": "Omaha Hi/Lo",
    "5 card omaha hi/lo": "5 Card Omaha Hi/Lo",
    "7-card stud": "7 Card Stud",
    "7stud": "7 Card Stud",
    "7-card stud hi/lo": "7 Card Stud Hi/Lo",
    "7stud8": "7 Card Stud Hi/Lo",
    "razz": "Razz",
    "2-7 triple draw": "Triple Draw 2-7 Lowball",
    "lowball27": "Triple Draw 2-7 Lowball",
}
# Street markers in PokerStars' words: the blinds, the first betting round and a draw game's first
# bet are all the first street's; a draw game's later "*-BET" markers open no street (the betting
# follows its draw, on the draw's street). Stud's "3rd STREET" ... and FLOP, TURN, RIVER, SHOW DOWN
# are PokerStars' own.
_MARKERS = {"ANTE/BLINDS": "HOLE CARDS", "PRE-FLOP": "HOLE CARDS", "FIRST-BET": "HOLE CARDS",
            "FIRST-DRAW": "FIRST DRAW", "SECOND-DRAW": "SECOND DRAW", "THIRD-DRAW": "THIRD DRAW"}
_NO_STREET = frozenset({"SECOND-BET", "THIRD-BET", "FOURTH-BET"})
_FIRST = "HOLE CARDS"
# A tournament's table: "TEA TIME(548967895)#0037": the tournament's number in parentheses.
_TOURNEY_TABLE = re.compile(r"\((\d+)\)#\d+$")
_BUY_IN_AMOUNT = re.compile(r"(\d[\d,.]*)([\u20ac$\u00a3\ufffd])")
_OUT_OF_POSITION = "small_blind_out_of_position"  # resolved by `_undo_habits`
Marker = tuple[Token, list[tuple[str, ...]]]  # a street marker's name and its cards, as PokerStars'
_BETTING = frozenset({"post", "bet", "call", "raise", "check", "fold", "complete", "bring_in"})


def _name(token: Token) -> str:
    return unmask(str(token).strip())


def _money(token: Token) -> int:
    text = str(token)
    try:
        return parse_amount(text if text[0].isdigit() else text[1:])
    except ValueError as exc:
        raise error(token, str(exc)) from None


def _buy_in(words: str) -> str:
    """The buy-in in PokerStars' words, whose currency the assembly reads: "0,90€ + 0,10€" is
    "€0.90+€0.10" (Winamax writes a decimal comma there); "Ticket only", "Gratuit" stay as written."""
    moved = _BUY_IN_AMOUNT.sub(lambda m: m.group(2) + m.group(1).replace(",", "."), words.strip())
    return re.sub(r"\s*\+\s*", "+", moved)


@v_args(inline=True)
class WinamaxTransformer(PokerStarsTransformer):
    """The PokerStars transformer, with the lines Winamax writes otherwise."""

    def __init__(self) -> None:
        super().__init__(WINAMAX)

    # ---- values ----
    def MONEY(self, token: Token) -> Token:  # Lark calls a terminal's callback by the terminal's name
        """"2€" is "€2", as PokerStars writes it (a lexer callback: every amount passes here)."""
        text = str(token)
        if text[-1].isdigit():
            return token
        return Token.new_borrow_pos("MONEY", text[-1] + text[:-1], token)

    # ---- header ----
    def winamax_header(self, site: Token, room: Item, number: Token, game: Token, structure: Token,
                       stakes: Item, date: Token, time: Token, _zone: Token | None = None) -> Item:
        words = GAMES[str(game).lower()]
        try:
            started = datetime.strptime(f"{date} {time}", "%Y/%m/%d %H:%M:%S")
        except ValueError:
            raise error(date, f"'{date} {time}' is not a valid date and time") from None
        kind, name, buy_in, level = room
        small, big, currency = stakes
        tourney = ("", _buy_in(buy_in)) if kind == "tournament" else None  # the number: the table's
        return ("header", Header(site, "Winamax", str(number).lstrip("#"), None, tourney, name,
                                 Token.new_borrow_pos("GAME", words, game), str(structure),
                                 ("blinds", small, big, currency), level and (level, small, big), started))

    def cash_room(self, _word: Token) -> Item:
        return ("cash", None, "", None)

    def fast_room(self, word: Token, name: Token) -> Item:
        return ("cash", f"{word} {name}", "", None)

    def tournament_room(self, _word: Token, name: Token, buy_in: Token, level: Token) -> Item:
        return ("tournament", str(name).strip('"'), str(buy_in), str(level))

    def stakes(self, *amounts: Token) -> Item:
        """(small, big, currency): three amounts are the ante (read from its posts), then the two."""
        small, big = amounts[-2:]
        return (_money(small), _money(big), currency_of_symbol(str(small)[0]))

    # ---- table and seats ----
    def table(self, _kw: Token, name: Token, max_seats: Token, kind: Token,
              button: int | None = None) -> Item:
        return ("table", str(name)[1:-1], int(max_seats.value.split("-")[0]), button, "play" in kind.value)

    def seat_button(self, _kw: Token, seat: Token) -> int:
        return int(seat.value)

    def seat_line(self, _kw: Token, number: Token, name: Token, stack: Token,
                  bounty: str | None = None) -> Item:
        return ("seat", name, int(number.value), _name(name), _money(stack), "", bounty)

    # ---- the play ----
    def winamax_street(self, marker: Marker | None) -> Item:
        return ("quiet",) if marker is None else ("street", marker[0], (marker,))

    def winamax_marker(self, name: Token, *groups: tuple[str, ...]) -> Marker | None:
        upper = " ".join(str(name).upper().split())
        if upper in _NO_STREET:
            return None
        return (Token.new_borrow_pos("STREET_NAME", _MARKERS.get(upper, upper), name), list(groups))

    def post_small_blind(self, amount: Token, out_of_position: Token | None = None) -> Item:
        return ("post", _money(amount), None, (), _OUT_OF_POSITION if out_of_position else "small_blind")

    def post_big_blind(self, amount: Token, _out_of_position: Token | None = None) -> Item:
        # A big blind posted out of position (a player who sat down) is live, as PokerStars' is.
        return ("post", _money(amount), None, (), "big_blind")

    def absent(self, *_words: Token) -> None:
        """A player sitting out who does not post ("denies big blind"): no play."""
        return None

    def discard(self, count: Token, _word: Token, cards: tuple[str, ...] = ()) -> Item:
        """"discard 0 card" is standing pat; the cards thrown are never shown, the hero's neither."""
        if int(count.value) == 0:
            return ("stand_pat", None, None, (), None)
        return ("discard", int(count.value), None, cards, None)

    def collected_line(self, name: Token, amount: Token, pot: int, _half: Token | None = None) -> Item:
        # "(HI)"/"(LO)": each half is pushed on its own line, as PokerStars pushes them (no label).
        return ("collected", name, _name(name), _money(amount), pot)

    # ---- summary ----
    def total_line(self, total: Token, rake: Token) -> Item:
        """("total", pot, [], rake, []): Winamax's "Total pot" is what the players collected, after the
        rake; the model's is before it. A rounded total ("6.02k") says nothing exact: None."""
        taken = 0 if rake.type == "NO_RAKE" else _money(rake)
        pot = None if total.type == "ROUNDED" else _money(total) + taken
        return ("total", pot, [], taken, [])

    def showed_once(self, cards: tuple[str, ...], result: tuple[int | None, str | None]) -> Item:
        """Winamax writes one result a line (a high-low hand gets a line for each half)."""
        amount, text = result
        return ("showed", cards, [(None, amount)] if amount is not None else [], text)

    # ---- the whole hand ----
    def start(self, *items: Item) -> Hand:
        return assemble(_undo_habits(list(items)), WINAMAX)


def _undo_habits(items: list[Item]) -> list[Item]:
    """The lines with Winamax's habits written the model's way (docs/interop.md (Winamax), "What the
    reader undoes"); the chips stay the same."""
    items = _tournament_number(items)
    items = _blinds(items)
    items = _bets_over_a_bet(items)
    items = _sitting_out(items)
    return _implicit_return(items)


def _tournament_number(items: list[Item]) -> list[Item]:
    """A tournament's number is in its table's name ("TEA TIME(548967895)#0037")."""
    header: Header = items[0][1]
    table = next((item for item in items if item[0] == "table"), None)
    found = _TOURNEY_TABLE.search(table[1]) if table is not None and header.tourney is not None else None
    if found is None or header.tourney is None:
        return items
    return [("header", replace(header, tourney=(found.group(1), header.tourney[1]))), *items[1:]]


def _blinds(items: list[Item]) -> list[Item]:
    """Blinds as the chips say:

    - "posts small blind 3€ out of position" then "posts big blind 0€ out of position" are the small
      and big blinds of a player coming back, posted together: the big blind live, the rest dead;
    - a small blind out of position alone is a missed blind, dead money;
    - "raises 1€ to 3€" among the blinds, before any betting, is such a pair of blinds posted
      together, written before the hand's own blinds: it is put after them, and a small blind the
      same player posts then is dead.
    """
    header: Header = items[0][1]
    _, small, large, _ = header.stakes or ("", 0, 0, "")
    big = small if "fixed" in header.structure.lower() else large
    out: list[Item] = []
    held: list[Item] = []  # a returning player's blinds, put after the hand's own
    posted: set[str] = set()
    markers = 0  # the blinds' marker, then the first betting round's ("*** PRE-FLOP ***")
    for index, item in enumerate(items):
        if item[0] == "street":
            markers += 1 if str(item[1]) == _FIRST else 2
        # Only a raise before the first betting round is a post; a blind is read wherever it stands.
        if item[0] != "action" or item[3][0] not in ("post", "ante", "raise") or (
                item[3][0] == "raise" and markers > 1):
            out.extend(held)
            held = []
            out.append(item)
            continue
        kind, amount, to, cards, detail = item[3]
        player = item[2]
        following = items[index + 1] if index + 1 < len(items) else ("",)
        if kind == "raise":
            held.extend(_both(item, to or 0, big))
        elif detail == _OUT_OF_POSITION and following[0] == "action" and following[2] == player \
                and following[3][0] == "post" and following[3][4] == "big_blind" and following[3][1] == 0:
            out.extend(_both(item, amount or 0, big))
        elif kind == "post" and amount == 0:
            continue  # the "big blind 0€" of a pair of blinds posted together (above)
        elif detail == _OUT_OF_POSITION or (kind == "post" and detail == "small_blind" and player in posted):
            out.append((*item[:3], ("post", amount, None, cards, "dead_blind"), *item[4:]))
        else:
            out.append(item)
        if kind in ("post", "raise"):
            posted.add(player)
    return out + held


def _both(item: Item, amount: int, big: int) -> list[Item]:
    """A player's small and big blinds posted together: the big blind live, the rest dead."""
    live = [(*item[:3], ("post", min(amount, big), None, (), "big_blind"), item[4] and amount <= big)]
    if amount > big:
        live.append((*item[:3], ("post", amount - big, None, (), "dead_blind"), item[4]))
    return live


def _bets_over_a_bet(items: list[Item]) -> list[Item]:
    """Wagers as the chips say: "bets 292.50" where a wager already stands (the big blind's option,
    a tournament of 2010) is a raise of that much, the caller then "calls 292.50"; "raises 25€ to 25€"
    over a stud bring-in is the completion to 25€, the bring-in then "calls 15€"."""
    out: list[Item] = []
    chips: Counter[str] = Counter()
    brought_in = False
    for item in items:
        if item[0] == "street" and str(item[1]) != _FIRST:
            chips = Counter()
            brought_in = False
        if item[0] == "action":
            kind, amount, to, cards, detail = item[3]
            player = item[2]
            level = max(chips.values(), default=0)
            if kind == "bet" and level > 0:
                to = chips[player] + amount
                kind, amount = "raise", to - level
                item = (*item[:3], (kind, amount, to, cards, detail), *item[4:])
            elif kind == "raise" and amount == to and brought_in:
                kind, amount = "complete", None  # "raises 25€ to 25€" over a 10€ bring-in completes
                item = (*item[:3], (kind, amount, to, cards, detail), *item[4:])
            brought_in = brought_in or kind == "bring_in"
            _wager(chips, player, kind, amount, to, detail)
        out.append(item)
    return out


def _wager(chips: Counter[str], player: str, kind: str, amount: int | None, to: int | None,
           detail: str | None) -> None:
    """A street's live chips after one action (posts of dead money and antes are not live)."""
    if kind in ("raise", "complete"):
        chips[player] = max(chips[player], to or 0)
    elif kind in ("bet", "call", "bring_in") or (kind == "post" and detail in ("small_blind", "big_blind")):
        chips[player] += amount or 0


def _sitting_out(items: list[Item]) -> list[Item]:
    """Winamax lists every seat, and marks none sitting out: a seated player the play never names
    (no post, card, action or push: "SatOutToo denies big blind" is no play) was not dealt in."""
    named = {item[2] for item in items if item[0] in ("action", "dealt", "collected")}
    return [(*item[:5], "is sitting out", *item[6:]) if item[0] == "seat" and item[3] not in named else item
            for item in items]


def _implicit_return(items: list[Item]) -> list[Item]:
    """Winamax writes no "Uncalled bet" line: the unmatched part of the last wager is pushed to its
    maker with the pot it stands over (the highest the maker collected, or a "side pot" of its own),
    and counted in the total. It is written as a return after the street's betting, as PokerStars
    writes it, and taken off those pushes and the total."""
    streets: list[tuple[int, Counter[str]]] = []  # each street's last betting line and live chips
    dead = 0
    for index, item in enumerate(items):
        if item[0] == "street" and (not streets or str(item[1]) != _FIRST):
            streets.append((index, Counter()))
        if item[0] != "action" or not streets:
            continue
        kind, amount, to, _cards, detail = item[3]
        chips = streets[-1][1]
        before = chips.total()
        _wager(chips, item[2], kind, amount, to, detail)
        if kind in _BETTING:
            streets[-1] = (index, chips)
        if chips.total() == before and kind in ("ante", "post"):
            dead += amount or 0
    wagered = [(index, chips) for index, chips in streets if chips]
    if not wagered:
        return items
    put_in = dead + sum(chips.total() for _, chips in streets)
    last, chips = wagered[-1]
    ranked = chips.most_common()
    owner, top = ranked[0]
    unmatched = top - (ranked[1][1] if len(ranked) > 1 else 0)
    total = next((line for item in items if item[0] == "summary" for line in item[2] if line[0] == "total"),
                 None)
    pushed = sum(item[3] for item in items if item[0] == "collected") + (total[3] if total is not None else 0)
    if unmatched <= 0:
        return items
    out = [*items[: last + 1], ("uncalled", items[last][1], owner, unmatched), *items[last + 1:]]
    owned = sum(item[3] for item in items if item[0] == "collected" and item[2] == owner)
    # Pushes that hold the pot and the uncalled bet (a pot the site miscounted too) had it pushed
    # with them; pushes that do not hold it left it out.
    return _take_off(out, owner, unmatched) if pushed >= put_in and owned >= unmatched else out


def _take_off(items: list[Item], owner: str, unmatched: int) -> list[Item]:
    """The pushes and the total less an uncalled bet pushed with them, from the owner's highest pot."""
    out = list(items)
    left = unmatched
    for at in sorted((i for i, item in enumerate(out) if item[0] == "collected" and item[2] == owner),
                     key=lambda i: -out[i][4]):
        taken = min(left, out[at][3])
        left -= taken
        out[at] = (*out[at][:3], out[at][3] - taken, out[at][4])
    out = [item for item in out if item[0] != "collected" or item[3]]
    return [(*item[:2], tuple(_less(line, unmatched) for line in item[2])) if item[0] == "summary" else item
            for item in out]


def _less(line: Item, unmatched: int) -> Item:
    """The summary's total line less the uncalled bet it counted."""
    if line[0] != "total" or line[1] is None:
        return line
    return ("total", line[1] - unmatched, *line[2:])
