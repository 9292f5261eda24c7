"""The rulebooks' sections as data: every section of the BARGE Rulebook 2025 and 2021 and of the
card-room procedures the engine cites, with the text as the book writes it.

The sections ship with the package (`rulebook_data/rules.json`), generated from the plain-text
books in `../shared/rules/` by ``python -m evaluator.rulebook build ../shared/rules``. A finding
names its rule by a citation ("BARGE 2025 §1.4", "BARGE 2025 Appendix B", "Cardroom
procedures, Rules of Lowball"); `rule_for` finds that section and `quote_for` the sentence(s) of
it that a finding code applies, so every listing can show the rule's words beside the finding.

>>> rule_for("BARGE 2025 §1.4").title
'Ties & Odd Chips'
>>> rule_for("BARGE 2025 §2.23, as extended by PokerStars").title
'Five Card Omaha'
>>> quote_for("RAISE_BELOW_MINIMUM", "BARGE 2025 §1.2")
'The minimum raise is the size of the last wager.'
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).with_name("rulebook_data") / "rules.json"
PROCEDURES = "Cardroom procedures"
# The books and the edition each is, in the order `rules()` lists them.
BOOKS = (
    ("BARGE 2025", "barge-rulebook-2025.txt"),
    ("BARGE 2021", "barge-rulebook-2021.txt"),
    (PROCEDURES, "cardroom-procedures-and-news.txt"),
)


@dataclass(frozen=True, slots=True)
class Rule:
    edition: str  # "BARGE 2025", "BARGE 2021", "Cardroom procedures"
    section: str  # "1.4", "2.51", "Appendix B", "1" (a chapter's opening), or a procedure's title
    title: str  # "Ties & Odd Chips", "Texas Hold'em"
    text: str  # the section's whole text as the book writes it (blank-line runs made single)

    @property
    def citation(self) -> str:
        return citation(self.edition, self.section)


def citation(edition: str, section: str) -> str:
    """How findings and listings name a section: "BARGE 2025 §1.4", "BARGE 2021 Appendix B",
    "Cardroom procedures, Rules of Lowball"."""
    if edition == PROCEDURES:
        return f"{PROCEDURES}, {section}"
    if section.startswith("Appendix"):
        return f"{edition} {section}"
    return f"{edition} §{section}"


# ---- reading the books ----------------------------------------------------------------------

_NUMBERED = re.compile(r"(\d+)\.(\d+)\s+(\S.*)")
_CHAPTER = re.compile(r"Chapter (\d+)")
_APPENDIX = re.compile(r"Appendix ([A-Z])(?::\s*(\S.*))?")
_END = ("Colophon", "Index")  # back matter: not rules
_CATEGORY = "Categories"  # the procedures' web pages each open with a "Categories / <name>" crumb
_STOPS = ".:,;!?)”\""


def _tidy(lines: Sequence[str]) -> str:
    """The section's lines as one text: outer blank lines dropped, inner runs made single."""
    text = "\n".join(line.rstrip() for line in lines)
    return re.sub(r"\n\s*\n(\s*\n)+", "\n\n", text).strip()


def _next_text(lines: Sequence[str], start: int) -> tuple[int, str]:
    """The index and stripped text of the first non-blank line at or after `start`."""
    for i in range(start, len(lines)):
        if lines[i].strip():
            return i, lines[i].strip()
    return len(lines), ""


def _blank(lines: Sequence[str], i: int) -> bool:
    return i < 0 or i >= len(lines) or not lines[i].strip()


