"""Missed blinds made up on return (issue 21): a cash-game player who sat out while the blinds
passed their seat, dealt in again, must post the blinds missed or come back in the big blind.

The card rooms' "Rules for Using Blinds": "A player who misses any or all blinds can resume play by
either posting all the blinds missed or waiting for the big blind." `check` follows the hands of a
cash table that a native id's numbers say follow each other (evaluator/sequences.py) and puts
`MISSED_BLIND_NOT_POSTED` on the hand where such a player is dealt in without either. What the
record leaves open is not judged (docs/rules-engine.md, "Across hands"):

- a site's history is not: not every site writes its players sitting out, a site's consecutive
  hands are only presumed to follow each other, and its own missed-blind procedure is not written
  anywhere we have;

- a blind is missed only when the hands show it pass the seat: the big blind posted in turn past
  a seat whose player sits out, or the small blind likewise where both hands have one (a dead
  small blind says nobody's seat it passed);
- a player not dealt in at an earlier hand of the run may be a new player, who enters posting "an
  amount equal to the big blind" or waits for it: they owe the big blind once it passed them,
  the small blind only once they were dealt in at the table before;
- what is owed is one big blind and one small blind however many times they passed (the
  procedure's "all the blinds missed" does not count a second round), and a post of at least
  that (live or dead: how much of it is live is the replay's business) settles it;
- a gap in the hands, a hand without blinds, or the player leaving the table forgets what is owed,
  and so does a hand whose big blind is not recorded for the players dealt in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from evaluator.catalog import ALL_GAMES
from evaluator.findings import CODES, Finding, procedure
from pipeline.amounts import format_amount as chips
from pipeline.model import Hand

if TYPE_CHECKING:
    from evaluator.sequences import TableHand

BLIND_RULES = procedure("Rules for Using Blinds")
CASH_TYPES = frozenset({"cash", "home_game"})  # the games the procedure is written for


@dataclass(frozen=True, slots=True)
class Owed:
    """The blinds a player missed: the big and the small blind's amounts (0: not missed), and the
    hands where they passed."""

    big: int = 0
    small: int = 0
    hands: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return self.big + self.small

    def words(self) -> str:
        parts = [f"the big blind ({chips(self.big)})" if self.big else "",
                 f"the small blind ({chips(self.small)})" if self.small else ""]
        return " and ".join(p for p in parts if p) + f" sitting out ({', '.join(self.hands)})"


def _posters(h: Hand, detail: str) -> list[int]:
    seats = (h.seat_of(a.player) for a in h.actions if a.kind == "post" and a.detail == detail and a.player)
    return [s for s in seats if s is not None]


def _in_turn(posters: Sequence[int], before: int | None) -> int | None:
    """The seat that posted a blind in turn: the first poster clockwise after the seat that posted it
    the hand before (a returning player's own big blind is further on, or is the one due)."""
    if not posters or before is None:
        return None
    return min(posters, key=lambda s: (s <= before, s))


def _passed(start: int, end: int, seats: Sequence[int]) -> list[int]:
    """The seats strictly between `start` and `end` clockwise, of `seats`."""
    if start < end:
        return [s for s in seats if start < s < end]
    return [s for s in seats if s > start or s < end]


def _blinds(a: Hand, b: Hand) -> tuple[int | None, int | None, int | None, int | None]:
    """The seats that posted the small and the big blind in turn, in `a` then in `b`."""
    small_a, big_a = _posters(a, "small_blind")[:1], _posters(a, "big_blind")[:1]
    big_b = _in_turn(_posters(b, "big_blind"), big_a[0] if big_a else None)
    small_b = _in_turn(_posters(b, "small_blind"), small_a[0] if small_a else None)
    return (small_a[0] if small_a else None, big_a[0] if big_a else None, small_b, big_b)


def _missed(a: Hand, b: Hand, owed: dict[str, Owed], active: set[str]) -> None:
    """Add to `owed` the blinds that passed the seats of `b`'s players sitting out."""
    small_a, big_a, small_b, big_b = _blinds(a, b)
    seats = [s.number for s in b.seats]
    out = {s.number: s.player for s in b.seats if s.sitting_out}
    big = _passed(big_a, big_b, seats) if big_a is not None and big_b is not None else []
    small = _passed(small_a, small_b, seats) if small_a is not None and small_b is not None else []
    small = [s for s in small if out.get(s) in active]  # a new player owes the big blind alone
    for seat, player in out.items():
        if seat in big or seat in small:
            was = owed.get(player, Owed())
            owed[player] = Owed(max(was.big, b.stakes.big_blind or 0) if seat in big else was.big,
                                max(was.small, b.stakes.small_blind or 0) if seat in small else was.small,
                                (*was.hands, b.hand_id))


def _returns(a: Hand, b: Hand, owed: dict[str, Owed]) -> list[Finding]:
    """A finding for each player dealt in `b` who owes blinds and neither posts them nor has the
    big blind in turn; what is posted settles the debt, what is not stays owed ("the player is
    required to post on the next deal")."""
    _, _, _, big_b = _blinds(a, b)
    if big_b is None:  # who had the big blind is not recorded: waiting for it cannot be told from not
        for seat in b.seats:
            if not seat.sitting_out:
                owed.pop(seat.player, None)
        return []
    findings = []
    for seat in b.seats:
        debt = owed.get(seat.player)
        if seat.sitting_out or debt is None:
            continue
        posted = sum(x.amount or 0 for x in b.actions if x.kind == "post" and x.player == seat.player)
        if seat.number == big_b or posted >= debt.total or posted >= seat.stack:
            del owed[seat.player]  # waited for the big blind, posted what was missed, or all-in for it
            continue
        findings.append(Finding(b.hand_id, 0, CODES["MISSED_BLIND_NOT_POSTED"], (
            f"{seat.player} missed {debt.words()} and is dealt in here posting {chips(posted)}, not "
            f"the {chips(debt.total)} missed, and not in the big blind (seat {big_b} has it): a player "
            "who misses blinds posts all of them or waits for the big blind"), BLIND_RULES))
    return findings


def check(table: Sequence[TableHand], follows: Sequence[bool]) -> list[Finding]:
    """The findings of a cash table's hands in order; `follows[i]`: hand i + 1 is the one dealt
    right after hand i (a native table's numbers say so)."""
    findings: list[Finding] = []
    owed: dict[str, Owed] = {}
    active: set[str] = set()
    for (a, b), next_hand in zip(pairwise(table), follows, strict=True):
        if not (next_hand and _cash_blinds(a) and _cash_blinds(b)):
            owed.clear()
            active.clear()
            continue
        active |= {s.player for s in a.hand.seats if not s.sitting_out}
        seated = {s.player for s in b.hand.seats}
        for player in [p for p in owed if p not in seated]:
            del owed[player]  # left the table: coming back is another matter (a new player)
        _missed(a.hand, b.hand, owed, active)
        findings += _returns(a.hand, b.hand, owed)
    return findings


def _cash_blinds(t: TableHand) -> bool:
    """A cash game's hand (a home game's too) with blinds and a button. A tournament's absent player
    is dealt in and posts ("An absent player is always dealt a hand, and is put up for blinds"), and
    a live event's hand does not say which it is."""
    game = ALL_GAMES.get(t.hand.variant)
    return t.hand.game_type in CASH_TYPES and game is not None and game.forced == "blinds" \
        and not t.hand.stakes.bomb_pot and t.hand.button_seat is not None
