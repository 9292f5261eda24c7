"""The poker table as an SVG picture: `render(state)` draws one `stepping.TableState`.

Seats sit around an oval felt, numbered clockwise from the top; each shows the player's name,
stack, the cards in front of them (face up in a four-colour deck, ♠ black, ♥ red, ♦ blue,
♣ green; unknown cards as backs; down cards known to the record on a grey face) and the chips
they bet on this street. The dealer button, the pot and side pots, and the board or boards in
the game's own layout are in the middle: one row for Hold'em and Omaha; Chowaha's three flops,
two turn cards and river as a square (Bidirectional Chowaha's turn below it after a roll of 4
to 6); Oklahoma's three rows; Murder's grid; a run-out's second and third boards as rows under
the first; the common card of stud games and Mississippi. At the showdown each shown hand is
named under its cards as the rules read it. Where the rules push a pot otherwise than the record
did, the two are drawn in contrast: the record's push in green on its seat, ringed in red where
the rules do not give it, the rules' push in purple on the seat they give it to, and both lines
in a banner across the felt. Every text from the record is escaped, so the SVG is safe to show
whatever the names hold.

>>> from dashboard.stepping import EXAMPLE, steps
>>> from grammar.barge_parser import parse_hand
>>> hand = parse_hand(EXAMPLE)
>>> svg = render(steps(hand, hand.awards)[9])
>>> svg.startswith("<svg") and svg.endswith("</svg>")
True
>>> "Ann" in svg and "Pot 1,200" in svg and ">Q<" in svg and "♠" in svg
True
>>> render_card(0, 0, "Td").count("#1565c0")  # a diamond is blue
2
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from html import escape

from dashboard.stepping import BoardState, Card, Push, SeatState, TableState
from pipeline.amounts import format_amount
from pipeline.model import JOKER, UNKNOWN_CARD

WIDTH, HEIGHT = 1000, 640
CX, CY = 500, 310  # the felt's centre
FELT_RX, FELT_RY = 350, 190
SEAT_RX, SEAT_RY = 420, 250  # the oval the seat boxes sit on
BOX_W, BOX_H = 150, 46
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
RECORD, RULES, WRONG = "#2e7d32", "#6a1b9a", "#d50000"  # the record's pushes, the rules', a denied push

SUITS = {"s": ("♠", "#111111"), "h": ("♥", "#c62828"), "d": ("♦", "#1565c0"), "c": ("♣", "#2e7d32")}
RANK_TEXT = {"T": "10"}
CHOWAHA = frozenset({"chowaha", "four_card_chowaha_hi_lo", "bidirectional_chowaha"})
ROW_BOARDS = frozenset({"oklahoma", "murder"})  # boards "1", "2", "3" are rows, not run-outs
# Chowaha's square (docs/format.md): (column, row) of each board's first position, and the
# turn and river beside the rows they join.
CHOWAHA_ROWS = {"top": 0.0, "middle": 1.0, "bottom": 2.0}
CHOWAHA_RIGHT = {("turn", 1): (3.0, 0.5), ("turn", 2): (3.0, 1.5), ("river", 1): (4.0, 1.0)}
CHOWAHA_BELOW = {("turn", 1): (0.0, 3.0), ("turn", 2): (2.0, 3.0), ("river", 1): (1.0, 3.5)}


def _text(x: float, y: float, body: str, size: int = 13, fill: str = "#ffffff", weight: str = "normal",
          anchor: str = "middle", extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" font-weight="{weight}" '
            f'text-anchor="{anchor}"{extra}>{escape(body)}</text>')


def render_card(x: float, y: float, code: str, w: float = 40, h: float = 56, down: bool = False,
                faded: bool = False) -> str:
    """One card with its top-left corner at (x, y): rank over suit in the suit's colour, a back
    for an unknown card, a star for the joker; `down` greys the face of a known down card."""
    opacity = ' opacity="0.45"' if faded else ""
    frame = (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{w / 8:.1f}" '
             'stroke="#555555" stroke-width="1" ')
    if code == UNKNOWN_CARD or len(code) != 2:
        return f'<g{opacity}>{frame}fill="url(#back)"/></g>'
    face = "#e3e3e3" if down else "#ffffff"
    if code == JOKER:
        rank, (suit, colour) = "JK", ("★", "#6a1b9a")
    else:
        rank, (suit, colour) = RANK_TEXT.get(code[0], code[0]), SUITS.get(code[1], ("?", "#000000"))
    size = h * 0.36
    return (f'<g{opacity}>{frame}fill="{face}"/>'
            + _text(x + w / 2, y + h * 0.42, rank, round(size), colour, "bold")
            + _text(x + w / 2, y + h * 0.84, suit, round(size), colour)
            + "</g>")


def seat_position(seat: int, seats: int) -> tuple[float, float]:
    """Where seat `seat` of `seats` sits: clockwise from the top, half a place off it.

    >>> [tuple(round(v) for v in seat_position(s, 2)) for s in (1, 2)]
    [(920, 310), (80, 310)]
    """
    angle = -math.pi / 2 + 2 * math.pi * (seat - 0.5) / seats
    return CX + SEAT_RX * math.cos(angle), CY + SEAT_RY * math.sin(angle)


def _pushed(pushes: tuple[Push, ...], player: str) -> int:
    return sum(p.amount for p in pushes if p.player == player)


def _seat(seat: SeatState, x: float, y: float, state: TableState) -> Iterator[str]:
    towards = 1 if y <= CY else -1  # cards and bets go towards the middle of the table
    faded = seat.folded or seat.sitting_out
    acting = seat.player == state.actor
    denied = bool(state.rules) and _pushed(state.record, seat.player) > _pushed(state.rules, seat.player)
    stroke = (f'stroke="{WRONG}" stroke-width="4"' if denied
              else 'stroke="#ffd54f" stroke-width="3"' if acting else 'stroke="#263238" stroke-width="1.5"')
    opacity = ' opacity="0.55"' if faded else ""
    yield (f'<rect x="{x - BOX_W / 2:.1f}" y="{y - BOX_H / 2:.1f}" width="{BOX_W}" height="{BOX_H}" rx="9" '
           f'fill="#37474f" {stroke}{opacity}/>')
    name = seat.player if len(seat.player) <= 18 else seat.player[:17] + "…"
    yield _text(x, y - 5, name, 13, weight="bold")
    status = ("sitting out" if seat.sitting_out else "folded" if seat.folded
              else "all-in" if seat.all_in and seat.stack <= 0 else format_amount(seat.stack))
    if seat.all_in and seat.stack > 0 and not seat.folded:
        status += " · all-in"
    if seat.declared and not seat.folded:  # a declaration (docs/games.md `[declare]`) under the stack
        status += f" · {seat.declared}"
    yield _text(x, y + 14, status, 12, "#ffcc80" if seat.all_in else "#cfd8dc")
    yield _text(x - BOX_W / 2 - 4, y + 4, f"{seat.seat}", 11, "#78909c", anchor="end")
    top = y - BOX_H / 2 - 20 if towards > 0 else y + BOX_H / 2 + 2  # badges: away from the cards
    if seat.won:
        width = 150 if state.rules else 92
        label = ("record: " if state.rules else "") + f"wins {format_amount(seat.won)}"
        ring = f' stroke="{WRONG}" stroke-width="2"' if denied else ""
        yield (f'<rect x="{x - width / 2:.1f}" y="{top:.1f}" width="{width}" height="18" rx="9" '
               f'fill="{RECORD}"{ring}/>')
        yield _text(x, top + 13, label, 11, weight="bold")
    rules_more = _pushed(state.rules, seat.player) - _pushed(state.record, seat.player)
    if rules_more > 0:  # beside the record's badge, or where it would be
        ry = top - 20 if towards > 0 else top + 20
        yield f'<rect x="{x - 75:.1f}" y="{ry:.1f}" width="150" height="18" rx="9" fill="{RULES}"/>'
        yield _text(x, ry + 13, f"rules: wins {format_amount(rules_more)}", 11, weight="bold")
    # A folded hand is in the muck: drawn only when some of its cards were seen.
    if not seat.folded or any(c.code != UNKNOWN_CARD for c in seat.cards):
        edge = y + towards * (BOX_H / 2 + 4)
        yield from _hole_cards(seat.cards, x, edge, towards, faded)
        for i, portion in enumerate(seat.strength if seat.cards else ()):  # as the rules read them
            words = portion if len(portion) <= 44 else portion[:43] + "…"
            ty = edge + towards * (36 + 2 + 17 * i) - (16 if towards < 0 else 0)
            pill = 6.2 * len(words) + 12
            yield (f'<rect x="{x - pill / 2:.1f}" y="{ty:.1f}" width="{pill:.1f}" height="16" rx="8" '
                   'fill="#263238" opacity="0.9"/>')
            yield _text(x, ty + 12, words, 11, "#fff59d", "bold")
    if seat.bet:
        bx, by = x + (CX - x) * 0.42, y + (CY - y) * 0.42 + towards * 8
        yield f'<circle cx="{bx - 18:.1f}" cy="{by - 4:.1f}" r="7" fill="#fbc02d" stroke="#5d4037"/>'
        yield _text(bx - 8, by, format_amount(seat.bet), 12, "#fff8e1", "bold", anchor="start")


def _hole_cards(cards: tuple[Card, ...], x: float, edge: float, towards: int, faded: bool) -> Iterator[str]:
    if not cards:
        return
    w, h = 26.0, 36.0
    step = min(w + 2, (BOX_W + 10 - w) / max(len(cards) - 1, 1))
    left = x - (step * (len(cards) - 1) + w) / 2
    top = edge if towards > 0 else edge - h
    for i, card in enumerate(cards):
        yield render_card(left + i * step, top, card.code, w, h, down=not card.up, faded=faded)


def _button(state: TableState, seats: int) -> Iterator[str]:
    if state.button is None:
        return
    x, y = seat_position(state.button, seats)
    bx, by = x + (CX - x) * 0.3 + (26 if x <= CX else -26), y + (CY - y) * 0.3
    yield f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="11" fill="#ffffff" stroke="#333333" stroke-width="1.5"/>'
    yield _text(bx, by + 4.5, "D", 12, "#111111", "bold")


def board_slots(state: TableState) -> dict[tuple[str, int], tuple[float, float]]:
    """(board, position) -> (column, row) of every board card in the game's layout.

    >>> from dashboard.stepping import BoardState
    >>> s = TableState("h", "oklahoma", 0, "", None, (), boards=(
    ...     BoardState("1", ((1, "Ah"),)), BoardState("3", ((1, "Kd"), (2, "2c")))))
    >>> board_slots(s)
    {('1', 1): (0.0, 0.0), ('3', 1): (0.0, 2.0), ('3', 2): (1.0, 2.0)}
    """
    slots: dict[tuple[str, int], tuple[float, float]] = {}
    rows = _rows(state)
    chowaha = state.variant in CHOWAHA
    below = state.variant == "bidirectional_chowaha" and state.dice[:1] in ((4,), (5,), (6,))
    beside = CHOWAHA_BELOW if below else CHOWAHA_RIGHT
    for board in state.boards:
        for position, _ in board.cards:
            if chowaha and (board.name, position) in beside:
                slots[board.name, position] = beside[board.name, position]
            elif chowaha and board.name in CHOWAHA_ROWS:
                slots[board.name, position] = (position - 1.0, CHOWAHA_ROWS[board.name])
            else:
                slots[board.name, position] = (position - 1.0, rows[board.name])
    return slots


def _rows(state: TableState) -> dict[str, float]:
    """The row of each board outside Chowaha's square: numbered boards by number (Oklahoma's and
    Murder's rows, a run-out's runs), then any other board (the common card) below them."""
    names = [b.name for b in state.boards]
    rows = {name: int(name) - 1.0 for name in names if name.isdigit() and int(name) > 0}
    below = max(rows.values(), default=-1.0) + 1
    for name in names:
        if name not in rows:
            rows[name] = below
            below += 1
    return rows


def _board_label(state: TableState, board: BoardState) -> str:
    if board.name == "common":
        return "common"
    if board.name.isdigit() and state.variant in ROW_BOARDS:
        return f"row {board.name}"
    if board.name.isdigit() and (state.runs > 1 or board.name != "1"):
        return f"run {board.name}"
    return ""


def _boards(state: TableState) -> Iterator[str]:
    slots = board_slots(state)
    if not slots:
        yield from _pot_text(state, CY - 10)
        return
    columns = max(c for c, _ in slots.values()) + 1
    rows = max(r for _, r in slots.values()) + 1
    scale = min(1.0, 300 / (columns * 46), 230 / (rows * 62))
    w, h, dx, dy = 40 * scale, 56 * scale, 46 * scale, 62 * scale
    left, top = CX - (columns * dx - (dx - w)) / 2, CY + 14 - (rows * dy - (dy - h)) / 2
    yield from _pot_text(state, top - (30 if len(state.pots) > 1 else 14))
    labelled: set[str] = set()
    for board in state.boards:
        for position, code in board.cards:
            column, row = slots[board.name, position]
            x, y = left + column * dx, top + row * dy
            yield render_card(x, y, code, w, h, faded=board.removed)
            if board.removed:
                yield (f'<line x1="{x:.1f}" y1="{y + h:.1f}" x2="{x + w:.1f}" y2="{y:.1f}" '
                       'stroke="#b71c1c" stroke-width="2"/>')
        label = _board_label(state, board)
        if board.removed:
            label = f"{label} removed".strip()
        if label and board.cards and board.name not in labelled:
            labelled.add(board.name)
            _, row = slots[board.name, board.cards[0][0]]
            yield _text(left - 8, top + row * dy + h / 2 + 4, label, 11, "#e0f2f1", anchor="end")


def _pot_text(state: TableState, y: float) -> Iterator[str]:
    if not state.pot:
        return
    yield _text(CX, y, f"Pot {format_amount(state.pot)}", 15, "#fffde7", "bold")
    if len(state.pots) > 1:
        parts = [f"{'Main' if p.index == 0 else f'Side {p.index}'} {format_amount(p.amount)}"
                 for p in state.pots]
        yield _text(CX, y + 16, " · ".join(parts), 12, "#fff9c4")


def _contrast(state: TableState) -> Iterator[str]:
    """The record's and the rules' pushes of this step's pots, one line each, across the felt."""
    if not state.rules:
        return

    def line(pushes: tuple[Push, ...]) -> str:
        return "; ".join(f"{p.player} {format_amount(p.amount)}" + (f" ({p.hand})" if p.hand else "")
                         for p in pushes) or "nobody"

    pots = sorted({p.pot for p in (*state.record, *state.rules)})
    where = ", ".join("main pot" if pot == 0 else f"side pot {pot}" for pot in pots)
    top = CY + FELT_RY - 58
    yield f'<rect x="{CX - 330}" y="{top}" width="660" height="50" rx="8" fill="#fafafa" opacity="0.95"/>'
    for i, (who, colour, pushes) in enumerate((("Record", RECORD, state.record),
                                                ("Rules", RULES, state.rules))):
        text = f"{who}, {where}: {line(pushes)}"
        yield _text(CX, top + 20 + 20 * i, text if len(text) <= 90 else text[:89] + "…", 13, colour, "bold")


