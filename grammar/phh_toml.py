"""The TOML that PHH files are written in, read without tomllib; anything else by tomllib.

tomllib reads a character at a time in Python: a fifth of the time a PHH hand took.  PHH files
use little of TOML: `key = value` lines with bare keys, strings (basic ones without escapes,
literal ones), decimal integers and floats, booleans, local times, arrays of those (across
lines, with comments) and one-line inline tables of those (the writer's `_barge_*` rows:
`{street = "flop", kind = "bet", cards = ["Ah"]}`), comment and blank lines.  Those are read with
a few regular expressions; a document with anything else, or anything tomllib might refuse, goes
to tomllib, which stays the judge of errors and of everything unusual.

>>> read_toml('a = [1, {b = "x", c = [true]}]  # c')
{'a': [1, {'b': 'x', 'c': [True]}]}
"""

from __future__ import annotations

import re
import tomllib
from datetime import time
from typing import Any

_NOT_CONTROL = r"^\x00-\x08\n-\x1f\x7f"  # TOML allows a tab, but no other control character
_COMMENT = rf"#[{_NOT_CONTROL}]*+"  # to the end of its line: never an array's `]` in a comment
_SCALAR = (rf'"[{_NOT_CONTROL}"\\]*"'  # a backslash starts an escape: tomllib's
           rf"|'[{_NOT_CONTROL}']*'"
           r"|true|false"
           r"|(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"  # a local time, without fractions
           r"|[+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_KEY = r"[A-Za-z0-9_-]+"
# Inside an inline table, all on its line: scalars and arrays of scalars, no comment.
_ROW_VALUE = rf"{_SCALAR}|\[[ \t]*(?:(?:{_SCALAR})[ \t]*,[ \t]*)*(?:(?:{_SCALAR})[ \t]*)?\]"
_PAIR = rf"{_KEY}[ \t]*=[ \t]*(?:{_ROW_VALUE})"
_INLINE = rf"\{{[ \t]*(?:{_PAIR}[ \t]*(?:,[ \t]*{_PAIR}[ \t]*)*)?\}}"
_BLANK = rf"(?:[ \t\n]|{_COMMENT})*+"
# A line is its key and value, an array's items one match each (one pass over the array, telling
# what ends each item), then the line's end.
_HEAD = re.compile(rf"[ \t]*(?:(?P<key>{_KEY})[ \t]*=[ \t]*"
                   rf"(?:(?P<value>{_SCALAR}|{_INLINE})|(?P<array>\[)))?")
_ITEM = re.compile(rf"{_BLANK}(?:(?:({_SCALAR})|({_INLINE})){_BLANK}([,\]])|\])")
_TAIL = re.compile(rf"[ \t]*(?:{_COMMENT})?(?:\n|\Z)")


def _flat(item: str) -> re.Pattern[str]:
    """An array's items after its "[", when all are `item` on the array's line."""
    return re.compile(rf"[ \t]*(?:(?:{item})[ \t]*,[ \t]*)*(?:(?:{item})[ \t]*)?\]")


# The arrays most PHH lines hold, read in one match: whole numbers, or strings of one kind.
_WHOLE_NUMBERS = _flat("0|[1-9][0-9]*")
_LITERALS = _flat(rf"'[{_NOT_CONTROL}']*'")
_BASICS = _flat(rf'"[{_NOT_CONTROL}"\\]*"')
_LITERAL = re.compile(r"'([^']*)'")
_BASIC = re.compile(r'"([^"]*)"')
_PAIRS = re.compile(rf"({_KEY})[ \t]*=[ \t]*({_ROW_VALUE})")
_SCALARS = re.compile(_SCALAR)


def toml_subset(text: str) -> dict[str, Any] | None:
    """The document as `tomllib.loads` reads it, when it is written in the TOML that PHH files
    use; None for anything else (a table, a date, an escape, a repeated key...)."""
    data: dict[str, Any] = {}
    position, end = 0, len(text)
    while position < end:
        head = _HEAD.match(text, position)
        assert head is not None  # it may match nothing
        position = head.end()
        key = head["key"]
        value: Any = None
        if key is not None:
            if key in data:
                return None
            if head["array"] is not None:
                value, position = _array(text, position)
            else:
                single = head["value"]
                value = _table(single) if single[0] == "{" else _scalar(single)
            if value is None:
                return None
            data[key] = value
        tail = _TAIL.match(text, position)
        if tail is None:
            return None
        position = tail.end()
    return data


def _array(text: str, position: int) -> tuple[list[Any] | None, int]:
    """The array whose "[" ends at `position`, and where it ends (None: not in the subset)."""
    flat = _WHOLE_NUMBERS.match(text, position)
    if flat is not None:
        return [int(n) for n in text[position:flat.end() - 1].split(",") if not n.isspace() and n], flat.end()
    for strings, string in ((_LITERALS, _LITERAL), (_BASICS, _BASIC)):
        flat = strings.match(text, position)
        if flat is not None:
            return string.findall(text, position, flat.end()), flat.end()
    values: list[Any] = []
    while True:
        item = _ITEM.match(text, position)
        if item is None:
            return None, position
        position = item.end()
        scalar, table, after = item.groups()
        if scalar is not None:
            values.append(_scalar(scalar))
        elif table is not None:
            row = _table(table)
            if row is None:
                return None, position
            values.append(row)
        if after != ",":
            return values, position


def _table(text: str) -> dict[str, Any] | None:
    row: dict[str, Any] = {}
    for key, value in _PAIRS.findall(text):
        if key in row:
            return None
        row[key] = [_scalar(s) for s in _SCALARS.findall(value)] if value[0] == "[" else _scalar(value)
    return row


def _scalar(text: str) -> str | bool | int | float | time:
    first = text[0]
    if first == '"' or first == "'":
        return text[1:-1]
    if text == "true" or text == "false":
        return text == "true"
    if text[2:3] == ":":
        return time(int(text[:2]), int(text[3:5]), int(text[6:]))
    return float(text) if "." in text or "e" in text or "E" in text else int(text)


def read_toml(text: str) -> dict[str, Any]:
    """`tomllib.loads`, quicker for what PHH files are made of."""
    data = toml_subset(text)
    return tomllib.loads(text) if data is None else data
