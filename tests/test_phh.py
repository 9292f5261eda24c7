"""PHH (the PokerKit hand-history standard): reading, the field mapping, bulk files, located errors,
format detection, writing, and round trips through the store."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields, replace
from datetime import datetime
from pathlib import Path

import pytest

from evaluator.replay import replay, replay_hand
from grammar.barge_parser import parse_hand
from grammar.errors import HandSyntaxError
from grammar.phh_parser import EXAMPLE, metadata_fields, parse_phh, split_phh
from pipeline.audit import audit
from pipeline.formats import detect_format, detect_text
from pipeline.ingest import ingest
from pipeline.model import Award, FinalStack, Hand
from pipeline.phh_export import export_phh
from pipeline.phh_writer import PHH_VARIANTS, hand_to_phh, phh_code
from pipeline.store import Store, read_hands
from pipeline.writer import write_hand
from tests.conftest import SAMPLES

# phh-std, "Motivational Examples": Dwan and Ivey's million-dollar pot (EXAMPLE, in the parser), and
# Yockey and Arieh's deuce-to-seven triple draw, as the standard writes them.
YOCKEY_ARIEH = """\
# A bad beat between Yockey and Arieh.
variant = "F2L3D"
antes = [0, 0, 0, 0]
blinds_or_straddles = [75000, 150000, 0, 0]
small_bet = 150000
big_bet = 300000
starting_stacks = [1180000, 4340000, 5910000, 10765000]
actions = [
  "d dh p1 7h6c4c3d2c",  # Yockey
  "d dh p2 ??????????",  # Hui
  "d dh p3 ??????????",  # Esposito
  "d dh p4 AsQs6s5c3c",  # Arieh
  "p3 f",  # Esposito
  "p4 cbr 300000",  # Arieh
  "p1 cbr 450000",  # Yockey
  "p2 f",  # Hui
  "p4 cc",  # Arieh
  "p1 sd",  # First draw; Yockey
  "p4 sd AsQs",  # Arieh
  "d dh p4 2hQh",  # Arieh
  "p1 cbr 150000",  # Yockey
  "p4 cc",  # Arieh
  "p1 sd",  # Second draw; Yockey
  "p4 sd Qh",  # Arieh
  "d dh p4 4d",  # Arieh
  "p1 cbr 300000",  # Yockey
  "p4 cc",  # Arieh
  "p1 sd",  # Third draw; Yockey
  "p4 sd 6s",  # Arieh
  "d dh p4 7c",  # Arieh
  "p1 cbr 280000",  # Yockey
  "p4 cc",  # Arieh
  "p1 sm 7h6c4c3d2c",  # Showdown; Yockey
  "p4 sm 2h4d7c5c3c",  # Arieh
]
author = "Juho Kim"
event = "2019 WSOP Event #58"
city = "Las Vegas"
region = "Nevada"
country = "United States of America"
day = 28
month = 6
year = 2019
players = ["Bryce Yockey", "Phil Hui", "John Esposito", "Josh Arieh"]
"""

FULL = """\
variant = "FT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 80.5, 120]
actions = [
  "d dh p1 AhKh", "d dh p2 ????", "d dh p3 QsQd",
  "p3 cbr 4", "p1 cc", "p2 f",
  "d db 2c7dJs", "p1 cc", "p3 cbr 2", "p1 cc",
  "d db 3h", "p1 cc", "p3 cc",
  "d db 9c", "p1 cbr 4", "p3 cc",
  "p1 sm -", "p3 sm QsQd # a pair of Queens",
]
author = "Ann Scorer"
event = "Summer Classic"
url = "https://example.org/summer"
venue = "The Card Room"
address = "1 Main St"
city = "Reno"
region = "Nevada"
postal_code = "89501"
country = "United States of America"
time = 21:30:05
time_zone = "America/Los_Angeles"
day = 14
month = 7
year = 2024
hand = "SC-T4-0017"
level = 3
seats = [2, 5, 9]
seat_count = 9
table = 4
players = ["Ann", "Bo", "Cy"]
finishing_stacks = [90, 78.5, 132]
currency = "USD"
_sponsors = ["", "GGPoker", ""]
"""

PHH_GAMES = ["texas_holdem", "short_deck_holdem", "omaha", "omaha_hi_lo", "stud", "stud_hi_lo", "razz",
             "deuce_to_seven_lowball", "deuce_to_seven_triple_draw", "badugi"]


def kinds(hand: Hand, player: str) -> list[str]:
    return [a.kind for a in hand.actions if a.player == player]


def audited(tmp_path: Path, files: dict[str, str]) -> Store:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    store = Store(tmp_path / "phh.duckdb")
    summary = ingest([tmp_path / name for name in files], store)
    assert summary.rejects == []
    audit(store)
    return store


def endings(store: Store) -> dict[str, int]:
    rows = store.con.execute("SELECT player, ending_stack FROM seats").fetchall()
    return {player: round(stack * 100) for player, stack in rows}


def errors(store: Store) -> list[tuple[str, str]]:
    return store.con.execute("SELECT code, message FROM findings WHERE severity = 'error'").fetchall()


# ---- the standard's examples ----------------------------------------------------------------

def test_dwan_ivey_reads_with_the_standards_seat_order() -> None:
    hand = parse_phh(EXAMPLE)
    assert (hand.variant, hand.structure) == ("texas_holdem", "no-limit")
    assert [(s.number, s.player, s.stack) for s in hand.seats] == [
        (1, "Phil Ivey", 112560000), (2, "Patrik Antonius", 200000000), (3, "Tom Dwan", 55350000)]
    assert hand.button_seat == 3  # the last player is on the button; p1 posts the small blind
    assert (hand.stakes.small_blind, hand.stakes.big_blind, hand.stakes.ante) == (100000, 200000, 50000)
    posts = [(a.kind, a.player, a.amount, a.detail) for a in hand.actions if a.kind in ("ante", "post")]
    assert posts[3:] == [("post", "Phil Ivey", 100000, "small_blind"),
                         ("post", "Patrik Antonius", 200000, "big_blind")]
    dwan = [a for a in hand.actions if a.player == "Tom Dwan" and a.kind in ("raise", "call")]
    assert [(a.kind, a.amount, a.to_amount, a.all_in) for a in dwan] == [
        ("raise", 500000, 700000, False), ("call", 1600000, None, False), ("call", 3500000, None, False),
        ("raise", 14260000, 23260000, False), ("call", 26240000, None, True)]
    returned = [a for a in hand.actions if a.kind == "return"]
    assert [(a.player, a.amount, a.street) for a in returned] == [("Phil Ivey", 57210000, "turn")]
    # PokerKit shows the all-in hands before the river: the shows stay on the turn.
    last = [(a.kind, a.street) for a in hand.actions[-3:]]
    assert last == [("show", "turn"), ("show", "turn"), ("board", "river")]
    assert replay(hand) == []


def test_dwan_ivey_is_settled_by_the_audit(tmp_path: Path) -> None:
    store = audited(tmp_path, {"dwan-ivey.phh": EXAMPLE})
    assert errors(store) == []
    assert endings(store) == {"Tom Dwan": 110950000, "Phil Ivey": 57210000, "Patrik Antonius": 199750000}
    awards = store.con.execute("SELECT player, origin, hand FROM awards").fetchall()
    assert awards == [("Tom Dwan", "computed", "straight, Seven high")]


def test_yockey_arieh_draws_follow_their_discards() -> None:
    hand = parse_phh(YOCKEY_ARIEH)
    assert (hand.variant, hand.structure) == ("deuce_to_seven_triple_draw", "limit")
    assert (hand.stakes.small_bet, hand.stakes.big_bet) == (15000000, 30000000)
    arieh = [(a.street, a.kind, a.cards) for a in hand.actions if a.player == "Josh Arieh"
             and a.kind in ("discard", "draw", "stand_pat")]
    assert arieh == [("first_draw", "discard", ("As", "Qs")), ("first_draw", "draw", ("2h", "Qh")),
                     ("second_draw", "discard", ("Qh",)), ("second_draw", "draw", ("4d",)),
                     ("third_draw", "discard", ("6s",)), ("third_draw", "draw", ("7c",))]
    assert kinds(hand, "Bryce Yockey").count("stand_pat") == 3
    assert hand.started_at == datetime(2019, 6, 28)
    note = next(a.detail for a in hand.actions if a.kind == "note")
    assert metadata_fields(note or "") == {"author": "Juho Kim", "city": "Las Vegas", "region": "Nevada",
                                           "country": "United States of America"}
    write_hand(hand)  # the native writer needs every draw right after its discard


def test_yockey_arieh_is_settled_by_the_audit(tmp_path: Path) -> None:
    store = audited(tmp_path, {"yockey-arieh.phh": YOCKEY_ARIEH})
    assert errors(store) == []
    stacks = endings(store)
    assert stacks["Bryce Yockey"] == 0
    assert stacks["Josh Arieh"] == 1076500000 + 118000000 + 15000000  # and Hui's big blind


# ---- the field mapping ----------------------------------------------------------------------

def test_every_field_maps_onto_the_model() -> None:
    hand = parse_phh(FULL)
    assert hand.hand_id == "SC-T4-0017"
    assert (hand.event, hand.level, hand.table_name, hand.max_seats) == ("Summer Classic", "3", "4", 9)
    assert hand.started_at == datetime(2024, 7, 14, 21, 30, 5)
    seats = [(s.number, s.player, s.stack) for s in hand.seats]
    assert seats == [(2, "Ann", 10000), (5, "Bo", 8050), (9, "Cy", 12000)]
    assert hand.button_seat == 9
    assert hand.final_stacks == (FinalStack(2, "Ann", 9000), FinalStack(5, "Bo", 7850),
                                 FinalStack(9, "Cy", 13200))
    # No winnings: what the finishing stacks add to the stacks left after the play was pushed.
    assert hand.awards == (Award("Cy", 2200),)
    shows = [(a.player, a.cards, a.detail) for a in hand.actions if a.kind == "show"]
    assert shows == [("Ann", ("Ah", "Kh"), None), ("Cy", ("Qs", "Qd"), "a pair of Queens")]
    note = next(a for a in hand.actions if a.kind == "note")
    assert metadata_fields(note.detail or "") == {
        "author": "Ann Scorer", "url": "https://example.org/summer",
        "address": "1 Main St", "city": "Reno", "region": "Nevada", "postal_code": "89501",
        "country": "United States of America", "time_zone": "America/Los_Angeles",
        "_sponsors": ["", "GGPoker", ""]}
    assert (hand.site, hand.game_type, hand.currency) == ("The Card Room", "cash", "USD")
    assert replay(hand) == []


def test_winnings_are_the_recorded_pushes() -> None:
    text = FULL.replace("finishing_stacks = [90, 78.5, 132]", "winnings = [0, 0, 22]")
    assert parse_phh(text).awards == (Award("Cy", 2200),)
    assert parse_phh(text).final_stacks == ()


def test_winnings_after_the_rake(tmp_path: Path) -> None:
    """Online histories (phh-dataset's HandHQ hands) give winnings after the rake: the rest of
    the pot is the rake, and the audit finds nothing wrong."""
    text = FULL.replace("finishing_stacks = [90, 78.5, 132]", "winnings = [0, 0, 20.5]")
    hand = parse_phh(text)
    assert (hand.awards, hand.rake) == ((Award("Cy", 2050),), 150)
    assert parse_phh(hand_to_phh(hand)) == hand
    store = audited(tmp_path, {"raked.phh": text})
    assert errors(store) == []


def test_forced_bets_heads_up_straddles_and_a_big_blind_ante() -> None:
    heads_up = parse_phh("""variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1000, 2000]
