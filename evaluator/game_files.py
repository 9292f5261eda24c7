"""Game definition files: reading the TOML files that define games (docs/games.md) into the
catalog's `Game` and `Street` objects, and saying where a file is wrong.

The package's own files (`evaluator/games/*.toml`: the 59 BARGE games and the rooms' own) and a
house's files (`barge ... --games DIR`, `games/` beside the database, `BARGE_GAMES`) are read by
the same code and checked once, when they are loaded. A game may `extends` another (loaded
before it, or in the same set of files): it is that game changed where its file says.

The catalog's classes are imported when a function runs, not with this module: the catalog
loads the package's files while it is itself being imported (`evaluator.catalog`).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluator.cards import MEXICAN, SHORT, STANDARD, WITH_JOKER, Deck
from evaluator.variants import ALL_VARIANTS, Variant

if TYPE_CHECKING:
    from evaluator.catalog import Declare, Extra, Game, Guts, Openers, Part, SplitCard, Street, WildRule

SHIPPED = Path(__file__).resolve().parent / "games"
ENV_GAMES = "BARGE_GAMES"  # folders of house games, os.pathsep-separated
BESIDE_DB = "games"  # the folder of house games beside a database file
HOUSE_ROOM = "house"  # Variant.room of a house game: not a BARGE game, cited by its own file

DECKS: dict[str, Deck] = {"standard": STANDARD, "short": SHORT, "mexican": MEXICAN, "with_joker": WITH_JOKER}
FORCED = ("blinds", "antes", "antes_button", "button_blind")
BRING_IN_ORDERS = ("low_card", "high_card", "high_card_ace_high")  # evaluator.cards.bring_in_order
SHOWING_SCALES = ("high", "low_a5", "low_a6", "low_27")  # evaluator.cards.showing_order
STRUCTURES = ("limit", "pot-limit", "no-limit")
TIES = ("seat", "button")
RULE_FLAGS = ("deal_down_when_exposed", "double_bet_open_pair", "joker_option", "sevens_rule", "spread_limit")
# The names of the ways the pot is split, as `barge variants` prints them (docs/games.md).
SHOWDOWN_SCALES = ("27_low", "a5_low", "a5_low8", "a5_low8_if_black", "a5_low_unpaired", "a5_low_x",
                   "a6_low", "action_razz", "badugi", "badugi_27", "chosen", "draw_high", "duck_flush",
                   "high", "high_archie", "high_bug", "high_mexican", "high_pair", "high_quick_quads",
                   "high_short_deck", "high_short_deck_trips", "holdem", "omaha", "points49", "split_card",
                   "straight_flush_run")
# The ways a hand is made at the showdown: which cards may be combined and how the pot is split
# (evaluator.showdown, one function each). "chosen": the game chosen in the hand's (§2.38).
CHOSEN = "chosen"
PORTIONS = "portions"  # the portions are the file's [[portion]] tables
HANDS = ("action_razz", "action_razzdugi", "archie", "at_most_two", "at_most_two_hi_lo8", "badacey",
         "badeucy", "badugi", "bidirectional_chowaha", "binglaha", "chosen", "chowaha", "dramadugi",
         "dramaha", "dramaha_49", "draw_27_low", "draw_a5_low", "draw_high", "duck_flush", "holdem",
         "holdem_hi_lo8", "holdem_two_boards", "korean", "mexican", "murder", "oklahoma", "omaha",
         "omaha_hi_lo8", "omaha_x_or_better", "portions", "quick_quads", "razzdugi", "scrotum",
         "short_deck_holdem", "short_deck_holdem_trips", "short_deck_omaha", "sohe", "stud_27_low",
         "stud_a5_low", "stud_a6_low", "stud_hi_lo", "stud_hi_lo8", "stud_high",
         "two_or_five_omaha_hi_lo8", "wonky_donkey")
# The ways of making a hand that read one board ("1"): the ones a game's `paths` may feed, each
# path in turn played as that board ("portions": written portions made with board "1").
ONE_BOARD_HANDS = ("at_most_two", "at_most_two_hi_lo8", "holdem", "holdem_hi_lo8", "omaha", "omaha_hi_lo8",
                   "portions", "short_deck_holdem", "short_deck_holdem_trips", "short_deck_omaha",
                   "two_or_five_omaha_hi_lo8")
BETS = ("small", "big", "none")
FIRST = ("left_of_big_blind", "left_of_button", "bring_in", "showing")
STEPS = ("choose", "declare", "expose", "remove_board", "split")
TIMED = ("draw", "discard", "roll", "buy", *STEPS)  # what `timing` and `in_turn` may name
WHEN = ("before", "after", "with_action")
FLIP_BY = ("live", "paid")  # evaluator.catalog FLIP_LIVE, FLIP_PAID
SELLS = ("twist", "down", "up", "hole")  # evaluator.catalog TWIST, SELL_DOWN, SELL_UP, SELL_HOLE
PRICES = ("small", "big")  # the limit bet a paid option costs: "big" is the max bet
DISCARDS_TO = ("top",)  # evaluator.catalog DISCARDS_ON_TOP
NEIGHBOURS = ("right",)  # evaluator.catalog NEIGHBOUR_RIGHT: whose down cards a hand may also use

GAME_KEYS = ("id", "name", "section", "rule", "extends", "deck", "forced", "bring_in", "showing",
             "structures", "ties", "rules", "showdown", "hand", "paths", "street", "choice", "portion",
             "declare", "guts", "kill", "nobody_qualifies", "neighbour")
STREET_KEYS = ("name", "down", "up", "boards", "bet", "first", "draw", "discard", "dice", "steps",
               "timing", "in_turn", "flip", "flip_by", "extra", "sells", "price", "counts", "open",
               "discards_to")
GUTS_KEYS = ("burn", "times", "by_pots", "legs")
BURNS = ("pot", "max_bet")  # evaluator.catalog BURN_POT, BURN_MAX_BET
OPEN_KEYS = ("at_least", "rank")  # a street's `open` (evaluator.catalog.Openers)
# the high categories openers may name (evaluator.scales.CATEGORIES, written with "_")
OPEN_AT_LEAST = ("pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
                 "straight_flush")
EXTRA_KEYS = ("down", "when", "each")  # a street's `extra` (evaluator.catalog.Extra)
EXTRA_WHEN = ("mostly_black",)
CHOICE_KEYS = ("game", "street")
PORTION_KEYS = ("name", "scale", "qualifier", "hole", "hole_counts", "boards", "up", "wild", "card",
                "unused_by", "at_least")
PORTION_NAMES = ("high", "low", "split-card", "split-hand")  # the award lines' names (docs/format.md)
SPLIT_CARD = "split_card"  # a portion won by a card, not a five-card hand (evaluator.showdown)
STRAIGHT_FLUSH_RUN = "straight_flush_run"  # the longest run in one suit, 3 to 5 cards (evaluator.runs)
PORTION_SCALES = ("high", "ace_to_five", "deuce_to_seven", "ace_to_six", SPLIT_CARD,
                  STRAIGHT_FLUSH_RUN)  # evaluator.scales, evaluator.runs
# A high portion's floor (`at_least`): evaluator.scales.CATEGORIES above the high card.
AT_LEAST = ("pair", "two pair", "three of a kind", "straight", "flush", "full house", "four of a kind",
            "straight flush", "five of a kind")
CARD_KEYS = ("suit", "rank", "highest_from")
CARD_SUITS = ("s", "h", "d", "c", "last")
CARD_RANKS = ("lowest", "highest")
UP_CARDS = ("hole", "board")  # what a player's up cards count as in a portion's hand
WILD_KEYS = ("ranks", "board", "table", "die", "every_board", "most")
WILD_BOARD = ("lowest", "last")  # evaluator.wild_rules
WILD_TABLE = ("last",)  # evaluator.wild_rules: the last card dealt to any board of the table
WILD_DIE = ("rank", "board_minus")
RANK_NAMES = tuple("23456789TJQKA")
HOUSE_REQUIRED = ("id", "name", "rule")
DECLARE_KEYS = ("words", "paths")
BOTH = "both"  # evaluator.catalog.BOTH: the declaration for every portion
IN_OUT = ("in", "out")  # evaluator.catalog IN, OUT: a guts game's declarations (with [guts])


class GameDefinitionError(ValueError):
    """A game definition that cannot be used: the file, the 1-based line, the key (a dotted path
    such as `street[2].first`) and what was expected there."""

    def __init__(self, file: Path, line: int, key: str, expected: str) -> None:
        super().__init__(f"{file}, line {line}: {key}: {expected}")
        self.file, self.line, self.key, self.expected = file, line, key, expected


Where = tuple[str | int, ...]  # a key's place in a file: ("street", 1, "first")


@dataclass(frozen=True, slots=True)
class _Source:
    """One file's text and parsed table, and how to point at a key in it."""

    file: Path
    text: str
    data: dict[str, Any]

    def error(self, where: Where, expected: str) -> GameDefinitionError:
        return GameDefinitionError(self.file, _line_of(self.text, where), _dotted(where), expected)


