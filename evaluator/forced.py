"""Forced money: the blinds, antes, big blind ante and bomb-pot antes a hand must start with.

Blinds sit relative to the button: the small blind is the first player dealt in clockwise of
the button and the big blind the next; heads-up the button posts the small blind. A dead
button may sit on an empty seat; with a dead small blind the big blind alone is posted.
A short stack posts what it has (`and is all-in`).

>>> from grammar.barge_parser import EXAMPLE, parse_hand
>>> from evaluator.catalog import GAMES
>>> from evaluator.profiles import resolve
>>> hand = parse_hand(EXAMPLE)
>>> check_forced(hand, GAMES[hand.variant], resolve(None))
[]
"""

from __future__ import annotations

from evaluator.betting import Breach
from evaluator.catalog import Game
from evaluator.profiles import Profile
from pipeline.amounts import format_amount as chips
from pipeline.model import Hand, Seat


def _posts(hand: Hand, kind: str, detail: str) -> list[tuple[str, int]]:
    return [
        (a.player, a.amount or 0)
        for a in hand.actions
        if a.kind == kind and a.detail == detail and a.player is not None
    ]


def _short_ok(amount: int, expected: int, stack: int) -> bool:
    """The amount is right, or less because it is all the player had."""
    return amount == expected or (amount < expected and amount == stack)


def check_forced(hand: Hand, game: Game, profile: Profile) -> list[Breach]:
    stacks = {s.player: s.stack for s in hand.seats}
    dealt = [s for s in sorted(hand.seats, key=lambda s: s.number) if not s.sitting_out]
    breaches: list[Breach] = []
    stakes = hand.stakes
    antes = dict(_posts(hand, "ante", "ante"))
    for player, ante in antes.items():
        stacks[player] -= ante  # the antes go in first: a short blind is short of what they left

    every_ante = stakes.bomb_pot or stakes.ante
    if every_ante:
        section = "1.6" if stakes.bomb_pot else "1.1"
        for seat in dealt:
            posted = antes.get(seat.player)
            if posted is None:
                breaches.append(
                    ("WRONG_ANTE", f"{seat.player} did not post the ante of {chips(every_ante)}", section)
                )
            elif not _short_ok(posted, every_ante, seat.stack):
                breaches.append(
                    (
                        "WRONG_ANTE",
                        f"{seat.player} antes {chips(posted)}; the ante is {chips(every_ante)}",
                        section,
                    )
                )
    elif antes:
        breaches.append(("WRONG_ANTE", f"antes posted by {', '.join(antes)} in a game without antes", "1.1"))

    small = _posts(hand, "post", "small_blind")
    big = _posts(hand, "post", "big_blind")
    if stakes.bomb_pot:
        if small or big:
            breaches.append(("WRONG_BLIND", "blinds posted in a bomb pot, where everyone antes", "1.6"))
        return breaches
    if game.forced != "blinds":
        if small or big:
            breaches.append(
                (
                    "WRONG_BLIND",
                    f"blinds posted in {game.variant.name}, a game with antes",
                    game.variant.section,
                )
            )
        return breaches

    button = hand.button_seat
    if button is not None and len(dealt) >= 2:
        after = sorted(dealt, key=lambda s: (s.number <= button, s.number))
        on_button = next((s for s in dealt if s.number == button), None)
        first = on_button or after[0] if len(dealt) == 2 else after[0]
        due_big = next(s for s in dealt if s is not first) if len(dealt) == 2 else after[1]
        due_small: Seat | None = first
        if not small and big and big[0][0] == first.player and len(dealt) > 2:
            due_small, due_big = None, first  # a dead small blind: the big blind moved up
        if due_small is not None:
            if not small:
                if stacks[due_small.player] > 0:  # an ante that took every chip leaves no blind to post
                    breaches.append(
                        ("WRONG_BLIND", f"no small blind; {due_small.player} is due to post it", "1.1")
                    )
            elif small[0][0] != due_small.player:
                breaches.append(
                    (
                        "WRONG_BLIND",
                        f"{small[0][0]} posts the small blind; it is "
                        f"{due_small.player}'s (seat {due_small.number})",
                        "1.1",
                    )
                )
        # §1.5, the ante first: a big blind whose whole stack went to the big blind ante posts no blind.
        antes_posted = _posts(hand, "ante", "big_blind_ante") if profile.get("bba_first") == "ante" else []
        covered = any(p == due_big.player and a >= due_big.stack for p, a in antes_posted)
        covered = covered or stacks[due_big.player] <= 0  # the ante took every chip: no blind to post
        if not big:
            if not covered:
                breaches.append(("WRONG_BLIND", f"no big blind; {due_big.player} is due to post it", "1.1"))
        elif big[0][0] != due_big.player:
            breaches.append(
                (
                    "WRONG_BLIND",
                    f"{big[0][0]} posts the big blind; it is {due_big.player}'s (seat {due_big.number})",
                    "1.1",
                )
            )
        if len(big) > 1 and hand.tournament is not None:
            extra = ", ".join(p for p, _ in big[1:])
            breaches.append(("WRONG_BLIND", f"a second big blind posted by {extra} in a tournament", "1.1"))

    bba = _posts(hand, "ante", "big_blind_ante")
    blind_due = stakes.big_blind
    if stakes.big_blind_ante:
        breaches += _check_big_blind_ante(hand, profile, bba, big, stacks, len(dealt))
    elif bba:
        breaches.append(("WRONG_ANTE", "a big blind ante in a game without one", "1.5"))
    elif blind_due is not None and big and not _short_ok(big[0][1], blind_due, stacks[big[0][0]]):
        breaches.append(
            (
                "WRONG_BLIND",
                f"{big[0][0]} posts a big blind of {chips(big[0][1])}; it is {chips(blind_due)}",
                "1.1",
            )
        )
    if (
        small
        and stakes.small_blind is not None
        and not _short_ok(small[0][1], stakes.small_blind, stacks[small[0][0]])
    ):
        breaches.append(
            (
                "WRONG_BLIND",
                f"{small[0][0]} posts a small blind of {chips(small[0][1])}; it is "
                f"{chips(stakes.small_blind)}",
                "1.1",
            )
        )
    for player, amount in _posts(hand, "post", "kill_blind"):
        if blind_due and amount * 2 not in (blind_due * 3, blind_due * 4):
            breaches.append(
                (
                    "WRONG_BLIND",
                    f"{player} posts a kill blind of {chips(amount)}; a kill is 1.5 or 2 "
                    f"times the big blind of {chips(blind_due)}",
                    "1.1",
                )
            )
    return breaches


