"""The sites that write PokerStars' layout in their own words, each a `Dialect` of one reader.

`grammar/pokerstars.lark`, its transformer and `grammar.pokerstars_assembly` read them all; a dialect
says only what differs per site: the first line of its hands (which also tells its files apart),
the site and hand-id prefix when the header does not name them, the rules profile its hands are
replayed under, and where a tournament's buy-in currency stands. docs/interop.md (PokerStars,
GGPoker) describes each.

>>> bool(POKERSTARS.header.match("PokerStars Hand #255867983097: Hold'em"))
True
>>> bool(GGPOKER.header.match("Poker Hand #OM181427446: Omaha Pot Limit ($0.5/$1)"))
True
>>> bool(POKERSTARS.header.match("Poker Hand #OM181427446: Omaha"))
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Dialect:
    """One site's (or family of sites') way of writing PokerStars' layout.

    `site` and `prefix` are None when the header names the site ("PokerStars", "Full Tilt", "Run It
    Once Poker": `grammar.pokerstars_games`). `buy_in_in_name`: the tournament's name holds its buy-in
    ("Daily Special $250"), whose currency is the hand's; otherwise the buy-in words follow PokerStars'
    "$10+$1 USD". `level_lags`: the header names a tournament's new level one hand before the table
    plays it (`grammar.pokerstars_assembly`)."""

    format: str
    header: re.Pattern[str]
    profile: str
    site: str | None = None
    prefix: str | None = None
    buy_in_in_name: bool = False
    level_lags: bool = False


# PokerStars (also Home Game and Zoom), and the sites and tools that write their histories in
# PokerStars' shape, in any case ("POKERSTARS GAME #": old trackers' exports).
POKERSTARS = Dialect(
    "pokerstars",
    re.compile(r"(?:PokerStars(?: Home Game| Zoom)?|Full Tilt(?: Rush)?|PokerMaster|PokerBros"
               r"|Run It Once Poker) (?:Hand|Game) #\d+:", re.I),
    "pokerstars",
)
# GGPoker (and its network's skins) name no site: "Poker Hand #OM181427446:", two letters of the
# kind of game (RC hold'em cash, OM omaha, TM tournament, ...) before the number.
# Its hands play by BARGE's rules as far as the corpus shows (docs/interop.md (GGPoker)).
GGPOKER = Dialect("ggpoker", re.compile(r"Poker Hand #[A-Z]{2}\d+:"), "barge-2025", site="GGPoker",
                  prefix="GG", buy_in_in_name=True, level_lags=True)
# Full Tilt Poker's own histories ("Full Tilt Poker Game #...", "FullTiltPoker Game #..."): their
# own lines (grammar/fulltilt.lark), the same assembly, and a rules profile of its own.
FULLTILT = Dialect("fulltilt", re.compile(r"Full ?Tilt ?Poker Game #\d+:"), "fulltilt", site="Full Tilt",
                   prefix="FT")
# The Winning Poker Network's histories (Americas Cardroom and its skins: "Hand #78708209 - Omaha
# H/L(Fixed Limit) - ...", "Game Hand #82980175 - Tournament #11212445 - ..."): their own lines
# (grammar/winning.lark, and grammar/winning_classic.lark for the older shape), the same assembly, and a
# rules profile of its own. No file names its skin.
WINNING = Dialect("winning", re.compile(r"(?:Game )?Hand #\d+ - "), "winning", site="Winning Poker Network",
                  prefix="WPN")