def parse_rulebook(text: str, edition: str) -> tuple[Rule, ...]:
    """The sections of one BARGE rulebook: each chapter's opening ("1"), each numbered section
    ("1.4") and each appendix ("Appendix B"). The contents pages (headings followed by a page
    number) and the preface are skipped; a heading counts only where the numbering expects it,
    so a paragraph that happens to start with a number is text."""
    lines = text.splitlines()
    heads: list[tuple[int, int, str, str]] = []  # (first line, first text line, section, title)
    chapter, number = 0, 0
    appendix = "@"  # the letter before "A"
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line or not (_blank(lines, i - 1) and _blank(lines, i + 1)) or re.search(r"\t\d+$", raw):
            continue
        if line in _END and chapter:
            heads.append((i, i, "", ""))
            continue
        if m := _CHAPTER.fullmatch(line):
            if int(m.group(1)) == chapter + 1:
                j, title = _next_text(lines, i + 1)
                chapter, number = chapter + 1, 0
                heads.append((i, j + 1, str(chapter), title))
            continue
        if (m := _NUMBERED.fullmatch(line)) and chapter:
            major, minor = int(m.group(1)), int(m.group(2))
            if (major, minor) in ((chapter, number + 1), (chapter + 1, 1)):
                chapter, number = major, minor
                heads.append((i, i + 1, f"{major}.{minor}", m.group(3).strip()))
            continue
        if (m := _APPENDIX.fullmatch(line)) and chapter and m.group(1) == chr(ord(appendix) + 1):
            appendix = m.group(1)
            if m.group(2):
                heads.append((i, i + 1, f"Appendix {appendix}", m.group(2).strip()))
            else:
                j, title = _next_text(lines, i + 1)
                heads.append((i, j + 1, f"Appendix {appendix}", title))
    rules: list[Rule] = []
    for (_, body, section, title), (end, _, _, _) in zip(heads, [*heads[1:], (len(lines), 0, "", "")],
                                                        strict=True):
        text = _tidy(lines[body:end])
        if section and text:  # a chapter heading straight before its first section has no text
            rules.append(Rule(edition, section, title, text))
    return tuple(rules)


def _is_heading(lines: Sequence[str], i: int) -> bool:
    """A procedures page's heading: a short line standing alone, without a sentence's end,
    that opens prose or a list of rules (not a card drawn in an example: "Flop", "3")."""
    line = lines[i].strip()
    if not line or not (_blank(lines, i - 1) and _blank(lines, i + 1)) or len(line) > 60:
        return False
    if line[0] in "•\u2013-" or line[-1] in _STOPS or line.isupper() or not re.search(r"[A-Za-z]{3}", line):
        return False
    j, following = _next_text(lines, i + 1)
    if following.rstrip(":").isupper():  # a label ("OBJECT:") between a heading and its text
        _, following = _next_text(lines, j + 1)
    return following.startswith("•") or (len(following.split()) >= 5 and not following.startswith("\u2013"))


def parse_procedures(text: str) -> tuple[Rule, ...]:
    """The card-room procedures of a file that mixes them with news: only the pages that open
    with a "Categories" crumb are procedures; every heading on them starts a section named by
    its title (a title used twice is told apart by the heading it follows)."""
    lines = text.splitlines()
    # A line repeated across the pages is an image's caption ("Card-back", "Flop"), not a heading.
    captions = {line for line, n in Counter(raw.strip() for raw in lines).items() if n > 2}
    heads: list[tuple[int, str]] = []  # (line of the heading, title)
    in_pages = False
    title_at = -1
    for i, raw in enumerate(lines):
        line = raw.strip()
        if line == _CATEGORY:
            in_pages = True
            heads.append((i, ""))  # the crumb ends the page before it
            category_at = _next_text(lines, i + 1)[0]
            title_at = _next_text(lines, category_at + 1)[0]  # the page's own title
            continue
        if i == title_at or (in_pages and i > title_at and line not in captions and _is_heading(lines, i)):
            heads.append((i, line))
    rules: list[Rule] = []
    used: set[str] = set()
    previous = ""
    for (start, title), (end, _) in zip(heads, [*heads[1:], (len(lines), "")], strict=True):
        if not title:
            continue
        section = title if title not in used else f"{previous}: {title}"
        used.add(section)
        previous = title
        body = _tidy(lines[start + 1 : end])
        if body:
            rules.append(Rule(PROCEDURES, section, title, body))
    return tuple(rules)


