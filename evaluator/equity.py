"""Showdown equity: each player's expected share of each pot over the cards still to come, and
the all-in adjusted result of a recorded hand.

`equities` takes a `Situation` (the game, each contender's cards, the boards so far, how many
cards each player and each board still gets, the cards known to be out of the stub) and the pots
(who is eligible for each), deals the run-outs (below) and averages each player's share of each
pot under the game's showdown: portions (high, low, badugi, ...), qualifiers, ties split, a
portion nobody qualifies for going to the others (:mod:`evaluator.showdown`).

The common games are evaluated in batches by the numba kernels of :mod:`evaluator.scales` (one
array row per player per run-out). The games with many boards or other ways of making a hand
(Murder, Oklahoma, the Chowahas, Sohe, Dramaha, Razzdugi, Action Razz, ...) are batched too: their
ways are traced once per hand from `evaluator.showdown`'s own rule for the game, called on
positions instead of cards, and every way of every run-out is looked up in one kernel call. The
few games left (Dramaha 49's points, Mexican Poker's jokers) go through `best_hands` one run-out
at a time.

How many run-outs: each hand has a `BUDGET` of work, counted in five-card hands looked up (with
the cost of a player's row, of a badugi way, of a `best_hands` call in the same unit), and a
run-out's cost is counted from the game, the players and the cards, never timed: the same hand
gets the same run-outs and the same shares on every machine. Every run-out is dealt when all of
them fit in the budget (`Equity.exact`); otherwise a sample of as many as fit, at most `SAMPLES`
and at least `MIN_SAMPLES`, dealt by a numba Fisher-Yates shuffle from a fixed seed.
`Equity.runouts` says how many (`allin_adjustments` stores both). A sampled share of N run-outs
has a standard error of at most 0.5/sqrt(N): 0.35 of a percentage point at 20,000 (Hold'em before
the flop), 0.6 at 7,500 (Omaha two-way), 1.2 at 1,666 (Big O three-way), 1.8 at 769 (Four Card
Chowaha three-way), 2.2 at 495 (Murder three-way before the flop; 4.1 at 148 ten-way), 2.7 at 331
(Action Razzdugi two-way on fifth street), and 5 at worst, at `MIN_SAMPLES`, which Razzdugi and
Action Razzdugi reach seven-way or more on third street (up to a fifth over the budget) and the
games through `best_hands` always do (their hands then cost more: about 30 ms a player).

`all_in_adjusted(hand)` finds the moment all the chips of a hand went in (its last betting
action); when two or more players still contest the pot with known cards and cards were dealt
after that moment, each contender's adjusted result is their equity of every pot times the pot,
minus what they put in (docs/stats.md says which games this applies to).

Hold'em on the turn, a made hand against a flush draw: the flush comes on 9 of the 44 rivers.

>>> from evaluator.codes import parse
>>> e = equity("texas_holdem", [parse("AcTd"), parse("5h4h")], parse("Ah9hKc8d"))
>>> round(e.shares[1] * 44, 6), e.runouts, e.exact
(9.0, 44, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from evaluator.awarding import Pot, side_pots
from evaluator.catalog import ALL_GAMES, GAMES, Street, hand_of
from evaluator.codes import decode_one, encode, encode_one
from evaluator.fast7 import (
    FLUSH_BITS,
    RANK_KEY_BITS,
    SUIT_BASE,
    Displacements,
    Keys,
    Table,
    five_kernel_args,
    has_fallback,
    slot_of,
)
from evaluator.scales import (
    SCALES,
    Ranks,
    badugi_batch,
    best5_batch,
    eval5,
    low_floor,
    njit,
    omaha_high_batch,
    omaha_low8_batch,
)
from evaluator.showdown import (
    _ABOVE as ABOVE,
)
from evaluator.showdown import (
    _any,
    _at_most,
    _chowaha_paths,
    _murder,
    _omaha,
    _rows,
    _Table,
    best_hands,
)
from pipeline.accounting import live_and_dead
from pipeline.model import UNKNOWN_CARD, Action, Hand

Cards = tuple[str, ...]
Codes = npt.NDArray[np.int8]

# The cost of a hand, in units of one five-card hand looked up in the tables of evaluator.fast7
# (6-7 ns on the 2-core machine of docs/performance.md), measured on that machine for each kind
# of work; the run-outs of a hand are chosen from these counts alone, never from a clock.
BUDGET = 1_200_000  # units a hand: about 10 ms
SAMPLES = 20_000  # the most run-outs a sample deals, however cheap the hand (standard error 0.35%)
MIN_SAMPLES = 100  # the fewest, however costly the hand (standard error at most 5%)
ROW_COST = 20  # a player's row of a run-out in one portion: its deal, its cards gathered, its share
BEST_FIVE_COST = 2  # a five-card hand of the best five of n cards (the nested loops of fast7)
RIO_BRAVO_COST = 60  # the eight seven-card hands of eight cards, each row copied by np.delete
BADUGI_COST = 50  # a four-card badugi way (the reference kernel tries its 16 subsets)
GENERAL_COST = 50_000  # a player's run-out through `best_hands`, one Python call (about 300 µs)
SEED = 20250706
NO_RANK = -1  # a hand that does not qualify for a portion (every real rank is >= 0)

BETTING_KINDS = frozenset({"post", "ante", "bring_in", "complete", "bet", "call", "raise", "check", "fold"})
# Steps a player or the dealer takes besides dealing: when one comes after the last bet, the
# run-out is not a plain deal of cards and the actual result stands.
STEP_KINDS = frozenset({"discard", "draw", "stand_pat", "split", "expose", "roll", "choose", "remove_board",
                        "declare"})


@dataclass(frozen=True, slots=True)
class Situation:
    """A hand at the moment the betting ended, as far as equity needs it.

    `holes`: each contender's cards (stud: down and up); `boards`: board name -> cards dealt;
    `to_come`: cards each contender still receives; `board_to_come`: board name -> cards still to
    be dealt there; `dead`: other cards known to be out of the stub (folded up cards, discards);
    `dice`, `options`, `chosen`, `splits`: as `evaluator.showdown.best_hands` takes them.
    """

    game: str
    holes: tuple[Cards, ...]
    boards: tuple[tuple[str, Cards], ...] = ()
    to_come: int = 0
    board_to_come: tuple[tuple[str, int], ...] = ()
    dead: Cards = ()
    dice: tuple[int, ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    chosen: str | None = None
    splits: tuple[tuple[Cards, Cards] | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Equity:
    """`pots[k][i]`: contender i's expected share (0..1) of pot k; `runouts`: how many run-outs
    were dealt; `exact`: all of them (else a random sample)."""

    pots: tuple[tuple[float, ...], ...]
    runouts: int
    exact: bool

    @property
    def shares(self) -> tuple[float, ...]:
        """The shares of the first pot (the only one when every player is eligible)."""
        return self.pots[0]


# ---- the fast path: batch rules of the common games ---------------------------------------------


@dataclass(frozen=True, slots=True)
class _Rule:
    """One portion evaluated in batch: "any" five of all the player's cards and the boards, or
    "omaha" (two hole cards and three of board "1"); `floor`: the rank a hand must reach
    (a qualifier), `qualifier`: the omaha low's eight (or X) or better."""

    kind: str
    scale: str
    floor: int | None = None
    qualifier: int | None = None


