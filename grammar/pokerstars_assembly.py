"""Assembles one PokerStars hand from its lines (as `grammar.pokerstars_transformer` tags them)
into the hand model, translating PokerStars' conventions into the model's (docs/format.md):

- the game name and structure become a catalog id (`grammar.pokerstars_games`); the hand id is
  the site's hand number behind a site prefix ("PS-255867983097");
- a street marker repeats the board ("*** TURN *** [Kh 7c 5d] [Ad]"): only new cards are dealt;
  in stud, a marker's card is the common card;
- stud's "Dealt to" repeats earlier cards and shows only the up cards of other players: the new
  cards are split into down and up by the game's street, unseen ones written "??";
- a draw is the "Dealt to" line that answers a discard, or unseen cards when there is none;
  single-draw histories write no marker for the draw, so a discard starts the draw street;
- run-outs ("*** FIRST RIVER ***", "*** SECOND RIVER ***") are `run_it` and board "2", and a
  hand shown again on the second run adds its description to the first showing; in a game of two
  boards (Split Hold'em) the same words name its boards, dealt together, and no run-out;
- a converter's straddle written as a second, larger "posts big blind" is the straddle it is;
- the summary adds what the play leaves out: cards mucked or shown there, and who won a pot
  nobody "collected" (cash-outs);
- the site, its hand-id prefix and rules profile are the dialect's (`grammar.pokerstars_dialects`);
  the house's takes besides the rake (GGPoker's jackpot fee) are part of the rake, each a note;
- the site's habits that are not the rules' are undone, each said where it is done:
  splash-the-pot money, a missed small blind posted dead, an uncalled bet the history leaves
  implicit, a return written after the showdown, a "muck" by the last player in, a "fold" by a
  player all-in on a blind.

Hands the history marks "Hand cancelled", and hands cut off before their summary, raise
`HandSyntaxError` saying so.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from lark import Token

from evaluator.catalog import ALL_GAMES, Street
from grammar.errors import HandSyntaxError
from grammar.pokerstars_dialects import Dialect
from grammar.pokerstars_games import (
    PRE_FLOP,
    SHOWDOWN,
    SIX_PLUS_WITH_BLINDS,
    STRUCTURES,
    game_id,
    hand_id_prefix,
    omaha_by_hole_cards,
    run_of,
    site_name,
    site_of,
    street_of,
)
from pipeline.amounts import parse_amount
from pipeline.model import PLAY_MONEY, UNKNOWN_CARD, Action, Award, Hand, Seat, Stakes

CANCELLED = "the hand was cancelled (the history says 'Hand cancelled'): it was never played out"
CUT_OFF = "the hand is cut off: the history ends before its summary"
CURRENCIES = "$\u20ac\u00a3\u20b9\u00a5\ufffd"
SYMBOLS = {"$": "USD", "\u20ac": "EUR", "\u00a3": "GBP", "\u20b9": "INR", "\u00a5": "CNY"}
LOST = "?"  # the currency of a symbol the file's encoding lost (U+FFFD): money, but which is unknown
_POINTS = frozenset({"FPP", "SC"})  # buy-ins in the site's points (FPP, StarsCoin): no currency
_CODE = re.compile(r"[A-Z]{3}")
_PLAIN_BUY_IN = re.compile(r"[\d.,+]+")

Item = tuple[Any, ...]
Cards = tuple[str, ...]

_BETTING = frozenset({"post", "bet", "call", "raise", "check", "fold", "complete", "bring_in"})
_WAGERS = frozenset({"bet", "call", "raise", "bring_in", "complete"})


def error(token: Token, message: str) -> HandSyntaxError:
    return HandSyntaxError(message, token.line or 1, token.column or 1)


@dataclass(frozen=True, slots=True)
class Header:
    """The header line: the site, its hand number, the home-game club, the tournament (number and
    buy-in words), the mixed game, the game and structure as written, the stakes in parentheses
    ("blinds" or "button", two amounts, the currency), the level (text, two amounts), the time and
    a cap game's cap ("$10 Cap": what one player may put in over the hand)."""

    token: Token
    site: str
    number: str
    club: str | None
    tourney: tuple[str, str] | None
    mix: str | None
    game: Token
    structure: str
    stakes: tuple[str, int, int, str] | None
    level: tuple[str, int, int] | None
    started_at: datetime | None
    cap: int | None = None