def build(folder: Path) -> tuple[Rule, ...]:
    """Every section of every book in `folder` (the shipped editions and procedures)."""
    out: list[Rule] = []
    for edition, name in BOOKS:
        text = (folder / name).read_text(encoding="utf-8")
        out.extend(parse_procedures(text) if edition == PROCEDURES else parse_rulebook(text, edition))
    return tuple(out)


def dump(sections: Sequence[Rule]) -> str:
    return json.dumps([asdict(r) for r in sections], ensure_ascii=False, indent=1) + "\n"


# ---- the packaged sections ------------------------------------------------------------------

@cache
def rules() -> tuple[Rule, ...]:
    """Every section of every edition shipped, as `build` made them."""
    rows = json.loads(DATA.read_text(encoding="utf-8"))
    return tuple(Rule(**row) for row in rows)


@cache
def _index() -> dict[str, Rule]:
    return {r.citation: r for r in rules()}


def rule_for(citation: str) -> Rule | None:
    """The section a citation names: "BARGE 2025 §1.4", "BARGE 2025 Appendix B", a room's game
    "BARGE 2025 §2.23, as extended by PokerStars" (the BARGE section it extends), or "Cardroom
    procedures, <title>"; None for anything else."""
    plain = re.sub(r", as extended by .*$", "", citation.strip())
    return _index().get(plain)


# The sentence(s) of a section that a finding code applies, where the section says more than the
# rule broken: (code, section) -> the words as the book writes them. A quote is used only when
# the cited edition's section holds it word for word (tests/test_rulebook.py checks every one is
# found in the 2025 text), so an edition that words the rule differently shows its whole section.
_ALL_IN = ("In *no-limit* poker, when a player chooses to bet or raise, the size of the raise can be "
           "anywhere from the minimum bet to *all-in* (i.e. all of the chips the player has in front of "
           "them, or what many of us call the “jam”).")
_STRUCTURE = ("The structure will specify the size of the small bet, the large bet, the small and big blinds "
              "for games that use blinds, and the ante and bring-in for games that use them.")
