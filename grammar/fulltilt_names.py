"""Players' names on Full Tilt's lines: a name is whatever stands between `Seat N: ` and its stack
(`Mike Matusow`, `R U NUTZ 2`, `FILL A RACK`), and the lines write no colon after it
(`FILL A RACK folds`), so before the grammar reads a hand every seated name with a space or one of
the lines' own characters is masked where a name stands: at the start of a line and after
`Seat N: `, `Dealt to ` and `returned to `, the longest name first. Each such character becomes a
private-use character, one for one, so the columns of an error stay where they are.

>>> text = "Seat 8: FILL A RACK ($128.50)\\nFILL A RACK folds\\n"
>>> masked = mask(text)
>>> masked.split("\\n")[1].split()[1], unmask(masked) == text
('folds', True)
"""

from __future__ import annotations

import re

_SPECIAL = " :#[]()"
_PRIVATE = "\ue010\ue011\ue012\ue013\ue014\ue015\ue016"
_MASK = str.maketrans(_SPECIAL, _PRIVATE)
_UNMASK = str.maketrans(_PRIVATE, _SPECIAL)
_NEEDS_MASK = re.compile("[" + re.escape(_SPECIAL) + "]")

# A seat line: the name, then its stack in parentheses ("($0.70)", "(119,556,500)", "(2,660)").
SEATED = re.compile(r"^Seat \d+: (.+?) \([$\u20ac\u00a3]?\d[\d,.]*[KMB]?\)(?:, is sitting out)?[ \t]*$", re.M)
_BEFORE = r"(^(?:Seat \d+: |Dealt to )?|returned to )"


def mask(text: str) -> str:
    """The hand with each seated name that holds a space or a special character masked where a name
    stands (the text unchanged when no name does)."""
    play = text.split("*** SUMMARY ***", 1)[0]  # the summary's seat lines end in amounts too
    names = sorted({n for n in SEATED.findall(play) if _NEEDS_MASK.search(n)}, key=len, reverse=True)
    if not names:
        return text
    found = re.compile(_BEFORE + "(" + "|".join(map(re.escape, names)) + r")(?=[ :,\r\n]|$)", re.M)
    return found.sub(lambda m: m.group(1) + m.group(2).translate(_MASK), text)


def unmask(text: str) -> str:
    """A name (or a line) as the history writes it."""
    return text.translate(_UNMASK)