min_bet = 2000
starting_stacks = [5000, 5000]
actions = ["d dh p1 AsAd", "d dh p2 ????", "p2 f"]
players = ["Ann", "Bo"]
""")
    posts = [(a.player, a.detail, a.amount) for a in heads_up.actions if a.kind == "post"]
    assert posts == [("Bo", "small_blind", 100000), ("Ann", "big_blind", 200000)]  # reversed heads-up
    assert heads_up.button_seat == 2  # the button posts the small blind and acts first
    assert replay(heads_up) == []
    text = """variant = "NT"
antes = [0, 300, 0, 0, 0]
blinds_or_straddles = [100, 200, 400, 0, 0]
min_bet = 200
starting_stacks = [9000, 250, 9000, 9000, 9000]
actions = ["p4 f", "p5 f", "p1 f", "p2 cc", "p3 cc"]
"""
    hand = parse_phh(text)
    assert hand.stakes.big_blind_ante == 30000 and hand.stakes.ante is None
    forced = [(a.kind, a.player, a.amount, a.detail, a.all_in)
              for a in hand.actions if a.kind in ("ante", "post")]
    assert forced == [("ante", "p2", 25000, "big_blind_ante", True),  # all-in on the ante: no blind
                      ("post", "p1", 10000, "small_blind", False), ("post", "p3", 40000, "straddle", False)]
    with pytest.raises(HandSyntaxError, match="uniform antes"):
        parse_phh(text.replace("[0, 300, 0, 0, 0]", "[0, 0, 0, 0, 10]"))


def test_hand_ids_come_from_the_hand_field_or_a_digest() -> None:
    numbered = FULL.replace('hand = "SC-T4-0017"', "hand = 17")
    assert parse_phh(numbered).hand_id == "Summer-Classic-20240714-T4-17"
    bare = EXAMPLE
    digest = parse_phh(bare).hand_id
    assert digest.startswith("phh-") and len(digest) == 20
    relaid = "# another comment\n" + bare.replace("  ", "    ")
    assert parse_phh(relaid).hand_id == digest  # comments and layout do not count
    assert parse_phh(bare.replace("553500", "553400")).hand_id != digest


def test_unknown_cards_and_showing_what_was_dealt() -> None:
    hand = parse_phh(EXAMPLE)
    dealt = next(a.cards for a in hand.actions if a.kind == "deal" and a.player == "Patrik Antonius")
    assert dealt == ("??", "??")
    partly = EXAMPLE.replace('"p1 sm Ac2d"', '"p1 sm ??2d"').replace('"p3 sm 7h6h"', '"p3 sm -"')
    shows = [(a.player, a.cards) for a in parse_phh(partly).actions if a.kind == "show"]
    assert shows == [("Phil Ivey", ("??", "2d")), ("Tom Dwan", ("7h", "6h"))]


def test_commentary_becomes_notes_and_floor_rulings() -> None:
    text = EXAMPLE.replace('"p2 f",', '"p2 f # tanked for a minute", "# Floor: the raise stands",')
    hand = parse_phh(text)
    assert [(a.kind, a.detail) for a in hand.actions if a.kind in ("note", "ruling")][1:] == [
        ("note", "tanked for a minute"), ("ruling", "the raise stands")]
    assert [f.code.name for f in replay(hand)] == ["FLOOR_RULING"]


# ---- errors ---------------------------------------------------------------------------------

def error_of(text: str) -> HandSyntaxError:
    with pytest.raises(HandSyntaxError) as caught:
        parse_phh(text)
    return caught.value


def test_bad_toml_is_located() -> None:
    exc = error_of(EXAMPLE.replace("min_bet = 2000", "min_bet 2000"))
    assert (exc.line, exc.column) == (5, 9)
    assert exc.expected and "=" in exc.expected[0]
    exc = error_of(EXAMPLE.replace('"d db Jh",\n]', '"d db Jh",\n'))  # the array is not closed
    assert (exc.line, exc.column) == (15, 1) and "TOML" in exc.message


def test_bad_actions_are_located_with_what_was_expected() -> None:
    exc = error_of(EXAMPLE.replace('"p3 cbr 7000"', '"p3 cbr lots"'))
    assert (exc.line, exc.column, exc.expected) == (9, 11, ("an amount",))
    exc = error_of(EXAMPLE.replace('"p2 f"', '"p2 folds"'))
    assert (exc.line, exc.column) == (9, 38) and "'folds'" in exc.message
    assert exc.expected == ("'cbr'", "'cc'", "'f'", "'pb'", "'sd'", "'sm'")
    exc = error_of(EXAMPLE.replace('"d db Jh"', '"d db Jh1"'))
    assert (exc.line, exc.column, exc.expected) == (13, 9, ("cards such as AcKs or ????",))
    exc = error_of(EXAMPLE.replace('"p2 f"', '"p4 f"'))
    assert (exc.line, exc.column, exc.expected) == (9, 35, ("p1 to p3",))
    exc = error_of(EXAMPLE.replace('"p3 cbr 7000"', '"p3 cbr"'))
    assert exc.message.endswith("ends too early") and (exc.line, exc.column) == (9, 10)


def test_bad_fields_are_located() -> None:
    exc = error_of(EXAMPLE.replace('variant = "NT"', 'variant = "NLHE"'))
    assert (exc.line, exc.column) == (2, 1) and exc.expected == tuple(PHH_VARIANTS)
    exc = error_of(EXAMPLE.replace("min_bet = 2000\n", ""))
    assert "min_bet" in exc.message
    exc = error_of(EXAMPLE.replace("antes = [500, 500, 500]", "antes = [500, 500]"))
    assert exc.line == 3 and "3 players" in exc.message
    exc = error_of(EXAMPLE.replace('"Tom Dwan"]', '"Phil Ivey"]'))
    assert "appears twice" in exc.message


def test_a_bad_section_is_rejected_where_it_is_and_the_others_are_stored(tmp_path: Path) -> None:
    bad = EXAMPLE.replace('"p2 f"', '"p2 fold"')
    bulk = f"[1]\n{EXAMPLE}\n[2]\n{bad}\n[3]\n{YOCKEY_ARIEH}"
    path = tmp_path / "three.phhs"
    path.write_text(bulk)
    with Store(tmp_path / "db.duckdb") as store:
        summary = ingest([path], store)
        assert summary.total("hands") == 2
        [reject] = summary.rejects
        assert (reject.line, reject.column) == (20 + 9, 38) and "'fold'" in reject.error
        assert store.count("rejects") == 1


# ---- files ----------------------------------------------------------------------------------

def test_bulk_files_split_into_one_block_per_section() -> None:
    bulk = f"# three hands\n\n[1]\n{EXAMPLE}\n[2]\n{YOCKEY_ARIEH}\n[3]\n{FULL}[3._extra]\nx = 1\n"
    blocks = list(split_phh(bulk.splitlines(keepends=True)))
    second = 4 + EXAMPLE.count("\n") + 2
    assert [b.line for b in blocks] == [4, second, second + YOCKEY_ARIEH.count("\n") + 2]
    assert not blocks[0].text.startswith("[1]")  # the same hand elsewhere is the same block
    variants = [parse_phh(b.text).variant for b in blocks]
    assert variants == ["texas_holdem", "deuce_to_seven_triple_draw", "texas_holdem"]
    single = list(split_phh((FULL + "[_meta]\nsource = 'tv'\n").splitlines()))
    assert [b.line for b in single] == [1]


def test_formats_are_told_by_content(tmp_path: Path) -> None:
    assert detect_text(EXAMPLE) == "phh"
    assert detect_text(f"[1]\n{EXAMPLE}") == "phh"
    assert detect_text("[1]\nname = 'not a hand'\n") is None
    assert detect_text('[tool.ruff]\nline-length = 110\nactions = ["lint"]\n') is None
    path = tmp_path / "hands.txt"  # the extension does not matter
    path.write_text(f"[1]\n{YOCKEY_ARIEH}")
    assert detect_format(path) == ("phh", "")


# ---- reshuffles -----------------------------------------------------------------------------

DECK = [r + s for s in "cdhs" for r in "23456789TJQKA"]
HOLES, REST = [DECK[5 * k:5 * k + 5] for k in range(6)], DECK[30:]


def triple_draw(preflop: list[str], draws: dict[int, list[str]], after: list[str]) -> str:
    """Six players of deuce-to-seven triple draw; on the first draw the players in `draws`
    discard their five cards and draw the given ones."""
    actions = [f"d dh p{k + 1} {''.join(h)}" for k, h in enumerate(HOLES)] + preflop
    actions += [f"p{k} sd {''.join(HOLES[k - 1])}" for k in draws]
    actions += [f"d dh p{k} {''.join(cards)}" for k, cards in draws.items()] + after
    quoted = ", ".join(f'"{a}"' for a in actions)
    return f"""variant = "F2L3D"
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0, 0, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100, 100, 100, 100]
actions = [{quoted}]
"""


def triple_draw_out_of_cards() -> str:
    """Everyone draws five: the stub (22 cards) runs out at p5, who draws two fresh cards and
    three of p1's discards, as PokerKit and dealers who reshuffle the discards do."""
    draws = {1: REST[0:5], 2: REST[5:10], 3: REST[10:15], 4: REST[15:20],
             5: REST[20:22] + HOLES[0][:3], 6: HOLES[0][3:] + HOLES[1][:3]}
    return triple_draw(["p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 cc"], draws,
                       ["p1 cbr 2", "p2 f", "p3 f", "p4 f", "p5 f", "p6 f"])


