"""Players' names on PokerStars lines: a name is whatever stands between `Seat N: ` and its stack
(`PC [Mittel]`, `##terry##477`, `a:b`, `Bob (the cat)`), so the lines are read by the names seated.
Winamax's lines (`Incognito 1 posts small blind 2€`) are read the same way, with the spaces in a
name masked too: `WINAMAX` below.

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
from dataclasses import dataclass

_SPECIAL = ":#[]() "
_PRIVATE = "\ue000\ue001\ue002\ue003\ue004\ue005\ue006"
_UNMASK = str.maketrans(_PRIVATE, _SPECIAL)

# A seat line: the name, then its stack in parentheses ("(1500 in chips", "($2.50 in chips").
SEATED = re.compile(r"^Seat \d+: (.+?) \([$\u20ac\u00a3\u20b9\u00a5\ufffd]?\d[\d,.]* in chips", re.M)
# Where a name stands on a line.
_BEFORE = r"(^(?:Seat \d+: |Dealt to )?|returned to )"


@dataclass(frozen=True, slots=True)
class Masking:
    """How one layout's seat lines give the names (`seated`, the name its first group), and which of
    the lines' own characters a name may not show (`special`, each a subset of `_SPECIAL`)."""

    seated: re.Pattern[str]
    special: str

    def mask(self, text: str) -> str:
        """The hand with each seated name that holds one of the special characters masked where a
        name stands (the text unchanged when no name does)."""
        needs = re.compile("[" + re.escape(self.special) + "]")
        names = sorted({n for n in self.seated.findall(text) if needs.search(n)}, key=len, reverse=True)
        if not names:
            return text
        table = str.maketrans(self.special, "".join(_PRIVATE[_SPECIAL.index(c)] for c in self.special))
        found = re.compile(_BEFORE + "(" + "|".join(map(re.escape, names)) + r")(?=[ :\r\n]|$)", re.M)
        return found.sub(lambda m: m.group(1) + m.group(2).translate(table), text)


POKERSTARS = Masking(SEATED, ":#[]()")
# Winamax: "Seat 1: Incognito 1 (789€)", "Seat 6: I want fold (147894, 29.25€ bounty)"; its lines
# write no ":" after a name, so a name's spaces are masked too and a name is one word.
WINAMAX = Masking(
    re.compile(r"^Seat \d+: (.+?) \(\d[\d.,]*[^\s(),]*(?:, [^()\n]*? bounty)?\)[ \t]*$", re.M), _SPECIAL)


def mask(text: str) -> str:
    """`POKERSTARS.mask`."""
    return POKERSTARS.mask(text)


def unmask(text: str) -> str:
    """A name (or a line) as the history writes it."""
    return text.translate(_UNMASK)
