"""Transformers for the coarse grammars: the record transformer plus one method a coarse line.

A coarse grammar (`barge_coarse.lark`, `pokerstars_coarse.lark`) reads each common line as one
token; its method here splits that token's text with str methods and returns exactly the tuple
the record rules would have built for the line, so the hand is identical. Anything unexpected
(an amount that does not parse, a reserved name, a player not seated) only has to raise:
`HandReader` then parses the hand again with the record grammar, whose error is the one told.
"""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from grammar.barge_transformer import _SUITS, BargeTransformer, Partial, street_key
from grammar.pokerstars_names import unmask
from grammar.pokerstars_transformer import PokerStarsTransformer, _money
from pipeline.amounts import parse_amount
from pipeline.model import Award, FinalStack

# What an action line's words before its amount make: (kind, detail, the amount is `to_amount`).
_BARGE_AMOUNT_VERBS: dict[str, tuple[str, str | None, bool]] = {
    "posts small blind": ("post", "small_blind", False),
    "posts big blind": ("post", "big_blind", False),
    "posts straddle": ("post", "straddle", False),
    "posts dead blind": ("post", "dead_blind", False),
    "posts kill blind": ("post", "kill_blind", False),
    "posts the ante": ("ante", "ante", False),
    "posts big blind ante": ("ante", "big_blind_ante", False),
    "brings in for": ("bring_in", None, False),
    "completes to": ("complete", None, True),
    "bets": ("bet", None, False),
    "calls": ("call", None, False),
    "raises to": ("raise", None, True),
}
# The actions whose only argument is a bracketed group (a fold's or a muck's may be left out).
_BARGE_CARD_VERBS = {"checks": "check", "folds": "fold", "mucks": "muck", "exposes": "expose",
                     "shows": "show"}
_ALL_IN = " and is all-in"
# A header stake's words before its amounts -> the record transformer's method for it.
_STAKE_WORDS = {"blinds": "blinds", "bets": "bets", "ante": "ante", "big blind ante": "big_blind_ante",
                "bring-in": "bring_in", "bomb pot": "bomb_pot", "cap": "cap", "": "jam_or_fold"}
# A metadata line's key -> the record transformer's method for it.
_META_KEYS = {"Event": "event", "Tournament": "tournament", "Level": "level", "Site": "site",
              "Game": "game_type", "Currency": "currency"}


def _cards(inside: str) -> tuple[str, ...]:
    """The cards of a bracketed group's inside, "Ah Kd", as the model writes them."""
    return tuple(card.translate(_SUITS) for card in inside.split(" "))


def _action_words(text: str, colon: int) -> tuple[str, bool]:
    """What an action line says after its actor's colon, without a closing "and is all-in", and
    whether it had one."""
    words = text[colon + 2:]
    if words.endswith(_ALL_IN):
        return words[:-len(_ALL_IN)], True
    return words, False