def test_a_reshuffle_is_written_where_the_stub_ran_out() -> None:
    hand = parse_phh(triple_draw_out_of_cards())
    kinds_ = [(a.kind, a.player) for a in hand.actions if a.street == "first_draw"]
    at = kinds_.index(("reshuffle", None))
    assert kinds_[at - 1] == ("draw", "p4") and kinds_[at + 1: at + 3] == [("discard", "p5"), ("draw", "p5")]
    assert kinds_.count(("reshuffle", None)) == 1
    assert replay(hand) == []
    without = replace(hand, actions=tuple(a for a in hand.actions if a.kind != "reshuffle"))
    assert "DUPLICATE_CARD" in {f.code.name for f in replay(without)}


def test_a_reshuffle_returns_the_folded_hands_to_the_stub() -> None:
    draws = {1: REST[0:5], 3: REST[5:10], 4: REST[10:15], 5: REST[15:20], 6: REST[20:22] + HOLES[1][:3]}
    hand = parse_phh(triple_draw(["p3 cbr 4", "p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 f"], draws,
                                 ["p1 cbr 2", "p3 f", "p4 f", "p5 f", "p6 f"]))
    at = [(a.kind, a.player) for a in hand.actions].index(("reshuffle", None))
    assert (hand.actions[at + 1].kind, hand.actions[at + 1].player) == ("discard", "p6")
    assert replay(hand) == []  # p2's folded cards went back into the stub


