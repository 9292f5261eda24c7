"""Writes a `Hand` as PHH, the PokerKit hand-history standard: one TOML document per hand.

The standard's fields carry the table, the forced bets and the play in PHH's action notation;
what PHH has no field for (the tournament, a level written as text, the rules profile, the
recorded pushes per pot and portion, the summary, players sitting out) goes into user-defined
`_barge_*` fields, so that reading the document back (`grammar.phh_parser.parse_phh`) gives the
same hand.  docs/interop.md, "PHH", has the mapping.

>>> from grammar.phh_parser import EXAMPLE, parse_phh
>>> hand = parse_phh(EXAMPLE)
>>> parse_phh(hand_to_phh(hand)) == hand
True
>>> phh_code(hand)
'NT'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

from evaluator.profiles import DEFAULT_PROFILE
from grammar.phh_parser import BARGE_PREFIX, metadata_fields, parse_phh
from grammar.phh_transformer import (
    BUTTON_BLIND_CODE,
    BUTTON_BLIND_VARIANT,
    FLOOR_PREFIX,
    PHH_VARIANTS,
    STUD_CODES,
    button_blind_position,
    positional,
    toml_key,
    toml_value,
)
from pipeline.amounts import SCALE
from pipeline.model import Action, Hand, Seat, Stakes

__all__ = ["PHH_CODES", "PHH_VARIANTS", "PLAY_FIELD", "hand_to_phh", "phh_code", "phh_players"]

_ISO_CODE = re.compile(r"[A-Z]{3}")  # PHH's `currency` is an ISO 4217 code
PLAY_FIELD = BARGE_PREFIX + "actions"  # the play, when PHH's notation cannot say it exactly

# The PHH code of every (variant, structure) PHH has one for: the 11 games, and 6+ Hold'em's button
# blind, which PokerKit plays as "NS".
PHH_CODES = {game: code for code, game in PHH_VARIANTS.items()} | {BUTTON_BLIND_VARIANT: BUTTON_BLIND_CODE}


def phh_code(hand: Hand) -> str | None:
    """The PHH variant code of the hand's game and structure, or None when PHH has none."""
    return PHH_CODES.get((hand.variant, hand.structure))


def _number(cents: int) -> int | float:
    """An amount as the TOML number PHH writes: whole chips as integers."""
    whole, rest = divmod(cents, SCALE)
    return whole if not rest else cents / SCALE


def _text(cents: int) -> str:
    return str(_number(cents))


def phh_players(hand: Hand) -> list[Seat]:
    """The players dealt in, in PHH order: clockwise from the button's left, the button last (stud:
    from seat 1, the dealer's left)."""
    dealt = [s for s in sorted(hand.seats, key=lambda s: s.number) if not s.sitting_out]
    button = hand.button_seat
    if button is None or phh_code(hand) in STUD_CODES:
        return dealt
    return sorted(dealt, key=lambda s: (s.number <= button, s.number))


def _forced(hand: Hand, players: list[Seat]) -> tuple[list[int | float], list[int | float]]:
    """`antes` and `blinds_or_straddles` as positional arrays (heads-up reversed). A blind is
    written only where it was posted: a walk without a small blind has none in the array."""
    n = len(players)
    stakes = hand.stakes
    big_blind_player = positional(range(n), n)[1]
    per_player = [0] * n
    if stakes.ante:
        per_player = [stakes.ante] * n
    elif stakes.big_blind_ante:
        per_player[big_blind_player] = stakes.big_blind_ante
    # The antes posted (a big blind ante reduced heads-up, §1.5), when they have a shape PHH says.
    index = {s.player: k for k, s in enumerate(players)}
    posted = [0] * n
    for action in hand.actions:
        if action.kind == "ante" and action.player in index:
            short = action.all_in and (stakes.ante or stakes.big_blind_ante)
            posted[index[action.player]] = short or action.amount or 0
    paying = [k for k, a in enumerate(posted) if a]
    if paying and (len(set(posted)) == 1 or (paying == [big_blind_player] and not stakes.ante)):
        per_player = posted
    position = {s.player: positional(range(n), n).index(k) for k, s in enumerate(players)}
    posts = [(position[a.player], a) for a in hand.actions if a.kind == "post" and a.player in position]
    blinds = [0] * n
    if (hand.variant, hand.structure) == BUTTON_BLIND_VARIANT:  # the game's one blind, always said
        blinds[button_blind_position(n)] = stakes.big_blind or 0
    # A dead small blind (the big blind alone, on the first player left of the button) is
    # PokerKit's lone first entry; elsewhere a big blind off its place is a new player's post.
    dead_small = n > 2 and not any(a.detail in ("small_blind", "big_blind") for at, a in posts if at == 1)
    for at, action in posts:
        if dead_small and (at, action.detail) == (0, "big_blind"):
            blinds[at] = stakes.big_blind or action.amount or 0
        elif (at, action.detail) in ((0, "small_blind"), (1, "big_blind")):
            blinds[at] = (stakes.small_blind if at == 0 else stakes.big_blind) or action.amount or 0
        elif action.detail == "straddle":
            blinds[at] = action.amount or 0
        elif action.detail == "big_blind" and not blinds[at]:
            blinds[at] = -(action.amount or 0)  # a new player's post: PokerKit's negative entry
    return [_number(a) for a in positional(per_player, n)], [_number(b) for b in blinds]


