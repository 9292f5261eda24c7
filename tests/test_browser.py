"""The dashboard in a real browser: `dashboard.launch.serve` in a child process, every page
opened in headless Chromium, no Streamlit error box or exception on any of them, a file uploaded
through the Ingest page, and a screenshot of each page taken. `make screenshots` saves them to
docs/screenshots/<page>.png (BARGE_SCREENSHOTS=1); otherwise they go to the test's temporary folder,
so that running the tests leaves the work tree as it was.

Needs the Debian packages `chromium` and `chromium-driver` (scripts/ensure_debian_packages.sh
installs them); skipped with a message without them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.webdriver import CHROMEDRIVER, CHROMIUM, Browser, dashboard_server
from tests.conftest import ROOT, sample_files
from tests.test_dashboard import BAD_HAND, CHOWAHA_HAND, add_units, build

WIDTH = 1400
# page url, its title, what must be on it once it has run
PAGES = {
    "overview": ("", "Overview", "Biggest pots"),  # the default page is the root
    "players": ("players", "Players", "By position"),
    "variants": ("variants", "Variants", "Winning hands at the showdown"),
    "audit": ("audit", "Audit", "By table"),
    "replayer": (f"replayer?hand={CHOWAHA_HAND}", "Hand replayer", "Raw text"),
    "ingest": ("ingest", "Ingest", "Rejects in the database"),
}
# What the page looks like: its title, whether Streamlit is still running it or still
# loading, the error boxes and exceptions shown, and the charts drawn.
PAGE_STATE = """
const q = (s) => [...document.querySelectorAll(s)];
const charts = q('[data-testid="stVegaLiteChart"]');
return {
  title: (q('h1')[0] || {}).innerText || '',
  text: document.body.innerText,
  running: q('[data-testid="stStatusWidgetRunningIcon"], [data-testid="stStatusWidgetRunningManIcon"],'
             + ' [data-testid="stSkeleton"], [data-testid="stSpinner"]').length > 0,
  errors: q('[data-testid="stException"], [data-testid="stAlertContentError"], [role="dialog"]')
          .map((e) => e.innerText),
  charts: charts.length,
  drawn: charts.filter((c) => c.querySelector('canvas, svg')).length,
  height: Math.max(...q('[data-testid="stMain"], [data-testid="stAppViewContainer"] section')
                   .map((e) => e.scrollHeight), document.body.scrollHeight),
};
"""

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="Chromium is not installed: run scripts/ensure_debian_packages.sh (Debian packages chromium "
           "and chromium-driver) to run the browser test")


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.environ.get("BARGE_SCREENSHOTS"):
        folder = ROOT / "docs" / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples and the audit samples, ingested and audited, with hands in dollars, euros, play
    money and a PokerStars tournament's chips beside the samples' cash chips and event chips."""
    folder = tmp_path_factory.mktemp("browser")
    return add_units(build(folder / "samples.duckdb"), folder)


@pytest.fixture(scope="module")
def dashboard(database: Path) -> Iterator[str]:
    """The dashboard serving the samples' database, at the returned base URL."""
    with dashboard_server(database, ROOT) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    window = Browser(WIDTH, 1000)
    try:
        yield window
    finally:
        window.close()


def settled(browser: Browser, title: str, marker: str, timeout: float = 60) -> dict[str, Any]:
    """The page's state once its title and `marker` are shown, nothing runs and every chart is
    drawn, the same on two looks half a second apart."""
    deadline = time.monotonic() + timeout
    last: dict[str, Any] = {}
    while time.monotonic() < deadline:
        state: dict[str, Any] = browser.script(PAGE_STATE)
        if state["errors"]:
            return state
        ready = (state["title"] == title and marker in state["text"] and not state["running"]
                 and state["drawn"] == state["charts"])
        if ready and {k: state[k] for k in ("text", "charts", "height")} == \
                {k: last.get(k) for k in ("text", "charts", "height")}:
            return state
        last = state if ready else {}
        time.sleep(0.5)
    raise AssertionError(f"the page {title!r} did not finish rendering: {last or state}")


