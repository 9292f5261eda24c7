"""Cards and decks as the rulebook uses them: ranks, suits, the decks of §1.11, and the card
orders that pick the bring-in and the first player to act in stud games (§2.47, §2.40, §2.16).

Cards are two-character strings ("Ah", "Td"); "Jk" is the joker and "??" a card nobody saw.

>>> STANDARD.size, SHORT.size, MEXICAN.size, WITH_JOKER.size
(52, 36, 41, 53)
>>> sorted(["Kc", "Ks", "Kh"], key=lambda c: card_order(c, "high_card"))
['Kc', 'Kh', 'Ks']
>>> showing_key(["9s", "9d", "2c"], "high") > showing_key(["Ah", "Kd", "Qc"], "high")
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from pipeline.model import JOKER, UNKNOWN_CARD

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs lowest, spades highest: the bring-in order of §2.47 and §2.40


def rank_value(card: str, ace_low: bool = False) -> int:
    """2..14 (ace high) or 1..13 (ace low); a joker counts as an ace (§2.31)."""
    if card == JOKER:
        return 1 if ace_low else 14
    value = RANKS.index(card[0]) + 2
    return 1 if ace_low and value == 14 else value


def suit_value(card: str) -> int:
    return 4 if card == JOKER else SUITS.index(card[1])


@cache
def _deck_cards(ranks: str, jokers: int) -> frozenset[str]:
    """Built once per deck: the replay asks for every card dealt whether the deck holds it."""
    return frozenset(r + s for r in ranks for s in SUITS) | (frozenset({JOKER}) if jokers else frozenset())


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck as a set of cards: which ones exist in the game."""

    name: str
    ranks: str
    jokers: int = 0

    @property
    def cards(self) -> frozenset[str]:
        return _deck_cards(self.ranks, self.jokers)

    @property
    def size(self) -> int:
        return len(self.ranks) * 4 + self.jokers

    def __contains__(self, card: object) -> bool:
        return card == UNKNOWN_CARD or card in self.cards


STANDARD = Deck("52-card deck", RANKS)
WITH_JOKER = Deck("52 cards and the joker", RANKS, jokers=1)
SHORT = Deck("36-card short deck (§1.11)", "6789TJQKA")
MEXICAN = Deck("41-card Mexican deck: no 8s, 9s or 10s, one joker (§1.11, §2.31)", "234567JQKA", jokers=1)


def card_order(card: str, order: str) -> tuple[int, int]:
    """How strongly a card is 'the bring-in card' under `order`; the bring-in has the largest key.

    - "low_card": lowest rank, then lowest suit (2♣ first, §2.47);
    - "high_card": highest rank with the ace low, then highest suit (K♠ first, §2.40);
    - "high_card_ace_high": highest rank with the ace high (A♠ first, §2.16).
    """
    if order == "low_card":
        return (-rank_value(card), -suit_value(card))
    if order == "high_card":
        return (rank_value(card, ace_low=True), suit_value(card))
    if order == "high_card_ace_high":
        return (rank_value(card), suit_value(card))
    raise ValueError(f"unknown card order {order!r}")


def _groups(ranks: Iterable[int]) -> list[tuple[int, int]]:
    """(count, rank) pairs, largest groups first, then highest rank."""
    return sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)


def showing_key(cards: list[str], scale: str) -> tuple[object, ...]:
    """Strength of the up cards for choosing who acts first; larger acts first.

    "high": pairs and trips count, straights and flushes of up cards do not (§2.47);
    "low_a5" / "low_a6": lowest unpaired cards, the ace low (§2.40, §2.30);
    "low_27": lowest unpaired cards, the ace high (§2.16).
    """
    known = [c for c in cards if c != UNKNOWN_CARD]
    if scale == "high":
        groups = _groups(rank_value(c) for c in known)
        # Two pair beats one pair whatever the ranks: the shape of the paired groups comes first,
        # then the ranks. Only the pairs, trips and fours make the shape, so that where players
        # show different numbers of cards (Retro Hold'em's bought up cards) a lone Jack is above
        # a Seven and a Deuce, as poker hands rank; with equal numbers it is the same order.
        return (tuple(n for n, _ in groups if n > 1), tuple(r for _, r in groups))
    ace_low = scale != "low_27"
    groups = _groups(rank_value(c, ace_low) for c in known)
    # The lowest hand showing, as low hands rank: fewer paired cards first, then the pairs'
    # ranks and the other cards, highest first (lower is better): A-A-Q-4 is below 3-3-T-4.
    return (tuple(-n for n, _ in groups), tuple(-r for _, r in groups))
