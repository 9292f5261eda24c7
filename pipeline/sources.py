"""Reading history files: encoding detection, the text a format is recognised by, and
splitting into hand blocks.  Which formats exist is `pipeline.formats`.

A hand block is a run of non-blank lines; a header line also starts a new block when a file
was concatenated without blank lines.  Files are read line by line, so memory does not grow
with the file; a file no longer than its head (`Head.whole`: a one-hand file) is read once, its
encoding, format, SHA-256 and blocks all taken from that one buffer.

>>> [b.line for b in split_blocks(["BARGE Hand #1: x", "a", "", "", "BARGE Hand #2: y", "b"])]
[1, 5]
"""

from __future__ import annotations

import codecs
import hashlib
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from grammar.barge_parser import HEADER_PREFIX

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


# NUL bytes at a line's start, before its text (a NUL run that ends the file is a binary file's).
_LINE_START_NUL = re.compile(rb"(?:^|(?<=\n))\0+(?=[^\0-\x08\x0e-\x1f])")


@dataclass(frozen=True, slots=True)
class Head:
    """The first 64 KiB of a file; `whole`: that is all of it."""

    data: bytes
    whole: bool


def read_head(path: Path) -> Head:
    with path.open("rb") as raw:
        data = raw.read(_SNIFF_BYTES)
    return Head(data, len(data) < _SNIFF_BYTES)


def open_text(path: Path) -> io.TextIOWrapper:
    return open(path, encoding=detect_encoding(read_head(path).data), errors="replace", newline=None)


def head_text(head: Head) -> tuple[str | None, str]:
    """The head of a file as text, or None and why it is not a text file.

    Only the head is read, so a large binary file costs nothing.
    """
    data = head.data
    if not data.strip():
        return None, "empty file"
    encoding = detect_encoding(data)
    # PartyPoker's client writes a NUL byte before some lines (docs/interop.md (PartyPoker)): a text
    # file still; one elsewhere is a binary file's. The search is skipped when there is no NUL at all.
    if b"\0" in data and encoding != "utf-16" and b"\0" in _LINE_START_NUL.sub(
            b"", data if head.whole else data.rstrip(b"\0")):  # a cut head may stop just after a line's NUL
        return None, "binary file, not text"
    return data.decode(encoding, errors="replace").replace("\0", ""), ""


def sha256_of(path: Path, head: Head | None = None) -> str:
    """The file's SHA-256; from `head` when that is the whole file."""
    if head is not None and head.whole:
        return hashlib.sha256(head.data).hexdigest()
    digest = hashlib.sha256()
    with path.open("rb") as raw:
        for chunk in iter(lambda: raw.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def native_header(line: str) -> bool:
    return line.startswith(HEADER_PREFIX)


def split_blocks(lines: Iterable[str], starts: Callable[[str], bool] = native_header) -> Iterator[Block]:
    """Hand blocks: runs of non-blank lines, also cut before a line `starts` calls a header."""
    current: list[str] = []
    start = 0
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            if current:
                yield Block(start, "\n".join(current) + "\n")
                current = []
            continue
        if current and starts(line):
            yield Block(start, "\n".join(current) + "\n")
            current = []
        if not current:
            start = number
        current.append(line)
    if current:
        yield Block(start, "\n".join(current) + "\n")


Splitter = Callable[[Iterable[str]], Iterator[Block]]


def read_blocks(path: Path, split: Splitter = split_blocks, head: Head | None = None) -> Iterator[Block]:
    """The file's hand blocks; from `head` when that is the whole file, decoded as `open_text` would."""
    if head is not None and head.whole:
        text = head.data.decode(detect_encoding(head.data), errors="replace")
        yield from split(io.StringIO(text, newline=None))
        return
    with open_text(path) as lines:
        yield from split(lines)


def _walk(folder: Path, visited: set[tuple[int, int]]) -> Iterator[tuple[Path, str | None]]:
    try:
        # A directory entry knows its type: a folder of 10,000 files is listed without a stat each.
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError as exc:
        yield folder, f"cannot list folder: {exc.strerror or exc}"
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        path = folder / entry.name
        if entry.is_dir():
            identity = (path.stat().st_dev, path.stat().st_ino)
            if identity in visited:
                yield path, f"directory loop: {path} leads back to {path.resolve()}"
                continue
            visited.add(identity)
            yield from _walk(path, visited)
        elif entry.is_file():
            yield path, None


def expand_paths(paths: Iterable[Path]) -> Iterator[tuple[Path, str | None]]:
    """Files named directly, and every file below named folders (following links to folders,
    once each), in a stable order; with each, the reason it cannot be read, if any."""
    for path in paths:
        if path.is_dir():
            yield from _walk(path, {(path.stat().st_dev, path.stat().st_ino)})
        elif path.exists():
            yield path, None
        else:
            yield path, "no such file or folder"
