"""Writes a `Hand` back as text in the native BARGE format (docs/format.md).

Parsing what this writes gives the same hand model again; `barge show` uses it to print
stored hands.

>>> from grammar.barge_parser import EXAMPLE, parse_hand
>>> hand = parse_hand(EXAMPLE)
>>> parse_hand(write_hand(hand)) == hand
True
"""

from __future__ import annotations

from collections.abc import Iterator

from pipeline.amounts import format_amount
from pipeline.model import Action, Award, Hand, Stakes

_POSTS = {
    "small_blind": "posts small blind",
    "big_blind": "posts big blind",
    "straddle": "posts straddle",
    "dead_blind": "posts dead blind",
    "kill_blind": "posts kill blind",
    "button_blind": "posts button blind",
    "ante": "posts the ante",
    "big_blind_ante": "posts big blind ante",
}


def _cards(cards: tuple[str, ...]) -> str:
    return "[" + " ".join(cards) + "]"


def _stakes(stakes: Stakes) -> str:
    a = format_amount
    items = []
    if stakes.small_blind is not None and stakes.big_blind is not None:
        items.append(f"blinds {a(stakes.small_blind)}/{a(stakes.big_blind)}")
    if stakes.small_bet is not None and stakes.big_bet is not None:
        items.append(f"bets {a(stakes.small_bet)}/{a(stakes.big_bet)}")
    for label, value in (("ante", stakes.ante), ("big blind ante", stakes.big_blind_ante),
                         ("bring-in", stakes.bring_in), ("bomb pot", stakes.bomb_pot)):
        if value is not None:
            items.append(f"{label} {a(value)}")
    if stakes.jam_or_fold:
        items.append("jam-or-fold")
    if stakes.cap is not None:
        items.append(f"cap {a(stakes.cap)}")
    if not items:
        raise ValueError("a hand's header needs at least one stake (blinds, bets, ante ...)")
    return ", ".join(items)


def _header(hand: Hand) -> Iterator[str]:
    line = f"BARGE Hand #{hand.hand_id}: {hand.variant} {hand.structure} ({_stakes(hand.stakes)})"
    if hand.started_at is not None:
        line += f" - {hand.started_at.isoformat(sep=' ', timespec='seconds')}"
    yield line
    # `Game:` is left out where the reader's default (docs/format.md, "Units") gives it back.
    default_game = "tournament" if hand.tournament else "cash"
    game = hand.game_type if hand.game_type != default_game else None
    for label, value in (("Event", hand.event), ("Tournament", hand.tournament), ("Level", hand.level),
                         ("Site", hand.site), ("Game", game), ("Currency", hand.currency)):
        if value:
            yield f"{label}: {value}"
    if hand.rules_profile:
        yield "Rules: " + "; ".join([hand.rules_profile, *(f"{k}={v}" for k, v in hand.rules_options)])
    if hand.table_name is not None:
        table = f"Table '{hand.table_name}'"
        if hand.max_seats is not None:
            table += f" {hand.max_seats}-max"
        if hand.button_seat is not None:
            table += f" Seat #{hand.button_seat} is the button"
        yield table
    elif hand.button_seat is not None:
        yield f"Seat #{hand.button_seat} is the button"
    for seat in hand.seats:
        out = " is sitting out" if seat.sitting_out else ""
        yield f"Seat {seat.number}: {seat.player} ({format_amount(seat.stack)} in chips){out}"