def _dotted(where: Where) -> str:
    out = ""
    for part in where:
        out += f"[{part + 1}]" if isinstance(part, int) else ("." if out else "") + part
    return out or "(file)"


_HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z_.]+)\s*\]\]|^\s*\[\s*([A-Za-z_.]+)\s*\]")
_KEY = re.compile(r"^\s*\"?([A-Za-z0-9_\-]+)\"?\s*=")


def _line_of(text: str, where: Where) -> int:
    """The line of the key at `where`, or of the nearest enclosing table or key that is written
    (a key inside an inline table points at its table's line); 1 when nothing is."""
    table: Where = ()
    counts: dict[Where, int] = {}
    best, best_len = 1, 0
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            names = (header.group(1) or header.group(2)).split(".")
            table = ()
            for name in names[:-1]:  # [[choice.street]] belongs to the last [[choice]]
                table = (*table, name, counts.get((*table, name), 0) - 1)
            key: Where = (*table, names[-1])
            index = counts.get(key, 0)
            counts[key] = index + 1
            table = (*key, index) if header.group(1) else key
            here: Where = table
        else:
            match = _KEY.match(line)
            if not match:
                continue
            here = (*table, match.group(1))
        if where[:len(here)] == here and len(here) > best_len:
            best, best_len = number, len(here)
    return best


def read(file: Path) -> _Source:
    """A file's table; a syntax error is located by tomllib's own line and column."""
    text = file.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line = int(found.group(1)) if found else 1
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise GameDefinitionError(file, line, "(syntax)", f"TOML: {message}") from None
    return _Source(file, text, data)


# ---- checking values -------------------------------------------------------------------------