_HIGH = _Rule("any", "high")
_LOW8 = _Rule("any", "ace_to_five", floor=low_floor(8))
_OMAHA = _Rule("omaha", "high")
_OMAHA_LOW8 = _Rule("omaha", "ace_to_five", qualifier=8)
# Keyed by a game's `hand` (docs/games.md): the ways of making a hand that the batch kernels know.
_FAST: dict[str, tuple[_Rule, ...]] = {
    **dict.fromkeys(("holdem", "stud_high"), (_HIGH,)),
    **dict.fromkeys(("holdem_hi_lo8", "stud_hi_lo8"), (_HIGH, _LOW8)),
    "stud_hi_lo": (_HIGH, _Rule("any", "ace_to_five")),
    "stud_a5_low": (_Rule("any", "ace_to_five"),),
    "stud_27_low": (_Rule("any", "deuce_to_seven"),),
    "stud_a6_low": (_Rule("any", "ace_to_six"),),
    "omaha": (_OMAHA,),
    "short_deck_omaha": (_Rule("omaha", "short_deck"),),
    "omaha_hi_lo8": (_OMAHA, _OMAHA_LOW8),
}


def _fast_rules(hand: str, dice: Sequence[int], options: Mapping[str, str]) -> tuple[_Rule, ...] | None:
    """The batch rules of a way of making a hand (`Game.hand`), or None when it goes through
    `best_hands`."""
    if hand == "short_deck_holdem":
        trips = options.get("short_deck_trips", "below_straight") == "above_straight"
        return (_Rule("any", "short_deck_trips" if trips else "short_deck"),)
    if hand == "binglaha" and dice:
        return (_OMAHA, _OMAHA_LOW8) if dice[0] <= 3 else (_OMAHA,)
    if hand == "omaha_x_or_better" and len(dice) >= 2:
        x = dice[0] + dice[1]
        return (_OMAHA,) if x <= 4 else (_OMAHA, _Rule("omaha", "ace_to_five", qualifier=x))
    return _FAST.get(hand)


def _rule_ranks(rule: _Rule, holes: Codes, board: Codes) -> npt.NDArray[np.int64]:
    """Ranks of one portion for rows of (hole cards, board cards); NO_RANK where not qualified."""
    rows = np.concatenate([holes, board], axis=1)
    if rule.kind == "omaha":
        if rule.qualifier is not None:
            return omaha_low8_batch(rows, holes.shape[1], rule.qualifier)
        return omaha_high_batch(rows, holes.shape[1], rule.scale)
    if rule.scale == "high" and rows.shape[1] == 8:
        # Rio Bravo's eight cards: the best of its eight seven-card hands, one table lookup each
        # (evaluator.fast7), rather than its 56 five-card hands.
        sevens = [best5_batch(np.delete(rows, i, axis=1), "high") for i in range(8)]
        ranks: npt.NDArray[np.int64] = np.max(sevens, axis=0)
    else:
        ranks = best5_batch(rows, rule.scale)
    if rule.floor is not None:
        ranks = np.where(ranks >= rule.floor, ranks, NO_RANK)
    return ranks


# ---- the other games: their ways of making a hand traced from evaluator.showdown ---------------


@dataclass(frozen=True, slots=True)
class _Part:
    """A portion as `evaluator.showdown` makes it: the scale (a five-card scale, or "badugi" over
    four-card ways), the candidate hands, the floor the best of them must reach (a qualifier), and
    for Action Razz (§2.2) the cards of which a J, Q or K puts the hand above every hand without."""

    scale: str
    ways: Sequence[Cards]
    floor: int | None = None
    faces: Cards = ()