def test_every_page_renders_without_errors(dashboard: str, browser: Browser, shots: Path) -> None:
    for name, (url, title, marker) in PAGES.items():
        browser.resize(WIDTH, 1000)
        browser.get(f"{dashboard}/{url}")
        state = settled(browser, title, marker)
        assert not state["errors"], f"{name}: {state['errors']}"
        if name in ("overview", "players", "variants", "audit"):  # the unit with the most hands, said
            assert "Unit: chips" in state["text"], name
        # The whole page in one picture: a window as tall as the page (the app scrolls inside it).
        browser.resize(WIDTH, min(max(int(state["height"]) + 140, 900), 6000))
        settled(browser, title, marker)
        browser.screenshot(shots / f"{name}.png")
        assert (shots / f"{name}.png").stat().st_size > 20_000


# An input of a form given a value as typing does (React's own setter, then the input event),
# without pressing Enter, which would submit the form before every field is filled.
FILL = """
const [label, text] = arguments;
const input = [...document.querySelectorAll('input, textarea')]
  .find((e) => e.getAttribute('aria-label') === label);
const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value').set;
setter.call(input, text);
input.dispatchEvent(new Event('input', {bubbles: true}));
"""
# WebDriver's codes of the keys the replayer's buttons answer to.
LEFT, HOME, SPACE = "\ue012", "\ue011", " "


def press(browser: Browser, key: str) -> None:
    """A key pressed and released, as a user at the keyboard does (to the page, nothing focused)."""
    browser._call("POST", f"/session/{browser.session}/actions", {"actions": [{
        "type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": key},
                                                    {"type": "keyUp", "value": key}]}]})


def run(browser: Browser, source: str, *args: str) -> Any:
    """`source` run in the page with `args` (its `arguments`)."""
    return browser._call("POST", f"/session/{browser.session}/execute/sync",
                         {"script": source, "args": list(args)})


def test_a_finding_leads_to_its_hand_its_rule_and_a_review(dashboard: str, browser: Browser,
                                                           shots: Path) -> None:
    """The director's flow: the finding's link opens the hand at the pot the dealer pushed wrong
    (BARGE 2025 §2.51: the record's push to Ann beside the rules' to Bo), the rule's words are on
    the page, a key steps back, and a review entered there is on the Audit page."""
    browser.resize(WIDTH, 1000)
    browser.get(f"{dashboard}/replayer?hand=AUDIT-WRONG_AWARD&seq=21")
    state = settled(browser, "Hand replayer", "Raw text")
    assert not state["errors"], state["errors"]
    text = state["text"]
    assert "Step 23 of 23: Ann collected 2,000 from side pot 1" in text
    assert "The rules push this pot otherwise than the record" in text
    assert "BARGE 2025 §2.51 · Texas Hold'em" in text and "The best high five-card hand wins the pot" in text
    browser.resize(WIDTH, min(int(state["height"]) + 140, 6000))
    settled(browser, "Hand replayer", "Raw text")
    browser.screenshot(shots / "replayer-wrong-award.png")
    browser.resize(WIDTH, 1000)

    press(browser, LEFT)  # the Back button's shortcut
    assert "Step 22 of 23: Ann collected 1,800 from main pot" in settled(browser, "Hand replayer",
                                                                          "Step 22 of 23")["text"]

    run(browser, """[...document.querySelectorAll('summary')]
                    .find((e) => e.innerText.includes('Review this finding')).click();""")
    settled(browser, "Hand replayer", "Record the review")
    run(browser, FILL, "Note", "Ann had no part in side pot 1")
    run(browser, FILL, "Your name", "Tess Director")
    run(browser, """document.querySelector('[data-testid="stFormSubmitButton"] button').click();""")
    state = settled(browser, "Hand replayer", "Recorded: WRONG_AWARD at action 21")
    assert not state["errors"], state["errors"]
    assert "Review: confirmed by Tess Director" in state["text"]

    browser.get(f"{dashboard}/audit")
    state = settled(browser, "Audit", "By table")
    assert re.search(r"Reviewed\s+1 of ", state["text"]), state["text"][:500]
    browser.type_text(".st-key-audit_review input", "confirmed")  # the review filter
    settled(browser, "Audit", "Findings (1)")
    click_first_row(browser, ".st-key-audit_table")
    state = settled(browser, "Audit", "Record the review")
    assert "WRONG_AWARD · AUDIT-WRONG_AWARD, action 21" in state["text"]
    assert "BARGE 2025 §2.51 · Texas Hold'em" in state["text"]
    assert "confirmed by Tess Director: “Ann had no part in side pot 1”" in state["text"]
    browser.resize(WIDTH, min(int(state["height"]) + 140, 6000))
    settled(browser, "Audit", "Record the review")
    browser.screenshot(shots / "audit-finding.png")


