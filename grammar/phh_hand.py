"""The PHH fields into the hand model, compiled by mypyc (`pipeline.hot_path`): the table and its
forced bets (`setup_of`), the hand around the play (`hand_of`: id, date, seats, awards, final
stacks, the metadata note, the `_barge_*` fields), each field checked, its errors placed at its
key (`Located`).  `phh_parser` reads the document and the action strings and calls these; how
PHH fields map onto the model: docs/interop.md, "PHH".
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any

from evaluator.catalog import ALL_GAMES
from evaluator.profiles import PROFILES
from grammar.errors import HandSyntaxError
from grammar.phh_play import (
    BUTTON_BLIND_CODE,
    BUTTON_BLIND_VARIANT,
    LIMIT_CODES,
    PHH_VARIANTS,
    STUD_CODES,
    Setup,
    Step,
    build_actions,
    button_blind_position,
    dead_small_blind,
    positional,
)
from grammar.phh_transformer import toml_key, toml_value
from pipeline.accounting import chips_put_in
from pipeline.amounts import MAX_WHOLE_DIGITS, SCALE, AmountError, parse_amount
from pipeline.model import ACTION_KINDS, GAME_TYPES, Action, Award, FinalStack, Hand, Seat, Stakes

BARGE_PREFIX = "_barge_"  # user-defined fields that carry what PHH cannot say (docs/interop.md)
META_PREFIX = "PHH: "  # the note that keeps the fields the model has no place for
HAND_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._\-]*")
WHOLE_LIMIT = 10 ** MAX_WHOLE_DIGITS  # whole amounts below it fit the store (pipeline.amounts)

# The fields phh-std requires, per variant ("Required Fields").
_COMMON = ("variant", "antes", "starting_stacks", "actions")
_BLINDS_LIMIT = (*_COMMON, "blinds_or_straddles", "small_bet", "big_bet")
_BLINDS_BIG_BET = (*_COMMON, "blinds_or_straddles", "min_bet")
_STUD = (*_COMMON, "bring_in", "small_bet", "big_bet")
REQUIRED: dict[str, tuple[str, ...]] = {
    code: _STUD if code in STUD_CODES else _BLINDS_LIMIT if code in LIMIT_CODES else _BLINDS_BIG_BET
    for code in PHH_VARIANTS
}
# Fields the model has a place for; every other field goes to the metadata note.
MAPPED = frozenset({
    "variant", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet",
    "starting_stacks", "actions", "event", "time", "day", "month", "year", "hand", "level", "seats",
    "seat_count", "table", "players", "finishing_stacks", "winnings", "venue", "currency",
})
# phh-std's fields in the standard's order ("Specification").
FIELD_ORDER = (
    "variant", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet",
    "starting_stacks", "actions", "author", "event", "url", "venue", "address", "city", "region",
    "postal_code", "country", "time", "time_zone", "time_zone_abbreviation", "day", "month", "year",
    "hand", "level", "seats", "seat_count", "table", "players", "finishing_stacks", "winnings",
    "currency", "currency_symbol", "ante_trimming_status", "time_limit", "time_banks",
)
BARGE_FIELDS = frozenset({
    "tournament", "level", "rules", "button", "total_pot", "rake", "awards", "final_stacks",
    "sitting_out", "stakes", "actions", "game", "currency",
})
# `_barge_actions`: the play as the model holds it, one inline table per action, where PHH's
# notation cannot say it exactly (docs/interop.md, "Writing"); its columns and their types.
PLAY_COLUMNS: dict[str, type | tuple[type, ...]] = {
    "street": str, "kind": str, "player": str, "amount": (int, float), "to_amount": (int, float),
    "cards": list, "all_in": bool, "detail": str,
}


# ---- errors ---------------------------------------------------------------------------------

class Located:
    """Where fields and action strings are in the block's text, for located errors."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:  # split only for an error: most hands have none
        if self._lines is None:
            self._lines = self.text.splitlines() or [""]
        return self._lines

    def key(self, name: str) -> tuple[int, int]:
        key = re.escape(name)
        pattern = re.compile(rf"""^([ \t]*)(?:{key}|"{key}"|'{key}')[ \t]*=""")
        for number, line in enumerate(self.lines, 1):
            match = pattern.match(line)
            if match:
                return number, len(match.group(1)) + 1
        return 1, 1

    def error(self, name: str, message: str, expected: tuple[str, ...] = ()) -> HandSyntaxError:
        line, column = self.key(name)
        return HandSyntaxError(message, line, column, expected)

    def strings(self, name: str) -> list[tuple[int, int]]:
        """(line, column) of the first character inside each string of the array `name`."""
        line, _ = self.key(name)
        offset = sum(len(x) + 1 for x in self.lines[:line - 1])
        text = self.text
        i = text.index("=", offset) + 1
        while i < len(text) and text[i] != "[":
            i += 1
        i += 1
        found: list[tuple[int, int]] = []
        while i < len(text) and text[i] != "]":
            char = text[i]
            if char == "#":
                while i < len(text) and text[i] != "\n":
                    i += 1
            elif char in "\"'":
                quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else char
                i += len(quote)
                found.append(self.position(i))
                while i < len(text) and not text.startswith(quote, i):
                    i += 2 if quote[0] == '"' and text[i] == "\\" else 1
                i += len(quote)
                continue
            i += 1
        return found

    def position(self, offset: int) -> tuple[int, int]:
        before = self.text[:offset]
        return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