_FACE_RANKS = (9, 10, 11)  # J, Q, K: a card code's rank is code >> 2 (evaluator.codes)


def _hi_lo(ways: Sequence[Cards]) -> list[_Part]:
    """High, and ace-to-five low eight-or-better, over the same ways (`showdown._hi_lo`)."""
    return [_Part("high", ways), _Part("ace_to_five", ways, low_floor(8))]


def _chowaha_ways(t: _Table, columns: bool) -> list[Cards]:
    return [w for path in _chowaha_paths(t, columns) for w in _omaha(t.hole, path)]


def _stud_cards(t: _Table) -> Cards:
    return t.hole + t.board("common")


def _fours(cards: Cards) -> list[Cards]:
    """The four-card hands a badugi is the best of (`showdown._badugi`)."""
    return list(combinations(cards, 4))


def _known(cards: Cards) -> Cards:
    """Cards a rule reads the face of: they must be dealt already, not positions still to come."""
    if any(c.startswith(_TO_COME) for c in cards):
        raise ValueError("the portions of the pot depend on the run-out")
    return cards


def _wonky_donkey(t: _Table) -> list[_Part]:
    """§2.55: Omaha/8 on a mostly black flop, Hold'em on a mostly red one (`showdown._wonky_donkey`)."""
    if sum(c[1] in "cs" for c in _known(t.board()[:3])) >= 2:
        return _hi_lo(_omaha(t.hole, t.board()))
    return [_Part("high", _any(t.hole + t.board()))]


def _sohe(t: _Table) -> list[_Part]:
    """§2.46: the Omaha four (exactly two of them) and the Hold'em two (any of them)."""
    if t.split is None:
        raise ValueError("Sohe needs the player's split: (Hold'em two, Omaha four)")
    two, four = t.split
    return [_Part("high", _omaha(four, t.board())), _Part("high", _any(two + t.board()))]


def _action_low(t: _Table) -> _Part:
    return _Part("ace_to_five", _any(_stud_cards(t)), faces=_stud_cards(t))


# Ways of making a hand (`Game.hand`) that are a scale (or badugi) over ways of combining the
# cards: the ways of `evaluator.showdown`'s rule of that name, from the same functions.
_TRACED: dict[str, Callable[[_Table], list[_Part]]] = {
    "oklahoma": lambda t: _hi_lo([w for row in _rows(t) for w in _omaha(t.hole, row)]),
    "murder": lambda t: _hi_lo(_murder(t)),
    "chowaha": lambda t: _hi_lo(_chowaha_ways(t, False)),
    "bidirectional_chowaha": lambda t: _hi_lo(_chowaha_ways(t, t.die()[0] >= 4)),
    "at_most_two_hi_lo8": lambda t: _hi_lo(_at_most(t.hole, t.board(), 2)),
    "at_most_two": lambda t: [_Part("high", _at_most(t.hole, t.board(), 2))],
    # §2.54: two hole cards and three from the board, or all five hole cards
    "two_or_five_omaha_hi_lo8": lambda t: _hi_lo([*_omaha(t.hole, t.board()),
                                                  *([t.hole] if len(t.hole) == 5 else [])]),
    "dramaha": lambda t: [_Part("high", [t.hole]), _Part("high", _omaha(t.hole, t.board()))],
    "dramadugi": lambda t: [_Part("high", _omaha(t.hole, t.board())), _Part("badugi", _fours(t.hole))],
    "razzdugi": lambda t: [_Part("ace_to_five", _any(_stud_cards(t))),
                           _Part("badugi", _fours(_stud_cards(t)))],
    "action_razz": lambda t: [_action_low(t)],
    "action_razzdugi": lambda t: [_action_low(t), _Part("badugi", _fours(_stud_cards(t)))],
    "wonky_donkey": _wonky_donkey,
    "sohe": _sohe,
}
_TO_COME = "?"  # the name of a position still to be dealt: "?3" is the fourth card of the run-out


@dataclass(frozen=True, slots=True)
class _Traced:
    """A portion's ways as positions in a player's row of cards (their hole cards, those still
    to come, then each board's cards): `ways` (ways x 5, or x 4 for badugi), `faces` (positions)."""

    scale: str
    ways: npt.NDArray[np.intp]
    floor: int | None
    faces: npt.NDArray[np.intp]


def _traced(s: Situation, hand: str, player: int, board: Sequence[str]) -> tuple[_Traced, ...] | None:
    """The game's portions for one contender, traced by calling its rule on their row: the cards
    known by name, the cards to come by position; None for a game whose rule is not traced or
    reads a card still to come."""
    rule = _TRACED.get(hand)
    if rule is None:
        return None
    row = [*s.holes[player], *(f"{_TO_COME}{i}" for i in range(s.to_come)), *board]
    position = {card: i for i, card in enumerate(row)}
    n_hole = len(s.holes[player]) + s.to_come
    boards: dict[str, list[str]] = {}
    at = n_hole
    for name, n in _board_sizes(s):
        boards[name] = row[at:at + n]
        at += n
    split = s.splits[player] if player < len(s.splits) else None
    table = _Table(tuple(row[:n_hole]), {n: tuple(c) for n, c in boards.items()}, s.dice, dict(s.options),
                   frozenset(), split)
    try:
        parts = rule(table)
        return tuple(_Traced(part.scale, np.array([[position[c] for c in way] for way in part.ways], np.intp),
                             part.floor, np.array([position[c] for c in part.faces], np.intp))
                     for part in parts)
    except (ValueError, KeyError):  # a rule that reads a card to come, a split of cards not held
        return None