def test_the_replayer_plays_by_itself(dashboard: str, browser: Browser) -> None:
    """Space plays the hand a step at a time from the start, Space again pauses it, Home goes back
    to the seats (Streamlit's button shortcuts)."""
    browser.resize(WIDTH, 1000)
    browser.get(f"{dashboard}/replayer?hand={CHOWAHA_HAND}")
    settled(browser, "Hand replayer", "Raw text")

    def step() -> int:
        found = re.search(r"Step (\d+) of \d+:", browser.script(PAGE_STATE)["text"])
        assert found, "no step on the page"
        return int(found.group(1))

    press(browser, HOME)
    settled(browser, "Hand replayer", "Step 0 of")
    press(browser, SPACE)  # play: a step every 1.2 s
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and step() < 3:
        time.sleep(0.3)
    assert step() >= 3, "autoplay did not move the hand on"
    press(browser, SPACE)  # pause
    settled(browser, "Hand replayer", "Play")
    paused = step()
    time.sleep(3)
    assert step() == paused


def test_a_busy_database_is_waited_for_and_the_page_recovers(dashboard: str, database: Path,
                                                            browser: Browser) -> None:
    """While another process writes the database (an ingest), the page says so and keeps trying;
    when the writer is done it loads by itself and says the database is free again."""
    holder = subprocess.Popen(
        # It writes, as an ingest does, so that no page can answer from its cache.
        [sys.executable, "-c", f"import duckdb, time; c = duckdb.connect({str(database)!r}); "
                               "c.execute('CREATE TABLE busy_probe AS SELECT 1 AS x'); "
                               "c.execute('CHECKPOINT'); print('locked', flush=True); time.sleep(6); "
                               "c.execute('DROP TABLE busy_probe')"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        browser.resize(WIDTH, 1000)
        browser.get(f"{dashboard}/variants")
        deadline = time.monotonic() + 20
        while "The database is busy" not in browser.script(PAGE_STATE)["text"]:
            assert time.monotonic() < deadline, "the page did not say the database is busy"
            time.sleep(0.2)
        state = settled(browser, "Variants", "Winning hands at the showdown", timeout=60)
        assert not state["errors"], state["errors"]
        assert "The database is free again after" in state["text"]
    finally:
        holder.kill()
        holder.wait()


def click_first_row(browser: Browser, table: str) -> None:
    """Select a dataframe's first row as a user does: a click on its row marker (the table is
    drawn on a canvas, so the click goes to where the row is)."""
    box = run(browser, f"const r = document.querySelector('{table} canvas').getBoundingClientRect();"
                       "return [r.left, r.top];")
    x, y = int(box[0]) + 18, int(box[1]) + 35 + 17  # the marker column, below the header row
    browser._call("POST", f"/session/{browser.session}/actions", {"actions": [{
        "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [{"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
                    {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})


def test_a_file_uploaded_in_the_browser_is_ingested(dashboard: str, browser: Browser, shots: Path,
                                                     tmp_path: Path) -> None:
    browser.resize(WIDTH, 1000)
    browser.get(f"{dashboard}/ingest")
    settled(browser, "Ingest", "Rejects in the database")
    bad = tmp_path / "bad.bhh"
    bad.write_bytes(BAD_HAND)
    browser.upload('input[type="file"]', [sample_files()[0], bad])
    settled(browser, "Ingest", "bad.bhh")  # both files are on the server
    browser.script("""document.querySelector('[data-testid="stFormSubmitButton"] button').click();""")
    state = settled(browser, "Ingest", "Last upload")
    assert not state["errors"], state["errors"]
    assert "Rejected hands" in state["text"]
    assert re.search(r"Rejected\s+1\b", state["text"]) and re.search(r"Hands stored\s+0\b", state["text"])
    browser.resize(WIDTH, min(int(state["height"]) + 140, 6000))
    settled(browser, "Ingest", "Last upload")
    browser.screenshot(shots / "ingest.png")  # the page with an upload's summary
