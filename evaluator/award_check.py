"""Comparing the dealer's pushes with what the rules award, and naming the difference.

Who got how many chips is what matters, so the comparison is per player, over all pots: the
chips pushed plus the uncalled bets returned, as recorded, against the same as the rules say
(:mod:`evaluator.settle`). Pot numbers and portion labels are how the record explains itself,
and are used only to say what went wrong:

- `SEVENS_REFUND_IGNORED`: the chips put in after the draw were not given back where the sevens
  rule voids that action (Appendix B);
- `WRONG_ODD_CHIP`: a pot was split (between tied hands, high and low, or runs) and its odd chip
  went to another player of the split (§1.4); nobody is off by more than that one chip;
- `WRONG_AWARD`: chips pushed to a player with no part in the pot (folded, mucked, or all-in
  for less than the side pot), or the right players paid the wrong amounts (a pot won outright
  pushed short or long, by one chip or more);
- `TIE_NOT_SPLIT`: a pot or portion that tied hands share pushed to one of them (§1.4);
- `LOW_DID_NOT_QUALIFY`: a player paid for a low that does not qualify;
- `MISREAD_HAND`: the chips went to the wrong hands, as when hands are misread.

The rulebook does not say how a house takes its rake: the settlement takes it from the main pot
first, and a record that took it from every pot in proportion (PokerStars) pushes the winners of
side pots a little less. So when the pushes differ, they are compared once more with what the
rules push before any rake (`rake_free`): if every player got at most that, and the shortfalls add
up to the recorded rake exactly, the house took its rake its own way and nothing is wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from evaluator.settle import RETURNED, Settlement
from pipeline.amounts import format_amount as chips
from pipeline.model import Award, Hand

Breach = tuple[str, str, str | None]  # (code, message, section; None: the game's own)


def _pot_name(index: int) -> str:
    return "the main pot" if index == 0 else f"side pot {index}"


def _hand(settlement: Settlement, player: str) -> str:
    portions = settlement.hands.get(player, ())
    said = settlement.declared.get(player)  # a declaration decides what the hand plays for
    declared = f"(declared {said}) " if said else ""
    if len(portions) == 1:
        return declared + portions[0].description
    return declared + "; ".join(f"{p.name}: {p.description}" for p in portions)


def _rules_text(settlement: Settlement, players: Sequence[str]) -> str:
    """What the rules push to these players, with the hands that win it."""
    parts = []
    for player in players:
        won = [s for s in settlement.shares if s.player == player]
        if not won:
            parts.append(f"{player} nothing")
            continue
        amount = sum(s.amount for s in won)
        labels = sorted({s.portion for s in won if s.portion})
        hand = next((s.hand for s in won if s.hand), "")
        detail = ", ".join(filter(None, [" and ".join(labels), hand]))
        parts.append(f"{player} {chips(amount)}" + (f" ({detail})" if detail else ""))
    return "; ".join(parts)


def _ineligible(settlement: Settlement, recorded: Sequence[Award], over: Sequence[str]) -> str | None:
    """A player pushed chips from a pot they have no part in, by the record's own pot numbers."""
    pots = {p.index: p for p in settlement.pots}
    for award in recorded:
        pot = pots.get(award.pot)
        if award.player in over and pot is not None and award.player not in pot.eligible:
            return (f"{award.player} was pushed {chips(award.amount)} from {_pot_name(award.pot)}, "
                    "which they have no part in")
    contending = {name for pot in settlement.pots for name in pot.eligible}
    for player in over:
        if player not in contending:
            return f"{player} was pushed chips but was no longer in the hand"
    return None


