"""A history's date and time as a `datetime`, without `strptime` (a quarter of its cost a hand).

The grammars' DATE and TIME terminals already fix the shape (digits and separators), so what is
left is the numbers: `datetime` raises ValueError for any out of range (month 13, 25:00, second
60), as `strptime` does for these shapes.

>>> moment("2013/05/26", "21:19", "/")
datetime.datetime(2013, 5, 26, 21, 19)
"""

from __future__ import annotations

from datetime import datetime


def moment(date: str, time: str, separator: str) -> datetime:
    """`date` as year, month and day split by `separator`; `time` as H:MM or H:MM:SS."""
    year, month, day = date.split(separator)
    clock = time.split(":")
    return datetime(int(year), int(month), int(day), int(clock[0]), int(clock[1]),
                    int(clock[2]) if len(clock) == 3 else 0)
