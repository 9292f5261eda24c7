"""The replay engine: plays a recorded hand again under the rulebook and reports each place
where what happened differs from what the rules allow.

`replay(hand)` walks the hand's actions in order, keeping the state the rules need: every
player's stack, chips in front of them and in the pot, who folded and who is all-in, the cards
in each hand and on each board, the cards dealt from the stub, and the betting round
(`evaluator.betting.Round`). The game's steps come from the catalog (`evaluator.catalog`), the
house rules from the profile (`evaluator.profiles`). A record too broken to go on gets a
`REPLAY_STOPPED` finding at the action where replay stopped; replay never raises.

>>> from grammar.barge_parser import EXAMPLE, parse_hand
>>> replay(parse_hand(EXAMPLE))
[]
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from evaluator.awarding import Share
from evaluator.catalog import ALL_GAMES, Street
from evaluator.findings import Finding
from evaluator.finish import Finish
from evaluator.flips import pays
from evaluator.hand_state import Player, Stop, StreetState
from evaluator.profiles import resolve
from evaluator.wagering import BETTING_KINDS
from pipeline.model import Action, Hand

__all__ = ["END_STREETS", "Outcome", "Player", "Replay", "replay", "replay_hand"]

CARD_STEPS = frozenset({"discard", "draw", "stand_pat", "split", "expose", "roll", "choose", "remove_board",
                        "declare"})
END_STREETS = frozenset({"showdown", "summary"})
# The note a reader writes for a player the site says is disconnected (`disconnect` in the profile)
_DISCONNECTED = re.compile(r"(?P<player>.+) is disconnected and all-in")


class Replay(Finish):
    """One hand replayed: the walk over its actions and its streets, on the layers below."""

    # ---- the walk ----
    def run(self) -> list[Finding]:
        for option, value in self.profile.unknown:
            self.flag(
                "UNKNOWN_RULES_OPTION",
                f"option {option}={value} is not known to {self.profile.name}; it was ignored",
                seq=0,
            )
        if not self.walk():
            return self.findings
        try:
            if self.street is not None:
                self.close_street()  # the last street's checks come before the hand's totals
            self.finish()
        except Stop as stop:
            self.flag("REPLAY_STOPPED", f"replay stopped at the end of the hand: {stop}")
        return self.findings

    def walk(self) -> bool:
        """Every recorded action in turn; False when the record is too broken to go on."""
        for seq, action in enumerate(self.hand.actions, start=1):
            self.seq = seq
            try:
                self.step(action)
            except Stop as stop:
                self.flag("REPLAY_STOPPED", f"replay stopped at action {seq}: {stop}")
                return False
        self.seq = len(self.hand.actions)
        return True

    def step(self, action: Action) -> None:
        if self.street is None or action.street != self.street.name:
            self.enter_street(action.street)
        street = self.street
        assert street is not None
        street.last_seq = self.seq
        self.check_buying(action)
        if pays(action):
            street.paid.add(action.player or "")
        kind = action.kind
        if kind == "ruling":
            self.flag("FLOOR_RULING", f"floor ruling: {action.detail}")
            return
        if kind in ("note", "run_it", "reshuffle"):
            if kind == "run_it":
                self.run_it = True
                self.runs = action.amount or 2
                self.shared = len(self.board_cards.get("1", []))
            elif kind == "reshuffle":
                # The new stub is the discards and the muck (folded hands): PokerKit rebuilds it so,
                # and the burn cards the cardroom procedures add are in no record (docs/interop.md).
                gone = {p.name for p in self.players.values() if p.folded or p.mucked}
                back = [c for c, holder in self.where.items() if holder == "discards" or holder in gone]
                for card in back:
                    del self.where[card]
                self.stub += len(back) + self.unseen_discards
                self.unseen_discards = 0
            elif kind == "note":
                self.disconnected(action.detail or "")
            return
        if kind in ("post", "ante"):
            self.forced(action)
            return
        if kind == "deal":
            self.deal(action)
            return
        if kind == "board":
            self.board(action)
            return
        self.settle()
        if kind == "return":
            self.take_back(action)
        elif kind in BETTING_KINDS:
            street.bettors.add(action.player or "")
            self.betting(action)
        elif kind in CARD_STEPS:
            self.card_step(action)
        elif kind == "fee":
            self.on_fee(action)
        elif kind in ("show", "muck"):
            self.reveal(action)

    def disconnected(self, note: str) -> None:
        """`disconnect=all_in` (the Winning Poker Network's disconnect protection): a player the site
        says is disconnected ("Ann is disconnected and all-in") is all-in for what they have put in,
        their stack aside, as a cap game's player at the cap is."""
        found = _DISCONNECTED.fullmatch(note)
        if found is None or self.profile.get("disconnect") != "all_in":
            return
        player = self.players.get(found["player"])
        if player is not None and player.live:
            player.cap = player.total - player.ante

    # ---- streets ----
    def enter_street(self, name: str) -> None:
        if self.street is not None:
            self.close_street()
        spec: Street | None = None
        if name not in END_STREETS:
            names = [s.name for s in self.plan]
            if name in names and names.index(name) > self.plan_index:
                self.plan_index = names.index(name)
                spec = self.plan[self.plan_index]
            else:
                where = "out of order" if name in names else f"not a street of {self.game.variant.name}"
                self.flag("UNEXPECTED_STREET", f"street {name.replace('_', ' ')} is {where}")
        self.street = StreetState(spec, name)
        self.short_calls = {}
        if spec is not None and spec.draw and self.sevens_rule():
            self.after_draw_from = {p.name: self.contributed(p) for p in self.players.values()}
        for p in self.players.values():
            p.bet = 0
            if p.cards and all(c in p.up for c in p.cards):
                self.street.all_exposed.add(p.name)
        # A street the game does not have still has its betting judged, at the big bet.
        betting_spec = spec or (None if name in END_STREETS else Street(name, bet="big"))
        if betting_spec and betting_spec.bet is not None and not self._bomb_pot_first(betting_spec):
            self.street.round = self.new_round(betting_spec)

    def close_street(self) -> None:
        street = self.street
        assert street is not None
        self.settle()
        self.unbought(street)  # a fee on the street whose card never came
        spec = street.spec
        going_on = len(self.live) >= 2
        r = street.round
        if r is not None and going_on:
            waiting = self.next_to_act(r)
            if waiting is not None:
                self.flag(
                    "BETTING_ROUND_INCOMPLETE",
                    f"{street.name.replace('_', ' ')} ended with {waiting} still to act",
                    seq=street.last_seq,
                )
        self._owe_uncalled(street)
        if spec is not None and "remove_board" in spec.steps and (going_on or street.removed):
            self.check_removal(street)  # §2.34: a removal is checked whoever is left to play the river
        if spec is None or not going_on:
            return
        self.check_flips(street)
        self.check_declarations(street)
        if spec.dice and not street.rolled and self.plan_index + 1 < len(self.plan):
            self.flag(
                "WRONG_DICE",
                f"no roll of {spec.dice} dice after the {spec.name} betting",
                seq=street.last_seq,
            )
        lowest = (spec.discard or spec.draw or (0, 0))[0]
        if lowest:
            for p in self.live:
                if p.name not in street.discarded:
                    self.flag(
                        "WRONG_DISCARD_COUNT",
                        f"{p.name} did not discard on {spec.name}; {lowest} must be discarded",
                        seq=street.last_seq,
                    )
        for name, (count, seq) in street.pending_draw.items():
            self.flag("DRAW_COUNT_MISMATCH", f"{name} discarded {count} and drew nothing", seq=seq)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A replayed hand: its findings, and when the pots could be settled, what the rules push to
    each player (`awards`) and the stacks everyone ends with under the rules (`ending`)."""

    findings: list[Finding]
    awards: tuple[Share, ...] | None = None
    ending: dict[str, int] | None = None


def replay_hand(hand: Hand, profile: str | None = None) -> Outcome:
    """Replay `hand` under its rules profile (or `profile`, which overrides it)."""
    game = ALL_GAMES[hand.variant]
    chosen = resolve(profile or hand.rules_profile, hand.rules_options)
    engine = Replay(hand, game, chosen)
    try:
        findings = engine.run()
    except Exception as exc:  # the engine's own fault must not stop an audit of many hands
        engine.flag(
            "REPLAY_STOPPED",
            f"replay stopped by an internal error ({type(exc).__name__}: {exc}); please report this hand",
        )
        return Outcome(engine.findings)
    settlement = engine.settlement
    if settlement is None:
        return Outcome(findings)
    won = Counter[str]()
    paid = settlement.paid  # the room's payments (a cash-out, splash-the-pot money) where it has them
    for share in paid:
        won[share.player] += share.amount
    ending = {s.player: s.stack - engine.contributed(engine.players[s.player]) + won[s.player]
              for s in hand.seats}
    return Outcome(findings, paid, ending)


def replay(hand: Hand, profile: str | None = None) -> list[Finding]:
    """The findings of `hand` under its rules profile (or `profile`), in the order of the actions
    they concern."""
    return replay_hand(hand, profile).findings