def _unqualified_low(settlement: Settlement, recorded: Sequence[Award], diff: Mapping[str, int],
                     unit: int, labelled_only: bool = False) -> str | None:
    """A player pushed a low their hand does not qualify for: the record labels it a low, or (a
    record that labels no portion, unless `labelled_only`) the chips they got too many are a low's
    half or quarter of a pot."""
    computed_low = any(s.portion and s.portion.startswith("low") for s in settlement.shares)
    for player, extra in diff.items():
        low = next((p for p in settlement.hands.get(player, ()) if p.name == "low"), None)
        if extra <= 0 or low is None or low.rank is not None or low.raw < 0:
            continue
        labelled = any(a.player == player and a.portion and "low" in a.portion for a in recorded)
        a_low_share = any(abs(extra * k - pot.amount) <= k * unit for pot in settlement.pots for k in (2, 4)
                          if player in pot.eligible)
        if labelled or (not labelled_only and not computed_low and a_low_share):
            return f"{player} was pushed a low with {low.description}"
    return None


def _unrefunded(settlement: Settlement, diff: Mapping[str, int]) -> str | None:
    """Appendix B: a player owed back what they put in after the draw, pushed less than that."""
    owed = {s.player: s.amount for s in settlement.shares if s.portion == RETURNED}
    short = [p for p, d in diff.items() if d < 0 and p in owed]
    if not short:
        return None
    return "; ".join(f"{p} was owed back the {chips(owed[p])} put in after the draw" for p in short) + \
        ": the sevens rule voids the action after the draw"


def _odd_chip(settlement: Settlement, diff: Mapping[str, int], unit: int) -> str | None:
    """§1.4: every difference is one odd chip of a split pot, given to another player of that split."""
    if any(abs(d) > unit for d in diff.values()) or sum(diff.values()) != 0:
        return None
    sharing: dict[int, set[str]] = {}
    for share in settlement.shares:
        if share.portion != RETURNED:
            sharing.setdefault(share.pot, set()).add(share.player)
    odd_pots = {s.pot for s in settlement.shares if s.odd}
    over = [p for p, d in diff.items() if d > 0]
    under = [p for p, d in diff.items() if d < 0]
    held = all(any(s.odd and s.player == p for s in settlement.shares) for p in under)
    shared = all(any(p in sharing[pot] for pot in odd_pots) for p in over)
    if not (held and shared):
        return None
    return f"the odd chip went to {', '.join(over)}; §1.4 gives it to {', '.join(under)}"


def _tie_not_split(settlement: Settlement, diff: Mapping[str, int]) -> str | None:
    """§1.4: a pot or portion that tied hands share, pushed to some of them only."""
    ties: dict[tuple[int, str | None], list[str]] = {}
    for share in settlement.shares:
        if share.portion != RETURNED:
            ties.setdefault((share.pot, share.portion), []).append(share.player)
    for (pot, portion), players in ties.items():
        if len(players) > 1 and set(diff) <= set(players):
            what = f"the {portion} of {_pot_name(pot)}" if portion else _pot_name(pot)
            hand = next((s.hand for s in settlement.shares if s.pot == pot and s.portion == portion), "")
            return (f"{', '.join(players)} tie for {what}" + (f" with {hand}" if hand else "") +
                    ", but it was not split equally between them")
    return None


def _short_or_long(diff: Mapping[str, int]) -> str:
    return "; ".join(f"{p} was pushed {chips(abs(d))} {'more' if d > 0 else 'less'} than the rules push"
                     for p, d in diff.items())


def _due(settlement: Settlement, owed: Mapping[str, int]) -> Counter[str]:
    """Chips the rules push to each player: their shares and the uncalled bets returned."""
    due: Counter[str] = Counter()
    for share in settlement.shares:
        due[share.player] += share.amount
    for name, amount in owed.items():
        due[name] += amount
    return due


def rake_taken_otherwise(pushed: Mapping[str, int], rake_free: Settlement, owed: Mapping[str, int],
                         rake: int) -> bool:
    """Whether the pushes are the rake-free pushes less a rake taken in other proportions: nobody got
    more than without a rake, and what they got less adds up to the recorded rake.

    >>> from evaluator.awarding import Share
    >>> gross = Settlement((Share(0, "Ann", 247, None), Share(1, "Ann", 93, None), Share(2, "Bo", 30, None)))
    >>> rake_taken_otherwise({"Ann": 323, "Bo": 29}, gross, {}, 18)
    True
    >>> rake_taken_otherwise({"Ann": 322, "Bo": 30}, gross, {}, 17)
    False
    """
    due = _due(rake_free, owed)
    short = {p: due[p] - pushed.get(p, 0) for p in set(due) | set(pushed)}
    return all(s >= 0 for s in short.values()) and sum(short.values()) == rake