def _board_sizes(s: Situation) -> list[tuple[str, int]]:
    """Each board's name and size once dealt out, in the order of `Situation.boards`, then the new ones."""
    known = dict(s.boards)
    coming = dict(s.board_to_come)
    return [(name, len(known.get(name, ())) + coming.get(name, 0))
            for name in dict.fromkeys(name for name, _ in (*s.boards, *s.board_to_come))]


def _board_names(s: Situation) -> list[str]:
    """The boards' cards in `_board_sizes` order: the known ones by name, the cards to come by
    their position in the run-out."""
    known = dict(s.boards)
    coming = dict(s.board_to_come)
    names: list[str] = []
    pos = len(s.holes) * s.to_come
    for name, _ in _board_sizes(s):
        n = coming.get(name, 0)
        names += [*known.get(name, ()), *(f"{_TO_COME}b{pos + j}" for j in range(n))]
        pos += n
    return names


def _board_rows(s: Situation, runs: Codes) -> Codes:
    """The boards of every run-out as rows of codes, in the layout of `_board_names`."""
    known = dict(s.boards)
    coming = dict(s.board_to_come)
    parts = []
    pos = len(s.holes) * s.to_come
    for name, _ in _board_sizes(s):
        cards = known.get(name, ())
        n = coming.get(name, 0)
        parts += [np.broadcast_to(encode(cards), (runs.shape[0], len(cards))), runs[:, pos:pos + n]]
        pos += n
    return np.concatenate(parts, axis=1) if parts else np.zeros((runs.shape[0], 0), dtype=np.int8)


def _traced_parts(s: Situation, hand: str) -> list[tuple[_Traced, ...]] | None:
    """Each contender's traced portions; None when the game is not traced (or its portions differ
    between the players)."""
    names = _board_names(s)
    out: list[tuple[_Traced, ...]] = []
    for i in range(len(s.holes)):
        parts = _traced(s, hand, i, names)
        if parts is None or (out and len(out[0]) != len(parts)):
            return None
        out.append(parts)
    return out


@njit()
def _best_way_rows(rows: Codes, ways: npt.NDArray[np.intp], scale: int, card_keys: Keys, flush: Table,
                   multiplier: int, slot_mask: int, displacements: Displacements, values: Table) -> Ranks:
    """The best of the five-card `ways` (positions in a row) of each row: the ranks `best5_batch`
    gives each way's five cards, looked up in the same tables of evaluator.fast7 (a row with a
    joker by the reference kernel), without first copying every way of every row into an array
    of rows x ways x 5 cards (that copy cost as much as the lookups). Each position's key and rank
    bit are read once a row, since the ways share positions."""
    out = np.empty(rows.shape[0], dtype=np.int64)
    keys = np.empty(rows.shape[1], dtype=np.int64)
    bits = np.empty(rows.shape[1], dtype=np.int64)
    for r in range(rows.shape[0]):
        row = rows[r]
        best = -1
        if has_fallback(row):
            for w in range(ways.shape[0]):
                best = max(best, eval5(int(row[ways[w, 0]]), int(row[ways[w, 1]]), int(row[ways[w, 2]]),
                                       int(row[ways[w, 3]]), int(row[ways[w, 4]]), scale, False))
            out[r] = best
            continue
        for p in range(row.shape[0]):
            keys[p] = card_keys[row[p]]
            bits[p] = 1 << (row[p] >> 2)
        for w in range(ways.shape[0]):
            a, b, c, d, e = ways[w, 0], ways[w, 1], ways[w, 2], ways[w, 3], ways[w, 4]
            key = SUIT_BASE + keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
            if key & FLUSH_BITS:
                v = int(flush[bits[a] | bits[b] | bits[c] | bits[d] | bits[e]])
            else:
                v = int(values[slot_of(key & RANK_KEY_BITS, multiplier, slot_mask, displacements)])
            best = max(best, v)
        out[r] = best
    return out


def _traced_ranks(s: Situation, traced: Sequence[tuple[_Traced, ...]],
                  runs: Codes) -> list[npt.NDArray[np.int64]]:
    """Ranks (players x run-outs, one array per portion): the best way of every run-out, for
    each player and portion."""
    n_runs, k = runs.shape[0], s.to_come
    boards = _board_rows(s, runs)
    out: list[list[npt.NDArray[np.int64]]] = [[] for _ in traced[0]]
    for i, (hole, parts) in enumerate(zip(s.holes, traced, strict=True)):
        row = np.concatenate([np.broadcast_to(encode(hole), (n_runs, len(hole))), runs[:, i * k:(i + 1) * k],
                              boards], axis=1)
        for j, part in enumerate(parts):
            if part.scale == "badugi":
                ranks = badugi_batch(row[:, part.ways].reshape(-1, 4)).reshape(n_runs, -1).max(axis=1)
            else:
                scale = SCALES[part.scale]
                ranks = _best_way_rows(row, part.ways, scale, *five_kernel_args(scale))
            if part.floor is not None:
                ranks = np.where(ranks >= part.floor, ranks, NO_RANK)
            if len(part.faces):
                ranks = ranks + ABOVE * np.isin(row[:, part.faces] >> 2, _FACE_RANKS).any(axis=1)
            out[j].append(ranks)
    return [np.vstack(per_player) for per_player in out]


# ---- the cost of a run-out -------------------------------------------------------------------