def assemble(items: Sequence[Item], dialect: Dialect) -> Hand:
    """The hand of a block's tagged lines, the header first, as the site's dialect writes it."""
    return _Builder(tuple(items), dialect).hand()


@dataclass(slots=True)
class _Builder:
    """Walks the lines in order, keeping the street, the boards and what each player did."""

    items: tuple[Item, ...]
    dialect: Dialect
    variant: str = ""
    streets: tuple[str, ...] = ()
    specs: dict[str, Street] = field(default_factory=dict)
    stud: bool = False
    runs: int = 2
    actions: list[Action] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)
    won: list[Award] = field(default_factory=list)  # the summary's "won (X)": when nobody collected
    seats: list[Seat] = field(default_factory=list)
    flags: dict[str, str] = field(default_factory=dict)  # "is sitting out", "out of hand ...", "[hero]"
    bounties: list[str] = field(default_factory=list)
    boards: dict[str, list[str]] = field(default_factory=dict)
    consumed: set[int] = field(default_factory=set)  # "Dealt to" lines read as a draw
    shows: dict[str, Action] = field(default_factory=dict)
    mucks: dict[str, Action] = field(default_factory=dict)
    folds: dict[str, Action] = field(default_factory=dict)
    all_in: set[str] = field(default_factory=set)
    street: str = ""
    betting_street: str = ""
    showdown_run: int = 0
    shared: int = 0
    ran: bool = False
    boards_named: bool = False  # FIRST and SECOND name the game's two boards (Split Hold'em), not runs
    stp: int = 0
    second_small: list[Action] = field(default_factory=list)  # second small blinds, read as dead
    total_pot: int | None = None
    rake: int | None = None
    summary: bool = False
    play_money: bool = False
    meta: dict[str, Any] = field(default_factory=dict)

    def hand(self) -> Hand:
        header: Header = self.items[0][1]
        self.variant = self._variant(header)
        game = ALL_GAMES[self.variant]
        self.streets = tuple(s.name for s in game.streets)
        self.specs = {s.name: s for s in game.streets}
        self.stud = any(s.up for s in game.streets)
        self.boards_named = any(name == "2" for s in game.streets for name, _ in s.boards)
        self.runs = max([2, *(run_of(_marker_name(name))[0] for item in self.items if item[0] == "street"
                              for name, _ in item[2])])
        self.street = self.betting_street = self.streets[0]
        for index, item in enumerate(self.items[1:], start=1):
            self._line(index, item)
        if not self.summary:
            raise HandSyntaxError(CUT_OFF, len(self.items), 1)
        return self._finish(header)

    def _variant(self, header: Header) -> str:
        variant = game_id(str(header.game))
        if variant is None:
            raise error(header.game,
                        f"unknown game '{header.game}' (docs/interop.md (PokerStars) lists the games)")
        if variant == "six_plus_holdem" and (header.stakes is None or header.stakes[0] != "button"):
            variant = SIX_PLUS_WITH_BLINDS  # 6+ Hold'em with blinds is §2.45's game
        # Converters write "Omaha" whatever the number of hole cards: the first deal says which.
        hole = next((len(item[3][-1]) for item in self.items if item[0] == "dealt"), 0)
        return omaha_by_hole_cards(variant, hole)

    # ---- lines ----
    def _line(self, index: int, item: Item) -> None:
        tag = item[0]
        if tag == "seat":
            self._seat(item)
        elif tag == "table":
            self.meta["table_name"], self.meta["max_seats"], self.meta["button_seat"] = item[1:4]
            self.play_money = item[4]
        elif tag == "street":
            for name, groups in item[2]:
                self._marker(_marker_name(name), groups)
        elif tag == "action":
            self._action(index, item)
        elif tag == "dealt":
            self._dealt(index, item)
        elif tag == "uncalled":
            self._uncalled(self._seated(item[1], item[2]), item[3])
        elif tag == "collected" and item[3]:
            # Full Tilt names the run a pot is won on ("wins pot 2"); PokerStars' showdown marker does
            run = item[5] if len(item) > 5 and item[5] else self.showdown_run
            self.awards.append(Award(self._seated(item[1], item[2]), item[3], item[4], self._portion(run)))
        elif tag == "kept":
            self._kept(item[2])
        elif tag == "cancelled":
            raise error(item[1], CANCELLED)
        elif tag == "summary":
            self.summary = True
            for line in item[2]:
                self._summary_line(line)

    def _seat(self, item: Item) -> None:
        _, token, number, player, stack, flag, bounty = item
        if any(s.player == player or s.number == number for s in self.seats):
            raise error(token, f"seat {number} or player '{player}' appears twice")
        self.seats.append(Seat(number, player, stack))
        self.flags[player] = flag
        if bounty:
            self.bounties.append(f"{player} {bounty}")

    def _portion(self, number: int | None) -> str | None:
        """The portion of a pot a FIRST/SECOND showdown (or summary result) is for: a run of the
        board, or the game's board of that number (Split Hold'em: evaluator.showdown)."""
        if not number:
            return None
        return f"board {number}" if self.boards_named else f"run {number}"

    def _seated(self, token: Token, player: str) -> str:
        if player not in self.flags:
            raise error(token, f"'{player}' is not seated in this hand")
        return player

    def _add(self, action: Action) -> Action:
        self.actions.append(action)
        return action

    def _swap(self, old: Action, new: Action) -> Action:
        """Replace an action already written (the same object, wherever it now stands)."""
        at = next(i for i, a in enumerate(self.actions) if a is old)
        self.actions[at] = new
        return new

    # ---- streets and boards ----
    def _marker(self, upper: str, groups: list[Cards]) -> None:
        run, base = run_of(upper)
        if base == PRE_FLOP:  # Courchevel's first board card, dealt with the hole cards
            self._board("1", groups)
            return
        target = street_of(base, self.streets)
        if target == SHOWDOWN:
            self.street, self.showdown_run = SHOWDOWN, run
            return
        if self.boards_named:  # "*** SECOND FLOP ***" is the second board's flop, on the same street
            if run <= 1:
                self.street = target
            self._board(str(max(run, 1)), groups)
            return
        if run >= 2:  # a later run: its cards go on its own board, the street stays
            self._board(str(run), groups)
            return
        if run == 1 and not self.ran:
            self.ran = True
            self.shared = len(self.boards.get("1", []))
            self._add(Action(self.street, "run_it", None, amount=self.runs))
        self.street = target
        # A stud game's only board card is the common card dealt when the stub runs short.
        self._board("common" if self.stud else "1", groups)

    def _board(self, board: str, groups: list[Cards]) -> None:
        """Deal a marker's new cards: those of its last bracket not already on the board (a later
        run's board shares the first `shared` cards of board 1)."""
        if not groups:
            return
        cards = self.boards.setdefault(board, [])
        view = cards if board in ("1", "common") else self.boards.get("1", [])[: self.shared] + cards
        new = tuple(card for card in groups[-1] if card not in view)
        if new:
            cards.extend(new)
            self._add(Action(self.street, "board", None, cards=new, detail=board))

    # ---- players' lines ----
    def _action(self, index: int, item: Item) -> None:
        _, token, name, (kind, amount, to, cards, detail), all_in = item
        player = self._seated(token, name)
        if kind == "post" and detail == "small_and_big":
            self._small_and_big(player, amount, all_in)
            return
        second_small = (kind == "post" and detail == "small_blind"
                        and any(a.detail == detail for a in self.actions))
        if second_small:
            detail = "dead_blind"  # a missed small blind posted out of position is dead money
        if kind == "post" and detail == "big_blind" and self._straddles(amount):
            detail = "straddle"
        if kind in ("discard", "stand_pat"):
            self._draw_step(index, player, kind, amount or 0, cards)
        elif kind == "show":
            self._show(player, cards, detail)
        elif kind == "muck":
            # The last player in "mucks" by not showing (Run It Once's walks): that is no muck.
            if player not in self.mucks and not self._alone(player):
                self.mucks[player] = self._add(Action(self.street, "muck", player))
        elif kind == "check" and player in self.all_in:
            return  # Full Tilt's Flipout: the blinds' players, all-in on their antes, "check"
        elif kind == "fold" and player in self.all_in:
            # The site kills the hand of a player sitting out even when a blind put them all-in; an
            # all-in player has no turn to fold in, so the hand is given up as a muck.
            self.mucks[player] = self._add(Action(self.street, "muck", player, cards=cards))
        else:
            if kind in _BETTING and kind != "post":
                self.betting_street = self.street
            action = self._add(Action(self.street, kind, player, amount, to, cards, all_in, detail))
            if second_small:
                self.second_small.append(action)  # dead, unless the poster's call says it was live
            if kind == "fold":
                self.folds[player] = action
            if all_in:
                self.all_in.add(player)

    def _small_and_big(self, player: str, amount: int, all_in: bool) -> None:
        """"posts small & big blinds": the big blind is live, the small blind dead money."""
        pair = _pair(self.items[0][1])
        big = pair[1] if pair else amount
        self._add(Action(self.street, "post", player, min(amount, big), None, (), all_in and amount <= big,
                         "big_blind"))
        if amount > big:
            self._add(Action(self.street, "post", player, amount - big, None, (), all_in, "dead_blind"))

    def _straddles(self, amount: int) -> bool:
        """A converter writes a straddle as "posts big blind $8" after the $4 big blind: a second big
        blind larger than the big blind. A returning player's big blind (the blind's amount) is not."""
        posted = [a for a in self.actions if a.kind == "post" and a.detail == "big_blind"]
        if not posted:
            return False
        header: Header = self.items[0][1]
        pair = _pair(header)
        big = (pair[0] if _structure(header) == "limit" else pair[1]) if pair else posted[0].amount or 0
        return amount > big

    def _alone(self, player: str) -> bool:
        """Whether everyone else dealt in has folded or mucked."""
        acting = {a.player for a in self.actions}
        others = [s.player for s in self.seats if s.player != player and (_dealt_in(self.flags[s.player])
                                                                           or s.player in acting)]
        return all(other in self.folds or other in self.mucks for other in others)

    def _show(self, player: str, cards: Cards, detail: str | None) -> None:
        """A hand shown again for a later run adds its description to the first showing."""
        earlier = self.shows.get(player)
        if earlier is None or set(earlier.cards) != set(cards):
            self.shows[player] = self._add(Action(self.street, "show", player, cards=cards, detail=detail))
        elif detail:
            joined = f"{earlier.detail}; {detail}" if earlier.detail else detail
            self.shows[player] = self._swap(earlier, replace(earlier, detail=joined))

    def _uncalled(self, player: str, amount: int) -> None:
        """An uncalled bet returned. Some converters write it after the showdown: it belongs to the
        street of the bet, after its betting (the chips are the same). Run It Once writes there the
        whole amount it pushes the bettor, pot and splash-the-pot money with the bet ("Uncalled bet
        (0.71)" of a 0.21 bet): what comes back is the bet's unmatched part."""
        if self.street != SHOWDOWN:
            self._add(Action(self.street, "return", player, amount))
        else:
            street = self.betting_street
            chips = _street_chips([a for a in self.actions if a.street == street])
            unmatched = chips[player] - max((v for p, v in chips.items() if p != player), default=0)
            returned = unmatched if 0 < unmatched < amount else amount
            self._insert_after_betting(street, Action(street, "return", player, returned))

    def _insert_after_betting(self, street: str, action: Action) -> None:
        at = max((i for i, a in enumerate(self.actions) if a.street == street and a.kind in _BETTING),
                 default=len(self.actions) - 1)
        self.actions.insert(at + 1, action)

    # ---- cards ----
    def _spec(self) -> Street | None:
        return self.specs.get(self.street)

    def _draw_step(self, index: int, player: str, kind: str, count: int, cards: Cards) -> None:
        """A discard (with the draw that replaces it) or standing pat."""
        spec = self._spec()
        if spec is None or not (spec.draw or spec.discard):
            # Single-draw histories write no marker for the draw: the first discard starts it.
            after = self.streets.index(self.street) + 1 if self.street in self.streets else len(self.streets)
            later = [name for name in self.streets[after:] if self.specs[name].draw]
            if later:
                self.street = later[0]
        if kind == "stand_pat":
            self._add(Action(self.street, "stand_pat", player))
            return
        spec = self._spec()
        if not count and not cards and spec is not None and spec.discard and not spec.draw:
            count = spec.discard[0]  # Full Tilt's Irish "Ann discards": the cards the game takes, unseen
        discarded = cards + (UNKNOWN_CARD,) * max(count - len(cards), 0)
        self._add(Action(self.street, "discard", player, cards=discarded))
        if discarded and (spec is None or spec.draw or not spec.discard):  # Irish: discards not replaced
            drawn = self._drawn(index, player, len(discarded)) or (UNKNOWN_CARD,) * len(discarded)
            self._add(Action(self.street, "draw", player, cards=drawn))

    def _drawn(self, index: int, player: str, count: int) -> Cards | None:
        """The cards of the "Dealt to" line that answers a discard: its last bracket."""
        for later in range(index + 1, len(self.items)):
            item = self.items[later]
            if item[0] in ("street", "summary"):
                return None
            if item[0] == "dealt" and item[2] == player and later not in self.consumed:
                groups = item[3]
                if len(groups) < 2 and len(groups[-1]) != count:
                    return None
                self.consumed.add(later)
                return tuple(groups[-1])
        return None

    def _dealt(self, index: int, item: Item) -> None:
        if index in self.consumed:
            return
        _, token, name, groups = item
        player = self._seated(token, name)
        spec = self._spec()
        if spec is None:
            self._add(Action(self.street, "deal", player, cards=tuple(c for g in groups for c in g),
                             detail="down"))
            return
        if not (spec.down or spec.up):
            return  # a draw street's "Dealt to" that answers no discard repeats the hand held
        new = groups[-1]
        down, up = new, ()
        if spec.up:
            if len(new) == spec.down + spec.up:
                down, up = new[: spec.down], new[spec.down:]
            elif len(new) == spec.up:
                down, up = (UNKNOWN_CARD,) * spec.down, new  # another player's down cards are not shown
        if down:
            self._add(Action(self.street, "deal", player, cards=down, detail="down"))
        if up:
            self._add(Action(self.street, "deal", player, cards=up, detail="up"))

    def _kept(self, text: str) -> None:
        if text == "The deck is reshuffled":
            self._add(Action(self.street, "reshuffle", None))
            return
        if text.startswith("STP added:"):
            self.stp = parse_amount(text.split(":", 1)[1].strip().lstrip(CURRENCIES))
        self._add(Action(self.street, "note", None, detail=text))

    # ---- the summary ----
    def _summary_line(self, line: Item) -> None:
        tag = line[0]
        if tag == "total":
            _, self.total_pot, parts, self.rake, fees = line
            for text, amount in fees:
                # GGPoker's jackpot fee leaves the pot as the rake does: the house's take.
                self.rake = (self.rake or 0) + amount
                if amount:
                    self._add(Action(self.street, "note", None, detail=text))
            splashed = [amount for kind, amount in parts if kind == "stp"]
            if splashed:
                self.stp = sum(splashed)
        elif tag == "seat_summary":
            self._seat_summary(line)
        elif tag == "kept":
            self._kept(line[2])

    def _seat_summary(self, line: Item) -> None:
        _, _token, player, (kind, cards, wins, text) = line
        if player not in self.flags:
            return  # a name the seats did not list: nothing to add
        for board, amount in wins:
            self.won.append(Award(player, amount, 0, self._portion(board)))
        if not cards:
            return
        street = SHOWDOWN if any(a.street == SHOWDOWN for a in self.actions) else self.street
        if kind == "showed" and player in self.shows and text and self._shown_early(self.shows[player]):
            # GGPoker describes an all-in hand shown before the board is out as it stands then
            # ("Pair of Kings" on the turn); the summary's words are the hand the board made.
            self.shows[player] = self._swap(self.shows[player], replace(self.shows[player], detail=text))
        if kind == "showed" and player not in self.shows:
            self.shows[player] = self._add(Action(street, "show", player, cards=cards, detail=text))
        elif kind != "mucked":
            return
        elif player in self.mucks:
            self.mucks[player] = self._swap(self.mucks[player], replace(self.mucks[player], cards=cards))
        elif player in self.folds:
            if not self.folds[player].cards:  # folded, and the summary shows the cards: face up
                self.folds[player] = self._swap(self.folds[player], replace(self.folds[player], cards=cards))
        else:
            self.mucks[player] = self._add(Action(street, "muck", player, cards=cards))

    def _shown_early(self, show: Action) -> bool:
        """Whether board cards were dealt after this showing."""
        at = next(i for i, a in enumerate(self.actions) if a is show)
        return any(a.kind == "board" for a in self.actions[at + 1:])

    # ---- the hand ----
    def _finish(self, header: Header) -> Hand:
        awards = self.awards or self.won
        total = self.total_pot
        if self.stp:  # splash-the-pot money: the site's, put in by nobody, in no pot the rules know
            awards = _take_off(awards, self.stp)
            total = total - self.stp if total is not None else None
        awards, total = self._implicit_return(awards, total)
        self._live_second_small_blinds()
        acting = {a.player for a in self.actions if a.player}
        seats = tuple(replace(s, sitting_out=not _dealt_in(self.flags[s.player]) and s.player not in acting)
                      for s in self.seats)
        notes = [Action(self.streets[0], "note", None, detail="bounties: " + ", ".join(self.bounties))] \
            if self.bounties else []
        return Hand(
            hand_id=f"{self.dialect.prefix or hand_id_prefix(header.site)}-{header.number}",
            variant=self.variant,
            structure=_structure(header), stakes=self._stakes(header),
            seats=seats, actions=tuple(notes + self.actions), awards=tuple(awards),
            started_at=header.started_at, event=_event(header, self.play_money, self.dialect),
            site=self.dialect.site or site_of(header.site), game_type=_game_type(header),
            currency=_money(header, self.play_money, self.dialect),
            tournament=(header.tourney[0] or None) if header.tourney else None,  # WPN's old: none written
            level=header.level[0] if header.level else None, rules_profile=self.dialect.profile,
            total_pot=total, rake=self.rake, **self.meta,
        )

    def _live_second_small_blinds(self) -> None:
        """PokerStars' second small blind is dead ("calls $0.02" behind a $0.02 big blind), but some
        converted histories count it as a live bet ("posts small blind $15", then "calls $15" behind
        a $30 big blind). The poster's first call tells which: one that completes the post to the
        bet is read as meaning the post was live."""
        for post in self.second_small:
            at = next(i for i, a in enumerate(self.actions) if a is post)
            later = self.actions[at + 1:]
            call = next((a for a in later if a.player == post.player and a.street == post.street
                         and a.kind in _BETTING and a.kind != "post"), None)
            if call is None or call.kind != "call" or call.amount is None or post.player is None:
                continue
            before = self.actions[: self.actions.index(call)]
            live = _street_chips([a for a in before if a.street == post.street])
            owed = max(live.values(), default=0) - live[post.player]
            if call.amount == owed - (post.amount or 0) and call.amount != owed:
                self.actions[at] = replace(post, detail="small_blind")

    def _implicit_return(self, awards: list[Award], total: int | None) -> tuple[list[Award], int | None]:
        """Histories without "Uncalled bet" lines (PokerStars before 2007, some converters) still gave
        back the unmatched part of the last wager: either the pot leaves it out (the awards and rake
        are the chips put in less it), or its maker was pushed it with the pot. The return is
        written after the street's betting, and taken out of the pot it was pushed with."""
        wagered = [a for a in self.actions if _live(a)]
        if not wagered or any(a.kind == "return" for a in self.actions):
            return awards, total
        street = wagered[-1].street
        ranked = _street_chips([a for a in self.actions if a.street == street]).most_common()
        owner, top = ranked[0]
        unmatched = top - (ranked[1][1] if len(ranked) > 1 else 0)
        put_in = sum(_street_chips([a for a in self.actions if a.street == name], dead=True).total()
                     for name in dict.fromkeys(a.street for a in self.actions))
        collected = sum(a.amount for a in awards) + (self.rake or 0)
        if unmatched <= 0 or collected not in (put_in, put_in - unmatched):
            return awards, total
        if collected == put_in:
            if {a.player for a in awards} != {owner}:
                return awards, total
            awards = _take_off(awards, unmatched, owner)
            total = total - unmatched if total == put_in else total
        self._insert_after_betting(street, Action(street, "return", owner, unmatched))
        return awards, total

    def _stakes(self, header: Header) -> Stakes:
        """The header's numbers, and what it leaves out (limit blinds, antes, the bring-in) as
        posted: docs/interop.md (PokerStars), "Stakes"."""
        antes = self._posted("ante")
        ante = max(antes) if antes else None
        if header.stakes is not None and header.stakes[0] == "button":
            return Stakes(big_blind=header.stakes[1], ante=header.stakes[2])
        small, big = _pair(header) or (None, None)
        small_posts = self._posted("post", "small_blind")
        if ALL_GAMES[self.variant].forced == "antes":
            bring_in = next(iter(self._posted("bring_in")), None)
            return Stakes(small_bet=small, big_bet=big, ante=ante, bring_in=bring_in)
        if _structure(header) == "limit":
            # The header gives the bets; the big blind is the small bet, the small blind as posted.
            posted = small_posts[0] if small_posts else None
            return Stakes(small_blind=posted, big_blind=small, small_bet=small, big_bet=big, ante=ante,
                          cap=header.cap)
        small, big = self._level_before(header, small, big)
        return Stakes(small_blind=small, big_blind=big, ante=ante, cap=header.cap)

    def _level_before(self, header: Header, small: int | None,
                      big: int | None) -> tuple[int | None, int | None]:
        """GGPoker's header names a tournament's new level one hand before the table plays it: that
        hand is dealt at the level before (TM247773056: "Level3 (80/160)", blinds of 60 and 120 as in
        the hand before, and the ante of level 2). Its blinds are then those posted in full, when
        both are below the header's."""
        if not self.dialect.level_lags or header.level is None or small is None or big is None:
            return small, big
        posted = {a.detail: a.amount or 0 for a in reversed(self.actions)
                  if a.kind == "post" and not a.all_in and a.detail in ("small_blind", "big_blind")}
        before = posted.get("small_blind"), posted.get("big_blind")
        if before[0] is not None and before[1] is not None and before[0] < small and before[1] < big:
            return before
        return small, big

    def _posted(self, kind: str, detail: str | None = None) -> list[int]:
        """Amounts posted of a kind, those that were not all-in first (a short stack posts less)."""
        found = [a for a in self.actions if a.kind == kind and (detail is None or a.detail == detail)]
        return [a.amount or 0 for a in sorted(found, key=lambda a: a.all_in)]


