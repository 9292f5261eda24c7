"""The hand-history formats barge reads, and how a file's format is told from its content.

A format is data: how its files are recognised (`sniff`, given the text of the file's head),
how a file is cut into one block per hand (`split`), and the reader that turns one block into a
`Hand` or raises `HandSyntaxError` (`parse`).  Ingest, the audit and the dashboard's replayer
look formats up here by the name stored with each source, so a new reader is one new entry.

>>> detect_text("BARGE Hand #7: razz limit (antes 10, bring-in 20)\\n")
'barge'
>>> detect_text("just some notes") is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from evaluator.ending import unfinished
from grammar.barge_parser import HEADER_PREFIX, parse_hand
from grammar.errors import HandSyntaxError
from grammar.phh_parser import parse_phh, play_end, sniff, split_phh
from grammar.pokerstars_parser import parse_pokerstars, split_pokerstars
from grammar.pokerstars_parser import sniff as sniff_pokerstars
from pipeline.model import Hand
from pipeline.sources import Splitter, head_text, split_blocks

NATIVE = "barge"
CUT_OFF = "the hand is cut off: the record ends before the hand is over"


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    description: str
    sniff: Callable[[str], bool]
    split: Splitter
    parse: Callable[[str], Hand]


def _last_line(text: str) -> tuple[int, int]:
    lines = text.rstrip().splitlines() or [""]
    return len(lines), len(lines[-1]) + 1


def whole(parse: Callable[[str], Hand], stop: Callable[[str], tuple[int, int]] = _last_line
          ) -> Callable[[str], Hand]:
    """A reader that also refuses a hand whose record stops before the hand is over, where its
    play stops (`stop`: the last line, or PHH's last action), so that no invented result is
    stored (`evaluator.ending`)."""

    def read(text: str) -> Hand:
        hand = parse(text)
        why = unfinished(hand)
        if why is not None:
            raise HandSyntaxError(f"{CUT_OFF} ({why})", *stop(text))
        return hand

    return read


def _first_line(head: str) -> str:
    return next((line.strip().lstrip("\ufeff") for line in head.splitlines() if line.strip()), "")


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format(NATIVE, "the native BARGE format (docs/format.md)",
               lambda head: _first_line(head).startswith(HEADER_PREFIX), split_blocks, whole(parse_hand)),
        Format("phh", "PHH, the PokerKit hand-history standard (.phh, .phhs; docs/interop.md)",
               sniff, split_phh, whole(parse_phh, play_end)),
        Format("pokerstars", "PokerStars hand histories, and other sites' in the same shape "
               "(docs/interop.md (PokerStars))", sniff_pokerstars, split_pokerstars, whole(parse_pokerstars)),
    )
}


def detect_text(head: str) -> str | None:
    """The name of the first format that recognises this text, or None."""
    return next((f.name for f in FORMATS.values() if f.sniff(head)), None)


def detect_format(path: Path) -> tuple[str | None, str]:
    """The history format of a file by its content, or None and the reason it is not read."""
    head, problem = head_text(path)
    if head is None:
        return None, problem
    name = detect_text(head)
    if name is None:
        return None, "not a hand-history format barge reads"
    return name, ""


def reader(name: str) -> Callable[[str], Hand]:
    """The parse function of a stored source's format."""
    return FORMATS[name].parse
