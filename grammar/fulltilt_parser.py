"""Reads Full Tilt Poker's own hand histories: a file's hand blocks, and one block into a `Hand`.

The LALR parser applies `FullTiltTransformer` while it parses, so no parse tree is built. Errors
are `HandSyntaxError`s with the line, the column and what was expected; a hand the history marks
"(partial)", or that is cut off before its summary, is refused with that reason. Full Tilt's
tournament summaries ("Full Tilt Poker Tournament Summary ...") hold no hand: such a file is
recognised and gives no block. The reader is documented in docs/interop.md (Full Tilt Poker).

>>> hand = parse_fulltilt(EXAMPLE)
>>> hand.hand_id, hand.variant, hand.site, hand.currency, [a.kind for a in hand.actions]
('FT-1', 'texas_holdem', 'Full Tilt', 'USD', ['post', 'post', 'raise', 'fold', 'return'])
>>> [b.line for b in split_fulltilt(["Full Tilt Poker Game #1: x", "", "a", "Full Tilt Poker Game #2: y"])]
[1, 4]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from grammar.errors import HandSyntaxError
from grammar.fulltilt_names import mask, unmask
from grammar.fulltilt_transformer import FullTiltTransformer
from grammar.pokerstars_assembly import CUT_OFF
from grammar.pokerstars_dialects import FULLTILT
from grammar.reading import HandReader
from pipeline.model import Hand
from pipeline.sources import Block

GRAMMAR = Path(__file__).with_name("fulltilt.lark")
SUMMARY = re.compile(r"Full Tilt Poker Tournament Summary ")
# Hand archives number their hands with a line such as "******************** # 1 *****".
_ARCHIVE_MARK = re.compile(r"\s*\*{3,} # \d+ \*{3,}\s*")
PARTIAL_MARK = "(partial)"
PARTIAL = "the hand is cut off: the history marks it '(partial)' and keeps only its summary"
# A UTF-16 file with an odd byte at its end: the byte decodes as the replacement character.
_LOST_BYTE = "\ufffd"

EXAMPLE = """\
Full Tilt Poker Game #1: Table Venice (6 max) - $0.01/$0.02 - No Limit Hold'em - 15:42:59 ET - 2010/08/04
Seat 1: Ann ($2)
Seat 2: Bo ($2)
Ann posts the small blind of $0.01
Bo posts the big blind of $0.02
The button is in seat #1
*** HOLE CARDS ***
Ann raises to $0.06
Bo folds
Uncalled bet of $0.04 returned to Ann
Ann mucks
Ann wins the pot ($0.04)
*** SUMMARY ***
Total pot $0.04 | Rake $0
Seat 1: Ann (small blind) collected ($0.04), mucked
Seat 2: Bo (big blind) folded before the Flop
"""

_DESCRIPTIONS = {
    "SITE": "a hand header such as 'Full Tilt Poker Game #1:'",
    "INT": "a whole number",
    "TOURNEY_NAME": "a tournament's name",
    "TABLE": "'Table'",
    "TABLE_NAME": "a table name",
    "TABLE_SIZE": "the table size such as (6 max)",
    "MATCH": "'Match'",
    "GAME": "a game such as No Limit Hold'em",
    "MONEY": "an amount",
    "TIME": "a time HH:MM:SS",
    "ZONE": "a time zone such as ET",
    "DATE": "a date YYYY/MM/DD",
    "LONG_DATE": "a date such as Wed, July 21, 2010",
    "SEAT": "'Seat'",
    "NAME": "a player's name",
    "MARKER": "a street marker such as *** FLOP ***",
    "CARD": "a card such as Ah, Td",
    "HAND_TEXT": "a hand description",
    "SHOWN_AS": "a hand description",
    "FOLD_POINT": "when the player folded, such as 'before the Flop'",
    "REMARK": "a remark about the player (sits down, has returned)",
    "TABLE_REMARK": "a remark about the table",
    "POT_NAME": "a pot such as 'the pot' or 'the side pot'",
    "SUMMARY": "'*** SUMMARY ***'",
    "_NL": "the end of the line",
    "$END": "the end of the hand",
}


def _cut_off(lines: list[str], line: int) -> bool:
    """An error on the last line of a hand with no summary: the file was cut there."""
    return line >= len(lines) and not any(row.strip() == "*** SUMMARY ***" for row in lines)


READER = HandReader(GRAMMAR, FullTiltTransformer, _DESCRIPTIONS, CUT_OFF, _cut_off)


def parse_fulltilt(text: str) -> Hand:
    """Parse one hand block; line numbers in errors count from the block's first line."""
    text = text.replace("\u00a0", " ").lstrip("\ufeff")
    first = text.split("\n", 1)[0].rstrip()
    if first.endswith(PARTIAL_MARK):  # Full Tilt's own mark of a hand it kept only the end of
        raise HandSyntaxError(PARTIAL, 1, len(first) - len(PARTIAL_MARK) + 1)
    masked = mask(text)  # seated names are one word wherever they stand (grammar.fulltilt_names)
    try:
        return READER.parse(masked)
    except HandSyntaxError as exc:
        if masked is text:
            raise
        raise HandSyntaxError(unmask(exc.message), exc.line, exc.column, exc.expected) from None


def _first(head: str) -> str:
    return next((line.strip().lstrip("\ufeff") for line in head.splitlines()
                 if line.strip() and not _ARCHIVE_MARK.fullmatch(line)), "")


def sniff(head: str) -> bool:
    """A Full Tilt history: its first non-blank line (past an archive's numbering) is a hand header or
    a tournament summary's title."""
    first = _first(head)
    return FULLTILT.header.match(first) is not None or SUMMARY.match(first) is not None


def split_fulltilt(lines: Iterable[str]) -> Iterator[Block]:
    """Hand blocks: from a header to the next one. Full Tilt's UTF-16 files may hold a blank line
    between every two lines, so blank lines do not end a hand; archive numbering lines, a tournament
    summary and a lost byte at the end of the file are no hand."""
    current: list[str] = []
    start = 0
    summary = False
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if _ARCHIVE_MARK.fullmatch(line) or line.strip() == _LOST_BYTE:
            continue
        header = FULLTILT.header.match(line.lstrip("\ufeff")) is not None
        if header or (not current and SUMMARY.match(line.lstrip("\ufeff"))):
            if current:
                yield Block(start, "\n".join(current).rstrip() + "\n")
            current, start, summary = [], number, not header
        if summary or (not current and not line.strip()):
            continue
        if not current:
            start = number
        current.append(line)
    if current:
        yield Block(start, "\n".join(current).rstrip() + "\n")
