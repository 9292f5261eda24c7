"""Turns the lines of `fulltilt.lark` into the tagged lines `grammar.pokerstars_assembly` makes a
hand of, while the LALR parser runs: Full Tilt's words become PokerStars' ("raises to $12" a raise
to $12, "wins pot 2" the second run's award), so that one assembly holds both sites' conventions.
Amounts become hundredths (`pipeline.amounts`); "500K" is thousands, "2M" millions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lark import Token, Transformer, v_args

from grammar.fulltilt_names import unmask
from grammar.pokerstars_assembly import Header, Item, assemble, currency_of_symbol, error
from grammar.pokerstars_dialects import FULLTILT
from grammar.reading import is_token
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import Hand

Cards = tuple[str, ...]
NO_PLAY = "the hand is cut off: the history keeps only its summary (no seats, no play)"
NOT_DEALT = ("the hand was cancelled: it was never dealt (no cards, no street, a total pot of 0: the players "
             "sat out after the blind)")
Stakes = tuple[str, int, int, str] | None  # ("blinds", small, big, currency), None when unread
_SUFFIXES = {"K": 1_000, "M": 1_000_000}
# Full Tilt's structure words, as PokerStars writes them
_STRUCTURES = {"no limit": "No Limit", "nl": "No Limit", "pot limit": "Pot Limit", "pl": "Pot Limit",
               "limit": "Limit", "fl": "Limit"}
# "*** FLOP 1 ***" and "*** SHOW DOWN 2 ***" (run it twice) in PokerStars' words; Courchevel's
# "*** FLOPET ***" is the first board card, dealt with the hole cards
_RUNS = {"1": "FIRST", "2": "SECOND", "3": "THIRD"}
_MARKERS = {"FLOPET": "PRE-FLOP"}
# Irish's "*** DISCARD ROUND ***" comes after the flop's betting: the discard is the flop's step
# (evaluator.catalog), so the marker starts no street.
_NO_STREET = "DISCARD ROUND"


def _name(token: Token) -> str:
    """A player's name as the history writes it (grammar.fulltilt_names)."""
    return unmask(str(token).strip())


def _money(token: Token) -> int:
    text = str(token)
    digits = text if text[0].isdigit() else text[1:]
    factor = _SUFFIXES.get(digits[-1], 1)
    try:
        return parse_amount(digits.rstrip("KM")) * factor
    except AmountError as exc:
        raise error(token, str(exc)) from None


def _marker(token: Token) -> str:
    words = str(token).strip("* ").split()
    if len(words) > 1 and words[-1] in _RUNS:
        words = [_RUNS[words[-1]], *words[:-1]]
    name = " ".join(words)
    return _MARKERS.get(name, name)