# ---- fields ---------------------------------------------------------------------------------

def _amount(value: Any, name: str, where: Located) -> int:
    if type(value) is int and 0 <= value < WHOLE_LIMIT:  # most amounts: what the general path gives
        return value * SCALE
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise where.error(name, f"{name} must be a number, not {value!r}", ("a number",))
    try:
        cents = parse_amount(format(Decimal(repr(value)), "f"))
    except (AmountError, InvalidOperation):
        raise where.error(name, f"{name}: {value!r} is not an amount with at most two decimals",
                          ("a finite amount with at most two decimals",)) from None
    if cents < 0:
        raise where.error(name, f"{name} may not be negative", ("an amount of 0 or more",))
    return cents


def _amounts(data: Mapping[str, Any], name: str, count: int | None, where: Located) -> tuple[int, ...]:
    values = data[name]
    if not isinstance(values, list):
        raise where.error(name, f"{name} must be an array of numbers", ("[number, number, ...]",))
    if count is not None and len(values) != count:
        raise where.error(name, f"{name} has {len(values)} entries for {count} players",
                          (f"an array of {count} numbers",))
    return tuple(_amount(v, name, where) for v in values)


def _blinds(data: Mapping[str, Any], n: int, where: Located) -> tuple[int, ...]:
    """`blinds_or_straddles`; a negative entry is what a player who just sat down posts to play
    at once (PokerKit's "post bet"), kept negative for `phh_transformer`."""
    values = data["blinds_or_straddles"]
    negative = [isinstance(v, int | float) and not isinstance(v, bool) and v < 0
                for v in (values if isinstance(values, list) else [])]
    if any(negative):
        data = {**data, "blinds_or_straddles": [-v if minus else v
                                                for v, minus in zip(values, negative, strict=True)]}
    amounts = _amounts(data, "blinds_or_straddles", n, where)
    return tuple(-a if minus else a for a, minus in zip(amounts, negative, strict=True))


def _typed(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], what: str,
           where: Located) -> Any:
    value = data.get(name)
    if value is not None and (not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool)):
        raise where.error(name, f"{name} must be {what}, not {value!r}", (what,))
    return value


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._]+", "-", text).strip("-._")


