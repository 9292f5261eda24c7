"""Hand evaluation throughput, ours against the peers: a script for ``benchmarks.evaluation``.

Run from the repository root: ``.venv/bin/python benchmarks/bench_eval.py [--quick]``
(the same as ``.venv/bin/python -m benchmarks.evaluation``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a file, not installed

from benchmarks.evaluation import main

if __name__ == "__main__":
    main()
