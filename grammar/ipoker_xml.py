"""Reads the XML of an iPoker history with expat, safely, into a small tree whose every element
knows its line and column, so that an error in a hand can be located in the file.

iPoker's XML never holds a document type declaration: one, and any entity it could declare (the
"billion laughs" attack, external entities), is refused before anything is expanded. An element the
record leaves open is reported as a cut-off hand, unless only the outermost is (a file that stops
where the hand's closing tag was due: `Read.unclosed`, for the reader to judge).

>>> node = read_xml('<game gamecode="7">\\n <round no="0"/>\\n</game>')
>>> node.tag, node.attrs["gamecode"], [(c.tag, c.line, c.column) for c in node.children]
('game', '7', [('round', 2, 2)])
>>> read_xml('<!DOCTYPE g [<!ENTITY a "aaaa">]><game>&a;</game>')
Traceback (most recent call last):
...
grammar.errors.HandSyntaxError: line 1, column 1: a document type declaration is refused: iPoker \
writes none, and its entities could expand without bound (expected an element such as <game>)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.parsers import expat

from grammar.errors import HandSyntaxError

CUT_OFF = "the hand is cut off"
_END_TAG = re.compile(r"</([\w:.-]+)\s*>")


@dataclass(frozen=True, slots=True)
class Node:
    """One element: its tag, attributes, place in the text (1-based), children and text."""

    tag: str
    attrs: dict[str, str]
    line: int
    column: int
    children: list[Node] = field(default_factory=list)
    chunks: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.chunks).strip()

    def find(self, tag: str) -> Node | None:
        return next((c for c in self.children if c.tag == tag), None)

    def all(self, tag: str) -> list[Node]:
        return [c for c in self.children if c.tag == tag]

    def opening(self) -> str:
        """The element's start tag as written, for messages."""
        return "<" + " ".join([self.tag, *(f'{k}="{v}"' for k, v in self.attrs.items())]) + ">"


@dataclass(frozen=True, slots=True)
class Read:
    """The tree, and whether the text ended before the outermost element's closing tag."""

    root: Node
    unclosed: bool = False


class _Refused(Exception):
    """A declaration iPoker never writes, stopped before expat acts on it."""


def _refuse(*_: object) -> int:
    raise _Refused


def _parse(text: str) -> tuple[Node | None, list[Node], expat.ExpatError | _Refused | None, tuple[int, int]]:
    """One expat pass: the root, the elements still open, and the error with expat's position."""
    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = _refuse
    parser.EntityDeclHandler = _refuse
    parser.ExternalEntityRefHandler = _refuse
    stack: list[Node] = []
    roots: list[Node] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = Node(tag, attrs, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def data(chunk: str) -> None:
        if stack:
            stack[-1].chunks.append(chunk)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(text, True)
    except (expat.ExpatError, _Refused) as exc:
        return None, stack, exc, (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
    return roots[0] if roots else None, stack, None, (1, 1)


def read_xml(text: str) -> Node:
    """The element tree of `text` (one element), or a located `HandSyntaxError`."""
    return read_document(text).root


def read_document(text: str) -> Read:
    """`read_xml`, and whether the text stops where the outermost element's closing tag was due."""
    root, open_, exc, (line, column) = _parse(text)
    if exc is None and root is not None:
        return Read(root)
    if isinstance(exc, _Refused):
        at = text.find("<!")  # the declaration's start, where a person reading the file looks
        if at >= 0:
            line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
        raise HandSyntaxError("a document type declaration is refused: iPoker writes none, and its "
                              "entities could expand without bound", line, column,
                              ("an element such as <game>",))
    if exc is None:
        raise HandSyntaxError("no element is written", line, column, ("an element such as <game>",))
    line, column = exc.lineno, exc.offset + 1
    rows = text.split("\n")
    row = rows[line - 1] if line <= len(rows) else ""
    # expat points inside the closing tag it could not match: the tag starts at the "</" before
    closing = _END_TAG.match(row, max(row.rfind("</", 0, column), 0))
    names = [n.tag for n in open_]
    mismatch = exc.code == expat.errors.codes[expat.errors.XML_ERROR_TAG_MISMATCH]
    if mismatch and closing and closing.group(1) in names:
        inner = open_[-1]
        raise HandSyntaxError(f"{CUT_OFF}: {inner.opening()} (line {inner.line}) is not closed before "
                              f"{closing.group(0)}", line, closing.start() + 1, (f"</{inner.tag}>",))
    if exc.code == expat.errors.codes[expat.errors.XML_ERROR_NO_ELEMENTS] and len(open_) == 1:
        return Read(open_[0], unclosed=True)
    if open_ and exc.code == expat.errors.codes[expat.errors.XML_ERROR_NO_ELEMENTS]:
        raise HandSyntaxError(f"{CUT_OFF}: the record ends inside {open_[-1].opening()} "
                              f"(line {open_[-1].line})", line, column, (f"</{open_[-1].tag}>",))
    raise HandSyntaxError(f"malformed XML: {expat.errors.messages[exc.code]}", line, column)