QUOTES: dict[tuple[str, str], str] = {
    ("WRONG_BLIND", "1.1"): _STRUCTURE,
    ("WRONG_ANTE", "1.1"): _STRUCTURE,
    ("WRONG_ANTE", "1.5"): "In games with a *big blind ante*, the player in the big blind posts an ante for "
    "the entire table.",
    ("WRONG_ANTE", "1.6"): "In this variation, all players post an ante pre-flop, and there is no pre-flop "
    "betting.",
    ("SEVENS_RULE", "Appendix B"): "After the draw, you must bet a 7 or better whenever you are either first "
    "to bet, or those ahead of you have passed. If you do not, you cannot win any action after the draw, "
    "and, in some clubs, you forfeit the entire pot.",
    ("WRONG_LIMIT_BET", "1.1"): "In *limit* poker, also called *fixed-limit* poker, the size of the raise "
    "a player makes is predetermined by the structure of the game or tournament.",
    ("RAISE_CAP_EXCEEDED", "1.1"): "The number of raises that can be made per street varies between "
    "different poker rooms. Often a bet and 3 raises is allowed (i.e. it is possible to 4-bet but not "
    "to 5-bet); sometimes a bet and 4 raises is allowed.",
    ("BETTING_NOT_REOPENED", "1.1"): "An all-in wager of less than half the bet does not reopen the "
    "betting for a player that has already acted and is in the pot for all previous bets.",
    ("BETTING_NOT_REOPENED", "1.2"): "A player who has already acted and is not facing a fullsize wager "
    "may not subsequently raise an all-in bet that is less than the minimum bet or less than the full "
    "size of the last bet or raise.",
    ("BETTING_NOT_REOPENED", "1.3"): "A player who has already acted and is not facing a full-size wager "
    "may not subsequently raise an all-in bet that is less than the minimum bet or less than the full "
    "size of the last bet or raise.",
    ("BET_BELOW_MINIMUM", "1.2"): "The minimum bet will be equal to the size of the large blind.",
    ("BET_BELOW_MINIMUM", "1.3"): "The minimum bet will be equal to the size of the large blind.",
    ("RAISE_BELOW_MINIMUM", "1.2"): "The minimum raise is the size of the last wager.",
    ("RAISE_BELOW_MINIMUM", "1.3"): "The minimum raise is the size of the last bet or raise.",
    ("BET_OVER_POT_LIMIT", "1.3"): "The maximum raise is the size of the pot *after the call* of the "
    "initial action.",
    ("BET_EXCEEDS_STACK", "1.2"): _ALL_IN,
    ("ALL_IN_MISMARKED", "1.2"): _ALL_IN,
    ("WRONG_ODD_CHIP", "1.4"): "3. When two or more hands tie, an odd chip or chips are awarded as "
    "follows: a. In games with a button, the first hand clockwise from the button (i.e. \"worst "
    "position\") gets the odd chip; b. In stud games, the odd chip will be given to the hand with the "
    "highest card by suit, where the ordering of suits is spades, hearts, diamonds, clubs; c. In "
    "High-Low split games, the high hand receives the odd chip in a split between the high and low hands.",
    ("BOMB_POT_BETTING", "1.6"): "In this variation, all players post an ante pre-flop, and there is no "
    "pre-flop betting.",
    ("JAM_OR_FOLD", "1.8"): "Jam-or-Fold is a variation of a poker tournament where the player has only "
    "two options for their initial action. They can either go all-in (“jam”) or fold.",
    ("WRONG_DICE", "1.13"): "In these games, the dice (or die) are rolled by the player on the button.",
    ("CHECK_RAISE", "2.11"): "NOTE: California Lowball is most commonly played as a limit game, with the "
    "Sevens Rule (see Appendix B) in effect and with no check-and-raise allowed.",
    # The misdeals of a wrong deal: a card dealt up that goes down, and a wrong number of cards.
    ("WRONG_DEAL", f"{PROCEDURES}, Rules of Lowball"): "These rules governing misdeals are reprinted here "
    "for convenience. “The following circumstances cause a misdeal, provided attention is called to the "
    "error before two players have acted on their hands:\n"
    "    • The first or second card of the hand has been dealt faceup or exposed through dealer error.\n"
    "    • Two or more cards have been exposed by the dealer.\n"
    "    • Two or more extra cards have been dealt in the starting hands of a game.\n"
    "    • An incorrect number of cards has been dealt to a player, except the button can receive one more "
    "card to complete a starting hand.",
    # Across a table's hands (evaluator/sequences.py).
    ("WRONG_BUTTON", f"{PROCEDURES}, Poker Tournament Rules"): "The dealer button remains in position until "
    "the appropriate blinds are taken. Players must post all blinds every round. Because of this, the "
    "button may stay in front of the same player for two consecutive hands.",
    ("WRONG_BUTTON", f"{PROCEDURES}, Rules for Using Blinds"): "Either of the following methods of button "
    "and blind placement may be designated to do this:\n"
    "    • Moving button: The button always moves forward to the next player and the blinds adjust "
    "accordingly. There may be more than one big blind.\n"
    "    • Dead button: The big blind is posted by the player due for it, and the small blind and button "
    "are positioned accordingly, even if this means the small blind or the button is placed in front of an "
    "empty seat, giving the same player the privilege of last action on consecutive hands.",
    ("MISSED_BLIND_NOT_POSTED", f"{PROCEDURES}, Rules for Using Blinds"): "A player who misses any or all "
    "blinds can resume play by either posting all the blinds missed or waiting for the big blind. If a "
    "player chooses to post the total amount of the blinds, an amount up to the size of the minimum opening "
    "bet is live.",
    ("LEVEL_DECREASED", f"{PROCEDURES}, Poker Tournament Rules"): "Limits and blinds are raised at regularly "
    "scheduled intervals.",
    ("SEAT_TAKEN", f"{PROCEDURES}, Poker Tournament Rules"): "A change of seat is not allowed after play "
    "starts, except as assigned by the director.",
    ("PLAYER_AT_TWO_TABLES", f"{PROCEDURES}, Poker Tournament Rules"): "As players are eliminated, tables "
    "are broken in a pre-set order, with players from the broken tables assigned to empty seats at other "
    "tables.",
}
# Codes that apply one part of a game's section: the part under this heading is their quote.
GAME_PARTS: dict[str, str] = {
    "WRONG_BLIND": "Forced Money", "WRONG_ANTE": "Forced Money", "WRONG_BRING_IN": "Forced Money",
    "WRONG_DEAL": "Dealing Procedure", "WRONG_BOARD": "Dealing Procedure",
    "DRAW_COUNT_MISMATCH": "Dealing Procedure", "WRONG_DISCARD_COUNT": "Dealing Procedure",
    "UNEXPECTED_STREET": "Dealing Procedure", "UNEXPECTED_STEP": "Dealing Procedure",
    "STUB_EXHAUSTED": "Dealing Procedure", "OUT_OF_TURN": "Dealing Procedure",
    "BETTING_ROUND_INCOMPLETE": "Dealing Procedure", "WRONG_BOARD_REMOVAL": "Dealing Procedure",
    "WRONG_GAME_CHOICE": "Dealing Procedure", "AWARD_NOT_CHECKED": "Evaluating the Showdown",
    "WRONG_AWARD": "Evaluating the Showdown", "MISREAD_HAND": "Evaluating the Showdown",
    "LOW_DID_NOT_QUALIFY": "Evaluating the Showdown", "MISDESCRIBED_HAND": "Evaluating the Showdown",
}
_GAME_HEADINGS = ("Forced Money", "Dealing Procedure", "Evaluating the Showdown", "Notes", "References",
                  "Discussion", "Examples")


