"""Turns the lines of `barge.lark` into the hand model while the LALR parser runs.

Each line rule returns a small tagged tuple; `start` assembles the hand in one pass, checking
what the format itself requires (known variant, seated players, valid dice) and leaving every
rule of play to the replay engine.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from lark import Token, Transformer, v_args

from evaluator.catalog import HOUSE_GAMES, missing_definition
from evaluator.profiles import PROFILES
from evaluator.variants import VARIANTS
from grammar.errors import HandSyntaxError
from grammar.moments import moment
from grammar.reading import is_token
from pipeline.amounts import AmountError, parse_amount
from pipeline.model import GAME_TYPES, PLAY_MONEY, Action, Award, FinalStack, Hand, Seat, Stakes

_SUITS = str.maketrans({"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"})
RESERVED_NAMES = frozenset({"Dealer", "Note", "Floor"})

# A partial action: (kind, amount, to_amount, cards, detail); the line supplies the player.
Partial = tuple[str, int | None, int | None, tuple[str, ...], str | None]


def _error(token: Token, message: str) -> HandSyntaxError:
    return HandSyntaxError(message, token.line or 0, token.column or 0)


def street_key(marker: str) -> str:
    """`*** 3RD STREET ***` is street "3rd_street" in the model and the store."""
    return "_".join(marker.lower().split())


def _partial(kind: str, amount: int | None = None, to_amount: int | None = None,
             cards: tuple[str, ...] = (), detail: str | None = None) -> list[Partial]:
    return [(kind, amount, to_amount, cards, detail)]


@v_args(inline=True)
class BargeTransformer(Transformer[Token, Any]):
    # ---- values ----
    def amount(self, token: Token) -> int:
        try:
            return parse_amount(token.value)
        except AmountError as exc:
            raise _error(token, str(exc)) from None

    def cards(self, *tokens: Token) -> tuple[str, ...]:
        return tuple(str(t).translate(_SUITS) for t in tokens)

    def timestamp(self, date: Token, time: Token) -> datetime:
        try:
            return moment(date.value, time.value, "-")
        except ValueError:
            raise _error(date, f"'{date} {time}' is not a valid date and time") from None

    # ---- header ----
    def header(self, hand_id: Token, variant: Token, structure: Token,
               stakes: Stakes, started_at: datetime | None = None) -> tuple[Any, ...]:
        if variant not in VARIANTS and variant not in HOUSE_GAMES:
            raise _error(variant, missing_definition(str(variant)))
        return ("header", str(hand_id), str(variant), str(structure), stakes, started_at)

    def stakes(self, *items: tuple[str, Any]) -> Stakes:
        values: dict[str, Any] = {}
        for key, value in items:
            if key == "blinds":
                values["small_blind"], values["big_blind"] = value
            elif key == "bets":
                values["small_bet"], values["big_bet"] = value
            else:
                values[key] = value
        return Stakes(**values)

    def blinds(self, small: int, big: int) -> tuple[str, Any]:
        return ("blinds", (small, big))

    def bets(self, small: int, big: int) -> tuple[str, Any]:
        return ("bets", (small, big))

    def ante(self, value: int) -> tuple[str, Any]:
        return ("ante", value)

    def big_blind_ante(self, value: int) -> tuple[str, Any]:
        return ("big_blind_ante", value)

    def bring_in(self, value: int) -> tuple[str, Any]:
        return ("bring_in", value)

    def bomb_pot(self, value: int) -> tuple[str, Any]:
        return ("bomb_pot", value)

    def jam_or_fold(self) -> tuple[str, Any]:
        return ("jam_or_fold", True)

    def cap(self, value: int) -> tuple[str, Any]:
        return ("cap", value)

    # ---- metadata ----
    def event(self, text: Token) -> tuple[str, Any]:
        return ("event", text.value.strip())

    def tournament(self, text: Token) -> tuple[str, Any]:
        return ("tournament", text.value.strip())

    def level(self, text: Token) -> tuple[str, Any]:
        return ("level", text.value.strip())

    def site(self, text: Token) -> tuple[str, Any]:
        return ("site", text.value.strip())

    def game_type(self, text: Token) -> tuple[str, Any]:
        kind = text.value.strip()
        if kind not in GAME_TYPES:
            raise _error(text, f"unknown game type '{kind}' (known: {', '.join(GAME_TYPES)})")
        return ("game_type", kind)

    def currency(self, text: Token) -> tuple[str, Any]:
        code = text.value.strip()
        if code != PLAY_MONEY and not (len(code) == 3 and code.isascii() and code.isupper()):
            raise _error(text, f"currency '{code}' is neither an ISO 4217 code (USD, EUR ...) nor "
                               f"'{PLAY_MONEY}'")
        return ("currency", code)

    def rules(self, profile: Token, *options: tuple[str, str]) -> tuple[str, Any]:
        if profile not in PROFILES:
            raise _error(profile, f"unknown rules profile '{profile}' (known: {', '.join(PROFILES)})")
        return ("rules", (str(profile), tuple(options)))

    def rule_option(self, key: Token, value: Token) -> tuple[str, str]:
        return (str(key), str(value))

    def button(self, seat: Token) -> tuple[str, int]:
        return ("button", int(seat.value))

    def button_line(self, button: tuple[str, int]) -> tuple[str, int]:
        return ("button_seat", button[1])  # a hand with a button and no table name

    def table(self, name: Token, *rest: Any) -> tuple[str, Any]:
        max_seats = button = None
        for item in rest:
            if is_token(item):
                max_seats = int(item.value.split("-")[0])
            else:
                button = item[1]
        return ("table", (str(name), max_seats, button))

    # ---- seats ----
    def seat_line(self, seat: Token, number: Token, name: Token, stack: int,
                  sitting_out: Token | None = None) -> tuple[Any, ...]:
        player = name.value.strip()
        if player in RESERVED_NAMES:
            raise _error(name, f"'{player}' is a reserved word and cannot be a player's name")
        return ("seat", name, Seat(int(number.value), player, stack, sitting_out is not None))

    # ---- body ----
    def street_line(self, name: Token, cards: tuple[str, ...] = ()) -> tuple[Any, ...]:
        return ("street", name, street_key(name.value), cards)

    def action_line(self, actor: Token, partials: list[Partial],
                    all_in: Token | None = None) -> tuple[Any, ...]:
        return ("action", actor, actor.value.strip(), partials, all_in is not None)

    def post_small_blind(self, value: int) -> list[Partial]:
        return _partial("post", value, detail="small_blind")

    def post_big_blind(self, value: int) -> list[Partial]:
        return _partial("post", value, detail="big_blind")

    def post_straddle(self, value: int) -> list[Partial]:
        return _partial("post", value, detail="straddle")

    def post_dead_blind(self, value: int) -> list[Partial]:
        return _partial("post", value, detail="dead_blind")

    def post_kill_blind(self, value: int) -> list[Partial]:
        return _partial("post", value, detail="kill_blind")

    def post_ante(self, value: int) -> list[Partial]:
        return _partial("ante", value, detail="ante")

    def post_big_blind_ante(self, value: int) -> list[Partial]:
        return _partial("ante", value, detail="big_blind_ante")

    def bring_in_for(self, value: int) -> list[Partial]:
        return _partial("bring_in", value)

    def complete(self, value: int) -> list[Partial]:
        return _partial("complete", to_amount=value)

    def bet(self, value: int) -> list[Partial]:
        return _partial("bet", value)

    def call(self, value: int) -> list[Partial]:
        return _partial("call", value)

    def raise_(self, *values: int) -> list[Partial]:
        by = values[0] if len(values) == 2 else None
        return _partial("raise", by, values[-1])

    def check(self) -> list[Partial]:
        return _partial("check")

    def fold(self, cards: tuple[str, ...] = ()) -> list[Partial]:
        return _partial("fold", cards=cards)

    def stand_pat(self) -> list[Partial]:
        return _partial("stand_pat")

    def discard(self, discarded: tuple[str, ...] | Token,
                drawn: tuple[str, ...] | None = None) -> list[Partial]:
        cards = discarded if isinstance(discarded, tuple) else ("??",) * int(discarded.value)  # a count
        partials = _partial("discard", cards=cards)
        if drawn is not None:
            partials += _partial("draw", cards=drawn)
        return partials

    def expose(self, cards: tuple[str, ...]) -> list[Partial]:
        return _partial("expose", cards=cards)

    def show(self, cards: tuple[str, ...], description: Token | None = None) -> list[Partial]:
        return _partial("show", cards=cards, detail=description.value[1:-1].strip() if description else None)

    def muck(self, cards: tuple[str, ...] = ()) -> list[Partial]:
        return _partial("muck", cards=cards)

    def roll(self, *dice: Token) -> list[Partial]:
        for die in dice:
            if die not in {"1", "2", "3", "4", "5", "6"}:
                raise _error(die, f"a die shows 1 to 6, not {die}")
        return _partial("roll", detail=" ".join(die.value for die in dice))

    def choose(self, variant: Token) -> list[Partial]:
        if variant not in VARIANTS and variant not in HOUSE_GAMES:
            raise _error(variant, missing_definition(str(variant)))
        return _partial("choose", detail=str(variant))

    def split(self, first: tuple[str, ...], second: tuple[str, ...]) -> list[Partial]:
        return _partial("split", cards=first + second, detail=f"{len(first)}+{len(second)}")

    def declare(self, declaration: Token) -> list[Partial]:
        return _partial("declare", detail=str(declaration))

    def pay(self, value: int) -> list[Partial]:
        return _partial("fee", value)

    # A guts game's money across deals (docs/format.md, "Deals of a guts game").
    def burn(self, value: int) -> list[Partial]:
        return _partial("burn", value)

    def leg(self, count: Token) -> list[Partial]:
        return _partial("leg", detail=str(int(count)))

    def dealt_line(self, name: Token, *groups: tuple[str, tuple[str, ...]]) -> tuple[Any, ...]:
        partials = [("deal", None, None, cards, face) for face, cards in groups]
        return ("action", name, name.value.strip(), partials, False)

    def deal_group(self, *parts: Any) -> tuple[str, tuple[str, ...]]:
        face = str(parts[0]) if len(parts) == 2 else "down"
        return (face, parts[-1])

    def uncalled_line(self, value: int, name: Token) -> tuple[Any, ...]:
        return ("action", name, name.value.strip(), _partial("return", value), False)

    def collected_line(self, name: Token, value: int, pot: int,
                       portion: Token | None = None) -> tuple[Any, ...]:
        detail = portion.value[1:-1].strip() if portion else None
        return ("award", name, Award(name.value.strip(), value, pot, detail or None))

    def whole_pot(self) -> int:
        return 0

    def main_pot(self) -> int:
        return 0

    def side_pot(self, number: Token) -> int:
        if int(number.value) < 1:
            raise _error(number, "side pots are numbered from 1")
        return int(number.value)

    def dealer_line(self, dealer: Token, partials: list[Partial]) -> tuple[Any, ...]:
        return ("dealer", dealer, partials)

    def deal_board(self, board: Token, cards: tuple[str, ...]) -> list[Partial]:
        return _partial("board", cards=cards, detail=str(board))

    def remove_board(self, board: Token) -> list[Partial]:
        return _partial("remove_board", detail=str(board))

    def run_twice(self) -> list[Partial]:
        return _partial("run_it", 2)

    def run_thrice(self) -> list[Partial]:
        return _partial("run_it", 3)

    def reshuffle(self) -> list[Partial]:
        return _partial("reshuffle")

    def carry_in(self, value: int, pot: Token | None = None) -> list[Partial]:
        return _partial("carry_in", value, detail=None if pot is None else str(int(pot)))

    def carry_out(self, value: int) -> list[Partial]:
        return _partial("carry_out", value)

    def note(self, token: Token, text: Token) -> tuple[Any, ...]:
        return ("dealer", token, _partial("note", detail=text.value.strip()))

    def ruling(self, token: Token, text: Token) -> tuple[Any, ...]:
        return ("dealer", token, _partial("ruling", detail=text.value.strip()))

    # ---- summary ----
    def summary(self, *lines: tuple[Any, ...]) -> tuple[Any, ...]:
        return ("summary", lines)

    def total_pot(self, total: int, rake: int | None = None) -> tuple[Any, ...]:
        return ("total_pot", total, rake)

    def final_stack(self, seat: Token, number: Token, name: Token, value: int) -> tuple[Any, ...]:
        return ("final_stack", name, FinalStack(int(number.value), name.value.strip(), value))

    # ---- the whole hand ----
    def start(self, *items: tuple[Any, ...]) -> Hand:
        return _assemble(items)


def _assemble(items: tuple[tuple[Any, ...], ...]) -> Hand:
    _, hand_id, variant, structure, stakes, started_at = items[0]
    meta: dict[str, Any] = {}
    seats: list[Seat] = []
    names: set[str] = set()
    actions: list[Action] = []
    awards: list[Award] = []
    final_stacks: list[FinalStack] = []
    total_pot = rake = None
    # Forced bets written before the first street marker belong to that street.
    street = next((item[2] for item in items if item[0] == "street"), "")

    def seated(token: Token, player: str) -> str:
        if player not in names:
            raise _error(token, f"'{player}' is not seated in this hand")
        return player

    def add(partials: list[Partial], player: str | None, all_in: bool = False) -> None:
        for i, (kind, amount, to_amount, cards, detail) in enumerate(partials):
            last = i == len(partials) - 1
            actions.append(Action(street, kind, player, amount, to_amount, cards,
                                  all_in and last, detail))

    for item in items[1:]:
        tag = item[0]
        if tag == "seat":
            seat = item[2]
            if seat.player in names or any(s.number == seat.number for s in seats):
                raise _error(item[1], f"seat {seat.number} or player '{seat.player}' appears twice")
            names.add(seat.player)
            seats.append(seat)
        elif tag == "street":
            street = item[2]
            if item[3]:
                actions.append(Action(street, "board", None, cards=item[3], detail="1"))
        elif tag == "action":
            add(item[3], seated(item[1], item[2]), item[4])
        elif tag == "dealer":
            add(item[2], None)
        elif tag == "award":
            awards.append(item[2])
            seated(item[1], item[2].player)
        elif tag == "summary":
            for line in item[1]:
                if line[0] == "total_pot":
                    total_pot, rake = line[1], line[2]
                elif line[0] == "final_stack":
                    final_stacks.append(line[2])
                    seated(line[1], line[2].player)
                else:
                    add(line[2], None)
        elif tag == "table":
            meta["table_name"], meta["max_seats"], meta["button_seat"] = item[1]
        elif tag == "rules":
            meta["rules_profile"], meta["rules_options"] = item[1]
        else:
            meta[tag] = item[1]

    return Hand(
        hand_id=hand_id, variant=variant, structure=structure, stakes=stakes,
        seats=tuple(seats), actions=tuple(actions), awards=tuple(awards),
        started_at=started_at, total_pot=total_pot, rake=rake,
        final_stacks=tuple(final_stacks), **meta,
    )
