"""Winning hands in classes (flush, two pair, 7-low, four-card badugi, ...) for the Variants page.

The class is read from the description of the hand that won a portion: the one the rules read
(`awards.hand`, written by the audit with its computed awards) where there is one, else the one
the player announced when showing (`actions.detail` of the show). A description names several
portions at once ("high: a flush, Ace high; low: 7-5-3-2-A"), so the part of the portion the
award was for is classified.

>>> hand_class("high: a pair of Kings; low: 7-4-3-2-A", "low")
'7-low'
>>> hand_class("flush, A-Q-J-T-2", "high, run 2")
'flush'
>>> hand_class("low: 6-4-3-2-A; badugi: four-card badugi 7-3-2-A", "badugi")
'four-card badugi'
>>> hand_class(None, None)
'not shown'
"""

from __future__ import annotations

import re

import polars as pl

HIGH_CLASSES = ("straight flush", "four of a kind", "full house", "flush", "straight", "three of a kind",
                "two pair", "one pair", "high card")
LOW_RANKS = ("5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
BADUGI_CLASSES = ("four-card badugi", "three-card badugi", "two-card badugi", "one-card badugi")
CLASS_ORDER = (*HIGH_CLASSES, *(f"{r}-low" for r in LOW_RANKS), *BADUGI_CLASSES, "points",
               "no qualifying hand", "not shown", "other")

_LABEL = re.compile(r"^(high|low|badugi|points|draw|omaha|hold'em)\s*:\s*(.*)$", re.I)
_LOW = re.compile(r"^(?:(?:butt|face)\s+)?([2-9tjqka])(?:-[2-9tjqka]){1,4}\b", re.I)
_CARD_WORDS = {"four": "four", "three": "three", "two": "two", "one": "one", "4": "four", "3": "three",
               "2": "two", "1": "one"}
_HIGH_WORDS = (("royal flush", "straight flush"), ("straight flush", "straight flush"),
               ("four of a kind", "four of a kind"), ("full house", "full house"),
               (" full of ", "full house"),
               ("flush", "flush"), ("straight", "straight"), ("three of a kind", "three of a kind"),
               ("two pair", "two pair"), ("pair", "one pair"), ("high card", "high card"))


def portion_part(description: str, portion: str | None) -> str:
    """The part of `description` about `portion` (", run N" ignored).

    >>> portion_part("a flush, Ace high; 6-5-4-2-A", "low")
    '6-5-4-2-A'
    >>> portion_part("omaha: a pair of Tens; badugi: badugi 8-5-3-A", "omaha")
    'a pair of Tens'
    """
    wanted = (portion or "").split(",")[0].strip().lower()
    wanted = "" if wanted.startswith("run") else wanted
    parts = [p.strip() for p in description.split(";") if p.strip()]
    labelled = [(m.group(1).lower(), m.group(2)) for m in map(_LABEL.match, parts) if m]
    if labelled:
        return next((text for label, text in labelled if label == wanted), labelled[0][1])
    if wanted == "low" and len(parts) > 1:
        return next((p for p in parts[1:] if _LOW.match(p)), parts[1])
    return parts[0] if parts else ""


def classify(text: str, badugi: bool = False) -> str:
    """The class of one portion's hand.

    >>> [classify(t) for t in ("four Kings", "Ace high", "Butt 7-5-4-3-A", "13 points", "T-8-6-4-2")]
    ['four of a kind', 'high card', '7-low', 'points', '10-low']
    >>> classify("three-card 8-5-2", badugi=True)
    'three-card badugi'
    """
    t = text.strip().lower()
    if not t or t.startswith(("no low", "no high", "no qualifying")) or "does not qualify" in t:
        return "no qualifying hand"
    if badugi or "badugi" in t:
        size = re.search(r"\b(four|three|two|one|[1-4])-card", t)
        return f"{_CARD_WORDS[size.group(1)] if size else 'four'}-card badugi"
    if "points" in t:
        return "points"
    low = _LOW.match(t)
    if low:
        rank = low.group(1).upper()
        return f"{'10' if rank == 'T' else rank}-low"
    if re.match(r"^four [a-z]+s\b", t):  # "four Kings", as players announce it
        return "four of a kind"
    for words, name in _HIGH_WORDS:
        if words in t:
            return name
    if re.match(r"^(an? )?[a-z]+ high\b", t):
        return "high card"
    return "other"


def hand_class(description: str | None, portion: str | None) -> str:
    """The class of the hand that won `portion`, from its description (None: it was not shown)."""
    if not description:
        return "not shown"
    base = (portion or "").split(",")[0].strip().lower()
    return classify(portion_part(description, portion), badugi=base == "badugi")


def classed(won: pl.DataFrame) -> pl.DataFrame:
    """`won` (variant, portion, description, portions_won) with each row's `class`, and the portion
    named without its run ("whole pot" where the pot had one portion). Each distinct description is
    classed once: a million hands hold far fewer of them than portions won."""
    pairs = won.select("description", "portion").unique()
    known = {(d, p): hand_class(d, p) for d, p in pairs.iter_rows()}
    return won.with_columns(
        pl.Series("class", [known[(d, p)] for d, p in zip(won["description"], won["portion"], strict=True)],
                  dtype=pl.String),
        pl.col("portion").fill_null("whole pot").str.replace(r",? ?run \d+$", "").replace("", "whole pot"))
