"""Rules profiles: the house-rule choices the rulebook leaves to the room (`variants.md`).

A profile is a named set of options; a hand's `Rules:` line (or `--rules` on the command line)
picks the profile and may override single options (`Rules: barge-2025; raise_cap=4`).

>>> resolve("barge-2021").get("bba_first")
'ante'
>>> resolve("barge-2025", (("raise_cap", "4"),)).raise_cap
4
>>> resolve("pokerstars").get("joker")
'no'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.amounts import AmountError, parse_amount

DEFAULT_PROFILE = "barge-2025"


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    values: tuple[str, ...]
    rule: str
    meaning: str
    amount: bool = False  # besides `values`, any chip amount ("25", "0.25") is a value

    def accepts(self, value: str) -> bool:
        if value in self.values:
            return True
        if not self.amount:
            return False
        try:
            return parse_amount(value) > 0
        except (AmountError, ValueError):
            return False


# Every option the rulebook names as a room's or an event's choice.
OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("raise_cap", ("3", "4"), "BARGE 2025 §1.1", "limit: a bet and 3 or 4 raises per round"),
        Option("cap_heads_up", ("auto", "lifted", "kept"), "BARGE 2025 §1.1",
               "limit: the cap is lifted heads-up; auto = lifted in cash games, kept in tournaments"),
        Option("bba_reduce_at", ("0", "2", "3", "4", "5", "6"), "BARGE 2025 §1.5",
               "big blind ante reduced to the small blind at this many players or fewer (0: never)"),
        Option("bba_first", ("blind", "ante"), "BARGE 2025 §1.5",
               "a short big blind posts the blind first (2024 TDA) or the ante first (2019 TDA)"),
        Option("stud_double_bet", ("no", "yes"), "BARGE 2025 §2.47",
               "Stud: a big bet on 4th street with an open pair"),
        Option("joker", ("yes", "no"), "BARGE 2025 §2.11, §2.22",
               "California Lowball and Five Card Draw are played with the joker"),
        Option("sevens_rule", ("auto", "yes", "no"), "BARGE 2025 §2.11, Appendix B",
               "California Lowball: sevens rule and no check-raise (auto: in limit only)"),
        Option("archie_qualifier", ("sixes", "nines"), "BARGE 2025 §2.4", "Archie: the high qualifier"),
        Option("dramaha49_faces", ("0", "1"), "BARGE 2025 §2.20", "Dramaha 49: points of a face card"),
        Option("short_deck_trips", ("below_straight", "above_straight"), "BARGE 2025 §2.45",
               "Short Deck Hold'em: three of a kind below or above a straight"),
        Option("oklahoma", ("tournament", "cash"), "BARGE 2025 §2.34",
               "Oklahoma: tournament board removal or the cash-game rule"),
        Option("win_the_button", ("no", "yes"), "BARGE 2025 §1.12", "event format: win the button"),
        Option("short_blind", ("posted", "full"), "BARGE 2025 §1.2",
               "a big blind all-in for less than the blind: the others call what it posted, or the full "
               "big blind (a room's choice; the rulebook is silent)"),
        Option("short_all_in_raise", ("half_bet", "completes", "full_level"), "BARGE 2025 §1.1",
               "limit: an all-in raise of half a bet or more is a full raise, less neither reopens the "
               "betting nor moves the level (half_bet); or no all-in short of a full raise moves the "
               "level, the next raise completing it to the last full level plus a bet, from anyone "
               "(completes: PokerStars); or one of half a bet or more moves the level to the full bet or "
               "raise it stands for, the next raise going a bet above that (full_level: Bovada)"),
        Option("uncalled_ante", ("dead", "returned"), "BARGE 2025 §1.1",
               "the part of an ante nobody else matched (an opponent all-in for less) stays dead money, "
               "or goes back with the uncalled bet (PokerStars)"),
        Option("rake", ("main_pot_first", "per_pot", "proportional"), "BARGE 2025 §1.4",
               "the house takes its rake from the main pot first, or 5% of each pot in the order the pots "
               "formed until the recorded rake is taken (PokerStars), or from every pot in proportion to "
               "its size, the side pots' shares rounded down (Winamax); the rulebook is silent"),
        Option("cash_out", ("ignored", "counted"), "BARGE 2025 §1.4",
               "a player who cashed out an all-in hand (PokerStars' \"cashed out the hand for $X\") ends "
               "with the cash-out instead of the pots, which the site keeps"),
        Option("splash_the_pot", ("ignored", "counted"), "BARGE 2025 §1.4",
               "money the site splashes into the main pot (Run It Once's \"STP added\") goes to its winners"),
        Option("odd_chips", ("one_per_pot", "per_split"), "BARGE 2025 §1.4",
               "rule 2, \"No player may receive more than one odd chip\", over the whole pot (its high and "
               "low halves and its runs), or each division of the pot given its odd chip on its own "
               "(PokerStars: the high half's and the tied low's odd chips may go to one player)"),
        Option("short_ante", ("dead", "capped"), "BARGE 2025 §1.1",
               "a player all-in for less than the ante: every ante is dead money of the main pot they "
               "contest (dead), or they win only as much of each ante as they posted, the rest going to "
               "a side pot (capped: 888poker)"),
        Option("disconnect", ("ignored", "all_in"), "BARGE 2025 §1.1",
               "a player the site says is disconnected (a note \"Ann is disconnected and all-in\") plays "
               "on as written (ignored), or is all-in for what they have put in, contesting only the pots "
               "they have matched (all_in: the Winning Poker Network's disconnect protection)"),
        Option("smallest_chip", ("auto",), "BARGE 2025 §1.4",
               "the smallest chip in play, the unit of an odd chip (auto: the largest unit every "
               "amount of the hand is a multiple of)", amount=True),
    )
}


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    options: dict[str, str] = field(default_factory=dict)
    unknown: tuple[tuple[str, str], ...] = ()

    def get(self, name: str) -> str:
        return self.options[name]

    @property
    def raise_cap(self) -> int:
        return int(self.options["raise_cap"])

    @property
    def edition(self) -> str:
        """The rulebook edition cited by findings under this profile."""
        return "BARGE 2021" if self.name == "barge-2021" else "BARGE 2025"


_BARGE_2025 = {
    "raise_cap": "3", "cap_heads_up": "auto", "bba_reduce_at": "4", "bba_first": "blind",
    "stud_double_bet": "no", "joker": "yes", "sevens_rule": "auto", "archie_qualifier": "sixes",
    "dramaha49_faces": "0", "short_deck_trips": "below_straight", "oklahoma": "tournament",
    "win_the_button": "no", "smallest_chip": "auto", "short_blind": "posted",
    "short_all_in_raise": "half_bet", "uncalled_ante": "dead", "rake": "main_pot_first",
    "cash_out": "ignored", "splash_the_pot": "ignored", "odd_chips": "one_per_pot", "short_ante": "dead",
    "disconnect": "ignored",
}  # fmt: skip

# The 2021 edition: the big blind ante was not reduced and the ante came first (BARGE 2020,
# 2021 §1.5); the other choices read the same in both editions.
#
# PokerStars' own choices, where its games differ from BARGE's defaults (docs/interop.md (PokerStars)):
# no joker in 5 Card Draw; Stud's double bet on 4th street with an open pair ("Pair on board - a
# double bet is allowed"); 6+ Hold'em's three of a kind beats a straight; a big blind all-in for
# less leaves the full big blind to call; in limit an all-in short of a full raise is completed by
# the next raise, to the last full level plus a bet; the unmatched part of an ante goes back; each pot pays
# its share of the rake; a cash-out and splash-the-pot money are part of the players' results.
PROFILES: dict[str, dict[str, str]] = {
    # Full Tilt's: Stud's double bet on 4th street with an open pair, and the part of an ante nobody
    # matched given back (docs/interop.md (Full Tilt Poker)).
    "fulltilt": {**_BARGE_2025, "stud_double_bet": "yes", "uncalled_ante": "returned"},
    "barge-2025": _BARGE_2025,
    "barge-2021": {**_BARGE_2025, "bba_reduce_at": "0", "bba_first": "ante"},
    "pokerstars": {**_BARGE_2025, "joker": "no", "stud_double_bet": "yes",
                   "short_deck_trips": "above_straight", "short_blind": "full",
                   "short_all_in_raise": "completes", "uncalled_ante": "returned", "rake": "per_pot",
                   "cash_out": "counted", "splash_the_pot": "counted", "odd_chips": "per_split"},
    "888poker": {**_BARGE_2025, "short_ante": "capped"},
    # PartyPoker's: the full big blind to call behind a short one, Stud's double bet on 4th street
    # with an open pair (docs/interop.md (PartyPoker)).
    "partypoker": {**_BARGE_2025, "short_blind": "full", "stud_double_bet": "yes"},
    # Winamax's: every pot pays its share of the rake (docs/interop.md (Winamax)).
    "winamax": {**_BARGE_2025, "rake": "proportional"},
    # iPoker's: Stud's double bet on 4th street with an open pair (docs/interop.md (iPoker)).
    "ipoker": {**_BARGE_2025, "stud_double_bet": "yes"},
    # The Winning Poker Network's: a disconnected player is all-in for what they have put in
    # (docs/interop.md (Winning Poker Network)).
    "winning": {**_BARGE_2025, "disconnect": "all_in"},
    # Bovada's, Ignition's and Bodog's: Stud's double bet on 4th street with an open pair, the part of an
    # ante nobody matched given back, a short ante wins only what it matched, a short big blind leaves
    # the full blind to call, and a limit all-in of half a bet or more stands for the full bet
    # (docs/interop.md (Bovada, Ignition and Bodog)).
    "bovada": {**_BARGE_2025, "stud_double_bet": "yes", "uncalled_ante": "returned",
               "short_ante": "capped", "short_blind": "full", "short_all_in_raise": "full_level"},
}


def resolve(name: str | None, overrides: tuple[tuple[str, str], ...] = ()) -> Profile:
    """The profile `name` with a hand's overrides applied; unknown options are kept aside."""
    options = dict(PROFILES[name or DEFAULT_PROFILE])
    unknown = []
    for key, value in overrides:
        option = OPTIONS.get(key)
        if option is None or not option.accepts(value):
            unknown.append((key, value))
        else:
            options[key] = value
    return Profile(name or DEFAULT_PROFILE, options, tuple(unknown))
