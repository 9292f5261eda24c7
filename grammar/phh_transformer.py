"""Turns the strings of PHH's `actions` array (`phh_actions.lark`, one line a string) into the
`Step`s that `phh_play` plays into the model's actions, with Lark: the reader of record where
`phh_play.read_steps` leaves a string to the grammar, and of every error.  Also the TOML values
as the metadata note and the writer spell them.  The play itself, the variant codes and the
table setup are `phh_play`'s (compiled; Lark's classes cannot be), named here too for the
modules that read them from here.  Reading the TOML fields, locating errors and the hand-level
mapping are `phh_parser`'s.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from typing import Any

from lark import Token, Transformer, v_args

from grammar.errors import HandSyntaxError
from grammar.phh_play import (  # the names the writer and tests read from here, too
    BUTTON_BLIND_CODE,
    BUTTON_BLIND_VARIANT,
    FLOOR_PREFIX,
    LIMIT_CODES,
    PHH_VARIANTS,
    STUD_CODES,
    Step,
    button_blind_position,
    commentary,
    positional,
    step_of,
)
from grammar.reading import is_token
from pipeline.amounts import AmountError, parse_amount

__all__ = [
    "BUTTON_BLIND_CODE", "BUTTON_BLIND_VARIANT", "FLOOR_PREFIX", "LIMIT_CODES", "PHH_VARIANTS",
    "STUD_CODES", "StepTransformer", "button_blind_position", "positional", "toml_key", "toml_value",
]


@v_args(inline=True)
class StepTransformer(Transformer[Token, list[Step]]):
    """The action strings, one a line, into their `Step`s, in order.  A token's text is its
    `.value`, the same for plain Lark's tokens and the compiled plugin's (`grammar.reading`)."""

    def start(self, *lines: Step) -> list[Step]:
        return list(lines)

    def line(self, *parts: Step | Token) -> Step:
        step = next((p for p in parts if isinstance(p, Step)), Step(""))
        comment = next((p for p in parts if is_token(p)), None)
        if comment is None:
            return step
        return Step(step.verb, step.player, step.cards, step.amount, step.shown, commentary(comment.value))

    def deal_board(self, _dealer: Token, cards: Token) -> Step:
        return step_of("db", None, cards.value, None, False, None)

    def deal_hole(self, _dealer: Token, player: Token, cards: Token) -> Step:
        return step_of("dh", player.value, cards.value, None, False, None)

    def bring_in(self, player: Token) -> Step:
        return step_of("pb", player.value, None, None, False, None)

    def complete_bet_or_raise(self, player: Token, amount: Token) -> Step:
        try:
            value = parse_amount(amount.value)
        except AmountError as exc:
            raise HandSyntaxError(str(exc), amount.line or 1, amount.column or 1,
                                  ("an amount with at most two decimals",)) from None
        return step_of("cbr", player.value, None, value, False, None)

    def check_or_call(self, player: Token) -> Step:
        return step_of("cc", player.value, None, None, False, None)

    def fold(self, player: Token) -> Step:
        return step_of("f", player.value, None, None, False, None)

    def stand_pat_or_discard(self, player: Token, cards: Token | None = None) -> Step:
        return step_of("sd", player.value, cards.value if cards is not None else None, None, False, None)

    def show_or_muck(self, player: Token, cards: Token | None = None) -> Step:
        if cards is not None and cards.type == "DASH":
            return step_of("sm", player.value, None, None, True, None)
        return step_of("sm", player.value, cards.value if cards is not None else None, None, False, None)


# ---- TOML values, as the metadata note spells them -----------------------------------------

def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    for char, code in (("\n", "\\n"), ("\t", "\\t"), ("\r", "\\r")):
        escaped = escaped.replace(char, code)
    return f'"{escaped}"'


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def toml_value(value: Any) -> str:
    """A TOML value as the writer and the metadata note spell it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML form for {type(value).__name__}")