def test_a_card_a_later_player_still_holds_is_a_duplicate() -> None:
    """PokerKit deals a draw round after all its discards, from a stub rebuilt with every one of
    them; a live dealer deals each player in turn, so p5 cannot draw what p6 discards after him
    (docs/interop.md, "PokerKit agreement")."""
    draws = {1: REST[0:5], 2: REST[5:10], 3: REST[10:15], 4: REST[15:20],
             5: REST[20:22] + HOLES[5][:3], 6: HOLES[0][:5]}
    hand = parse_phh(triple_draw(["p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 cc"], draws,
                                 ["p1 cbr 2", "p2 f", "p3 f", "p4 f", "p5 f", "p6 f"]))
    assert "DUPLICATE_CARD" in {f.code.name for f in replay(hand)}


def test_a_stud_card_from_a_folded_hand_comes_after_a_reshuffle() -> None:
    text = """variant = "F7S"
antes = [1, 1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [50, 50, 50]
actions = ["d dh p1 AcKd2c", "d dh p2 AsKs9d", "d dh p3 8h8sJd", "p1 pb", "p2 cc", "p3 f",
  "d dh p1 Qh", "d dh p2 Qd", "p2 cc", "p1 cc", "d dh p1 Jc", "d dh p2 Jh", "p2 cc", "p1 cc",
  "d dh p1 Tc", "d dh p2 Th", "p2 cc", "p1 cc", "d dh p1 8h", "d dh p2 4d", "p2 cc", "p1 cc",
  "p2 sm AsKs9dQdJhTh4d", "p1 sm AcKd2cQhJcTc8h"]
"""
    hand = parse_phh(text)
    kinds_ = [(a.kind, a.player, a.street) for a in hand.actions]
    assert kinds_[kinds_.index(("reshuffle", None, "7th_street")) + 1] == ("deal", "p1", "7th_street")
    assert replay(hand) == []


