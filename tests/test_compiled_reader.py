"""Lark's compiled plugin reads every text history exactly as plain Lark does.

Every hand of the samples and of the shared corpus's text folders is read twice, with
`BARGE_PURE=1` and without: the hands must be equal, and so must the types of all they hold (a
plugin token left in a hand would compare equal to its text, and print as plain Lark's token
does), and a hand refused must be refused with the same message. The plugin must also read every good hand on
its own: only the hands it refuses may be parsed again by plain Lark.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from lark import Lark

from pipeline.formats import FORMATS, detect_format
from pipeline.model import Hand
from pipeline.sources import read_blocks
from tests.conftest import SAMPLES, SHARED

lark_cython = pytest.importorskip("lark_cython")

CORPUS = SHARED / "corpus"
# PHH's action strings are parsed by grammar.phh_parser itself, and iPoker's XML by no grammar.
NOT_HAND_READER = {"phh", "ipoker"}


def _texts(root: Path) -> Iterator[tuple[str, str]]:
    """(format, hand block) of every file under `root` read by a `HandReader` grammar."""
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name, _ = detect_format(path)
        if name is not None and name not in NOT_HAND_READER:
            for block in read_blocks(path, FORMATS[name].split):
                yield name, block.text


def _read_all(texts: list[tuple[str, str]], parses: dict[bool, int]) -> list[tuple[Hand | str, bool]]:
    """Each hand, or the error it was refused with, and whether plain Lark parsed it."""
    outcomes: list[tuple[Hand | str, bool]] = []
    for name, text in texts:
        plain = parses[False]
        outcome: Hand | str
        try:
            outcome = FORMATS[name].parse(text)
        except Exception as exc:  # any failure must be the same failure
            outcome = f"{type(exc).__name__}: {exc}"
        outcomes.append((outcome, parses[False] > plain))
    return outcomes


def _types(value: object) -> list[type]:
    """The type of a value and of everything it holds, in order."""
    inner: tuple[object, ...] = ()
    if dataclasses.is_dataclass(value):
        inner = tuple(getattr(value, f.name) for f in dataclasses.fields(value))
    elif isinstance(value, tuple | list):
        inner = tuple(value)
    return [type(value), *(t for item in inner for t in _types(item))]


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> dict[bool, int]:
    """How many texts each kind of Lark parser (compiled: True) is given from now on."""
    parses = {True: 0, False: 0}
    parse: Callable[..., Any] = Lark.parse

    def counting(self: Lark, text: str, *args: Any, **kwargs: Any) -> Any:
        parses[bool(self.options._plugins)] += 1
        return parse(self, text, *args, **kwargs)

    monkeypatch.setattr(Lark, "parse", counting)
    return parses


@pytest.mark.parametrize("root", [SAMPLES, CORPUS], ids=["samples", "corpus"])
def test_the_plugin_reads_every_hand_as_plain_lark(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not root.is_dir():
        pytest.skip(f"{root} is absent")
    texts = list(_texts(root))
    parses = _count_parses(monkeypatch)
    monkeypatch.setenv("BARGE_PURE", "1")
    pure = _read_all(texts, parses)
    assert not parses[True]
    reached = parses[False]  # some hands are refused before they reach the grammar
    monkeypatch.delenv("BARGE_PURE")
    compiled = _read_all(texts, parses)
    assert parses[True] == reached
    pairs = list(zip(texts, pure, compiled, strict=True))
    assert not [(text, p, c) for (_, text), (p, _), (c, _) in pairs if p != c or _types(p) != _types(c)][:3]
    # Plain Lark read again only what the plugin could not: hands refused either way.
    assert not [text for (_, text), (p, _), (_, again) in pairs if again and isinstance(p, Hand)][:3]