def hand_id_of(data: Mapping[str, Any]) -> str:
    """The hand id: the `hand` field when it is a name, the event (with the date and table) and
    the hand number when it is a number, else a digest of the hand's content."""
    hand, event = data.get("hand"), data.get("event")
    number = str(hand).strip() if hand is not None else ""
    if number and not number.isdigit() and _slug(number):
        return number if HAND_ID.fullmatch(number) else _slug(number)
    if number and isinstance(event, str) and _slug(event):
        day = "".join(f"{data[k]:02d}" for k in ("year", "month", "day") if isinstance(data.get(k), int))
        table = _slug(str(data["table"])) if data.get("table") is not None else ""
        return "-".join(p for p in (_slug(event), day, table and f"T{table}", number) if p)
    digest = hashlib.sha1(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return f"phh-{digest}" + (f"-{number}" if number else "")


def setup_of(data: Mapping[str, Any], code: str, where: Located) -> tuple[Setup, Stakes]:
    stacks_raw = data["starting_stacks"]
    if not isinstance(stacks_raw, list) or not 2 <= len(stacks_raw) <= 10:
        raise where.error("starting_stacks", "starting_stacks must list the stacks of 2 to 10 players",
                          ("an array of 2 to 10 numbers",))
    n = len(stacks_raw)
    if any(isinstance(v, float) and v == float("inf") for v in stacks_raw):
        raise where.error("starting_stacks", "an unknown (inf) stack cannot be replayed",
                          ("a known stack for every player",))
    stacks = _amounts(data, "starting_stacks", n, where)
    names = _names(data, n, where)
    seats = _seats(data, n, where)
    antes = _amounts(data, "antes", n, where)
    stud = code in STUD_CODES
    blinds = () if stud else _blinds(data, n, where)
    if stud and "blinds_or_straddles" in data and any(_amounts(data, "blinds_or_straddles", n, where)):
        raise where.error("blinds_or_straddles", "stud games have a bring-in, not blinds",
                          ("no blinds_or_straddles in a stud game",))
    amount = {k: _amount(data[k], k, where) if k in data else None
              for k in ("bring_in", "small_bet", "big_bet", "min_bet")}
    per_player = positional(antes, n)
    nonzero = [i for i, a in enumerate(per_player) if a]
    big_blind_player = positional(range(n), n)[1]
    ante = big_blind_ante = None
    if nonzero and len(nonzero) == n and len(set(per_player)) == 1:
        ante = per_player[0]
    elif nonzero and nonzero == [big_blind_player] and not stud:
        big_blind_ante = per_player[big_blind_player]
    elif nonzero:
        raise where.error("antes", "antes must be the same for every player, or a big blind ante",
                          ("uniform antes, or one ante at the big blind",))
    # PokerKit's 6+ Hold'em: antes and one blind, the button's (docs/interop.md, "Variants").
    button_blind = (code == BUTTON_BLIND_CODE and ante is not None
                    and [i for i, b in enumerate(blinds) if b] == [button_blind_position(n)])
    dead_small = not button_blind and dead_small_blind(blinds)
    big_blind = blinds[0] if dead_small else blinds[1] if len(blinds) > 1 else 0
    if not button_blind and any(b > 0 and i >= 2 and b < big_blind for i, b in enumerate(blinds)):
        raise where.error("blinds_or_straddles", "a straddle smaller than the big blind",
                          ("straddles of at least the big blind",))
    limit = code in LIMIT_CODES
    stakes = Stakes(
        small_blind=(blinds[0] or None) if blinds and not (button_blind or dead_small) else None,
        big_blind=blinds[button_blind_position(n)] if button_blind else big_blind or None,
        small_bet=amount["small_bet"] if limit else None,
        big_bet=amount["big_bet"] if limit else None,
        ante=ante, big_blind_ante=big_blind_ante,
        bring_in=amount["bring_in"] if stud else None,
    )
    setup = Setup(code, names, seats, stacks, antes, blinds, amount["bring_in"],
                  amount["small_bet"], amount["big_bet"], big_blind_ante is not None, button_blind)
    return setup, stakes


def _names(data: Mapping[str, Any], n: int, where: Located) -> tuple[str, ...]:
    given = data.get("players")
    if given is None:
        return tuple(f"p{i}" for i in range(1, n + 1))
    if not isinstance(given, list) or len(given) != n or not all(isinstance(p, str) for p in given):
        raise where.error("players", f"players must be an array of {n} names", (f"{n} strings",))
    names = tuple(p.strip() or f"p{i}" for i, p in enumerate(given, 1))
    if len(set(names)) != n:
        twice = sorted({p for p in names if names.count(p) > 1})
        raise where.error("players", f"player names must differ: {', '.join(twice)} appears twice",
                          ("a different name for every player",))
    return names


def _seats(data: Mapping[str, Any], n: int, where: Located) -> tuple[int, ...]:
    given = data.get("seats")
    if given is None:
        return tuple(range(1, n + 1))
    ok = isinstance(given, list) and len(given) == n and all(
        isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in given)
    if not ok or len(set(given)) != n:
        raise where.error("seats", f"seats must be {n} different seat numbers from 1",
                          (f"an array of {n} different positive integers",))
    return tuple(given)


def _started_at(data: Mapping[str, Any], where: Located) -> datetime | None:
    parts = {k: _typed(data, k, int, "an integer", where) for k in ("year", "month", "day")}
    clock = data.get("time")
    if clock is not None and not isinstance(clock, time):
        raise where.error("time", f"time must be a TOML local time such as 14:03:55, not {clock!r}",
                          ("a local time HH:MM:SS",))
    if None in parts.values():
        return None
    try:
        day = date(parts["year"], parts["month"], parts["day"])
    except ValueError as exc:
        raise where.error("day", f"not a date: {exc}", ("a valid year, month and day",)) from None
    return datetime.combine(day, (clock or time()).replace(tzinfo=None))


# ---- what the model keeps besides the play --------------------------------------------------

def _metadata_note(data: Mapping[str, Any], started: datetime | None, odd_min_bet: bool) -> str | None:
    """The fields the model has no place for, kept as one note the writer reads back: the venue,
    the currency, user-defined fields, a date without its day, a minimum bet other than the big
    blind (the engine's minimum).  Standard fields come in the standard's order, then the others
    as written, so that the note does not depend on the document's layout."""
    dated = ("time", "day", "month", "year")
    kept = {k: v for k, v in data.items()
            if not k.startswith(BARGE_PREFIX) and (k not in MAPPED or (k in dated and started is None)
                                                   or (k == "min_bet" and odd_min_bet))}
    if kept.get("ante_trimming_status") is False:
        del kept["ante_trimming_status"]  # the standard's default
    rank = {name: k for k, name in enumerate(FIELD_ORDER)}
    kept = dict(sorted(kept.items(), key=lambda item: rank.get(item[0], len(rank))))
    if not kept:
        return None
    return META_PREFIX + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in kept.items())


