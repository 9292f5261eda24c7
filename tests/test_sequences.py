"""The checks across a table's hands (evaluator/sequences.py, docs/rules-engine.md "Across hands"):
the button under the card rooms' dead and moving button (Cardroom procedures, Poker Tournament
Rules and Rules for Using Blinds) and BARGE §1.12's win the button, stacks carried, levels rising,
seats, two tables, and the gaps where the record says nothing."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import duckdb
import pytest

import pipeline.audit
from evaluator.findings import SEQUENCE_CODES
from evaluator.sequences import TableHand, check, check_all, sequences
from grammar.barge_parser import parse_hand
from pipeline.cli import EXIT_IO, main
from pipeline.model import Action, Award, Hand, Seat, Stakes
from pipeline.store import Store
from tests.conftest import SAMPLES, SHARED

TOURNAMENT_RULES = "Cardroom procedures, Poker Tournament Rules"
BLIND_RULES = "Cardroom procedures, Rules for Using Blinds"
START = datetime(2025, 8, 20, 10, 0)
BLINDS = Stakes(50, 100)


def hand(number: int, button: int | None, seats: dict[int, tuple[str, int]], *, small: int | None = None,
         big: int | None = None, variant: str = "texas_holdem", table: str = "7", fmt: str = "barge",
         tournament: str | None = "3", level: str | None = "2 (50/100)", winners: tuple[str, ...] = (),
         notes: tuple[str, ...] = (), ruling: bool = False, options: tuple[tuple[str, str], ...] = (),
         hand_id: str | None = None, minute: int | None = None, stakes: Stakes = BLINDS,
         structure: str = "no-limit") -> TableHand:
    """A hand of table `table`, numbered as a native id numbers its table's hands; only what the
    checks across hands read (seats, blinds, notes, the main pot's winners)."""
    names = {n: name for n, (name, _) in seats.items()}
    actions = [Action("hole_cards", "post", names[s], 50 if d == "small_blind" else 100, detail=d)
               for s, d in ((small, "small_blind"), (big, "big_blind")) if s is not None]
    actions += [Action("hole_cards", "note", None, detail=text) for text in notes]
    if ruling:
        actions.append(Action("hole_cards", "ruling", None, detail="seat change approved"))
    h = Hand(hand_id or f"B25-E03-T{table}-{number:04d}", variant, structure, stakes,
             tuple(Seat(n, name, stack * 100) for n, (name, stack) in sorted(seats.items())), tuple(actions),
             tuple(Award(w, 100) for w in winners), started_at=START + timedelta(minutes=minute or number),
             event="BARGE 2025 Event #3", tournament=tournament, level=level, table_name=table,
             button_seat=button, rules_options=options, site="PokerStars" if fmt == "pokerstars" else None)
    return TableHand(h, fmt, {name: stack * 100 for name, stack in seats.values()})


FIVE = {1: ("Ann", 5000), 2: ("Bo", 5000), 3: ("Cy", 5000), 4: ("Di", 5000), 5: ("Ed", 5000)}
WITHOUT_CY = {n: p for n, p in FIVE.items() if n != 3}


def codes(table: list[TableHand]) -> list[str]:
    return [f.code.name for f in check(table)]


def test_the_dead_button_after_a_bust_out() -> None:
    # Poker Tournament Rules: "The dealer button remains in position until the appropriate blinds are
    # taken. Players must post all blinds every round." Cy busts in the big blind: the next hand has
    # a dead small blind (Di posts the big blind, the button on Bo, the last small blind); the one
    # after it a dead button on Cy's empty seat.
    first = hand(1, 1, FIVE, small=2, big=3)
    second = hand(2, 2, WITHOUT_CY, big=4)
    third = hand(3, 3, WITHOUT_CY, small=4, big=5)
    fourth = hand(4, 4, WITHOUT_CY, small=5, big=1)
    assert codes([first, second, third, fourth]) == []
    moved_on = hand(2, 4, WITHOUT_CY, small=5, big=1)  # the button moved past the blinds owed
    [finding] = check([first, moved_on])
    assert finding.code.name == "WRONG_BUTTON" and finding.rule == TOURNAMENT_RULES
    assert finding.hand_id == moved_on.hand.hand_id and "seat 4 is due it" in finding.message


def test_heads_up_the_small_blind_is_on_the_button() -> None:
    # Poker Tournament Rules: "In heads-up play with two blinds, the small blind is on the button."
    # Three players, Cy on the button busts: Ann, after Bo's big blind, is due the big blind now, and
    # Bo has the button and posts the small blind.
    three = {1: ("Ann", 5000), 2: ("Bo", 5000), 3: ("Cy", 5000)}
    two = {1: ("Ann", 5000), 2: ("Bo", 5000)}
    first = hand(1, 3, three, small=1, big=2)
    assert codes([first, hand(2, 2, two, small=2, big=1)]) == []
    assert codes([first, hand(2, 1, two, small=1, big=2)]) == ["WRONG_BUTTON"]  # Bo's big blind twice


def test_a_cash_game_takes_the_moving_or_the_dead_button() -> None:
    # Rules for Using Blinds: the room designates the moving or the dead button; either is right.
    first = hand(1, 1, FIVE, small=2, big=3, tournament=None)
    moving = hand(2, 2, WITHOUT_CY, small=4, big=5, tournament=None)  # blinds follow the button
    dead = hand(2, 2, WITHOUT_CY, big=4, tournament=None)
    assert codes([first, moving]) == codes([first, dead]) == []
    [finding] = check([first, hand(2, 4, WITHOUT_CY, small=5, big=1, tournament=None)])
    assert (finding.code.name, finding.rule) == ("WRONG_BUTTON", BLIND_RULES)


def test_win_the_button_goes_to_the_winner_and_a_chop_to_the_worst_position() -> None:
    # BARGE 2025 §1.12: the winner receives the button; of a chopped pot, the winner in the worst
    # position (the first clockwise from the button, §1.4).
    rules = (("win_the_button", "yes"),)
    first = hand(1, 1, FIVE, small=2, big=3, winners=("Di",))
    assert codes([first, hand(2, 4, FIVE, small=5, big=1, options=rules)]) == []
    [finding] = check([first, hand(2, 2, FIVE, small=3, big=4, options=rules)])
    assert (finding.code.name, finding.rule) == ("WRONG_BUTTON", "BARGE 2025 §1.12")
    chop = hand(1, 3, FIVE, small=4, big=5, winners=("Ed", "Bo"))
    assert codes([chop, hand(2, 5, FIVE, small=1, big=2, options=rules)]) == []
    assert codes([chop, hand(2, 2, FIVE, small=3, big=4, options=rules)]) == ["WRONG_BUTTON"]


def test_stud_has_no_button_to_check() -> None:
    players = {1: ("Ann", 5000), 2: ("Bo", 5000), 3: ("Cy", 5000)}
    assert codes([hand(1, None, players, variant="stud"), hand(2, None, players, variant="stud")]) == []


def test_stacks_carry_over_unless_a_rebuy_is_recorded() -> None:
    first = hand(1, 1, FIVE, small=2, big=3)
    richer = {**FIVE, 4: ("Di", 5600)}
    [finding] = check([first, hand(2, 2, richer, small=3, big=4)])
    assert finding.code.name == "STACK_NOT_CARRIED" and finding.rule == TOURNAMENT_RULES
    assert "Di starts with 5,600" in finding.message and "+600" in finding.message
    rebuy = hand(1, 1, FIVE, small=2, big=3, notes=("Di re-buys and receives 600 chips for 2 FPPs",))
    assert codes([rebuy, hand(2, 2, richer, small=3, big=4)]) == []
    # A cash game's player may buy chips between hands: no stack check there.
    cash = [hand(1, 1, FIVE, small=2, big=3, tournament=None),
            hand(2, 2, richer, small=3, big=4, tournament=None)]
    assert codes(cash) == []


def test_a_gap_in_a_native_tables_numbers_stops_the_checks() -> None:
    first = hand(1, 1, FIVE, small=2, big=3)
    later = hand(4, 5, {**FIVE, 4: ("Di", 900)}, small=1, big=2)
    [finding] = check([first, later])
    assert (finding.code.name, finding.severity) == ("HANDS_MISSING", "info")
    assert finding.message.startswith("2 hands of table 7")


def test_a_sites_number_gap_is_no_missing_hand_but_chips_passed_between_players_are() -> None:
    # PokerStars numbers hands across the site: consecutive stored hands of a table follow each other,
    # unless chips moved from one player to another between them, which only play does.
    def ps(number: int, seats: dict[int, tuple[str, int]]) -> TableHand:
        return hand(number, None, seats, fmt="pokerstars", hand_id=f"PS-{1000 + 97 * number}")
    assert codes([ps(1, FIVE), ps(2, FIVE)]) == []
    added = {**FIVE, 1: ("Ann", 5500), 2: ("Bo", 5500)}
    assert codes([ps(1, FIVE), ps(2, added)]) == ["STACK_NOT_CARRIED", "STACK_NOT_CARRIED"]
    passed = {**FIVE, 1: ("Ann", 4000), 2: ("Bo", 6000)}
    [finding] = check([ps(1, FIVE), ps(2, passed)])
    assert (finding.code.name, finding.severity) == ("HANDS_MISSING", "info")
    assert "Ann -1,000, Bo +1,000" in finding.message
    # No button is checked in a site's hands: its procedure is not written anywhere we have.
    site = [hand(1, 1, FIVE, small=2, big=3, fmt="pokerstars", hand_id="PS-1"),
            hand(2, 4, FIVE, small=5, big=1, fmt="pokerstars", hand_id="PS-9")]
    assert codes(site) == []


def test_levels_only_rise() -> None:
    # Poker Tournament Rules: "Limits and blinds are raised at regularly scheduled intervals."
    [finding] = check([hand(1, 1, FIVE, small=2, big=3, level="V (10/20)"),
                       hand(2, 2, FIVE, small=3, big=4, level="IV (10/15)")])
    assert (finding.code.name, finding.rule) == ("LEVEL_DECREASED", TOURNAMENT_RULES)
    # The order holds across a gap in the numbers, and in a selection of a table's hands.
    across = [hand(1, 1, FIVE, small=2, big=3, level="9 (400/800)"), hand(7, 2, FIVE, level="8 (300/600)")]
    assert codes(across) == ["LEVEL_DECREASED", "HANDS_MISSING"]
    selection = [hand(1, None, FIVE, level="9", hand_id="B25-stud-001", variant="stud"),
                 hand(2, None, FIVE, level="8", hand_id="B25-stud-002", variant="stud")]
    assert codes(selection) == ["LEVEL_DECREASED"]


def test_stud_levels_compare_each_amount_with_the_same_amount() -> None:
    # Poker Tournament Rules: "Limits and blinds are raised at regularly scheduled intervals." A stud
    # hand's stakes are an ante, a bring-in and two bets: the bring-in of one hand is compared with
    # the bring-in of the other, never with its small bet (a reader that gives a hand's bring-in
    # alone, as iPoker's can, made "20 after 40" a false decrease).
    def stud(number: int, stakes: Stakes, structure: str = "limit") -> TableHand:  # in hundredths
        return hand(number, None, FIVE, variant="stud", structure=structure, level=None, stakes=stakes,
                    hand_id=f"IP-{9000 + number}", fmt="ipoker")
    first = Stakes(ante=1000, bring_in=1000, small_bet=4000, big_bet=8000)
    second = Stakes(ante=1500, bring_in=2000, small_bet=6000, big_bet=12000)
    bring_in_only = Stakes(bring_in=2000)
    assert codes([stud(1, first), stud(2, bring_in_only), stud(3, second)]) == []
    [finding] = check([stud(1, second), stud(2, first)])
    assert (finding.code.name, finding.rule) == ("LEVEL_DECREASED", TOURNAMENT_RULES)
    assert finding.message == ("the small bet 40 after 60, the big bet 80 after 120, the ante 10 after 15, "
                               "the bring-in 10 after 20 in IP-9001")
    # Big-bet stud: the bring-in and the ante alone; and a hold'em hand's big blind with its own.
    big_bet = [stud(1, Stakes(ante=2500, bring_in=5000), "pot-limit"),
               stud(2, Stakes(ante=2500, bring_in=2500), "pot-limit")]
    assert codes(big_bet) == ["LEVEL_DECREASED"]
    blinds = [hand(1, None, FIVE, level=None, stakes=Stakes(10000, 20000), hand_id="B25-nl-1"),
              hand(2, None, FIVE, level=None, stakes=Stakes(5000, 10000), hand_id="B25-nl-2")]
    assert codes(blinds) == ["LEVEL_DECREASED"]
    # Amounts that move both ways are read differently, not a level going down: nothing is said.
    both_ways = [stud(1, Stakes(bring_in=1000, small_bet=6000)),
                 stud(2, Stakes(bring_in=2000, small_bet=4000))]
    assert codes(both_ways) == []


def test_a_seat_held_by_two_players() -> None:
    # Poker Tournament Rules: "A change of seat is not allowed after play starts, except as assigned
    # by the director."
    moved = {n: p for n, p in FIVE.items() if n != 5} | {6: ("Ed", 5000)}
    [finding] = check([hand(1, 1, FIVE, small=2, big=3), hand(2, 2, moved, small=3, big=4)])
    assert (finding.code.name, finding.rule) == ("SEAT_TAKEN", TOURNAMENT_RULES)
    assert finding.message.startswith("Ed sat in seat 5 in B25-E03-T7-0001 and is in seat 6 here")
    taken = {**moved, 5: ("Fay", 5000)}
    [finding] = check([hand(1, 1, FIVE, small=2, big=3), hand(2, 2, taken, small=3, big=4)])
    assert "seat 5 is Fay's now" in finding.message
    ruled = hand(2, 2, moved, small=3, big=4, ruling=True)
    assert codes([hand(1, 1, FIVE, small=2, big=3), ruled]) == []


def test_a_player_at_two_tables_of_an_event() -> None:
    other = {2: ("Di", 5000), 4: ("Fay", 5000), 6: ("Gus", 5000)}
    at_seven = [hand(1, 1, FIVE, small=2, big=3, minute=1), hand(2, 2, FIVE, small=3, big=4, minute=5)]
    at_nine = hand(1, 2, other, small=4, big=6, table="9", minute=3)
    findings = check_all([*at_seven, at_nine])
    assert [(f.code.name, f.hand_id) for f in findings] == [("PLAYER_AT_TWO_TABLES", at_nine.hand.hand_id)]
    assert len(sequences([*at_seven, at_nine])) == 2


def session(name: str, fmt: str = "barge") -> list[TableHand]:
    text = (SAMPLES / "sessions" / name).read_text(encoding="utf-8")
    return [TableHand(parse_hand(block), fmt, {}) for block in text.split("\n\n")]


def without_posts(t: TableHand, player: str, *details: str) -> TableHand:
    kept = tuple(a for a in t.hand.actions
                 if not (a.player == player and a.kind == "post" and a.detail in details))
    return replace(t, hand=replace(t.hand, actions=kept))


def dealt_in(t: TableHand, player: str) -> TableHand:
    seats = tuple(replace(s, sitting_out=False) if s.player == player else s for s in t.hand.seats)
    return replace(t, hand=replace(t.hand, seats=seats))


def test_missed_blinds_are_posted_on_return_or_the_player_waits_for_the_big_blind() -> None:
    # Rules for Using Blinds: "A player who misses any or all blinds can resume play by either posting
    # all the blinds missed or waiting for the big blind." Jon sits out while the big blind (hand 2)
    # and the small blind (hand 3) pass his seat and comes back behind the button posting both; Ivy
    # misses both (hands 5 and 6) and comes back in the big blind (hand 9).
    table = session("missed_blinds_made_up_cash_table.bhh")
    assert codes(table) == []
    short = [*table[:3], without_posts(table[3], "Jon Reyes", "dead_blind"), *table[4:]]
    [finding] = check(short)
    assert (finding.hand_id, finding.code.name, finding.rule) == (
        "B25-CASH-T15-0004", "MISSED_BLIND_NOT_POSTED", BLIND_RULES)
    assert finding.message.startswith(
        "Jon Reyes missed the big blind (2) and the small blind (1) sitting out (B25-CASH-T15-0002, "
        "B25-CASH-T15-0003) and is dealt in here posting 2")
    # A hand whose big blind is not recorded cannot tell waiting for the big blind from not: nothing.
    unrecorded = without_posts(without_posts(table[3], "Hal Byrne", "big_blind"), "Jon Reyes", "big_blind",
                               "dead_blind")
    assert codes([*table[:3], unrecorded, *table[4:]]) == []
    # Ivy dealt in before the big blind comes back to her, posting nothing: the hand, and the next
    # deal too ("the player is required to post on the next deal"), until she has the big blind.
    early = [*table[:6], dealt_in(table[6], "Ivy Chen"), dealt_in(table[7], "Ivy Chen"), table[8]]
    assert [(f.hand_id, f.code.name) for f in check(early)] == [
        ("B25-CASH-T15-0007", "MISSED_BLIND_NOT_POSTED"), ("B25-CASH-T15-0008", "MISSED_BLIND_NOT_POSTED")]


def test_a_new_player_owes_the_big_blind_and_the_record_must_show_the_blinds_pass() -> None:
    # Dot sits out from the first stored hand: she may be a new player, who enters posting "an amount
    # equal to the big blind" ("A new player entering the game has the following options"), so the
    # big blind alone is owed; nothing at all is the finding (sample_histories/audit).
    table = session("missed_blind_cash_table.bhh")
    assert codes([*table[:3], without_posts(table[3], "Dot Lamb", "dead_blind")]) == []
    nothing = [*table[:3], without_posts(table[3], "Dot Lamb", "dead_blind", "big_blind")]
    assert codes(nothing) == ["MISSED_BLIND_NOT_POSTED"]
    # A gap in the numbers, a site's history and a tournament say nothing of who missed what.
    assert codes([table[0], *nothing[2:]]) == ["HANDS_MISSING"]
    site = [replace(t, source_format="pokerstars") for t in nothing]
    assert codes(site) == []
    tournament = [replace(t, hand=replace(t.hand, tournament="9", game_type="tournament")) for t in nothing]
    assert "MISSED_BLIND_NOT_POSTED" not in codes(tournament)


# ---- through the command line -------------------------------------------------------------------

def findings_of(db: Path) -> list[tuple[str, str, str]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT hand_id, code, severity FROM findings ORDER BY hand_id, code").fetchall()


def test_the_table_sessions_give_no_finding(tmp_path: Path) -> None:
    # A button game, stud, win the button, a bust-out with a dead button, missed blinds made up or
    # waited for.
    db = tmp_path / "s.duckdb"
    assert main(["ingest", str(SAMPLES / "sessions"), "--db", str(db), "--json"]) == 0
    assert findings_of(db) == []


def test_a_file_that_joins_a_stored_table_is_checked_with_the_hands_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (SAMPLES / "sessions" / "holdem_tournament_table.bhh").read_text(encoding="utf-8")
    blocks = text.split("\n\n")
    (tmp_path / "first.bhh").write_text("\n\n".join(blocks[:3]), encoding="utf-8")
    # The fourth hand, in another file, gives Jo Kim 1,000 chips nobody recorded.
    later = blocks[3].replace("Seat 7: Jo Kim (10,050 in chips)", "Seat 7: Jo Kim (11,050 in chips)")
    later = later.replace("Seat 7: Jo Kim ends with 10,050", "Seat 7: Jo Kim ends with 11,050")
    (tmp_path / "later.bhh").write_text(later, encoding="utf-8")
    db = tmp_path / "t.duckdb"
    assert main(["ingest", str(tmp_path / "first.bhh"), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["ingest", str(tmp_path / "later.bhh"), "--db", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(f["hand_id"], f["code"], f["rule"]) for f in report["audit"]["findings"]] == [
        ("B25-E40-T03-0004", "STACK_NOT_CARRIED", TOURNAMENT_RULES)]
    # An audit of single hands keeps the findings across hands; --sequences makes them again.
    assert main(["audit", "--db", str(db), "--json"]) == 0
    assert findings_of(db) == [("B25-E40-T03-0004", "STACK_NOT_CARRIED", "warning")]
    capsys.readouterr()
    assert main(["audit", "--sequences", "--db", str(db), "--json"]) == 0
    assert [f["code"] for f in json.loads(capsys.readouterr().out)["findings"]] == ["STACK_NOT_CARRIED"]
    assert findings_of(db) == [("B25-E40-T03-0004", "STACK_NOT_CARRIED", "warning")]
    # A table is checked whole: one hand or one variant is a usage error.
    assert main(["audit", "--sequences", "--hand", "B25-E40-T03-0004", "--db", str(db)]) == 2


def test_the_pokerstars_tournaments_across_hands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The real histories: every rebuy is written and read; the add-on at the break is not written;
    # five pairs of a partial file have hands missing between them (docs/interop.md).
    corpus = SHARED / "corpus" / "pokerstars" / "tour"
    if not corpus.is_dir():
        pytest.skip(f"the shared corpus is not there: {corpus}")
    capsys.readouterr()
    assert main(["ingest", str(corpus), "--db", str(tmp_path / "ps.duckdb"), "--json"]) == 0
    found = [(f["hand_id"], f["code"]) for f in json.loads(capsys.readouterr().out)["audit"]["findings"]
             if f["code"] in SEQUENCE_CODES]
    assert sorted(found) == sorted([("PS-95143913174", "STACK_NOT_CARRIED")] * 4 + [
        (h, "HANDS_MISSING") for h in ("PS-86564270670", "PS-86565334403", "PS-86565835105",
                                        "PS-86568216297", "PS-86568688159")])


def test_the_checks_read_in_parts_find_what_one_read_finds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The store is read back a part at a time (whole tables and tournaments) so that memory does
    # not grow with it: parts of one table or tournament each find, and store, what one part does.
    paths = [SAMPLES / "sessions", SAMPLES / "audit"]
    if (SHARED / "corpus" / "pokerstars" / "tour").is_dir():
        paths.append(SHARED / "corpus" / "pokerstars" / "tour")
    db = tmp_path / "parts.duckdb"
    assert main(["ingest", *map(str, paths), "--db", str(db), "--no-audit"]) == 0

    def checked(batch: int, jobs: int = 1) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
        monkeypatch.setattr(pipeline.audit, "SEQUENCE_BATCH", batch)
        with Store(db) as store:
            summary = pipeline.audit.audit_sequences(store, jobs=jobs)
        return [(f.hand_id, f.code.name, f.message) for f in summary.findings], findings_of(db)

    whole = checked(10**9)
    assert whole[0], "these histories break rules across hands"
    assert checked(1) == whole
    assert checked(50, jobs=2) == whole  # the parts checked by worker processes, in order


def test_a_worker_killed_in_the_checks_across_hands_says_how_to_finish_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The run's hands are committed before the checks across hands start, so running the ingest
    # again stores nothing new and checks nothing: the message must name the command that does.
    paths = [str(SAMPLES / "sessions"), str(SAMPLES / "audit")]
    whole = tmp_path / "whole.duckdb"
    assert main(["ingest", *paths, "--db", str(whole)]) == 0
    monkeypatch.setattr(pipeline.audit, "SEQUENCE_BATCH", 5)  # many parts: the pool starts
    write = Store.write_sequence_findings

    def kill_a_worker_first(store: Store, hand_ids: list[str], found: list[object]) -> None:
        workers = multiprocessing.active_children()  # the pool's processes, forked for this run
        assert workers
        os.kill(workers[-1].pid or 0, signal.SIGKILL)
        monkeypatch.setattr(Store, "write_sequence_findings", write)
        write(store, hand_ids, found)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "write_sequence_findings", kill_a_worker_first)
    db = tmp_path / "killed.duckdb"
    capsys.readouterr()
    assert main(["ingest", *paths, "--db", str(db), "--jobs", "2"]) == EXIT_IO
    told = capsys.readouterr().err
    assert "every hand is stored" in told and "barge audit --sequences" in told, told
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchall() == \
            duckdb.connect(str(whole), read_only=True).execute("SELECT count(*) FROM hands").fetchall()
    assert main(["audit", "--sequences", "--db", str(db)]) == 0
    assert findings_of(db) == findings_of(whole)

