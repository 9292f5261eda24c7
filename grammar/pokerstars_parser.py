"""Reads PokerStars hand histories, and the sites' that write its layout in their own words
(`grammar.pokerstars_dialects`): a file's hand blocks, and one block into a `Hand`.

The LALR parser applies `PokerStarsTransformer` while it parses, so no parse tree is built. Errors
are `HandSyntaxError`s with the line, the column and what was expected; a hand the history marks
"Hand cancelled", or that is cut off before its summary, is refused with that reason.
The reader is documented in docs/interop.md (PokerStars, GGPoker).

>>> hand = parse_pokerstars(EXAMPLE)
>>> hand.hand_id, hand.variant, hand.structure, [a.kind for a in hand.actions]
('PS-1', 'texas_holdem', 'no-limit', ['post', 'post', 'raise', 'fold', 'return'])
>>> [b.line for b in split_pokerstars(["x *** RIVER *** [4d PokerStars Hand #2: y", "a", "", "b"])]
[1, 1, 4]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from grammar.coarse import CoarsePokerStarsTransformer
from grammar.errors import HandSyntaxError
from grammar.pokerstars_assembly import CUT_OFF
from grammar.pokerstars_dialects import GGPOKER, POKERSTARS, Dialect
from grammar.pokerstars_names import mask, unmask
from grammar.pokerstars_transformer import PokerStarsTransformer
from grammar.reading import HandReader
from pipeline.model import Hand
from pipeline.sources import Block

GRAMMAR = Path(__file__).with_name("pokerstars.lark")
COARSE_GRAMMAR = Path(__file__).with_name("pokerstars_coarse.lark")

# Hand archives number their hands with a line such as "*********** # 1 **************".
_ARCHIVE_MARK = re.compile(r"\s*\*{3,} # \d+ \*{3,}\s*")

EXAMPLE = """\
PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD) - 2025/04/24 17:21:34 CET [2025/04/24 11:21:34 ET]
Table 'Olga' 6-max Seat #1 is the button
Seat 1: Ann ($200 in chips)
Seat 2: Bo ($200 in chips)
Ann: posts small blind $1
Bo: posts big blind $2
*** HOLE CARDS ***
Ann: raises $4 to $6
Bo: folds
Uncalled bet ($4) returned to Ann
Ann collected $4 from pot
*** SUMMARY ***
Total pot $4 | Rake $0
Seat 1: Ann (button) (small blind) collected ($4)
Seat 2: Bo (big blind) folded before Flop
"""

# What each named terminal means to someone fixing a history by hand.
_DESCRIPTIONS = {
    "SITE": "a hand header such as 'PokerStars Hand #1:'",
    "INT": "a whole number",
    "HAND_NUMBER": "a hand number",
    "GAME_CODE": "a game code such as PLO-5",
    "FEE": "a fee such as Jackpot",
    "CLUB": "a home game's club in braces",
    "TOURNEY": "'Tournament #'",
    "GAME": "a game such as Hold'em or 7 Card Stud",
    "MIX": "a mixed game such as 8-Game",
    "WORD": "a buy-in",
    "STRUCTURE": "Limit, Pot Limit or No Limit",
    "MONEY": "an amount",
    "CURRENCY": "a currency such as USD",
    "DATE": "a date YYYY/MM/DD",
    "TIME": "a time HH:MM:SS",
    "ZONE": "a time zone such as ET",
    "TABLE": "'Table'",
    "TABLE_NAME": "a table name in quotes",
    "MAX_SEATS": "the table size such as 9-max",
    "SEAT": "'Seat'",
    "SEAT_NAME": "a player's name followed by their stack in parentheses",
    "STREET_NAME": "a street name such as FLOP",
    "ACTOR": "a player's name followed by ':'",
    "DEALT_NAME": "a player's name followed by cards",
    "COLLECTOR": "a player's name followed by 'collected'",
    "LINE_NAME": "a player's name",
    "SUMMARY_NAME": "a player's name",
    "CARD": "a card such as Ah, Td",
    "UNNAMED_CARD": "an unknown card (XX)",
    "DESCRIPTION": "a hand description in parentheses",
    "HAND_TEXT": "a hand description",
    "FOLD_POINT": "when the player folded, such as 'before Flop'",
    "CHATTER": "a line about the table (chat, arrivals)",
    "KEPT": "a remark of the site (cash-out, bounty, place)",
    "SHOWER": "a player's name followed by 'shows'",
    "TABLE_REMARK": "a remark about the table",
    "SUMMARY": "'*** SUMMARY ***'",
    "CANCELLED": "'Hand cancelled'",
    "COMMENT": "a converter's comment",
    "CAP_WORD": "'Cap'",
    "_NL": "the end of the line",
    "$END": "the end of the hand",
}


def _cut_off(lines: list[str], line: int) -> bool:
    """An error on the last line of a hand with no summary: the file was cut there (or another
    hand was pasted into it)."""
    return line >= len(lines) and not any(row.strip() == "*** SUMMARY ***" for row in lines)


@dataclass(frozen=True, slots=True)
class SiteReader:
    """The reader of one dialect: its files recognised, cut into hands, and each hand read."""

    dialect: Dialect
    reader: HandReader

    def parse(self, text: str) -> Hand:
        """Parse one hand block; line numbers in errors count from the block's first line."""
        # Some clients write a no-break space between words (cp1252 0xA0): it is a space.
        text = text.replace("\u00a0", " ").lstrip("\ufeff")
        masked = mask(text)  # seated names read as names wherever they stand (grammar.pokerstars_names)
        try:
            return self.reader.parse(masked)
        except HandSyntaxError as exc:
            if masked is text:
                raise
            raise HandSyntaxError(unmask(exc.message), exc.line, exc.column, exc.expected) from None

    def is_header(self, line: str) -> bool:
        return self.dialect.header.match(line.strip().lstrip("\ufeff")) is not None

    def sniff(self, head: str) -> bool:
        """A history of this dialect: its first non-blank line (past an archive's numbering) is a header."""
        for line in head.splitlines():
            if line.strip() and not _ARCHIVE_MARK.fullmatch(line):
                return self.is_header(line)
        return False

    def split(self, lines: Iterable[str]) -> Iterator[Block]:
        """Hand blocks: runs of non-blank lines, also cut where a header begins, even mid-line (a file
        that was cut off and continued with the next hand). Archive numbering lines separate hands."""
        current: list[str] = []
        start = 0
        for number, raw in enumerate(lines, 1):
            line = raw.rstrip("\r\n")
            if not line.strip() or _ARCHIVE_MARK.fullmatch(line):
                if current:
                    yield Block(start, "\n".join(current) + "\n")
                    current = []
                continue
            found = self.dialect.header.search(line)
            if found is not None and line[: found.start()].strip(" \t\ufeff"):
                if not current:
                    start = number
                current.append(line[: found.start()].rstrip())
                line = line[found.start():]
            if current and found is not None:
                yield Block(start, "\n".join(current) + "\n")
                current = []
            if not current:
                start = number
            current.append(line)
        if current:
            yield Block(start, "\n".join(current) + "\n")


def _site_reader(dialect: Dialect) -> SiteReader:
    transformer = partial(PokerStarsTransformer, dialect)
    coarse = partial(CoarsePokerStarsTransformer, dialect)
    return SiteReader(dialect, HandReader(GRAMMAR, transformer, _DESCRIPTIONS, CUT_OFF, _cut_off,
                                          coarse=(COARSE_GRAMMAR, coarse)))


PS_READER = _site_reader(POKERSTARS)
GG_READER = _site_reader(GGPOKER)
parse_pokerstars = PS_READER.parse
is_header = PS_READER.is_header
sniff = PS_READER.sniff
split_pokerstars = PS_READER.split
