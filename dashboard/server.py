"""The dashboard's server process: `python -m dashboard.server APP [streamlit options]`.

It imports what the pages use and loads the numba kernels (by replaying a small hand) before it
runs `streamlit run`, in this same process, so that the first visitor of each page does not wait
a second or more for imports and compiled code that every later visitor finds ready.
"""

from __future__ import annotations

import sys


def warm() -> None:
    """Import the pages' modules and load the evaluators' compiled kernels."""
    import altair  # noqa: F401  (imported for their side effect: they stay in sys.modules)
    import polars  # noqa: F401

    import dashboard.queries
    import dashboard.stepping
    import dashboard.table_svg
    import dashboard.winning  # noqa: F401
    import pipeline.stats  # noqa: F401
    from evaluator.replay import replay_hand
    from grammar.barge_parser import EXAMPLE, parse_hand

    replay_hand(parse_hand(EXAMPLE), None)


def main() -> int:
    warm()
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", *sys.argv[1:]]
    return int(cli.main() or 0)


if __name__ == "__main__":
    sys.exit(main())
