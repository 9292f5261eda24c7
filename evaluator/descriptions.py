"""Hand descriptions, as histories write them and as the evaluator reads the cards, compared.

A shown hand often comes with its description: PokerStars writes "two pair, Kings and Fives",
"a straight, Nine to King", "HI: a flush, Ace high; LO: 7,5,4,3,A", "Lo: 9,7,6,4,2"; the native
format the same words, or "7-5-3-2-A", "four-card badugi 7-4-3-2", "43 points", with labels such
as "omaha:" or "low:". `read` turns one such part into a `Reading` (what kind of hand, its
category and the ranks that name it); the evaluator's own descriptions (`evaluator.scales.describe`)
read the same way. `misdescribed` says when a part names a hand the cards do not make on any
run of the board, for any portion its label allows; a part it cannot read is not judged.
A label can say how to read its part: PokerStars' "Badugi: 8,6,3,2" lists the cards of a
four-card badugi, "3-card: 9,2,A" those of a three-card one (ace low, so written last).

>>> read("two pair, Kings and Fives - Ace kicker")
Reading(category='two pair', ranks=('K', '5'))
>>> read("a straight, Nine to King"), read("straight, King high with ...")
(Reading(category='straight', ranks=('K',)), Reading(category='straight', ranks=('K',)))
>>> read("7,5,4,3,A") == read("7-5-4-3-A, number 7 in ace-to-five")
True
>>> parts("HI: a flush, Ace high; LO: 7,5,4,3,A")
[('high', 'a flush, Ace high'), ('low', '7,5,4,3,A')]
>>> read("8,6,3,2", "badugi") == read("four-card 8-6-3-2 badugi")
True
>>> parts("a 3-card: 9,2,A"), read("9,2,A", "3-card")
([('3-card', '9,2,A')], Reading(category='badugi', ranks=('3', '9', '2', 'A')))
>>> read("Jd, Jc, 2d, 2s, Ks", "high"), read("2s, 4d, 5h, 6c, Ac", "low")  # 888poker's five cards
(Reading(category='two pair', ranks=('J', '2')), \
Reading(category='high card', ranks=('6', '5', '4', '2', 'A')))
>>> read("Pair of Kings and Pair of Treys"), read("Aces-High Straight"), read("Sevens Full over Fives")
(Reading(category='two pair', ranks=('K', '3')), Reading(category='straight', ranks=('A',)), \
Reading(category='full house', ranks=('7', '5')))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from evaluator.scales import describe, evaluate
from evaluator.settle import Known, Table, run_hands
from evaluator.showdown import Portion
from pipeline.model import Hand

_WORDS = {
    "deuce": "2", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A",
    "trey": "3",  # GGPoker's "Pair of Treys"
}  # fmt: skip
_LABELS = {"hi": "high", "lo": "low"}
_RANK = r"(\w+?)(?:e?s)?"  # "Kings", "Sixes", "Deuces" and the singular
_CARD_RANKS = r"[2-9TJQKA](?:[,-][2-9TJQKA]){0,4}"
_BADUGI_RANKS = re.compile(r"[2-9TJQKA](?:,[2-9TJQKA]){0,3}", re.I)  # "Badugi: T,8,7,5"
_CARD_COUNT_LABEL = re.compile(r"([1-4])-card")  # PokerStars' "3-card: 9,2,A"
_FIVE_CARDS = re.compile(r"[2-9TJQKA][shdc](?:, [2-9TJQKA][shdc]){4}")  # 888poker's "Hi: Jd, Jc, 2d, 2s, Ks"
BADUGI = "badugi"
# What may follow the part of a description that names the hand (kickers, the evaluator's extras).
_TAIL = re.compile(
    r"\s*(?: - .*| with .*|, number \d+ in .*|\s*\(does not qualify\)|\s*\(quick quads\))$", re.I)

_FORMS: tuple[tuple[str, str], ...] = (
    ("royal flush", r"royal flush"),
    ("five of a kind", rf"five of a kind, {_RANK}"),  # with wild cards (evaluator.wild)
    ("straight flush", rf"straight flush, {_RANK} (?:to {_RANK}|high)"),
    ("four of a kind", rf"four of a kind, {_RANK}"),
    ("four of a kind", rf"four {_RANK}"),
    ("full house", rf"full house, {_RANK} full of {_RANK}"),
    ("straight flush", rf"straight flush,? ({_CARD_RANKS})"),
    ("flush", rf"flush,? ({_CARD_RANKS})"),
    ("flush", rf"flush, {_RANK} high"),
    ("straight", rf"straight, {_RANK} to {_RANK}"),
    ("straight", rf"straight, {_RANK} high"),
    ("straight", rf"straight ({_CARD_RANKS})"),
    ("three of a kind", rf"three of a kind, {_RANK}"),
    ("two pair", rf"two pair, {_RANK} and {_RANK}"),
    ("pair", rf"pair of {_RANK}"),
    ("high card", rf"high card,? ({_CARD_RANKS})"),
    ("high card", rf"high card {_RANK}"),
    ("high card", rf"{_RANK} high"),
    ("high card", rf"({_CARD_RANKS})"),
    ("badugi", rf"(\w+)-card (?:badugi )?({_CARD_RANKS})(?: badugi)?"),
    ("badugi", rf"badugi ({_CARD_RANKS})"),
    ("points", r"(\d+) points"),
    # GGPoker's words: "Pair of Kings and Pair of Sixes", "Three Queens", "Sevens Full over Fives",
    # "Aces-High Straight", "Ace-High"
    ("two pair", rf"pair of {_RANK} and pair of {_RANK}"),
    ("three of a kind", rf"three {_RANK}"),
    ("full house", rf"{_RANK} full over {_RANK}"),
    ("straight", rf"{_RANK}-high straight"),
    ("high card", rf"{_RANK}-high"),
    # Winamax's words: "High card : Ace", "One pair : Jacks", "Two pairs : Queens and 4", "Trips of 6",
    # "Straight King high", "Flush Ace high", "Full of King and Jack", "Quads of Jack"
    ("high card", rf"high card : {_RANK}"),
    ("pair", rf"one pair : {_RANK}"),
    ("two pair", rf"two pairs : {_RANK} and {_RANK}"),
    ("three of a kind", rf"trips of {_RANK}"),
    ("straight", rf"straight {_RANK} high"),
    ("flush", rf"flush {_RANK} high"),
    ("full house", rf"full of {_RANK} and {_RANK}"),
    ("four of a kind", rf"quads of {_RANK}"),
)
_COMPILED = tuple((category, re.compile(pattern, re.I)) for category, pattern in _FORMS)


@dataclass(frozen=True, slots=True)
class Reading:
    """A hand as a description names it: its category ("pair", "straight", "badugi", "points", ...)
    and the ranks that name it, most significant first ("K", "5" for Kings and Fives; all five
    ranks of a low; the card count first for a badugi)."""

    category: str
    ranks: tuple[str, ...]

    def agrees(self, other: Reading) -> bool:
        """The same hand, where this names fewer ranks than `other` ("a flush, Ace high")."""
        if self.category != other.category or len(self.ranks) > len(other.ranks):
            return False
        return other.ranks[: len(self.ranks)] == self.ranks


def _rank(word: str) -> str | None:
    word = word.lower()
    if word.upper() in "23456789TJQKA" and len(word) == 1:
        return word.upper()
    return _WORDS.get(word) or _WORDS.get(word.removesuffix("e")) or _WORDS.get(word + "e")


def read(text: str, label: str | None = None) -> Reading | None:
    """One part of a description (with its label, if it has one), or None when it is not a form
    this module knows."""
    core = _TAIL.sub("", text.strip())
    if _FIVE_CARDS.fullmatch(core):
        # The five cards of the hand: what the evaluator calls them, a low's as an ace-to-five low.
        scale = "ace_to_five" if label == "low" else "high"
        return read(describe(scale, evaluate(scale, core.split(", "))))
    count = _CARD_COUNT_LABEL.fullmatch(label or "")
    if label != BADUGI and count is None:
        return _form(core)
    # Under a badugi's label only a badugi is read: PokerStars' ranks ("Badugi: 8,6,3,2" four of
    # them, "3-card: 9,2,A" as many as it says) or the words of a badugi ("four-card 8-6-3-2").
    if _BADUGI_RANKS.fullmatch(core):
        cards = len(core.split(","))
        named = (label == BADUGI and cards == 4) or (count is not None and int(count[1]) == cards)
        return _badugi(core) if named else None
    reading = _form(core)
    return reading if reading is not None and reading.category == BADUGI else None


def _form(core: str) -> Reading | None:
    """A description without its label and kickers, by the forms this module knows."""
    core = re.sub(r"^(?:an? |Face |Butt )", "", core, flags=re.I).strip()
    for category, pattern in _COMPILED:
        found = pattern.fullmatch(core)
        if found is None:
            continue
        groups = [g for g in found.groups() if g is not None]
        if category == BADUGI:
            return _badugi(groups[-1])
        if category == "points":
            return Reading("points", (groups[0],))
        if category == "royal flush":
            return Reading("straight flush", ("A",))
        if len(groups) == 1 and re.fullmatch(_CARD_RANKS, groups[0]):
            return Reading(category, tuple(re.split(r"[,-]", groups[0].upper())))
        ranks = tuple(_rank(g) for g in groups)
        if None in ranks:
            continue
        named = tuple(r for r in ranks if r is not None)
        if category in ("straight", "straight flush") and len(named) == 2:
            named = named[1:]  # "Nine to King": the top card names the straight
        return Reading(category, named)
    return None


def _badugi(ranks: str) -> Reading:
    """A badugi named by its ranks: the card count first."""
    cards = tuple(re.split(r"[,-]", ranks.upper()))
    return Reading(BADUGI, (str(len(cards)), *cards))


def parts(description: str) -> list[tuple[str | None, str]]:
    """The parts of a description with their labels: "HI: ...; LO: ..." or "omaha: ...; low: ...",
    PokerStars' summary words "a Badugi: 8,5,4,2", "a 3-card: 9,2,A"."""
    found: list[tuple[str | None, str]] = []
    for part in description.split(";"):
        label, colon, rest = part.partition(":")
        named = re.fullmatch(r"\s*(?:an? )?([A-Za-z']+|[1-4]-card)\s*", label)
        if colon and named:
            name = named[1].lower()
            found.append((_LABELS.get(name, name), rest.strip()))
        else:
            found.append((None, part.strip()))
    return [(label, text) for label, text in found if text]