# ---- what PokerKit plays --------------------------------------------------------------------

TRITON = """\
variant = "NS"
antes = [3000, 3000, 3000, 3000, 3000, 3000]
blinds_or_straddles = [0, 0, 0, 0, 0, 3000]
min_bet = 3000
starting_stacks = [495000, 232000, 362000, 403000, 301000, 204000]
actions = [
  "d dh p1 Th8h", "d dh p2 QsJd", "d dh p3 QhQd", "d dh p4 8d7c", "d dh p5 KhKs", "d dh p6 8c7h",
  "p1 cc", "p2 cc", "p3 cbr 35000", "p4 f", "p5 cbr 298000", "p6 f", "p1 f", "p2 f", "p3 cc",
  "p5 sm KhKs", "p3 sm QhQd", "d db 9h6cKc", "d db Jh", "d db Ts",
]
players = ["Mikita Badziakouski", "Liu Ming Zhong", "Tan Xuan", "Wang Jun", "Paul Phua", "Jason Koon"]
"""


def test_a_short_deck_button_blind_is_six_plus_holdem(tmp_path: Path) -> None:
    """PokerKit writes 6+ Hold'em (Triton's rules) as "NS" with antes and the only blind on the
    button: the button blind of the room game, not a straddle with no blinds (BARGE 2025 §2.45,
    as extended by PokerStars); trips beat Xuan's straight."""
    hand = parse_phh(TRITON)
    assert (hand.variant, hand.structure) == ("six_plus_holdem", "no-limit")
    assert (hand.stakes.small_blind, hand.stakes.big_blind, hand.stakes.ante) == (None, 300000, 300000)
    assert [(a.kind, a.player, a.detail) for a in hand.actions[:2]] == [
        ("post", "Jason Koon", "button_blind"), ("ante", "Mikita Badziakouski", "ante")]
    written = hand_to_phh(hand)
    assert 'variant = "NS"' in written and "blinds_or_straddles = [0, 0, 0, 0, 0, 3000]" in written
    assert parse_phh(written) == hand
    store = audited(tmp_path, {"triton.phh": TRITON})
    assert errors(store) == []
    assert endings(store)["Paul Phua"] == 62300000
    heads_up = parse_phh(TRITON.replace("3000, 3000, 3000, 3000, 3000, 3000", "3000, 3000")
                         .replace("[0, 0, 0, 0, 0, 3000]", "[3000, 0]")  # heads-up: reversed
                         .replace("495000, 232000, 362000, 403000, ", "")
                         .replace('"Mikita Badziakouski", "Liu Ming Zhong", "Tan Xuan", "Wang Jun", ', "")
                         .split("actions")[0] + 'actions = ["p1 f"]\nplayers = ["Phua", "Koon"]\n')
    assert [(a.kind, a.player, a.detail) for a in heads_up.actions if a.kind == "post"] == [
        ("post", "Koon", "button_blind")]
    assert parse_phh(hand_to_phh(heads_up)) == heads_up


def test_a_straddle_still_needs_the_blinds() -> None:
    """Without antes, or in hold'em, a lone blind on the button is not the 6+ button blind."""
    no_antes = parse_phh(TRITON.replace("3000, 3000, 3000, 3000, 3000, 3000", "0, 0, 0, 0, 0, 0"))
    holdem = parse_phh(TRITON.replace('"NS"', '"NT"'))
    for hand, variant in ((no_antes, "short_deck_holdem"), (holdem, "texas_holdem")):
        assert hand.variant == variant
        assert [a.detail for a in hand.actions if a.kind == "post"] == ["straddle"]


def test_a_new_players_post_is_a_negative_blind() -> None:
    """PokerKit writes what a player who just sat down posts to play at once as a negative entry of
    `blinds_or_straddles`: a live post of the big blind (§1.1), so the player may check."""
    text = """variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [50, 100, -100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000, 10000]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 AhAd", "d dh p4 ????", "p3 cc", "p4 f", "p1 f", "p2 cc",
  "d db 2c3c4c", "p2 cc", "p3 cbr 100", "p2 f"]
"""
    hand = parse_phh(text)
    posts = [(a.player, a.amount, a.detail) for a in hand.actions if a.kind == "post"]
    assert posts == [("p1", 5000, "small_blind"), ("p2", 10000, "big_blind"), ("p3", 10000, "big_blind")]
    assert next(a.kind for a in hand.actions if a.player == "p3" and a.street == "hole_cards"
                and a.kind not in ("post", "deal")) == "check"
    assert replay(hand) == []
    written = hand_to_phh(hand)
    assert "blinds_or_straddles = [50, 100, -100, 0]" in written and "_barge_actions" not in written
    assert parse_phh(written) == hand


