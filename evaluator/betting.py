"""One betting round under limit, pot-limit or no-limit rules (BARGE 2025 §1.1-§1.3).

`Round` keeps what the rules need to judge the next wager: the bet to call, the last full
level and raise, how many bets and raises were made (the cap), and who has acted since the
last full bet or raise (a short all-in does not reopen the betting). `judge_*` functions
return the breaches a wager commits as (code, message, section) triples; the replay engine
turns them into findings.

The §1.3 example: blinds 100/200, the button may raise the pot to 700.

>>> r = Round(structure="pot-limit", size=0, min_bet=200)
>>> r.post(200)
>>> pot_limit_max(r, pot=300, player_bet=0)
700
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.amounts import format_amount as chips

Breach = tuple[str, str, str]  # (code, message, rulebook section)


@dataclass(slots=True)
class Round:
    structure: str  # "limit", "pot-limit" or "no-limit"
    size: int  # limit: the bet of this round (small or big); 0 in big-bet games
    min_bet: int  # big-bet games: the big blind (bring-in in stud, ante in a bomb pot)
    current: int = 0  # the highest wager of the round: what a call must match
    base: int = 0  # the last full level: a limit raise goes to base + size
    last_raise: int = 0  # big-bet: the size of the last full bet or raise
    raises: int = 0  # bets and raises counted for the cap (the blind or the completion is the bet)
    full: int = 0  # how many full bets/raises so far; a player may raise if one came after they acted
    acted: dict[str, int] = field(default_factory=dict)
    checked: set[str] = field(default_factory=set)
    bring_in: bool = False  # the current wager is a stud bring-in, open to completion
    all_in_wager: bool = False  # the current wager is someone's all-in (jam-or-fold callers)
    order: list[str] | None = None  # acting order, clockwise from the first to act
    pos: int = -1  # index in `order` of the last player who acted

    def post(self, amount: int) -> None:
        """A live blind, straddle or kill blind: it is the round's bet."""
        if amount > self.current:
            self.current = self.base = self.last_raise = amount
            self.raises = 1

    def reopened_for(self, player: str) -> bool:
        return player not in self.acted or self.acted[player] < self.full

    def reopen(self) -> None:
        """A short all-in limit raise that leaves the level where it was but lets anyone raise
        again (the `short_all_in_raise=completes` room rule); it does not count for the cap."""
        self.full += 1

    def raise_to(self, target: int, full: bool) -> None:
        """Record a wager to `target`; only a full one reopens the betting and counts for the cap."""
        if full:
            self.last_raise = target - self.current if self.current else target
            self.base = target
            self.raises += 1
            self.full += 1
        self.current = max(self.current, target)
        self.bring_in = False


def pot_limit_max(r: Round, pot: int, player_bet: int) -> int:
    """The largest total wager allowed: the bet to call plus the pot after the call (§1.3).

    `pot` counts every chip in the middle and in front of the players, this round included.
    """
    call = r.current - player_bet
    return r.current + pot + call


def limit_full(r: Round, target: int, allowed: tuple[int, ...], half_bet: bool = True) -> bool:
    """Whether a limit wager to `target` counts as a full bet or raise.

    §1.1: an all-in wager of half a bet or more is treated as a full bet; less does not reopen.
    Without `half_bet` (PokerStars) only a full bet or raise is one.
    """
    increment = target - r.current
    return target >= r.base + min(allowed) or (half_bet and 2 * increment >= r.size)


def limit_levels(r: Round, allowed: tuple[int, ...]) -> list[int]:
    """The totals a limit bet, raise or completion may go to: the last full level plus one of the
    round's fixed sizes (§1.1)."""
    return sorted({r.base + a for a in allowed})


def judge_limit(
    r: Round, target: int, all_in: bool, allowed: tuple[int, ...], covers: int = 0
) -> list[Breach]:
    """A limit bet, raise or completion to `target`: the fixed size of the round (§1.1).

    `covers`: the most any opponent can have in on the round (their wager and every chip they
    have left). A raise short of the level that puts in exactly that is a full raise for all the
    chips anybody can call: nobody need wager chips no one can match (the rulebook is silent;
    WSOP 2023 Event 43, Day 5, hand 85, where Brian Rast makes it 750,000 at 600,000/1,200,000).
    """
    levels = limit_levels(r, allowed)
    if target in levels or (all_in and target < levels[-1]):
        return []
    if r.current < target == covers < levels[-1]:
        return []
    return [
        (
            "WRONG_LIMIT_BET",
            f"makes it {chips(target)} where the limit allows {' or '.join(map(chips, levels))}",
            "1.1",
        )
    ]


def judge_spread_raise(r: Round, target: int, all_in: bool) -> list[Breach]:
    """Mexican Poker (§2.31): "All raises must be at least equal to the size of the last bet."

    The raise is counted from the last full level: over an all-in raise of less than half a bet,
    which does not reopen the betting, a player may complete to the full level (§1.1)."""
    level = r.base or r.current
    if r.current and not all_in and target - level < r.last_raise:
        return [
            (
                "RAISE_BELOW_MINIMUM",
                f"raises {chips(target - level)} over {chips(level)} to {chips(target)}; a raise must be "
                f"at least the last bet or raise, {chips(r.last_raise)}",
                "2.31",
            )
        ]
    return []


def minimum_wager(r: Round) -> int:
    """The smallest total a no-limit or pot-limit bet or raise may go to unless all-in: the minimum
    bet, or the bet plus the last full bet or raise (§1.2, §1.3)."""
    if r.current == 0:
        return r.min_bet
    return r.current + max(r.last_raise, r.min_bet if not r.last_raise else 0)


def judge_big_bet(r: Round, target: int, all_in: bool, pot: int, player_bet: int) -> list[Breach]:
    """A no-limit or pot-limit bet or raise to `target` (§1.2, §1.3)."""
    breaches: list[Breach] = []
    section = "1.3" if r.structure == "pot-limit" else "1.2"
    if r.current == 0:
        if target < r.min_bet and not all_in:
            breaches.append(
                ("BET_BELOW_MINIMUM", f"bets {chips(target)}; the minimum bet is {chips(r.min_bet)}", section)
            )
    else:
        minimum = minimum_wager(r)
        if target < minimum and not all_in:
            breaches.append(
                (
                    "RAISE_BELOW_MINIMUM",
                    f"raises to {chips(target)}; the minimum raise is to {chips(minimum)}",
                    section,
                )
            )
    if r.structure == "pot-limit":
        most = pot_limit_max(r, pot, player_bet)
        if target > most:
            breaches.append(
                (
                    "BET_OVER_POT_LIMIT",
                    f"makes it {chips(target)}; the pot allows at most {chips(most)}",
                    "1.3",
                )
            )
    return breaches


def big_bet_full(r: Round, target: int) -> bool:
    """A big-bet wager is full when it raises by at least the last full bet or raise."""
    if r.current == 0:
        return target >= r.min_bet
    return target - r.current >= max(r.last_raise, 1)
