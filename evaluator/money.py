"""The chips of a hand under replay that go in and come back outside the betting decisions: the
forced money (blinds, antes; `evaluator.forced` checks their amounts once), the chips a player puts
in against their stack and the room's cap, the uncalled part of a wager owed back (§1.1) and the
returns the record shows.
"""

from __future__ import annotations

from collections import Counter

from evaluator.dealing import Dealing
from evaluator.forced import check_forced
from evaluator.hand_state import Player, Stop, StreetState
from pipeline.amounts import format_amount as chips
from pipeline.model import Action


class Money(Dealing):
    """The replay's chips outside the betting decisions: forced money, the uncalled bet, returns."""

    def forced(self, action: Action) -> None:
        assert action.player is not None
        player = self.players[action.player]
        amount = action.amount or 0
        if action.kind == "ante":
            player.ante += amount  # before `take`: the room's cap counts no ante
            if self.street is not None:
                self.street.antes[player.name] += amount
        self.take(player, amount)
        if action.kind == "ante" or action.detail == "dead_blind":
            player.bet -= amount  # dead money: in the pot, not a wager of the street
            player.dead += amount
            return
        street = self.street
        assert street is not None
        if street.round is not None:
            level = player.bet
            if action.all_in and action.detail == "big_blind" and self.profile.get("short_blind") == "full":
                level = max(level, self.hand.stakes.big_blind or 0)  # the profile's short blind rule
            street.round.post(level)

    def take(self, player: Player, amount: int) -> None:
        if amount > player.stack:
            self.flag(
                "BET_EXCEEDS_STACK", f"{player.name} puts in {chips(amount)} with {chips(player.stack)} left"
            )
        elif player.cap is not None and amount > player.left:
            self.flag(
                "BET_OVER_CAP",
                f"{player.name} puts in {chips(amount)} with {chips(max(player.left, 0))} left under the cap "
                f"of {chips(player.cap)} (the most a player puts in over the hand, antes aside)",
            )
        player.stack -= amount
        player.bet += amount
        player.total += amount

    def check_forced_once(self) -> None:
        if self.forced_checked:
            return
        self.forced_checked = True
        for code, message, section in check_forced(self.hand, self.game, self.profile):
            self.flag(code, message, section)

    def take_back(self, action: Action) -> None:
        assert action.player is not None
        player = self.players[action.player]
        amount = action.amount or 0
        street = self.street
        assert street is not None
        ante_back = 0
        if self.profile.get("uncalled_ante") == "returned":  # the room returns an unmatched ante too
            ante_back = min(max(amount - player.bet, 0), street.antes[player.name])
        if amount - ante_back > player.bet:
            raise Stop(
                f"{chips(amount)} returned to {player.name}, who has {chips(player.bet)} in front of them"
            )
        player.stack += amount
        player.bet -= amount - ante_back
        player.total -= amount
        player.dead -= ante_back
        player.ante -= ante_back
        street.antes[player.name] -= ante_back
        self.returns[player.name] += amount
        street.returns[player.name] += amount
        if street.round is not None:
            street.round.current = max(p.bet for p in self.players.values())


    def _owe_uncalled(self, street: StreetState) -> None:
        """The part of the street's top wager that nobody matched is owed back to its maker (§1.1).
        Where the room returns the unmatched part of an ante with it (`uncalled_ante`), a return
        of that is what was owed."""
        owed = self._uncalled(street, Counter())
        if self.profile.get("uncalled_ante") == "returned":
            with_ante = self._uncalled(street, street.antes)
            if with_ante is not None and street.returns[with_ante[0]] == with_ante[1]:
                owed = with_ante
        if owed is None:
            return
        name, amount = owed
        self.owed_returns[name] += amount
        self.owed_seq.setdefault(name, street.last_seq)

    def _uncalled(self, street: StreetState, antes: Counter[str]) -> tuple[str, int] | None:
        """Who put in the most on the street (counting `antes`), and by how much nobody matched it."""
        bets = sorted(((p.bet + street.returns[p.name] + antes[p.name], p.name)
                       for p in self.players.values()), reverse=True)
        if len(bets) < 2 or bets[0][0] <= bets[1][0]:
            return None
        return bets[0][1], bets[0][0] - bets[1][0]