def render(state: TableState) -> str:
    """The whole picture of the table at one step, as an SVG document."""
    seats = max([state.max_seats or 0, *(s.seat for s in state.seats), state.button or 0, 2])
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" font-family="{FONT}" role="img">',
        '<defs><pattern id="back" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#1a237e"/>'
        '<rect width="3" height="6" fill="#3949ab"/></pattern></defs>',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#eceff1"/>',
        f'<ellipse cx="{CX}" cy="{CY}" rx="{FELT_RX + 18}" ry="{FELT_RY + 18}" fill="#5d4037"/>',
        f'<ellipse cx="{CX}" cy="{CY}" rx="{FELT_RX}" ry="{FELT_RY}" fill="#2e7d32" stroke="#1b5e20" '
        'stroke-width="4"/>',
        _text(14, 24, state.title or state.hand_id, 15, "#263238", "bold", anchor="start"),
        _text(WIDTH - 14, 24, (state.street or "").replace("_", " "), 14, "#455a64", anchor="end"),
    ]
    if state.dice:
        parts.append(_text(WIDTH - 14, 44, "dice " + " ".join(map(str, state.dice)), 13, "#455a64",
                           anchor="end"))
    parts.extend(_boards(state))
    parts.extend(_button(state, seats))
    for seat in state.seats:
        parts.extend(_seat(seat, *seat_position(seat.seat, seats), state))
    parts.extend(_contrast(state))
    caption = state.text if len(state.text) <= 140 else state.text[:139] + "…"
    parts.append(_text(CX, HEIGHT - 14, f"{state.step}. {caption}", 14, "#263238"))
    parts.append("</svg>")
    return "".join(parts)
