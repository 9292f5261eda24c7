"""The Record a hand page in a real browser: hands of six games recorded step by step in headless
Chromium, by typing the cards and clicking what the page offers, then pushed as the rules say,
stored and audited with no finding; and a hand with a raise below the minimum, entered on purpose,
stored with that finding.

Each hand is planned first with the state machine (`dashboard.recording`) and the answers
`tests.test_recorder.offered` picks; the browser then enters the same answers through the page,
and what the page shows as the history must be that plan's. Needs Chromium as tests/test_browser.py
does; `make screenshots` (BARGE_SCREENSHOTS=1) saves the page to docs/screenshots/recorder.png.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest

from dashboard import recording as rec
from evaluator.catalog import GAMES
from pipeline.amounts import format_amount
from pipeline.model import Seat
from pipeline.store import Store
from tests.browser.webdriver import CHROMEDRIVER, CHROMIUM, Browser, dashboard_server
from tests.conftest import ROOT
from tests.test_recorder import offered

TITLE = "Record a hand"
NAMES = ("Ann", "Bo", "Cy", "Di")  # the seats the page offers first, 200 each, button on seat 1
# game, structure, the seed of the plan's choices
HANDS = [("texas_holdem", "no-limit", 1), ("stud", "limit", 2), ("badugi", "limit", 3),
         ("chowaha", "limit", 4), ("oklahoma", "limit", 5), ("paradise_road_pickem", "limit", 8)]
POLL = 0.05  # seconds between two looks at the page: a step's page run takes about a tenth of a second
SETTLE = 0.2  # how long a page must stay the same when what it shows cannot tell the run asked for
# The app's root says whether a script run is going on (`data-test-script-state`, the attribute
# Streamlit's own browser tests wait on) from the moment the run starts; the status widget's
# running icon only appears after half a second of running, so a short run never shows it.
STATE = """
const main = document.querySelector('[data-testid="stMain"]') || document.body;
const app = document.querySelector('[data-testid="stApp"]');
return {
  title: (document.querySelector('h1') || {}).innerText || '',
  text: main.innerText,
  running: (app === null || app.dataset.testScriptState !== 'notRunning')
           || document.querySelectorAll('[data-testid="stSpinner"], [data-stale="true"]').length > 0,
  errors: [...document.querySelectorAll('[data-testid="stException"], [data-testid="stAlertContentError"]')]
          .map((e) => e.innerText),
  history: [...document.querySelectorAll('[data-testid="stCode"]')].map((e) => e.innerText).join(''),
  height: document.body.scrollHeight,
};
"""
CLICK = """
const [label, scope] = arguments;
const inside = (b) => b.closest('[data-testid="stExpander"]') !== null;
const button = [...document.querySelectorAll('button')].find(
  (b) => b.innerText.trim() === label && !b.disabled && inside(b) === (scope === 'expander'));
if (button) { button.click(); }
return Boolean(button);
"""

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="Chromium is not installed: run scripts/ensure_debian_packages.sh (Debian packages chromium "
           "and chromium-driver) to run the browser test")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard on a new, empty database, at the Record a hand page's URL."""
    db = tmp_path_factory.mktemp("recorder") / "recorded.duckdb"
    with Store(db):
        pass  # the tables, no hands yet
    with dashboard_server(db, ROOT) as url:
        yield f"{url}/record"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    window = Browser(1400, 1200)
    try:
        yield window
    finally:
        window.close()


def look(browser: Browser, marker: str, settle: bool = False, timeout: float = 60) -> dict[str, object]:
    """The page once it shows `marker` and its script run is over; fails on an error box.

    `marker` must be something only the run awaited shows (the step number the page renders,
    "Cards drawn" once cards are thrown, a finding's code): the page is then that run's, whole.
    `settle`: the marker was on the page before the action (the table's setup, where a run
    changes nothing the page says), so the page must also stay the same for SETTLE seconds, by
    which time the run the action asked for has started if there is one."""
    deadline = time.monotonic() + timeout
    state: dict[str, object] = {}
    since, last = 0.0, None
    while time.monotonic() < deadline:
        state = browser.script(STATE)
        assert not state["errors"], state["errors"]
        ready = state["title"] == TITLE and marker in str(state["text"]) and not state["running"]
        if ready and not settle:
            return state
        if not ready or state["text"] != last:
            since, last = time.monotonic(), state["text"] if ready else None
        elif time.monotonic() - since >= SETTLE:
            return state
        time.sleep(POLL)
    raise AssertionError(f"the page never showed {marker!r}: {str(state.get('text'))[-1500:]}")


