"""Whether a record stops before its hand is over: a history cut off (the file ends, a line lost).

A record that says how the hand ended (pushes, the summary's total pot, final stacks) is over as
far as the record goes; whatever is missing from it then is an irregularity the audit reports. A
record with none of these is over only when the play is: one player left in, a showdown reached,
or the last street's betting finished. Anything else is cut off, and the readers refuse it
(`pipeline.formats`) rather than store results nobody recorded.

>>> from grammar.barge_parser import parse_hand
>>> head = "BARGE Hand #c1: texas_holdem no-limit (blinds 100/200)\\nSeat 1: Ann (5,000 in chips)\\n"
>>> head += "Seat 2: Bo (5,000 in chips)\\nAnn: posts small blind 100\\nBo: posts big blind 200\\n"
>>> unfinished(parse_hand(head + "*** HOLE CARDS ***\\nAnn: calls 100\\n"))
'Bo is still to act on the hole cards'
>>> unfinished(parse_hand(head + "*** HOLE CARDS ***\\nAnn: calls 100\\nBo: checks\\n"))
'the flop is never dealt'
>>> unfinished(parse_hand(head + "*** HOLE CARDS ***\\nAnn: folds\\n")) is None
True
"""

from __future__ import annotations

from evaluator.catalog import ALL_GAMES, Street
from evaluator.profiles import resolve
from evaluator.replay import END_STREETS, Replay
from pipeline.model import Hand


def unfinished(hand: Hand) -> str | None:
    """Why the record of `hand` stops before the hand is over, or None when it does not."""
    if hand.awards or hand.final_stacks or hand.total_pot is not None:
        return None
    game = ALL_GAMES.get(hand.variant)
    if game is None:
        return None
    engine = Replay(hand, game, resolve(hand.rules_profile, hand.rules_options))
    try:
        if not engine.walk():
            return None  # too broken to tell: the audit says why
        street = engine.street
        if len(engine.live) <= 1 or (street is not None and street.name in END_STREETS):
            return None
        if street is None:
            return "nothing is dealt"
        engine.settle()  # the street's deal is over, so its betting can begin
        r = street.round
        if r is not None:
            if r.order is None:
                engine.start_round(r, street.spec or Street(street.name))
            waiting = engine.next_to_act(r)
            if waiting is not None:
                return f"{waiting} is still to act on the {street.name.replace('_', ' ')}"
    except Exception:  # the engine's own fault must not refuse a hand: the audit reports it
        return None
    if engine.plan_index < len(engine.plan) - 1:
        return f"the {engine.plan[engine.plan_index + 1].name.replace('_', ' ')} is never dealt"
    return None
