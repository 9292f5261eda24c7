"""One hand grammar read with Lark, and its errors told the way a person fixing the file needs.

Every text format's reader is a `HandReader`: an LALR grammar in a `.lark` file, the transformer
that builds the `Hand` while Lark parses (no parse tree is kept), and the plain words for its
terminals. A parse error becomes a `HandSyntaxError` with the line, the column, the whole word
found there and what would have been accepted.

Hands are parsed with Lark's compiled plugin, `lark_cython`, when it is installed and
`BARGE_PURE=1` does not ask for plain Python: the same grammar and transformer, its lexer and
LALR loop in C (about a third less CPU time a hand; the transformer stays Python). Its tokens are
not `str`, so transformers read a token's text as `token.value` or `str(token)` (and tell a token
from other values with `is_token`), which work the same for both kinds. A hand the plugin fails
on is parsed again with plain Lark: the plugin's errors lack what the messages need (asking its
`UnexpectedToken` what was acceptable raises AttributeError), and plain Lark's read as always.

A reader may also have a coarse grammar (`grammar/*_coarse.lark`, with its transformer in
`grammar/coarse.py`): the record grammar extended so that each common line is one token, which
takes about a quarter of the tokens and half the time a hand. It is tried first (compiled where
the plugin is); a hand it fails on, for any reason, is read by the record grammar as above, so
every error message is the record grammar's.

>>> from grammar.barge_parser import READER
>>> READER.parse("BARGE Hand #1: texas_holdem no-limit (blinds 100/200)\\nSeat one\\n")
Traceback (most recent call last):
...
grammar.errors.HandSyntaxError: line 2, column 1: unexpected 'Seat' (expected 'Currency:', 'Event:', \
'Game:', 'Level:', 'Rules:', 'Seat #N is the button', 'Seat', 'Site:', 'Table', 'Tournament:')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, TypeGuard

from lark import (
    Lark,
    Token,
    Transformer,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

try:
    import lark_cython  # type: ignore[import-untyped]
except ImportError:  # an optional speed-up: plain Lark reads every hand the same
    lark_cython = None

from grammar.errors import HandSyntaxError
from pipeline.hot_path import pure_requested
from pipeline.model import Hand

ENDS_EARLY = "the hand ends too early"

_TOKEN_TYPES: tuple[type, ...] = (Token,) if lark_cython is None else (Token, lark_cython.Token)


def is_token(item: object) -> TypeGuard[Token]:
    """Whether a transformer's argument is a token (of plain Lark or of its compiled plugin)."""
    return isinstance(item, _TOKEN_TYPES)


def word_at(text: str, line: int, column: int) -> str:
    """The whole word around an error position, so "too" is reported rather than its "o"."""
    rows = text.splitlines()
    row = rows[line - 1] if 0 < line <= len(rows) else ""
    lo = hi = max(column - 1, 0)
    if lo >= len(row):
        return ""
    while lo > 0 and row[lo - 1] not in " [(":
        lo -= 1
    while hi < len(row) and row[hi] not in " ])":
        hi += 1
    word = row[lo:hi]
    return word if len(word) <= 40 else word[:37] + "..."


