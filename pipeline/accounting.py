"""Chip accounting as a history records it: what each player put in, got back and collected.

This reads the record at face value (no rules are applied); the replay engine computes what
the rules say and compares.  Antes, dead blinds and fees (a paid option's `pays A`, docs/games.md)
are dead money; blinds, bring-ins, bets,
calls, completions and raises are live wagers of their street, so "raises to Y" puts in
Y minus what the player already had in front of them on that street.

>>> from grammar.barge_parser import EXAMPLE, parse_hand
>>> recorded_ending_stacks(parse_hand(EXAMPLE))
{'Ann': 520000, 'Bo': 480000}
"""

from __future__ import annotations

from collections import defaultdict

from pipeline.model import Hand


def live_and_dead(hand: Hand) -> tuple[dict[str, int], dict[str, int]]:
    """Net chips each player put in as wagers (uncalled bets returned are taken back) and as
    dead money (antes, dead blinds, fees: chips paid for an option, in the main pot, no wager)."""
    live: defaultdict[str, int] = defaultdict(int)
    dead: defaultdict[str, int] = defaultdict(int)
    wager: defaultdict[str, int] = defaultdict(int)
    street = None
    for action in hand.actions:
        player = action.player
        if player is None:
            continue
        if action.street != street:
            street = action.street
            wager.clear()
        kind = action.kind
        if kind in ("ante", "fee") or (kind == "post" and action.detail == "dead_blind"):
            dead[player] += action.amount or 0
        elif kind in ("post", "bring_in", "bet", "call"):
            live[player] += action.amount or 0
            wager[player] += action.amount or 0
        elif kind in ("raise", "complete"):
            target = action.to_amount or 0
            live[player] += target - wager[player]
            wager[player] = target
        elif kind == "return":
            live[player] -= action.amount or 0
            wager[player] -= action.amount or 0
    return dict(live), dict(dead)


def chips_put_in(hand: Hand) -> dict[str, int]:
    """Net chips each player put into the pot (uncalled bets returned are taken back)."""
    live, dead = live_and_dead(hand)
    return {p: live.get(p, 0) + dead.get(p, 0) for p in live.keys() | dead.keys()}


def recorded_ending_stacks(hand: Hand) -> dict[str, int]:
    """Starting stack - chips put in + chips collected, for every seated player."""
    put_in = chips_put_in(hand)
    collected: defaultdict[str, int] = defaultdict(int)
    for award in hand.awards:
        collected[award.player] += award.amount
    return {
        seat.player: seat.stack - put_in.get(seat.player, 0) + collected[seat.player]
        for seat in hand.seats
    }
