"""Players' names on PokerStars lines: a name is whatever stands between `Seat N: ` and its stack
(`PC [Mittel]`, `##terry##477`, `a:b`, `Bob (the cat)`), so the lines are read by the names seated.

Before the grammar reads a hand, every seated name that holds a character the lines use for
something else (`:` ends an actor, `#` opens a converter's comment, `[` opens cards, parentheses
hold a role or an amount) is found where a name stands: at the start of a line, after `Seat N: `,
`Dealt to ` and `returned to `. The longest name is tried first, so `PC [Mittel]` is not read as
`PC`. Those characters are written as private-use characters of the same length, which keeps every
column of an error where it is; `unmask` turns the names the grammar read back into the players'.

>>> text = "Seat 1: PC [Mittel] ($5 in chips)\\nPC [Mittel]: folds\\nDealt to PC [Mittel] [Ah Kd]\\n"
>>> masked = mask(text)
>>> "[Mittel]" in masked, len(masked) == len(text)
(False, True)
>>> unmask(masked) == text
True
"""

from __future__ import annotations

import re

_SPECIAL = ":#[]()"
_PRIVATE = "\ue000\ue001\ue002\ue003\ue004\ue005"
_MASK = str.maketrans(_SPECIAL, _PRIVATE)
_UNMASK = str.maketrans(_PRIVATE, _SPECIAL)
_NEEDS_MASK = re.compile("[" + re.escape(_SPECIAL) + "]")

# A seat line: the name, then its stack in parentheses ("(1500 in chips", "($2.50 in chips").
SEATED = re.compile(r"^Seat \d+: (.+?) \([$\u20ac\u00a3\u20b9\u00a5\ufffd]?\d[\d,.]* in chips", re.M)
# Where a name stands on a line.
_BEFORE = r"(^(?:Seat \d+: |Dealt to )?|returned to )"


def mask(text: str) -> str:
    """The hand with each seated name that holds one of the lines' own characters masked where a
    name stands (the text unchanged when no name does)."""
    names = sorted({n for n in SEATED.findall(text) if _NEEDS_MASK.search(n)}, key=len, reverse=True)
    if not names:
        return text
    found = re.compile(_BEFORE + "(" + "|".join(map(re.escape, names)) + r")(?=[ :\r\n]|$)", re.M)
    return found.sub(lambda m: m.group(1) + m.group(2).translate(_MASK), text)


def unmask(text: str) -> str:
    """A name (or a line) as the history writes it."""
    return text.translate(_UNMASK)
