"""Build: the hot modules of `pipeline.hot_path.COMPILED` compiled with mypyc.

`BARGE_PURE=1` at install time builds no extension; so does a machine where mypyc cannot
compile (no mypy, no C compiler, or dependencies missing for its type check, as in an isolated
build environment): the package then runs as plain Python and says so (`barge bench`). The
Makefile installs the dependencies first, then builds in the project's own environment.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup

sys.path.insert(0, str(Path(__file__).parent))
from pipeline.hot_path import COMPILED, pure_requested

# Only a command that builds extensions runs mypyc (pip also runs this file for the metadata).
BUILDING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def extensions() -> list[Any]:
    if pure_requested() or not BUILDING & set(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify

        # The shared library of the compiled modules lives in the `pipeline` package, so that an
        # editable install's finder (which maps packages, not top-level modules) finds it.
        return list(mypycify(list(COMPILED), opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
                             group_name="pipeline.hot"))
    except (SystemExit, Exception) as exc:  # mypyc exits on a type error; any failure: plain path
        print(f"barge: the hot path is not compiled ({type(exc).__name__}: {exc}); "
              "it runs as plain Python", file=sys.stderr)
        return []


setup(ext_modules=extensions())
