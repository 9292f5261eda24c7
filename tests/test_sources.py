"""Reading files: encodings, format detection and splitting into hand blocks."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from grammar.barge_parser import EXAMPLE, parse_hand
from pipeline.formats import NATIVE, detect_format
from pipeline.sources import expand_paths, read_blocks, split_blocks

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
