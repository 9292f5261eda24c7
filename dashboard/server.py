"""The dashboard's server process: `python -m dashboard.server APP [streamlit options]`.

It imports what the pages use, loads the numba kernels (by replaying a small hand) and builds
the high hand tables before it runs `streamlit run`, in this same process, so that the first
visitor of each page does not wait a second or more for imports and compiled code that every
later visitor finds ready. Then it freezes what is loaded out of the garbage collector's sight
(`gc.freeze`): Streamlit collects garbage after every page run, and walking the hundreds of
thousands of objects these libraries hold took 0.5 to 1 s per run (each step of the Record a
hand page waited for it); frozen, a collection only looks at what the page runs allocate, in
well under a millisecond.
"""

from __future__ import annotations

import gc
import importlib
import sys


def warm() -> None:
    """Import the pages' modules and load the evaluators' compiled kernels."""
    import altair  # noqa: F401  (imported for their side effect: they stay in sys.modules)
    import polars  # noqa: F401

    importlib.import_module("pandas")  # st.data_editor's, at its first use 2 s or more; untyped

    import dashboard.queries
    import dashboard.recording
    import dashboard.stepping
    import dashboard.table_svg
    import dashboard.uploads
    import dashboard.winning  # noqa: F401
    import pipeline.stats  # noqa: F401
    from evaluator.fast7 import high_tables
    from evaluator.replay import replay_hand
    from grammar.barge_parser import EXAMPLE, parse_hand

    replay_hand(parse_hand(EXAMPLE), None)
    high_tables()  # built at the first showdown of five cards or more otherwise: 1.5 s or more


def main() -> int:
    warm()
    from streamlit.web import cli

    gc.collect()
    gc.freeze()  # after the imports above: they live as long as the process (module docstring)
    sys.argv = ["streamlit", "run", *sys.argv[1:]]
    return int(cli.main() or 0)


if __name__ == "__main__":
    sys.exit(main())