def test_a_walk_without_a_small_blind_says_no_small_blind() -> None:
    """The small blind's seat posted nothing (a dead small blind, §1.1) and everyone folded to the
    big blind: `blinds_or_straddles` has no small blind (PokerKit would post one), the stakes
    still have it, and the hand reads back the same with the same findings."""
    text = """variant = "NT"
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [0, 600, 0, 0, 0]
min_bet = 600
starting_stacks = [20000, 20000, 20000, 20000, 20000]
actions = ["p3 f", "p4 f", "p5 f", "p1 f"]
"""
    hand = parse_phh(text)
    walk = replace(hand, stakes=replace(hand.stakes, small_blind=30000))
    written = hand_to_phh(walk)
    assert "blinds_or_straddles = [0, 600, 0, 0, 0]" in written
    assert "_barge_stakes = {small_blind = 300}" in written
    assert parse_phh(written) == walk
    assert replay(parse_phh(written)) == replay(walk)


def test_a_lone_first_blind_is_a_dead_small_blind(tmp_path: Path) -> None:
    """BARGE 2025 §1.1: with a dead small blind the big blind alone is posted, by the first player
    left of the button. PokerKit writes it as the only entry, the first (WSOP 2023 Event 43
    hand 76, the first Omaha hand after stud): p1 posts the big blind and p2 acts first, with no
    finding; the writer gives the same array back."""
    text = """variant = "FO/8"
antes = [0, 0, 0, 0]
blinds_or_straddles = [200, 0, 0, 0]
small_bet = 200
big_bet = 400
starting_stacks = [2000, 5000, 9000, 2000]
actions = ["d dh p1 ????????", "d dh p2 AdAcTs8s", "d dh p3 As8c3s2c", "d dh p4 ????????",
           "p2 cbr 400", "p3 cbr 600", "p4 f", "p1 f", "p2 cbr 800", "p3 cc",
           "d db Jd7s4h", "p2 cbr 200", "p3 cc", "d db 5h", "p2 cc", "p3 cbr 400", "p2 cc",
           "d db Js", "p2 cc", "p3 cc", "p2 sm AdAcTs8s", "p3 sm As8c3s2c"]
"""
    hand = parse_phh(text)
    assert (hand.stakes.small_blind, hand.stakes.big_blind) == (None, 20000)
    assert [(a.player, a.detail) for a in hand.actions if a.kind == "post"] == [("p1", "big_blind")]
    assert "blinds_or_straddles = [200, 0, 0, 0]" in hand_to_phh(hand)
    assert parse_phh(hand_to_phh(hand)) == hand
    store = audited(tmp_path, {"dead-small.phh": text})
    assert errors(store) == []
    # Aces and Jacks take the high half of the 3000 pot, 7-5-4-2-A the low half; the amounts show
    # no chip below 200, so the odd chip (§1.4) goes to p2, the first left of the button.
    assert endings(store) == {"p1": 180000, "p2": 520000, "p3": 900000, "p4": 200000}


def test_a_draw_dealt_a_card_at_a_time_is_one_draw(tmp_path: Path) -> None:
    """BARGE 2025 §2.17: the dealer deals each player the cards replacing their discard. PokerKit's
    older records deal them one `d dh` at a time ('d dh p2 Qh', 'd dh p2 8c'): one draw of as
    many cards as were discarded, with no draw count finding."""
    text = """variant = "F2L3D"
antes = [0, 0, 0]
blinds_or_straddles = [125, 250, 0]
small_bet = 250
big_bet = 500
starting_stacks = [5000, 5000, 5000]
actions = ["d dh p1 7d5h4c3s2c", "d dh p2 QdJc8s7h5c", "d dh p3 ??????????",
           "p3 f", "p1 cc", "p2 cc",
           "p1 sd", "p2 sd QdJc", "d dh p2 6s", "d dh p2 4h",
           "p1 cc", "p2 cc", "p1 sd", "p2 sd 8s", "d dh p2 2d",
           "p1 cc", "p2 cc", "p1 sd", "p2 sd", "p1 cc", "p2 cc",
           "p1 sm 7d5h4c3s2c", "p2 sm 7h6s5c4h2d"]
"""
    hand = parse_phh(text)
    draws = [(a.street, a.kind, a.cards) for a in hand.actions if a.player == "p2"
             and a.kind in ("discard", "draw", "stand_pat")]
    assert draws == [("first_draw", "discard", ("Qd", "Jc")), ("first_draw", "draw", ("6s", "4h")),
                     ("second_draw", "discard", ("8s",)), ("second_draw", "draw", ("2d",)),
                     ("third_draw", "stand_pat", ())]
    store = audited(tmp_path, {"one-at-a-time.phh": text})
    assert errors(store) == []
    assert endings(store) == {"p1": 525000, "p2": 475000, "p3": 500000}


def test_winnings_that_count_the_uncalled_blind_are_the_pot_and_the_return(tmp_path: Path) -> None:
    """BARGE 2025 §1.1: the part of a bet nobody called goes back to its bettor. HandHQ's walks
    (Absolute Poker, 2009) say the big blind won 1.50 of a 0.50/1 pot of 1: the award is the
    pot and the rest is the uncalled half of the blind given back, with no finding."""
    text = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [0.50, 1]