def _fast_cost(s: Situation, rules: Sequence[_Rule]) -> int:
    """Units (see BUDGET) of one run-out of the batch rules: per player and portion, its row and
    the five-card hands the kernel looks up."""
    board = sum(n for _, n in _board_sizes(s))
    total = 0
    for rule in rules:
        for hole in s.holes:
            n_hole = len(hole) + s.to_come
            n = n_hole + board
            if rule.kind == "omaha":
                hands = comb(n_hole, 2) * comb(board, 3)
            elif rule.scale == "high":
                hands = RIO_BRAVO_COST if n == 8 else 1  # up to seven cards: one lookup (fast7)
            else:
                hands = BEST_FIVE_COST * comb(n, 5)
            total += ROW_COST + hands
    return total


def _traced_cost(traced: Sequence[tuple[_Traced, ...]]) -> int:
    """Units of one run-out of the traced ways: per player and portion, its row and its ways."""
    return sum(ROW_COST + len(part.ways) * (BADUGI_COST if part.scale == "badugi" else 1)
               for parts in traced for part in parts)


# ---- run-outs --------------------------------------------------------------------------------


def _groups(s: Situation) -> list[int]:
    """Sizes of the groups of cards to come: one per contender, then one per board."""
    return [s.to_come] * len(s.holes) + [n for _, n in s.board_to_come]


def _count(deck: int, sizes: Sequence[int]) -> int:
    """How many distinct run-outs deal `sizes` cards to distinct groups from `deck` cards."""
    total, left = 1, deck
    for size in sizes:
        total *= comb(left, size)
        left -= size
    return total


def _splits(sizes: Sequence[int], positions: tuple[int, ...] | None = None) -> Iterator[tuple[int, ...]]:
    """Every way to hand the positions 0..n-1 of n cards to groups of `sizes` cards (each group's
    positions in order), as the positions listed group after group.

    >>> list(_splits([1, 1]))
    [(0, 1), (1, 0)]
    """
    if positions is None:
        positions = tuple(range(sum(sizes)))
    if not sizes:
        yield ()
        return
    first, rest = sizes[0], sizes[1:]
    for chosen in combinations(positions, first):
        left = tuple(p for p in positions if p not in chosen)
        for tail in _splits(rest, left):
            yield chosen + tail


def _enumerate(deck: Sequence[int], sizes: Sequence[int]) -> Codes:
    """Every run-out as a row: each set of cards from the deck (C speed, through itertools), times
    every way to share it between the groups."""
    need = sum(sizes)
    if need == 0:
        return np.zeros((1, 0), dtype=np.int8)  # one run-out: nothing left to deal
    sets = np.fromiter((c for combo in combinations(deck, need) for c in combo), dtype=np.int8,
                       count=comb(len(deck), need) * need).reshape(-1, need)
    splits = np.array(list(_splits(sizes)), dtype=np.int64).reshape(-1, need)
    return sets[:, splits].reshape(-1, need)


def _runouts(s: Situation, deck: Sequence[int], cost: int, samples: int | None,
             seed: int) -> tuple[npt.NDArray[np.int8], bool]:
    """The run-outs as rows of card codes (groups in `_groups` order), and whether all of them:
    all when they fit in the budget at `cost` units each, else a sample of as many as fit (at
    least MIN_SAMPLES, at most SAMPLES) or of `samples` when given."""
    sizes = _groups(s)
    need = sum(sizes)
    if need > len(deck):
        raise ValueError(f"{need} cards to come but only {len(deck)} left in the stub")
    fit = BUDGET // max(cost, 1)
    if _count(len(deck), sizes) <= fit:
        return _enumerate(deck, sizes), True
    n = samples or min(SAMPLES, max(MIN_SAMPLES, fit))
    return _sample(np.asarray(deck, dtype=np.int8), need, n, seed), False


@njit()
def _sample(deck: Codes, need: int, samples: int, seed: int) -> Codes:
    """`samples` random run-outs of `need` cards of the deck, each dealt as from a shuffled deck
    (the first `need` cards of a Fisher-Yates shuffle), from numba's generator seeded with `seed`:
    the same rows every time."""
    np.random.seed(seed)
    cards = deck.copy()
    n = cards.shape[0]
    out = np.empty((samples, need), dtype=np.int8)
    for r in range(samples):
        for j in range(need):
            k = j + np.random.randint(n - j)
            cards[j], cards[k] = cards[k], cards[j]
            out[r, j] = cards[j]
    return out


def _stub(s: Situation) -> list[int]:
    """The codes of the cards that may still come: the game's deck minus every known card."""
    game = GAMES[s.game]
    seen = [c for hole in s.holes for c in hole] + [c for _, cards in s.boards for c in cards]
    if UNKNOWN_CARD in seen:
        raise ValueError("equity needs every contender's cards")
    if len(set(seen)) != len(seen):
        raise ValueError("a card is both in a hand and on a board, or twice in one")
    known = set(seen) | set(s.dead)
    missing = known - game.deck.cards
    if missing:
        raise ValueError(f"cards not in the {game.deck.name}: {sorted(missing)}")
    return sorted(encode_one(c) for c in game.deck.cards - known)


# ---- shares --------------------------------------------------------------------------------