class _Actions:
    """The play in PHH's notation: PHH's "cbr" is a total, so each street's wagers are kept;
    the draws of a draw round follow all its discards, as PokerKit deals them."""

    def __init__(self, labels: dict[str, str]) -> None:
        self.labels = labels
        self.lines: list[str] = []
        self.meta: dict[str, Any] = {}
        self.wager: dict[str, int] = {}
        self.street: str | None = None
        self.draws: list[str] = []

    def flush_draws(self) -> None:
        self.lines += self.draws
        self.draws = []

    def add(self, actions: tuple[Action, ...]) -> None:
        k = 0
        while k < len(actions):
            action = actions[k]
            if action.street != self.street:
                self.flush_draws()  # a round's draws, before the next round's discards
                self.street, self.wager = action.street, {}
            if action.kind == "deal":
                cards = list(action.cards)
                while (k + 1 < len(actions) and actions[k + 1].kind == "deal"
                       and actions[k + 1].player == action.player and actions[k + 1].street == action.street):
                    k += 1
                    cards += actions[k].cards
                self.flush_draws()
                self.lines.append(f"d dh {self.labels.get(action.player or '', '?')} {''.join(cards)}")
            else:
                self.one(action)
            k += 1
        self.flush_draws()

    def one(self, action: Action) -> None:
        kind, player = action.kind, action.player or ""
        who = self.labels.get(player, "?")
        wager = self.wager.get(player, 0)
        if kind not in ("discard", "stand_pat", "draw"):
            self.flush_draws()
        if kind in ("post", "bring_in", "call"):
            self.wager[player] = wager + (action.amount or 0)
        if kind == "draw":
            self.draws.append(f"d dh {who} {''.join(action.cards)}")
        elif kind == "board" and action.detail in ("1", "common"):
            self.lines.append(f"d db {''.join(action.cards)}")
        elif kind == "bring_in":
            self.lines.append(f"{who} pb")
        elif kind in ("complete", "raise", "bet"):
            target = action.to_amount or 0 if kind != "bet" else wager + (action.amount or 0)
            self.wager[player] = target
            self.lines.append(f"{who} cbr {_text(target)}")
        elif kind in ("call", "check"):
            self.lines.append(f"{who} cc")
        elif kind == "fold":
            self.lines.append(f"{who} f")
        elif kind in ("discard", "stand_pat"):
            self.lines.append(f"{who} sd {''.join(action.cards)}".rstrip())
        elif kind == "show":
            comment = f" # {action.detail}" if action.detail else ""
            self.lines.append(f"{who} sm {''.join(action.cards)}{comment}")
        elif kind == "muck":
            self.lines.append(f"{who} sm")
        elif kind == "ruling":
            self.lines.append(f"# {FLOOR_PREFIX} {action.detail or ''}")
        elif kind == "note":
            meta = metadata_fields(action.detail or "")
            if meta is None:
                self.lines.append(f"# {action.detail or ''}")
            else:
                self.meta.update(meta)
        # Antes and blinds come from the fields; returns and reshuffles the reader works out.


