"""What PokerStars' words mean in the catalog: game names, betting structures, street markers,
sites and their hand-id prefixes.

Every game PokerStars deals maps to a catalog id (`evaluator.catalog.ALL_GAMES`): the BARGE game
when the rulebook has it, or the room's own game of `evaluator.variants.ROOM_VARIANTS`.

>>> game_id("7 CARD STUD HI/LO"), game_id("5 Card Omaha Hi/Lo")
('stud_hi_lo', 'big_o')
>>> omaha_by_hole_cards("omaha", 5)
'five_card_omaha'
>>> street_of("RIVER", ("3rd_street", "4th_street", "5th_street", "6th_street", "7th_street"))
'7th_street'
>>> hand_id_prefix("PokerStars Home Game"), hand_id_prefix("Run It Once Poker"), hand_id_prefix("POKERSTARS")
('PS', 'RIO', 'PS')
"""

from __future__ import annotations

# PokerStars' game names (lower case) -> catalog ids: docs/interop.md (PokerStars), "Games".
GAME_IDS: dict[str, str] = {
    "hold'em": "texas_holdem",
    "6+ hold'em": "six_plus_holdem",  # with blinds instead of a button blind: short_deck_holdem
    "split hold'em": "split_holdem",
    "omaha": "omaha",
    "omaha hi/lo": "omaha_hi_lo",
    "5 card omaha": "five_card_omaha",
    "5 card omaha hi/lo": "big_o",  # §2.9: "Big O is also known as Five Card Omaha High/Low"
    "6 card omaha": "six_card_omaha",
    "6 card omaha hi/lo": "six_card_omaha_hi_lo",
    "courchevel": "courchevel",
    "courchevel hi/lo": "courchevel_hi_lo",
    "7 card stud": "stud",
    "7 card stud hi/lo": "stud_hi_lo",
    "5 card stud": "five_card_stud",
    "razz": "razz",
    "badugi": "badugi",
    "triple draw 2-7 lowball": "deuce_to_seven_triple_draw",
    "triple draw a-5 lowball": "ace_to_five_triple_draw",
    "single draw 2-7 lowball": "deuce_to_seven_lowball",
    "5 card draw": "five_card_draw",
}
# Other sites' names: GGPoker's codes for pot-limit Omaha of five and six hole cards ("PLO-5
# ($2/$5)", the structure the code's), and Full Tilt's names after its structure words ("Pot Limit
# Omaha Hi", "Limit Stud H/L", "No Limit Irish": grammar/fulltilt_transformer.py).
GAME_CODES = {
    "plo-5": "five_card_omaha", "plo-6": "six_card_omaha",
    "omaha hi": "omaha", "omaha h/l": "omaha_hi_lo", "5 card omaha hi": "five_card_omaha",
    "courchevel hi": "courchevel", "2-7 triple draw": "deuce_to_seven_triple_draw",
    "a-5 triple draw": "ace_to_five_triple_draw", "stud hi": "stud", "stud h/l": "stud_hi_lo",
    "irish": "irish",
}  # fmt: skip
SIX_PLUS_WITH_BLINDS = "short_deck_holdem"

# "Pot Limit Pre-Flop, No Limit Post-Flop" is "pl-nl": pot limit on the first betting round only;
# converters write "Fixed Limit" for limit.
STRUCTURES = {"limit": "limit", "fixed limit": "limit", "pot limit": "pot-limit", "no limit": "no-limit",
              "pot limit pre-flop, no limit post-flop": "pl-nl"}

# Converted histories write "Omaha" whatever the number of hole cards; the deal tells them apart.
_OMAHA_FAMILIES = {
    "omaha": ("omaha", "five_card_omaha", "six_card_omaha"),
    "five_card_omaha": ("omaha", "five_card_omaha", "six_card_omaha"),
    "six_card_omaha": ("omaha", "five_card_omaha", "six_card_omaha"),
    "omaha_hi_lo": ("omaha_hi_lo", "big_o", "six_card_omaha_hi_lo"),
    "big_o": ("omaha_hi_lo", "big_o", "six_card_omaha_hi_lo"),
    "six_card_omaha_hi_lo": ("omaha_hi_lo", "big_o", "six_card_omaha_hi_lo"),
}