def _check_big_blind_ante(
    hand: Hand,
    profile: Profile,
    bba: list[tuple[str, int]],
    big: list[tuple[str, int]],
    stacks: dict[str, int],
    players: int,
) -> list[Breach]:
    """§1.5: the big blind posts the table's ante, reduced short-handed; when short, the
    profile says whether the blind or the ante comes first."""
    stakes = hand.stakes
    assert stakes.big_blind_ante is not None
    breaches: list[Breach] = []
    ante = stakes.big_blind_ante
    reduce_at = int(profile.get("bba_reduce_at"))
    if reduce_at and players <= reduce_at and stakes.small_blind is not None:
        ante = stakes.small_blind
    if not big:
        return breaches
    poster, blind = big[0]
    posted = dict(bba)
    if set(posted) - {poster}:
        breaches.append(
            (
                "WRONG_ANTE",
                f"{', '.join(set(posted) - {poster})} posts the big blind ante; "
                f"the big blind ({poster}) posts it",
                "1.5",
            )
        )
    stack = stacks[poster]
    blind_due = stakes.big_blind or 0
    if profile.get("bba_first") == "blind":
        due_blind = min(blind_due, stack)
        due_ante = min(ante, stack - due_blind)
    else:
        due_ante = min(ante, stack)
        due_blind = min(blind_due, stack - due_ante)
    got = posted.get(poster, 0)
    if got != due_ante:
        breaches.append(
            (
                "WRONG_ANTE",
                f"{poster} posts a big blind ante of {chips(got)}; it is {chips(due_ante)} "
                f"({players} players, {profile.name}: {profile.get('bba_first')} first)",
                "1.5",
            )
        )
    if blind != due_blind:
        breaches.append(
            (
                "WRONG_BLIND",
                f"{poster} posts a big blind of {chips(blind)}; it is {chips(due_blind)} "
                f"({profile.name}: {profile.get('bba_first')} first when short)",
                "1.5",
            )
        )
    return breaches
