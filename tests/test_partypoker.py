"""The PartyPoker reader on the real corpus and on hands written here: every file of the folder is
read by it, and the only hands refused are the record's faults, each with its reason; units, blinds a
tournament does not write, the rake, the newer layout's raises and summaries, the partypoker profile's
rules, located errors. The findings left on the corpus are held to docs/interop.md's list by
tests/test_precision.py."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from evaluator.profiles import PROFILES
from evaluator.replay import replay
from grammar.errors import HandSyntaxError
from grammar.partypoker_parser import EXAMPLE, parse_partypoker, sniff, split_partypoker
from pipeline.formats import detect_format, whole
from pipeline.model import Hand
from pipeline.sources import read_blocks
from pipeline.units import unit_of
from tests.conftest import ROOT, SHARED

CORPUS = SHARED / "corpus" / "partypoker"
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the PartyPoker corpus is not at {CORPUS} (see README: shared corpus)")
read = whole(parse_partypoker)

# The hands refused, and why: each is the record's (docs/interop.md, PartyPoker).
REFUSED = {
    ("cash/Flop/NLHE-6max-USD-0.10-0.25-201309.player.joins.and.posts.a.bb.txt", 1): "joined the table",
    ("cash/Flop/NLHE-6max-USD-0.10-0.25-201309.player.joins.and.posts.a.bb.txt", 31): "cut off",
    ("cash/Flop/NLHE-6max-USD-5-10-201408.joins.and.posts.bb.txt", 1): "joined the table",
    ("cash/Flop/NLHE-USD-0.02-0.04-20100811.unseatedPlayerActions.txt", 1): "joined the table",
    ("cash/Flop/NLHE-6max-USD-0.25-0.50-201212.Mac.Format.txt", 1):
        "'Player3 is sitting outPlayer4' is not seated",
    ("cash/Flop/PLO-2max-USD-0.50-1.00-201601.unknown.preamble.txt", 1): "'zejnikogoj' is not seated",
    ("cash/Flop/PLO8-6max-USD-1.00-2.00-201601.preamble.fatal.txt", 1): "'holdem_AA' is not seated",
    ("tour/Flop/NLHE-MTT-USD-530-201307.no.tz.txt", 37): "cut off",
    ("tour/Flop/PLO8-10max-USD-20-2-201310.chat.fix.txt", 51): "cut off",
}
# The error and warning findings of single hands left on the corpus, each explained in docs/interop.md.
# The newer layout's tournament hands whose amounts the site wrote with their half chips cut off.
ROUNDED = ("PP-16194828757579au6ou93d1", "PP-161938625156465v9fyd47bg", "PP-1618961225358jrdwo4ad458")
LISTED = Counter({("PP-9507514114", "BET_EXCEEDS_STACK"): 1, ("PP-14019052", "WRONG_BLIND"): 2,
                  ("PP-11932613562", "OUT_OF_TURN"): 3,
                  ("PP-161938625156465v9fyd47bg", "BETTING_ROUND_INCOMPLETE"): 1,
                  **{(hand_id, code): 1 for hand_id in ROUNDED
                     for code in ("AWARDS_MISMATCH", "TOTAL_POT_MISMATCH")}})


def faults(hand: Hand) -> list[str]:
    return [f.code.name for f in replay(hand) if f.severity in ("error", "warning")]


@pytest.fixture(scope="module")
def readings() -> dict[tuple[str, int], Hand | HandSyntaxError]:
    """Every block of every file: its hand, or why it is refused."""
    found: dict[tuple[str, int], Hand | HandSyntaxError] = {}
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file()):
        name = path.relative_to(CORPUS).as_posix()
        for block in read_blocks(path, split_partypoker):
            try:
                found[(name, block.line)] = read(block.text)
            except HandSyntaxError as exc:
                found[(name, block.line)] = exc
    return found


@pytest.fixture(scope="module")
def hands(readings: dict[tuple[str, int], Hand | HandSyntaxError]) -> dict[str, Hand]:
    return {r.hand_id: r for r in readings.values() if isinstance(r, Hand)}


@needs_corpus
def test_every_file_is_read_and_only_the_records_faults_are_refused(
        readings: dict[tuple[str, int], Hand | HandSyntaxError]) -> None:
    refused = {key: str(r) for key, r in readings.items() if isinstance(r, HandSyntaxError)}
    assert set(refused) == set(REFUSED)
    for key, why in REFUSED.items():
        assert why in refused[key], (key, refused[key])
    assert sum(isinstance(r, Hand) for r in readings.values()) == 73
    # every file is told PartyPoker's by its content, NUL bytes and all, and 888's stay 888's
    assert {detect_format(p)[0] for p in CORPUS.rglob("*") if p.is_file()} == {"partypoker"}
    eight = SHARED / "corpus" / "888poker"
    assert {detect_format(p)[0] for p in eight.rglob("*") if p.is_file()} <= {"888poker"}


@needs_corpus
def test_no_error_or_warning_but_the_listed_ones(hands: dict[str, Hand]) -> None:
    found = Counter((hand_id, code) for hand_id, hand in hands.items() for code in faults(hand))
    assert found == LISTED


@needs_corpus
def test_sites_units_games_and_events(hands: dict[str, Hand]) -> None:
    assert {h.variant for h in hands.values()} == {"texas_holdem", "omaha", "omaha_hi_lo", "six_plus_holdem",
                                                   "stud", "stud_hi_lo"}
    euro = hands["PP-9864152000"]
    assert (euro.site, euro.game_type, euro.currency, unit_of(euro)) == ("PartyPoker", "cash", "EUR", "EUR")
    sit_and_go = hands["PP-15414973533"]  # "NL Texas Hold'em $1 USD Buy-in": the number in the table's name
    assert (sit_and_go.game_type, sit_and_go.tournament, unit_of(sit_and_go)) == \
        ("tournament", "128487129", "T:PartyPoker:128487129")
    newer = hands["PP-1770659766668adeb0h5qfm"]  # "0.10/0.25 Omaha Hi Game Table (PL)"
    assert (newer.variant, newer.stakes.big_blind, newer.currency, newer.rake) == ("omaha", 25, "USD", 200)
    bros = hands["PP-PokerBros-1111111111"]  # a tracker's conversion names the site it came from
    assert (bros.site, bros.currency) == ("PokerBros", "USD")


@needs_corpus
def test_a_tournament_posts_the_blinds_its_header_gives(hands: dict[str, Hand]) -> None:
    hand = hands["PP-13165152578"]  # "Blinds-Antes(1,250/2,500 -250)": antes written, blinds not
    posts = [(a.player, a.amount, a.detail) for a in hand.actions if a.kind == "post"]
    assert posts == [("Player2", 125000, "small_blind"), ("Hero", 250000, "big_blind")]
    # "wins 10,750 chips": the pot and the raise nobody called, which goes back as the rules give it
    returned = sum(a.amount or 0 for a in hand.actions if a.kind == "return")
    assert (sum(a.amount for a in hand.awards), returned) == (8 * 25000 + 125000 + 250000 + 250000, 250000)


@needs_corpus
def test_the_rake_is_what_a_cash_games_pushes_leave(hands: dict[str, Hand]) -> None:
    assert hands["PP-9582251255"].rake == 3  # $0.68 in, $0.65 won
    assert hands["PP-11932611928"].rake is None  # a tournament's pot has none


@needs_corpus
def test_a_silent_seat_was_not_dealt_in(hands: dict[str, Hand]) -> None:
    seat = next(s for s in hands["PP-9582251255"].seats if s.player == "romkarnb")
    assert seat.sitting_out


@needs_corpus
def test_the_partypoker_profiles_rules(hands: dict[str, Hand]) -> None:
    """Each difference from barge-2025 shows in a hand of the corpus (docs/interop.md, PartyPoker)."""
    assert set(PROFILES["partypoker"].items()) - set(PROFILES["barge-2025"].items()) == \
        {("short_blind", "full"), ("stud_double_bet", "yes")}
    short = hands["PP-9485557849"]  # a big blind all-in for $0.01, then "calls [$0.02 USD]"
    assert faults(short) == [] and "WRONG_CALL_AMOUNT" in [f.code.name for f in replay(short, "barge-2025")]
    double = hands["PP-11792805420"]  # "Player4 double bets [120]" on 4th street
    assert faults(double) == [] and "WRONG_LIMIT_BET" in [f.code.name for f in replay(double, "barge-2025")]


def test_the_example_reads_and_says_no_fault() -> None:
    hand = parse_partypoker(EXAMPLE)
    assert (hand.hand_id, hand.site, hand.stakes.small_blind, hand.stakes.big_blind) == \
        ("PP-1", "PartyPoker", 1, 2)
    # "raises [$0.05 USD]" from the small blind: the chips added, a raise to $0.06; $0.04 not called
    moves = [(a.kind, a.player, a.amount, a.to_amount) for a in hand.actions if a.kind in ("raise", "return")]
    assert moves == [("raise", "Ann", 4, 6), ("return", "Ann", 4, None)]
    assert faults(hand) == [] and sniff(EXAMPLE)


def test_a_tournament_hand_written_here() -> None:
    """A hand of the classic tournament layout: the blinds from the header, posted by the first two
    players after the button, an all-in as the chips it adds, the pot pushed in chips."""
    text = """\
