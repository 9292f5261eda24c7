"""Turns the lines of `pokerstars.lark` into tagged tuples while the LALR parser runs, and the
whole hand into the model (`grammar.pokerstars_assembly`, where PokerStars' conventions become
the model's, as the site's dialect says: `grammar.pokerstars_dialects`). Amounts become hundredths
(`pipeline.amounts`); suit symbols become letters.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lark import Token, Transformer, v_args

from grammar.moments import moment
from grammar.pokerstars_assembly import Header, Item, assemble, currency_of_symbol, error
from grammar.pokerstars_dialects import POKERSTARS, Dialect
from grammar.pokerstars_names import unmask
from grammar.reading import is_token
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import UNKNOWN_CARD, Hand

_SUITS = str.maketrans({"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"})

Cards = tuple[str, ...]
Result = tuple[int | None, str | None]  # one board's result: the amount won (None: lost), the hand
# (the board or run when a line gives several, amount) won, and the hands' words
Wins = tuple[list[tuple[int | None, int]], str | None]

def _currency(amount: Token, code: Token | None) -> str:
    """The stakes' currency: the code written after them, else the amount's symbol ("" for chips,
    "?" for a symbol the file's encoding lost)."""
    return str(code) if code is not None else currency_of_symbol(str(amount)[0])


def _name(token: Token) -> str:
    """A player's name as the history writes it (grammar.pokerstars_names)."""
    return unmask(str(token).strip())


def _money(token: Token) -> int:
    text = str(token)
    digits = text if text[0].isdigit() else text[1:]
    try:
        return parse_amount(digits)
    except AmountError as exc:
        raise error(token, str(exc)) from None


@v_args(inline=True)
class PokerStarsTransformer(Transformer[Token, Any]):
    def __init__(self, dialect: Dialect = POKERSTARS) -> None:
        super().__init__()
        self.dialect = dialect

    # ---- values ----
    def cards(self, *tokens: Token) -> Cards:
        return tuple(UNKNOWN_CARD if t.type == "UNNAMED_CARD" else str(t).translate(_SUITS) for t in tokens)

    def stamp(self, date: Token, time: Token, zone: Token | None = None) -> tuple[datetime, str]:
        try:
            started = moment(date.value, time.value, "/")
        except ValueError:
            raise error(date, f"'{date} {time}' is not a valid date and time") from None
        return started, str(zone or "")

    def stamps(self, *stamps: tuple[datetime, str]) -> datetime:
        """The time in ET when the history gives it (PokerStars' own clock), else the first."""
        return next((moment for moment, zone in stamps if zone == "ET"), stamps[0][0])

    # ---- header ----
    def header(self, site: Token, number: Token, *parts: Any) -> Item:
        values: dict[str, Any] = {"club": None, "tourney": None, "stakes": None, "level": None}
        cap = None
        for part in parts:
            if isinstance(part, datetime):
                values["started_at"] = part
            elif is_token(part):
                values["club"] = str(part)
            else:
                values[part[0]] = part[1]
        mix, game, structure, inner = values.pop("game")
        stakes = values["stakes"] or inner
        if stakes is not None and stakes[0] == "blinds":
            stakes, cap = stakes[:4], stakes[4]
        return ("header", Header(site, site.value.rsplit(" ", 2)[0], str(number), values["club"],
                                 values["tourney"], mix, game, structure, stakes, values["level"],
                                 values.get("started_at"), cap))

    def tourney(self, _kw: Token, number: Token, *words: Token) -> Item:
        return ("tourney", (str(number), " ".join(word.value for word in words).strip(" ,-")))

    def single_game(self, game: Token, structure: Token) -> Item:
        return ("game", (None, game, str(structure), None))

    def coded_game(self, code: Token) -> Item:
        """GGPoker's "PLO-5": pot-limit Omaha of that many hole cards."""
        return ("game", (None, code, "Pot Limit", None))

    def mixed_game(self, mix: Token, game: Token, structure: Token, blinds: Item | None = None) -> Item:
        return ("game", (str(mix), game, str(structure), blinds))

    def blinds(self, small: Token, big: Token, *rest: Token) -> Item:
        """("blinds", small, big, currency, cap): the cap is the amount before the word "Cap"."""
        cap = next((_money(t) for t in rest if t.type == "MONEY"), None)
        code = next((t for t in rest if t.type == "CURRENCY"), None)
        return ("blinds", _money(small), _money(big), _currency(small, code), cap)

    def blind_stakes(self, blinds: Item) -> Item:
        return ("stakes", blinds)

    def button_stakes(self, _bb: Token, blind: Token, _ante: Token, ante: Token,
                      currency: Token | None = None) -> Item:
        return ("stakes", ("button", _money(blind), _money(ante), _currency(blind, currency)))

    def level(self, *parts: Token) -> Item:
        *words, small, big = parts
        match = f"Match Round {words[1]}, Level " if len(words) == 4 else ""
        return ("level", (f"{match}{words[-1]} ({small}/{big})", _money(small), _money(big)))

    # ---- table and seats ----
    def table(self, _kw: Token, name: Token, *rest: Any) -> Item:
        max_seats = button = None
        for item in rest:
            if is_token(item) and item.type == "MAX_SEATS":
                max_seats = int(item.value.split("-")[0])
            elif isinstance(item, int):
                button = item
        play_money = any(is_token(item) and item.type == "TABLE_KIND" and "Play" in item.value
                         for item in rest)
        return ("table", str(name)[1:-1], max_seats, button, play_money)

    def button(self, seat: Token) -> int:
        return int(seat.value)

    def seat_line(self, _kw: Token, number: Token, name: Token, stack: Token, _chips: Token,
                  *rest: Any) -> Item:
        bounty = next((r for r in rest if isinstance(r, str) and not is_token(r)), None)
        flag = next((str(r) for r in rest if is_token(r) and r.type == "SEAT_FLAG"), "")
        return ("seat", name, int(number.value), _name(name), _money(stack), flag, bounty)

    def bounty(self, amount: Token) -> str:
        return str(amount)

    # ---- the play ----
    def street_line(self, *markers: tuple[Token, list[Cards]]) -> Item:
        return ("street", markers[0][0], markers)

    def marker(self, name: Token, *groups: Cards) -> tuple[Token, list[Cards]]:
        return (name, list(groups))

    def action_line(self, actor: Token, partial: Item | None, *flags: Token) -> Item:
        if partial is None:
            return ("quiet",)
        all_in = any(f.type == "ALL_IN" for f in flags)
        return ("action", actor, _name(actor), partial, all_in)

    def post_small_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "small_blind")

    def post_missed_blind(self, amount: Token) -> Item:
        # GGPoker's "posts missed blind $2": the small blind a returning player missed, dead money.
        return ("post", _money(amount), None, (), "dead_blind")

    def post_big_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "big_blind")

    def post_small_and_big(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "small_and_big")

    def post_button_blind(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "button_blind")

    def post_straddle(self, amount: Token) -> Item:
        return ("post", _money(amount), None, (), "straddle")

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

    def raise_(self, by: Token, to: Token) -> Item:
        return ("raise", _money(by), _money(to), (), None)

    def check(self) -> Item:
        return ("check", None, None, (), None)

    def fold(self, cards: Cards = ()) -> Item:
        return ("fold", None, None, cards, None)

    def show(self, cards: Cards, description: Token | None = None) -> Item:
        return ("show", None, None, cards, str(description)[1:-1].strip() if description else None)

    def muck(self) -> Item:
        return ("muck", None, None, (), None)

    def quiet(self, _word: Token | None = None) -> None:
        return None

    def discard(self, count: Token, _word: Token, cards: Cards = ()) -> Item:
        return ("discard", int(count.value), None, cards, None)

    def stand_pat(self, _cards: Cards = ()) -> Item:
        # "stands pat on [cards]": the cards are the hand the player keeps, already dealt.
        return ("stand_pat", None, None, (), None)

    def dealt_line(self, name: Token, *groups: Cards) -> Item:
        if not groups:  # GGPoker's "Dealt to Ann" of another player: nothing seen
            return ("quiet",)
        return ("dealt", name, _name(name), groups)

    def uncalled_line(self, amount: Token, name: Token) -> Item:
        return ("uncalled", name, _name(name), _money(amount))

    def collected_line(self, name: Token, amount: Token, pot: int) -> Item:
        return ("collected", name, _name(name), _money(amount), pot)

    def whole_pot(self) -> int:
        return 0

    def main_pot(self) -> int:
        return 0

    def side_pot(self, number: Token | None = None) -> int:
        return int(number.value) if number is not None else 1

    def shows_for_line(self, name: Token, cards: Cards, hand: Token, _best: Cards) -> Item:
        return ("action", name, _name(name), ("show", None, None, cards, str(hand).strip()), False)

    def kept_line(self, text: Token) -> Item:
        return ("kept", text, _name(text))

    def chatter_line(self, _text: Token) -> Item:
        return ("quiet",)

    def table_line(self, _text: Token) -> Item:
        return ("quiet",)

    def comment_line(self, _text: Token) -> Item:
        return ("quiet",)

    def cancelled_line(self, token: Token) -> Item:
        return ("cancelled", token)

    # ---- summary ----
    def summary(self, token: Token, *lines: Item) -> Item:
        return ("summary", token, lines)

    def total_line(self, total: Token, *rest: Any) -> Item:
        parts = [r for r in rest if isinstance(r, tuple) and r[0] != "fee"]
        fees = [(r[1], r[2]) for r in rest if isinstance(r, tuple) and r[0] == "fee"]
        rake = next((_money(r) for r in rest if is_token(r)), None)
        return ("total", _money(total), parts, rake, fees)

    def fee(self, word: Token, amount: Token) -> Item:
        """("fee", "Jackpot $5", 500): a take of the house besides the rake."""
        return ("fee", f"{word} {amount}", _money(amount))

    def main_part(self, amount: Token) -> Item:
        return ("main", _money(amount))

    def side_part(self, *parts: Token) -> Item:
        return ("side", _money(parts[-1]))

    def stp_part(self, amount: Token) -> Item:
        return ("stp", _money(amount))

    def board_line(self, *_parts: Any) -> Item:
        return ("board",)

    def run_count_line(self, text: Token) -> Item:
        return ("runs", 3 if text.value.endswith("three times") else 2)

    def summary_seat(self, _kw: Token, number: Token, name: Token, *rest: Any) -> Item:
        outcome = next((r for r in rest if isinstance(r, tuple)), ("folded", (), [], None))
        return ("seat_summary", name, _name(name), outcome)

    def folded(self, *_parts: Token) -> Item:
        return ("folded", (), [], None)

    def sat(self, _token: Token) -> Item:
        return ("folded", (), [], None)

    def collected_summary(self, amount: Token) -> Item:
        return ("won", (), [(None, _money(amount))], None)

    def won(self, amount: Token) -> Item:
        return ("won", (), [(None, _money(amount))], None)

    def mucked(self, cards: Cards = ()) -> Item:
        return ("mucked", cards, [], None)

    def mucked_won(self, amount: Token) -> Item:
        return ("won", (), [(None, _money(amount))], None)

    def showed(self, cards: Cards, result: Item | None = None) -> Item:
        wins, text = result if result is not None else ([], None)
        return ("showed", cards, wins, text)

    def showed_results(self, *results: Result) -> Wins:
        """Each result is a board's (a run's) in order: "and lost with ..., and won ($5) with ..."
        is won on the second."""
        several = len(results) > 1
        wins = [(board if several else None, amount)
                for board, (amount, _) in enumerate(results, start=1) if amount is not None]
        return wins, "; ".join(text for _, text in results if text) or None

    def showed_folded(self, *_parts: Token) -> Wins:
        return [], None

    def showed_collected(self, amount: Token) -> Wins:
        return [(None, _money(amount))], None

    def won_part(self, amount: Token, text: Token | None = None) -> Result:
        return _money(amount), str(text).strip() if text else None

    def lost_part(self, text: Token | None = None) -> Result:
        return None, str(text).strip() if text else None

    # ---- the whole hand ----
    def start(self, *items: Item) -> Hand:
        return assemble(items, self.dialect)
