"""The catalog: every game of the BARGE Rulebook as data, in the rulebook's own shape.

Each `Game` says what the rulebook's Forced Money, Dealing Procedure and Evaluating the
Showdown paragraphs say: the deck, the forced bets (button and blinds, or antes and a
bring-in with its card order), the streets in order (cards dealt to each player and to each
board, the draws, discards, dice, exposures and board removals, the betting round and its
limit, who acts first), and the ways the pot is won. One replay engine (`evaluator.replay`)
follows any entry. The entries are read from definition files (`evaluator/games/*.toml`, and a
house's own: `add_games`), whose format is docs/games.md; a new variant is a new file. Where
each step is *written* in a hand history is in `docs/procedures.md`.

>>> GAMES["razz"].bring_in, GAMES["razz"].showing
('high_card', 'low_a5')
>>> [s.name for s in GAMES["deuce_to_seven_triple_draw"].streets]
['hole_cards', 'first_draw', 'second_draw', 'third_draw']
>>> GAMES["irish"].street("flop").discard
(2, 2)
>>> len(GAMES)
59
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from evaluator.cards import Deck
from evaluator.game_files import files_in, load, shipped
from evaluator.variants import ALL_VARIANTS, Variant

# Who acts first on a betting round.
LEFT_OF_BIG_BLIND = "left_of_big_blind"  # first round of blind games (after a straddle, left of it)
LEFT_OF_BUTTON = "left_of_button"  # later rounds of blind games, bomb pots
BRING_IN = "bring_in"  # first round of stud games: the bring-in, by the game's card order
SHOWING = "showing"  # later stud rounds: the best hand showing, by the game's `showing` scale

# When a step comes against its street's betting round, as the game's Dealing Procedure orders it.
BEFORE_BETTING = "before"  # e.g. the draws of the draw games (§2.17), Oklahoma's removal (§2.34)
AFTER_BETTING = "after"  # e.g. Dramaha's draw (§2.19), Binglaha's die (§2.10), Sohe's split (§2.46)
WITH_OWN_ACTION = "with_action"  # once the player has acted: Scrotum's discard (§2.43), Pick'em's door card

# When a street's extra down cards are dealt (`Extra.when`).
MOSTLY_BLACK = "mostly_black"  # most of the street's board cards are black: Wonky Donkey's flop (§2.55)


@dataclass(frozen=True, slots=True)
class Extra:
    """Down cards each live player is dealt on a street because of the cards its boards got (a
    street's `extra`, docs/games.md), after those board cards: `down` cards when `when` holds of
    them (MOSTLY_BLACK: Wonky Donkey's flop, §2.55), or `down` for each of them of rank `each`
    (Wild Kingdom #709: "If a common four is dealt face up, deal each player an extra down card").

    >>> Extra(2, when=MOSTLY_BLACK).cards(["Kc", "4s", "9h"]), Extra(1, each="4").cards(["4c", "4d", "9h"])
    (2, 2)
    """

    down: int
    when: str | None = None
    each: str | None = None

    def cards(self, board: Sequence[str]) -> int:
        """The extra down cards for `board`, the cards the street dealt to its boards."""
        if self.when == MOSTLY_BLACK:
            return self.down if 2 * sum(c[1:] in ("c", "s") for c in board) > len(board) else 0
        return self.down * sum(c[0] == self.each for c in board)

    def most(self, board: int) -> int:
        """The most extra down cards a street dealing `board` cards to its boards can give one player."""
        return self.down if self.when is not None else self.down * board


@dataclass(frozen=True, slots=True)
class Openers:
    """What a player must hold to make the first bet of a street's betting round (a street's
    `open`, docs/games.md): a high hand of category `at_least` (a name of
    `evaluator.scales.CATEGORIES`, "pair") or better, and of that category at least a `rank`'s
    (a pair of Jacks: Dizzy Liz #733, "you must have a pair of jacks or better to open"); made with
    the player's own cards and the common cards dealt so far. Checked by `evaluator.openers`."""

    at_least: str
    rank: str | None = None

NEIGHBOUR_RIGHT = "right"  # `Game.neighbour`: the player dealt in before, clockwise (the next lower seat)

# Where a street's discards go (`Street.discards_to`).
DISCARDS_ON_TOP = "top"  # shuffled and placed on top of the stub: the next cards dealt (#1056 rule 3)


# Who owes a required flip (`Street.flip_by`).
FLIP_LIVE = "live"  # every player still in the hand (Studaha, Pick'em's door card)
FLIP_PAID = "paid"  # those who put chips in on the street (Disclosure: "put money into the pot last round")

# What a street sells (`Street.sells`, docs/games.md "Paid options"): each player may buy it once on
# the street, for the street's `price`, paid with a `pays A` line before what it buys.
TWIST = "twist"  # one card discarded and replaced (Waco: "twist one card for max bet")
SELL_DOWN = "down"  # one more down card (Mutual of Omaha: "buy one down card for max bet")
SELL_UP = "up"  # one more up card (Retro Hold'em: "pay max bet to get an up card")
SELL_HOLE = "hole"  # another number of down cards played (Omaha 33: "pay max bet to use one or three cards")
BUY = "buy"  # the step a purchase is, as `timing` and `in_turn` name it


@dataclass(frozen=True, slots=True)
class Street:
    """One street of the dealing procedure.

    `down`/`up`: cards each live player receives; `boards`: (board, cards) dealt to the board;
    `bet`: the limit of its betting round ("small", "big") or None for no betting;
    `draw`: discards replaced from the stub, (fewest, most); `discard`: discards not replaced;
    `dice`: dice rolled by the player on the button after the betting (§1.13);
    `steps`: other player steps allowed ("split", "expose", "choose", "remove_board", "declare":
    each player still in declares once, the words of the game's `Declare`);
    `timing`: (step, when) for the steps the game's section places against the betting round
    ("draw" for a draw's discards and replacement cards, "discard", "roll", or a name in
    `steps`; when: BEFORE_BETTING, AFTER_BETTING, WITH_OWN_ACTION); a step not named may come
    anywhere on its street; `in_turn`: the steps each player takes in turn, from the first
    active player to the left of the button (the draws, §2.17);
    `flip`: down cards each player `flip_by` names must turn up on the street, of their choice
    (an `exposes` line, placed by `timing`'s `expose`; 0: no flip is required); `extra`: down
    cards each live player is dealt after the street's board cards, as those cards say;
    `open`: what the player who makes the round's first bet must hold (openers);
    `sells`: what each player may buy once on the street (TWIST, SELL_DOWN, SELL_UP; None: nothing)
    for `price`, the limit bet named ("big": the game's max bet), placed by `timing`'s `buy`;
    `counts`: the numbers of their own cards a SELL_HOLE purchase lets the buyer play, one of which
    they declare (`declares 3`), in place of the portions' `hole`;
    `discards_to`: DISCARDS_ON_TOP when the street's discards are shuffled and placed on top of
    the stub, so that the next cards dealt are they (None: they are out of the hand).
    """

    name: str
    down: int = 0
    up: int = 0
    boards: tuple[tuple[str, int], ...] = ()
    bet: str | None = "small"
    first: str = LEFT_OF_BUTTON
    draw: tuple[int, int] | None = None
    discard: tuple[int, int] | None = None
    dice: int = 0
    steps: frozenset[str] = frozenset()
    timing: tuple[tuple[str, str], ...] = ()
    in_turn: frozenset[str] = frozenset()
    flip: int = 0
    flip_by: str = FLIP_LIVE
    extra: Extra | None = None
    open: Openers | None = None
    sells: str | None = None
    price: str = "big"
    counts: tuple[int, ...] = ()
    discards_to: str | None = None

    def when(self, step: str) -> str | None:
        """Where `step` comes against the betting round, or None where the section does not say."""
        return dict(self.timing).get(step)


@dataclass(frozen=True, slots=True)
class WildRule:
    """Which cards are wild in a portion (a `[[portion]]`'s `wild`, docs/games.md): every card of
    `ranks`; the rank of the board's lowest or last card (`board`: "lowest", "last"); the rank of
    the last card dealt to any board of the table, whatever board or path the hand is made with
    (`table`: "last", Criss Cross #980's "last common card flipped"); the die's rank and/or the
    last board card's rank minus the die (`die`: "rank", "board_minus"); with `every_board`, those
    of each of the portion's boards in every hand, not only the board the hand is made with;
    `most`: how many of them one hand may use as wild (None: all). Resolved per hand by
    evaluator.wild_rules."""

    ranks: frozenset[str] = frozenset()
    board: str | None = None
    table: str | None = None
    die: frozenset[str] = frozenset()
    every_board: bool = False
    most: int | None = None


@dataclass(frozen=True, slots=True)
class SplitCard:
    """The card a split-card portion goes to (a `[[portion]]`'s `card`, docs/games.md): among the
    players' face-down cards of `suit` (a suit letter, or "last": the suit of the last card of the
    portion's board), the `rank` one ("lowest" or "highest", the ace high as in the hands'
    ranking); with `highest_from`, the highest when that last card is of that rank or higher and
    the lowest otherwise (Chicago Hold'em, home game #697)."""

    suit: str
    rank: str = "lowest"
    highest_from: str | None = None


@dataclass(frozen=True, slots=True)
class Part:
    """One portion of the pot of a game whose hand is "portions" (docs/games.md): its `name` in
    the award lines, the five-card `scale`, an ace-to-five `qualifier` (X or better), how many of
    the player's cards a hand uses (`hole`: fewest, most; None: any), the boards it may be made
    with (any one of them), whether up cards count as board cards (`up_as_board`), and `wild`; a
    portion whose scale is "split_card" goes to the holder of the `card` its rule names;
    `unused_by`: the name of an earlier portion whose best hand's own cards this one may not use
    (Omaha High/High's split hand); `hole_counts`: the counts of the player's cards a hand may use
    where they are not a range (Full Bicester #1024: two, or all five of the hand), in place of
    `hole`; `at_least`: the category a high hand must reach to qualify (a name of
    `evaluator.scales.CATEGORIES`: La Bumba #738's "at least a full house", Qualifier #984's "at
    least a straight")."""

    name: str
    scale: str
    qualifier: int | None = None
    hole: tuple[int, int] | None = None
    boards: tuple[str, ...] = ("1",)
    up_as_board: bool = False
    wild: WildRule | None = None
    card: SplitCard | None = None
    unused_by: str | None = None
    hole_counts: tuple[int, ...] | None = None  # counts not a range, any one of them: (2, 5)
    at_least: str | None = None  # a high hand's category floor: "straight"


BOTH = "both"  # the declaration for every portion of the pot (Declare.words)
IN, OUT = "in", "out"  # a guts game's declarations (Declare.words with `Game.guts`)


@dataclass(frozen=True, slots=True)
class Declare:
    """A game where the players still in declare which portion of the pot they play for, before
    the showdown (docs/games.md, a game's `[declare]` table and a street's `declare` step): the
    `words` a player may declare (portion names: "high", "low"; and BOTH, every portion; a guts
    game's IN and OUT, where a player out drops from the deal: `Game.guts`), and for
    a board chosen by the declaration (Triple Board Omaha #928 rule 11), the paths each word plays
    (`paths`: word -> paths, in the form of `Game.paths`; a word not there plays the game's own)."""

    words: tuple[str, ...]
    paths: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = ()

    def paths_of(self, word: str | None) -> tuple[tuple[str, ...], ...] | None:
        """The paths a declaration of `word` plays, or None where it plays the game's own."""
        return dict(self.paths).get(word) if word is not None else None

    @property
    def portions(self) -> bool:
        """Whether the words name portions of the pot (high, low, both), which the declared hands are
        settled by (evaluator.showdown.decide_declared); a guts game's in and out do not: a player
        out drops, and those in play for the pot as any showdown (evaluator.guts)."""
        return OUT not in self.words

    @staticmethod
    def covers(word: str | None, portion: str) -> bool:
        """Whether a declaration of `word` plays for the portion named `portion`."""
        return word in (BOTH, portion)


# What a guts game's loser pays to the next deal's pot (`Guts.burn`).
BURN_POT = "pot"  # "must match the pot" (Piranha): the pot the deal was played for
BURN_MAX_BET = "max_bet"  # "ten times max bet" (Omaha Burns): `times` the limit's big bet


@dataclass(frozen=True, slots=True)
class Guts:
    """A guts game's money across deals (a game file's `[guts]`, docs/games.md): the players who
    declared in and lost pay `burn` (the pot, or the max bet) `times` over, times the deal's pot
    number when `by_pots` (Progressive Omaha Burns), into the next deal's pot; a deal nobody went in
    carries its pot to the next. `legs`: the high hand gets a leg and the pot stays, the player who
    reaches this many legs wins it (Evolution; 0: the best hand wins the pot)."""

    burn: str
    times: int = 1
    by_pots: bool = False
    legs: int = 0


@dataclass(frozen=True, slots=True)
class Game:
    """A variant's rules. `showdown` names the scales the pot is split by (see evaluator docs),
    `hand` the way a hand is made at the showdown (a rule of `evaluator.showdown`; "chosen": the
    chosen game's), `structures` the betting formats the rulebook mentions for the game."""

    variant: Variant
    deck: Deck
    forced: str  # "blinds", "antes" (stud: antes and a bring-in), "antes_button" (Mexican), "button_blind"
    streets: tuple[Street, ...]
    showdown: tuple[str, ...]
    structures: tuple[str, ...] = ("limit",)
    bring_in: str | None = None
    showing: str | None = None
    # Equal hands showing: "a tie is broken by position, with the player who received cards first
    # acting first" (cardroom stud procedures): seat 1 first, or clockwise of the button where the
    # deal starts there (Mexican Poker).
    ties: str = "seat"
    rules: frozenset[str] = frozenset()
    choices: tuple[tuple[str, tuple[Street, ...]], ...] = field(default=())
    hand: str = ""
    parts: tuple[Part, ...] = ()  # the portions of a game whose `hand` is "portions"
    # The boards a hand may combine, each path one way (Cross Over's row or column, docs/games.md
    # `paths`): the `hand` is played with each path as its board, the best of them counting.
    paths: tuple[tuple[str, ...], ...] = ()
    declare: Declare | None = None  # the players declare before the showdown (docs/games.md `[declare]`)
    guts: Guts | None = None  # a guts game's burns, carried pots and legs (docs/games.md `[guts]`)
    # A board of table cards that kill (docs/games.md `kill`, GBU #991): each card dealt to it makes
    # every card of its rank dealt before it dead (the players' cards, the other boards' cards).
    kill: str | None = None
    # The written portion played without its qualifier when nobody qualifies for any portion (La
    # Bumba #738, whose text is silent there: the best high hand takes the pot, as Archie's §2.4).
    nobody_qualifies: str | None = None
    # Whose down cards a hand may also use (Tex Mex Hold'em #301: "the down cards of the player to
    # your right", NEIGHBOUR_RIGHT), while that player is still in the hand (docs/games.md `neighbour`).
    neighbour: str | None = None

    @property
    def id(self) -> str:
        return self.variant.id

    @property
    def rule(self) -> str:
        return self.variant.rule

    def street(self, name: str) -> Street:
        for street in self.streets:
            if street.name == name:
                return street
        raise KeyError(name)

    @property
    def hole_cards(self) -> int:
        return sum(s.down + s.up for s in self.streets)


# ---- the games: the package's definition files (evaluator/games/*.toml, docs/games.md) ----------

_SHIPPED = shipped()
GAMES: dict[str, Game] = {i: g for i, g in _SHIPPED.items() if g.variant.barge}
# Games of other rooms (evaluator.variants.ROOM_VARIANTS): each is the BARGE game it extends, changed
# where the room deals it differently. `GAMES` stays the 59 BARGE games; the replay looks in ALL_GAMES,
# which also takes the house games a command loads (`add_games`).
ROOM_GAMES: dict[str, Game] = {i: g for i, g in _SHIPPED.items() if not g.variant.barge}
ALL_GAMES: dict[str, Game] = dict(_SHIPPED)
HOUSE_GAMES: dict[str, Game] = {}
HOUSE_FOLDERS: list[str] = []  # loaded in this process; worker processes load them too (pipeline.parallel)
_HOUSE_FILES: set[Path] = set()


def add_games(folders: Sequence[Path]) -> dict[str, Game]:
    """Load the house games of `folders` (docs/games.md) into ALL_GAMES and ALL_VARIANTS, in place,
    so that every module that imported them sees the house's games too. A folder loaded before
    is not read again. Returns the games added; raises GameDefinitionError for a wrong file."""
    files = list({f.resolve(): f for f in files_in(folders) if f.resolve() not in _HOUSE_FILES}.values())
    games = load(files, ALL_GAMES, house=True)
    _HOUSE_FILES.update(f.resolve() for f in files)
    for folder in (str(Path(f).resolve()) for f in folders):
        if folder not in HOUSE_FOLDERS:
            HOUSE_FOLDERS.append(folder)
    for game_id, game in games.items():
        HOUSE_GAMES[game_id] = ALL_GAMES[game_id] = game
        ALL_VARIANTS[game_id] = game.variant
    return games


def missing_definition(game_id: str) -> str:
    """What to say of a hand of a game no definition was loaded for."""
    return (f"no game definition for `{game_id}`: add a games/{game_id}.toml beside the database, "
            "pass --games DIR or set BARGE_GAMES (docs/games.md; `barge variants` lists the games known)")


def hand_of(game_id: str, chosen: str | None = None) -> str:
    """The way a hand of `game_id` is made at the showdown (`Game.hand`): a game with choices
    (Paradise Road Pick'em, §2.38) plays as the chosen game."""
    game = ALL_GAMES.get(game_id)
    if game is None:
        raise ValueError(f"unknown game {game_id!r}")
    if not game.choices:
        return game.hand
    names = tuple(name for name, _ in game.choices)
    if chosen not in names:
        raise ValueError(f"{game.variant.name} needs the chosen game, one of {names}")
    return ALL_GAMES[chosen].hand


def parts_of(game_id: str, chosen: str | None = None) -> tuple[Part, ...]:
    """The portions of a game whose hand is "portions" (`Game.parts`), or of the game chosen."""
    game = ALL_GAMES[game_id]
    return ALL_GAMES[chosen].parts if game.choices and chosen is not None else game.parts


def showing_of(game_id: str | None) -> str | None:
    """The scale by which a game's later betting rounds start with the best hand showing (its stud
    games), None for the others: Paradise Road Pick'em plays by the chosen game's (§2.38)."""
    game = ALL_GAMES.get(game_id) if game_id is not None else None
    return None if game is None else game.showing


def catalog_entry(game: Game) -> dict[str, object]:
    """A game as plain data, in the rulebook's order: what `barge variants --json` prints."""
    return {
        "id": game.id, "name": game.variant.name, "section": game.variant.section, "rule": game.rule,
        "deck": game.deck.name, "deck_size": game.deck.size, "forced": game.forced,
        "bring_in": game.bring_in, "structures": list(game.structures),
        "streets": [
            {"name": s.name, "down": s.down, "up": s.up, "boards": dict(s.boards), "bet": s.bet,
             "first": s.first, "draw": s.draw, "discard": s.discard, "dice": s.dice,
             "steps": sorted(s.steps), "timing": dict(s.timing), "in_turn": sorted(s.in_turn),
             # a house game's paid option (docs/games.md); the package's games sell nothing
             **({"sells": s.sells, "price": s.price, **({"counts": list(s.counts)} if s.counts else {})}
                if s.sells else {}),
             **({"discards_to": s.discards_to} if s.discards_to else {})}
            for s in game.streets
        ],
        "choices": [name for name, _ in game.choices],
        "showdown": list(game.showdown),
        # a house game's written portions (docs/games.md); the package's games write none
        **({"portions": [_part_entry(part) for part in game.parts]} if game.parts else {}),
        **({"kill": game.kill} if game.kill is not None else {}),  # a house game's killing table cards
        # a house game's declarations (docs/games.md `[declare]`); the package's games have none
        **({"declare": {"words": list(game.declare.words),
                        "paths": {w: [list(p) for p in ps] for w, ps in game.declare.paths}}}
           if game.declare else {}),
        **({"guts": {"burn": game.guts.burn, "times": game.guts.times, "by_pots": game.guts.by_pots,
                     "legs": game.guts.legs}} if game.guts else {}),
        **({"nobody_qualifies": game.nobody_qualifies} if game.nobody_qualifies else {}),
        **({"neighbour": game.neighbour} if game.neighbour else {}),
    }


def _part_entry(part: Part) -> dict[str, object]:
    wild = part.wild
    return {"name": part.name, "scale": part.scale, "qualifier": part.qualifier,
            "hole": part.hole, "boards": list(part.boards), "up_as_board": part.up_as_board,
            **({"hole_counts": list(part.hole_counts)} if part.hole_counts is not None else {}),
            **({"at_least": part.at_least} if part.at_least is not None else {}),
            "wild": None if wild is None else {"ranks": sorted(wild.ranks), "board": wild.board,
                                               "die": sorted(wild.die), "every_board": wild.every_board,
                                               "table": wild.table, "most": wild.most},
            **({} if part.unused_by is None else {"unused_by": part.unused_by}),
            **({"at_least": part.at_least} if part.at_least is not None else {}),
            **({} if part.card is None else {"card": {"suit": part.card.suit, "rank": part.card.rank,
                                                      "highest_from": part.card.highest_from}})}
