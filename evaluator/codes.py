"""Card codes for the numba hand evaluators: each card is a small int.

A card "Ah", "Td", "2c" is ``rank_index * 4 + suit_index``: rank_index 0 for the deuce up to 12
for the ace, suit_index c=0, d=1, h=2, s=3; the joker "Jk" is 52. ``code >> 2`` is the rank and
``code & 3`` the suit.

>>> encode(["2c", "Ah", "Td", "Jk"])
array([ 0, 50, 33, 52], dtype=int8)
>>> decode(encode(["Ks", "7d", "Jk"]))
['Ks', '7d', 'Jk']
>>> [decode_one(c) for c in range(4)]
['2c', '2d', '2h', '2s']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER = "Jk"
JOKER_CODE = 52
CARD_DTYPE = np.int8
# A table lookup: the showdown encodes every candidate hand, so this is on the audit's hot path.
_CODES = {r + s: i * 4 + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)} | {JOKER: JOKER_CODE}


def encode_one(card: str) -> int:
    """The code of one card string; ValueError for anything else.

    >>> encode_one("As"), encode_one("Jk")
    (51, 52)
    """
    code = _CODES.get(card)
    if code is None:
        raise ValueError(f"not a card: {card!r}")
    return code


def decode_one(code: int) -> str:
    """The card string of one code (0..52)."""
    code = int(code)
    if code == JOKER_CODE:
        return JOKER
    if not 0 <= code < JOKER_CODE:
        raise ValueError(f"not a card code: {code}")
    return RANKS[code >> 2] + SUITS[code & 3]


def encode(cards: Sequence[str]) -> npt.NDArray[np.int8]:
    """A 1-D int8 array of the cards' codes."""
    return np.array([encode_one(c) for c in cards], dtype=CARD_DTYPE)


def encode_hands(hands: Iterable[Sequence[str]]) -> npt.NDArray[np.int8]:
    """A 2-D int8 array, one hand per row; every hand must have the same number of cards.

    >>> encode_hands([["As", "Kd"], ["2c", "Jk"]]).tolist()
    [[51, 45], [0, 52]]
    """
    try:
        rows = [[_CODES[c] for c in h] for h in hands]
    except KeyError as exc:
        raise ValueError(f"not a card: {exc.args[0]!r}") from None
    if not rows:
        return np.zeros((0, 0), dtype=CARD_DTYPE)
    return np.array(rows, dtype=CARD_DTYPE)  # ValueError when the hands differ in length


def decode(codes: Iterable[int] | npt.NDArray[np.integer]) -> list[str]:
    """The card strings of a sequence (or 1-D array) of codes."""
    return [decode_one(int(c)) for c in codes]


def parse(text: str) -> list[str]:
    """Split "AhKd Jk" or "Ah Kd Jk" into card strings.

    >>> parse("AhKd Jk")
    ['Ah', 'Kd', 'Jk']
    """
    compact = "".join(text.split())
    if len(compact) % 2:
        raise ValueError(f"odd number of characters in {text!r}")
    return [compact[i : i + 2] for i in range(0, len(compact), 2)]
