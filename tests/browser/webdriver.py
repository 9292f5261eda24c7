"""Just enough of the W3C WebDriver protocol to drive headless Chromium from the browser test.

`chromedriver` (Debian's `chromium-driver`) speaks WebDriver as JSON over HTTP, so the standard
library's `urllib` is all the client needs: open a session, load a page, run a script, take a
screenshot. (Chromium's own `--screenshot` mode cannot be used for Streamlit: it captures the
page at its load event, before the app's websocket has delivered anything.)
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


class WebDriverError(RuntimeError):
    """chromedriver refused a command; the message is its own."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for_http(url: str, timeout: float) -> None:
    """Return once `url` answers at all; raise TimeoutError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not answer within {timeout:.0f} s") from None
            time.sleep(0.2)


@contextlib.contextmanager
def dashboard_server(db: Path, root: Path) -> Iterator[str]:
    """`barge dashboard` on `db` (the project at `root`) in a process group of its own, answering
    at the returned base URL until the block ends."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(root)}
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from dashboard.launch import serve; "
                               f"sys.exit(serve(Path({str(db)!r}), {port}))"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for_http(f"http://localhost:{port}/_stcore/health", 60)
        yield f"http://localhost:{port}"
    finally:
        os.killpg(server.pid, 15)  # streamlit and its launcher, which share the new session
        server.wait(timeout=30)


class Browser:
    """One headless Chromium window driven through a chromedriver child process."""

    def __init__(self, width: int = 1400, height: int = 1000) -> None:
        self.port = free_port()
        self.driver = subprocess.Popen([str(CHROMEDRIVER), f"--port={self.port}"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_http(f"http://127.0.0.1:{self.port}/status", 20)
            args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--hide-scrollbars", f"--window-size={width},{height}"]
            answer = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
                "browserName": "chrome", "goog:chromeOptions": {"binary": str(CHROMIUM), "args": args}}}})
            self.session = answer["sessionId"]
        except BaseException:
            self.driver.kill()
            raise

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as exc:
            raise WebDriverError(exc.read().decode(errors="replace")[:500]) from None

    def get(self, url: str) -> None:
        self._call("POST", f"/session/{self.session}/url", {"url": url})

    def script(self, source: str) -> Any:
        """Run `source` (a function body; `return` gives the value) in the page."""
        return self._call("POST", f"/session/{self.session}/execute/sync", {"script": source, "args": []})

    def upload(self, selector: str, paths: list[Path]) -> None:
        """Choose `paths` in the file input `selector`, as a user picking files does."""
        found = self._call("POST", f"/session/{self.session}/element",
                           {"using": "css selector", "value": selector})
        element = next(iter(found.values()))
        self._call("POST", f"/session/{self.session}/element/{element}/value",
                   {"text": "\n".join(str(p) for p in paths)})

    def type_text(self, selector: str, text: str) -> None:
        """Replace what the input `selector` holds with `text` and press Enter, as a user does
        (select all with Control-A, then type: a cleared field would not tell the page)."""
        found = self._call("POST", f"/session/{self.session}/element",
                           {"using": "css selector", "value": selector})
        element = next(iter(found.values()))
        self._call("POST", f"/session/{self.session}/element/{element}/value",
                   {"text": "\ue009a\ue000" + text + "\ue007"})

    def resize(self, width: int, height: int) -> None:
        self._call("POST", f"/session/{self.session}/window/rect", {"width": width, "height": height})

    def screenshot(self, path: Path) -> None:
        png = self._call("GET", f"/session/{self.session}/screenshot")
        path.write_bytes(base64.b64decode(png))

    def close(self) -> None:
        try:
            self._call("DELETE", f"/session/{self.session}")
        finally:
            self.driver.terminate()
            try:
                self.driver.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.driver.kill()