def _structure(header: Header) -> str:
    """The model's structure of the header's words ("Fixed Limit" is "limit")."""
    return STRUCTURES[" ".join(header.structure.lower().split())]


def _marker_name(name: str) -> str:
    upper = " ".join(str(name).upper().split())
    if upper.startswith("HOLE CARDS") and upper != "HOLE CARDS":
        return upper.removeprefix("HOLE CARDS").strip()  # two markers the site ran together
    return upper


def _dealt_in(flag: str) -> bool:
    """A seat line's flag that leaves the player dealt in (unless they are seen playing)."""
    return not flag or flag == "[hero]"


def _pair(header: Header) -> tuple[int, int] | None:
    """The two amounts of the header: cash stakes, or the tournament level's."""
    if header.stakes is not None and header.stakes[0] == "blinds":
        return header.stakes[1], header.stakes[2]
    if header.level is not None:
        return header.level[1], header.level[2]
    return None


def _live(action: Action) -> bool:
    """Chips put in as a wager of the street (dead blinds and antes are not)."""
    return (action.kind == "post" and action.detail != "dead_blind") or action.kind in _WAGERS


def _street_chips(actions: list[Action], dead: bool = False) -> Counter[str]:
    """Each player's chips put in by one street's actions: wagers, and with `dead` the antes and
    dead blinds too. "Raises to" and "completes to" give the street's total wager."""
    live: Counter[str] = Counter()
    other: Counter[str] = Counter()
    for action in actions:
        if action.player is None:
            continue
        if _live(action) and action.kind in ("raise", "complete"):
            live[action.player] = max(live[action.player], action.to_amount or 0)
        elif _live(action):
            live[action.player] += action.amount or 0
        elif dead and action.kind in ("ante", "post"):
            other[action.player] += action.amount or 0
    return live + other if dead else live