def check_awards(settlement: Settlement, recorded: Sequence[Award], returned: Mapping[str, int],
                 owed: Mapping[str, int], unit: int, rake_free: Settlement | None = None,
                 rake: int = 0) -> list[Breach]:
    """The finding for a hand whose pushes differ from the rules' (at most one), or none.
    `rake_free`: the settlement without the rake, when `rake` was taken (see the module's doc)."""
    pushed: Counter[str] = Counter()
    for award in recorded:
        pushed[award.player] += award.amount
    for name, amount in returned.items():
        pushed[name] += amount
    due = _due(settlement, owed)
    players = sorted(set(pushed) | set(due))
    diff = {p: pushed[p] - due[p] for p in players if pushed[p] != due[p]}
    if not diff:
        return []
    if rake and rake_free is not None and rake_taken_otherwise(pushed, rake_free, owed, rake):
        return []
    over = [p for p, d in diff.items() if d > 0]
    said = "; ".join(f"{p} {chips(pushed[p])}" for p in diff)
    what = f"(pushed: {said}; the rules: {_rules_text(settlement, list(diff))})"
    reason: str | None
    if reason := _unrefunded(settlement, diff):
        code = "SEVENS_REFUND_IGNORED"
    elif reason := _odd_chip(settlement, diff, unit):
        code = "WRONG_ODD_CHIP"
    elif reason := _ineligible(settlement, recorded, over):
        code = "WRONG_AWARD"
    elif all(abs(d) <= unit for d in diff.values()):
        code, reason = "WRONG_AWARD", f"no odd chip was split: {_short_or_long(diff)}"
    elif reason := _unqualified_low(settlement, recorded, diff, unit, labelled_only=True):
        code = "LOW_DID_NOT_QUALIFY"  # the record itself calls the chips a low
    elif reason := _tie_not_split(settlement, diff):
        code = "TIE_NOT_SPLIT"
    elif reason := _unqualified_low(settlement, recorded, diff, unit):
        code = "LOW_DID_NOT_QUALIFY"
    elif {a.player for a in recorded if a.amount} != {
        s.player for s in settlement.shares if s.amount and s.portion != RETURNED
    }:
        hands = "; ".join(f"{p} holds {_hand(settlement, p)}" for p in diff if p in settlement.hands)
        code, reason = "MISREAD_HAND", f"the chips went to the wrong hand: {hands}"
    else:
        code, reason = "WRONG_AWARD", _short_or_long(diff)
    return [(code, f"{reason} {what}", None)]


def rake_breaches(hand: Hand, pot: int) -> list[tuple[str, str]]:
    """The recorded rake against the pot: a tournament's chips are never raked, and no house takes
    more than the pot (`pot`: every chip put in). The total pot and the pushes are checked against
    the chips put in by TOTAL_POT_MISMATCH and AWARDS_MISMATCH.

    >>> from pipeline.model import Stakes
    >>> rake_breaches(Hand("h", "razz", "limit", Stakes(), (), tournament="7", rake=500), 10000)
    [('RAKE_MISMATCH', 'a rake of 5 was taken in a tournament hand, where every chip stays in play')]
    """
    rake = hand.rake or 0
    if not rake:
        return []
    if rake > max(pot, hand.total_pot or 0):
        return [("RAKE_MISMATCH", f"a rake of {chips(rake)} is more than the pot of {chips(pot)}")]
    if hand.tournament is not None:
        return [("RAKE_MISMATCH", f"a rake of {chips(rake)} was taken in a tournament hand, where every "
                 "chip stays in play")]
    return []
