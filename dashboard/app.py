"""The Streamlit entry point of the dashboard: the pages, and the sidebar filters they share.

Run it with `barge dashboard --db FILE` (or `dashboard.launch.serve`), which passes the database
in the BARGE_DB environment variable. Streamlit runs this file as a script, so the project's
root is put on the import path here, whether or not the package is installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import streamlit as st  # noqa: E402

from dashboard import ui  # noqa: E402
from dashboard.connection import database_path, release  # noqa: E402
from evaluator.catalog import add_games  # noqa: E402
from evaluator.game_files import house_folders  # noqa: E402

add_games(house_folders(database_path()))  # the house's games, as every command loads them (docs/games.md)

st.set_page_config(page_title="barge dashboard", page_icon="♠️", layout="wide")
PAGES = [
    st.Page("views/overview.py", title="Overview", icon=":material/dashboard:", url_path="overview",
            default=True),
    st.Page("views/players.py", title="Players", icon=":material/groups:", url_path="players"),
    st.Page("views/variants.py", title="Variants", icon=":material/style:", url_path="variants"),
    st.Page("views/audit.py", title="Audit", icon=":material/gavel:", url_path="audit"),
    st.Page(ui.REPLAYER, title="Hand replayer", icon=":material/play_circle:", url_path=ui.REPLAYER_URL),
    st.Page("views/ingest.py", title="Ingest", icon=":material/upload_file:", url_path="ingest"),
    st.Page("views/recorder.py", title="Record a hand", icon=":material/edit_note:", url_path="record"),
]
page = st.navigation(PAGES)
try:
    ui.sidebar_filters()
    page.run()
finally:  # also when the page stops early or reruns: the next run opens its own
    release()
