"""Findings: each place where a recorded hand differs from what the rules allow.

Every finding has a stable UPPER_SNAKE `code`, a severity (`error`: a rule broken; `warning`:
a questionable record; `info`: a note for the tournament director) and the rulebook section
it cites. `CODES` is the list a director can read; `sample_histories/audit/CODE.bhh` holds a
hand that breaks each one (`home_games/audit/CODE.bhh` for the codes only house games make:
declarations, fees, openers, guts games).

>>> CODES["RAISE_BELOW_MINIMUM"].rule
'BARGE 2025 §1.2'
>>> Finding("h1", 7, CODES["OUT_OF_TURN"], "Bo acted before Ann", "BARGE 2025 §2.51").severity
'error'
"""

from __future__ import annotations

from dataclasses import dataclass

SEVERITIES = ("error", "warning", "info")
PROCEDURES = "Cardroom procedures"
GAME = None  # a code whose rule is the game's own section (its Forced Money or Dealing Procedure)
ROOM_CAP = "the room's cap"  # a cap game's limit on what a player puts in over a hand: the room's rule


@dataclass(frozen=True, slots=True)
class Code:
    name: str
    severity: str
    section: str | None
    summary: str

    @property
    def rule(self) -> str | None:
        if self.section is None:
            return None
        return cite(self.section)


def cite(section: str) -> str:
    """How a finding names its rule: "BARGE 2025 §1.4", "BARGE 2025 Appendix B", or a card-room
    procedure as `procedure` names it (evaluator/rulebook.py holds the text of each)."""
    if section.startswith(PROCEDURES) or section == ROOM_CAP:
        return section
    return f"BARGE 2025 {section}" if section.startswith("Appendix") else f"BARGE 2025 §{section}"


def procedure(title: str) -> str:
    """A general card-room procedure the rulebook leaves to the house (a misdeal), cited by its
    heading in ../shared/rules/cardroom-procedures-and-news.txt."""
    return f"{PROCEDURES}, {title}"


def _codes(*rows: tuple[str, str, str | None, str]) -> dict[str, Code]:
    return {name: Code(name, severity, section, summary) for name, severity, section, summary in rows}