def _candidates(runs: Sequence[tuple[Portion, ...]], label: str | None) -> list[Portion]:
    portions = [p for hands in runs for p in hands]
    named = [p for p in portions if p.name == label]
    return named or portions


def misdescribed(table: Table, player: str, description: str, known: Known | None = None) -> str | None:
    """Why the description of `player`'s shown hand is not what the cards make, or None; `known`:
    the hands of this table evaluated before (`evaluator.settle.Known`)."""
    try:
        runs = run_hands(table, player, known)
    except (ValueError, KeyError):
        return None  # cards the record does not give, or a board that is not complete
    for label, text in parts(description):
        claim = read(text, label)
        if claim is None:
            continue
        candidates = _candidates(runs, label)
        readings = [(p, read(p.description)) for p in candidates]
        if any(r is not None and claim.agrees(r) for _, r in readings):
            continue
        if not any(r is not None for _, r in readings):
            continue  # the evaluator's own words for this game are not a form read here
        made = "; ".join(dict.fromkeys(p.description for p, _ in readings))
        return f"{player}'s hand is described as \"{text}\", but the cards make {made}"
    return None


def misdescriptions(hand: Hand, table: Table, known: Known | None = None) -> list[tuple[int, str]]:
    """(action seq, message) for each shown hand whose description the cards do not make, at the end
    of the hand as `table` holds it (evaluator.replay)."""
    found = []
    for seq, action in enumerate(hand.actions, start=1):
        if action.kind == "show" and action.detail and action.player is not None:
            message = misdescribed(table, action.player, action.detail, known)
            if message is not None:
                found.append((seq, message))
    return found