@v_args(inline=True)
class FullTiltTransformer(Transformer[Token, Any]):
    # ---- values ----
    def cards(self, *tokens: Token) -> Cards:
        return tuple(str(t) for t in tokens)

    def stamp(self, time: Token, zone: Token, date: Token) -> tuple[datetime, str]:
        seconds = ":%S" if time.value.count(":") == 2 else ""
        shape = "%Y/%m/%d" if date.type == "DATE" else "%a, %B %d, %Y"  # "Wed, July 21, 2010"
        try:
            moment = datetime.strptime(f"{date} {time}", f"{shape} %H:%M{seconds}")
        except ValueError:
            raise error(date, f"'{date} {time}' is not a valid date and time") from None
        return moment, str(zone)

    def stamps(self, *stamps: tuple[datetime, str]) -> datetime:
        """The time in ET when the history gives it (Full Tilt's own clock), else the first."""
        return next((moment for moment, zone in stamps if zone == "ET"), stamps[0][0])

    # ---- header ----
    def header(self, site: Token, number: Token, *parts: Any) -> Item:
        tourney = next((p[1] for p in parts if isinstance(p, tuple) and p[0] == "tourney"), None)
        place = next(p for p in parts if isinstance(p, tuple) and p[0] == "place")
        game, structure, stakes = next(p[1] for p in parts if isinstance(p, tuple) and p[0] == "game")
        started = next(p for p in parts if isinstance(p, datetime))
        head = Header(site, "Full Tilt", str(number), None, tourney, None, game, structure, stakes, None,
                      started)
        return ("header", head, place[1:])

    def tourney(self, name: Token, number: Token) -> Item:
        return ("tourney", (str(number), str(name).strip()))

    def table_place(self, _kw: Token, name: Token, size: Token | None = None) -> Item:
        seats = None
        if size is not None:
            words = str(size).strip("()").split(",")[0]
            seats = 2 if words == "heads up" else int(words.split()[0])
        return ("place", str(name).strip(), seats)

    def match_place(self, _kw: Token, number: Token) -> Item:
        return ("place", f"Match {number}", None)

    def stakes_first(self, stakes: Stakes, game: Token) -> Item:
        return self._game(game, stakes)

    def game_first(self, game: Token, stakes: Stakes) -> Item:
        return self._game(game, stakes)

    @staticmethod
    def _game(words: Token, stakes: Stakes) -> Item:
        """("game", (game token, structure, stakes)): "PL 5 Card Omaha Hi" -> "5 Card Omaha Hi", "Pot
        Limit"; "CAP NL Hold'em" is no-limit (the cap the header does not give)."""
        text = str(words).removeprefix("CAP ")
        for prefix in sorted(_STRUCTURES, key=len, reverse=True):
            if text.lower().startswith(prefix + " "):
                name = Token.new_borrow_pos("GAME", text[len(prefix) + 1:], words)
                return ("game", (name, _STRUCTURES[prefix], stakes))
        raise error(words, f"unknown betting structure in '{words}'")

    def unread_stakes(self, _words: Token) -> None:
        return None

    def stakes(self, small: Token, big: Token, *_ante: Token) -> tuple[str, int, int, str]:
        # Antes are read from the posts (grammar.pokerstars_assembly), as PokerStars' are.
        return ("blinds", _money(small), _money(big), currency_of_symbol(str(small)[0]))

    # ---- seats and the play ----
    def seat_line(self, _kw: Token, number: Token, name: Token, stack: Token,
                  flag: Token | None = None) -> Item:
        flags = "is sitting out" if flag else ""
        return ("seat", name, int(number.value), _name(name), _money(stack), flags, None)

    def street_line(self, marker: Token, *rest: Any) -> Item:
        if _marker(marker) == _NO_STREET:
            return ("quiet",)
        groups = [r for r in rest if isinstance(r, tuple)]
        return ("street", marker, [(_marker(marker), groups)])

    def button_line(self, _kw: Token, seat: Token) -> Item:
        return ("button", int(seat.value))

    def dealt_line(self, _kw: Token, name: Token, *groups: Cards) -> Item:
        return ("dealt", name, _name(name), groups)

    def uncalled_line(self, _kw: Token, amount: Token, name: Token) -> Item:
        return ("uncalled", name, _name(name), _money(amount))

    def action_line(self, actor: Token, partial: Item | None, all_in: Token | None = None) -> Item:
        if partial is None:
            return ("quiet",)
        if partial[0] == "wins":
            _, pot, amount = partial
            return ("collected", actor, _name(actor), amount, *pot)
        return ("action", actor, _name(actor), partial, all_in is not None)

    def post_small_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "small_blind")

    def post_big_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "big_blind")

    def post_dead_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "dead_blind")

    def post_ante(self, amount: Token) -> Item:
        return ("ante", _money(amount), None, (), "ante")

    def bring_in_for(self, amount: Token) -> Item:
        return ("bring_in", _money(amount), None, (), None)

    def complete(self, amount: Token) -> Item:
        return ("complete", None, _money(amount), (), None)

    def bet(self, amount: Token) -> Item:
        return ("bet", _money(amount), None, (), None)

    def call(self, amount: Token) -> Item:
        return ("call", _money(amount), None, (), None)

    def raise_to(self, to: Token) -> Item:
        # Full Tilt writes the total only; the replay computes the raise (evaluator.wagering).
        return ("raise", None, _money(to), (), None)

    def check(self) -> Item:
        return ("check", None, None, (), None)

    def fold(self) -> Item:
        return ("fold", None, None, (), None)

    def muck(self) -> Item:
        return ("muck", None, None, (), None)

    def show(self, *parts: Any) -> Item:
        cards = next((p for p in parts if isinstance(p, tuple)), ())
        words = next((str(p).strip().strip("()").strip() for p in parts if is_token(p)), None)
        return ("show", None, None, cards, words or None)

    def discard(self, *parts: Any) -> Item:
        count = next((int(p.value) for p in parts if is_token(p) and p.type == "INT"), None)
        cards: Cards = next((p for p in parts if isinstance(p, tuple)), ())
        return ("discard", len(cards) if count is None else count, None, cards, None)

    def stand_pat(self, _cards: Cards = ()) -> Item:
        return ("stand_pat", None, None, (), None)

    def quiet(self, *_parts: Any) -> None:
        return None

    def quiet_line(self, *_parts: Any) -> Item:
        return ("quiet",)

    def wins(self, _word: Token, pot: Token, amount: Token, _hand: Token | None = None) -> Item:
        """("wins", (pot number, run), amount): "the side pot" is pot 1, "pot 2" the second run's pot
        (Full Tilt numbers the runs of a board run twice as pots)."""
        words = str(pot).split()
        if words[0] == "pot":
            return ("wins", (0, int(words[1])), _money(amount))
        number = int(words[-1].lstrip("#")) if words[-1].lstrip("#").isdigit() else 1
        return ("wins", (number if "side" in words else 0, None), _money(amount))

    # ---- summary ----
    def summary(self, token: Token, *lines: Item) -> Item:
        """A board run twice has a summary per run, each with the shown hands' words: one player's
        words of each run join ("two pair, Aces and Sevens; a flush, Ace high")."""
        joined: list[Item] = []
        first: dict[str, int] = {}
        for line in lines:
            if line[0] == "seat_summary" and line[2] in first:
                at = first[line[2]]
                texts = [t for t in (joined[at][3][3], line[3][3]) if t]
                outcome = joined[at][3]
                joined[at] = (*joined[at][:3], (outcome[0], outcome[1], outcome[2] + line[3][2],
                                                "; ".join(texts) or None))
                continue
            if line[0] == "seat_summary":
                first[line[2]] = len(joined)
            joined.append(line)
        return ("summary", token, tuple(joined))

    def total_line(self, _kw: Token, total: Token, *rest: Any) -> Item:
        parts = [r for r in rest if isinstance(r, tuple)]
        rake = next((_money(r) for r in rest if is_token(r) and r.type == "MONEY"), None)
        return ("total", _money(total), parts, rake, [])

    def main_part(self, _kw: Token, amount: Token) -> Item:
        return ("main", _money(amount))

    def side_part(self, _kw: Token, amount: Token) -> Item:
        return ("side", _money(amount))

    def board_line(self, *_parts: Any) -> Item:
        return ("board",)

    def summary_seat(self, _kw: Token, number: Token, name: Token, *rest: Any) -> Item:
        outcome = next((r for r in rest if isinstance(r, tuple)), ("none", (), [], None))
        return ("seat_summary", name, _name(name), outcome)

    def folded(self, *_parts: Any) -> Item:
        return ("folded", (), [], None)

    def no_result(self, *_parts: Any) -> Item:
        return ("none", (), [], None)

    def sat_out(self) -> Item:
        return ("sat_out", (), [], None)

    def collected(self, amount: Token, *_mucked: Token) -> Item:
        return ("won", (), [(None, _money(amount))], None)

    def showed_won(self, cards: Cards, _won: Token, amount: Token, text: Token | None = None) -> Item:
        return ("showed", cards, [(None, _money(amount))], str(text).strip() if text else None)

    def showed_lost(self, cards: Cards, _lost: Token, text: Token | None = None) -> Item:
        return ("showed", cards, [], str(text).strip() if text else None)

    def mucked(self, cards: Cards, _text: Token | None = None) -> Item:
        return ("mucked", cards, [], None)

    # ---- the whole hand ----
    def start(self, header: Item, *items: Item) -> Hand:
        """The header's table and the button line (written after the blinds) make PokerStars' table
        line; a description written on a line of its own ("Ann shows a pair of Aces") joins the
        player's showing."""
        _, head, (table, seats) = header
        button = next((item[1] for item in items if item[0] == "button"), None)
        if not any(item[0] == "seat" for item in items):
            raise error(head.token, NO_PLAY)
        if not any(item[0] in ("dealt", "street") for item in items) and self._total(items) == 0:
            raise error(head.token, NOT_DEALT)
        items = self._early_return(self._first_deals(self._missing_folds(self._sitting_out(items))))
        # cash stakes written without a currency's sign are play money
        play = head.tourney is None and head.stakes is not None and head.stakes[3] == ""
        lines: list[Item] = [("header", head), ("table", table, seats, button, play)]
        shown: dict[str, int] = {}
        for item in items:
            if item[0] == "button":
                continue
            if item[0] == "action" and item[3][0] == "show":
                described = self._describe(lines, shown, item)
                if described:
                    continue
                shown[item[2]] = len(lines)
            lines.append(item)
        return assemble(lines, FULLTILT)

    @staticmethod
    def _total(items: tuple[Item, ...]) -> int | None:
        """The summary's total pot."""
        return next((line[1] for item in items if item[0] == "summary" for line in item[2]
                     if line[0] == "total"), None)

    @staticmethod
    def _sitting_out(items: tuple[Item, ...]) -> tuple[Item, ...]:
        """A player the summary says "is sitting out" was not dealt in, whatever the seat line says
        (Full Tilt flags only some of them there): their seat gets the flag, so that the assembly
        leaves them out unless they play."""
        out = {line[2] for item in items if item[0] == "summary"
               for line in item[2] if line[0] == "seat_summary" and line[3][0] == "sat_out"}
        return tuple((*item[:5], "is sitting out", *item[6:]) if item[0] == "seat" and item[3] in out
                     else item for item in items)

    @staticmethod
    def _first_deals(items: tuple[Item, ...]) -> tuple[Item, ...]:
        """A player's first "Dealt to" line deals every bracket ("Dealt to Hero [5s 2h] [Th]": stud's
        down cards and up card); a later one repeats the cards held before its last bracket."""
        seen: set[str] = set()
        read = []
        for item in items:
            if item[0] == "dealt" and item[2] not in seen:
                seen.add(item[2])
                item = (*item[:3], (tuple(card for group in item[3] for card in group),))
            read.append(item)
        return tuple(read)

    @staticmethod
    def _early_return(items: tuple[Item, ...]) -> tuple[Item, ...]:
        """An ante nobody matched is returned before the cards are dealt ("Player0 antes 6, and is
        all in", "Uncalled bet of 1 returned to Hero"): the return ends the first street, after its
        deal and play, where the replay gives back what nobody matched."""
        first_deal = next((i for i, item in enumerate(items) if item[0] == "dealt"), None)
        early = next((i for i, item in enumerate(items) if item[0] == "uncalled"), None)
        if first_deal is None or early is None or early > first_deal:
            return items
        rest = items[:early] + items[early + 1:]
        end = next((i for i, item in enumerate(rest) if i > first_deal and item[0] in ("street", "summary")),
                   len(rest))
        return (*rest[:end], items[early], *rest[end:])

    @staticmethod
    def _missing_folds(items: tuple[Item, ...]) -> tuple[Item, ...]:
        """A fold the summary gives ("folded before the Flop") that the play leaves out (Full Tilt's
        Matrix tables drop a small blind's fold when the hand ends before the flop): the fold comes
        after the last betting, before the uncalled bet, the awards and the showdown."""
        summary = next((item for item in items if item[0] == "summary"), None)
        if summary is None:
            return items
        acted = {item[2] for item in items if item[0] == "action" and item[3][0] in ("fold", "muck", "show")}
        missing = [line for line in summary[2] if line[0] == "seat_summary" and line[3][0] == "folded"
                   and line[2] not in acted]
        if not missing:
            return items
        end = next(i for i, item in enumerate(items) if item[0] in ("uncalled", "collected", "summary")
                   or (item[0] == "action" and item[3][0] in ("show", "muck")))
        folds = tuple(("action", line[1], line[2], ("fold", None, None, (), None), False) for line in missing)
        return items[:end] + folds + items[end:]

    @staticmethod
    def _describe(lines: list[Item], shown: dict[str, int], item: Item) -> bool:
        """Join a showing without cards to the player's showing before it; False when it has cards
        (or the player showed nothing before)."""
        player, cards, words = item[2], item[3][3], item[3][4]
        if cards or player not in shown:
            return False
        at = shown[player]
        earlier = lines[at]
        old = earlier[3][4]
        joined = f"{old}; {words}" if old and words else (words or old)
        lines[at] = (*earlier[:3], (*earlier[3][:4], joined), earlier[4])
        return True