min_bet = 1
starting_stacks = [82.40, 197]
actions = ["d dh p1 ????", "d dh p2 ????", "p2 f"]
winnings = [1.50, 0]
"""
    hand = parse_phh(text)
    assert [(a.player, a.amount) for a in hand.actions if a.kind == "return"] == [("p1", 50)]
    assert hand.awards == (Award("p1", 100),)
    assert hand.rake is None
    store = audited(tmp_path, {"walk.phh": text})
    assert errors(store) == []
    assert endings(store) == {"p1": 8290, "p2": 19650}


def test_a_reduced_heads_up_big_blind_ante_is_written_as_posted() -> None:
    """Heads-up the big blind ante is reduced to the small blind (BARGE 2025 §1.5): `antes` say
    what was posted (p1 is the big blind heads-up, the array reversed), the stakes keep the
    level's ante, and the hand reads back the same with the same findings."""
    text = """variant = "NT"
antes = [0, 50]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [5000, 5000]
actions = ["d dh p1 AsAd", "d dh p2 KsKd", "p2 f"]
players = ["Ann", "Bo"]
"""
    hand = parse_phh(text)
    level = replace(hand, stakes=replace(hand.stakes, big_blind_ante=10000))
    assert replay(level) == []
    written = hand_to_phh(level)
    assert "antes = [0, 50]" in written and "_barge_stakes = {big_blind_ante = 100}" in written
    assert "_barge_actions" not in written and parse_phh(written) == level


LOSER_UNKNOWN = EXAMPLE.replace('"d dh p1 Ac2d"', '"d dh p1 ????"').replace('"p1 sm Ac2d"', '"p1 sm ????"')


def test_a_loser_showing_unknown_cards_leaves_the_pot_to_the_tabled_hand(tmp_path: Path) -> None:
    """No winnings and no finishing stacks, Ivey's cards unknown (`sm ????`): only a tabled hand
    can win (TDA), so Dwan's straight takes what the rules give it (BARGE 2025 §1.4), with no
    AWARDS_MISMATCH, as PokerKit plays the file."""
    store = audited(tmp_path, {"unknown.phh": LOSER_UNKNOWN})
    assert store.con.execute("SELECT code FROM findings").fetchall() == []
    assert endings(store) == {"Tom Dwan": 110950000, "Phil Ivey": 57210000, "Patrik Antonius": 199750000}


def test_the_record_can_say_the_unknown_hand_won(tmp_path: Path) -> None:
    """When the finishing stacks say Ivey won, the record says otherwise than the tabled hand:
    the pushes cannot be checked and the audit says so (no award is invented)."""
    text = LOSER_UNKNOWN + "finishing_stacks = [1669600, 1997500, 0]\n"
    store = audited(tmp_path, {"ivey.phh": text})
    assert [c for (c,) in store.con.execute("SELECT code FROM findings").fetchall()] == ["AWARD_NOT_CHECKED"]


def test_a_hand_shown_after_the_others_folded_stays_on_its_street() -> None:
    """A showdown needs two hands: a winner who shows after everyone folded shows on the street."""
    turn = '"d db 4h", "p1 cbr 90000", "p3 cbr 232600", "p1 cbr 1067100", "p3 cc",'
    text = EXAMPLE.replace('"p1 cbr 35000", "p3 cc",', '"p1 cbr 35000", "p3 f",').replace(turn, "")
    text = text.replace('"p1 sm Ac2d", "p3 sm 7h6h",\n  "d db Jh",', '"p1 sm Ac2d",')
    hand = parse_phh(text)
    assert [(a.kind, a.street) for a in hand.actions[-2:]] == [("return", "flop"), ("show", "flop")]
    assert replay(hand) == []


def test_a_phh_hand_cut_off_is_refused_where_its_play_stops(tmp_path: Path) -> None:
    """The actions stop while Dwan owes a call and the fields go on: the reject points at the
    last action, not at the last line."""
    cut = EXAMPLE.replace('"p3 cbr 232600", "p1 cbr 1067100", "p3 cc",\n  "p1 sm Ac2d", "p3 sm 7h6h",\n'
                          '  "d db Jh",\n', '"p3 cbr 232600", "p1 cbr 1067100",\n')
    path = tmp_path / "cut.phh"
    path.write_text(cut)
    with Store(tmp_path / "cut.duckdb") as store:
        summary = ingest([path], store)
    [reject] = summary.rejects
    assert reject.error.startswith("the hand is cut off") and "Tom Dwan is still to act" in reject.error
    assert (reject.line, reject.column) == (11, 48)  # "p1 cbr 1067100", the last action


# ---- writing and round trips ----------------------------------------------------------------

@pytest.mark.parametrize("text", [EXAMPLE, YOCKEY_ARIEH, FULL, triple_draw_out_of_cards()],
                         ids=["dwan-ivey", "yockey-arieh", "every-field", "reshuffle"])
def test_import_export_import_gives_the_same_hand(text: str) -> None:
    hand = parse_phh(text)
    written = hand_to_phh(hand)
    assert parse_phh(written) == hand
    assert hand_to_phh(parse_phh(written)) == written


def test_a_play_the_notation_cannot_say_is_carried_whole() -> None:
    """Antes in the record's order (PokerStars writes the hero's first), cards seen on a fold and
    on a muck: the standard `actions` still say the play for PokerKit, and `_barge_actions` gives
    barge the record as it was."""
    hand = parse_phh(EXAMPLE)
    antes = [a for a in hand.actions if a.kind == "ante"]
    rest = [a for a in hand.actions if a.kind != "ante"]
    seen = tuple(replace(a, cards=("Kd", "Kc")) if a.kind == "fold" else a for a in rest)
    shuffled = replace(hand, actions=(antes[2], antes[0], antes[1], *seen))
    written = hand_to_phh(shuffled)
    assert "\n_barge_actions = [\n" in written and '"p2 f",' in written
    assert parse_phh(written) == shuffled
    assert parse_phh(written.split("\n_barge_actions")[0] + "\n") == hand  # what other readers see
    assert "_barge_actions" not in hand_to_phh(hand)
    bad = written.replace('kind = "fold"', 'kind = "folds"')
    exc = error_of(bad)
    assert exc.line == written.splitlines().index("_barge_actions = [") + 1 and "folds" in exc.message