def click(browser: Browser, label: str, scope: str = "page", timeout: float = 30) -> None:
    """Click the enabled button labelled `label` once it is there."""
    deadline = time.monotonic() + timeout
    while not browser.script(f"return (function() {{ {CLICK} }})(...{json.dumps([label, scope])});"):
        if time.monotonic() > deadline:
            raise AssertionError(f"no button {label!r} on the page")
        time.sleep(POLL)


def type_in(browser: Browser, label: str, text: str, selector: str = 'input[aria-label^="{label}"]') -> None:
    """Type `text` into the input whose label starts with `label` once it is there (the page draws
    its widgets one after another), and press Enter; `selector` finds the input from the label."""
    selector = selector.format(label=label)
    deadline = time.monotonic() + 30
    while not browser.script(f"return document.querySelector({json.dumps(selector)}) !== null;"):
        if time.monotonic() > deadline:
            raise AssertionError(f"no input {label!r} on the page")
        time.sleep(POLL)
    browser.type_text(selector, text)


SELECTBOX = '[data-testid="stSelectbox"]:has(input[aria-label^="{label}"]) input'


def start(browser: Browser, page: str, variant: str, structure: str, hand_id: str) -> rec.Recorder:
    """Set the table up in the page; the same hand as a state machine, to plan the answers."""
    browser.get(page)
    look(browser, "Start recording")
    name = GAMES[variant].variant.name
    type_in(browser, "Game", name, SELECTBOX)
    look(browser, "Start recording", settle=True)
    type_in(browser, "Structure", structure, SELECTBOX)
    look(browser, "Start recording", settle=True)
    type_in(browser, "Hand id", hand_id)
    look(browser, "Start recording", settle=True)
    click(browser, "Start recording")
    look(browser, "Step 1 ·")
    items = rec.stake_items(variant, structure)
    stakes = rec.stakes_of({item: rec.EXAMPLE_STAKES[item] for item in items})
    seats = tuple(Seat(n + 1, name, 20_000) for n, name in enumerate(NAMES))
    return rec.Recorder(rec.new_hand(hand_id, variant, structure, stakes, seats, 1, "Floor 1"))


def enter(browser: Browser, step: rec.Step, answer: rec.Answer) -> None:
    """Enter `answer` to `step` through the page, as a director would."""
    kind, first = step.kind, answer[0] if answer else None
    if kind == rec.ACT:
        assert first is not None and step.moves is not None
        moves = step.moves
        if first.kind in ("fold", "check"):
            click(browser, first.kind.capitalize())
        elif first.kind == "call":
            click(browser, f"Call {format_amount(moves.call)}")
        elif first.kind == "bring_in":
            click(browser, f"Bring-in {format_amount(first.amount or 0)}")
        else:
            word = first.kind.capitalize()
            put_in = moves.all_in - moves.stack
            total = first.to_amount if first.kind != "bet" else (first.amount or 0) + put_in
            if moves.sizes or moves.jam_only:
                click(browser, f"{word} to {format_amount(total or 0)}")
            else:
                type_in(browser, f"{word} to (", format_amount(total or 0))
                click(browser, word)
    elif kind in (rec.DEAL, rec.BOARD):
        assert first is not None
        type_in(browser, "Cards dealt", " ".join(first.cards))
        click(browser, "Deal")
    elif kind in (rec.DRAW, rec.DISCARD, rec.EXPOSE, rec.SPLIT):
        verb = {rec.DRAW: "Draw", rec.DISCARD: "Discard", rec.EXPOSE: "Expose", rec.SPLIT: "Split"}[kind]
        if first is not None and first.kind != "stand_pat":
            type_in(browser, "Cards thrown" if kind in (rec.DRAW, rec.DISCARD) else "Cards",
                    " ".join(first.cards[:2] if kind == rec.SPLIT else first.cards))
            if kind == rec.DRAW:
                look(browser, "Cards drawn")
                type_in(browser, "Cards drawn", " ".join(answer[1].cards))
        click(browser, verb)
    elif kind == rec.CHOOSE:
        assert first is not None
        click(browser, GAMES[first.detail or ""].variant.name)
    elif kind == rec.REMOVE:
        click(browser, "Remove")
    else:
        assert kind == rec.SHOW, kind
        click(browser, "Show")