def _pot_shares(ranks: Sequence[npt.NDArray[np.int64]], eligible: Sequence[int], players: int) -> list[float]:
    """Each player's average share of a pot: per run-out, the pot is split equally between the
    portions someone qualifies for, each portion equally between its best hands."""
    idx = np.asarray(eligible, dtype=np.int64)
    runs = ranks[0].shape[1]
    total = np.zeros((len(idx), runs))
    exists = np.zeros(runs)
    parts = []
    for portion in ranks:
        sub = portion[idx]
        best = sub.max(axis=0)
        qualified = best >= 0
        winners = (sub == best) & qualified
        parts.append((winners / np.maximum(winners.sum(axis=0), 1), qualified))
        exists += qualified
    for share, qualified in parts:
        total += share * (qualified / np.maximum(exists, 1))
    total[:, exists == 0] = 1.0 / len(idx)  # no hand at all (never in the games computed here)
    result = [0.0] * players
    for j, i in enumerate(idx):
        result[int(i)] = float(total[j].mean())
    return result


def _fast_ranks(s: Situation, rules: Sequence[_Rule], runs: Codes) -> list[npt.NDArray[np.int64]]:
    """Ranks (players x run-outs, one array per portion) from the batch kernels."""
    n_players = len(s.holes)
    k = s.to_come
    known = np.array([encode_one(c) for _, cards in s.boards for c in cards], dtype=np.int8)
    board = np.concatenate([np.broadcast_to(known, (runs.shape[0], len(known))), runs[:, n_players * k:]],
                           axis=1)
    out: list[npt.NDArray[np.int64]] = []
    for rule in rules:
        per_player = []
        for i, hole in enumerate(s.holes):
            fixed = np.broadcast_to(encode(hole), (runs.shape[0], len(hole)))
            holes = np.concatenate([fixed, runs[:, i * k:(i + 1) * k]], axis=1)
            per_player.append(_rule_ranks(rule, holes, board))
        out.append(np.vstack(per_player))
    return out


def _general_ranks(s: Situation, runs: npt.NDArray[np.int8]) -> list[npt.NDArray[np.int64]]:
    """Ranks from `best_hands`, one run-out at a time (every game's way of making a hand)."""
    n_players = len(s.holes)
    k = s.to_come
    options = dict(s.options)
    known = dict(s.boards)
    names: list[str] | None = None
    ranks: list[list[list[int]]] = []
    for row in runs:
        cards = [decode_one(int(c)) for c in row]
        boards = {name: list(known.get(name, ())) for name, _ in (*s.boards, *s.board_to_come)}
        pos = n_players * k
        for name, n in s.board_to_come:
            boards[name] += cards[pos:pos + n]
            pos += n
        per_player = []
        for i, hole in enumerate(s.holes):
            split = s.splits[i] if i < len(s.splits) else None
            portions = best_hands(s.game, [*hole, *cards[i * k:(i + 1) * k]], boards, s.dice, options,
                                  split=split, chosen=s.chosen)
            if names is None:
                names = [p.name for p in portions]
            if [p.name for p in portions] != names:
                raise ValueError("the portions of the pot depend on the run-out")
            per_player.append([NO_RANK if p.rank is None else p.rank for p in portions])
        ranks.append(per_player)
    arr = np.array(ranks, dtype=np.int64)  # runs x players x portions
    return [arr[:, :, j].T.copy() for j in range(arr.shape[2])]


def equities(s: Situation, pots: Sequence[Sequence[int]] | None = None, *, samples: int | None = None,
             seed: int = SEED, general: bool = False) -> Equity:
    """Each contender's expected share of each pot (`pots`: the eligible contenders' indexes;
    default one pot for all). The run-outs are those the batch evaluation's cost allows (see
    BUDGET); `general` evaluates them through `best_hands` even when a batch rule exists (the
    tests compare the two on the same run-outs)."""
    if len(s.holes) < 1:
        raise ValueError("equity needs at least one player")
    game = ALL_GAMES[s.game]
    hand = game.hand if not game.choices or s.chosen is None else hand_of(s.game, s.chosen)
    rules = None if s.splits else _fast_rules(hand, s.dice, dict(s.options))
    board_names = {name for name, _ in (*s.boards, *s.board_to_come)}
    if rules is not None and board_names - {"1"}:
        rules = None  # the batch rules know one board only
    traced = None if rules is not None else _traced_parts(s, hand)
    evaluate: Callable[[Codes], list[npt.NDArray[np.int64]]]
    if rules is not None:
        cost, evaluate = _fast_cost(s, rules), partial(_fast_ranks, s, rules)
    elif traced is not None:
        cost, evaluate = _traced_cost(traced), partial(_traced_ranks, s, traced)
    else:
        cost, evaluate = GENERAL_COST * len(s.holes), partial(_general_ranks, s)
    runs, exact = _runouts(s, _stub(s), cost, samples, seed)
    ranks = _general_ranks(s, runs) if general else evaluate(runs)
    groups = pots if pots is not None else [range(len(s.holes))]
    shares = tuple(tuple(_pot_shares(ranks, list(g), len(s.holes))) for g in groups)
    return Equity(shares, int(runs.shape[0]), exact)


# ---- the catalog's streets -------------------------------------------------------------------


def hand_streets(variant: str, chosen: str | None = None) -> tuple[Street, ...]:
    """The streets a hand of `variant` follows: Paradise Road Pick'em's first street, then those
    of the chosen game (§2.38).

    >>> [s.name for s in hand_streets("paradise_road_pickem", "razz")][:3]
    ['hole_cards', '4th_street', '5th_street']
    """
    game = ALL_GAMES[variant]
    if game.choices and chosen is not None:
        choices = dict(game.choices)
        if chosen in choices:
            return (game.streets[0], *choices[chosen][1:])
    return game.streets