def metadata_fields(note: str) -> dict[str, Any] | None:
    """The fields of a metadata note (None when the note is not one)."""
    if not note.startswith(META_PREFIX):
        return None
    try:
        return dict(tomllib.loads("x = {" + note[len(META_PREFIX):] + "}")["x"])
    except tomllib.TOMLDecodeError:
        return None


def _awards(data: Mapping[str, Any], names: tuple[str, ...], remaining: Mapping[str, int],
            returned: Mapping[str, int], pot: int, where: Located) -> tuple[Award, ...]:
    """The pushes the fields imply: `winnings`, else what `finishing_stacks` add to the stacks
    left after the actions; none (the audit computes them) when neither is given.

    Some converted records count the uncalled bet given back to a winner in their `winnings`
    (HandHQ's walks: the big blind "won" 1.50 of a 0.50/1 pot of 1, as the site said it
    collected): when the winnings exceed the pot by exactly what went back to the winners, that
    part is the return (BARGE 2025 §1.1), not a push."""
    n = len(names)
    if "winnings" in data:
        won = dict(zip(names, _amounts(data, "winnings", n, where), strict=True))
        back = {name: returned.get(name, 0) for name, amount in won.items() if amount}
        if sum(won.values()) - pot == sum(back.values()) > 0 and all(won[p] >= b for p, b in back.items()):
            won = {name: amount - back.get(name, 0) for name, amount in won.items()}
        return tuple(Award(name, amount) for name, amount in won.items() if amount)
    if "finishing_stacks" in data:
        final = _amounts(data, "finishing_stacks", n, where)
        collected = [(name, amount - remaining[name]) for name, amount in zip(names, final, strict=True)]
        return tuple(Award(name, amount) for name, amount in collected if amount > 0)
    return ()


def _barge_fields(data: Mapping[str, Any], where: Located) -> dict[str, Any]:
    fields = {}
    for key, value in data.items():
        if key.startswith(BARGE_PREFIX):
            name = key[len(BARGE_PREFIX):]
            if name not in BARGE_FIELDS:
                raise where.error(key, f"unknown field {key}",
                                  tuple(sorted(BARGE_PREFIX + f for f in BARGE_FIELDS)))
            fields[name] = value
    return fields


def _table_rows(value: Any, key: str, columns: dict[str, type | tuple[type, ...]],
                where: Located) -> list[dict[str, Any]]:
    rows = value if isinstance(value, list) else None
    shape = ", ".join(f"{c} = ..." for c in columns)
    if rows is None or not all(isinstance(r, dict) and set(r) <= set(columns) for r in rows):
        raise where.error(BARGE_PREFIX + key, f"{BARGE_PREFIX}{key} must be an array of {{{shape}}}",
                          (f"[{{{shape}}}, ...]",))
    return rows


