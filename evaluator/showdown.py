"""The showdown of every BARGE game: the ways a hand is made, and who wins each portion of the pot.

`best_hands` gives one player's best hand for each portion of the pot (BARGE Rulebook 2025,
each game's "Evaluating the Showdown" paragraph); `showdown` compares the players and says
which portions exist in this hand and who wins each (§1.4: ties are split). The hand scales
themselves are those of :mod:`evaluator.scales`; this module only chooses which cards may be
combined (two hole cards and three board cards, one card per row, contiguous Chowaha paths, ...),
applies the qualifiers, and adds the few rules that are not a scale (Action Razz's face cards,
Quick Quads, Dramaha 49's points, Duck Flush, Archie's and Korean's qualifiers).

Portions come in the order of §1.4's odd chip: the first one is "the high hand" (the five-card
hand in Badacey, the draw hand in Dramaha, the Omaha hand in Sohe). Portion names are those of
the award lines in docs/format.md: ``high``, ``low``, ``badugi``, ``points``, ``draw``,
``omaha``, ``hold'em``.

Two or Five Omaha (§2.54): two hole cards and three from the board, or all five hole cards,
chosen separately for high and low.

>>> from evaluator.codes import parse
>>> hands = best_hands("two_or_five_omaha_hi_lo", parse("AhQhJhTh2h"), {"1": parse("3s5h7cKhQd")})
>>> [(p.name, p.description, p.cards) for p in hands]  # doctest: +NORMALIZE_WHITESPACE
[('high', 'flush, A-Q-J-T-2', ('Ah', 'Qh', 'Jh', 'Th', '2h')),
 ('low', '7-5-3-2-A, number 8 in ace-to-five', ('Ah', '2h', '3s', '5h', '7c'))]

Duck Flush (§2.21): a straight is no flush, so the best deuce-to-seven low wins.

>>> [(a.winners, a.description) for a in showdown("duck_flush", [parse("8h5d4c3s2d"),
...                                                               parse("8c6d5s4h3c"), parse("7h6c5h4s3d")])]
[((0,), '8-5-4-3-2, number 5 in deuce-to-seven')]

Omaha X or Better (§2.37): a roll of 2, 3 or 4 leaves no low portion, and the high hand scoops.

>>> [p.name for p in best_hands("omaha_x_or_better", parse("Ah2d9c9d"), {"1": parse("3c4h5sKdQc")}, [1, 2])]
['high']
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, product

import numpy as np

from evaluator.catalog import ALL_GAMES, BOTH, Declare, Part, hand_of, parts_of
from evaluator.codes import JOKER, RANKS, encode_hands
from evaluator.game_files import CHOSEN, HANDS, PORTIONS, SPLIT_CARD, STRAIGHT_FLUSH_RUN
from evaluator.runs import NO_RUN, describe_run, run_batch
from evaluator.scales import (
    badugi_batch,
    best5_batch,
    category,
    category_floor,
    describe,
    evaluate,
    low_floor,
)
from evaluator.wild import best5_wild_batch
from evaluator.wild_rules import wild_for

Cards = tuple[str, ...]

HIGH, LOW, BADUGI, POINTS, DRAW, OMAHA, HOLDEM = "high", "low", "badugi", "points", "draw", "omaha", "hold'em"

# Bonuses that put one class of hands above every rank of a scale (scale ranks are below 2**25).
_ABOVE = 1 << 25


@dataclass(frozen=True, slots=True)
class Portion:
    """A player's best hand for one portion of the pot.

    `rank`: higher is better, comparable between players for the same game and portion; None
    when the hand does not qualify (an eight-or-better low that is not, Archie's high below a pair
    of sixes, ...). `raw`: the rank before the qualifier (-1 when no hand can be made at all,
    e.g. Oklahoma with every board removed). `cards`: the five cards played (four for badugi).
    """

    name: str
    rank: int | None
    cards: Cards
    description: str
    raw: int = -1


@dataclass(frozen=True, slots=True)
class Holding:
    """A player's final cards at the showdown.

    `up`: the cards dealt face up (Mexican Poker: a joker dealt up is a bug, one dealt down a
    wild card even when exposed later); `split`: Sohe's (Hold'em two, Omaha four).
    """

    cards: Cards
    up: frozenset[str] = frozenset()
    split: tuple[Cards, Cards] | None = None


@dataclass(frozen=True, slots=True)
class Award:
    """One portion of the pot and who wins it: `winners` are indexes into the players given to
    `showdown`, more than one when they tie and split it (§1.4)."""

    portion: str
    winners: tuple[int, ...]
    rank: int
    description: str


@dataclass(frozen=True, slots=True)
class _Table:
    hole: Cards
    boards: Mapping[str, Cards]
    dice: tuple[int, ...]
    options: Mapping[str, str]
    up: frozenset[str]
    split: tuple[Cards, Cards] | None
    # Every card dealt to a board of the table, in the order dealt (a wild `table = "last"`): kept
    # whole when `paths` play each path as board "1".
    dealt: Cards = ()
    holes: int | None = None  # the number of the player's cards a purchase lets them play

    def board(self, name: str = "1") -> Cards:
        return self.boards.get(name, ())

    def die(self, count: int = 1) -> tuple[int, ...]:
        if len(self.dice) < count:
            raise ValueError(f"this game needs {count} die roll(s), got {list(self.dice)}")
        return self.dice[:count]


# ---- the ways of making a hand: lists of candidate five-card hands -----------------------------


def _any(cards: Cards) -> list[Cards]:
    """Any five of the cards (stud, draw and Hold'em games)."""
    return list(combinations(cards, 5))


def _at_most(hole: Cards, board: Cards, most: int) -> list[Cards]:
    """Any five of hole + board using at most `most` hole cards (Pineapple, Irish)."""
    held = set(hole)
    return [c for c in combinations(hole + board, 5) if sum(card in held for card in c) <= most]


def _omaha(hole: Cards, board: Cards) -> list[Cards]:
    """Exactly two hole cards and exactly three board cards."""
    return [h + b for h in combinations(hole, 2) for b in combinations(board, 3)]


def _chowaha_paths(t: _Table, columns: bool) -> list[Cards]:
    """The four contiguous five-card boards of Chowaha (§2.12, §2.25) and Bidirectional Chowaha
    (§2.8): the top flop with turn position 1, the middle flop with either turn card, the bottom
    flop with turn position 2, each with the river. With `columns` (Bidirectional Chowaha on a 4,
    5 or 6) the flops are the columns, left with turn 1 and right with turn 2."""
    rows = [t.board(name) for name in ("top", "middle", "bottom")]
    turn, river = t.board("turn"), t.board("river")
    if any(len(r) != 3 for r in rows) or len(turn) != 2 or len(river) != 1:
        raise ValueError("Chowaha needs three flops of three cards, two turn cards and a river")
    flops = [tuple(r[i] for r in rows) for i in range(3)] if columns else rows
    first, center, last = flops
    return [first + turn[:1] + river, center + turn[:1] + river, center + turn[1:] + river,
            last + turn[1:] + river]


def _rows(t: _Table) -> list[Cards]:
    """Oklahoma's and Murder's rows that are still in play, top to bottom."""
    return [t.board(name) for name in ("1", "2", "3") if t.board(name)]


def _murder(t: _Table) -> list[Cards]:
    """Two hole cards and one card from each row of the grid (§2.33)."""
    rows = _rows(t)
    if len(rows) != 3:
        raise ValueError("Murder needs the three rows of the grid")
    return [h + b for h in combinations(t.hole, 2) for b in product(*rows)]


def _path(t: _Table, path: Sequence[str]) -> Cards | None:
    """The cards of one of a game's `paths`: its boards (or single cards, "turn[2]") in order;
    None when a board of it is not in play (removed, or not dealt in this hand)."""
    cards: list[str] = []
    for piece in path:
        name, _, index = piece.rstrip("]").partition("[")
        board = t.boards.get(name)
        if board is None or (index and int(index) > len(board)):
            return None
        cards.extend(board[int(index) - 1:int(index)] if index else board)
    return tuple(cards)


def _along(rule: Callable[[_Table], list[Portion]], t: _Table,
           paths: Sequence[Sequence[str]]) -> list[Portion]:
    """A game with `paths` (docs/games.md): its rule played with each path in play as board "1",
    each portion's best hand from whichever path makes it (high and low may use different paths,
    as Chowaha's and Oklahoma's do)."""
    boards = [cards for cards in (_path(t, p) for p in paths) if cards is not None]
    tries = [rule(replace(t, boards={"1": cards})) for cards in boards] or [rule(replace(t, boards={}))]
    return [max(portions, key=lambda p: (p.rank is not None, p.raw if p.rank is None else p.rank))
            for portions in zip(*tries, strict=True)]


def _scrotum(t: _Table) -> list[Cards]:
    """All x kept cards and 5 - x board cards (§2.43)."""
    return [t.hole + b for b in combinations(t.board(), 5 - len(t.hole))]


# ---- best hands under a scale ------------------------------------------------------------------

Qualifier = Callable[[int], bool]


def _at_least(floor: int) -> Qualifier:
    return lambda rank: rank >= floor


def _best(name: str, scale: str, ways: Sequence[Cards], qualifies: Qualifier | None = None,
          joker_wild: bool = False) -> Portion:
    """The best of the candidate hands under a five-card scale of evaluator.scales."""
    if not ways:
        return Portion(name, None, (), "no hand")
    ranks = best5_batch(encode_hands(ways), scale, joker_wild)
    i = int(np.argmax(ranks))
    raw = int(ranks[i])
    text = describe(scale, raw)
    if qualifies is not None and not qualifies(raw):
        return Portion(name, None, ways[i], f"{text} (does not qualify)", raw)
    return Portion(name, raw, ways[i], text, raw)


def _badugi(cards: Cards, ace_high: bool = False) -> Portion:
    """The best four-card badugi of the cards (§2.7; ace high in Badeucy, §2.6)."""
    ways = list(combinations(cards, 4))
    if not ways:
        return Portion(BADUGI, None, (), "no hand")
    ranks = badugi_batch(encode_hands(ways), ace_high)
    i = int(np.argmax(ranks))
    raw = int(ranks[i])
    return Portion(BADUGI, raw, ways[i], describe("badeucy" if ace_high else "badugi", raw), raw)


def _high(ways: Sequence[Cards], scale: str = "high") -> list[Portion]:
    return [_best(HIGH, scale, ways)]


def _low(ways: Sequence[Cards], scale: str = "ace_to_five") -> list[Portion]:
    return [_best(LOW, scale, ways)]


def _hi_lo(ways: Sequence[Cards], qualifier: int | None = 8) -> list[Portion]:
    """High and ace-to-five low, the low `qualifier`-or-better (None: no qualifier)."""
    test = None if qualifier is None else _at_least(low_floor(qualifier))
    return [_best(HIGH, "high", ways), _best(LOW, "ace_to_five", ways, test)]


# ---- the rules that are not a scale ------------------------------------------------------------

_FACES = frozenset("JQK")


def _action_razz(cards: Cards) -> Portion:
    """§2.2: ace-to-five low, but a hand with a J, Q or K among all its cards ("Face") beats any
    hand without one ("Butt"); the face card need not be played."""
    low = _best(LOW, "ace_to_five", _any(cards))
    face = any(c[0] in _FACES for c in cards)
    rank = low.raw + (_ABOVE if face else 0)
    return Portion(LOW, rank, low.cards, f"{'Face' if face else 'Butt'} {low.description}", rank)


def _points(hole: Cards, faces: int) -> Portion:
    """§2.20: the point count of all five hole cards: ace 1, deuce to ten their value, faces 0
    (or 1 with the profile option dramaha49_faces=1)."""
    value = {"A": 1, "T": 10, **{r: faces for r in _FACES}, **{str(n): n for n in range(2, 10)}}
    total = sum(value[c[0]] for c in hole)
    return Portion(POINTS, total, hole, f"{total} points", total)


def _duck_flush(hole: Cards) -> Portion:
    """§2.21: a flush or better wins as a high hand; with none, the best deuce-to-seven low wins.
    One portion: every flush-or-better ranks above every low."""
    high = _best(HIGH, "high", [hole])
    if category("high", high.raw) in ("flush", "full house", "four of a kind", "straight flush"):
        return Portion(HIGH, high.raw + _ABOVE, hole, high.description, high.raw + _ABOVE)
    return _best(HIGH, "deuce_to_seven", [hole])


def _card_value(card: str) -> int:
    """A card's value for Quick Quads' sum: 2..10, the ace (and the joker, a bug playing as an
    ace) 1, a face card more than any trips can need."""
    if card == JOKER or card[0] == "A":
        return 1
    return {"T": 10, "J": 11, "Q": 12, "K": 13}.get(card[0]) or int(card[0])


def _quick_quads(hole: Cards) -> Portion:
    """§2.39: three of a kind of deuces to tens whose two other cards add up to the trips' value
    is four of a kind (88862 is four Eights). Read here: an ace (and the bug, which plays as an
    ace) counts one, so 333A2 is four Threes. The quick quad ranks as the natural four of a kind
    with the higher other card as kicker (two quads of one rank would need six cards of it)."""
    plain = _best(HIGH, "high", [hole])
    for trips in {c[0] for c in hole if c != JOKER}:
        same = [c for c in hole if c[0] == trips]
        others = [c for c in hole if c[0] != trips]
        value = _card_value(same[0])
        if len(same) != 3 or not 2 <= value <= 10 or sum(map(_card_value, others)) != value:
            continue
        kicker = max(("Ah" if c == JOKER else c for c in others), key=lambda c: RANKS.index(c[0]))
        rank = evaluate("high", [*(trips + suit for suit in "cdhs"), kicker])
        if rank > plain.raw:
            text = f"{describe('high', rank).split(' with ')[0]} (quick quads)"
            return Portion(HIGH, rank, hole, text, rank)
    return plain


def _archie(ways: Sequence[Cards], qualifier: str) -> list[Portion]:
    """§2.4: high needs a pair of sixes (or nines) or better, low eight-or-better."""
    pair = "6" if qualifier == "sixes" else "9"
    floor = evaluate("high", [pair + "c", pair + "d", "4h", "3s", "2c"])  # the worst such pair
    return [_best(HIGH, "high", ways, _at_least(floor)),
            _best(LOW, "ace_to_five", ways, _at_least(low_floor(8)))]


def _korean(ways: Sequence[Cards]) -> list[Portion]:
    """§2.27: high needs a pair or better, low no pair; straights and flushes qualify both ways."""
    return [_best(HIGH, "high", ways, lambda r: category("high", r) != "high card"),
            _best(LOW, "ace_to_five", ways, lambda r: category("ace_to_five", r) == "high card")]


# ---- the games ---------------------------------------------------------------------------------


def _stud(t: _Table) -> list[Cards]:
    """Stud and Mississippi: any five of the player's cards and the common card, if dealt."""
    return _any(t.hole + t.board("common"))


def _flop(t: _Table) -> list[Cards]:
    return _any(t.hole + t.board())


def _omaha1(t: _Table) -> list[Cards]:
    return _omaha(t.hole, t.board())


def _binglaha(t: _Table) -> list[Portion]:
    """§2.10: hi-lo eight-or-better on a die of 1-3, high only on 4-6."""
    return _hi_lo(_omaha1(t)) if t.die()[0] <= 3 else _high(_omaha1(t))


def _omaha_x(t: _Table) -> list[Portion]:
    """§2.37: X is the two dice's total, 12 a Queen and 11 a Jack; 2-4 makes no low."""
    x = sum(t.die(2))
    return _high(_omaha1(t)) if x <= 4 else _hi_lo(_omaha1(t), x)


def _wonky_donkey(t: _Table) -> list[Portion]:
    """§2.55: Hold'em on a mostly red flop, Omaha/8 (four hole cards) on a mostly black one."""
    black = sum(c[1] in "cs" for c in t.board()[:3]) >= 2
    return _hi_lo(_omaha1(t)) if black else _high(_flop(t))


def _sohe(t: _Table) -> list[Portion]:
    """§2.46: the Omaha four (exactly two of them) and the Hold'em two (any of them)."""
    if t.split is None:
        raise ValueError("Sohe needs the player's split: (Hold'em two, Omaha four)")
    two, four = t.split
    return [_best(OMAHA, "high", _omaha(four, t.board())), _best(HOLDEM, "high", _any(two + t.board()))]


def _chowaha(columns: bool | None) -> Callable[[_Table], list[Portion]]:
    def rule(t: _Table) -> list[Portion]:
        by_column = t.die()[0] >= 4 if columns is None else columns
        return _hi_lo([w for path in _chowaha_paths(t, by_column) for w in _omaha(t.hole, path)])
    return rule


def _mexican(t: _Table) -> list[Portion]:
    """§2.31: a joker dealt up is a bug, one dealt down a completely wild card."""
    wild = JOKER in t.hole and JOKER not in t.up
    return [_best(HIGH, "mexican", _stud(t), joker_wild=wild)]


def _short_deck_holdem(t: _Table) -> list[Portion]:
    trips = t.options.get("short_deck_trips", "below_straight") == "above_straight"
    return _high(_flop(t), "short_deck_trips" if trips else "short_deck")


# ---- games whose portions the definition writes (`hand = "portions"`, docs/games.md) ------------


def _counted(hole: Cards, board: Cards, counts: Sequence[int]) -> list[Cards]:
    """Five cards with one of `counts` of them from `hole` and the rest from `board` (Nebraska II
    #701: exactly three; Omaha, Nebraska #941: two or three; Full Bicester #1024: two or five)."""
    # A count over five (a portion with any number of hole cards, six held: Retro Hold'em's three
    # down and three up cards) makes no five-card hand.
    return [h + b for k in counts if k <= 5
            for h in combinations(hole, k) for b in combinations(board, 5 - k)]


def _ranked(t: _Table, part: Part, hole: Cards) -> Iterator[tuple[list[Cards], np.ndarray]]:
    """A written portion's candidate hands from `hole`, board by board (one board at a time), with
    their ranks under its scale and wild cards (resolved against each board)."""
    extra = tuple(c for c in t.hole if c in t.up) if part.up_as_board else ()
    if part.up_as_board:
        hole = tuple(c for c in hole if c not in t.up)
    fewest, most = part.hole if part.hole is not None else (0, min(5, len(hole)))  # stud: 7 of 9
    counts = part.hole_counts if part.hole_counts is not None else range(fewest, most + 1)
    if t.holes is not None:  # a purchase (a street's `sells = "hole"`, Omaha 33 #950) sets the count
        counts = (t.holes,)
    for name in part.boards:
        board = t.board(name)
        ways = _counted(hole, extra + board, counts)
        if not ways:
            continue
        codes = encode_hands(ways)
        if part.scale == STRAIGHT_FLUSH_RUN:  # La Bumba's split hand (evaluator.runs); never wild
            yield ways, run_batch(codes)
        elif part.wild is None:
            yield ways, best5_batch(codes, part.scale)
        else:
            wild_boards = [t.board(b) for b in part.boards] if part.wild.every_board else [board]
            yield ways, best5_wild_batch(codes, part.scale, wild_for(part.wild, wild_boards, t.dice, t.dealt))


def _best_ranked(t: _Table, part: Part, hole: Cards) -> tuple[Cards, int] | None:
    """The first of the best candidate hands `_ranked` gives, and its rank; None: no hand."""
    best: tuple[Cards, int] | None = None
    for ways, ranks in _ranked(t, part, hole):
        i = int(np.argmax(ranks))
        if best is None or int(ranks[i]) > best[1]:
            best = (ways[i], int(ranks[i]))
    return best


def _qualifies(part: Part, raw: int) -> bool:
    """Whether a written portion's best hand of rank `raw` qualifies: an ace-to-five low X-or-better
    (`qualifier`), a high hand of at least a category (`at_least`), a straight-flush run of three."""
    if part.scale == STRAIGHT_FLUSH_RUN:
        return raw != NO_RUN
    if part.at_least is not None and raw < category_floor(part.scale, part.at_least):
        return False
    return part.qualifier is None or raw >= low_floor(part.qualifier)


def _described(scale: str, raw: int) -> str:
    return describe_run(raw) if scale == STRAIGHT_FLUSH_RUN else describe(scale, raw)


def _portion(part: Part, best: tuple[Cards, int] | None) -> Portion:
    if best is None:
        return Portion(part.name, None, (), "no hand")
    cards, raw = best
    ok = _qualifies(part, raw)
    text = _described(part.scale, raw) + ("" if ok or raw == NO_RUN else " (does not qualify)")
    return Portion(part.name, raw if ok else None, cards, text, raw)


def _part(t: _Table, part: Part) -> Portion:
    """The best hand of one written portion: over the boards it may use, the hole-card count it
    allows, its wild cards and its qualifier."""
    return _portion(part, _best_ranked(t, part, t.hole))


def _unused(t: _Table, part: Part, first: Part) -> Portion:
    """A portion made with the player's own cards that the best hand of portion `first` does not
    use (Omaha High/High #952: "the best hand made using down cards not used for the high hand").
    Where several of the player's hands are equally best for `first`, the one that leaves the
    best hand for this portion is played."""
    ranked = [(way, int(rank)) for ways, ranks in _ranked(t, first, t.hole)
              for way, rank in zip(ways, ranks, strict=True)]
    top = max((raw for _, raw in ranked), default=-1)
    best: tuple[Cards, int] | None = None
    for used in dict.fromkeys(tuple(c for c in cards if c in t.hole) for cards, raw in ranked if raw == top):
        rest = _best_ranked(t, part, tuple(c for c in t.hole if c not in used))
        if rest is not None and (best is None or rest[1] > best[1]):
            best = rest
    return _portion(part, best)


def _split_card(t: _Table, part: Part) -> Portion:
    """A split-card portion (docs/games.md): the player's face-down card of the suit the rule
    names, ranked as the rule says among that suit (the ace high, as in the hands' ranking). A card
    is held by one player, so nobody ties; a player with no such card has no hand for it."""
    rule = part.card
    assert rule is not None  # the loader gives a split-card portion its card
    last = t.board(part.boards[0])[-1:]
    suit = rule.suit if rule.suit != "last" else (last[0][1] if last else "")
    highest = rule.rank == "highest"
    if rule.highest_from is not None:
        highest = bool(last) and RANKS.index(last[0][0]) >= RANKS.index(rule.highest_from)
    held = [c for c in t.hole if c not in t.up and c != JOKER and c[1] == suit]
    if not held:
        return Portion(part.name, None, (), f"no face-down {_SUIT_NAMES.get(suit, 'card')}")
    value = {c: RANKS.index(c[0]) if highest else len(RANKS) - RANKS.index(c[0]) for c in held}
    card = max(held, key=value.__getitem__)
    which = "high" if highest else "low"
    return Portion(part.name, value[card], (card,), f"{card}, {which} {_SUIT_NAMES[suit]}", value[card])


_SUIT_NAMES = {"s": "spade", "h": "heart", "d": "diamond", "c": "club"}


# Each way of making a hand, by the name a game's definition gives it (`Game.hand`, docs/games.md).
_RULES: dict[str, Callable[[_Table], list[Portion]]] = {
    # draw games: the five (Badugi: four) cards held
    "draw_a5_low": lambda t: _low(_any(t.hole)),
    "draw_27_low": lambda t: _low(_any(t.hole), "deuce_to_seven"),
    "draw_high": lambda t: _high(_any(t.hole)),
    "quick_quads": lambda t: [_quick_quads(t.hole)],
    "duck_flush": lambda t: [_duck_flush(t.hole)],
    "archie": lambda t: _archie(_any(t.hole), t.options.get("archie_qualifier", "sixes")),
    "korean": lambda t: _korean(_any(t.hole)),
    "badugi": lambda t: [_badugi(t.hole)],
    "badacey": lambda t: [*_low(_any(t.hole)), _badugi(t.hole)],
    "badeucy": lambda t: [*_low(_any(t.hole), "deuce_to_seven"), _badugi(t.hole, ace_high=True)],
    # stud games and Mississippi: any five of the player's cards (and the common card)
    "stud_high": lambda t: _high(_stud(t)),
    "stud_hi_lo8": lambda t: _hi_lo(_stud(t)),
    "stud_hi_lo": lambda t: _hi_lo(_stud(t), None),
    "stud_a5_low": lambda t: _low(_stud(t)),
    "stud_27_low": lambda t: _low(_stud(t), "deuce_to_seven"),
    "stud_a6_low": lambda t: _low(_stud(t), "ace_to_six"),
    "razzdugi": lambda t: [*_low(_stud(t)), _badugi(t.hole + t.board("common"))],
    "action_razz": lambda t: [_action_razz(t.hole + t.board("common"))],
    "action_razzdugi": lambda t: [_action_razz(t.hole + t.board("common")),
                                  _badugi(t.hole + t.board("common"))],
    "mexican": _mexican,
    # Hold'em family: any five of hole and board, or at most two hole cards
    "holdem": lambda t: _high(_flop(t)),
    "holdem_hi_lo8": lambda t: _hi_lo(_flop(t)),
    "short_deck_holdem": _short_deck_holdem,
    "at_most_two_hi_lo8": lambda t: _hi_lo(_at_most(t.hole, t.board(), 2)),
    "at_most_two": lambda t: _high(_at_most(t.hole, t.board(), 2)),
    "scrotum": lambda t: _hi_lo(_scrotum(t)),
    # Omaha family: exactly two hole cards and three board cards
    "omaha": lambda t: _high(_omaha1(t)),
    "short_deck_omaha": lambda t: _high(_omaha1(t), "short_deck"),
    "omaha_hi_lo8": lambda t: _hi_lo(_omaha1(t)),
    "two_or_five_omaha_hi_lo8": lambda t: _hi_lo(_omaha1(t) + ([t.hole] if len(t.hole) == 5 else [])),
    "binglaha": _binglaha,
    "omaha_x_or_better": _omaha_x,
    "wonky_donkey": _wonky_donkey,
    "oklahoma": lambda t: _hi_lo([w for row in _rows(t) for w in _omaha(t.hole, row)]),
    "murder": lambda t: _hi_lo(_murder(t)),
    "chowaha": _chowaha(False),
    "bidirectional_chowaha": _chowaha(None),
    "sohe": _sohe,
    # Dramaha family: the hole cards alone for one portion, Omaha for the other
    "dramaha": lambda t: [_best(DRAW, "high", [t.hole]), _best(OMAHA, "high", _omaha1(t))],
    "dramaha_49": lambda t: [_points(t.hole, int(t.options.get("dramaha49_faces", "0"))),
                             _best(OMAHA, "high", _omaha1(t))],
    "dramadugi": lambda t: [_best(OMAHA, "high", _omaha1(t)), _badugi(t.hole)],
    # other rooms' games (evaluator/games: six_plus_holdem, split_holdem)
    "short_deck_holdem_trips": lambda t: _high(_flop(t), "short_deck_trips"),
    "holdem_two_boards": lambda t: [_best(f"board {b}", "high", _any(t.hole + t.board(b)))
                                    for b in ("1", "2")],
}
# The catalog's files name these (a game's `hand`, docs/games.md), and only these.
assert set(_RULES) | {CHOSEN, PORTIONS} == set(HANDS), sorted(set(_RULES) ^ set(HANDS))


def _killed(t: _Table, kill: str) -> _Table:
    """The table without the cards the board `kill`'s cards killed (GBU #991: "Discard all cards
    with the same rank as the last revealed table card, except the last revealed table card"):
    each card of that board, when turned, kills every card of its rank in play then, the players'
    cards (all dealt before the table's cards are turned) and the other boards' cards dealt before
    it in the table's order; a common card turned later of a killed rank plays.

    >>> t = _killed(_Table(("7c", "Kd"), {"1": ("7h", "7s"), "table": ("7d",)}, (), {}, frozenset(), None,
    ...                    ("7h", "7d", "7s")), "table")
    >>> t.hole, t.boards["1"]
    (('Kd',), ('7s',))
    """
    table = t.boards.get(kill, ())
    dead: set[str] = set()
    for i, card in enumerate(t.dealt):
        if card in table:
            rank = card[0]
            dead.update(c for c in t.dealt[:i] if c[0] == rank and c not in table)
            dead.update(c for c in t.hole if c[0] == rank)
    if not dead:
        return t
    boards = {name: tuple(c for c in cards if c not in dead) if name != kill else cards
              for name, cards in t.boards.items()}
    return replace(t, hole=tuple(c for c in t.hole if c not in dead), boards=boards)


def best_hands(game: str, hole: Sequence[str], boards: Mapping[str, Sequence[str]] | None = None,
               dice: Sequence[int] = (), options: Mapping[str, str] | None = None, *,
               up: Collection[str] = (), split: tuple[Sequence[str], Sequence[str]] | None = None,
               chosen: str | None = None, dealt: Sequence[str] | None = None,
               declared: str | None = None, holes: int | None = None) -> tuple[Portion, ...]:
    """A player's best hand for each portion of the pot, in §1.4's odd-chip order.

    `hole`: the player's final cards (stud: all seven, Scrotum: the cards kept); `boards`: board
    name -> cards as in docs/procedures.md, removed boards left out (Mississippi and stud: the
    common card as board "common"); `dice`: the roll (Binglaha, Omaha X or Better, Bidirectional
    Chowaha); `options`: profile options (archie_qualifier, dramaha49_faces, short_deck_trips);
    `up`: cards dealt face up (Mexican Poker); `split`: Sohe's (Hold'em two, Omaha four);
    `chosen`: Paradise Road Pick'em's game; `dealt`: the boards' cards in the order they were
    dealt across the table (a wild `table = "last"`; default: board by board, as `boards` lists
    them); `declared`: what the player declared, in a game whose board is chosen by the
    declaration (`Declare.paths`: Triple Board Omaha #928 rule 11); `holes`: the number of their
    own cards the player bought to play (Omaha 33 #950), in place of the portions' `hole`.

    >>> from evaluator.codes import parse
    >>> [p.description for p in best_hands("dramaha_49", parse("TcTdThTs9c"), {"1": parse("2c3d4h5s6c")})]
    ['49 points', 'pair of Tens with 6-5-4']
    """
    hand = hand_of(game, chosen)
    table = _Table(
        tuple(hole), {name: tuple(cards) for name, cards in (boards or {}).items()}, tuple(dice),
        dict(options or {}), frozenset(up),
        None if split is None else (tuple(split[0]), tuple(split[1])),
        tuple(dealt) if dealt is not None else tuple(c for cards in (boards or {}).values() for c in cards),
        holes,
    )
    encode_hands([table.hole])  # every card must be a card: ValueError otherwise
    played = ALL_GAMES[chosen] if chosen is not None and ALL_GAMES[game].choices else ALL_GAMES[game]
    if played.kill is not None:
        table = _killed(table, played.kill)

    def written(t: _Table) -> list[Portion]:  # a game's own portions (docs/games.md `[[portion]]`)
        parts = parts_of(game, chosen)
        named = {part.name: part for part in parts}
        return [_split_card(t, part) if part.scale == SPLIT_CARD
                else _unused(t, part, named[part.unused_by]) if part.unused_by is not None
                else _part(t, part) for part in parts]

    rule = written if hand == PORTIONS else _RULES[hand]
    paths = (played.declare.paths_of(declared) if played.declare else None) or played.paths
    return tuple(_along(rule, table, paths) if paths else rule(table))


def showdown(game: str, players: Sequence[Holding | Sequence[str]],
             boards: Mapping[str, Sequence[str]] | None = None, dice: Sequence[int] = (),
             options: Mapping[str, str] | None = None, *, chosen: str | None = None,
             dealt: Sequence[str] | None = None) -> tuple[Award, ...]:
    """The portions of the pot that exist in this hand and who wins each, in §1.4's odd-chip order.

    A portion nobody qualifies for does not exist, so the others take the whole pot (a high hand
    scoops when no low qualifies; Korean's low scoops when nobody has a pair). Archie (§2.4): when
    nobody qualifies in either direction, the best high hand scoops anyway, as the portion a house
    game's `nobody_qualifies` names does (La Bumba #738, docs/games.md). No award at all: no
    hand could be made (Oklahoma's cash-game rule with every board removed).

    >>> from evaluator.codes import parse
    >>> board = {"1": parse("3s5h7cKhQd")}
    >>> players = [parse("AhKd2c9s"), parse("Ad2dKcKs")]
    >>> [(a.portion, a.winners) for a in showdown("omaha_hi_lo", players, board)]
    [('high', (1,)), ('low', (0, 1))]
    """
    holdings = [p if isinstance(p, Holding) else Holding(tuple(p)) for p in players]
    hands = [best_hands(game, h.cards, boards, dice, options, up=h.up, split=h.split, chosen=chosen,
                        dealt=dealt) for h in holdings]
    return decide(game, hands, chosen=chosen)


def decide(game: str, hands: Sequence[tuple[Portion, ...]], *,
           chosen: str | None = None) -> tuple[Award, ...]:
    """`showdown` for players whose best hands (`best_hands`) are already known: the portions
    that exist and who wins each, `winners` indexing `hands`."""
    names = [p.name for p in hands[0]] if hands else []
    awards = []
    for i, name in enumerate(names):
        ranks = [h[i].rank for h in hands]
        if all(r is None for r in ranks):
            continue
        best = max(r for r in ranks if r is not None)
        winners = tuple(j for j, r in enumerate(ranks) if r == best)
        awards.append(Award(name, winners, best, hands[winners[0]][i].description))
    if not awards and hand_of(game, chosen) == "archie" and hands:
        best = max(h[0].raw for h in hands)
        winners = tuple(j for j, h in enumerate(hands) if h[0].raw == best)
        awards.append(Award(HIGH, winners, best, describe("high", best)))
    fallback = ALL_GAMES[game].nobody_qualifies
    if not awards and fallback is not None and hands:
        # nobody qualifies for any portion (docs/games.md `nobody_qualifies`): the portion the game
        # names is played without its qualifier and takes the whole pot
        i = names.index(fallback)
        part = next(p for p in parts_of(game, chosen) if p.name == fallback)
        best = max(h[i].raw for h in hands)
        if best >= 0:  # -1: no hand could be made at all
            winners = tuple(j for j, h in enumerate(hands) if h[i].raw == best)
            awards.append(Award(fallback, winners, best, _described(part.scale, best)))
    return tuple(awards)


def decide_declared(game: str, hands: Sequence[tuple[Portion, ...]], words: Sequence[str | None],
                    plain: Callable[[], Sequence[tuple[Portion, ...]]], *,
                    chosen: str | None = None) -> tuple[Award, ...]:
    """`decide` in a game where the players declare (docs/games.md `[declare]`): `words[i]` is what
    the player of `hands[i]` declared (None: nothing), `hands` their hands as declared (on the
    declaration's boards), `plain` everyone's hands as if nobody had declared.

    "High declared high hand and lowest declared low hand split the pot. Hands declared as both
    must win both to win anything" (#744 rule 13, #928 rule 10). Where the text is silent
    (docs/games.md, "Declarations"): a tie wins its portion, shared (§1.4); a player who declared
    both and does not win or tie every portion is out of all of them, and the portions are
    decided among the other declarations; a portion nobody can take (nobody declared it, or no
    declared hand qualifies) does not exist, and the others take the pot; when no declared hand
    can take any portion, the cards speak among the declared hands as if nobody had declared. A
    player who did not declare cannot win, unless nobody declared at all.

    >>> from evaluator.codes import parse
    >>> def mine(*ranks: int | None) -> tuple[Portion, ...]:
    ...     return tuple(Portion(n, r, (), n) for n, r in zip(("high", "low"), ranks))
    >>> hands = [mine(9, 1), mine(5, 7), mine(7, 3)]
    >>> [(a.portion, a.winners) for a in decide_declared("z", hands, ["both", "low", "high"], list)]
    [('high', (2,)), ('low', (1,))]
    """
    names = [p.name for p in hands[0]] if hands else []
    declared = [i for i, word in enumerate(words) if word is not None]

    def contest(among: Sequence[int]) -> list[Award]:
        awards = []
        for k, name in enumerate(names):
            ranks = {i: hands[i][k].rank for i in among if Declare.covers(words[i], name)}
            best = max((r for r in ranks.values() if r is not None), default=None)
            if best is not None:
                winners = tuple(i for i, r in ranks.items() if r == best)
                awards.append(Award(name, winners, best, hands[winners[0]][k].description))
        return awards

    first = {a.portion: a.winners for a in contest(declared)}
    failed = {i for i in declared if words[i] == BOTH and any(i not in first.get(n, ()) for n in names)}
    awards = contest([i for i in declared if i not in failed])
    if awards:
        return tuple(awards)
    among = declared or list(range(len(hands)))  # the cards speak
    every = plain()
    spoken = decide(game, [every[i] for i in among], chosen=chosen)
    return tuple(replace(a, winners=tuple(among[w] for w in a.winners)) for a in spoken)