@v_args(inline=True)
class CoarseBargeTransformer(BargeTransformer):
    """`BargeTransformer` plus the lines of `barge_coarse.lark`, each one token."""

    def coarse_header(self, line: Token) -> tuple[Any, ...]:
        text: str = line.value.rstrip()
        hand_id, _, rest = text[len("BARGE Hand #"):].partition(": ")
        variant, structure, rest = rest.split(" ", 2)
        listed, _, when = rest[1:].partition(")")
        stakes = self.stakes(*(self._stake(item) for item in listed.split(", ")))
        started_at = None
        if when:
            date, clock = when[len(" - "):].split(" ")
            started_at = self.timestamp(Token("DATE", date), Token("TIME", clock))
        return self.header(Token("HAND_ID", hand_id), Token("VARIANT", variant),
                           Token("STRUCTURE", structure), stakes, started_at)

    def _stake(self, item: str) -> tuple[str, Any]:
        """One stake of the header, as the record rule `stake` builds it ("jam-or-fold" has no
        amount)."""
        words, _, value = item.rpartition(" ")
        amounts = [parse_amount(v) for v in value.split("/")] if words else []
        read: tuple[str, Any] = getattr(self, _STAKE_WORDS[words])(*amounts)
        return read

    def coarse_meta(self, line: Token) -> tuple[str, Any]:
        key, _, value = line.value.rstrip().partition(":")
        read: tuple[str, Any] = getattr(self, _META_KEYS[key])(Token("TEXT", value))
        return read

    def coarse_table(self, line: Token) -> tuple[str, Any]:
        name, _, rest = line.value.rstrip()[len("Table '"):].partition("'")
        max_seats = button = None
        for word in rest.split(" Seat #"):
            if word.endswith("-max"):
                max_seats = int(word[1:-len("-max")])
            elif word:
                button = int(word[:-len(" is the button")])
        return ("table", (name, max_seats, button))

    def coarse_uncalled(self, line: Token) -> tuple[Any, ...]:
        value, _, name = line.value.rstrip()[len("Uncalled bet ("):].partition(") returned to ")
        return ("action", line, name, [("return", parse_amount(value), None, (), None)], False)

    def coarse_summary(self, line: Token, *lines: tuple[Any, ...]) -> tuple[Any, ...]:
        return self.summary(*lines)

    def coarse_action(self, line: Token) -> tuple[Any, ...]:
        text: str = line.value.rstrip()
        colon = text.index(":")
        words, all_in = _action_words(text, colon)
        verb, _, rest = words.partition(" ")
        partials: list[Partial]
        if verb in _BARGE_CARD_VERBS:
            group, _, described = rest.partition("] ")
            cards = _cards(group.strip("[]")) if group else ()
            if verb == "shows":  # the hand's description, "(two pair)"
                partials = [("show", None, None, cards, described[1:-1].strip() if described else None)]
            else:
                partials = [(_BARGE_CARD_VERBS[verb], None, None, cards, None)]
        elif verb == "discards":
            discarded, _, drawn = rest.partition(" and draws ")
            cards = _cards(discarded[1:-1]) if discarded[0] == "[" else ("??",) * int(discarded)
            partials = [("discard", None, None, cards, None)]
            if drawn:
                partials.append(("draw", None, None, _cards(drawn[1:-1]), None))
        elif words == "stands pat":
            partials = [("stand_pat", None, None, (), None)]
        else:
            head, _, value = words.rpartition(" ")
            amount = parse_amount(value)
            if head in _BARGE_AMOUNT_VERBS:
                kind, post, to = _BARGE_AMOUNT_VERBS[head]
                partials = [(kind, None, amount, (), post) if to else (kind, amount, None, (), post)]
            else:  # "raises 400 to 600"
                by = parse_amount(head[len("raises "):-len(" to")])
                partials = [("raise", by, amount, (), None)]
        return ("action", line, text[:colon].strip(), partials, all_in)

    def coarse_dealt(self, line: Token) -> tuple[Any, ...]:
        groups = line.value.rstrip()[len("Dealt to "):-1].split("]")
        before, _, inside = groups[0].partition("[")
        named = before[:-1]
        # The record grammar's name is the shortest that leaves a face word and a group.
        face = "down"
        for word in (" up", " down"):
            if named.endswith(word):
                named, face = named[:-len(word)], word[1:]
                break
        partials: list[Partial] = [("deal", None, None, _cards(inside), face)]
        for group in groups[1:]:
            before, _, inside = group.partition("[")
            partials.append(("deal", None, None, _cards(inside), before.strip() or "down"))
        return ("action", line, named, partials, False)

    def coarse_street(self, line: Token) -> tuple[Any, ...]:
        name, _, rest = line.value.rstrip()[len("*** "):].partition(" ***")
        return ("street", line, street_key(name), _cards(rest[2:-1]) if rest else ())

    def coarse_collected(self, line: Token) -> tuple[Any, ...]:
        name, _, rest = line.value.rstrip().partition(" collected ")
        value, _, rest = rest.partition(" from ")
        pot, _, portion = rest.partition(" (")
        number = int(pot[len("side pot "):]) if pot.startswith("side") else 0
        if pot.startswith("side") and number < 1:
            raise ValueError("side pots are numbered from 1")  # the record grammar tells it
        detail = portion[:-1].strip() if portion else None
        return ("award", line, Award(name, parse_amount(value), number, detail or None))

    def coarse_seat(self, line: Token) -> tuple[Any, ...]:
        text: str = line.value.rstrip()
        colon = text.index(":")
        paren = text.index(" (", colon)
        player = text[colon + 2:paren]
        return self.seat_line(line, Token("INT", text[len("Seat "):colon]), Token("NAME", player),
                              parse_amount(text[paren + 2:text.index(" in chips)", paren)]),
                              line if text.endswith(" is sitting out") else None)

    def coarse_final(self, line: Token) -> tuple[Any, ...]:
        text: str = line.value.rstrip()
        colon = text.index(":")
        name, _, value = text[colon + 2:].partition(" ends with ")
        return ("final_stack", line, FinalStack(int(text[len("Seat "):colon]), name,
                                                parse_amount(value)))

    def coarse_total(self, line: Token) -> tuple[Any, ...]:
        total, _, rake = line.value.rstrip()[len("Total pot "):].partition(" | Rake ")
        return ("total_pot", parse_amount(total), parse_amount(rake) if rake else None)


