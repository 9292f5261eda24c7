"""The end of a hand under replay: the pot against the awards, the rake, the summary's total and
the final stacks; the table the settlement reads (`evaluator.settle`); who the rules say wins
each pot against what the dealer pushed; and the result of a hand whose record has no pushes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from evaluator.award_check import check_awards, rake_breaches
from evaluator.awarding import chip_unit
from evaluator.descriptions import misdescriptions
from evaluator.fees import Fees
from evaluator.settle import Known, Seat, Table, room_money, settle
from pipeline.amounts import format_amount as chips
from pipeline.amounts import parse_amount

CARD_FAULTS = frozenset({"DUPLICATE_CARD", "SHOWN_CARDS_NOT_HELD", "CARD_NOT_IN_DECK"})


class Finish(Fees):
    """The replay's end of the hand: the totals, the settlement's table, the showdown."""

    # ---- the end ----
    def finish(self) -> None:
        """The hand's totals once the last street is closed."""
        self.check_forced_once()
        for name, owed in self.owed_returns.items():
            if self.returns[name] != owed:
                self.flag(
                    "UNCALLED_BET_WRONG",
                    f"{chips(owed)} of {name}'s bet was not called; {chips(self.returns[name])} was returned",
                    seq=self.owed_seq.get(name, self.seq),
                )
        for name, back in self.returns.items():
            if name not in self.owed_returns and back:
                self.flag("UNCALLED_BET_WRONG", f"{chips(back)} returned to {name}, whose bet was called")
        pot = self.pot()
        awarded = Counter[str]()
        for award in self.hand.awards:
            awarded[award.player] += award.amount
        rake = self.hand.rake or 0
        over = len(self.live) <= 1 or self.plan_index == len(self.plan) - 1
        table = self.table()  # the hand is over: the settlements and the descriptions read one table
        known: Known = {}
        if not self.hand.awards and over and self.settle_unrecorded(table, known):
            pass
        elif sum(awarded.values()) + rake != pot:
            self.flag(
                "AWARDS_MISMATCH",
                f"the pot is {chips(pot)} but {chips(sum(awarded.values()))} was awarded"
                + (f" and {chips(rake)} raked" if rake else ""),
            )
        elif sum(awarded.values()) + rake == pot:
            self.check_showdown(table, known)
        if self.hand.total_pot is not None and self.hand.total_pot != pot:
            self.flag(
                "TOTAL_POT_MISMATCH",
                f"the summary says the total pot is {chips(self.hand.total_pot)}; {chips(pot)} was put in",
            )
        for code, message in rake_breaches(self.hand, pot):
            self.flag(code, message)
        for seq, message in misdescriptions(self.hand, table, known):
            self.flag("MISDESCRIBED_HAND", message, seq=seq)
        for final in self.hand.final_stacks:
            player = self.players.get(final.player)
            if player is None:
                continue
            computed = player.stack + awarded[player.name]
            if computed != final.amount:
                self.flag(
                    "STACK_MISMATCH",
                    f"{player.name} ends with {chips(final.amount)} but started with "
                    f"{chips(computed - awarded[player.name] + player.total)}, "
                    f"put in {chips(player.total)} and won {chips(awarded[player.name])}: {chips(computed)}",
                )


    # ---- the showdown and the pots ----
    def table(self) -> Table:
        """The end of the hand as the settlement needs it (evaluator.settle)."""
        before = self.after_draw_from or {}
        seats = []
        for p in (self.players[n] for n in self.order):
            if not (p.dealt_in or p.total):
                continue
            put_in = self.contributed(p)
            # `short_ante=capped`: an ante is part of what a player is in for, so one all-in for a short
            # ante wins only as much of each ante as they posted (the pots are the same when none is).
            ante = p.ante if self.profile.get("short_ante") == "capped" else 0
            seats.append(Seat(
                p.name, p.seat, put_in - p.dead + ante, p.dead - ante, p.live and not p.mucked,
                tuple(p.cards),
                tuple(p.dealt_up), tuple(p.split) if p.split else None,
                put_in - before.get(p.name, put_in), p.sevens, p.showed, p.declared, p.hole_count,
                p.live and p.mucked,
            ))
        boards = {n: tuple(cards) for n, cards in self.board_cards.items() if n not in self.removed_boards}
        notes = (a.detail or "" for a in self.hand.actions if a.kind == "note")
        cash_outs, splash = room_money(notes, self.profile.options)
        cash_outs = {name: amount for name, amount in cash_outs.items() if name in self.players}
        return Table(
            self.game.id, tuple(seats), self.unit(), boards, tuple(self.dice), self.profile.options,
            self.chosen, self.runs, self.shared, self.hand.button_seat,
            odd_chip="card" if self.game.forced == "antes" else "button",  # §1.4 rule 3: stud, or a button
            rake=self.hand.rake or 0, sevens_rule=self.after_draw_from is not None,
            cash_outs=cash_outs, splash=splash, dealt=tuple(self.board_order),
        )

    def unit(self) -> int:
        """The smallest chip in play (§1.4 rule 1): the profile's, or read off the hand's amounts."""
        chosen = self.profile.get("smallest_chip")
        if chosen != "auto":
            return parse_amount(chosen)
        stakes = self.hand.stakes
        amounts = [s.stack for s in self.hand.seats]
        amounts += [a.amount or 0 for a in self.hand.actions] + [a.to_amount or 0 for a in self.hand.actions]
        amounts += [a.amount for a in self.hand.awards]
        amounts += [v or 0 for v in (stakes.small_blind, stakes.big_blind, stakes.small_bet, stakes.big_bet,
                                     stakes.ante, stakes.big_blind_ante, stakes.bring_in, stakes.bomb_pot)]
        return chip_unit(amounts)

    def check_showdown(self, table: Table, known: Known) -> None:
        """Who the rules say wins each pot, against what the dealer pushed."""
        settlement = settle(table, known=known)
        if settlement.unchecked:
            # Cards the replay already found at fault explain why; otherwise say so.
            if not any(f.code.name in CARD_FAULTS for f in self.findings):
                self.flag("AWARD_NOT_CHECKED", f"the awards could not be checked: {settlement.unchecked}")
            return
        self.settlement = settlement
        rake_free = settle(replace(table, rake=0), known=known) if table.rake else None
        breaches = check_awards(settlement, self.hand.awards, self.returns, self.owed_returns, table.unit,
                                rake_free, table.rake)
        # The note that the sevens rule applied is in the error when the dealer did not apply it.
        ignored = any(code == "SEVENS_REFUND_IGNORED" for code, _, _ in breaches)
        notes = [n for n in settlement.notes if not (ignored and n[0] == "SEVENS_RULE")]
        for code, message, section in [*notes, *breaches]:
            self.flag(code, message, section)

    def settle_unrecorded(self, table: Table, known: Known) -> bool:
        """A finished hand whose record has no pushes (PHH writes none): what the rules push is the
        hand's result (BARGE 2025 §1.4), when the cards the showdown needs are in the record; a
        hand shown as unknown cards (`sm ????`) is not tabled and cannot win (TDA)."""
        settlement = settle(table, recorded=False, known=known)
        if settlement.unchecked:
            return False
        self.settlement = settlement
        for code, message, section in settlement.notes:
            self.flag(code, message, section)
        return True
