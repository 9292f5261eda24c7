"""The words the dashboard's tables use: one header and one kind of value per column name (every
table reads this one mapping), the games' names from the catalog, and positions in table order.
"""

from __future__ import annotations

import re
from typing import Literal

from evaluator.variants import ALL_VARIANTS

Kind = Literal["text", "game", "link", "count", "money", "percent", "ratio", "per100", "datetime", "date"]

COLUMNS: dict[str, tuple[str, Kind]] = {
    "hand": ("hand", "link"), "hand_id": ("hand", "text"), "seq": ("action", "count"),
    "started_at": ("started", "datetime"), "day": ("day", "date"),
    "first_hand": ("first hand", "datetime"), "last_hand": ("last hand", "datetime"),
    "variant": ("game", "game"), "name": ("game", "text"), "section": ("section", "text"),
    "rules": ("rules", "text"), "structure": ("structure", "text"), "event": ("event", "text"),
    "table_name": ("table", "text"), "position": ("position", "text"), "player": ("player", "text"),
    "winners": ("winners", "text"), "unit": ("unit", "text"), "game_type": ("game type", "text"),
    "players": ("players", "count"), "hands": ("hands", "count"), "tables": ("tables", "count"),
    "variants": ("games", "count"), "findings": ("findings", "count"), "showdowns": ("showdowns", "count"),
    "pot": ("pot", "money"), "chips": ("chips in pots", "money"), "average_pot": ("average pot", "money"),
    "biggest_pot": ("biggest pot", "money"), "net": ("net", "money"),
    "allin_adjusted_net": ("all-in adjusted net", "money"),
    "showdown_pct": ("showdown share", "percent"), "players_per_hand": ("players per hand", "ratio"),
    "vpip": ("VPIP", "percent"), "pfr": ("PFR", "percent"), "three_bet": ("3-bet", "percent"),
    "fold_to_three_bet": ("fold to 3-bet", "percent"), "cbet": ("c-bet", "percent"),
    "fold_to_cbet": ("fold to c-bet", "percent"), "af": ("AF", "ratio"), "afq": ("AFq", "percent"),
    "wtsd": ("WTSD", "percent"), "wsd": ("W$SD", "percent"), "wwsd": ("won without showdown", "percent"),
    "wwsf": ("WWSF", "percent"), "net_bb_per_100": ("bb/100", "per100"),
    "allin_adjusted_hands": ("all-in hands", "count"),
    "severity": ("severity", "text"), "code": ("code", "text"), "rule": ("rule", "text"),
    "message": ("message", "text"), "rule_text": ("the rule's words", "text"), "review": ("review", "text"),
    "reviewer": ("reviewer", "text"), "portion": ("portion", "text"), "class": ("winning hand", "text"),
    "portions_won": ("portions won", "count"),
    "path": ("file", "text"), "line": ("line", "count"), "column": ("column", "count"),
    "error": ("error", "text"), "raw_text": ("raw text", "text"), "status": ("status", "text"),
    "reason": ("reason", "text"), "blocks": ("hand blocks", "count"), "changed": ("changed", "count"),
    "rejects": ("rejected", "count"), "duplicates": ("duplicates skipped", "count"),
    "seat": ("seat", "count"), "starting_stack": ("starting stack", "money"),
    "ending_stack": ("ending stack", "money"), "final_stack": ("final stack", "money"),
    "sitting_out": ("sitting out", "text"), "origin": ("pushed by", "text"), "amount": ("amount", "money"),
    "stakes": ("stakes", "text"), "cards": ("cards", "text"), "boards": ("board", "text"),
    "all_in": ("all in", "text"), "showdown": ("showdown", "text"),
}


def header(column: str) -> str:
    """A column's heading in words.

    >>> header("started_at"), header("allin_adjusted_net"), header("odd_thing")
    ('started', 'all-in adjusted net', 'odd thing')
    """
    return COLUMNS[column][0] if column in COLUMNS else column.replace("_", " ")


def kind(column: str) -> Kind:
    return COLUMNS[column][1] if column in COLUMNS else "text"


def game_name(variant: str) -> str:
    """A game's name from the catalog; a room's own game says its room.

    >>> game_name("deuce_to_seven_triple_draw"), game_name("six_card_omaha"), game_name("mystery")
    ('Deuce-to-Seven Triple Draw', '6 Card Omaha (a PokerStars game)', 'mystery')
    """
    game = ALL_VARIANTS.get(variant)
    if game is None:
        return variant
    return game.name if game.barge else f"{game.name} (a {game.room} game)"


_ORDER = {"SB": 0, "BB": 1, "UTG": 2, "LJ": 80, "HJ": 81, "CO": 82, "BTN": 90}
_UTG_PLUS = re.compile(r"UTG\+(\d+)")


def position_rank(position: str) -> int:
    """Where a position sits in table order: SB, BB, UTG, UTG+1 ..., LJ, HJ, CO, BTN; any other
    label (stud and the other games without a button: "no button") after them.

    >>> sorted(["BTN", "CO", "no button", "UTG+1", "BB", "SB", "UTG", "HJ"], key=position_rank)
    ['SB', 'BB', 'UTG', 'UTG+1', 'HJ', 'CO', 'BTN', 'no button']
    """
    plus = _UTG_PLUS.fullmatch(position)
    return 2 + int(plus.group(1)) if plus else _ORDER.get(position, 100)


SUITS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


def cards(held: list[str] | None) -> str:
    """Cards as a player reads them, suits as symbols, a card nobody saw as "?"; none as "-".

    >>> cards(["Ah", "Td", "??", "Jk"]), cards([]), cards(None)
    ('A\u2665 T\u2666 ? Jk', '-', '-')
    """
    if not held:
        return "-"
    return " ".join("?" if c == "??" else c[:-1] + SUITS.get(c[-1], c[-1]) for c in held)


def boards(dealt: list[dict[str, object]] | None) -> str:
    """A hand's boards: one board's cards as they are, several each after its name.

    >>> boards([{"board": "1", "cards": ["2c", "7d"]}]), boards(None)
    ('2\u2663 7\u2666', '-')
    >>> boards([{"board": "1", "cards": ["Kh"]}, {"board": "2", "cards": ["9d"]}])
    '1: K\u2665 | 2: 9\u2666'
    """
    if not dealt:
        return "-"
    if len(dealt) == 1:
        return cards(_card_list(dealt[0]["cards"]))
    return " | ".join(f"{b['board']}: {cards(_card_list(b['cards']))}" for b in dealt)


def _card_list(value: object) -> list[str]:
    return [str(c) for c in value] if isinstance(value, list) else []
