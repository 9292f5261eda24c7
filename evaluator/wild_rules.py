"""Which cards are wild in one hand: a definition's `wild` (`catalog.WildRule`, docs/games.md)
resolved against the boards and the dice, as the `Wild` that :mod:`evaluator.wild` evaluates by.

>>> from evaluator.catalog import WildRule
>>> board = ("Kh", "4d", "9c", "Ts", "7s")
>>> sorted(wild_for(WildRule(board="lowest"), [board], ()).ranks)  # Lincoln (#700): the low common card
['4']
>>> sorted(wild_for(WildRule(board="last", die=frozenset({"rank"})), [board], (3,)).ranks)  # #703
['3', '7']
>>> sorted(wild_for(WildRule(die=frozenset({"board_minus"})), [board], (3,)).ranks)  # 7 - 3
['4']
>>> wild_for(WildRule(die=frozenset({"board_minus"})), [("Ah", "2c", "5d")], (6,)).ranks  # 5 - 6 < 1
frozenset()
>>> sorted(wild_for(WildRule(board="last"), [board, ("2c", "Jd")], ()).ranks)  # #1000: each row's
['7', 'J']

The last card dealt to any board of the table (`table = "last"`), whatever board the hand is made
with: Criss Cross (#980), the cross's centre turned last, for a hand made with its top row.

>>> turned = ("Ah", "Kh", "7c", "8d", "Qs")  # top, right, bottom, left, centre
>>> sorted(wild_for(WildRule(table="last"), [("Ah", "Qs", "7c")], (), dealt=turned).ranks)
['Q']
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluator.catalog import WildRule
from evaluator.codes import JOKER
from evaluator.wild import Wild, lowest_rank

LOWEST, LAST = "lowest", "last"  # WildRule.board; LAST also WildRule.table
DIE_RANK, BOARD_MINUS_DIE = "rank", "board_minus"  # WildRule.die
# A die's face and "the last common's rank minus the die roll" as ranks: the ace is 1, as the
# die's one (#703: "if that rank is above zero" only makes sense counting from the ace as one).
_BY_VALUE = "A23456789TJQK"


def _last(board: Sequence[str]) -> str:
    cards = [c for c in board if c != JOKER]
    if not cards:
        raise ValueError("no board card to take the rank of")
    return cards[-1][0]


def _of_board(rule: WildRule, board: Sequence[str], dice: Sequence[int]) -> set[str]:
    """The ranks one board makes wild."""
    ranks = set()
    if rule.board == LOWEST:
        ranks.add(lowest_rank(board))
    elif rule.board == LAST:
        ranks.add(_last(board))
    if BOARD_MINUS_DIE in rule.die:
        value = _BY_VALUE.index(_last(board)) + 1 - dice[0]
        ranks.update([_BY_VALUE[value - 1]] if value >= 1 else [])
    return ranks


def wild_for(rule: WildRule, boards: Sequence[Sequence[str]], dice: Sequence[int],
             dealt: Sequence[str] = ()) -> Wild:
    """The wild cards of a hand whose wild boards are `boards` (each in the order dealt): the
    board it is made with, or with `every_board` all of the portion's; `dealt`: every card dealt
    to a board of the table, in the order dealt (for `table`)."""
    if rule.die and not dice:
        raise ValueError("this game's wild card needs the die roll")
    ranks = set(rule.ranks)
    if rule.table == LAST:
        ranks.add(_last(dealt))
    if DIE_RANK in rule.die:
        ranks.add(_BY_VALUE[dice[0] - 1])
    for board in boards:
        ranks |= _of_board(rule, board, dice)
    return Wild(frozenset(ranks), most=rule.most)
