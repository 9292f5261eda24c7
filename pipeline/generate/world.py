"""The world generated hands happen in: events, tables, players, stakes, stacks and the clock.

Everything is a pure function of (seed, variant, hand index), so a hand is the same whatever
else is generated with it, in whatever order or process. A variant is played at a few tables:
tournament tables of one event per betting structure the game allows (`Game.structures`) and
cash tables. Each table seats a group of players from a shared pool of names (so a player's
statistics gather hands across variants) for a session of hands, with the button moving one
seat each hand; tournament levels rise from session to session.

>>> setup = hand_setup(1, "texas_holdem", 0)
>>> setup.hand.hand_id, setup.hand.variant
('gen-1-texas_holdem-000001', 'texas_holdem')
>>> hand_setup(1, "texas_holdem", 0) == setup
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from math import gcd
from random import Random

from evaluator.catalog import ALL_GAMES, Game
from evaluator.variants import ALL_VARIANTS
from pipeline.amounts import SCALE, format_amount
from pipeline.model import Hand, Seat, Stakes

TABLES_PER_VARIANT = 6  # four tournament tables and two cash tables
CASH_TABLES = 2
SESSION = 24  # hands a group of players stays together at a table
START = datetime(2025, 7, 1, 12, 0, 0)

_FIRST = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jon", "Kai", "Lu", "Max", "Ned",
          "Oz", "Pia", "Quinn", "Rosa", "Sam", "Tia", "Uma", "Vic", "Wes", "Yara")
_LAST = ("Lee", "Marsh", "Dunn", "Park", "Vance", "Reyes", "Wong", "Brody", "Stone", "Pratt", "Moreno",
         "Fenn", "Ortega", "Albers", "Keller", "Santos")
PLAYERS: tuple[str, ...] = tuple(f"{_FIRST[i % len(_FIRST)]} {_LAST[(i * 7) % len(_LAST)]}"
                                 for i in range(48))

# Tournament levels: blinds (no-limit and pot-limit), the big blind of a limit level, stud levels
# as (small bet, ante, bring-in), pot-limit stud as (ante, bring-in); in chips.
_BLIND_LEVELS = ((25, 50), (50, 100), (100, 200), (150, 300), (200, 400), (300, 600), (500, 1000))
_LIMIT_LEVELS = (100, 200, 300, 400, 600, 1000, 2000)
_STUD_LEVELS = ((100, 25, 25), (200, 25, 50), (200, 50, 75), (400, 50, 100), (600, 100, 150),
                (1000, 100, 250), (2000, 300, 500))
_PL_STUD_LEVELS = ((25, 50), (50, 100), (100, 150), (200, 300))
# Cash stakes, in hundredths: blinds, limit big blinds, stud (small bet, ante, bring-in).
_CASH_BLINDS = ((50, 100), (100, 200), (200, 500), (500, 1000))
_CASH_LIMIT = (200, 400, 1000)
_CASH_STUD = ((500, 100, 200), (1000, 200, 300), (2000, 300, 500))


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table a variant is played at: its event, betting structure and house rules."""

    name: str
    event: str
    tournament: str | None  # the tournament's number; None for a cash game
    structure: str
    max_seats: int
    profile: str | None
    options: tuple[tuple[str, str], ...]
    form: str  # "plain", "big_blind_ante" or "jam_or_fold" (Chapter 1 event formats)


@dataclass(frozen=True, slots=True)
class Setup:
    """One hand before it is played: the record's shell (no actions yet) and what the table adds:
    `straddle` (a cash-game straddle), `chip` (the smallest chip bets are made of), `unit`
    (the reference bet stacks and bet sizes are counted in: the big blind or the small bet) and
    `run_twice` (players all-in may have the board run twice: cash games, big-bet structures)."""

    hand: Hand
    straddle: bool
    chip: int
    unit: int
    run_twice: bool = False