# PokerStars' action words before an amount: (kind, detail).
_STARS_AMOUNT_VERBS: dict[str, tuple[str, str | None]] = {
    "posts small blind": ("post", "small_blind"),
    "posts big blind": ("post", "big_blind"),
    "posts the ante": ("ante", "ante"),
    "bets": ("bet", None),
    "calls": ("call", None),
}


@v_args(inline=True)
class CoarsePokerStarsTransformer(PokerStarsTransformer):
    """`PokerStarsTransformer` plus the lines of `pokerstars_coarse.lark`, each one token."""

    def coarse_action(self, line: Token) -> tuple[Any, ...]:
        text: str = line.value.rstrip()
        colon = text.index(": ")
        words, all_in = _action_words(text, colon)
        partial: tuple[Any, ...]
        if words == "checks" or words == "folds":
            partial = ("check" if words == "checks" else "fold", None, None, (), None)
        elif words == "mucks hand":
            partial = ("muck", None, None, (), None)
        elif words == "doesn't show hand":
            return ("quiet",)
        elif words.startswith("shows "):
            group, _, described = words[len("shows ["):].partition("]")
            partial = ("show", None, None, _cards(group), described[2:-1].strip() if described else None)
        elif words.startswith("raises "):
            by, _, to = words[len("raises "):].partition(" to ")
            partial = ("raise", _money(Token("MONEY", by)), _money(Token("MONEY", to)), (), None)
        else:
            head, _, value = words.rpartition(" ")
            kind, detail = _STARS_AMOUNT_VERBS[head]
            partial = (kind, _money(Token("MONEY", value)), None, (), detail)
        return ("action", line, unmask(text[:colon].strip()), partial, all_in)

    def coarse_dealt(self, line: Token) -> tuple[Any, ...]:
        name, _, rest = line.value.rstrip()[len("Dealt to "):].partition(" [")
        groups = tuple(_cards(group) for group in rest[:-1].split("] ["))
        return ("dealt", line, unmask(name), groups)

    def coarse_seat(self, line: Token) -> tuple[Any, ...]:
        text: str = line.value.rstrip()
        colon = text.index(":")
        paren = text.index(" (", colon)
        stack = text[paren + 2:-len(" in chips)")]
        return ("seat", line, int(text[len("Seat "):colon]), unmask(text[colon + 2:paren]),
                _money(Token("MONEY", stack)), "", None)

    def coarse_collected(self, line: Token) -> tuple[Any, ...]:
        name, _, rest = line.value.rstrip().partition(" collected ")
        amount = rest[:-len(" from pot")]
        return ("collected", line, unmask(name), _money(Token("MONEY", amount)), 0)

    def coarse_street(self, line: Token) -> tuple[Any, ...]:
        name, _, rest = line.value.rstrip()[len("*** "):].partition(" ***")
        groups = [_cards(group) for group in rest[2:-1].split("] [")] if rest else []
        return ("street", line, ((name, groups),))

    def coarse_summary_seat(self, line: Token) -> tuple[Any, ...]:
        text: str = line.value.rstrip()
        rest = text[text.index(": ") + 2:]
        name = rest.split(" (", 1)[0]
        for word in (" folded ", " collected "):
            name = name.split(word, 1)[0]
        won = rest.endswith(")") and " collected (" in rest
        outcome = (("won", (), [(None, _money(Token("MONEY", rest[rest.rindex("(") + 1:-1])))], None)
                   if won else ("folded", (), [], None))
        return ("seat_summary", line, unmask(name), outcome)