def _verb(action: Action) -> str:
    a = format_amount
    kind = action.kind
    if kind in ("post", "ante"):
        return f"{_POSTS[action.detail or 'ante']} {a(action.amount or 0)}"
    if kind == "bring_in":
        return f"brings in for {a(action.amount or 0)}"
    if kind == "complete":
        return f"completes to {a(action.to_amount or 0)}"
    if kind in ("bet", "call"):
        return f"{kind}s {a(action.amount or 0)}"
    if kind == "raise":
        by = f"{a(action.amount)} " if action.amount is not None else ""
        return f"raises {by}to {a(action.to_amount or 0)}"
    if kind in ("check", "stand_pat"):
        return {"check": "checks", "stand_pat": "stands pat"}[kind]
    if kind in ("fold", "muck"):
        return f"{kind}s" + (f" {_cards(action.cards)}" if action.cards else "")
    if kind == "discard":
        unknown = all(card == "??" for card in action.cards)
        return "discards " + (str(len(action.cards)) if unknown else _cards(action.cards))
    if kind == "expose":
        return f"exposes {_cards(action.cards)}"
    if kind == "show":
        return f"shows {_cards(action.cards)}" + (f" ({action.detail})" if action.detail else "")
    if kind == "roll":
        return f"rolls {action.detail}"
    if kind == "choose":
        return f"chooses {action.detail}"
    if kind == "split":
        first = int((action.detail or "2+").split("+")[0])
        return f"splits {_cards(action.cards[:first])} {_cards(action.cards[first:])}"
    if kind == "declare":
        return f"declares {action.detail}"
    if kind == "fee":
        return f"pays {a(action.amount or 0)}"
    if kind == "burn":
        return f"pays {a(action.amount or 0)} to the next pot"
    if kind == "leg":
        return f"gets leg {action.detail}"
    if kind == "carry_in":
        pot = f" (pot {action.detail})" if action.detail else ""
        return f"brings in {a(action.amount or 0)} carried from the last deal{pot}"
    if kind == "carry_out":
        return f"carries {a(action.amount or 0)} to the next deal"
    if kind == "board":
        return f"deals board {action.detail} {_cards(action.cards)}"
    if kind == "remove_board":
        return f"removes board {action.detail}"
    if kind == "run_it":
        return "runs it twice" if action.amount == 2 else "runs it three times"
    if kind == "reshuffle":
        return "reshuffles the discards"
    raise ValueError(f"no native form for action kind '{kind}'")


def action_lines(actions: tuple[Action, ...], start: int, stop: int) -> Iterator[str]:
    """The history lines of `actions[start:stop]` (a deal to one player and a discard with its
    draw are one line each); the dashboard's replayer labels its steps with them."""
    i = start
    while i < stop:
        action = actions[i]
        i += 1
        kind, player = action.kind, action.player
        if kind == "deal":
            groups = [action]
            while i < stop and actions[i].kind == "deal" and actions[i].player == player:
                groups.append(actions[i])
                i += 1
            parts = [("up " if g.detail == "up" else "") + _cards(g.cards) for g in groups]
            yield f"Dealt to {player} " + " ".join(parts)
        elif kind == "return":
            yield f"Uncalled bet ({format_amount(action.amount or 0)}) returned to {player}"
        elif kind in ("note", "ruling"):
            yield f"{'Note' if kind == 'note' else 'Floor'}: {action.detail}"
        elif kind == "draw":
            raise ValueError("a draw must follow the player's discard")
        else:
            line = f"{player or 'Dealer'}: {_verb(action)}"
            if kind == "discard" and i < stop and actions[i].kind == "draw" and actions[i].player == player:
                line += f" and draws {_cards(actions[i].cards)}"
                action = actions[i]
                i += 1
            yield line + (" and is all-in" if action.all_in else "")


def award_line(award: Award, has_side_pots: bool) -> str:
    """An award as its history line ("Ann collected 1,000 from side pot 1 (low)")."""
    pot = f"side pot {award.pot}" if award.pot else ("main pot" if has_side_pots else "pot")
    portion = f" ({award.portion})" if award.portion else ""
    return f"{award.player} collected {format_amount(award.amount)} from {pot}{portion}"


def _body(hand: Hand) -> Iterator[str]:
    actions = hand.actions
    i, n = 0, len(actions)
    while i < n:
        street = actions[i].street
        stop = i
        while stop < n and actions[stop].street == street:
            stop += 1
        if i == 0:
            # Forced bets of the first street, and a guts game's pot carried in, are written before
            # its marker, as dealers post them.
            while i < stop and actions[i].kind in ("post", "ante", "carry_in"):
                i += 1
            yield from action_lines(actions, 0, i)
        if street:
            marker = f"*** {street.replace('_', ' ').upper()} ***"
            if i < stop and actions[i].kind == "board" and actions[i].detail == "1":
                marker += f" {_cards(actions[i].cards)}"
                i += 1
            yield marker
        yield from action_lines(actions, i, stop)
        i = stop
    side = any(award.pot for award in hand.awards)
    for award in hand.awards:
        yield award_line(award, side)


def _summary(hand: Hand) -> Iterator[str]:
    if hand.total_pot is None and not hand.final_stacks:
        return
    yield "*** SUMMARY ***"
    if hand.total_pot is not None:
        rake = f" | Rake {format_amount(hand.rake)}" if hand.rake is not None else ""
        yield f"Total pot {format_amount(hand.total_pot)}{rake}"
    for final in hand.final_stacks:
        yield f"Seat {final.seat}: {final.player} ends with {format_amount(final.amount)}"


def write_hand(hand: Hand) -> str:
    """The hand as native text, ending with a newline."""
    return "\n".join([*_header(hand), *_body(hand), *_summary(hand)]) + "\n"