def test_the_writer_needs_a_phh_game() -> None:
    hand = parse_phh(EXAMPLE)
    assert phh_code(replace(hand, structure="pot-limit")) is None
    with pytest.raises(ValueError, match="no variant code"):
        hand_to_phh(replace(hand, variant="chowaha"))


def sample_store(tmp_path: Path, names: list[str]) -> Store:
    store = Store(tmp_path / "samples.duckdb")
    ingest([SAMPLES / f"{n}.bhh" for n in names], store)
    return store


def stored_hands(store: Store) -> dict[str, Hand]:
    ids = [r[0] for r in store.con.execute("SELECT hand_id FROM hands").fetchall()]
    return {h.hand_id: h for h in read_hands(store.con, ids)}


def test_samples_round_trip_through_phh(tmp_path: Path) -> None:
    with sample_store(tmp_path, PHH_GAMES) as store:
        summary = export_phh(store.con, tmp_path / "phh")
        before = stored_hands(store)
    assert summary.lossy == Counter() and summary.hands == 39
    with Store(tmp_path / "again.duckdb") as again:
        result = ingest(list(summary.files), again)
        assert result.rejects == [] and result.total("hands") == 39
        after = stored_hands(again)
    exported = {k: v for k, v in before.items() if phh_code(v) is not None}
    assert after.keys() == exported.keys()
    for hand_id, hand in exported.items():
        for name in (f.name for f in fields(hand)):
            assert getattr(after[hand_id], name) == getattr(hand, name), (hand_id, name)


def test_export_counts_what_phh_cannot_hold(tmp_path: Path) -> None:
    with sample_store(tmp_path, [*PHH_GAMES, "chowaha"]) as store:
        summary = export_phh(store.con, tmp_path / "all")
        razz = export_phh(store.con, tmp_path / "razz", variants=["razz"], per="event")
        by_code = export_phh(store.con, tmp_path / "code", variants=["FR"])
        chowaha = store.con.execute("SELECT count(*) FROM hands WHERE variant = 'chowaha'").fetchone()
        events = store.con.execute("SELECT DISTINCT event FROM hands WHERE variant = 'razz'").fetchall()
    assert summary.skipped == Counter({"short_deck_holdem": 3, "omaha": 2, "deuce_to_seven_lowball": 2,
                                       "chowaha": chowaha[0] if chowaha else 0})
    assert summary.written["razz"] == 4 and len(summary.files) == len(PHH_GAMES)
    assert (razz.written, razz.skipped) == (Counter({"razz": 4}), Counter())
    assert len(razz.files) == len(events) and all(p.suffix == ".phhs" for p in razz.files)
    assert by_code.written == razz.written
    text = "".join(p.read_text() for p in razz.files)
    assert text.startswith('[1]\nvariant = "FR"') and text.count('variant = "FR"') == 4


def test_pokerkit_reads_what_the_writer_writes() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    for text in (EXAMPLE, YOCKEY_ARIEH, FULL):
        hand = parse_phh(text)
        history = pokerkit.HandHistory.loads(hand_to_phh(hand))
        *_, state = iter(history)
        outcome = replay_hand(hand)
        assert outcome.ending is not None
        assert [s * 100 for s in state.stacks] == [outcome.ending[p] for p in history.players or ()]


def test_a_phh_hand_prints_in_the_native_format() -> None:
    hand = parse_phh(YOCKEY_ARIEH)
    text = write_hand(hand)
    assert "Josh Arieh: discards [As Qs] and draws [2h Qh]" in text
    assert "*** SECOND DRAW ***" in text
    assert text.startswith(f"BARGE Hand #{hand.hand_id}: deuce_to_seven_triple_draw limit")
    # A reshuffle comes before the discard whose draw needs it: the native line stays whole.
    reshuffled = parse_phh(triple_draw_out_of_cards().replace("actions =", 'table = "9"\nactions ='))
    native = write_hand(reshuffled)
    assert "Dealer: reshuffles the discards\np5: discards" in native
    assert parse_hand(native) == reshuffled


def test_what_the_audit_finds_survives_the_export(tmp_path: Path) -> None:
    """Recorded pushes by pot and portion, notes, rulings and the summary go through PHH, so the
    audit of the exported hands finds what it found in the originals; a record PHH's notation
    cannot say literally (a call of the wrong amount) is carried in `_barge_actions`, counted as
    lossy, and finds the same."""
    kept = ["WRONG_AWARD", "MISREAD_HAND", "WRONG_ODD_CHIP", "FLOOR_RULING", "STACK_MISMATCH",
            "TOTAL_POT_MISMATCH"]
    audit_dir = SAMPLES / "audit"
    with Store(tmp_path / "audit.duckdb") as store:
        ingest([audit_dir / f"{code}.bhh" for code in [*kept, "WRONG_CALL_AMOUNT"]], store)
        audit(store)
        before = store.con.execute("SELECT hand_id, code FROM findings ORDER BY ALL").fetchall()
        summary = export_phh(store.con, tmp_path / "phh")
    assert summary.lossy_hands == ("AUDIT-WRONG_CALL_AMOUNT",)
    with Store(tmp_path / "again.duckdb") as again:
        ingest(list(summary.files), again)
        audit(again)
        after = again.con.execute("SELECT hand_id, code FROM findings ORDER BY ALL").fetchall()
    assert after == before
    assert {code for _, code in before} >= set(kept)