def max_players(game: Game) -> int:
    """How many players the game seats: a full ring where the deck allows it.

    Stud games seat eight (a common card when the stub runs short, §2.47), a stud game that deals
    common cards too only as many as the deck holds (Nine Card Stud II, #890: seven); draw games
    six (the discards are reshuffled when needed); flop games as many as the deck holds hole cards
    for, at most nine.
    """
    board = sum(n for s in game.streets for _, n in s.boards)
    hole = game.hole_cards
    if game.forced != "blinds" or game.showing is not None or game.choices:
        # Paradise Road Pick'em may become a stud game (§2.38)
        return min(8, (game.deck.size - board) // hole) if board else 8
    if all(not s.boards for s in game.streets):
        return 6
    hole += sum(s.extra.most(sum(n for _, n in s.boards)) for s in game.streets if s.extra)  # Wonky Donkey
    return min(9, (game.deck.size - board) // hole)


def _options(game: Game, rng: Random, structure: str, tournament: bool) -> tuple[tuple[str, str], ...]:
    """House rules a room might choose for this game (`evaluator.profiles.OPTIONS`)."""
    chosen: list[tuple[str, str]] = []
    if structure == "limit" and rng.random() < 0.2:
        chosen.append(("raise_cap", "4"))
    if structure == "limit" and not tournament and rng.random() < 0.2:
        chosen.append(("cap_heads_up", "kept"))
    # The profile option a game's definition makes matter: by its rules flags or its hand.
    by_flag = {"double_bet_open_pair": ("stud_double_bet", "yes"), "joker_option": ("joker", "no")}
    by_hand = {"archie": ("archie_qualifier", "nines"), "dramaha_49": ("dramaha49_faces", "1"),
               "short_deck_holdem": ("short_deck_trips", "above_straight")}
    option = next((by_flag[flag] for flag in sorted(game.rules) if flag in by_flag), by_hand.get(game.hand))
    if option is not None and rng.random() < 0.3:
        chosen.append(option)
    return tuple(chosen)


@cache
def tables(seed: int, variant: str, plain: bool = False,
           structures: tuple[str, ...] | None = None) -> tuple[TableConfig, ...]:
    """The tables `variant` is played at for `seed`: with `plain`, no Chapter 1 event formats;
    `structures` limits the betting structures to those (of the game's) named."""
    game = ALL_GAMES[variant]
    number = list(ALL_VARIANTS).index(variant) + 1
    allowed = [s for s in game.structures if structures is None or s in structures] or list(game.structures)
    configs = []
    for t in range(TABLES_PER_VARIANT):
        rng = Random(f"{seed}:{variant}:table:{t}")
        structure = allowed[t % len(allowed)]
        tournament = t < TABLES_PER_VARIANT - CASH_TABLES
        form = "plain"
        if tournament and game.forced == "blinds" and structure != "limit" and game.showing is None \
                and not plain:
            form = rng.choice(("plain", "big_blind_ante", "big_blind_ante", "jam_or_fold")
                              if structure == "no-limit" else ("plain", "big_blind_ante"))
        options = _options(game, rng, structure, tournament)
        profile = "barge-2021" if form == "big_blind_ante" and rng.random() < 0.25 else None
        if options and profile is None:
            profile = "barge-2025"
        label = structure.title()
        if tournament:
            event_no = 3 * number + game.structures.index(structure) - 2
            event = f"BARGE 2025 Event #{event_no} {label} {game.variant.name}"
            if form == "jam_or_fold":
                event += " (Jam-or-Fold)"
            name, tourney = f"{event_no}-{t + 1}", str(event_no)
        else:
            event, name, tourney = "BARGE 2025 cash games", f"Cash {number}-{t + 1}", None
        configs.append(TableConfig(name, event, tourney, structure, max_players(game), profile, options,
                                   form))
    return tuple(configs)


def _chips(amount: int) -> int:
    return amount * SCALE


def _stakes(game: Game, config: TableConfig, level: int, rng: Random) -> tuple[Stakes, str]:
    """The table's stakes at `level` (tournament) or its cash stakes, and the Level: text."""
    structure = config.structure
    stud = game.forced == "antes"
    cash = config.tournament is None
    if game.forced in ("antes", "antes_button") and structure == "limit":
        if cash:
            bet, ante, bring = rng.choice(_CASH_STUD)
        else:
            bet, ante, bring = (_chips(x) for x in _STUD_LEVELS[level % len(_STUD_LEVELS)])
        stakes = Stakes(small_bet=bet, big_bet=2 * bet, ante=ante, bring_in=bring if stud else None)
    elif game.forced in ("antes", "antes_button"):
        ante, bring = (_chips(x) for x in _PL_STUD_LEVELS[level % len(_PL_STUD_LEVELS)])
        stakes = Stakes(ante=ante, bring_in=bring)
    elif structure == "limit":
        big = rng.choice(_CASH_LIMIT) if cash else _chips(_LIMIT_LEVELS[level % len(_LIMIT_LEVELS)])
        stakes = Stakes(small_blind=big // 2, big_blind=big, small_bet=big, big_bet=2 * big)
    else:
        small, big = rng.choice(_CASH_BLINDS) if cash else \
            tuple(_chips(x) for x in _BLIND_LEVELS[level % len(_BLIND_LEVELS)])
        stakes = Stakes(small_blind=small, big_blind=big,
                        big_blind_ante=big if config.form == "big_blind_ante" else None,
                        jam_or_fold=config.form == "jam_or_fold")
    parts = [format_amount(v) for v in (stakes.small_blind, stakes.big_blind) if v]
    bets = f"bets {format_amount(stakes.small_bet or 0)}/{format_amount(stakes.big_bet or 0)}"
    text = "/".join(parts) or bets
    if stakes.ante:
        text += f", ante {format_amount(stakes.ante)}"
    if stakes.big_blind_ante:
        text += f", big blind ante {format_amount(stakes.big_blind_ante)}"
    return stakes, f"{level + 1} ({text})"


def _stack(rng: Random, unit: int, chip: int, floor: int) -> int:
    """A realistic stack: mostly 20 to 200 units (big blinds or small bets), some short, a few deep."""
    roll = rng.random()
    if roll < 0.12:
        units = rng.uniform(3, 15)
    elif roll < 0.95:
        units = rng.uniform(20, 200)
    else:
        units = rng.uniform(200, 400)
    return max(floor, round(units * unit / chip) * chip)


def hand_setup(seed: int, variant: str, index: int, plain: bool = False,
               structures: tuple[str, ...] | None = None) -> Setup:
    """The `index`-th hand (from 0) of `variant` for `seed`, before it is played.

    Cash flop games in big-bet structures sometimes play a bomb pot (§1.6) or a straddle, and a
    player may sit out; `plain` leaves these and the tournaments' big blind antes and jam-or-fold
    events out, for formats that cannot write them. `structures`: see `tables`."""
    game = ALL_GAMES[variant]
    configs = tables(seed, variant, plain, structures)
    t = index % len(configs)
    config = configs[t]
    k = index // len(configs)  # the table's k-th hand
    session, turn = divmod(k, SESSION)
    table_rng = Random(f"{seed}:{variant}:{t}:{session}")
    rng = Random(f"{seed}:{variant}:{index}")
    cash = config.tournament is None

    roll = table_rng.random()
    if roll < 0.1:
        count = 2
    elif roll < 0.35:
        count = table_rng.randint(3, max(3, config.max_seats - 3))
    else:
        count = table_rng.randint(max(2, config.max_seats - 2), config.max_seats)
    count = min(count, config.max_seats)
    seat_numbers = sorted(table_rng.sample(range(1, config.max_seats + 1), count))
    names = table_rng.sample(PLAYERS, count)
    # Tournament levels rise from session to session (the table's first level is its own, drawn once
    # per table, so that no session starts below the one before); a cash table keeps its stakes.
    level = min(Random(f"{seed}:{variant}:{t}:level").randrange(3) + session // 2, 6)
    stakes, level_text = _stakes(game, config, level, Random(f"{seed}:{variant}:stakes:{t}"))
    bomb = (not plain and cash and config.structure != "limit" and game.forced == "blinds"
            and game.showing is None and any(s.boards for s in game.streets) and rng.random() < 0.04)
    if bomb:
        stakes = Stakes(bomb_pot=2 * (stakes.big_blind or 0))
    amounts = [v for v in (stakes.small_blind, stakes.big_blind, stakes.small_bet, stakes.ante,
                           stakes.bring_in, stakes.bomb_pot, stakes.big_blind_ante) if v]
    chip = 0
    for amount in amounts:
        chip = gcd(chip, amount)
    unit = stakes.big_blind or stakes.small_bet or stakes.bring_in or stakes.bomb_pot or chip
    forced = sum(amounts) - (stakes.small_bet or 0)
    floor = -(-(forced + 2 * unit) // chip) * chip  # enough for the forced bets and a little more

    sitting = {n for n in names if cash and not plain and count > 2 and rng.random() < 0.03}
    if len(names) - len(sitting) < 2:
        sitting = set()
    seats = tuple(Seat(number, name, _stack(rng, unit, chip, floor), name in sitting)
                  for number, name in zip(seat_numbers, names, strict=True))
    dealt = [s.number for s in seats if not s.sitting_out]
    has_button = game.forced != "antes"
    button = dealt[(table_rng.randrange(len(dealt)) + turn) % len(dealt)] if has_button else None
    started = START + timedelta(days=seed % 28, seconds=index * 45 + rng.randrange(40))
    hand = Hand(
        hand_id=f"gen-{seed}-{variant}-{index + 1:06d}", variant=variant, structure=config.structure,
        stakes=stakes, seats=seats, started_at=started, event=config.event, tournament=config.tournament,
        level=level_text if config.tournament else None, table_name=config.name,
        max_seats=config.max_seats, button_seat=button, rules_profile=config.profile,
        rules_options=config.options,
    )
    straddle = (cash and not bomb and not plain and config.structure == "no-limit"
                and game.forced == "blinds" and game.showing is None and rng.random() < 0.05)
    return Setup(hand, straddle, chip, unit, cash and not plain and config.structure != "limit")