def _take_off(awards: list[Award], amount: int, player: str | None = None) -> list[Award]:
    """The awards less chips no pot holds, taken from the main pot's (of `player`, if given): money
    the site splashed into the pot, or an uncalled bet pushed with the pot."""
    kept = []
    for award in awards:
        taken = min(amount, award.amount) if award.pot == 0 and player in (None, award.player) else 0
        amount -= taken
        if award.amount - taken:
            kept.append(replace(award, amount=award.amount - taken))
    return kept


def _event(header: Header, play_money: bool, dialect: Dialect) -> str:
    """The site, the home-game club, the tournament's buy-in, the mixed game and the cash game's
    currency, as written: "PokerStars, USD", "PokerStars Home Game {Dazzle's Room}, 100+9, 8-Game"."""
    parts = [(dialect.site or site_name(header.site)) + (f" {header.club}" if header.club else "")]
    if header.tourney and header.tourney[1]:
        parts.append(header.tourney[1])
    if header.mix:
        parts.append(header.mix)
    if header.tourney is None and header.stakes is not None and header.stakes[3] not in ("", LOST):
        parts.append(header.stakes[3])
    if play_money:
        parts.append("play money")
    return ", ".join(parts)


def currency_of_symbol(symbol: str) -> str:
    """The ISO 4217 code of the symbol before an amount: "" before a digit (chips), `LOST` for a
    symbol the site has that is not known here or that the file's encoding lost."""
    return SYMBOLS.get(symbol, "" if symbol.isdigit() else LOST)


