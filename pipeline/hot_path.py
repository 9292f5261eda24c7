"""The compiled hot path: which modules mypyc compiles when the package is installed, and the
switch that runs them as plain Python instead.

`setup.py` compiles `COMPILED` (the hand model and the replay engine, where a hand's CPU time
goes after parsing) into C extensions beside their sources, and Python imports an extension in
preference to its `.py` file. `choose()`, called by every package's `__init__` before any of its
modules is imported, puts a finder first on `sys.meta_path` that loads a hot module from its
source instead when `BARGE_PURE=1` is set, or when the source was changed after the extension
was built (a stale extension must never run in place of the code beside it; `make` rebuilds
it). One installed tree therefore runs either way, and the test suite checks both.

Modules with numba kernels are not compiled (numba compiles Python functions, not C ones), nor
are the Lark transformers (their base class is Lark's, a Python class mypyc cannot extend).
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

COMPILED = (
    "pipeline/amounts.py",
    "pipeline/model.py",
    "pipeline/accounting.py",
    "pipeline/tables.py",
    "evaluator/awarding.py",
    "evaluator/award_check.py",
    "evaluator/betting.py",
    "evaluator/card_steps.py",
    "evaluator/cards.py",
    "evaluator/catalog.py",
    "evaluator/dealing.py",
    "evaluator/descriptions.py",
    "evaluator/ending.py",
    "evaluator/fees.py",
    "evaluator/findings.py",
    "evaluator/finish.py",
    "evaluator/forced.py",
    "evaluator/hand_state.py",
    "evaluator/legal.py",
    "evaluator/money.py",
    "evaluator/procedure.py",
    "evaluator/profiles.py",
    "evaluator/replay.py",
    "evaluator/settle.py",
    "evaluator/showdown.py",
    "evaluator/variants.py",
    "evaluator/wagering.py",
    "grammar/phh_hand.py",
    "grammar/phh_play.py",
    "grammar/phh_toml.py",
)
PURE_VARIABLE = "BARGE_PURE"
STALE_GRACE_SECONDS = 2.0
ROOT = Path(__file__).resolve().parent.parent  # the folder holding the packages
_NAMES = frozenset(path.removesuffix(".py").replace("/", ".") for path in COMPILED)


def pure_requested() -> bool:
    """Whether the environment asks for the plain-Python path (`BARGE_PURE=1`)."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


class _FromSource(MetaPathFinder):
    """Loads every hot module from its `.py` file, so that no extension of theirs is used."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in _NAMES or not path:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        source = next((Path(folder) / leaf for folder in path if (Path(folder) / leaf).is_file()), None)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)


def stale() -> list[str]:
    """The hot sources changed after their extension was built (none when nothing was built). The
    grace covers installs that write a `.py` just after its extension."""
    changed = []
    for relative in COMPILED:
        source = ROOT / relative
        extensions = (source.with_suffix(suffix) for suffix in EXTENSION_SUFFIXES)
        built = [e.stat().st_mtime for e in extensions if e.is_file()]
        if built and source.stat().st_mtime > max(built) + STALE_GRACE_SECONDS:
            changed.append(relative)
    return changed


def choose() -> None:
    """Install the finder once per process when the plain path is asked for, or when any hot
    source is newer than its extension: the compiled modules call each other directly, so they
    run all compiled or all from source, never mixed."""
    if any(isinstance(f, _FromSource) for f in sys.meta_path):
        return
    if pure_requested() or stale():
        sys.meta_path.insert(0, _FromSource())


def _rebuild(cls: type[Any], fields: dict[str, Any]) -> Any:
    return cls(**fields)


def _reduce(obj: Any) -> tuple[Any, ...]:
    return _rebuild, (type(obj), {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init})


def make_picklable() -> None:
    """Pickle the hot modules' frozen dataclasses through their constructors. A compiled frozen
    dataclass cannot be unpickled the default way (its state is set attribute by attribute, which
    the frozen class refuses), and workers send findings, codes and hands between processes.
    Called by `pipeline.workers`; the same on both paths."""
    for name in sorted(_NAMES):
        for cls in vars(importlib.import_module(name)).values():
            params = getattr(cls, "__dataclass_params__", None)
            if isinstance(cls, type) and params is not None and params.frozen \
                    and cls.__module__ == name:
                copyreg.pickle(cls, _reduce)


def compiled_modules() -> dict[str, bool]:
    """Each hot module's name and whether it was loaded from a compiled extension (imports them)."""
    loaded = {}
    for name in sorted(_NAMES):
        module = importlib.import_module(name)
        loaded[name] = not str(getattr(module, "__file__", "")).endswith(".py")
    return loaded


def describe() -> str:
    """One line for reports and benchmarks: which path this process runs."""
    loaded = compiled_modules()
    done = sum(loaded.values())
    if done == len(loaded):
        return f"compiled (mypyc, {done} modules)"
    if done == 0:
        why = f"{PURE_VARIABLE}=1" if pure_requested() else "changed since built: make rebuilds" if stale() \
            else "not compiled"
        return f"plain Python ({why})"
    return f"partly compiled ({done} of {len(loaded)} modules)"


def require_compiled() -> None:
    """Exit 1 unless every hot module is compiled: the Makefile checks its build with it."""
    line = describe()
    print(f"barge hot path: {line}")
    if not line.startswith("compiled"):
        sys.exit(1)