def _need(src: _Source, where: Where, value: object, kind: type, what: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise src.error(where, f"expected {what}, got {value!r}")
    return value


def _one_of(src: _Source, where: Where, value: object, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise src.error(where, f"expected one of {', '.join(allowed)}; got {value!r}")
    return value


def _names(src: _Source, where: Where, value: object, allowed: Sequence[str]) -> tuple[str, ...]:
    items = _need(src, where, value, list, f"a list of {', '.join(allowed)}")
    return tuple(_one_of(src, (*where, i), item, allowed) for i, item in enumerate(items))


def _count(src: _Source, where: Where, value: object) -> int:
    number = _need(src, where, value, int, "a whole number")
    if number < 0:
        raise src.error(where, f"expected a number of 0 or more, got {number}")
    return int(number)


def _range(src: _Source, where: Where, value: object) -> tuple[int, int]:
    pair = _need(src, where, value, list, "[fewest, most] cards")
    if len(pair) != 2:
        raise src.error(where, f"expected [fewest, most] cards, got {pair!r}")
    fewest, most = (_count(src, (*where, i), v) for i, v in enumerate(pair))
    if fewest > most:
        raise src.error(where, f"expected fewest <= most, got {pair!r}")
    return fewest, most


def _unknown(src: _Source, where: Where, table: Mapping[str, object], allowed: Sequence[str]) -> None:
    for key in table:
        if key not in allowed:
            raise src.error((*where, key), f"unknown key; expected one of {', '.join(allowed)}")


def _keyed(src: _Source, where: Where, raw: object, allowed: Sequence[str], example: str,
           required: tuple[str, str]) -> dict[str, Any]:
    """An inline table of `allowed` keys (like `example`) with the key `required[0]`, else the
    error `required[1]`."""
    table: dict[str, Any] = _need(src, where, raw, dict, f"a table such as {example}")
    _unknown(src, where, table, allowed)
    if required[0] not in table:
        raise src.error(where, required[1])
    return table


def _street_changes(src: _Source, where: Where, raw: object) -> tuple[str, dict[str, Any]]:
    """A `[[street]]` table as its name and the Street fields it sets."""
    table: dict[str, Any] = _need(src, where, raw, dict, "a [[street]] table")
    _unknown(src, where, table, STREET_KEYS)
    if "name" not in table:
        raise src.error(where, "a street needs a name")
    name = _need(src, (*where, "name"), table["name"], str, "a street name")
    changes: dict[str, Any] = {}
    for key, value in table.items():
        at = (*where, key)
        if key in ("down", "up", "dice", "flip"):
            changes[key] = _count(src, at, value)
        elif key == "boards":
            boards = _need(src, at, value, dict, 'a table of board name = cards, e.g. { "1" = 3 }')
            changes[key] = tuple((b, _count(src, (*at, b), n)) for b, n in boards.items())
        elif key == "bet":
            bet = _one_of(src, at, value, BETS)
            changes[key] = None if bet == "none" else bet
        elif key == "first":
            changes[key] = _one_of(src, at, value, FIRST)
        elif key == "flip_by":
            changes[key] = _one_of(src, at, value, FLIP_BY)
        elif key == "discards_to":
            changes[key] = _one_of(src, at, value, DISCARDS_TO)
        elif key == "extra":
            changes[key] = _extra(src, at, value)
        elif key == "open":
            changes[key] = _openers(src, at, value)
        elif key == "sells":
            changes[key] = _one_of(src, at, value, SELLS)
        elif key == "price":
            changes[key] = _one_of(src, at, value, PRICES)
        elif key == "counts":
            listed = _need(src, at, value, list, "a list of card counts, e.g. [1, 3]")
            changes[key] = tuple(sorted({_count(src, (*at, j), n) for j, n in enumerate(listed)}))
            if not changes[key] or changes[key][-1] > 5:
                raise src.error(at, f"counts of 0 to 5 cards of a five-card hand; got {listed!r}")
        elif key in ("draw", "discard"):
            changes[key] = _range(src, at, value)
        elif key == "steps":
            changes[key] = frozenset(_names(src, at, value, STEPS))
        elif key == "in_turn":
            changes[key] = frozenset(_names(src, at, value, TIMED))
        elif key == "timing":
            timing = _need(src, at, value, dict, 'a table of step = "before" | "after" | "with_action"')
            changes[key] = tuple((_one_of(src, (*at, step), step, TIMED),
                                  _one_of(src, (*at, step), when, WHEN)) for step, when in timing.items())
    if "flip_by" in table and not table.get("flip"):
        raise src.error((*where, "flip_by"), "flip_by names who flips: the street needs `flip = N` (N >= 1)")
    if "price" in table and "sells" not in table:
        raise src.error((*where, "price"), "price is what the street's option costs: the street needs "
                        "`sells`")
    return name, changes


def _extra(src: _Source, at: Where, raw: object) -> Extra:
    """A street's `extra = { down = N, when = "mostly_black" }` or `{ down = N, each = "4" }`."""
    from evaluator.catalog import Extra

    table = _need(src, at, raw, dict, 'a table such as { down = 1, each = "4" }')
    _unknown(src, at, table, EXTRA_KEYS)
    if "down" not in table or ("when" in table) == ("each" in table):
        raise src.error(at, "`down = N` and one of `when` (a condition on the street's board cards) or "
                        "`each` (a rank: N cards for each card of it)")
    down = _count(src, (*at, "down"), table["down"])
    if down < 1:
        raise src.error((*at, "down"), "expected 1 or more extra down cards")
    when = _one_of(src, (*at, "when"), table["when"], EXTRA_WHEN) if "when" in table else None
    each = _one_of(src, (*at, "each"), table["each"], RANK_NAMES) if "each" in table else None
    return Extra(down, when, each)


def _openers(src: _Source, at: Where, raw: object) -> Openers:
    """A street's `open = { at_least = "pair", rank = "J" }`: the hand the first bet needs."""
    from evaluator.catalog import Openers

    table = _keyed(src, at, raw, OPEN_KEYS, '{ at_least = "pair", rank = "J" }',
                   ("at_least", "`at_least`: the category of the openers (pair, two_pair, ...)"))
    at_least = _one_of(src, (*at, "at_least"), table["at_least"], OPEN_AT_LEAST)
    rank = _one_of(src, (*at, "rank"), table["rank"], RANK_NAMES) if "rank" in table else None
    return Openers(at_least.replace("_", " "), rank)


def _streets(src: _Source, where: Where, tables: object, base: tuple[Street, ...]) -> tuple[Street, ...]:
    """`base` with each `[[street]]` applied: a street of the same name changed where the table
    says, a new name added at the end."""
    from evaluator.catalog import Street

    streets = list(base)
    for i, table in enumerate(_need(src, where, tables, list, "[[street]] tables")):
        name, changes = _street_changes(src, (*where, i), table)
        known = [k for k, s in enumerate(streets) if s.name == name]
        if known:
            streets[known[0]] = replace(streets[known[0]], **changes)
        else:
            streets.append(Street(name, **changes))
    return tuple(streets)


# A piece of a path: a whole board ("top") or one card of it, counted from 1 ("turn[2]").
_PIECE = re.compile(r"^([A-Za-z0-9_]+)(?:\[([1-9][0-9]*)\])?$")


def _paths(src: _Source, where: Where, value: object) -> tuple[tuple[str, ...], ...]:
    """`paths = [["left", "center", "right"], ...]`: the boards (or cards of a board) a hand may
    combine, each list one way; every path needs at least one piece."""
    paths = _need(src, where, value, list, 'a list of paths, e.g. [["top", "center", "bottom"]]')
    if not paths:
        raise src.error(where, "expected at least one path")
    out = []
    for i, path in enumerate(paths):
        pieces = _need(src, (*where, i), path, list, 'a path: a list of boards, e.g. ["top", "turn[1]"]')
        if not pieces:
            raise src.error((*where, i), "expected a path of at least one board")
        for j, piece in enumerate(pieces):
            if not isinstance(piece, str) or not _PIECE.match(piece):
                raise src.error((*where, i, j), f'expected a board name or a card of one ("turn[1]"), '
                                f"got {piece!r}")
        out.append(tuple(pieces))
    return tuple(out)


# ---- building a game -------------------------------------------------------------------------

_SCALARS: dict[str, Callable[[_Source, Where, object], object]] = {
    "deck": lambda src, at, v: DECKS[_one_of(src, at, v, tuple(DECKS))],
    "forced": lambda src, at, v: _one_of(src, at, v, FORCED),
    "bring_in": lambda src, at, v: _one_of(src, at, v, BRING_IN_ORDERS),
    "showing": lambda src, at, v: _one_of(src, at, v, SHOWING_SCALES),
    "ties": lambda src, at, v: _one_of(src, at, v, TIES),
    "structures": lambda src, at, v: _names(src, at, v, STRUCTURES),
    "showdown": lambda src, at, v: _names(src, at, v, SHOWDOWN_SCALES),
    "rules": lambda src, at, v: frozenset(_names(src, at, v, RULE_FLAGS)),
    "hand": lambda src, at, v: _one_of(src, at, v, HANDS),
    "paths": _paths,
    "kill": lambda src, at, v: _need(src, at, v, str, "the name of a board of table cards"),
    "neighbour": lambda src, at, v: _one_of(src, at, v, NEIGHBOURS),
}
_REQUIRED = ("deck", "forced", "street", "showdown", "hand")  # of a game that extends none


def _variant(src: _Source, house: bool, parent: Game | None) -> Variant:
    data = src.data
    for key in ("id", "name", "section", "rule", "extends"):
        if key in data:
            _need(src, (key,), data[key], str, "a string")
    game_id = data["id"]
    if not house:  # the package's games: names and sections are evaluator.variants' table
        variant = ALL_VARIANTS.get(game_id)
        if variant is None:
            raise src.error(("id",), "a game of evaluator.variants (the package's files)")
        if variant.extends is not None and data.get("extends") != variant.extends:
            raise src.error(("extends",), f"{variant.room}'s {game_id} extends {variant.extends}")
        return variant
    for key in HOUSE_REQUIRED:
        if key not in data:
            raise src.error((), f"a house game's file needs `{key} = ...`")
    section = data.get("section", parent.variant.section if parent is not None else "")
    return Variant(game_id, data["name"], section, room=HOUSE_ROOM, extends=data.get("extends"),
                   citation=data["rule"])


def _build(src: _Source, house: bool, known: Mapping[str, Game]) -> Game:
    from evaluator.catalog import Game

    data = src.data
    _unknown(src, (), data, GAME_KEYS)
    if "id" not in data:
        raise src.error((), "a game's file needs `id = ...`")
    if not house and {"name", "section", "rule"} & set(data):
        raise src.error((next(k for k in ("name", "section", "rule") if k in data),),
                        "no name, section or rule in the package's files: evaluator.variants holds them")
    parent_id = data.get("extends")
    parent = None
    if parent_id is not None:
        parent = known.get(_need(src, ("extends",), parent_id, str, "a game id"))
        if parent is None:
            raise src.error(("extends",), f"a known game id; no game {parent_id!r} is defined")
    else:
        for key in _REQUIRED:
            if key not in data:
                raise src.error((), f"a game that extends none needs `{key}`")
    variant = _variant(src, house, parent)
    if variant.id != src.file.stem:
        raise src.error(("id",), f"the file's name: {src.file.stem!r} (the file is {src.file.name})")
    fields: dict[str, Any] = {key: make(src, (key,), data[key])
                              for key, make in _SCALARS.items() if key in data}
    base = parent.streets if parent is not None else ()
    streets = _streets(src, ("street",), data["street"], base) if "street" in data else base
    choices = _choices(src, data["choice"]) if "choice" in data else parent.choices if parent else ()
    parts = _portions(src, data["portion"]) if "portion" in data else parent.parts if parent else ()
    if "declare" in data:
        fields["declare"] = _declare(src, ("declare",), data["declare"])
    if "guts" in data:
        fields["guts"] = _guts(src, data["guts"])
    if "nobody_qualifies" in data:
        fields["nobody_qualifies"] = _need(src, ("nobody_qualifies",), data["nobody_qualifies"], str,
                                           "the name of a [[portion]]")
    game = Game(variant, streets=streets, choices=choices, parts=parts, **fields) if parent is None \
        else replace(parent, variant=variant, streets=streets, choices=choices, parts=parts, **fields)
    if (game.hand == CHOSEN) != bool(game.choices):
        raise src.error(("hand",), f'hand = "{CHOSEN}" exactly when the game has [[choice]] tables')
    if (game.hand == PORTIONS) != bool(game.parts):
        raise src.error(("hand",), f'hand = "{PORTIONS}" exactly when the game has [[portion]] tables')
    _check_portions(src, game)
    _check_nobody_qualifies(src, game)
    _check_paths(src, game)
    _check_sales(src, game)
    _check_declare(src, game)
    _check_extra(src, game)
    if game.guts is not None and game.guts.burn == "max_bet" and game.structures != ("limit",):
        raise src.error(("guts", "burn"), 'the max bet is a limit game\'s big bet: structures = ["limit"]')
    _check_kill(src, game)
    _check_discards_to(src, game)
    return game


def _guts(src: _Source, raw: object) -> Guts:
    """A guts game's `[guts]` table: burn, times, by_pots, legs (docs/games.md)."""
    from evaluator.catalog import Guts

    at: Where = ("guts",)
    table = _need(src, at, raw, dict, 'a table such as { burn = "pot" }')
    _unknown(src, at, table, GUTS_KEYS)
    if "burn" not in table:
        raise src.error(at, 'a guts game needs `burn = "pot"` or `"max_bet"`')
    burn = _one_of(src, (*at, "burn"), table["burn"], BURNS)
    times = _count(src, (*at, "times"), table.get("times", 1))
    if times < 1:
        raise src.error((*at, "times"), f"expected 1 or more, got {times}")
    by_pots = _need(src, (*at, "by_pots"), table.get("by_pots", False), bool, "true or false")
    legs = _count(src, (*at, "legs"), table.get("legs", 0))
    return Guts(burn, times, bool(by_pots), legs)


def _check_kill(src: _Source, game: Game) -> None:
    """A killing board (`kill`) is one the streets deal, and no portion's or path's: its cards are
    table cards, in no hand."""
    if game.kill is None:
        return
    dealt = {name for street in game.streets for name, _ in street.boards}
    if game.kill not in dealt:
        known = ", ".join(sorted(dealt))
        raise src.error(("kill",), f"a board the streets deal ({known}); got {game.kill!r}")
    used = {b for part in game.parts for b in part.boards}
    used |= {piece.split("[")[0] for path in game.paths for piece in path}
    if game.kill in used:
        raise src.error(("kill",), f"a board of table cards, in no hand: a portion or a path plays "
                        f"{game.kill}")


def _street_key(src: _Source, street: str, key: str) -> Where:
    """Where a street's key is written: its own [[street]] table of the file, else the streets."""
    written = [t.get("name") if isinstance(t, dict) else None for t in src.data.get("street", [])]
    return ("street", written.index(street), key) if street in written else ("street",)


def _check_discards_to(src: _Source, game: Game) -> None:
    """Discards placed on top of the stub are a street's discards: the street has `discard`."""
    for street in game.streets:
        if street.discards_to is not None and not street.discard:
            raise src.error(_street_key(src, street.name, "discards_to"), "discards_to says where the "
                            f"street's discards go: {street.name} needs `discard = [fewest, most]`")


def _check_extra(src: _Source, game: Game) -> None:
    """A street's extra down cards are counted from the cards it deals to its boards: it deals some."""
    for street in game.streets:
        if street.extra is not None and not street.boards:
            raise src.error(_street_key(src, street.name, "extra"), "extra down cards follow the street's "
                            f"board cards: {street.name} deals none")


def _check_nobody_qualifies(src: _Source, game: Game) -> None:
    """`nobody_qualifies` names one of the game's written portions made by a hand (not a card)."""
    if game.nobody_qualifies is None:
        return
    names = [part.name for part in game.parts if part.scale != SPLIT_CARD]
    if game.nobody_qualifies not in names:
        raise src.error(("nobody_qualifies",), f"the name of one of the game's [[portion]] tables "
                        f"({', '.join(names) or 'none'}); got {game.nobody_qualifies!r}")


def _check_sales(src: _Source, game: Game) -> None:
    """A paid option's price is a limit bet (the max bet is the big bet), so a game that sells one
    is played in limit only; a twist is a draw of its own, not on a street that draws."""
    for street in game.streets:
        if (street.sells == "hole") != bool(street.counts):
            written = [j for j, t in enumerate(src.data.get("street", [])) if t.get("name") == street.name]
            raise src.error(("street", written[0], "counts") if written else ("street",),
                            f'counts (the numbers of cards a purchase plays) exactly with sells = "hole": '
                            f"{street.name}")
    selling = [i for i, street in enumerate(game.streets) if street.sells]
    if not selling:
        return
    if game.structures != ("limit",):
        where: Where = ("structures",) if "structures" in src.data else ("street",)
        raise src.error(where, 'structures = ["limit"]: a paid option costs a limit bet (the max bet is the '
                        f"big bet); got {list(game.structures)}")
    for i in selling:
        street = game.streets[i]
        written = [j for j, t in enumerate(src.data.get("street", [])) if t.get("name") == street.name]
        if street.sells == "hole" and game.hand != PORTIONS:
            raise src.error(("hand",), "a purchase of the cards played changes the portions' `hole`: "
                            f'hand = "{PORTIONS}"')
        if street.sells == "twist" and (street.draw or street.discard):
            raise src.error(("street", written[0], "sells") if written else ("street",),
                            f"a street that sells a twist draws nothing else: {street.name} has `draw` or "
                            "`discard`")


def _check_portions(src: _Source, game: Game) -> None:
    """A portion's boards must be dealt, and a wild die rolled, by the game's streets; with
    `paths`, a portion is made with each path as board 1 and names no other board."""
    dealt = {name for street in game.streets for name, _ in street.boards}
    if game.paths or (game.declare is not None and game.declare.paths):
        dealt.add("1")  # each path is played as board 1 (docs/games.md `paths`)
    rolled = any(street.dice for street in game.streets)
    for i, part in enumerate(game.parts):
        if game.paths:
            if part.boards != ("1",):
                raise src.error(("portion", i, "boards"), 'with paths each path is the hand\'s board "1": '
                                f'boards = ["1"] (the default); got {list(part.boards)}')
            if part.wild is not None and part.wild.every_board:
                raise src.error(("portion", i, "wild", "every_board"), "with paths a hand is made with one "
                                'path: `table = "last"` names a card of the whole table')
        missing = [b for b in part.boards if b not in dealt and not game.paths]
        if missing:
            known = ", ".join(sorted(dealt))
            raise src.error(("portion", i, "boards"), f"a board the streets deal ({known}); not {missing[0]}")
        if part.wild is not None and part.wild.die and not rolled:
            raise src.error(("portion", i, "wild"), "a die rolled on a street (`dice = 1`) for a wild die")


def _portions(src: _Source, tables: object) -> tuple[Part, ...]:
    """A game's written portions (`hand = "portions"`), each a `[[portion]]` table."""
    from evaluator.catalog import Part

    parts: list[Part] = []
    for at, table in _array(src, "portion", tables, PORTION_KEYS, ("name", "scale")):
        scale = _one_of(src, (*at, "scale"), table["scale"], PORTION_SCALES)
        qualifier = None
        if "qualifier" in table:
            if scale != "ace_to_five":
                raise src.error((*at, "qualifier"), "a qualifier only on an ace_to_five portion")
            qualifier = _count(src, (*at, "qualifier"), table["qualifier"])
            if not 5 <= qualifier <= 13:
                raise src.error((*at, "qualifier"), f"expected 5 to 13 (X-or-better), got {qualifier}")
        hole = _range(src, (*at, "hole"), table["hole"]) if "hole" in table else None
        if hole is not None and hole[1] > 5:
            raise src.error((*at, "hole"), f"expected at most 5 cards of a five-card hand, got {hole[1]}")
        if "hole_counts" in table:  # counts that are not a range: two or five (Full Bicester #1024)
            if hole is not None:
                raise src.error((*at, "hole_counts"), "hole or hole_counts, not both")
            counts = _need(src, (*at, "hole_counts"), table["hole_counts"], list,
                           "a list of card counts, e.g. [2, 5]")
            numbers = sorted({_count(src, (*at, "hole_counts", j), n) for j, n in enumerate(counts)})
            if not numbers or numbers[-1] > 5:
                raise src.error((*at, "hole_counts"), f"counts of 0 to 5 cards of a five-card hand; "
                                f"got {counts!r}")
            hole_counts: tuple[int, ...] | None = tuple(numbers)
        else:
            hole_counts = None
        boards = _need(src, (*at, "boards"), table.get("boards", ["1"]), list, "a list of board names")
        names = tuple(_need(src, (*at, "boards", j), b, str, "a board name") for j, b in enumerate(boards))
        if not names:
            raise src.error((*at, "boards"), "at least one board name")
        up = _one_of(src, (*at, "up"), table.get("up", "hole"), UP_CARDS)
        wild = _wild(src, (*at, "wild"), table["wild"]) if "wild" in table else None
        if (scale == SPLIT_CARD) != ("card" in table):
            raise src.error((*at, "card" if scale == SPLIT_CARD else "scale"),
                            f'a card table exactly when scale = "{SPLIT_CARD}"')
        card = _split_card(src, (*at, "card"), table["card"]) if "card" in table else None
        at_least = None
        if "at_least" in table:  # "at least a full house" (La Bumba #738 rule 15)
            if scale != "high":
                raise src.error((*at, "at_least"), 'a category floor only on a scale = "high" portion')
            at_least = _one_of(src, (*at, "at_least"), table["at_least"], AT_LEAST)
        if scale == STRAIGHT_FLUSH_RUN and "wild" in table:
            raise src.error((*at, "wild"), f"no wild cards in a {STRAIGHT_FLUSH_RUN} portion")
        unused_by = None
        if "unused_by" in table:
            earlier = [p.name for p in parts if p.scale != SPLIT_CARD]
            unused_by = _one_of(src, (*at, "unused_by"), table["unused_by"],
                                earlier or ["(an earlier portion)"])
        parts.append(Part(_one_of(src, (*at, "name"), table["name"], PORTION_NAMES), scale, qualifier,
                          hole, names, up == "board", wild, card, unused_by, hole_counts, at_least))
    if not parts:
        raise src.error(("portion",), "at least one [[portion]] table")
    return tuple(parts)


def _wild(src: _Source, at: Where, raw: object) -> WildRule:
    """A portion's `wild = { ranks = [...], board = ..., die = ..., most = N }`."""
    from evaluator.catalog import WildRule

    table = _need(src, at, raw, dict, 'a table such as { ranks = ["2"] } or { board = "lowest" }')
    _unknown(src, at, table, WILD_KEYS)
    ranks = frozenset(_names(src, (*at, "ranks"), table["ranks"], RANK_NAMES) if "ranks" in table else ())
    board = _one_of(src, (*at, "board"), table["board"], WILD_BOARD) if "board" in table else None
    whole = _one_of(src, (*at, "table"), table["table"], WILD_TABLE) if "table" in table else None
    die = frozenset(_names(src, (*at, "die"), table["die"], WILD_DIE)) if "die" in table else frozenset()
    every = _need(src, (*at, "every_board"), table.get("every_board", False), bool, "true or false")
    most = _count(src, (*at, "most"), table["most"]) if "most" in table else None
    if not ranks and board is None and whole is None and not die:
        raise src.error(at, "at least one of ranks, board, table or die")
    if every and board is None:
        raise src.error((*at, "every_board"), "every_board makes each board's `board` rank wild: it needs "
                        "`board = ...`")
    return WildRule(ranks, board, whole, die, bool(every), most)


def _split_card(src: _Source, at: Where, raw: object) -> SplitCard:
    """A split-card portion's `card = { suit = "s", rank = "lowest", highest_from = "8" }`."""
    from evaluator.catalog import SplitCard

    table = _keyed(src, at, raw, CARD_KEYS, '{ suit = "s", rank = "lowest" }',
                   ("suit", "a card needs `suit = ...`"))
    suit = _one_of(src, (*at, "suit"), table["suit"], CARD_SUITS)
    rank = _one_of(src, (*at, "rank"), table.get("rank", "lowest"), CARD_RANKS)
    pivot = _one_of(src, (*at, "highest_from"), table["highest_from"], RANK_NAMES) \
        if "highest_from" in table else None
    return SplitCard(suit, rank, pivot)


def _array(src: _Source, key: str, tables: object, allowed: Sequence[str],
           required: Sequence[str]) -> Iterator[tuple[Where, dict[str, Any]]]:
    """Each table of an array of tables (`[[choice]]`, `[[portion]]`) with its place, checked for
    unknown and missing keys."""
    for i, raw in enumerate(_need(src, (key,), tables, list, f"[[{key}]] tables")):
        at: Where = (key, i)
        table = _need(src, at, raw, dict, f"a [[{key}]] table")
        _unknown(src, at, table, allowed)
        missing = [k for k in required if k not in table]
        if missing:
            raise src.error(at, f"a {key} needs {' and '.join(f'`{k} = ...`' for k in missing)}")
        yield at, table


def _check_paths(src: _Source, game: Game) -> None:
    """Every piece of a path names a board the streets deal, and a card it has; paths feed only
    a way of making a hand that reads one board."""
    if not game.paths:
        return
    _one_board(src, ("paths",), game)
    _pieces_dealt(src, ("paths",), game, game.paths)


def _one_board(src: _Source, where: Where, game: Game) -> None:
    """Paths play each path as board 1: the game's hand must read that one board (a written
    portion's boards are then board 1)."""
    written = game.hand == PORTIONS and all(part.boards == ("1",) for part in game.parts)
    if game.hand not in ONE_BOARD_HANDS and not written:
        raise src.error(where, f"paths play each path as board 1: hand must be one of "
                        f"{', '.join(ONE_BOARD_HANDS)}, or portions on board 1; got {game.hand!r}")


def _pieces_dealt(src: _Source, where: Where, game: Game, paths: Sequence[Sequence[str]]) -> None:
    dealt: dict[str, int] = {}
    for street in game.streets:
        for board, count in street.boards:
            dealt[board] = dealt.get(board, 0) + count
    for i, path in enumerate(paths):
        for j, piece in enumerate(path):
            match = _PIECE.match(piece)
            assert match is not None  # checked by _paths
            board, card = match.group(1), match.group(2)
            if board not in dealt:
                raise src.error((*where, i, j), f"a board the streets deal ({', '.join(dealt) or 'none'}); "
                                f"got {board!r}")
            if card is not None and int(card) > dealt[board]:
                raise src.error((*where, i, j), f"a card board {board} is dealt: it gets {dealt[board]}, "
                                f"not {card}")


def _declare(src: _Source, where: Where, raw: object) -> Declare:
    """`[declare]`: `words = ["high", "low", "both"]` and, for a board chosen by the declaration,
    `paths = { high = [["top", "turn", "river"]], ... }`."""
    from evaluator.catalog import Declare

    table = _need(src, where, raw, dict, 'a table: [declare] with words = ["high", "low", "both"]')
    _unknown(src, where, table, DECLARE_KEYS)
    if "words" not in table:
        raise src.error(where, 'a [declare] table needs `words = [...]` (e.g. ["high", "low", "both"])')
    words = _names(src, (*where, "words"), table["words"], (*PORTION_NAMES, BOTH, *IN_OUT))
    if len(words) < 2 or len(set(words)) != len(words):
        raise src.error((*where, "words"), f"at least two different words; got {list(words)}")
    paths = _need(src, (*where, "paths"), table.get("paths", {}), dict,
                  'a table of word = paths, e.g. { high = [["top", "turn", "river"]] }')
    by_word = tuple((_one_of(src, (*where, "paths", word), word, words),
                     _paths(src, (*where, "paths", word), value)) for word, value in paths.items())
    return Declare(words, by_word)


def _check_declare(src: _Source, game: Game) -> None:
    """A game with `[declare]` has a street with the `declare` step, and the other way round; its
    words name portions the game's hand has, or are a guts game's in and out (exactly with
    `[guts]`); a declaration's paths are boards the streets deal."""
    declaring = [street.name for street in game.streets if "declare" in street.steps]
    if game.guts is not None and game.declare is None:
        raise src.error(("guts",), 'a guts game declares in or out: [declare] words = ["in", "out"], and a '
                        'street with steps = ["declare"]')
    if game.declare is None:
        if declaring:  # at the file's own [[street]] table of that name, where it writes one
            tables = src.data.get("street", [])
            written = [i for i, table in enumerate(tables)
                       if isinstance(table, dict) and table.get("name") == declaring[0]]
            where: Where = ("street", written[0], "steps") if written else ()
            raise src.error(where, f"a declare step (street {declaring[0]}) needs the game's [declare] table "
                            '(words = ["high", "low", ...])')
        return
    if len(declaring) != 1:
        raise src.error(("declare",), f'one street with steps = ["declare"]; the game has {len(declaring)}')
    if game.guts is not None:  # in or out, each player for themselves (evaluator.guts)
        if sorted(game.declare.words) != sorted(IN_OUT):
            raise src.error(("declare", "words"), f'a guts game\'s words are ["in", "out"]; got '
                            f"{list(game.declare.words)}")
        if game.declare.paths:
            raise src.error(("declare", "paths"), "a guts game's declaration chooses no board")
        return
    for i, word in enumerate(game.declare.words):
        if word in IN_OUT:
            raise src.error(("declare", "words", i), f"{word!r} is a guts game's declaration: the game needs "
                            "[guts]")
    if game.parts:
        names: tuple[str, ...] = tuple(part.name for part in game.parts)
    else:  # a way of making a hand by name: its portions are the showdown's scales, high first
        names = ("high", "low")[:len(game.showdown)] if game.showdown[:1] == ("high",) and all(
            "low" in scale for scale in game.showdown[1:]) else ()
    for i, word in enumerate(game.declare.words):
        if (word == BOTH and len(names) < 2) or (word != BOTH and word not in names):
            both = " and both" if len(names) > 1 else ""
            raise src.error(("declare", "words", i), f"a portion of the game's hand "
                            f"({', '.join(names) or 'none'}){both}; got {word!r}")
    for word, paths in game.declare.paths:
        _one_board(src, ("declare", "paths", word), game)
        _pieces_dealt(src, ("declare", "paths", word), game, paths)


def _choices(src: _Source, tables: object) -> tuple[tuple[str, tuple[Street, ...]], ...]:
    """Paradise Road Pick'em's games to choose from, each with the streets it plays."""
    choices = []
    for at, table in _array(src, "choice", tables, CHOICE_KEYS, CHOICE_KEYS):
        game = _need(src, (*at, "game"), table["game"], str, "a game id")
        choices.append((game, _streets(src, (*at, "street"), table["street"], ())))
    return tuple(choices)


def load(files: Iterable[Path], known: Mapping[str, Game], *, house: bool) -> dict[str, Game]:
    """The games of `files`, in the files' order, each checked: a game may extend one of `known`
    or of the same files (in any order); a house game may not take a known game's id."""
    sources: dict[str, _Source] = {}
    for file in files:
        src = read(file)
        game_id = src.data.get("id")
        if isinstance(game_id, str) and (game_id in known or game_id in sources):
            first = "a game of the package" if game_id in known else f"{sources[game_id].file}"
            raise src.error(("id",), f"a new game id: {game_id} is already {first}")
        sources[game_id if isinstance(game_id, str) else str(file)] = src
    built: dict[str, Game] = {}
    resolving: list[str] = []

    def build(game_id: str) -> Game:
        if game_id in built:
            return built[game_id]
        src = sources[game_id]
        if game_id in resolving:
            raise src.error(("extends",), f"a game that does not extend itself: {' -> '.join(resolving)}")
        resolving.append(game_id)
        parent = src.data.get("extends")
        if isinstance(parent, str) and parent in sources:
            build(parent)
        built[game_id] = _build(src, house, {**known, **built})
        resolving.pop()
        return built[game_id]

    games = {game_id: build(game_id) for game_id in sources}
    for game_id, game in games.items():
        for i, (choice, _) in enumerate(game.choices):
            if choice not in known and choice not in games:
                raise sources[game_id].error(("choice", i, "game"), f"a known game id; no game {choice!r}")
    return games


def files_in(folders: Iterable[Path]) -> list[Path]:
    """The definition files of the folders, each folder's in name order; a folder that is not
    one is an error."""
    files = []
    for folder in folders:
        if not Path(folder).is_dir():
            raise GameDefinitionError(Path(folder), 1, "(folder)", "a folder of game definitions (*.toml)")
        files.extend(sorted(Path(folder).glob("*.toml")))
    return files


def house_folders(db: Path | None = None, given: Sequence[str] = ()) -> list[Path]:
    """Where a command finds house games: the folders of BARGE_GAMES, `games/` beside the
    database file when it exists, then the folders given (`--games`)."""
    named = [Path(p) for p in os.environ.get(ENV_GAMES, "").split(os.pathsep) if p]
    beside = [db.parent / BESIDE_DB] if db is not None and (db.parent / BESIDE_DB).is_dir() else []
    return [*named, *beside, *(Path(p) for p in given)]


def shipped() -> dict[str, Game]:
    """The package's games, in the order of evaluator.variants (the rulebook's, then the rooms')."""
    games = load(files_in([SHIPPED]), {}, house=False)
    missing = [v for v in ALL_VARIANTS if v not in games]
    if missing:
        raise GameDefinitionError(SHIPPED / f"{missing[0]}.toml", 1, "(file)", "a definition of each variant")
    return {v: games[v] for v in ALL_VARIANTS}
