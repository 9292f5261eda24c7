"""The 59 variant ids of the BARGE Rulebook (2025) with their names and rulebook sections, and
the few games other rooms deal that the rulebook does not.

The ids are the stable names used everywhere: in hand histories, in `hands.variant`, on the
command line and in the dashboard (`../shared/rules/variants.md`).  The full game
definitions (deck, forced money, dealing procedure, showdown) extend these entries.

`VARIANTS` holds exactly the BARGE games. `ROOM_VARIANTS` holds games read from other rooms'
histories (PokerStars' 6 Card Omaha, ...): each names the BARGE game it extends and is cited as
that game's section "as extended by" the room, since no BARGE rule covers it. `ALL_VARIANTS`
is both, for readers and the replay, which must know every game a stored hand can be.

>>> VARIANTS["chowaha"].section
'2.12'
>>> len(VARIANTS)
59
>>> ROOM_VARIANTS["six_card_omaha"].rule
'BARGE 2025 §2.23, as extended by PokerStars'
>>> ROOM_VARIANTS["six_card_omaha"].barge, VARIANTS["omaha"].barge
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Variant:
    """A game: its id, name and rulebook section. A game from another room (`room`) is not in the
    rulebook: `extends` is the BARGE game it changes and `section` that game's section. A house
    game (room "house", docs/games.md) is cited by its own file's words (`citation`)."""

    id: str
    name: str
    section: str
    room: str | None = None
    extends: str | None = None
    citation: str | None = None

    @property
    def barge(self) -> bool:
        return self.room is None

    @property
    def rule(self) -> str:
        """The citation used in findings and listings, e.g. "BARGE 2025 §2.12"."""
        if self.citation is not None:
            return self.citation
        if self.room is None:
            return f"BARGE 2025 §{self.section}"
        return f"BARGE 2025 §{self.section}, as extended by {self.room}"


_TABLE = """
2.1  | Ace-to-Five Triple Draw                   | ace_to_five_triple_draw
2.2  | Action Razz                               | action_razz
2.3  | Action Razzdugi                           | action_razzdugi
2.4  | Archie                                    | archie
2.5  | Badacey                                   | badacey
2.6  | Badeucy                                   | badeucy
2.7  | Badugi                                    | badugi
2.8  | Bidirectional Chowaha (High/Low)          | bidirectional_chowaha
2.9  | Big O                                     | big_o
2.10 | Binglaha                                  | binglaha
2.11 | California Lowball                        | california_lowball
2.12 | Chowaha                                   | chowaha
2.13 | Courchevel (High Only)                    | courchevel
2.14 | Crazy Pineapple High/Low                  | crazy_pineapple_hi_lo
2.15 | Deuce-To-Seven Lowball (single draw)      | deuce_to_seven_lowball
2.16 | Deuce-to-Seven Razz                       | deuce_to_seven_razz
2.17 | Deuce-to-Seven Triple Draw                | deuce_to_seven_triple_draw
2.18 | Dramadugi                                 | dramadugi
2.19 | Dramaha                                   | dramaha
2.20 | Dramaha 49                                | dramaha_49
2.21 | Duck Flush                                | duck_flush
2.22 | Five Card Draw                            | five_card_draw
2.23 | Five Card Omaha                           | five_card_omaha
2.24 | Five Card Stud                            | five_card_stud
2.25 | Four Card Chowaha High/Low Eight-or-Better | four_card_chowaha_hi_lo
2.26 | Irish                                     | irish
2.27 | Korean                                    | korean
2.28 | Lazy Pineapple (High Only)                | lazy_pineapple
2.29 | Lazy Pineapple High/Low                   | lazy_pineapple_hi_lo
2.30 | London Lowball                            | london_lowball
2.31 | Mexican Poker                             | mexican_poker
2.32 | Mississippi Stud                          | mississippi_stud
2.32 | Mississippi Stud High-Low                 | mississippi_stud_hi_lo
2.32 | Mississippi Razz                          | mississippi_razz
2.33 | Murder                                    | murder
2.34 | Oklahoma                                  | oklahoma
2.35 | Omaha (High Only)                         | omaha
2.36 | Omaha High/Low Eight-or-Better            | omaha_hi_lo
2.37 | Omaha X or Better                         | omaha_x_or_better
2.38 | Paradise Road Pick'em                     | paradise_road_pickem
2.39 | Quick Quads                               | quick_quads
2.40 | Razz                                      | razz
2.41 | Razzdugi                                  | razzdugi
2.42 | Rio Bravo                                 | rio_bravo
2.43 | Scrotum                                   | scrotum
2.44 | Short Deck Omaha                          | short_deck_omaha
2.45 | Short Deck Texas Hold'em                  | short_deck_holdem
2.46 | Sohe (Simultaneous Omaha/Hold'em)         | sohe
2.47 | Stud                                      | stud
2.48 | Stud High/Low Eight-or-Better             | stud_hi_lo
2.49 | Stud High/Low No Qualifier                | stud_hi_lo_no_qualifier
2.50 | Super Stud                                | super_stud
2.50 | Super Stud High/Low Eight-or-Better       | super_stud_hi_lo
2.50 | Super Razz                                | super_razz
2.51 | Texas Hold'em                             | texas_holdem
2.52 | Texas Hold'em High/Low                    | texas_holdem_hi_lo
2.53 | Triple Draw Dramaha                       | triple_draw_dramaha
2.54 | Two or Five Omaha High/Low Eight-or-Better | two_or_five_omaha_hi_lo
2.55 | Wonky Donkey                              | wonky_donkey
"""


def _load() -> dict[str, Variant]:
    rows = (line.split("|") for line in _TABLE.strip().splitlines())
    entries = (Variant(id=i.strip(), name=n.strip(), section=s.strip()) for s, n, i in rows)
    return {v.id: v for v in entries}


VARIANTS: dict[str, Variant] = _load()

# Games other rooms deal that the rulebook does not: room | name | id | the BARGE game it extends.
# 5 Card Omaha Hi/Lo is Big O (§2.9) and 6+ Hold'em with blinds is Short Deck Hold'em (§2.45), so
# neither is here; docs/interop.md (PokerStars) maps every PokerStars game.
_ROOM_TABLE = """
PokerStars | 6 Card Omaha             | six_card_omaha       | five_card_omaha
PokerStars | 6 Card Omaha Hi/Lo       | six_card_omaha_hi_lo | big_o
PokerStars | Courchevel Hi/Lo         | courchevel_hi_lo     | courchevel
PokerStars | 6+ Hold'em (button blind) | six_plus_holdem     | short_deck_holdem
PokerStars | Split Hold'em            | split_holdem         | texas_holdem
"""


def _load_rooms() -> dict[str, Variant]:
    rows = (line.split("|") for line in _ROOM_TABLE.strip().splitlines())
    entries = (
        Variant(id=i.strip(), name=n.strip(), section=VARIANTS[e.strip()].section, room=r.strip(),
                extends=e.strip())
        for r, n, i, e in rows
    )
    return {v.id: v for v in entries}


ROOM_VARIANTS: dict[str, Variant] = _load_rooms()
ALL_VARIANTS: dict[str, Variant] = {**VARIANTS, **ROOM_VARIANTS}
