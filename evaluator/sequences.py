"""A table's hands in order (issue 21): the checks that need the hand before. The button's move,
each player's stack carried from one hand to the next, the levels only rising, a seat held by two
players, a player at two tables of one event at once; and a cash player's missed blinds made up on
their return (evaluator/missed_blinds.py).

A replay sees one hand; these checks see the stored hands of a table (same site, event,
tournament and table name) in the order they were dealt, and put each finding on the later hand
of the two, citing its rule as the replay's findings do. Whether two hands follow each other is
read from the record, never guessed (docs/rules-engine.md, "Across hands"):

- a native id that names its table (`B25-E03-T07-0118`: table 7, hand 118) numbers that table's
  hands: hand 119 follows it, and hand 121 after it means hands are missing (`HANDS_MISSING`);
- a site's history (PokerStars and the sites in its shape) holds every hand of the table while
  its account sat there, but numbers hands across the whole site: consecutive stored hands are
  taken to follow each other unless chips passed between players in between, which only play
  does (`HANDS_MISSING` again);
- other hands (native ids that do not name the table, PHH) may be a selection: only the levels
  and the two tables, which do not need the hand before, are checked.

>>> from pipeline.model import Seat, Stakes
>>> def hand(hid: str, stack: int) -> TableHand:
...     h = Hand(hid, "texas_holdem", "no-limit", Stakes(100, 200), (Seat(1, "Ann", stack),),
...              event="E", tournament="1", table_name="7")
...     return TableHand(h, "barge", {"Ann": stack})
>>> [f.code.name for f in check([hand("B25-E1-T07-0001", 5000), hand("B25-E1-T07-0002", 4000)])]
['STACK_NOT_CARRIED']
>>> [f.code.name for f in check([hand("B25-E1-T07-0001", 5000), hand("B25-E1-T07-0003", 4000)])]
['HANDS_MISSING']
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from evaluator import missed_blinds
from evaluator.catalog import ALL_GAMES
from evaluator.findings import CODES, Finding, cite, procedure
from evaluator.guts import pot_number
from evaluator.profiles import resolve
from pipeline.amounts import format_amount as chips
from pipeline.model import Hand

TOURNAMENT_RULES = procedure("Poker Tournament Rules")
BLIND_RULES = procedure("Rules for Using Blinds")
NATIVE = "barge"
UNNUMBERED = frozenset({NATIVE, "phh"})  # formats whose hands are not a site's complete history
TOURNAMENT_TYPES = frozenset({"tournament", "sit_and_go"})
# A native id that names its table: the number after it counts that table's hands.
_TABLE_NUMBER = re.compile(r"-T([A-Za-z0-9]+)-(\d+)$")
# Notes that put chips on a stack between hands: a rebuy, an add-on, a lammer turned in (§1.9),
# and a cash-out that takes them off. PokerStars writes "Hero re-buys and receives 600 chips".
_RESTACK = re.compile(r"re-?buys?|add-on|addon|lammer|cash(?:es|ed)? out", re.I)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}

NEXT, SITE, UNKNOWN, GAP = "next", "site", "unknown", "gap"
# The only actions these checks read (rebuy notes, blinds posted, floor rulings, a guts game's pots
# carried, burns and legs): a store reading hands back for them reads no others.
ACTION_KINDS = frozenset({"note", "post", "ruling", "carry_in", "carry_out", "burn", "leg"})


@dataclass(frozen=True, slots=True)
class TableHand:
    """A stored hand as the checks across hands read it."""

    hand: Hand
    source_format: str  # the reader's format: "barge", "pokerstars", "phh", ...
    endings: Mapping[str, int]  # each player's stack after the hand (`seats.ending_stack`)

    @property
    def tournament(self) -> bool:
        return self.hand.game_type in TOURNAMENT_TYPES

    @property
    def table_number(self) -> int | None:
        """The hand's number at its table, where a native id numbers the table's hands."""
        match = _TABLE_NUMBER.search(self.hand.hand_id)
        table = (self.hand.table_name or "").strip()
        if self.source_format != NATIVE or match is None or not table:
            return None
        named = match.group(1).lstrip("0") or "0"
        return int(match.group(2)) if named.lower() == (table.lstrip("0") or "0").lower() else None


def table_key(t: TableHand) -> tuple[str, str, str, str] | None:
    """The table a hand was dealt at: site, event, tournament and table name (None: no table)."""
    h = t.hand
    if not h.table_name:
        return None
    return (h.site or "", h.event or "", h.tournament or "", h.table_name)


def _order(t: TableHand, timed: bool) -> tuple[datetime, int, str]:
    digits = re.search(r"(\d+)$", t.hand.hand_id)
    number = t.table_number if t.table_number is not None else int(digits.group(1)) if digits else 0
    return (t.hand.started_at if timed and t.hand.started_at else datetime.min, number, t.hand.hand_id)


def sequences(hands: Iterable[TableHand]) -> list[list[TableHand]]:
    """The hands of each table in the order they were dealt: by time, and by hand number where
    the times are equal or some are missing."""
    tables: dict[tuple[str, str, str, str], list[TableHand]] = defaultdict(list)
    for t in hands:
        key = table_key(t)
        if key is not None:
            tables[key].append(t)
    out = []
    for key in sorted(tables):
        group = tables[key]
        timed = all(t.hand.started_at is not None for t in group)
        out.append(sorted(group, key=lambda t: _order(t, timed)))
    return out


def _link(a: TableHand, b: TableHand) -> str:
    """How the record says `b` follows `a`: NEXT (numbered, nothing between), GAP (numbered, hands
    missing), SITE (a site's history, presumed next) or UNKNOWN."""
    na, nb = a.table_number, b.table_number
    if na is not None and nb is not None:
        return NEXT if nb == na + 1 else GAP if nb > na + 1 else UNKNOWN
    if a.source_format not in UNNUMBERED and b.source_format == a.source_format:
        return SITE
    return UNKNOWN


def _finding(t: TableHand, code: str, message: str, section: str | None = None) -> Finding:
    entry = CODES[code]
    game = ALL_GAMES.get(t.hand.variant)
    rule = cite(section) if section else entry.rule or (game.rule if game else t.hand.variant)
    return Finding(t.hand.hand_id, 0, entry, message, rule)


def _restacked(t: TableHand) -> set[str]:
    """Players whose chips a note of the hand says changed outside the play (a rebuy, ...)."""
    names = {s.player for s in t.hand.seats}
    out = set()
    for a in t.hand.actions:
        if a.kind == "note" and a.detail and _RESTACK.search(a.detail):
            # The note names its player first ("Player11 re-buys ..."): not "Player1".
            out |= {n for n in names if a.detail.startswith(n + " ") or a.player == n}
    return out


def _carried(a: TableHand, b: TableHand) -> dict[str, int]:
    """Each player at both hands whose stack changed between them (B's start less A's end),
    rebuys and add-ons recorded in either hand aside."""
    skip = _restacked(a) | _restacked(b)
    out = {}
    for seat in b.hand.seats:
        end = a.endings.get(seat.player)
        if end is not None and seat.player not in skip and seat.stack != end:
            out[seat.player] = seat.stack - end
    return out


def check(table: Sequence[TableHand]) -> list[Finding]:
    """The findings across the hands of one table, in the order `sequences` gives them."""
    findings: list[Finding] = []
    for a, b in pairwise(table):
        link = _link(a, b)
        findings += _levels(a, b)
        if link == GAP:
            assert a.table_number is not None and b.table_number is not None
            missing = b.table_number - a.table_number - 1
            findings.append(_finding(b, "HANDS_MISSING", (
                f"{missing} hand{'s' if missing > 1 else ''} of table {b.hand.table_name} between "
                f"{a.hand.hand_id} and this one {'are' if missing > 1 else 'is'} not stored: the button, "
                "the stacks and the seats are not checked across the gap")))
            continue
        if link == UNKNOWN:
            continue
        moved = _carried(a, b) if a.tournament and b.tournament else {}
        if link == SITE and any(d < 0 for d in moved.values()):
            # Between two hands of a tournament chips pass from one player to another only in play:
            # hands of this table are missing from the history (a partial file).
            passed = ", ".join(f"{p} {'+' if d > 0 else ''}{chips(d)}" for p, d in moved.items())
            findings.append(_finding(b, "HANDS_MISSING", (
                f"chips passed between players after {a.hand.hand_id} ({passed}): hands of this "
                "table between them are not in the history; the stacks and seats are not checked "
                "across the gap")))
            continue
        for player, change in moved.items():
            findings.append(_finding(b, "STACK_NOT_CARRIED", (
                f"{player} starts with {chips(a.endings[player] + change)} but ended {a.hand.hand_id} "
                f"with {chips(a.endings[player])} ({'+' if change > 0 else ''}{chips(change)}), and no "
                "rebuy or add-on is recorded"), TOURNAMENT_RULES))
        if a.tournament and b.tournament:
            findings += _seats(a, b)
        if link == NEXT:
            findings += _button(a, b)
    findings += guts_deals(table)
    return findings + missed_blinds.check(table, [_link(a, b) == NEXT for a, b in pairwise(table)])


# ---- a guts game's deals --------------------------------------------------------------------

def _states_pot(hand: Hand) -> bool:
    """Whether the deal's carried pot states its pot number (`(pot N)`, docs/format.md)."""
    return any(a.kind == "carry_in" and a.detail for a in hand.actions)


def guts_deals(table: Sequence[TableHand]) -> list[Finding]:
    """A guts game's consecutive deals (evaluator.guts): what a deal brings in is what the deal
    before carried out and its losers paid to the next pot, under the next pot number (deals of
    the same players: "redeal for all"; another table's players start a game of their own); a deal
    that left nothing is followed by a new game, which brings nothing in; and a leg is one more
    than the legs its player held in the game (Evolution), a game whose pot was won starting
    again from none."""
    findings: list[Finding] = []
    legs: dict[str, int] = {}
    for a, b in pairwise(table):
        game = ALL_GAMES.get(b.hand.variant)
        linked = _link(a, b) not in (GAP, UNKNOWN)
        same = {s.player for s in a.hand.seats} == {s.player for s in b.hand.seats}
        if game is None or game.guts is None or a.hand.variant != b.hand.variant or not linked or not same:
            legs = {}
            continue
        out = sum(x.amount or 0 for x in a.hand.actions if x.kind in ("carry_out", "burn"))
        brought = sum(x.amount or 0 for x in b.hand.actions if x.kind == "carry_in")
        legs.update({x.player: int(x.detail or "") for x in a.hand.actions
                     if x.kind == "leg" and x.player and (x.detail or "").isdigit()})
        if not out or a.hand.awards:
            legs = {}  # a new game: nothing left, or the pot won (a loser's burn starts the next game)
        if brought != out:
            left = f"carried out and paid {chips(out)} to the next pot" if out else "left nothing to carry"
            findings.append(_finding(b, "WRONG_CARRY", (
                f"brings in {chips(brought)} carried from the last deal, but {a.hand.hand_id} {left}: "
                f"in {game.variant.name} the next deal's pot is what the deal before carried and its "
                "losers paid")))
        elif out and _states_pot(b.hand) and pot_number(b.hand.actions) != pot_number(a.hand.actions) + 1:
            findings.append(_finding(b, "WRONG_CARRY", (
                f"is pot {pot_number(b.hand.actions)}, but {a.hand.hand_id} was pot "
                f"{pot_number(a.hand.actions)}: the redeal's pot is the next one")))
        for x in b.hand.actions:
            if x.kind == "leg" and x.player and (x.detail or "").isdigit() \
                    and int(x.detail or 0) != legs.get(x.player, 0) + 1:
                findings.append(_finding(b, "WRONG_LEG", (
                    f"{x.player} gets leg {x.detail} but held {legs.get(x.player, 0)} in this game "
                    f"after {a.hand.hand_id}: a leg is one more than those held")))
    return findings


# ---- levels ---------------------------------------------------------------------------------

def _level_number(level: str | None) -> int | None:
    """The level's number: "4 (100/200)" is 4, PokerStars' "V (10/20)" is 5."""
    if not level:
        return None
    word = level.split()[0].rstrip(",:")
    if word.isdigit():
        return int(word)
    if word and set(word) <= set(_ROMAN):
        values = [_ROMAN[c] for c in word]
        return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return None


# The amounts a level sets, each compared only with the same amount of the other hand: a stud
# hand's bring-in is no measure of another's small bet. A bomb pot's ante is the room's choice for
# that hand, not the level's, and a cap is the game's: neither is compared.
_LEVEL_AMOUNTS = (("small blind", "small_blind"), ("big blind", "big_blind"), ("small bet", "small_bet"),
                  ("big bet", "big_bet"), ("ante", "ante"), ("big blind ante", "big_blind_ante"),
                  ("bring-in", "bring_in"))


def _lowered(a: Hand, b: Hand) -> list[str]:
    """The level amounts both hands state that are lower in `b`, when none of them is higher
    ("the bring-in 15 after 25"); nothing where the two hands' amounts move both ways, which a
    level change does not do and which says the stakes were read differently."""
    pairs = [(name, x, y) for name, field in _LEVEL_AMOUNTS
             if (x := getattr(a.stakes, field)) is not None and (y := getattr(b.stakes, field)) is not None]
    if any(y > x for _, x, y in pairs):
        return []
    return [f"the {name} {chips(y)} after {chips(x)}" for name, x, y in pairs if y < x]


def _levels(a: TableHand, b: TableHand) -> list[Finding]:
    """A tournament's levels only rise ("Limits and blinds are raised at regularly scheduled
    intervals"): a later hand at a lower level, or where the hands name no level, with lower
    stakes in the same game (each amount against the same amount), is a finding. The order of two
    hands holds across a gap."""
    if not (a.tournament and b.tournament):
        return []
    la, lb = _level_number(a.hand.level), _level_number(b.hand.level)
    if la is not None and lb is not None:
        if lb < la:
            return [_finding(b, "LEVEL_DECREASED", f"level {b.hand.level} after level {a.hand.level} "
                             f"in {a.hand.hand_id}", TOURNAMENT_RULES)]
        return []
    same_game = (a.hand.variant, a.hand.structure) == (b.hand.variant, b.hand.structure)
    lowered = _lowered(a.hand, b.hand) if la is None and lb is None and same_game else []
    if lowered:
        return [_finding(b, "LEVEL_DECREASED", f"{', '.join(lowered)} in {a.hand.hand_id}", TOURNAMENT_RULES)]
    return []


# ---- seats ----------------------------------------------------------------------------------

def _seats(a: TableHand, b: TableHand) -> list[Finding]:
    """A tournament player keeps their seat ("A change of seat is not allowed after play starts,
    except as assigned by the director"): a player at both hands in another seat means the seat
    was held by two players. A floor ruling in the later hand is the director's assignment."""
    if any(x.kind == "ruling" for x in b.hand.actions):
        return []
    before = {s.player: s.number for s in a.hand.seats}
    holder = {s.number: s.player for s in b.hand.seats}
    findings = []
    for seat in b.hand.seats:
        old = before.get(seat.player)
        if old is not None and old != seat.number:
            now = holder.get(old)
            taken = f"; seat {old} is {now}'s now" if now else ""
            findings.append(_finding(b, "SEAT_TAKEN", (
                f"{seat.player} sat in seat {old} in {a.hand.hand_id} and is in seat {seat.number} "
                f"here{taken}, with no floor ruling recorded"), TOURNAMENT_RULES))
    return findings


# ---- the button -----------------------------------------------------------------------------

def _dealt(h: Hand) -> list[int]:
    return sorted(s.number for s in h.seats if not s.sitting_out)


def _after(seat: int, seats: Sequence[int]) -> int | None:
    """The first of `seats` clockwise after `seat` (itself not counted unless alone)."""
    ordered = sorted(seats)
    return next((s for s in ordered if s > seat), ordered[0] if ordered else None)


def _blind_seats(h: Hand) -> tuple[int | None, int | None]:
    """The seats that posted the small and the big blind (the first of each)."""
    found: dict[str, int | None] = {"small_blind": None, "big_blind": None}
    for a in h.actions:
        if a.kind == "post" and a.detail in found and found[a.detail] is None and a.player is not None:
            found[a.detail] = h.seat_of(a.player)
    return found["small_blind"], found["big_blind"]


def _between(start: int, end: int, max_seat: int) -> list[int]:
    """The seat numbers strictly between `start` and `end`, clockwise."""
    out: list[int] = []
    seat = start
    for _ in range(max_seat):
        seat = seat % max_seat + 1
        if seat == end:
            return out
        out.append(seat)
    return []


def _player_at(h: Hand, seat: int) -> str:
    return next(s.player for s in h.seats if s.number == seat)


def _has_button(t: TableHand) -> bool:
    game = ALL_GAMES.get(t.hand.variant)
    return t.hand.button_seat is not None and game is not None and game.forced == "blinds" \
        and not t.hand.stakes.bomb_pot


def _winner_seat(a: Hand) -> int | None:
    """§1.12: who wins the hand receives the button; of two or more who chop, the one in the
    worst position (the first clockwise from the button). The main pot's winners."""
    seats = [n for w in a.awards if w.pot == 0 and w.amount > 0 if (n := a.seat_of(w.player)) is not None]
    if not seats or a.button_seat is None:
        return None
    return _after(a.button_seat, seats)


def _button(a: TableHand, b: TableHand) -> list[Finding]:
    """Where the button goes after `a`; a finding on `b` when it is elsewhere."""
    if not (_has_button(a) and _has_button(b)):
        return []
    ha, hb = a.hand, b.hand
    assert ha.button_seat is not None and hb.button_seat is not None
    button = hb.button_seat
    profile = resolve(hb.rules_profile, hb.rules_options)
    if profile.get("win_the_button") == "yes":
        winner = _winner_seat(ha)
        if winner is None or winner not in {s.number for s in hb.seats} or winner == button:
            return []
        return [_finding(b, "WRONG_BUTTON", (
            f"the button is on seat {button}; {_player_at(ha, winner)} won {ha.hand_id} from seat "
            f"{winner} and receives the button (win the button)"), "1.12")]
    small, big = _blind_seats(ha)
    dealt_a, dealt_b = _dealt(ha), _dealt(hb)
    if big is None or len(dealt_a) < 2 or len(dealt_b) < 2:
        return []
    due_big = _after(big, dealt_b)  # every player posts the big blind in turn
    if len(dealt_b) == 2:
        # "In heads-up play with two blinds, the small blind is on the button."
        dead = {next(s for s in dealt_b if s != due_big)}
    elif len(dealt_a) == 2:
        return []  # from heads-up to three players: the procedures do not say where the button goes
    elif small is not None:
        dead = {small}  # the button goes to the last hand's small blind, even on an empty seat
    else:
        dead = set(_between(ha.button_seat, big, max(ha.max_seats or 0, hb.max_seats or 0,
                                                     *dealt_a, *dealt_b, button)))
        if not dead:
            return []
    _, big_b = _blind_seats(hb)
    if b.tournament:
        # "The dealer button remains in position until the appropriate blinds are taken. Players
        # must post all blinds every round": the dead button.
        wrong = []
        if button not in dead:
            wrong.append(f"the button is on seat {button}; after {ha.hand_id} it goes to seat "
                         f"{' or '.join(map(str, sorted(dead)))} (the dead button: the last hand's small "
                         "blind's seat)")
        if big_b is not None and due_big is not None and big_b != due_big:
            wrong.append(f"seat {big_b} posts the big blind; seat {due_big} is due it after seat {big} "
                         f"posted it in {ha.hand_id}")
        return [_finding(b, "WRONG_BUTTON", "; ".join(wrong), TOURNAMENT_RULES)] if wrong else []
    # A cash game's room designates the moving or the dead button; either is right.
    moving = {_after(ha.button_seat, dealt_b), _after(ha.button_seat, [s for s in dealt_a if s in dealt_b])}
    if button in dead | moving:
        return []
    allowed = " or ".join(map(str, sorted(s for s in dead | moving if s is not None)))
    return [_finding(b, "WRONG_BUTTON", (
        f"the button is on seat {button}; after {ha.hand_id} (button seat {ha.button_seat}) it moves to "
        f"seat {allowed} (the moving or the dead button)"), BLIND_RULES)]


# ---- two tables at once ---------------------------------------------------------------------

def two_tables(tables: Sequence[Sequence[TableHand]]) -> list[Finding]:
    """A tournament player in a hand at one table while they sat at another: between two hands of
    that table that the numbering says follow each other, both with the player (a finding on the
    other table's hand). Native records only: a site seats its players itself, and some sites' formats
    deal one player several tables of a tournament at once (Full Tilt's Matrix: "Match 1" to "Match 4")."""
    stays: dict[tuple[str, str, str], list[tuple[datetime, datetime, str, TableHand]]] = defaultdict(list)
    hands: dict[tuple[str, str, str], list[TableHand]] = defaultdict(list)
    for table in tables:
        for t in table:
            if t.tournament and t.hand.started_at is not None:
                hands[_event_key(t)].append(t)
        for a, b in pairwise(table):
            if a.tournament and _link(a, b) == NEXT and a.hand.started_at and b.hand.started_at:
                for player in {s.player for s in a.hand.seats} & {s.player for s in b.hand.seats}:
                    stays[_event_key(a)].append((a.hand.started_at, b.hand.started_at, player, a))
    findings = []
    for event, spans in stays.items():
        for start, end, player, a in spans:
            for t in hands[event]:
                at = t.hand.started_at
                assert at is not None
                if table_key(t) != table_key(a) and start < at < end and t.hand.seat_of(player) is not None:
                    findings.append(_finding(t, "PLAYER_AT_TWO_TABLES", (
                        f"{player} plays this hand at table {t.hand.table_name} while seated at table "
                        f"{a.hand.table_name} between {a.hand.hand_id} and the hand after it"),
                        TOURNAMENT_RULES))
    return findings


def _event_key(t: TableHand) -> tuple[str, str, str]:
    return (t.hand.site or "", t.hand.event or "", t.hand.tournament or "")


def check_all(hands: Iterable[TableHand]) -> list[Finding]:
    """Every finding across the hands given: each table's, then the two-tables check."""
    within, between = check_split(hands)
    return within + between


def check_split(hands: Iterable[TableHand]) -> tuple[list[Finding], list[Finding]]:
    """`check_all`'s findings in two lists: each table's, and the two-tables check's. Hands given
    in parts, each holding whole tables and whole tournaments, give `check_all`'s findings of all
    of them when the parts' first lists are joined, then their second lists."""
    tables = sequences(hands)
    return [f for table in tables for f in check(table)], two_tables(tables)
