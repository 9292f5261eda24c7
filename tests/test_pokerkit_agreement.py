"""Agreement with PokerKit: random legal hands of the 11 PHH variants, played by PokerKit, written
as PHH by PokerKit's own `HandHistory`, ingested and audited here; every player's final stack and
the chips pushed to them must be PokerKit's, and the audit must find no errors.

The hands are legal under both rulebooks: where PokerKit allows more than BARGE 2025 (a fourth
raise before the flop in limit, PokerKit 0.7's pot-limit Omaha Hi-Lo "FO/8", folding when one
could check), the random player keeps to what both allow, and the dealer deals as a live dealer
does (from the stub; when it runs out, from the burn cards, the muck and the discards of players
who have drawn).  The rule differences that remain are in docs/interop.md ("PokerKit
agreement"), and the tests at the end of this file show each.  `--slow` plays 10,000 hands per
variant; the quick tier a few hundred in all.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pokerkit = pytest.importorskip("pokerkit")

from evaluator.replay import replay_hand  # noqa: E402
from grammar.phh_parser import parse_phh  # noqa: E402
from grammar.phh_transformer import LIMIT_CODES, PHH_VARIANTS, STUD_CODES  # noqa: E402
from pipeline.audit import audit  # noqa: E402
from pipeline.ingest import ingest  # noqa: E402
from pipeline.phh_writer import hand_to_phh  # noqa: E402
from pipeline.store import Store  # noqa: E402
from pipeline.writer import write_hand  # noqa: E402

A = pokerkit.Automation
AUTOMATIONS = (
    A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.RUNOUT_COUNT_SELECTION,
    A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING, A.CHIPS_PUSHING, A.CHIPS_PULLING,
)
QUICK_HANDS = 40  # per variant: 440 hands in all
SLOW_HANDS = 10_000
MAX_PLAYERS = {"F7S": 7, "F7S/8": 7, "FR": 7, "N2L1D": 6, "F2L3D": 6, "FB": 6}  # else 9
BIG_BET = {"NT", "NS", "PO", "N2L1D"}


class _OutOfCards(Exception):
    """The live dealer's stub and reusable cards ran out (the hand is played again)."""


@dataclass(slots=True)
class _Dealer:
    """Deals as a live dealer does: from the shuffled stub, and when it runs out, from the burn
    cards, the muck and the discards of players who have already drawn (never a card a player
    is still to discard in this draw round, which a live dealer cannot have)."""

    rng: random.Random
    stub: list[str]
    burned: list[str] = field(default_factory=list)
    mucked: list[str] = field(default_factory=list)
    discards: list[tuple[int, int, str]] = field(default_factory=list)  # (street, player, card)
    reused: set[str] = field(default_factory=set)

    def card(self, street: int, waiting: set[int]) -> str:
        if not self.stub:
            pool = [c for c in (*self.burned, *self.mucked) if c not in self.reused]
            pool += [c for s, p, c in self.discards
                     if c not in self.reused and (s < street or p not in waiting)]
            if not pool:
                raise _OutOfCards
            self.rng.shuffle(pool)
            self.reused.update(pool)
            self.stub = pool
        return self.stub.pop()


@dataclass(frozen=True, slots=True)
class Played:
    code: str
    name: str
    text: str  # PokerKit's PHH of the hand
    stacks: tuple[int, ...]  # PokerKit's final stacks, in PHH order, chips
    pots: list[dict[str, int]]  # at a showdown: each pot's pushes by player, hundredths
    pokerkit_fix: dict[str, int]  # chips of a lowless low half moved to the high hand, hundredths


@dataclass(frozen=True, slots=True)
class _Table:
    game: Any  # a PokerKit game
    antes: tuple[int, ...]
    big: int  # the big blind, or the small bet in stud: the scale of the stacks
    straddle: int = 0


