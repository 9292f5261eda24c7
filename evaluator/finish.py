"""The end of a hand under replay: the pot against the awards, the rake, the summary's total and
the final stacks; the table the settlement reads (`evaluator.settle`); who the rules say wins
each pot against what the dealer pushed; and the result of a hand whose record has no pushes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from evaluator.award_check import check_awards, rake_breaches
from evaluator.awarding import chip_unit
from evaluator.catalog import IN, Guts
from evaluator.descriptions import misdescriptions
from evaluator.fees import Fees
from evaluator.guts import burn_words, pot_number, recorded_leg
from evaluator.openers import holds, words
from evaluator.settle import Known, Seat, Settlement, Table, room_money, settle
from pipeline.amounts import format_amount as chips
from pipeline.amounts import parse_amount
from pipeline.model import UNKNOWN_CARD, Action

CARD_FAULTS = frozenset({"DUPLICATE_CARD", "SHOWN_CARDS_NOT_HELD", "CARD_NOT_IN_DECK"})


class Finish(Fees):
    """The replay's end of the hand: the totals, the settlement's table, the showdown."""

    # ---- the end ----
    def finish(self) -> None:
        """The hand's totals once the last street is closed."""
        self.check_forced_once()
        self.check_openers()
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
        elif sum(awarded.values()) + rake + self.carried_out != pot:
            self.flag(
                "AWARDS_MISMATCH",
                f"the pot is {chips(pot)} but {chips(sum(awarded.values()))} was awarded"
                + (f" and {chips(rake)} raked" if rake else "")
                + (f" and {chips(self.carried_out)} carried to the next deal" if self.carried_out else ""),
            )
        else:
            self.check_showdown(table, known)
        if self.game.guts is not None and self.settlement is not None:
            self.check_guts(self.game.guts, self.settlement)
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
            burned = self.burns[player.name]
            if computed != final.amount:
                self.flag(
                    "STACK_MISMATCH",
                    f"{player.name} ends with {chips(final.amount)} but started with "
                    f"{chips(computed - awarded[player.name] + player.total + burned)}, "
                    f"put in {chips(player.total)}"
                    + (f", paid {chips(burned)} to the next pot" if burned else "")
                    + f" and won {chips(awarded[player.name])}: {chips(computed)}",
                )

    # ---- a guts game's deal (evaluator.guts) ----
    def guts_line(self, action: Action) -> None:
        """The pot brought in from the deal before, a loser's payment to the next deal's pot, the
        pot carried to the next deal, a leg: the money moves, and the lines are checked at the end."""
        kind = action.kind
        if self.game.guts is None:
            self.flag("UNEXPECTED_STEP", f"{kind.replace('_', ' ')} is not a step of "
                      f"{self.game.variant.name}, "
                      "which is not a guts game")
        amount = action.amount or 0
        if kind == "carry_in":
            if any(p.total or p.cards for p in self.players.values()) or self.carried_in:
                self.flag("WRONG_CARRY", "the pot carried from the last deal is brought in after the deal "
                          f"began: in {self.game.variant.name} the redeal's pot comes first, once")
            self.carried_in += amount
        elif kind == "carry_out":
            self.carried_out += amount
        elif kind == "burn" and action.player in self.players:
            player = self.players[action.player]
            player.stack -= amount
            self.burns[player.name] += amount
        elif kind == "leg" and action.player in self.players:
            detail = action.detail or ""
            self.legs[action.player] = int(detail) if detail.isdigit() else 0

    def check_guts(self, guts: Guts, settlement: Settlement) -> None:
        """The deal's end against its guts rule: what is carried to the next deal, what each loser
        pays to the next pot (the rule's amount, or the stack they have left), who gets a leg."""
        name = self.game.variant.name
        if self.carried_out != settlement.carried_out:
            why = "nobody went in" if not self.went_in() else (
                "the pot stays until a player's last leg" if guts.legs else "the pot was won")
            self.flag("WRONG_CARRY", f"{chips(self.carried_out)} carried to the next deal; the rule carries "
                      f"{chips(settlement.carried_out)} ({why}): {name}")
        owed = dict(settlement.burns)
        rule = f"in {name} each player who went in and lost pays {burn_words(guts)} to the next pot"
        for who in sorted(set(owed) | set(self.burns), key=self.order.index):
            player = self.players[who]
            due = min(owed.get(who, 0), player.stack + self.burns[who])
            if self.burns[who] != due:
                what = "did not go in and lose" if who not in owed else f"owes {chips(due)}"
                self.flag("WRONG_BURN", f"{who} pays {chips(self.burns[who])} to the next pot but {what}: "
                          f"{rule}")
        if guts.legs:
            recorded = sorted(self.legs)
            if recorded != sorted(settlement.legs):
                self.flag("WRONG_LEG", f"a leg to {', '.join(recorded) or 'nobody'}; the high hand among "
                          f"those in is {', '.join(settlement.legs) or 'nobody'}'s: in {name} the high hand "
                          "gets a leg")
            for who, count in self.legs.items():
                if not 1 <= count <= guts.legs:
                    self.flag("WRONG_LEG", f"{who} gets leg {count}: in {name} the first to {guts.legs} legs "
                              "wins the pot")
        elif self.legs:
            self.flag("WRONG_LEG", f"a leg given in {name}, a game without legs")

    def went_in(self) -> tuple[str, ...]:
        """The players who declared in (the declarations' own record, `Player.declared`)."""
        return tuple(name for name in self.order if self.players[name].declared == IN)

    def check_openers(self) -> None:
        """Each opening bet of a round that needs openers (`Street.open`), against the opener's
        cards once they are known: the cards held at the bet, the unseen ones as shown later when
        the hand has not changed since (no card of it replaced). Where they are never shown nothing
        can be said. A false opener's hand is dead (Cardroom procedures, Rules of Draw High: "The
        false opener has a dead hand"; "Any player who has legally declared the pot opened must
        prove openers in order to win the pot"); a record shows the showdown, so the action was
        completed and "the pot plays" among the others (`table`)."""
        for name, held, board, seq, openers in self.openings:
            now = self.players[name].cards[:len(held)]
            changed = any(a.player == name and a.kind in ("discard", "draw")  # a twist, a draw since
                          for a in self.hand.actions[seq:])
            if not changed and all(h in (c, UNKNOWN_CARD) for h, c in zip(held, now, strict=False)):
                held = tuple(now) if len(now) == len(held) else held
            if holds(openers, held, board) is False:
                self.false_openers.add(name)
                shown = " ".join(held) + (f" with {' '.join(board)} on the board" if board else "")
                self.flag("FALSE_OPENERS", f"{name} opened the betting without openers ({shown}): in "
                          f"{self.game.variant.name} the opener must hold {words(openers)}; the false "
                          "opener has a dead hand (Cardroom procedures, Rules of Draw High)", seq=seq)

    def contending(self, name: str) -> bool:
        """Still in for the pot at the showdown: a false opener's hand is dead while another player
        with openers is still in (with none, the record cannot show the cardroom's remedy, the pot
        held over to the next deal: it is settled among those left)."""
        player = self.players[name]
        if not (player.live and not player.mucked):
            return False
        if name not in self.false_openers:
            return True
        return not any(not p.mucked and p.name not in self.false_openers for p in self.live)

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
                p.name, p.seat, put_in - p.dead + ante, p.dead - ante, self.contending(p.name),
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
            cash_outs=cash_outs, splash=splash, dealt=tuple(self.board_order), carried=self.carried_in,
            went_in=self.went_in(), pot_number=pot_number(self.hand.actions), max_bet=self.bet_size("big"),
            leg=recorded_leg(self.hand.actions),
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