def _game_type(header: Header) -> str:
    """A tournament when the header names one (a sit-and-go's header is the same: it is read as a
    tournament), a home game at a home-game club's cash table, else a cash game."""
    if header.tourney is not None:
        return "tournament"
    return "home_game" if "home game" in header.site.lower() else "cash"


def _money(header: Header, play_money: bool, dialect: Dialect) -> str | None:
    """The currency of the hand (docs/format.md, "Units"): a tournament's buy-in's, a cash game's
    stakes' ("play" for play money, None where the symbol was lost)."""
    if header.tourney is not None and dialect.buy_in_in_name:
        # "Daily Special $250", "H-04: $1,050 GGMasters High Rollers": the first amount's symbol
        return next((SYMBOLS[word[0]] for word in header.tourney[1].split() if word[0] in SYMBOLS), None)
    if header.tourney is not None:
        return _buy_in_currency(header.tourney[1])
    if play_money:
        return PLAY_MONEY
    code = header.stakes[3] if header.stakes is not None else LOST
    if code == LOST:
        return None
    return code or PLAY_MONEY  # real-money stakes are written with their symbol or code


def _buy_in_currency(words: str) -> str | None:
    """The currency of a tournament's buy-in words ("$10+$1 USD", "300+20" in play money, "250 SC"
    and "1FPP" in points, "Freeroll"): None for points, freerolls and lost symbols."""
    parts = words.split()
    if not parts:
        return None
    if len(parts) > 1 and _CODE.fullmatch(parts[1]) and parts[1] not in _POINTS:
        return parts[1]
    if parts[0][0] in SYMBOLS:
        return SYMBOLS[parts[0][0]]
    if _PLAIN_BUY_IN.fullmatch(parts[0]) and not (len(parts) > 1 and parts[1] in _POINTS):
        return PLAY_MONEY
    return None