def _part(text: str, heading: str) -> str | None:
    """The paragraphs under `heading` in a game section, up to the next of its headings."""
    paragraphs = text.split("\n\n")
    if heading not in paragraphs:
        return None
    start = paragraphs.index(heading) + 1
    end = next((i for i in range(start, len(paragraphs)) if paragraphs[i] in _GAME_HEADINGS),
               len(paragraphs))
    return "\n\n".join(paragraphs[start:end]) or None


def _section_key(rule: Rule) -> str:
    return rule.citation if rule.edition == PROCEDURES else rule.section


@cache  # listings ask for the same few (code, citation) pairs once per finding
def quote_for(code: str, citation: str) -> str | None:
    """The exact sentence(s) of the cited rule that `code` applies; None where the text allows no
    narrower quote than the whole section (or the citation names no shipped section)."""
    rule = rule_for(citation)
    if rule is None:
        return None
    quote = QUOTES.get((code, _section_key(rule)))
    if quote is not None and quote in rule.text:
        return quote
    heading = GAME_PARTS.get(code)
    # A room's game deals and settles otherwise than the section it extends: no part of that
    # section is its rule, only the whole section "as extended by" the room.
    if heading is not None and rule.section.startswith("2.") and citation == rule.citation:
        return _part(rule.text, heading)
    return None


@cache
def rule_text(code: str, citation: str) -> str | None:
    """What a listing shows beside a finding: the quote, else the section's whole text."""
    quote = quote_for(code, citation)
    if quote is not None:
        return quote
    rule = rule_for(citation)
    return None if rule is None else rule.text


def rule_title(citation: str) -> str | None:
    """The title of the cited section ("Ties & Odd Chips"), None if no shipped section."""
    rule = rule_for(citation)
    return None if rule is None else rule.title


def _lines(sections: Sequence[Rule]) -> Iterator[str]:
    for r in sections:
        yield f"{r.citation}\t{r.title}\t{len(r.text)} characters"


def main(argv: Sequence[str]) -> int:
    """``python -m evaluator.rulebook build FOLDER``: parse the books in FOLDER into `DATA`."""
    if len(argv) != 2 or argv[0] != "build":
        print("usage: python -m evaluator.rulebook build FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[1])
    try:
        sections = build(folder)
    except OSError as exc:
        print(f"cannot read the rulebooks in {folder}: {exc.strerror}: {exc.filename}", file=sys.stderr)
        return 3
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(dump(sections), encoding="utf-8")
    for line in _lines(sections):
        print(line)
    print(f"{len(sections)} sections written to {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