def finish(browser: Browser, plan: rec.Recorder) -> str:
    """Push as the rules say, check the history is the plan's, store it; the page's report."""
    look(browser, "The hand is over.")
    click(browser, "Push as the rules say")
    plan.push()
    state = look(browser, "Store and audit")
    shown = str(state["history"]).strip().splitlines()
    assert shown[1:] == plan.text().strip().splitlines()[1:]  # the header's time is the page's own
    click(browser, "Store and audit")
    return str(look(browser, "Stored hands")["text"])


def record(browser: Browser, page: str, variant: str, structure: str, seed: int,
           mistake: tuple[int, str] | None = None, shot: Path | None = None) -> str:
    """Record a hand as planned; `mistake`: at the first betting decision, a raise to this total
    entered as a deliberate mistake, which the page must mark with this finding code (and
    `shot` a picture of the page then)."""
    plan = start(browser, page, variant, structure, f"rec-browser-{variant}-{seed}")
    rng = Random(seed)
    while plan.step.kind != rec.PUSH:
        stub = plan.stub
        rng.shuffle(stub)
        step = plan.step
        if mistake is not None and step.kind == rec.ACT:
            assert step.moves is not None
            wrong = rec.betting_action(step.street, step.moves, "raise", mistake[0])
            browser.script("""[...document.querySelectorAll('[data-testid="stExpander"] summary')]
                              .find((s) => s.innerText.includes('rules do not allow')).click();""")
            click(browser, "raise", "expander")
            type_in(browser, "Amount", format_amount(wrong.to_amount or 0))
            click(browser, "Enter anyway", "expander")
            plan.enter((wrong,))
            look(browser, mistake[1])
            if shot is not None:
                browser.resize(1400, min(int(browser.script(STATE)["height"]) + 140, 4000))
                look(browser, mistake[1], settle=True)  # the page laid out again at its new size
                browser.screenshot(shot)
                assert shot.stat().st_size > 20_000
            mistake = None
        else:
            answer = offered(step, stub, rng)
            enter(browser, step, answer)
            plan.enter(answer)
        over = plan.step.kind == rec.PUSH
        look(browser, "The hand is over." if over else f"Step {len(plan.entries) + 1} ·")
    return finish(browser, plan)


@pytest.mark.parametrize(("variant", "structure", "seed"), HANDS)
def test_a_hand_recorded_in_the_browser_is_stored_with_no_finding(
        page: str, browser: Browser, variant: str, structure: str, seed: int) -> None:
    report = record(browser, page, variant, structure, seed)
    assert "Stored hands 1, duplicates skipped 0, rejected 0; the audit found 0 errors, 0 warnings and " \
           "0 notes." in report


def test_a_deliberate_illegal_raise_is_stored_with_its_finding(page: str, browser: Browser,
                                                                tmp_path: Path) -> None:
    """BARGE 2025 §1.2: a no-limit raise to 3 over a big blind of 2 is below the minimum raise;
    entered on purpose, it is marked as entered and the stored hand's audit has it."""
    folder = ROOT / "docs" / "screenshots" if os.environ.get("BARGE_SCREENSHOTS") else tmp_path
    report = record(browser, page, "texas_holdem", "no-limit", 11, (300, "RAISE_BELOW_MINIMUM"),
                    folder / "recorder.png")
    assert "RAISE_BELOW_MINIMUM" in report
    assert "the audit found 1 errors, 0 warnings and 0 notes." in report
