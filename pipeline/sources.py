"""Reading history files: encoding detection, format detection and splitting into hand blocks.

A hand block is a run of non-blank lines; a header line also starts a new block when a file
was concatenated without blank lines.  Files are read line by line, so memory does not grow
with the file.

>>> [b.line for b in split_blocks(["BARGE Hand #1: x", "a", "", "", "BARGE Hand #2: y", "b"])]
[1, 5]
"""

from __future__ import annotations

import codecs
import hashlib
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from grammar.barge_parser import HEADER_PREFIX

NATIVE = "barge"
_SNIFF_BYTES = 1 << 16


@dataclass(frozen=True, slots=True)
class Block:
    """One hand's text and the 1-based line of the file it starts on."""

    line: int
    text: str


def detect_encoding(head: bytes) -> str:
    """UTF-8 (with or without BOM), UTF-16 by its BOM, else cp1252 as Windows clients write."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A multi-byte character cut by the sniff window is still UTF-8.
        if exc.start < len(head) - 3:
            return "cp1252"
    return "utf-8"


def open_text(path: Path) -> io.TextIOWrapper:
    with path.open("rb") as raw:
        head = raw.read(_SNIFF_BYTES)
    return open(path, encoding=detect_encoding(head), errors="replace", newline=None)


def detect_format(path: Path) -> str | None:
    """The history format of a file by its content, or None when it is not one we read."""
    with open_text(path) as text:
        for line in text:
            if line.strip():
                return NATIVE if line.lstrip().startswith(HEADER_PREFIX) else None
    return None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as raw:
        for chunk in iter(lambda: raw.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def split_blocks(lines: Iterable[str]) -> Iterator[Block]:
    current: list[str] = []
    start = 0
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            if current:
                yield Block(start, "\n".join(current) + "\n")
                current = []
            continue
        if current and line.startswith(HEADER_PREFIX):
            yield Block(start, "\n".join(current) + "\n")
            current = []
        if not current:
            start = number
        current.append(line)
    if current:
        yield Block(start, "\n".join(current) + "\n")


def read_blocks(path: Path) -> Iterator[Block]:
    with open_text(path) as text:
        yield from split_blocks(text)


def expand_paths(paths: Iterable[Path]) -> Iterator[Path]:
    """Files named directly, and every file below named folders, in a stable order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
        else:
            yield path