def _table(code: str, rng: random.Random, players: int) -> _Table:
    """A PokerKit game of `code` with random stakes and forced bets."""
    kind = pokerkit.HandHistory.game_types[code]
    cash = pokerkit.Mode.CASH_GAME
    small = rng.choice([1, 2, 5, 25])
    big = 2 * small
    ante = rng.choice([0, 0, max(1, small // 2), small])
    if code in STUD_CODES:
        ante = ante or max(1, small // 2)
        bring_in = rng.choice([max(1, small // 2), small])
        game = kind(AUTOMATIONS, False, ante, bring_in, big, 2 * big, mode=cash)
        return _Table(game, (ante,) * players, big)
    blinds = [small, big] + [0] * (players - 2)
    if code in BIG_BET and players >= 4 and rng.random() < 0.15:
        blinds[2] = 2 * big  # an under-the-gun straddle
    antes = [ante] * players
    if players >= 5 and rng.random() < 0.2:
        antes = [0] * players
        antes[1] = big  # a big blind ante (five players or more: BARGE does not reduce it)
    if code in BIG_BET:
        return _Table(kind(AUTOMATIONS, False, antes, blinds, big, mode=cash), tuple(antes), big,
                      blinds[2] if players > 2 else 0)
    return _Table(kind(AUTOMATIONS, False, antes, blinds, big, 2 * big, mode=cash), tuple(antes), big)


def _stacks(rng: random.Random, players: int, floor: int, big: int) -> tuple[int, ...]:
    """Random stacks, a few of them short, so that all-ins and side pots are common."""
    return tuple(rng.randint(floor, floor + 5 * big) if rng.random() < 0.25
                 else rng.randint(10 * big, 200 * big) for _ in range(players))


def _wager(state: Any, code: str, rng: random.Random, straddle: int, all_in_raise: bool) -> None:
    """A random legal action that BARGE 2025 allows too (docs/interop.md, "PokerKit agreement"):
    no fold when checking is free, the limit cap of §1.1 (the blind is the bet), no raise after an
    all-in raise on the round, the fixed size in PokerKit's pot-limit FO/8, and over a straddle a
    raise of at least the straddle."""
    owed = state.checking_or_calling_amount or 0
    raises = state.completion_betting_or_raising_count
    first_blind_street = state.street_index == 0 and code not in STUD_CODES
    cap = 3 if first_blind_street else 4
    may_raise = (state.can_complete_bet_or_raise_to() and not all_in_raise
                 and (code not in LIMIT_CODES or raises < cap))
    roll = rng.random()
    if owed and roll < 0.25:
        state.fold()
    elif may_raise and roll < 0.55:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        if code in LIMIT_CODES:
            state.complete_bet_or_raise_to(low)
            return
        if straddle and first_blind_street and not raises:
            low = min(max(low, 2 * straddle), high)
        state.complete_bet_or_raise_to(rng.choice([low, high, rng.randint(low, high)]))
    else:
        state.check_or_call()


def play_hand(code: str, rng: random.Random, name: str) -> Played:
    """One random hand of `code`, played by PokerKit and written as PHH by PokerKit."""
    while True:
        try:
            return _play(code, rng, name)
        except _OutOfCards:
            continue


def _play(code: str, rng: random.Random, name: str) -> Played:
    players = rng.randint(2, MAX_PLAYERS.get(code, 9))
    table = _table(code, rng, players)
    game = table.game
    floor = max(table.antes) + 2 * table.big + 1  # everyone posts in full: short posts are not compared
    state = game(_stacks(rng, players, floor, table.big), players)
    deck = [repr(c) for c in game.deck]
    rng.shuffle(deck)
    dealer = _Dealer(rng, deck)
    drawn: set[int] = set()  # players who have drawn on this street
    last_street = 0
    all_in_raise = False  # an all-in raised the bet on this round
    straddle = table.straddle
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            street = state.street_index or 0
            if street != last_street:
                drawn, last_street, all_in_raise = set(), street, False
            waiting = set(range(players)) - drawn
            if state.can_burn_card():
                card = dealer.card(street, waiting)
                dealer.burned.append(card)
                state.burn_card(card)
            elif state.can_deal_hole():
                dealee = state.hole_dealee_index
                state.deal_hole(dealer.card(street, waiting))
                if state.hole_dealee_index != dealee:
                    drawn.add(dealee)
            elif state.can_deal_board():
                state.deal_board(dealer.card(street, waiting))
            elif state.can_stand_pat_or_discard():
                i = state.stand_patter_or_discarder_index
                held = [repr(c) for c in state.hole_cards[i]]
                chosen = rng.sample(held, rng.choice([0, 1, 1, 2, 2, 3, len(held)]))
                dealer.discards += [(street, i, c) for c in chosen]
                state.stand_pat_or_discard("".join(chosen))
            elif state.can_post_bring_in():
                if rng.random() < 0.7:
                    state.post_bring_in()
                else:
                    state.complete_bet_or_raise_to()  # the lowest card completes instead
            elif state.actor_index is not None:
                actor = state.actor_index
                cards = [repr(c) for c in state.hole_cards[actor]]
                folds_before = sum(1 for s in state.statuses if s)
                top = max(state.bets)
                _wager(state, code, rng, straddle, all_in_raise)
                if sum(1 for s in state.statuses if s) < folds_before:
                    dealer.mucked += cards
                all_in_raise |= state.stacks[actor] == 0 and max(state.bets) > top
            else:
                raise AssertionError(f"PokerKit waits for an action the player does not make: {state}")
    history = pokerkit.HandHistory.from_game_state(game, state)
    history.hand = name
    pots, fix = _pots(game, state.operations)
    return Played(code, name, history.dumps(), tuple(state.stacks), pots, fix)


def _pots(game: Any, operations: list[Any]) -> tuple[list[dict[str, int]], dict[str, int]]:
    """What PokerKit pushed from each pot, in pot order, when the hand went to a showdown (a hand
    won by folds pushes the pot without the winner's last wager, which the record counts in it),
    and the chips PokerKit 0.7 pushed wrongly: a low half of a pot in which no player has a
    qualifying low (PokerKit splits it among them when anyone at the table has one) belongs to the
    pot's high hand; they are moved there (docs/interop.md)."""
    pushes = [op for op in operations if isinstance(op, pokerkit.ChipsPushing)]
    if not any(op.hand_type_index is not None for op in pushes):
        return [], {}
    held: dict[int, tuple[Any, ...]] = {}
    board: list[Any] = []
    for op in operations:
        if isinstance(op, pokerkit.HoleCardsShowingOrMucking) and op.hole_cards:
            held[op.player_index] = op.hole_cards
        elif isinstance(op, pokerkit.BoardDealing):
            board.extend(op.cards)
    by_pot: defaultdict[int, defaultdict[int, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for op in pushes:
        for i, amount in enumerate(op.amounts):
            if amount:
                by_pot[op.pot_index][op.hand_type_index or 0][f"p{i + 1}"] += amount * 100
    moved: Counter[str] = Counter()
    for portions in by_pot.values():
        for kind, winners in list(portions.items()):
            high = sorted(portions.get(0, ()), key=lambda p: int(p[1:]))
            if high and kind and not any(_qualifies(game, kind, held.get(int(p[1:]) - 1, ()), board)
                                         for p in winners):
                share, rest = divmod(sum(winners.values()) // 100, len(high))
                for k, p in enumerate(high):
                    gain = (share + (rest if k == 0 else 0)) * 100
                    portions[0][p] += gain
                    moved[p] += gain
                moved.subtract(winners)
                del portions[kind]
    pots = []
    for k in sorted(by_pot):
        total: Counter[str] = Counter()
        for winners in by_pot[k].values():
            total.update(winners)
        pots.append(dict(total))
    return pots, {p: a for p, a in moved.items() if a}


def _qualifies(game: Any, kind: int, cards: tuple[Any, ...], board: list[Any]) -> bool:
    try:
        game.hand_types[kind].from_game(cards, board)
    except ValueError:
        return False
    return True


# ---- the comparison -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Disagreement:
    hand: str
    what: str


@dataclass(slots=True)
class Comparison:
    problems: list[Disagreement] = field(default_factory=list)  # every one is a failure
    odd_chips: list[str] = field(default_factory=list)  # hands differing only by odd chips (documented)
    lowless: list[str] = field(default_factory=list)  # PokerKit split a low half nobody qualified for
    findings: Counter[str] = field(default_factory=Counter)


def _rows(store: Store, sql: str) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = store.con.execute(sql).fetchall()
    return rows


def _merged(pots: list[dict[str, int]]) -> list[tuple[dict[str, int], int]]:
    """Pots in order, neighbours pushed to the same players merged (PokerKit merges the pots of
    the same players once the losing hands are killed), with how many pots each merges."""
    merged: list[tuple[dict[str, int], int]] = []
    for pot in pots:
        if merged and set(merged[-1][0]) == set(pot):
            total, count = merged[-1]
            merged[-1] = ({p: total[p] + pot[p] for p in total}, count + 1)
        else:
            merged.append((dict(pot), 1))
    return merged


def _odd_chips(ours: list[dict[str, int]], theirs: list[dict[str, int]]) -> dict[str, int] | None:
    """Each player's difference when the pots differ only by where odd chips went (§1.4 splits
    every side pot and gives odd chips one each in its order; PokerKit splits merged pots and
    gives the remainder to the first player), else None."""
    a, b = _merged(ours), _merged(theirs)
    if len(a) != len(b):
        return None
    diff: Counter[str] = Counter()
    for (mine, m), (other, n) in zip(a, b, strict=True):
        if set(mine) != set(other) or sum(mine.values()) != sum(other.values()):
            return None
        # PokerKit may give a tie's whole remainder, up to a chip less than the winners, to one.
        most = 100 * (m + n) * max(1, len(mine) - 1)
        if mine != other and (len(mine) < 2 or any(abs(mine[p] - other[p]) > most for p in mine)):
            return None
        diff.update({p: mine[p] - other[p] for p in mine})
    return {p: d for p, d in diff.items() if d}


def compare(played: list[Played], folder: Path) -> Comparison:
    """Ingest PokerKit's histories, audit them, and compare every hand with PokerKit."""
    by_code: defaultdict[str, list[Played]] = defaultdict(list)
    for hand in played:
        by_code[hand.code].append(hand)
    paths = []
    for code, hands in by_code.items():
        path = folder / f"{code.replace('/', '')}.phhs"
        path.write_text("\n\n".join(f"[{k}]\n{h.text}" for k, h in enumerate(hands, 1)) + "\n")
        paths.append(path)
    result = Comparison()
    with Store(folder / "agreement.duckdb") as store:
        summary = ingest(paths, store)
        result.problems += [Disagreement(f"{r.path}:{r.line}", f"rejected: {r.error}")
                            for r in summary.rejects]
        findings = audit(store).findings
        stacks: defaultdict[str, dict[str, int]] = defaultdict(dict)
        for hand_id, player, ending in _rows(store, "SELECT hand_id, player, ending_stack FROM seats"):
            stacks[hand_id][player] = round(ending * 100)
        won: defaultdict[str, defaultdict[int, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
        for hand_id, pot, player, amount in _rows(store, "SELECT hand_id, pot, player, amount FROM awards "
                                                         "WHERE origin = 'computed' AND amount > 0"):
            won[hand_id][pot][player] += round(amount * 100)
    result.findings = Counter(f.code.name for f in findings)
    result.problems += [Disagreement(f.hand_id, f"{f.code.name}: {f.message}")
                        for f in findings if f.severity == "error"]
    for hand in played:
        labels = [f"p{i}" for i in range(1, len(hand.stacks) + 1)]
        theirs = {p: s * 100 + hand.pokerkit_fix.get(p, 0) for p, s in zip(labels, hand.stacks, strict=True)}
        if hand.pokerkit_fix:
            result.lowless.append(hand.name)
        mine = stacks.get(hand.name, {})
        ours = [dict(won[hand.name][k]) for k in sorted(won[hand.name])]
        pots = hand.pots
        odd = _odd_chips(ours, pots) if pots and ours != pots else {}
        if odd is None:
            result.problems.append(Disagreement(hand.name, f"pots {ours}, PokerKit {pots}"))
        elif {p: mine.get(p, 0) - theirs[p] for p in labels if mine.get(p, 0) != theirs[p]} != odd:
            result.problems.append(Disagreement(hand.name, f"final stacks {mine}, PokerKit {theirs}"))
        elif odd:
            result.odd_chips.append(hand.name)
    return result


def hands(codes: tuple[str, ...], count: int, seed: int) -> Iterator[Played]:
    for code in codes:
        rng = random.Random(f"{seed}-{code}")
        for k in range(count):
            yield play_hand(code, rng, f"{code.replace('/', '')}-{k}")


# ---- the tests ------------------------------------------------------------------------------

def test_quick_agreement(tmp_path: Path) -> None:
    played = list(hands(tuple(PHH_VARIANTS), QUICK_HANDS, seed=2025))
    result = compare(played, tmp_path)
    assert result.problems == []
    # The comparison covered what it is for: showdowns with side pots, all-ins, rebuilt stubs.
    assert sum(1 for h in played if h.pots) > len(played) // 5
    assert sum(1 for h in played if len(h.pots) > 1) > 20
    texts = [h.text for h in played if h.code in ("F2L3D", "FB")]
    assert any(a.kind == "reshuffle" for t in texts for a in parse_phh(t).actions)


def test_pokerkit_histories_round_trip() -> None:
    """Import, export, import: PokerKit's own histories come back as the same hands, and each
    prints in the native format (draws beside their discards, reshuffles before them)."""
    for hand in hands(tuple(PHH_VARIANTS), 20, seed=99):
        read = parse_phh(hand.text)
        assert parse_phh(hand_to_phh(read)) == read, hand.name
        write_hand(read)


@pytest.mark.slow
@pytest.mark.parametrize("code", list(PHH_VARIANTS))
def test_slow_agreement(code: str, tmp_path: Path) -> None:
    played = list(hands((code,), SLOW_HANDS, seed=7))
    result = compare(played, tmp_path)
    print(f"\n{code}: {len(played)} hands, {sum(1 for h in played if h.pots)} showdowns compared pot by pot, "
          f"{len(result.problems)} disagreements, {len(result.odd_chips)} odd-chip differences, "
          f"{len(result.lowless)} lowless low halves; findings {dict(result.findings)}")
    assert result.problems == [], f"{len(result.problems)} disagreements, first: {result.problems[:5]}"


# ---- the documented differences (docs/interop.md): PokerKit accepts each hand, the rules here differ

def pokerkit_stacks(text: str) -> list[int]:
    """PokerKit's stacks after playing a PHH history (it raises if it does not accept one)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = iter(pokerkit.HandHistory.loads(text))
    return [s * 100 for s in state.stacks]


def phh(code: str, stacks: list[int], actions: list[str], blinds: str = "[1, 2, 0]", antes: str = "") -> str:
    sizes = "small_bet = 2\nbig_bet = 4\n" if code in LIMIT_CODES else "min_bet = 2\n"
    forced = "bring_in = 1\n" + sizes if code in STUD_CODES else f"blinds_or_straddles = {blinds}\n{sizes}"
    quoted = ", ".join(f'"{a}"' for a in actions)
    return (f'variant = "{code}"\nantes = {antes or [0] * len(stacks)}\n{forced}'
            f"starting_stacks = {stacks}\nactions = [{quoted}]\n")


def codes_of(text: str) -> set[str]:
    return {f.code.name for f in replay_hand(parse_phh(text)).findings}


def test_pokerkit_allows_a_fourth_raise_before_the_flop() -> None:
    text = phh("FT", [100, 100, 100], ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 4", "p1 cbr 6",
                                        "p2 cbr 8", "p3 cbr 10", "p1 f", "p2 f"])
    pokerkit_stacks(text)
    assert "RAISE_CAP_EXCEEDED" in codes_of(text)  # §1.1: a bet (the blind) and three raises


def test_pokerkit_plays_omaha_hi_lo_pot_limit() -> None:
    text = phh("FO/8", [100, 100, 100], ["d dh p1 ????????", "d dh p2 ????????", "d dh p3 ????????",
                                          "p3 cbr 7", "p1 f", "p2 f"])
    pokerkit_stacks(text)  # a pot-sized raise in "fixed-limit" Omaha Hi-Lo
    assert "WRONG_LIMIT_BET" in codes_of(text)


def test_a_raise_over_a_straddle() -> None:
    text = phh("NT", [100, 100, 100, 100], ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????",
                                             "p4 cbr 6", "p1 f", "p2 f", "p3 f"], blinds="[1, 2, 4, 0]")
    pokerkit_stacks(text)  # PokerKit: at least the big blind over the straddle
    assert "RAISE_BELOW_MINIMUM" in codes_of(text)  # §1.2: the size of the last wager, the straddle


def test_a_limit_raise_after_a_short_all_in() -> None:
    text = phh("FT", [200, 200, 200, 24], ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????",
                                            "p3 cbr 20", "p4 cbr 24", "p1 cbr 34", "p2 f", "p3 f"],
               blinds="[5, 10, 0, 0]").replace("small_bet = 2\nbig_bet = 4", "small_bet = 10\nbig_bet = 20")
    pokerkit_stacks(text)  # PokerKit: a bet over the all-in; §1.1: over the last full bet, to 30
    assert "WRONG_LIMIT_BET" in codes_of(text)


def test_a_check_after_everyone_else_folded_or_is_all_in() -> None:
    text = phh("NT", [100, 100, 20], ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 20", "p1 cc",
                                       "p2 cc", "d db 2c7dJs", "p1 f", "p2 cc"])
    pokerkit_stacks(text)  # p1 folds when checking was free; PokerKit still has p2 check
    assert "OUT_OF_TURN" in codes_of(text)


def test_a_big_blind_ante_short_handed() -> None:
    text = phh("NT", [100, 100, 100], ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"],
               antes="[0, 2, 0]")
    pokerkit_stacks(text)  # PokerKit: the whole big blind ante with three players
    assert "WRONG_ANTE" in codes_of(text)  # §1.5 (barge-2025): the small blind's worth at four or fewer


def test_the_odd_chip_in_stud_goes_to_the_highest_card() -> None:
    text = phh("F7S", [50, 50, 50], [
        "d dh p1 AcKd2c", "d dh p2 AsKs9d", "d dh p3 8h8sJd", "p1 pb", "p2 cc", "p3 f",
        "d dh p1 Qh", "d dh p2 Qd", "p2 cc", "p1 cc", "d dh p1 Jc", "d dh p2 Jh", "p2 cc", "p1 cc",
        "d dh p1 Tc", "d dh p2 Th", "p2 cc", "p1 cc", "d dh p1 3d", "d dh p2 4d", "p2 cc", "p1 cc",
        "p2 sm AsKs9dQdJhTh4d", "p1 sm AcKd2cQhJcTc3d"], antes="[1, 1, 1]")
    assert pokerkit_stacks(text) == [5100, 5000, 4900]  # PokerKit: the first player
    outcome = replay_hand(parse_phh(text))
    assert outcome.findings == [] and outcome.ending == {"p1": 5000, "p2": 5100, "p3": 4900}  # §1.4: A♠


def test_a_low_half_nobody_in_the_pot_qualifies_for() -> None:
    text = phh("FO/8", [8, 16, 100, 100], [
        "d dh p1 As4d9c9d", "d dh p2 KdKsJhJd", "d dh p3 QhQdTdTh", "d dh p4 JsJcTcTs",
        "p3 cc", "p4 cc", "p1 cc", "p2 cc", "d db 2c3d7h", "p1 cbr 2", "p2 cc", "p3 cc", "p4 cc",
        "d db Kc", "p1 cbr 4", "p2 cbr 8", "p3 cc", "p4 cc", "d db Qs", "p2 cbr 4", "p3 cbr 8", "p4 cc",
        "p1 sm As4d9c9d", "p2 sm KdKsJhJd", "p3 sm QhQdTdTh", "p4 sm JsJcTcTs"], blinds="[1, 2, 0, 0]")
    assert pokerkit_stacks(text) == [1600, 3400, 9400, 8000]  # p3 shares side pot 1's low half
    outcome = replay_hand(parse_phh(text))
    assert outcome.findings == [] and outcome.ending == {"p1": 1600, "p2": 4000, "p3": 8800, "p4": 8000}


def test_a_minimum_bet_other_than_the_big_blind() -> None:
    text = phh("NT", [100, 100], ["d dh p1 ????", "d dh p2 ????", "p2 cc", "p1 cc", "d db 2c7dJs", "p1 cbr 1",
                                   "p2 f"], blinds="[1, 2]").replace("min_bet = 2", "min_bet = 1")
    pokerkit_stacks(text)  # PokerKit: bets from min_bet
    hand = parse_phh(text)
    assert "min_bet = 1" in next(a.detail or "" for a in hand.actions if a.kind == "note")
    assert "BET_BELOW_MINIMUM" in codes_of(text)  # §1.2: the minimum bet is the big blind
