"""Reading files: encodings, format detection and splitting into hand blocks."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from grammar.barge_parser import EXAMPLE, parse_hand
from pipeline.formats import NATIVE, NOT_READ, detect_format, recognise
from pipeline.sources import expand_paths, read_blocks, split_blocks
from tests.conftest import SHARED

ACCENTED = EXAMPLE.replace("Ann", "José")


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: t.encode("utf-8"),
        lambda t: codecs.BOM_UTF8 + t.encode("utf-8"),
        lambda t: t.encode("utf-16"),  # with its byte-order mark, as Windows clients write
        lambda t: t.encode("cp1252"),
        lambda t: t.replace("\n", "\r\n").encode("utf-8"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16", "cp1252", "crlf"],
)
def test_encodings_are_detected(tmp_path: Path, encode: object) -> None:
    path = tmp_path / "hands.bhh"
    path.write_bytes(encode(ACCENTED + "\n" + ACCENTED))  # type: ignore[operator]
    assert detect_format(path) == (NATIVE, "")
    blocks = list(read_blocks(path))
    assert [b.line for b in blocks] == [1, 12]
    assert parse_hand(blocks[1].text).seats[0].player == "José"


def test_blocks_split_on_blank_lines_and_on_headers() -> None:
    lines = (EXAMPLE + "\n\n\n" + EXAMPLE + EXAMPLE).splitlines(keepends=True)
    blocks = list(split_blocks(lines))
    assert [b.line for b in blocks] == [1, 14, 24]
    assert all(b.text == EXAMPLE for b in blocks)


def test_other_files_are_not_taken_for_histories(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("\n\nNotes: Hand #1 of the home game, Hold'em, Ann won\n")
    (tmp_path / "empty.bhh").write_text("")
    (tmp_path / "binary.bin").write_bytes(bytes(range(256)))
    assert [detect_format(p) for p in sorted(tmp_path.iterdir())] == [
        (None, "binary file, not text"),
        (None, "empty file"),
        (None, "not a hand-history format barge reads"),
    ]


def test_folders_are_expanded_recursively_in_order(tmp_path: Path) -> None:
    for name in ("b/2.bhh", "a.bhh", "b/1.bhh", ".hidden"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(EXAMPLE)
    found = [p.relative_to(tmp_path).as_posix() for p, _ in expand_paths([tmp_path])]
    assert found == ["a.bhh", "b/1.bhh", "b/2.bhh"]


@pytest.mark.parametrize(("first_lines", "what"), [
    ("#Game No : 526119469\n***** 888poker Hand History for Game 526119469 *****\n", "888poker history"),
    ("Game #11354414824 starts.\n\n#Game No : 11354414824\n***** Hand History for Game 11354414824 *****\n",
     "PartyPoker history"),
    ('Winamax Poker - Tournament "KING 5" buyIn: Ticket level: 8 - HandId: #1-71-2\n', "Winamax history"),
    ("Poker Hand #OM181427446: PLO-5 ($2/$5) - 2023/04/13 16:21:36\n", "GGPoker history"),
    ("Full Tilt Poker Game #26692486339: Table Vero (6 max) - $200/$400 - Limit Omaha Hi/Lo\n",
     "Full Tilt Poker history"),
    ("\ufeffBovada Hand #3441235006 TBL#16476620 HOLDEM No Limit - 2016-09-02 13:23:36\n",
     "Bovada/Ignition history"),
    ('<?xml version="1.0" encoding="utf-8"?>\n<session sessioncode="1234">\n', "iPoker XML history"),
    ("Hand #78708209 - Omaha H/L(Fixed Limit) - $20.00/$40.00 - 2019/07/18 15:13:01 UTC\n",
     "Winning Poker Network history"),
    ("Game started at: 2016/10/2 21:0:42\nGame ID: 741631166 40/80 (PRR) Xana (Omaha HiLow)\n",
     "Winning Poker Network history"),
])
def test_a_known_site_that_is_not_read_is_named(first_lines: str, what: str) -> None:
    assert recognise(first_lines) == f"{what}: not read by this version of barge"


OTHER_SITES = ("888poker", "bovada", "fulltilt", "ggpoker", "ipoker", "partypoker", "winamax", "winning")


@pytest.mark.skipif(not (SHARED / "corpus" / "winamax").is_dir(),
                    reason="the other sites' corpus (../shared/corpus/<site>/) is not here")
def test_every_file_of_the_other_sites_is_read_or_named_for_what_it_is() -> None:
    unnamed = [str(path) for site in OTHER_SITES for path, _ in expand_paths([SHARED / "corpus" / site])
               if detect_format(path) == (None, NOT_READ)]
    assert unnamed == []


def test_strict_fails_when_a_file_is_skipped(tmp_path: Path) -> None:
    from pipeline.cli import main

    (tmp_path / "hands.bhh").write_text(EXAMPLE, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("Ann won the last hand of the night\n", encoding="utf-8")
    db = str(tmp_path / "t.duckdb")
    assert main(["ingest", str(tmp_path / "hands.bhh"), "--db", db, "--strict", "--json"]) == 0
    assert main(["ingest", str(tmp_path), "--db", db, "--json"]) == 0
    assert main(["ingest", str(tmp_path), "--db", db, "--strict", "--json"]) == 1
