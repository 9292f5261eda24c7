"""Known rule breaks, made on purpose in a chosen fraction of generated hands, so that an audit's
recall can be measured: each broken hand is listed in `breaks.csv` with the finding code the
audit must report for it (`evaluator.findings.CODES`).

A break is either a mistake made while the hand is played (`pipeline.generate.play` makes it at
its first chance and plays the rest of the hand on from there, as a table would), or a change
to the finished record: the order of two actions, a mark, the dealer's pushes or the summary.
When the planned mistake never gets its chance (nobody ever faced a bet), a change to the
record that fits the hand is made instead, so every chosen hand carries a break.

>>> KINDS["raise_below_minimum"]
'RAISE_BELOW_MINIMUM'
>>> sorted(set(KINDS.values())) == sorted(KINDS.values())
True
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from random import Random
from typing import TextIO

from evaluator.catalog import ALL_GAMES
from evaluator.profiles import resolve
from evaluator.replay import Replay
from evaluator.settle import Settlement
from pipeline.generate.play import Mistake, Played
from pipeline.model import Action, Award, FinalStack, Hand

# kind -> the finding code the audit reports for it
KINDS: dict[str, str] = {
    # mistakes made while playing
    "wrong_blind": "WRONG_BLIND",
    "wrong_ante": "WRONG_ANTE",
    "wrong_bring_in": "WRONG_BRING_IN",
    "illegal_check": "ILLEGAL_CHECK",
    "wrong_call_amount": "WRONG_CALL_AMOUNT",
    "wrong_limit_bet": "WRONG_LIMIT_BET",
    "bet_below_minimum": "BET_BELOW_MINIMUM",
    "raise_below_minimum": "RAISE_BELOW_MINIMUM",
    "bet_over_pot_limit": "BET_OVER_POT_LIMIT",
    "uncalled_bet_kept": "UNCALLED_BET_WRONG",
    "wrong_discard_count": "WRONG_DISCARD_COUNT",
    "wrong_dice": "WRONG_DICE",
    "wrong_board_removal": "WRONG_BOARD_REMOVAL",
    "wrong_game_choice": "WRONG_GAME_CHOICE",
    "duplicate_card": "DUPLICATE_CARD",
    "wrong_burn": "WRONG_BURN",
    # changes to the finished record
    "out_of_turn": "OUT_OF_TURN",
    "action_after_fold": "ACTION_AFTER_FOLD",
    "all_in_mismarked": "ALL_IN_MISMARKED",
    "wrong_award": "WRONG_AWARD",
    "misread_hand": "MISREAD_HAND",
    "low_did_not_qualify": "LOW_DID_NOT_QUALIFY",
    "wrong_odd_chip": "WRONG_ODD_CHIP",
    "stack_mismatch": "STACK_MISMATCH",
    "total_pot_mismatch": "TOTAL_POT_MISMATCH",
    "awards_mismatch": "AWARDS_MISMATCH",
}

MANIFEST = "breaks.csv"
MANIFEST_HEADER = ("hand_id", "kind", "expected_code")


@dataclass(frozen=True, slots=True)
class Break:
    """One broken hand of the manifest."""

    hand_id: str
    kind: str

    @property
    def code(self) -> str:
        return KINDS[self.kind]


def possible(hand: Hand) -> list[str]:
    """The mistakes a hand of this game, structure and stakes can be played with."""
    game = ALL_GAMES[hand.variant]
    stakes = hand.stakes
    kinds = ["illegal_check", "wrong_call_amount", "uncalled_bet_kept"]
    if hand.structure == "limit":
        kinds.append("wrong_limit_bet")
    else:
        kinds += ["bet_below_minimum", "raise_below_minimum"]
    if hand.structure == "pot-limit":
        kinds.append("bet_over_pot_limit")
    if stakes.big_blind and not stakes.bomb_pot:
        kinds.append("wrong_blind")
    if stakes.ante or stakes.bomb_pot:
        kinds.append("wrong_ante")
    if stakes.bring_in and game.bring_in:
        kinds.append("wrong_bring_in")
    streets = game.streets
    fixed = any(s.discard and s.discard[0] == s.discard[1] for s in streets)
    if fixed or any(s.draw and s.draw[1] < game.hole_cards for s in streets):
        kinds.append("wrong_discard_count")
    if any(s.dice for s in streets):
        kinds.append("wrong_dice")
    if any("remove_board" in s.steps for s in streets):
        kinds.append("wrong_board_removal")
    if game.choices:
        kinds.append("wrong_game_choice")
    if any(s.boards for s in game.streets[1:]):
        kinds.append("duplicate_card")
    if game.guts is not None:
        kinds.append("wrong_burn")  # a guts game's loser pays the next pot less than the rule says
    return kinds


RECORD_KINDS = ("out_of_turn", "action_after_fold", "all_in_mismarked", "wrong_award", "misread_hand",
                "low_did_not_qualify", "wrong_odd_chip", "stack_mismatch", "total_pot_mismatch",
                "awards_mismatch")


def plan(hand: Hand, rng: Random) -> Mistake:
    """The break to make in this hand: one of the mistakes it can be played with, or a change to
    its record (the first that fits the finished hand is made)."""
    return Mistake(rng.choice([*possible(hand), *RECORD_KINDS]))


# ---- changes to the finished record ----------------------------------------------------------

Change = Callable[[Played, Random], Hand | None]


def _swap_turns(played: Played, rng: Random) -> Hand | None:
    """Two players who checked (or folded) one after the other act in the other order."""
    hand = played.hand
    actions = list(hand.actions)
    pairs = [i for i in range(len(actions) - 1)
             if actions[i].kind == actions[i + 1].kind and actions[i].kind in ("check", "fold")
             and actions[i].street == actions[i + 1].street and actions[i].player != actions[i + 1].player]
    if not pairs:
        return None
    i = rng.choice(pairs)
    actions[i], actions[i + 1] = actions[i + 1], actions[i]
    return replace(hand, actions=tuple(actions))


def _act_after_fold(played: Played, rng: Random) -> Hand | None:
    """A player who folded folds again later in the same betting round."""
    hand = played.hand
    actions = list(hand.actions)
    betting = ("check", "call", "bet", "raise", "complete", "fold")
    for i, action in enumerate(actions):
        if action.kind != "fold":
            continue
        later = [j for j in range(i + 1, len(actions))
                 if actions[j].street == action.street and actions[j].kind in betting]
        if later:
            actions.insert(later[0] + 1, Action(action.street, "fold", action.player))
            return replace(hand, actions=tuple(actions))
    return None


def _unmark_all_in(played: Played, rng: Random) -> Hand | None:
    """An all-in wager written without 'and is all-in'."""
    hand = played.hand
    marked = [i for i, a in enumerate(hand.actions)
              if a.all_in and a.kind in ("call", "bet", "raise", "complete", "bring_in")]
    if not marked:
        return None
    i = rng.choice(marked)
    actions = list(hand.actions)
    actions[i] = replace(actions[i], all_in=False)
    return replace(hand, actions=tuple(actions))


def _restack(hand: Hand, awards: list[Award]) -> Hand:
    """The hand with new pushes and final stacks that agree with them (only the push is wrong)."""
    before = Counter[str]()
    after = Counter[str]()
    for award in hand.awards:
        before[award.player] += award.amount
    for award in awards:
        after[award.player] += award.amount
    finals = tuple(replace(f, amount=f.amount - before[f.player] + after[f.player])
                   for f in hand.final_stacks)
    return replace(hand, awards=tuple(awards), final_stacks=finals)


def _folded(hand: Hand) -> list[str]:
    return sorted({a.player for a in hand.actions if a.kind == "fold" and a.player})


def _to_folded_player(played: Played, rng: Random) -> Hand | None:
    """A pot pushed to a player who had folded."""
    hand = played.hand
    folded = _folded(hand)
    unit = _unit(hand)
    big = [i for i, a in enumerate(hand.awards) if a.amount > unit]  # more than an odd chip
    if not folded or not big:
        return None
    awards = list(hand.awards)
    i = rng.choice(big)
    awards[i] = replace(awards[i], player=rng.choice(folded))
    return _restack(hand, awards)


def _contenders(settlement: Settlement) -> list[str]:
    return sorted(settlement.hands)


def _to_loser(played: Played, rng: Random) -> Hand | None:
    """A pot won whole pushed to another player who showed down and lost (a misread hand)."""
    hand, settlement = played.hand, played.settlement
    if any(p.name == "low" for portions in settlement.hands.values() for p in portions):
        return None  # a loser's unqualified low would be named instead
    winners = {a.player for a in hand.awards}
    losers = [name for name in _contenders(settlement) if name not in winners]
    whole = [i for i, a in enumerate(hand.awards) if a.portion is None and a.pot == 0]
    if not losers or not whole:
        return None
    awards = list(hand.awards)
    i = whole[0]
    awards[i] = replace(awards[i], player=rng.choice(losers))
    return _restack(hand, awards)


def _unqualified_low(played: Played, rng: Random) -> Hand | None:
    """Half of a scooped pot pushed as a low to a player whose low does not qualify."""
    hand, settlement = played.hand, played.settlement
    if any(s.portion and "low" in s.portion for s in settlement.shares):
        return None
    unqualified = [name for name, portions in settlement.hands.items()
                   if any(p.name == "low" and p.rank is None and p.raw >= 0 for p in portions)]
    scoops = [i for i, a in enumerate(hand.awards) if a.pot == 0]
    if not scoops:
        return None
    awards = list(hand.awards)
    i = scoops[0]
    winner = awards[i]
    takers = [name for name in unqualified if name != winner.player]
    half = winner.amount // 2
    if not takers or half == 0:
        return None
    awards[i] = replace(winner, amount=winner.amount - half, portion="high")
    awards.insert(i + 1, Award(rng.choice(takers), half, 0, "low"))
    return _restack(hand, awards)


def _unit(hand: Hand) -> int:
    engine = Replay(hand, ALL_GAMES[hand.variant], resolve(hand.rules_profile, hand.rules_options))
    return engine.unit()


def _odd_chip(played: Played, rng: Random) -> Hand | None:
    """The odd chip of a split pot pushed to another player of the split instead of the one §1.4
    gives it to (a pot split evenly, or won whole, has no odd chip to misplace)."""
    hand = played.hand
    odd = {(s.pot, s.player) for s in played.settlement.shares if s.odd}
    awards = list(hand.awards)
    pairs = [(i, j) for i in range(len(awards)) for j in range(len(awards))
             if i != j and awards[i].pot == awards[j].pot and awards[i].player != awards[j].player
             and (awards[i].pot, awards[i].player) in odd]
    if not pairs:
        return None
    unit = _unit(hand)
    i, j = rng.choice(pairs)
    if awards[i].amount <= unit:
        return None
    awards[i] = replace(awards[i], amount=awards[i].amount - unit)
    awards[j] = replace(awards[j], amount=awards[j].amount + unit)
    return _restack(hand, awards)


def _off_final_stack(played: Played, rng: Random) -> Hand | None:
    hand = played.hand
    if not hand.final_stacks:
        return None
    finals = list(hand.final_stacks)
    i = rng.randrange(len(finals))
    finals[i] = FinalStack(finals[i].seat, finals[i].player, finals[i].amount + _unit(hand))
    return replace(hand, final_stacks=tuple(finals))


def _off_total_pot(played: Played, rng: Random) -> Hand | None:
    hand = played.hand
    return replace(hand, total_pot=(hand.total_pot or 0) + _unit(hand))


def _short_award(played: Played, rng: Random) -> Hand | None:
    """A pot pushed short: the chips awarded no longer add up to the pot."""
    hand = played.hand
    unit = _unit(hand)
    awards = list(hand.awards)
    big = [i for i, a in enumerate(awards) if a.amount > unit]
    if not big:
        return None
    i = rng.choice(big)
    awards[i] = replace(awards[i], amount=awards[i].amount - unit)
    return _restack(hand, awards)


CHANGES: dict[str, Change] = {
    "out_of_turn": _swap_turns,
    "action_after_fold": _act_after_fold,
    "all_in_mismarked": _unmark_all_in,
    "wrong_award": _to_folded_player,
    "misread_hand": _to_loser,
    "low_did_not_qualify": _unqualified_low,
    "wrong_odd_chip": _odd_chip,
    "stack_mismatch": _off_final_stack,
    "total_pot_mismatch": _off_total_pot,
    "awards_mismatch": _short_award,
}


def finish(played: Played, mistake: Mistake, rng: Random) -> tuple[Hand, Break]:
    """The broken hand and its manifest row: the mistake if it was made while playing, else the
    planned change to the record, else the first change that fits this hand."""
    if mistake.made:
        return played.hand, Break(played.hand.hand_id, mistake.kind)
    others = [k for k in CHANGES if k != mistake.kind]
    rng.shuffle(others)
    order = ([mistake.kind] if mistake.kind in CHANGES else []) + others
    for kind in order:
        changed = CHANGES[kind](played, rng)
        if changed is not None:
            return changed, Break(changed.hand_id, kind)
    raise AssertionError("a change to the total pot always fits")


def open_manifest(path: Path) -> tuple[TextIO, Callable[[Break], None]]:
    """The manifest file, opened for writing with its header, and a function adding a row."""
    handle = path.open("w", encoding="utf-8", newline="")
    writer = csv.writer(handle)
    writer.writerow(MANIFEST_HEADER)
    return handle, lambda row: writer.writerow((row.hand_id, row.kind, row.code))


def read_manifest(path: Path) -> list[Break]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [Break(row["hand_id"], row["kind"]) for row in csv.DictReader(handle)]