#Game No : 7
***** Hand History for Game 7 *****
NL Texas Hold'em $11 USD Buy-in Trny: 5 Level: 7  Blinds(300/600) - Friday, April 01, 11:44:00 CEST 2011
Table Turbo #1646865 (Real Money)
Seat 5 is the button
Total number of players : 3/6
Seat 5: Ann ( 4,520 )
Seat 4: Bo ( 7,480 )
Seat 2: Cy ( 3,000 )
Trny: 5 Level: 7
Blinds(300/600)
** Dealing down cards **
Dealt to Ann [  Js 2h ]
Ann folds
Cy is all-In  [2,700]
Bo calls [2,400]
** Dealing Flop ** [ 2c, 7d, Kh ]
** Dealing Turn ** [ 9s ]
** Dealing River ** [ 3d ]
Bo shows [ Kd, Kc ]three of a kind, Kings.
Cy shows [ Ah, Qh ]high card Ace.
Bo wins 6,000 chips from the main pot with three of a kind, Kings.
"""
    hand = read(text)
    assert [(a.player, a.amount, a.detail) for a in hand.actions if a.kind == "post"] == \
        [("Cy", 30000, "small_blind"), ("Bo", 60000, "big_blind")]
    assert (hand.game_type, hand.tournament, hand.level, unit_of(hand)) == \
        ("tournament", "5", "7", "T:PartyPoker:5")
    assert faults(hand) == []


def test_a_broken_line_is_a_located_error() -> None:
    with pytest.raises(HandSyntaxError) as caught:
        parse_partypoker(EXAMPLE.replace("Ann raises [$0.05 USD]", "Ann raises $0.05 USD"))
    # "raises $0.05 USD": an amount without its brackets reads as the newer "raises X to Y", cut short
    assert (caught.value.line, caught.value.column) == (15, 18) and "'to'" in str(caught.value)


def test_a_file_of_hands_splits_on_each_hands_first_line(tmp_path: Path) -> None:
    path = tmp_path / "party.txt"
    second = EXAMPLE.replace("#1 starts", "#2 starts").replace("No : 1", "No : 2")
    second = second.replace("Game 1 ", "Game 2 ")
    path.write_text(EXAMPLE + "\n\n" + second, encoding="utf-8")
    assert [read(b.text).hand_id for b in read_blocks(path, split_partypoker)] == ["PP-1", "PP-2"]


def test_every_partypoker_rule_is_in_its_profile_table() -> None:
    doc = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
    table = doc.split("### The `partypoker` rules profile", 1)[1].split("\n### ", 1)[0]
    for option, value in set(PROFILES["partypoker"].items()) - set(PROFILES["barge-2025"].items()):
        assert f"`{option}` | `{PROFILES['barge-2025'][option]}` | `{value}`" in table


@needs_corpus
def test_the_newer_layout_raises_to_and_its_summary(hands: dict[str, Hand]) -> None:
    """"raises 0.85 to 0.85" is a raise to $0.85; "collected $41.47" holds the $2.97 nobody called and
    the pot after the rake the summary writes ("Main Pot: $38.50 Rake: $2.0": the total pot $40.50); a
    cash-out's "collected" is the site's payment, not a push."""
    hand = hands["PP-1770659766668adeb0h5qfm"]
    raises = [(a.player, a.to_amount) for a in hand.actions if a.kind == "raise"]
    assert raises[:2] == [("Hero", 85), ("Player2", 265)]
    assert [(a.player, a.amount) for a in hand.awards] == [("Hero", 3850)]
    assert [(a.player, a.amount) for a in hand.actions if a.kind == "return"] == [("Hero", 297)]
    assert (hand.total_pot, hand.rake) == (4050, 200) and faults(hand) == []


def test_nul_bytes_at_line_starts_leave_a_text_file(tmp_path: Path) -> None:
    """PartyPoker's client writes a NUL byte before some lines: the file is text and read; a NUL byte
    inside a line is still a binary file's."""
    party = tmp_path / "party.txt"
    party.write_bytes(b"\x00" + EXAMPLE.replace("\n#Game No", "\n\x00#Game No").encode())
    assert detect_format(party) == ("partypoker", "")
    assert [read(b.text).hand_id for b in read_blocks(party, split_partypoker)] == ["PP-1"]
    blob = tmp_path / "blob.txt"
    blob.write_bytes(EXAMPLE.replace("Ann", "A\x00nn").encode())
    assert detect_format(blob) == (None, "binary file, not text")