def _street_index(streets: Sequence[Street], boards: Mapping[str, int], hole: int) -> int:
    """The street after whose deal the boards hold `boards` cards and a player `hole` cards."""
    dealt_boards: dict[str, int] = {}
    dealt = 0
    found = None
    for i, street in enumerate(streets):
        dealt += street.down + street.up
        for name, n in street.boards:
            dealt_boards[name] = dealt_boards.get(name, 0) + n
        if all(dealt_boards.get(name, 0) == n for name, n in boards.items()) and \
                all(boards.get(name, 0) == n for name, n in dealt_boards.items()):
            found = i
            if dealt >= hole:
                return i
    if found is None:
        raise ValueError(f"no street of the game has boards of {dict(boards)} cards")
    return found


def _to_come(streets: Sequence[Street]) -> tuple[int, dict[str, int]]:
    cards = sum(s.down + s.up for s in streets)
    boards: dict[str, int] = {}
    for street in streets:
        for name, n in street.boards:
            boards[name] = boards.get(name, 0) + n
    return cards, boards


def equity(game: str, holes: Sequence[Sequence[str]], board: Sequence[str] = (),
           dead: Sequence[str] = (), *, boards: Mapping[str, Sequence[str]] | None = None,
           dice: Sequence[int] = (), options: Mapping[str, str] | None = None,
           samples: int | None = None, seed: int = SEED, general: bool = False) -> Equity:
    """Equity of players all in now: the cards to come are the catalog's, from the street whose
    deal the boards (`board` is board "1") and the first player's cards show. `general`: as in
    `equities`.

    >>> from evaluator.codes import parse
    >>> e = equity("stud", [parse("AsAd9c7d4s2c"), parse("KhQh8h3h5c6d")])
    >>> round(e.shares[1] * 40, 6), e.runouts
    (9.0, 1560)
    """
    known = {name: tuple(cards) for name, cards in (boards or {}).items()}
    if board:
        known["1"] = tuple(board)
    streets = GAMES[game].streets
    i = _street_index(streets, {n: len(c) for n, c in known.items()}, len(holes[0]) if holes else 0)
    later = streets[i + 1:]
    if any(s.draw or s.discard or s.dice or s.steps for s in later):
        raise ValueError(f"{game}: the cards to come are not a plain deal (draws, discards, dice)")
    cards, to_board = _to_come(later)
    situation = Situation(game, tuple(tuple(h) for h in holes), tuple(known.items()), cards,
                          tuple(to_board.items()), tuple(dead), tuple(dice), tuple((options or {}).items()))
    return equities(situation, samples=samples, seed=seed, general=general)


# ---- all-in adjusted results -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Adjustment:
    """The all-in adjusted result of each contender of a hand, in chips (hundredths, as in the
    hand model, but fractional), and how it was computed."""

    nets: tuple[tuple[str, float], ...]
    street: str
    runouts: int
    exact: bool


def _final_cards(actions: Sequence[Action], player: str) -> Cards | None:
    """The player's cards as last shown (or mucked face up), else as dealt, discarded and drawn
    when the record names every one of them."""
    for a in reversed(actions):
        if a.player == player and a.kind in ("show", "muck") and a.cards:
            return tuple(a.cards)
    held: list[str] = []
    for a in actions:
        if a.player != player:
            continue
        if a.kind in ("deal", "draw"):
            held.extend(a.cards)
        elif a.kind == "discard":
            for card in a.cards:
                if card not in held:
                    return None
                held.remove(card)
    if held and UNKNOWN_CARD not in held:
        return tuple(held)
    return None


def _held_at(final: Cards, later: Sequence[str], count: int) -> Cards | None:
    """The cards held before `count` more were dealt: take the later deal's cards out when the
    record names them all, else the last `count` cards shown (a show lists cards as dealt),
    checked against every card the deals name."""
    if count == 0:
        return final
    if len(later) == count and UNKNOWN_CARD not in later and set(later) <= set(final):
        return tuple(c for c in final if c not in later)
    if len(final) < count:
        return None
    held, tail = final[:-count], final[-count:]
    named = [c for c in later if c != UNKNOWN_CARD]
    if not set(named) <= set(tail):
        return None
    return held


