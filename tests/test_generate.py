"""`barge generate`: random legal hands of every variant that the audit finds nothing wrong with,
the same for the same seed, and labelled rule breaks that the audit does find."""

from __future__ import annotations

import tomllib
from collections import Counter
from contextlib import nullcontext
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from random import Random

import duckdb
import pytest

from evaluator.findings import CODES
from evaluator.legal import LiveHand
from evaluator.replay import replay, replay_hand
from evaluator.variants import VARIANTS
from grammar.barge_parser import parse_hand
from grammar.phh_parser import parse_phh, split_phh
from pipeline.cli import main
from pipeline.generate import breaks
from pipeline.generate.output import make_hand
from pipeline.generate.play import Mistake, play
from pipeline.generate.world import hand_setup
from pipeline.model import Action
from pipeline.phh_writer import PHH_VARIANTS
from pipeline.sources import read_blocks
from pipeline.writer import write_hand
from tests.home_samples import home_games
from tests.rulebook import hand_text, rule_codes

HANDS_EACH = 12


def read_hands(path: Path) -> list[str]:
    return [block.text for block in read_blocks(path)]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_plays_hands_that_replay_with_no_findings(variant: str) -> None:
    for index in range(HANDS_EACH):
        hand, broken = make_hand(5, variant, index)
        assert broken is None
        text = write_hand(hand)
        again = parse_hand(text)
        assert again == hand, f"{hand.hand_id} does not read back as written"
        outcome = replay_hand(again)
        assert outcome.findings == [], f"{text}\n{[(f.code.name, f.message) for f in outcome.findings]}"
        # The awards are the engine's own: what the rules push to each player, pot by pot.
        assert outcome.awards is not None
        assert Counter((a.player, a.pot, a.amount) for a in again.awards) == Counter(
            (s.player, s.pot, s.amount) for s in outcome.awards if s.amount)
        assert outcome.ending == {f.player: f.amount for f in again.final_stacks}
        assert again.total_pot == sum(a.amount for a in again.awards)


def test_hands_use_the_games_procedures() -> None:
    """Over a few hundred hands every kind of step the catalog asks for is played somewhere."""
    kinds: Counter[str] = Counter()
    structures: set[tuple[str, str]] = set()
    for variant in VARIANTS:
        for index in range(6):
            hand = make_hand(2, variant, index)[0]
            kinds.update(a.kind for a in hand.actions)
            kinds.update(a.detail for a in hand.actions if a.kind in ("board", "post", "ante") and a.detail)
            structures.add((variant, hand.structure))
    for kind in ("bring_in", "complete", "bet", "raise", "call", "check", "fold", "discard", "draw",
                 "stand_pat", "split", "expose", "roll", "choose", "remove_board", "show", "muck",
                 "return", "small_blind", "big_blind", "ante", "top", "turn", "river", "2", "3"):
        assert kinds[kind], f"no {kind} in the generated hands"
    assert {("omaha", "pot-limit"), ("omaha", "limit"), ("texas_holdem", "no-limit")} <= structures