_ORDINALS = ("FIRST", "SECOND", "THIRD")
SHOWDOWN = "showdown"
PRE_FLOP = "PRE-FLOP"

# Sites whose histories come in PokerStars' shape, and the prefix of their hand ids.
_PREFIXES = (
    ("PokerStars", "PS"), ("Full Tilt", "FT"), ("PokerMaster", "PM"), ("PokerBros", "PB"),
    ("Run It Once", "RIO"),
)  # fmt: skip


def game_id(name: str) -> str | None:
    """The catalog id of a PokerStars game name or GGPoker code (any case), or None for a game it does
    not know."""
    key = " ".join(name.lower().split())
    return GAME_IDS.get(key) or GAME_CODES.get(key)


def omaha_by_hole_cards(variant: str, hole: int) -> str:
    """The Omaha game that deals `hole` cards, in the same family (high, or high/low) as `variant`."""
    family = _OMAHA_FAMILIES.get(variant)
    if family is None or not 4 <= hole <= 6:
        return variant
    return family[hole - 4]


def run_of(marker: str) -> tuple[int, str]:
    """A run-out's marker: ("FIRST RIVER") -> (1, "RIVER"); a plain marker is run 0, and so is a
    draw ("FIRST DRAW" is the first of three draws).

    >>> run_of("SECOND SHOW DOWN"), run_of("FIRST DRAW")
    ((2, 'SHOW DOWN'), (0, 'FIRST DRAW'))
    """
    first, _, rest = marker.partition(" ")
    if first in _ORDINALS and rest and rest != "DRAW":
        return _ORDINALS.index(first) + 1, rest
    return 0, marker


def street_of(marker: str, streets: tuple[str, ...]) -> str:
    """The catalog street of a marker (upper case, without its run word) in a game of `streets`."""
    if marker in ("HOLE CARDS", "DEALING HANDS"):
        return streets[0]
    if marker in ("SHOW DOWN", "SHOWDOWN"):
        return SHOWDOWN
    if marker == "RIVER" and streets[-1].endswith("th_street"):
        return streets[-1]  # stud: PokerStars calls the last, face-down card the river
    word, _, rest = marker.partition(" ")
    if rest == "DRAW" and word in _ORDINALS:
        draws = [s for s in streets if s.endswith("draw")]
        index = _ORDINALS.index(word)
        if index < len(draws):
            return draws[index]
    return "_".join(marker.lower().split())


def hand_id_prefix(site: str) -> str:
    """The prefix that keeps a site's hand numbers apart from other sources' hand ids."""
    for name, prefix in _PREFIXES:
        if site.lower().startswith(name.lower()):
            return prefix
    return "".join(word[0] for word in site.split()).upper() or "X"


def site_of(site: str) -> str:
    """The site a header names, without its room's words (the player's identity is per site):

    >>> site_of("Full Tilt Rush"), site_of("PokerStars Home Game"), site_of("Run It Once Poker")
    ('Full Tilt', 'PokerStars', 'Run It Once')
    """
    for name, _ in _PREFIXES:
        if site.lower().startswith(name.lower()):
            return name
    spelled = site_name(site)
    return spelled[:-len(" Home Game")] if spelled.lower().endswith(" home game") else spelled


def site_name(site: str) -> str:
    """A site as it spells itself, whatever the case a tracker's export wrote it in.

    >>> site_name("POKERSTARS"), site_name("PokerStars Home Game")
    ('PokerStars', 'PokerStars Home Game')
    """
    for name, _ in _PREFIXES:
        if site.lower().startswith(name.lower()) and not site.startswith(name):
            return name + site[len(name):].title()
    return site
