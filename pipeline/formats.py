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

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from evaluator.ending import unfinished
from grammar.barge_parser import HEADER_PREFIX, parse_hand
from grammar.bovada_parser import parse_bovada, split_bovada
from grammar.bovada_parser import sniff as sniff_bovada
from grammar.errors import HandSyntaxError
from grammar.fulltilt_parser import parse_fulltilt, split_fulltilt
from grammar.fulltilt_parser import sniff as sniff_fulltilt
from grammar.ipoker_reader import parse_ipoker, split_ipoker
from grammar.ipoker_reader import sniff as sniff_ipoker
from grammar.partypoker_parser import parse_partypoker, split_partypoker
from grammar.partypoker_parser import sniff as sniff_partypoker
from grammar.phh_parser import parse_phh, play_end, sniff, split_phh
from grammar.poker888_parser import parse_888, split_888
from grammar.poker888_parser import sniff as sniff_888
from grammar.pokerstars_parser import GG_READER, parse_pokerstars, split_pokerstars
from grammar.pokerstars_parser import sniff as sniff_pokerstars
from grammar.winamax_parser import parse_winamax, split_winamax
from grammar.winamax_parser import sniff as sniff_winamax
from grammar.winning_parser import parse_winning, split_winning
from grammar.winning_parser import sniff as sniff_winning
from pipeline.model import Hand
from pipeline.sources import Head, Splitter, head_text, read_head, split_blocks

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
        Format("888poker", "888poker hand histories, also of its Cassava software and regional sites "
               "(docs/interop.md (888poker))", sniff_888, split_888, whole(parse_888)),
        Format("partypoker", "PartyPoker hand histories, both layouts, and other sites' converted to them "
               "(docs/interop.md (PartyPoker))", sniff_partypoker, split_partypoker, whole(parse_partypoker)),
        Format("ggpoker", "GGPoker hand histories (docs/interop.md (GGPoker))", GG_READER.sniff,
               GG_READER.split, whole(GG_READER.parse)),
        Format("fulltilt", "Full Tilt Poker's own hand histories (docs/interop.md (Full Tilt Poker))",
               sniff_fulltilt, split_fulltilt, whole(parse_fulltilt)),
        Format("winamax", "Winamax hand histories (docs/interop.md (Winamax))", sniff_winamax, split_winamax,
               whole(parse_winamax)),
        Format("winning", "Winning Poker Network hand histories, Americas Cardroom's and its skins' "
               "(docs/interop.md (Winning Poker Network))", sniff_winning, split_winning,
               whole(parse_winning)),
        Format("bovada", "Bovada, Ignition and Bodog hand histories (docs/interop.md (Bovada, Ignition and "
               "Bodog))", sniff_bovada, split_bovada, whole(parse_bovada)),
        Format("ipoker", "iPoker's XML hand histories (docs/interop.md (iPoker))", sniff_ipoker, split_ipoker,
               whole(parse_ipoker)),
    )
}


# Files recognised by their opening lines that no reader above takes: the report names what each
# is ("Winamax history: not read"), so that a user learns why a folder stored nothing rather than
# guessing. The readers are asked first, so a site whose reader is added here becomes read.
RECOGNISED: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (what, re.compile(pattern, re.M)) for what, pattern in (
        # 888's skins name themselves (888poker, 888.ro, Cassava); PartyPoker's line names no site.
        ("888poker history", r"^\*{5} \S+ Hand History for Game \d+"),
        ("PartyPoker history", r"^Game #\d+ starts\.|^\*{5} Hand History [Ff]or Game \w+ \*{5}"),
        ("Winamax history", r"^Winamax Poker - "),
        ("GGPoker history", r"^Poker Hand #[A-Z]{2}\d+: "),
        ("Full Tilt Poker history", r"^Full ?Tilt ?Poker Game #\d+"),
        ("Full Tilt Poker tournament summary", r"^Full Tilt Poker Tournament Summary"),
        ("Bovada/Ignition history", r"^(Bovada|Ignition|Bodog)[\w. ]* Hand #\d+"),
        ("iPoker XML history", r"<session sessioncode="),
        ("Winning Poker Network history",
         r"^(Game )?Hand #\d+ - .* \d{4}/\d\d/\d\d \d\d?:\d\d:\d\d UTC|^Game started at: \d{4}/"),
        ("PokerStars tournament summary", r"^PokerStars Tournament #\d+, "),
    )
)
NOT_READ = "not a hand-history format barge reads"


def detect_text(head: str) -> str | None:
    """The name of the first format that recognises this text, or None."""
    return next((f.name for f in FORMATS.values() if f.sniff(head)), None)


def recognise(head: str) -> str:
    """What a file no reader takes is, from its first lines, and that it is not read.

    >>> recognise("Winamax Poker - CashGame - HandId: #1-2-3 - Holdem no limit (0.01€/0.02€)\\n")
    'Winamax history: not read by this version of barge'
    >>> recognise("shopping list")
    'not a hand-history format barge reads'
    """
    top = "\n".join(head.lstrip("\ufeff").splitlines()[:12])
    what = next((what for what, pattern in RECOGNISED if pattern.search(top)), None)
    return NOT_READ if what is None else f"{what}: not read by this version of barge"


def detect_format(path: Path, head: Head | None = None) -> tuple[str | None, str]:
    """The history format of a file by its content, or None and the reason it is not read (naming
    the site and format where they are recognised); from `head` when it was read already."""
    text, problem = head_text(head or read_head(path))
    if text is None:
        return None, problem
    name = detect_text(text)
    if name is None:
        return None, recognise(text)
    return name, ""


def reader(name: str) -> Callable[[str], Hand]:
    """The parse function of a stored source's format."""
    return FORMATS[name].parse