def test_the_table_moves_and_players_come_back() -> None:
    hands = [make_hand(3, "texas_holdem", i)[0] for i in range(120)]
    assert len({h.hand_id for h in hands}) == 120
    times = [h.started_at for h in hands]
    assert all(a and b and a < b for a, b in pairwise(times))
    players = Counter(s.player for h in hands for s in h.seats)
    assert 20 <= len(players) <= 60 and max(players.values()) >= 10
    assert len({h.event for h in hands}) >= 2 and len({h.table_name for h in hands}) >= 4
    by_table: dict[str | None, list[int | None]] = {}
    for hand in hands:
        by_table.setdefault(hand.table_name, []).append(hand.button_seat)
    assert all(len(set(buttons)) > 1 for buttons in by_table.values())  # the button moves
    stacks = sorted(s.stack / (h.stakes.big_blind or 1) for h in hands for s in h.seats)
    assert stacks[0] < 20 and stacks[len(stacks) // 2] > 20


def test_a_tournament_tables_levels_never_go_down() -> None:
    # Enough hands for every table of the variant to play several sessions (24 hands each): a
    # table's level rises between sessions and never falls (LEVEL_DECREASED on the generator's own
    # hands was the bug).
    hands = [make_hand(3, "razz", i)[0] for i in range(400)]
    by_table: dict[tuple[str | None, str | None], list[int]] = {}
    for hand in hands:
        if hand.tournament is not None:
            level = int((hand.level or "0").split()[0])
            by_table.setdefault((hand.tournament, hand.table_name), []).append(level)
    assert max(len(levels) for levels in by_table.values()) > 48
    assert all(a <= b for levels in by_table.values() for a, b in pairwise(levels))
    assert any(levels[0] < levels[-1] for levels in by_table.values())


def test_the_same_seed_writes_the_same_files_and_another_seed_others(tmp_path: Path) -> None:
    args = ["generate", "--variant", "all", "--hands", "3", "--jobs", "1"]
    assert main([*args, "--seed", "11", str(tmp_path / "a")]) == 0
    assert main([*args, "--seed", "11", "--jobs", "2", str(tmp_path / "b")]) == 0
    assert main([*args, "--seed", "12", str(tmp_path / "c")]) == 0
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(files) == len(VARIANTS)
    for name in files:
        first = (tmp_path / "a" / name).read_bytes()
        assert first == (tmp_path / "b" / name).read_bytes()
        assert first != (tmp_path / "c" / name).read_bytes()


def test_generated_files_ingest_with_no_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The Done-when is 100 hands of each variant; a smaller run keeps the test fast.
    out, db = tmp_path / "out", tmp_path / "gen.duckdb"
    assert main(["generate", "--variant", "all", "--hands", "4", "--seed", "1", "--jobs", "1", str(out)]) == 0
    assert "236 hands of 59 variants" in capsys.readouterr().out
    assert main(["ingest", str(out), "--db", str(db), "--jobs", "1"]) == 0
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("select count(*), count(distinct variant) from hands").fetchone() == (236, 59)
        assert con.execute("select count(*) from rejects").fetchone() == (0,)
        assert con.execute("select code, count(*) from findings group by code").fetchall() == []


def test_breaks_are_found_by_the_audit(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["generate", "--variant", "all", "--hands", "3", "--seed", "4", "--break-rate", "0.5",
                 "--jobs", "1", str(out)]) == 0
    rows = breaks.read_manifest(out / breaks.MANIFEST)
    assert 40 <= len(rows) <= 130  # half of 177 hands, give or take
    hands = {parse_hand(t).hand_id: parse_hand(t) for p in out.glob("*.bhh") for t in read_hands(p)}
    broken = {row.hand_id for row in rows}
    for row in rows:
        codes = {f.code.name for f in replay(hands[row.hand_id])}
        assert row.code in codes, f"{row.kind}: {row.code} not among {sorted(codes)} for {row.hand_id}"
    for hand_id, hand in hands.items():
        if hand_id not in broken:
            assert replay(hand) == []


# Where each mistake made while playing gets its chance.
_PLACES = {
    "wrong_bring_in": "stud", "wrong_ante": "razz", "wrong_blind": "omaha_hi_lo",
    "bet_over_pot_limit": "omaha", "bet_below_minimum": "texas_holdem", "raise_below_minimum": "texas_holdem",
    "wrong_limit_bet": "texas_holdem_hi_lo", "wrong_discard_count": "irish", "wrong_dice": "binglaha",
    "wrong_board_removal": "oklahoma", "wrong_game_choice": "paradise_road_pickem",
    "duplicate_card": "chowaha", "low_did_not_qualify": "omaha_hi_lo", "wrong_odd_chip": "omaha_hi_lo",
    "wrong_burn": "piranha",
}
_HOME_PLACES = frozenset({"piranha"})  # games of home_games/, loaded for the test


@pytest.mark.parametrize("kind", list(breaks.KINDS))
def test_each_kind_of_break_is_made_and_found(kind: str) -> None:
    variant = _PLACES.get(kind, "texas_holdem")
    with home_games() if variant in _HOME_PLACES else nullcontext():
        _make_and_find(kind, variant)


def _make_and_find(kind: str, variant: str) -> None:
    for index in range(300):
        setup = hand_setup(9, variant, index)
        if kind not in breaks.possible(setup.hand) and kind not in breaks.RECORD_KINDS:
            continue
        rng, mistake = Random(index), Mistake(kind)
        hand, row = breaks.finish(play(setup, rng, mistake), mistake, rng)
        if row.kind != kind:
            continue  # no chance for this mistake in this hand
        codes = [f.code.name for f in replay(parse_hand(write_hand(hand)))]
        assert breaks.KINDS[kind] in codes, f"{kind}: {codes}\n{write_hand(hand)}"
        return
    pytest.fail(f"no chance to make {kind} in 300 hands of {variant}")


def test_cli_errors_are_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(tmp_path / "out")
    assert main(["generate", "--variant", "holdem", folder]) == 2
    assert "unknown variant 'holdem'" in capsys.readouterr().err
    assert main(["generate", "--hands", "0", folder]) == 2
    assert main(["generate", "--break-rate", "1.5", folder]) == 2
    assert "--break-rate" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["generate", "--hands", "many", folder])
    assert exit_info.value.code == 2
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    assert main(["generate", "--variant", "razz", "--hands", "2", str(blocker / "out")]) == 3
    assert "cannot write" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_phh_output_holds_only_the_phh_variants(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "phh"
    assert main(["generate", "--format", "phh", "--hands", "3", "--seed", "2", "--jobs", "1", str(out)]) == 0
    printed = capsys.readouterr().out
    written = {p.stem for p in out.glob("*.phhs")}
    assert written == {variant for variant, _ in PHH_VARIANTS.values()}
    assert "skipped" in printed
    for path in out.glob("*.phhs"):
        document = tomllib.loads(path.read_text(encoding="utf-8"))
        assert sorted(document, key=int) == ["1", "2", "3"]
        blocks = list(split_phh(path.read_text(encoding="utf-8").splitlines()))
        assert len(blocks) == 3
        for block in blocks:
            hand = parse_phh(block.text)
            assert hand.variant == path.stem and replay(hand) == []


# ---- the legal moves the generator plays are the engine's --------------------------------------

def _live(header: str, seats: list[tuple[str, int]], lines: list[str]) -> LiveHand:
    hand = parse_hand(hand_text(header, seats, lines))
    return LiveHand(replace(hand, awards=()))


def test_pot_limit_maximum_is_the_pot_after_the_call() -> None:
    # §1.3: blinds 100/200, folded to the button, who may raise the pot: 700 to go.
    table = _live("omaha pot-limit (blinds 100/200)", [("A", 10000), ("B", 10000), ("C", 10000)],
                  ["A: posts small blind 100", "B: posts big blind 200", "*** HOLE CARDS ***"])
    moves = table.moves(table.to_act() or "")
    assert (moves.player, moves.call, moves.low, moves.high) == ("C", 20000, 40000, 70000)


def test_no_limit_minimum_raise_is_the_last_raise() -> None:
    # §1.2: the button raises to 500; the small blind may raise to 800 or more, up to all-in.
    table = _live("texas_holdem no-limit (blinds 100/200)", [("SB", 5000), ("BB", 5000), ("BTN", 5000)],
                  ["SB: posts small blind 100", "BB: posts big blind 200", "*** HOLE CARDS ***",
                   "BTN: raises 300 to 500"])
    moves = table.moves(table.to_act() or "")
    assert (moves.player, moves.owed, moves.low, moves.high) == ("SB", 40000, 80000, 500000)


def test_limit_cap_and_short_all_in_do_not_reopen() -> None:
    lines = ["A: posts small blind 50", "B: posts big blind 100", "*** HOLE CARDS ***",
             "C: raises 100 to 200", "A: raises 100 to 300", "B: raises 100 to 400"]
    seats = [("A", 5000), ("B", 5000), ("C", 5000)]
    table = _live("texas_holdem limit (blinds 50/100, bets 100/200)", seats, lines)
    capped = table.moves(table.to_act() or "")
    assert capped.player == "C" and capped.wager is None and capped.call == 20000  # a bet and 3 raises
    # §1.1: an all-in of less than half a bet does not reopen the betting for who already acted;
    # who has not acted yet may complete the bet.
    short = ["A: posts small blind 50", "B: posts big blind 100", "*** HOLE CARDS ***", "C: calls 100",
             "A: calls 50", "B: checks", "*** FLOP *** [2c 7d 9h]", "A: bets 100",
             "B: raises 40 to 140 and is all-in"]
    table = _live("texas_holdem limit (blinds 50/100, bets 100/200)", [("A", 5000), ("B", 240), ("C", 5000)],
                  short)
    moves = table.moves(table.to_act() or "")
    assert (moves.player, moves.wager, moves.sizes) == ("C", "complete", (20000,))
    table.apply(Action("flop", "call", "C", 14000))
    after = table.moves(table.to_act() or "")
    assert (after.player, after.wager, after.call) == ("A", None, 4000)


def test_a_completion_needs_a_bring_in_or_a_short_wager() -> None:
    # §1.1: a player may complete a bring-in or an all-in of less than half a bet; facing a full
    # big blind, or nothing, there is nothing to complete (the generator writes a raise or a bet).
    def codes(lines: list[str]) -> list[str]:
        seats = [("A", 5000), ("B", 5000), ("C", 5000)]
        header = "texas_holdem limit (blinds 50/100, bets 100/200)"
        return rule_codes(hand_text(header, seats, lines, button=3))

    blinds = ["A: posts small blind 50", "B: posts big blind 100", "*** HOLE CARDS ***"]
    assert codes([*blinds, "C: completes to 200"]) == ["ILLEGAL_ACTION"]
    assert codes([*blinds, "C: raises 100 to 200"]) == []
    flop = [*blinds, "C: calls 100", "A: calls 50", "B: checks", "*** FLOP *** [2c 7d 9h]"]
    assert codes([*flop, "A: completes to 100"]) == ["ILLEGAL_ACTION"]


def test_a_big_blind_all_in_for_the_ante_posts_no_blind() -> None:
    # §1.5 with the ante first (barge-2021): a big blind whose stack covers only the big blind
    # ante posts no blind; with the blind first (barge-2025) the same post is short of the blind.
    lines = ["A: posts small blind 100", "B: posts big blind ante 200 and is all-in", "*** HOLE CARDS ***",
             "Uncalled bet (100) returned to A"]
    header = "texas_holdem no-limit (blinds 100/200, big blind ante 200)"
    assert rule_codes(hand_text(header, [("A", 5000), ("B", 200)], lines, rules="barge-2021")) == []
    assert rule_codes(hand_text(header, [("A", 5000), ("B", 200)], lines)) != []


def test_oklahoma_cash_game_rule_settles() -> None:
    # §2.34: with every row removed nobody's hand plays; the settlement must not crash on it.
    for index in range(12):
        setup = hand_setup(1, "oklahoma", index)
        shell = replace(setup.hand, rules_profile="barge-2025", rules_options=(("oklahoma", "cash"),))
        hand = play(replace(setup, hand=shell), Random(index)).hand
        assert "REPLAY_STOPPED" not in {f.code.name for f in replay(hand)}


def test_every_code_of_the_manifest_is_a_finding_code() -> None:
    assert set(breaks.KINDS.values()) <= set(CODES)