class HandReader:
    """A grammar file, the transformer that builds the hand, and the words for its terminals.

    `cut_off(lines, line)` says whether an error on `line` means the hand was cut off (a file
    that ends mid-hand); such errors, and a hand that ends early, get the `ends_early` message.
    """

    def __init__(self, grammar: Path, transformer: Callable[[], Transformer[Any, Any]],
                 descriptions: Mapping[str, str], ends_early: str = ENDS_EARLY,
                 cut_off: Callable[[list[str], int], bool] | None = None,
                 coarse: tuple[Path, Callable[[], Transformer[Any, Any]]] | None = None) -> None:
        self.grammar, self.transformer, self.descriptions = grammar, transformer, descriptions
        self.ends_early, self.cut_off, self.coarse = ends_early, cut_off, coarse

    def _build(self, plugins: Mapping[str, Any], coarse: bool = False) -> Lark:
        text = self.grammar.read_text(encoding="utf-8")
        transformer = self.transformer
        if coarse:
            assert self.coarse is not None
            # The coarse file `%extend`s the record rules, so it is read after them.
            text += "\n" + self.coarse[0].read_text(encoding="utf-8")
            transformer = self.coarse[1]
        return Lark(text, parser="lalr", lexer="contextual", transformer=transformer(),
                    cache=False, _plugins=plugins)

    @cached_property
    def lark(self) -> Lark:
        """Plain Lark: the parser of record, whose errors are the ones reported."""
        return self._build({})

    @cached_property
    def compiled(self) -> Lark | None:
        """The same parser with the compiled plugin, or None where it is not installed."""
        return None if lark_cython is None else self._build(lark_cython.plugins)

    @cached_property
    def coarse_lark(self) -> Lark | None:
        """The coarse grammar with plain Lark, or None for a reader without one."""
        return None if self.coarse is None else self._build({}, coarse=True)

    @cached_property
    def coarse_compiled(self) -> Lark | None:
        """The coarse grammar with the compiled plugin, where both exist."""
        if self.coarse is None or lark_cython is None:
            return None
        return self._build(lark_cython.plugins, coarse=True)

    def coarse_parser(self) -> Lark | None:
        """The coarse parser to try first: compiled unless `BARGE_PURE=1`, else plain Lark."""
        return (None if pure_requested() else self.coarse_compiled) or self.coarse_lark

    def fast(self) -> Lark | None:
        """The compiled parser unless `BARGE_PURE=1` asks for plain Python (read at each call, so
        that one process can compare both)."""
        return None if pure_requested() else self.compiled

    def describe(self, name: str) -> str:
        if name in self.descriptions:
            return self.descriptions[name]
        try:
            pattern = self.lark.get_terminal(name).pattern
        except KeyError:
            return name
        return f"'{pattern.value}'" if pattern.type == "str" else name

    def expected(self, names: set[str] | frozenset[str]) -> tuple[str, ...]:
        return tuple(sorted({self.describe(n) for n in names}))

    def error(self, exc: UnexpectedInput, text: str) -> HandSyntaxError:
        lines = text.splitlines() or [""]
        end = (len(lines), len(lines[-1]) + 1)
        if isinstance(exc, UnexpectedEOF):
            return HandSyntaxError(self.ends_early, *end, self.expected(set(exc.expected)))
        if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
            return HandSyntaxError(self.ends_early, *end, self.expected(exc.accepts or exc.expected))
        line, column = exc.line or 1, exc.column or 1
        if isinstance(exc, UnexpectedCharacters):
            expected = self.expected(exc.allowed or set())
        else:
            assert isinstance(exc, UnexpectedToken)
            expected = self.expected(exc.accepts or exc.expected)
        if self.cut_off is not None and self.cut_off(lines, line):
            return HandSyntaxError(self.ends_early, line, column, expected)
        word = word_at(text, line, column)
        found = repr(word) if word else "end of the line"
        return HandSyntaxError(f"unexpected {found}", line, column, expected)

    def parse(self, text: str) -> Hand:
        """Parse one hand block; line numbers in errors count from the block's first line."""
        if not text.endswith("\n"):
            text += "\n"
        hand = _attempt(self.coarse_parser(), text)  # failing, the record grammar tells the error
        return hand if hand is not None else self.parse_record(text)

    def parse_record(self, text: str) -> Hand:
        """Parse one hand with the record grammar alone (compiled, then plain Lark)."""
        if not text.endswith("\n"):
            text += "\n"
        fast = _attempt(self.fast(), text)  # failing, plain Lark's error, below, is the one told
        if fast is not None:
            return fast
        try:
            hand = self.lark.parse(text)
        except UnexpectedInput as exc:
            raise self.error(exc, text) from None
        assert isinstance(hand, Hand)  # the transformer's `start` builds it
        return hand


def _attempt(parser: Lark | None, text: str) -> Hand | None:
    """The hand `parser` reads, or None where there is no such parser or it fails on the text (a
    parser of record then reads the hand again and tells its error)."""
    if parser is None:
        return None
    try:
        hand = parser.parse(text)
    except Exception:
        return None
    assert isinstance(hand, Hand)
    return hand
