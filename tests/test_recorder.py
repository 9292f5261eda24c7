"""The guided hand recorder's state machine (dashboard.recording), without a browser: every game
recorded to the end with only what each step offers is a hand the audit finds nothing in, and a
deliberate mistake is marked with its finding as it is entered."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from dashboard import recording as rec
from evaluator.catalog import GAMES
from evaluator.replay import replay
from grammar.barge_parser import parse_hand
from pipeline.model import Award, Hand, Seat, Stakes

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def shell(variant: str, players: int = 4, structure: str | None = None, stack: int = 20_000) -> Hand:
    game = GAMES[variant]
    chosen = structure or game.structures[0]
    items = rec.stake_items(variant, chosen)
    stakes = rec.stakes_of({item: rec.EXAMPLE_STAKES[item] for item in items})
    seats = tuple(Seat(n + 1, NAMES[n], stack) for n in range(players))
    return rec.new_hand(f"rec-test-{variant}", variant, chosen, stakes, seats, 1, "Floor 1")


def offered(step: rec.Step, stub: list[str], rng: Random) -> rec.Answer:
    """One answer among those the step offers, chosen at random."""
    kind = step.kind
    if kind == rec.ACT:
        moves = step.moves
        assert moves is not None
        if moves.bring_in is not None:
            if moves.sizes and rng.random() < 0.3:
                return (rec.betting_action(step.street, moves, "complete", moves.sizes[0]),)
            return (rec.betting_action(step.street, moves, "bring_in", moves.bring_in),)
        kinds = [k for k, ok in (("check", moves.check and not moves.jam_only), ("fold", moves.owed > 0),
                                 ("call", moves.owed > 0 and moves.may_call)) if ok]
        totals = list(moves.sizes) or ([moves.low, moves.high] if moves.low <= moves.high else [])
        totals = [t for t in totals if t != moves.all_in or moves.can_wager_all_in]
        if moves.jam_only:
            totals = [moves.all_in] if moves.can_wager_all_in else []
        if moves.wager and totals and rng.random() < 0.3:
            return (rec.betting_action(step.street, moves, moves.wager, rng.choice(totals)),)
        weights = [0.1 if k == "fold" else 1.0 for k in kinds]
        return (rec.betting_action(step.street, moves, rng.choices(kinds, weights)[0]),)
    if kind in (rec.DEAL, rec.BOARD):
        return rec.answer(step, tuple(stub[:step.count]))
    if kind in (rec.DRAW, rec.DISCARD):
        count = rng.randint(step.fewest, step.most)
        thrown = tuple(rng.sample(step.cards, count))
        return rec.answer(step, thrown, tuple(stub[:count]))
    if kind == rec.SPLIT:
        return rec.answer(step, step.cards[:2])
    if kind == rec.EXPOSE:
        return rec.answer(step, step.cards[:1] if step.fewest or rng.random() < 0.3 else ())
    if kind == rec.CHOOSE:
        return rec.answer(step, (rng.choice(step.options),))
    if kind == rec.ROLL:
        return rec.answer(step, tuple(str(rng.randint(1, 6)) for _ in range(step.dice)))
    if kind == rec.REMOVE:
        return rec.answer(step, step.options)
    assert kind == rec.SHOW
    return rec.answer(step, ("show",))


def record(hand: Hand, seed: int) -> rec.Recorder:
    """The hand recorded to its pushes with answers the steps offer, each marked with nothing."""
    recorder = rec.Recorder(hand)
    shuffled = Random(seed)
    while recorder.step.kind != rec.PUSH:
        stub = recorder.stub
        shuffled.shuffle(stub)
        step = recorder.step
        assert recorder.enter(offered(step, stub, shuffled)) == (), (step, recorder.findings)
        assert len(recorder.entries) < 400, "the hand never ends"
    return recorder


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_every_game_recorded_with_what_is_offered_replays_clean(variant: str) -> None:
    for seed in range(3):
        recorder = record(shell(variant, players=2 + seed * 2), seed)
        assert recorder.push() == ()
        text = recorder.text()
        stored = parse_hand(text)
        assert stored == recorder.hand()
        assert replay(stored) == [], text
        assert sum(a.amount for a in stored.awards) == stored.total_pot


@pytest.mark.parametrize("form", rec.forms("texas_holdem", "no-limit"))
def test_every_form_of_a_hand_recorded_replays_clean(form: str) -> None:
    """BARGE 2025 §1.5 (big blind ante), §1.6 (bomb pot), §1.8 (jam-or-fold), and a straddle."""
    plain = shell("texas_holdem", players=6, structure="no-limit")
    multiple = rec.FORMS[form]
    stakes = rec.in_form(plain.stakes, form, None if multiple is None else multiple * 200)
    for seed in range(4):
        recorder = rec.Recorder(replace(plain, stakes=stakes), straddle=form == "straddle")
        shuffled = Random(seed)
        while recorder.step.kind != rec.PUSH:
            stub = recorder.stub
            shuffled.shuffle(stub)
            assert recorder.enter(offered(recorder.step, stub, shuffled)) == (), recorder.findings
        assert recorder.push() == ()
        assert replay(parse_hand(recorder.text())) == []
    details = {a.detail for a in recorder.hand().actions}
    assert {"big_blind_ante": "big_blind_ante" in details, "straddle": "straddle" in details,
            "bomb_pot": "small_blind" not in details}.get(form, True)


def test_the_first_step_is_the_first_deal_after_the_forced_bets() -> None:
    recorder = rec.Recorder(shell("texas_holdem", players=3, structure="no-limit"))
    posts = [(a.player, a.detail, a.amount) for a in recorder.hand().actions]
    assert posts == [("Bo", "small_blind", 100), ("Cy", "big_blind", 200)]  # §1.1: left of the button
    step = recorder.step
    assert (step.kind, step.player, step.detail, step.count) == (rec.DEAL, "Bo", "down", 2)


def test_betting_offers_the_engine_amounts() -> None:
    """BARGE 2025 §1.2: the minimum raise is the big blind; no-limit goes up to the stack."""
    recorder = rec.Recorder(shell("texas_holdem", players=3, structure="no-limit"))
    while recorder.step.kind != rec.ACT:
        recorder.enter(rec.answer(recorder.step, tuple(recorder.stub[:recorder.step.count])))
    moves = recorder.step.moves
    assert moves is not None and recorder.step.player == "Ann"
    assert (moves.call, moves.wager, moves.low, moves.high) == (200, "raise", 400, 20_000)


def test_an_illegal_raise_is_marked_with_its_finding() -> None:
    """BARGE 2025 §1.2: a raise below the minimum is entered on purpose and marked at once."""
    recorder = rec.Recorder(shell("texas_holdem", players=3, structure="no-limit"))
    while recorder.step.kind != rec.ACT:
        recorder.enter(rec.answer(recorder.step, tuple(recorder.stub[:recorder.step.count])))
    step = recorder.step
    assert step.moves is not None
    short = rec.betting_action(step.street, step.moves, "raise", 300)  # to 3 over a blind of 2
    assert not rec.is_legal(step.moves, short)
    marked = recorder.enter((short,))
    assert [f.code.name for f in marked] == ["RAISE_BELOW_MINIMUM"]
    assert "§1.2" in marked[0].rule
    assert recorder.marks[-1] == marked and recorder.step.kind == rec.ACT  # the hand goes on


def test_undo_takes_the_last_entry_back() -> None:
    recorder = rec.Recorder(shell("razz", players=3))
    first = recorder.step
    recorder.enter(rec.answer(first, tuple(recorder.stub[:first.count])))
    assert recorder.step != first
    recorder.undo()
    assert recorder.step == first and recorder.entries == [] and len(recorder.stub) == 52


def test_pushes_that_differ_from_the_rules_are_a_finding() -> None:
    """BARGE 2025 §1.4: the dealer pushing the pot to the wrong player is a WRONG_AWARD."""
    recorder = record(shell("texas_holdem", players=2), 5)
    computed = recorder.computed_awards()
    total = sum(a.amount for a in computed)
    loser = next(n for n in ("Ann", "Bo") if n not in {a.player for a in computed})
    found = recorder.push((Award(loser, total),))
    assert "WRONG_AWARD" in {f.code.name for f in found}, found
    assert f"{loser} collected" in recorder.text()  # the record keeps what the dealer did


def test_a_hand_that_cannot_be_played_is_refused_with_a_reason() -> None:
    stakes = Stakes(small_blind=100, big_blind=200)
    with pytest.raises(rec.RecordingError, match="at least two players"):
        rec.new_hand("x", "texas_holdem", "no-limit", stakes, (Seat(1, "Ann", 100),), 1, "T")
    with pytest.raises(rec.RecordingError, match="not pot-limit"):
        rec.new_hand("x", "razz", "pot-limit", stakes, (Seat(1, "A", 1), Seat(2, "B", 1)), None, "T")
    with pytest.raises(rec.RecordingError, match="button"):
        rec.new_hand("x", "texas_holdem", "no-limit", stakes, (Seat(1, "A", 1), Seat(2, "B", 1)), 5, "T")
    with pytest.raises(rec.RecordingError, match="native format"):
        rec.new_hand("x y", "texas_holdem", "no-limit", stakes, (Seat(1, "A", 1), Seat(2, "B", 1)), 1, "T")
    with pytest.raises(rec.RecordingError, match="native format"):
        rec.new_hand("x", "texas_holdem", "no-limit", stakes, (Seat(1, "A:1", 1), Seat(2, "B", 1)), 1, "T")
    with pytest.raises(rec.RecordingError, match="native format"):
        rec.new_hand("x", "texas_holdem", "no-limit", stakes, (Seat(1, "Dealer", 1), Seat(2, "B", 1)), 1, "T")


def test_a_player_sitting_out_is_not_dealt_in() -> None:
    hand = shell("razz", players=4)
    seats = (replace(hand.seats[0], sitting_out=True), *hand.seats[1:])
    recorder = record(replace(hand, seats=seats), 7)
    assert recorder.push() == ()
    assert all(a.player != "Ann" for a in recorder.hand().actions)


def test_an_uncalled_bet_goes_back_without_being_asked() -> None:
    """BARGE 2025 §1.1: the uncalled part of the top wager is returned: a dealer chore with one
    answer, entered by the recorder itself, not a step the director answers."""
    recorder = rec.Recorder(shell("texas_holdem", players=3, structure="no-limit"))
    while recorder.step.kind != rec.ACT:
        recorder.enter(rec.answer(recorder.step, tuple(recorder.stub[:recorder.step.count])))
    for kind, total in (("raise", 1000), ("fold", 0), ("fold", 0)):
        step = recorder.step
        assert step.kind == rec.ACT and step.moves is not None
        assert recorder.enter((rec.betting_action(step.street, step.moves, kind, total),)) == ()
    last = recorder.hand().actions[-1]
    assert (last.kind, last.player, last.amount) == ("return", "Ann", 800)
    assert recorder.step.kind == rec.PUSH and len(recorder.entries) == 6  # 3 deals, 3 decisions