def _situation(hand: Hand, last: int, contenders: Sequence[str]) -> Situation | None:
    """The hand at its last betting action `last`, or None when the run-out is not a plain deal
    of cards or a contender's cards are not known."""
    actions = hand.actions
    chosen = next((a.detail for a in actions if a.kind == "choose" and a.detail), None)
    streets = hand_streets(hand.variant, chosen)
    names = [s.name for s in streets]
    street = actions[last].street
    if street not in names:
        return None
    k = names.index(street)
    later = streets[k + 1:]
    cards_to_come, board_to_come = _to_come(later)
    if not cards_to_come and not board_to_come:
        return None
    if any(s.draw or s.discard or s.dice or s.steps for s in later):
        return None
    if any(a.kind in STEP_KINDS for a in actions[last + 1:]):
        return None
    if any(s.extra for s in later):  # down cards that depend on the board to come (Wonky Donkey)
        return None
    before, after = actions[:last + 1], actions[last + 1:]
    holes = []
    splits: list[tuple[Cards, Cards] | None] = []
    for player in contenders:
        final = _final_cards(actions, player)
        if final is None:
            return None
        later_deals = [c for a in after if a.player == player and a.kind == "deal" for c in a.cards]
        held = _held_at(final, later_deals, cards_to_come)
        if held is None:
            return None
        holes.append(held)
        split = next((a.cards for a in before if a.player == player and a.kind == "split"), None)
        if split is not None:
            if UNKNOWN_CARD in split or len(split) != 6:
                return None
            splits.append((tuple(split[:2]), tuple(split[2:])))
        else:
            splits.append(None)
    if any(s is not None for s in splits) and any(s is None for s in splits):
        return None
    boards: dict[str, list[str]] = {}
    for a in before:
        if a.kind == "board" and a.detail:
            boards.setdefault(a.detail, []).extend(a.cards)
    expected = _to_come(streets[:k + 1])[1]
    if {n: len(c) for n, c in boards.items() if c} != {n: c for n, c in expected.items() if c}:
        return None  # a board the catalog does not deal (a stub run short, a second run)
    dead = [c for a in before if a.player is not None and a.player not in contenders and
            ((a.kind == "deal" and a.detail == "up") or a.kind == "fold") for c in a.cards]
    dead += [c for a in before if a.kind == "discard" for c in a.cards]
    dice = tuple(int(d) for a in before if a.kind == "roll" and a.detail for d in a.detail.split())
    return Situation(
        hand.variant, tuple(holes), tuple((n, tuple(c)) for n, c in boards.items()), cards_to_come,
        tuple(board_to_come.items()), tuple(c for c in dead if c != UNKNOWN_CARD), dice,
        hand.rules_options, chosen, tuple(splits) if any(splits) else (),
    )


@lru_cache(maxsize=4096)
def _equities_cached(s: Situation, pots: tuple[tuple[int, ...], ...], samples: int | None,
                     seed: int) -> Equity:
    """`equities` remembered by situation: the same all-in met again costs nothing."""
    return equities(s, pots, samples=samples, seed=seed)


def all_in_adjusted(hand: Hand, *, samples: int | None = None, seed: int = SEED) -> Adjustment | None:
    """Each contender's equity of every pot times the pot, minus what they put in, when the hand
    was all in before its last card: at its last betting action at least one contender was all
    in, two or more contended with known cards, and cards were still to be dealt. None otherwise
    (the actual result stands); also None when the run-out has steps (draws, discards, dice,
    board removal) or the record does not give every contender's cards.

    >>> from grammar.barge_parser import parse_hand
    >>> text = '''BARGE Hand #EQ-1: texas_holdem no-limit (blinds 5/10)
    ... Seat 1: Ann (1,000 in chips)
    ... Seat 2: Bo (1,000 in chips)
    ... Ann: posts small blind 5
    ... Bo: posts big blind 10
    ... *** HOLE CARDS ***
    ... Ann: raises 20 to 30
    ... Bo: calls 20
    ... *** FLOP *** [Ah 9h Kc]
    ... Bo: checks
    ... Ann: checks
    ... *** TURN *** [8d]
    ... Bo: bets 970 and is all-in
    ... Ann: calls 970 and is all-in
    ... *** RIVER *** [3h]
    ... *** SHOWDOWN ***
    ... Bo: shows [5h 4h] (a flush, Ace high)
    ... Ann: shows [Ac Td] (a pair of Aces)
    ... Bo collected 2,000 from pot
    ... *** SUMMARY ***
    ... Total pot 2,000 | Rake 0'''
    >>> adj = all_in_adjusted(parse_hand(text))
    >>> [(p, round(n / 100, 2)) for p, n in adj.nets], adj.street, adj.runouts
    ([('Ann', 590.91), ('Bo', -590.91)], 'turn', 44)
    """
    actions = hand.actions
    all_in = {a.player for a in actions if a.all_in}
    if not all_in or hand.variant not in GAMES:
        return None  # most hands: asked first, they are turned away in 2 µs instead of 8
    if ALL_GAMES[hand.variant].guts is not None:
        # A guts game (evaluator.guts): declarations after the all-in, a pot that may be carried or
        # won on a leg, and burns to the next deal make no equity times the pot a true result.
        return None
    dealt_in = [s.player for s in sorted(hand.seats, key=lambda s: s.number) if not s.sitting_out]
    folded = {a.player for a in actions if a.kind == "fold"}
    contenders = [p for p in dealt_in if p not in folded]
    if len(contenders) < 2 or all_in.isdisjoint(contenders):
        return None
    betting = [i for i, a in enumerate(actions) if a.player is not None and a.kind in BETTING_KINDS]
    if not betting:
        return None
    situation = _situation(hand, betting[-1], contenders)
    if situation is None:
        return None
    live, dead = live_and_dead(hand)
    pots: list[Pot] = side_pots(live, sum(dead.values()), contenders)
    rake = hand.rake or 0
    amounts = [p.amount for p in pots]
    for j in range(len(amounts)):  # the rake comes out of the main pot first
        taken = min(rake, amounts[j])
        amounts[j] -= taken
        rake -= taken
    index = {p: i for i, p in enumerate(contenders)}
    try:
        result = _equities_cached(situation, tuple(tuple(index[p] for p in pot.eligible) for pot in pots),
                                  samples, seed)
    except ValueError:
        return None
    nets = []
    for player in contenders:
        i = index[player]
        won = sum(amount * shares[i] for amount, shares in zip(amounts, result.pots, strict=True))
        nets.append((player, won - live.get(player, 0) - dead.get(player, 0)))
    return Adjustment(tuple(nets), actions[betting[-1]].street, result.runouts, result.exact)