def _carried_play(fields: Mapping[str, Any], names: tuple[str, ...], where: Located) -> list[Action]:
    """`_barge_actions`: the play the writer carried whole, read instead of `actions`."""
    key = BARGE_PREFIX + "actions"
    rows = _table_rows(fields["actions"], "actions", PLAY_COLUMNS, where)
    away = {r.get("player") for r in _table_rows(fields.get("sitting_out", []), "sitting_out",
                                                 {"seat": int, "player": str, "stack": (int, float)}, where)}
    play = []
    for row in rows:
        player, cards = row.get("player"), row.get("cards", [])
        wrong = [c for c, kind in PLAY_COLUMNS.items() if c in row and not isinstance(row[c], kind)]
        if "street" not in row or row.get("kind") not in ACTION_KINDS or wrong \
                or (player is not None and player not in names and player not in away) \
                or not all(isinstance(c, str) and len(c) == 2 for c in cards):
            raise where.error(key, f"{key}: not an action of the hand: {toml_value(row)}",
                              ("{street = ..., kind = ..., player = <a player of the hand>, ...}",))
        play.append(Action(
            row["street"], row["kind"], player,
            _amount(row["amount"], key, where) if "amount" in row else None,
            _amount(row["to_amount"], key, where) if "to_amount" in row else None,
            tuple(cards), bool(row.get("all_in", False)), row.get("detail")))
    return play


def _apply_barge(hand: Hand, fields: Mapping[str, Any], where: Located) -> Hand:
    """The `_barge_*` fields: what PHH cannot say, as the writer carried it (docs/interop.md)."""
    changes: dict[str, Any] = {}
    seated = {s.player for s in hand.seats}

    def amount(value: Any, key: str) -> int:
        return _amount(value, BARGE_PREFIX + key, where)

    def text(key: str) -> str:
        value = fields[key]
        if not isinstance(value, str):
            raise where.error(BARGE_PREFIX + key, f"{BARGE_PREFIX}{key} must be a string", ("a string",))
        return value

    def player(row: dict[str, Any], key: str) -> str:
        name = row.get("player")
        if name not in seated:
            raise where.error(BARGE_PREFIX + key, f"{BARGE_PREFIX}{key}: {name!r} is not a player of the "
                              "hand", tuple(sorted(seated)))
        return str(name)

    if "sitting_out" in fields:
        rows = _table_rows(fields["sitting_out"], "sitting_out",
                           {"seat": int, "player": str, "stack": (int, float)}, where)
        extra = [Seat(int(r["seat"]), str(r["player"]), amount(r["stack"], "sitting_out"), True)
                 for r in rows]
        seats = sorted([*hand.seats, *extra], key=lambda s: s.number)
        if len({s.number for s in seats}) != len(seats) or len({s.player for s in seats}) != len(seats):
            raise where.error(BARGE_PREFIX + "sitting_out", "a seat or a name of a player sitting out is "
                              "taken", ("seats and names no other player has",))
        changes["seats"] = tuple(seats)
        seated |= {s.player for s in extra}
    for key in ("tournament", "level", "currency"):
        if key in fields:
            changes[key] = text(key)
    if "game" in fields:
        if text("game") not in GAME_TYPES:
            raise where.error(BARGE_PREFIX + "game", f"unknown game type {fields['game']!r}", GAME_TYPES)
        changes["game_type"] = fields["game"]
    if "rules" in fields:
        profile, *options = [part.strip() for part in text("rules").split(";")]
        if profile not in PROFILES:
            raise where.error(BARGE_PREFIX + "rules", f"unknown rules profile {profile!r}", tuple(PROFILES))
        pairs = [tuple(o.split("=", 1)) for o in options if o]
        if any(len(p) != 2 for p in pairs):
            raise where.error(BARGE_PREFIX + "rules", "rules options are written key=value", ("key=value",))
        changes["rules_profile"], changes["rules_options"] = profile, tuple(pairs)
    if "button" in fields:
        button = fields["button"]
        if not isinstance(button, int) or isinstance(button, bool) or button < 0:
            raise where.error(BARGE_PREFIX + "button", "the button is a seat number (0: no button)",
                              ("a seat number",))
        changes["button_seat"] = button or None
    for key in ("total_pot", "rake"):
        if key in fields:
            changes[key] = amount(fields[key], key)
    if "awards" in fields:
        rows = _table_rows(fields["awards"], "awards",
                           {"player": str, "amount": (int, float), "pot": int, "portion": str}, where)
        changes["awards"] = tuple(
            Award(player(r, "awards"), amount(r.get("amount"), "awards"), int(r.get("pot", 0)),
                  r.get("portion"))
            for r in rows)
    if "final_stacks" in fields:
        rows = _table_rows(fields["final_stacks"], "final_stacks",
                           {"seat": int, "player": str, "amount": (int, float)}, where)
        changes["final_stacks"] = tuple(
            FinalStack(int(r.get("seat", 0)), player(r, "final_stacks"),
                       amount(r.get("amount"), "final_stacks"))
            for r in rows)
    if "stakes" in fields:
        given = fields["stakes"]
        known = {f.name for f in dataclasses.fields(Stakes)}
        if not isinstance(given, dict) or not set(given) <= known:
            raise where.error(BARGE_PREFIX + "stakes", "_barge_stakes names stakes of the model",
                              tuple(sorted(known)))
        values: dict[str, Any] = {
            k: bool(v) if k == "jam_or_fold" else None if v is False else amount(v, "stakes")
            for k, v in given.items()}
        changes["stakes"] = replace(hand.stakes, **values)
    return replace(hand, **changes) if changes else hand