def _render(fields_: dict[str, Any]) -> str:
    lines = []
    for key, value in fields_.items():
        if key in ("actions", PLAY_FIELD):
            lines.append(f"{key} = [")
            lines += [f"  {toml_value(a)}," for a in value]
            lines.append("]")
        else:
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def _standard_fields(hand: Hand, code: str, players: list[Seat]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The standard's fields, and the metadata a PHH hand kept in its note."""
    stakes = hand.stakes
    antes, blinds = _forced(hand, players)
    out: dict[str, Any] = {"variant": code, "antes": antes}
    if code in STUD_CODES:
        out["bring_in"] = _number(stakes.bring_in or 0)
    else:
        out["blinds_or_straddles"] = blinds
    if stakes.small_bet is not None and stakes.big_bet is not None:
        out["small_bet"], out["big_bet"] = _number(stakes.small_bet), _number(stakes.big_bet)
    elif code not in STUD_CODES:
        # The engine's minimum bet (the bomb pot's ante, else the big blind), so that no note is kept.
        out["min_bet"] = _number(stakes.bomb_pot or stakes.big_blind or stakes.small_blind or SCALE)
    out["starting_stacks"] = [_number(s.stack) for s in players]
    play = _Actions({s.player: f"p{k}" for k, s in enumerate(players, 1)})
    play.add(hand.actions)
    out["actions"] = play.lines
    if hand.event:
        out["event"] = hand.event
    if hand.site:
        out["venue"] = hand.site
    if hand.started_at is not None:
        when = hand.started_at
        out.update(time=when.time().replace(microsecond=0), day=when.day, month=when.month, year=when.year)
    out["hand"] = hand.hand_id
    level = hand.level or ""
    digits = level[:len(level) - len(level.lstrip("0123456789"))]
    if digits:
        out["level"] = int(digits)
    out["seats"] = [s.number for s in players]
    if hand.max_seats is not None:
        out["seat_count"] = hand.max_seats
    if hand.table_name is not None:
        out["table"] = hand.table_name
    out["players"] = [s.player for s in players]
    finals = {f.player: f.amount for f in hand.final_stacks}
    if finals and all(s.player in finals for s in players):
        out["finishing_stacks"] = [_number(finals[s.player]) for s in players]
    if hand.awards:
        won = {s.player: 0 for s in players}
        for award in hand.awards:
            if award.player in won:
                won[award.player] += award.amount
        out["winnings"] = [_number(won[s.player]) for s in players]
    if hand.currency is not None and _ISO_CODE.fullmatch(hand.currency):
        out["currency"] = hand.currency  # play money has no ISO code: `_barge_currency` carries it
    return out, play.meta


def _carried(hand: Hand, back: Hand, level: str | None) -> Iterator[tuple[str, Any]]:
    """The `_barge_*` fields: what reading the standard fields alone would not give back."""
    if hand.tournament is not None:
        yield "tournament", hand.tournament
    if back.game_type != hand.game_type and hand.game_type is not None:
        yield "game", hand.game_type
    if back.currency != hand.currency and hand.currency is not None:
        yield "currency", hand.currency
    if hand.level is not None and level != hand.level:
        yield "level", hand.level
    profile, options = hand.rules_profile, hand.rules_options
    if options or (profile is not None and profile != DEFAULT_PROFILE):
        yield "rules", "; ".join([profile or DEFAULT_PROFILE, *(f"{k}={v}" for k, v in options)])
    if back.button_seat != hand.button_seat:
        yield "button", hand.button_seat or 0
    for key in ("total_pot", "rake"):
        value = getattr(hand, key)
        if value is not None and value != getattr(back, key):
            yield key, _number(value)
    if back.stakes != hand.stakes:
        yield "stakes", {f.name: (_number(v) if isinstance(v, int) and not isinstance(v, bool) else v
                                  if v is not None else False)
                         for f in fields(Stakes)
                         if (v := getattr(hand.stakes, f.name)) != getattr(back.stakes, f.name)}
    out = [s for s in hand.seats if s.sitting_out]
    if out:
        yield "sitting_out", [{"seat": s.number, "player": s.player, "stack": _number(s.stack)} for s in out]
    if back.awards != hand.awards:
        yield "awards", [{"player": a.player, "amount": _number(a.amount), "pot": a.pot,
                          **({"portion": a.portion} if a.portion else {})} for a in hand.awards]
    if back.final_stacks != hand.final_stacks:
        yield "final_stacks", [{"seat": f.seat, "player": f.player, "amount": _number(f.amount)}
                               for f in hand.final_stacks]


def hand_to_phh(hand: Hand) -> str:
    """The hand as one PHH document (TOML, no section header); ValueError for a game or
    structure PHH has no variant code for."""
    code = phh_code(hand)
    if code is None:
        raise ValueError(f"PHH has no variant code for {hand.variant} {hand.structure}")
    players = phh_players(hand)
    if len(players) < 2:
        raise ValueError(f"hand #{hand.hand_id}: PHH needs two players dealt in")
    standard, meta = _standard_fields(hand, code, players)
    standard.update(meta)  # a PHH hand's own fields, kept in its note, as they were
    level = str(standard["level"]) if "level" in standard else None

    def carried(back: Hand) -> dict[str, Any]:
        return {BARGE_PREFIX + key: value for key, value in _carried(hand, back, level)}

    back = parse_phh(_render(standard))
    extra = carried(back)
    if extra:  # the carried stakes (a bomb pot) change how the standard's play reads
        back = parse_phh(_render({**standard, **extra}))
    if back.actions != hand.actions:  # the notation cannot say this play exactly: carry it whole
        standard[PLAY_FIELD] = [_play_row(a) for a in hand.actions]
        extra = carried(parse_phh(_render(standard)))
    return _render({**standard, **extra})


def _play_row(action: Action) -> dict[str, Any]:
    """One action as a row of `_barge_actions` (`grammar.phh_parser.PLAY_COLUMNS`)."""
    row: dict[str, Any] = {"street": action.street, "kind": action.kind}
    if action.player is not None:
        row["player"] = action.player
    for key in ("amount", "to_amount"):
        value = getattr(action, key)
        if value is not None:
            row[key] = _number(value)
    if action.cards:
        row["cards"] = list(action.cards)
    if action.all_in:
        row["all_in"] = True
    if action.detail is not None:
        row["detail"] = action.detail
    return row