CODES: dict[str, Code] = _codes(
    # deck integrity
    ("CARD_NOT_IN_DECK", "error", GAME, "a card that the game's deck does not hold"),
    ("DUPLICATE_CARD", "error", GAME, "the same card in two places"),
    ("STUB_EXHAUSTED", "error", GAME, "more cards dealt than the deck holds, no reshuffle or common card"),
    ("WRONG_DEAL", "error", procedure("Rules of Lowball"),  # its list of misdeals, for every button game
     "a player dealt the wrong number of cards, or up for down"),
    ("WRONG_BOARD", "error", GAME, "the wrong number of cards on a board for the street"),
    ("DRAW_COUNT_MISMATCH", "error", GAME, "a draw that does not replace exactly the discarded cards"),
    ("WRONG_DISCARD_COUNT", "error", GAME, "more or fewer discards than the game allows"),
    ("SHOWN_CARDS_NOT_HELD", "error", GAME, "a player shows cards they were not holding"),
    # forced money
    ("WRONG_BLIND", "error", "1.1", "a blind posted by the wrong seat, for the wrong amount, or missing"),
    ("WRONG_ANTE", "error", "1.1", "an ante missing or for the wrong amount"),
    ("WRONG_BRING_IN", "error", GAME, "the bring-in by the wrong player or for the wrong amount"),
    ("BOMB_POT_BETTING", "error", "1.6", "pre-flop betting in a bomb pot"),
    # turn order
    ("OUT_OF_TURN", "error", GAME, "a player acted when it was another player's turn"),
    ("ACTION_AFTER_FOLD", "error", GAME, "a player acted after folding"),
    ("BETTING_ROUND_INCOMPLETE", "error", GAME, "the next street began before the betting was over"),
    # bet sizing
    ("WRONG_LIMIT_BET", "error", "1.1", "a limit bet or raise not of the round's fixed size"),
    ("RAISE_CAP_EXCEEDED", "error", "1.1", "more raises than the cap allows"),
    ("BET_BELOW_MINIMUM", "error", "1.2", "a bet smaller than the minimum bet, not all-in"),
    ("RAISE_BELOW_MINIMUM", "error", "1.2", "a raise smaller than the last full bet or raise, not all-in"),
    ("BET_OVER_POT_LIMIT", "error", "1.3", "a pot-limit bet or raise larger than the pot after the call"),
    ("BETTING_NOT_REOPENED", "error", "1.1", "a raise facing only a short all-in after acting"),
    ("ILLEGAL_CHECK", "error", "1.1", "a check facing a bet"),
    ("ILLEGAL_ACTION", "error", "1.1", "a bet facing a bet, a call of nothing, a completion of nothing"),
    ("WRONG_CALL_AMOUNT", "error", "1.1", "a call for other than the amount owed"),
    ("RAISE_ARITHMETIC", "warning", "1.1", "'raises A to T' where A is not T minus the bet faced"),
    ("JAM_OR_FOLD", "error", "1.8", "a first action other than all-in or fold in a jam-or-fold event"),
    ("CHECK_RAISE", "error", "2.11", "a check-raise in limit California Lowball"),
    # chip accounting
    ("BET_EXCEEDS_STACK", "error", "1.2", "a player putting in more chips than they have"),
    ("BET_OVER_CAP", "error", ROOM_CAP, "a player putting in more over the hand than a cap game's cap, "
     "antes aside"),
    ("UNCALLED_BET_WRONG", "error", "1.1", "the uncalled part of a bet not returned, or wrongly"),
    ("AWARDS_MISMATCH", "error", "1.4", "the chips awarded (with the rake) differ from the pot"),
    ("TOTAL_POT_MISMATCH", "warning", "1.4", "the summary's total pot differs from the chips put in"),
    ("RAKE_MISMATCH", "error", "1.4", "a rake taken from a tournament pot, or larger than the pot"),
    ("STACK_MISMATCH", "error", "1.4", "a final stack differs from start - chips put in + chips won"),
    # the showdown: who the rules say wins each pot (evaluator.settle, evaluator.award_check)
    ("WRONG_AWARD", "error", GAME, "chips pushed to a player with no part in the pot, or wrong amounts"),
    ("MISREAD_HAND", "error", GAME, "a pot or a portion pushed to a hand that does not win it"),
    ("LOW_DID_NOT_QUALIFY", "error", GAME, "a share pushed for a low that does not qualify"),
    ("TIE_NOT_SPLIT", "error", "1.4", "a pot or portion that tied hands share pushed whole to one of them"),
    ("WRONG_ODD_CHIP", "warning", "1.4", "the odd chip of a split pot pushed to the wrong player"),
    ("SEVENS_REFUND_IGNORED", "error", "Appendix B", "California Lowball: the chips put in after the "
     "draw were not returned when the sevens rule voided that action"),
    ("SEVENS_RULE", "info", "Appendix B", "California Lowball: a seven-or-better checked (or just called a "
     "short all-in) after the draw and won: the action after the draw is void"),
    ("AWARD_NOT_CHECKED", "info", GAME, "a contender's cards are not in the record: awards not checked"),
    ("MISDESCRIBED_HAND", "warning", GAME, "a shown hand's description is not the hand its cards make"),
    ("ALL_IN_MISMARKED", "warning", "1.2", "'and is all-in' with chips left, or missing with none"),
    # procedure
    ("UNEXPECTED_STREET", "error", GAME, "a street the game does not have, or out of order"),
    ("UNEXPECTED_STEP", "error", GAME, "a draw, discard, roll or other step the game lacks here"),
    ("STEP_OUT_OF_ORDER", "error", GAME, "a draw, discard, roll or other step on the wrong side of the "
     "street's betting"),
    ("WRONG_DICE", "error", "1.13", "dice rolled by the wrong player, the wrong number, or not rolled"),
    ("WRONG_BOARD_REMOVAL", "error", "2.34", "Oklahoma: the wrong boards removed"),
    ("WRONG_GAME_CHOICE", "error", "2.38", "Pick'em: the wrong player chose, or not a HORSE game"),
    ("WRONG_FLIP", "error", GAME, "a required flip (a door card, Studaha's two cards) missing, of the wrong "
     "number of cards, or by a player who owes none"),
    ("DISCARDS_NOT_ON_TOP", "error", GAME, "a card dealt before the discards a street places on top of the "
     "deck (Thermonuclear Pineapple II's shuffled discards are the next cards dealt)"),
    # paid options (docs/games.md "Paid options": a street's `sells` and `price`)
    ("WRONG_FEE", "error", GAME, "a paid option (a twist, a bought card) paid for with another amount than "
     "the game's price, its max bet"),
    ("FEE_OVER_STACK", "error", GAME, "a fee larger than the chips the player has left"),
    ("UNPAID_CARD", "error", GAME, "a card bought (a twist, a card dealt to one player where the game deals "
     "none, a number of down cards to play) with no fee paid before it"),
    ("FEE_WITHOUT_CARD", "error", GAME, "a fee paid with no card after it: the twist or the card it buys "
     "is not the player's next line"),
    ("WRONG_PURCHASE", "error", GAME, "a paid option taken on a street that does not sell it, a second "
     "purchase on a street, or a bought card of the wrong kind or number"),
    # declarations (docs/games.md "Declarations": a street's `declare` step, a game's `[declare]`;
    # out of turn, where the game declares in turn, is OUT_OF_TURN)
    ("WRONG_DECLARATION", "error", GAME, "a declaration the game does not allow: a word it has not (high, "
     "low, both; a guts game's in, out), by a player who folded or went out, or a second one"),
    ("MISSING_DECLARATION", "error", GAME, "a player still in at the showdown who did not declare (a hand "
     "not declared cannot win; a guts game's player neither in nor out)"),
    # guts games (docs/games.md `[guts]`: burns to the next pot, carried pots, legs)
    ("WRONG_BURN", "error", GAME, "a guts game: a player who went in and lost did not pay the rule's amount "
     "to the next pot, or a player paid who did not lose"),
    ("WRONG_CARRY", "error", GAME, "a guts game: the pot carried to the next deal is not the pot the rule "
     "leaves (nobody went in, a leg), or a carried pot brought in late"),
    ("WRONG_LEG", "error", GAME, "a guts game with legs: a leg to another than the high hand among those in, "
     "or a leg count beyond the legs that win"),
    ("FALSE_OPENERS", "error", GAME, "a player who made a round's first bet without the openers the game "
     "requires (Dizzy Liz's pair of Jacks), their cards shown later: the hand is dead (Cardroom procedures, "
     "Rules of Draw High)"),
    ("FLOOR_RULING", "info", GAME, "a floor ruling recorded in the hand"),
    ("UNKNOWN_RULES_OPTION", "warning", GAME, "a rules option the profile does not know; it was ignored"),
    ("REPLAY_STOPPED", "warning", GAME, "the record is too broken to replay past this point"),
    # across a table's hands (evaluator.sequences): each on the later hand
    ("WRONG_BUTTON", "error", procedure("Rules for Using Blinds"), "the button (or the big blind) not where "
     "the previous hand at the table puts it: dead button, moving button, heads-up, win the button"),
    ("STACK_NOT_CARRIED", "warning", procedure("Poker Tournament Rules"), "a tournament player's stack "
     "differs from their stack at the end of the previous hand at the table, no rebuy or add-on recorded"),
    ("LEVEL_DECREASED", "error", procedure("Poker Tournament Rules"), "a tournament hand at a lower level "
     "(or lower stakes) than the hand before it at the table"),
    ("SEAT_TAKEN", "warning", procedure("Poker Tournament Rules"), "a tournament player in another seat of "
     "the table than in the hand before: their seat held by two players, no floor ruling recorded"),
    ("PLAYER_AT_TWO_TABLES", "warning", procedure("Poker Tournament Rules"), "a tournament player in a hand "
     "at one table while seated at another table of the event"),
    ("HANDS_MISSING", "info", GAME, "hands of the table between this one and the one before are not "
     "stored: the checks across hands start again here"),
    ("MISSED_BLIND_NOT_POSTED", "error", procedure("Rules for Using Blinds"), "a cash-game player who missed "
     "blinds sitting out, dealt in again without posting them or taking the big blind in turn"),
)
# The codes `evaluator.sequences` gives: an audit of single hands leaves them in place.
SEQUENCE_CODES = frozenset({"WRONG_BUTTON", "STACK_NOT_CARRIED", "LEVEL_DECREASED", "SEAT_TAKEN",
                            "PLAYER_AT_TWO_TABLES", "HANDS_MISSING", "MISSED_BLIND_NOT_POSTED"})


@dataclass(frozen=True, slots=True)
class Finding:
    hand_id: str
    seq: int  # the action's `seq` (1-based), 0 for the hand as a whole
    code: Code
    message: str
    rule: str

    @property
    def severity(self) -> str:
        return self.code.severity

    def row(self) -> tuple[str, int, str, str, str, str]:
        return (self.hand_id, self.seq, self.severity, self.code.name, self.message, self.rule)