# ---- the hand -------------------------------------------------------------------------------

def hand_of(data: Mapping[str, Any], code: str, setup: Setup, stakes: Stakes, steps: list[Step],
            where: Located) -> Hand:
    """The hand: the play of `steps` at the table `setup_of` gave, and the fields around it."""
    variant, structure = BUTTON_BLIND_VARIANT if setup.button_blind else PHH_VARIANTS[code]
    started = _started_at(data, where)
    actions = build_actions(setup, steps, setup.big_blind_ante, ALL_GAMES[variant].deck.size)
    hand_id = hand_id_of(data)
    fields = _barge_fields(data, where)
    min_bet = _amount(data["min_bet"], "min_bet", where) if "min_bet" in data else None
    carried = fields.get("stakes")
    bomb_pot = carried.get("bomb_pot") if isinstance(carried, dict) else None
    engine_min = _amount(bomb_pot, BARGE_PREFIX + "stakes", where) if bomb_pot else \
        stakes.big_blind or stakes.bring_in  # the engine's minimum bet (evaluator.replay)
    note = _metadata_note(data, started, min_bet not in (None, engine_min))
    if note is not None:
        # After the forced bets, which a native record writes before the first street's marker.
        last = max((k for k, a in enumerate(actions) if a.kind in ("ante", "post")), default=-1)
        first = next((k for k, a in enumerate(actions) if k > last and a.kind != "note"), len(actions))
        actions.insert(first, Action(ALL_GAMES[variant].streets[0].name, "note", None, detail=note))
    if "actions" in fields:
        actions = _carried_play(fields, setup.names, where)
    seat_count = _typed(data, "seat_count", int, "an integer", where)
    level = data.get("level")
    table = data.get("table")
    stud = code in STUD_CODES
    seats = tuple(sorted((Seat(s, name, stack) for name, s, stack in
                          zip(setup.names, setup.seats, setup.stacks, strict=True)), key=lambda s: s.number))
    known: dict[str, Any] = dict(
        hand_id=hand_id, variant=variant, structure=structure, stakes=stakes, seats=seats,
        actions=tuple(actions), started_at=started,
        event=_typed(data, "event", str, "a string", where),
        site=_typed(data, "venue", str, "a string", where), game_type=_game_type(data),
        currency=_typed(data, "currency", str, "a string", where),
        level=str(level) if level is not None else None,
        table_name=str(table) if table is not None else None,
        max_seats=seat_count, button_seat=None if stud else setup.seats[-1],
    )
    put_in = chips_put_in(Hand(**known))
    remaining = {name: stack - put_in.get(name, 0)
                 for name, stack in zip(setup.names, setup.stacks, strict=True)}
    finals: tuple[FinalStack, ...] = ()
    if "finishing_stacks" in data:
        final = _amounts(data, "finishing_stacks", len(setup.names), where)
        finals = tuple(sorted((FinalStack(s, name, amount) for name, s, amount in
                               zip(setup.names, setup.seats, final, strict=True)), key=lambda f: f.seat))
    returned: dict[str, int] = {}
    for action in actions:
        if action.kind == "return" and action.player is not None:
            returned[action.player] = returned.get(action.player, 0) + (action.amount or 0)
    awards = _awards(data, setup.names, remaining, returned, sum(put_in.values()), where)
    # Winnings are what the players collected after the rake (phh-std, "Winnings").
    short = sum(put_in.values()) - sum(a.amount for a in awards)
    # Built anew rather than replace()d: replace() looks the fields up, a third of this function.
    hand = Hand(**known, awards=awards, final_stacks=finals, rake=short if awards and short > 0 else None)
    return _apply_barge(hand, fields, where)


def _game_type(data: Mapping[str, Any]) -> str:
    """PHH has no field for it (docs/format.md, "Units"): money in a `currency` is a cash game's, a
    named `event` without one is a tournament's chips, and anything else a cash game in chips."""
    return "tournament" if "event" in data and "currency" not in data else "cash"
