"""Starting the dashboard: `serve(db, port)` runs `streamlit run dashboard/app.py` on a database.

Streamlit runs headless in a child process (it owns its event loop and signal handling), started
by `dashboard.server`, which first imports what the pages use; the
database reaches the app in the BARGE_DB environment variable. It listens on this machine only
(`address`), since the Ingest page writes to the database. `barge dashboard` calls `serve`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from dashboard.connection import ENV_DB
from dashboard.uploads import MAX_FILE_MB
from pipeline.dataset import is_dataset

APP = Path(__file__).resolve().with_name("app.py")
ROOT = APP.parents[1]
EXIT_IO = 3  # as `barge`: a file or the database could not be read


def command(port: int, address: str = "localhost") -> list[str]:
    """The streamlit command line.

    >>> cmd = command(8600)
    >>> cmd[2], cmd[3].endswith("app.py"), "--server.port=8600" in cmd
    ('dashboard.server', True, True)
    """
    return [sys.executable, "-m", "dashboard.server", str(APP),
            "--server.headless=true", f"--server.port={port}", f"--server.address={address}",
            f"--server.maxUploadSize={MAX_FILE_MB}", "--server.fileWatcherType=none",
            "--browser.gatherUsageStats=false", "--client.toolbarMode=minimal", "--theme.base=light"]


def environment(db: Path) -> dict[str, str]:
    """This process's environment, plus the database and the project on the import path."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, ENV_DB: str(db.resolve()),
            "PYTHONPATH": str(ROOT) + (os.pathsep + path if path else "")}


def serve(db: Path, port: int, address: str = "localhost") -> int:
    """Run the dashboard on `db` at http://address:port until it is stopped (Ctrl-C); return
    streamlit's exit status, or 3 with a message when the database is missing."""
    if not db.is_file() and not is_dataset(db):
        print(f"barge dashboard: no database at {db}; create it with `barge ingest FILES --db {db}` "
              "(or pass --db)", file=sys.stderr)
        return EXIT_IO
    if not 0 < port < 65536:
        print(f"barge dashboard: {port} is not a port number (1-65535)", file=sys.stderr)
        return 2
    print(f"barge dashboard: {db} at http://{address}:{port} (Ctrl-C stops it)", file=sys.stderr)
    child = subprocess.Popen(command(port, address), env=environment(db), cwd=ROOT)
    try:
        return child.wait()
    except KeyboardInterrupt:  # the terminal's Ctrl-C reached streamlit too; let it finish
        try:
            return child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            return child.wait()
