"""Ingest of one-hand files against the same hands in one file: what a file costs by itself.

The public PHH data set keeps one hand a file (Pluribus' 10,000 hands are 10,000 `.phh` files).
The input is the generated PHH hands of the 11 PHH variants (`benchmarks.phh`), written twice: one
`.phh` file per hand in a folder, and all of them as the sections of one `.phhs` file; with the
real corpus beside the repository (`../shared/corpus/phh/pluribus`), its one-hand files too, against
the same texts bundled. Each side is a `barge ingest --jobs N` (every core) in a fresh process on
a fresh database, measured as `benchmarks.ingest.measure` does (wall time from start-up to exit,
and the CPU time of the process and its workers, which a loaded machine changes less).

Run from the repository root: ``.venv/bin/python -m benchmarks.small_files [--hands N]``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.ingest import measure
from benchmarks.phh import hands_file_texts
from benchmarks.suite import row
from grammar.phh_parser import split_phh
from pipeline.sources import read_blocks

ROOT = Path(__file__).resolve().parents[1]
PLURIBUS = ROOT.parent / "shared" / "corpus" / "phh" / "pluribus"
QUICK_PER_VARIANT = 100  # 1,100 hands
FULL_PER_VARIANT = 910  # 10,010 hands: the size of the Pluribus folder


def write_both(texts: list[str], folder: Path) -> tuple[Path, Path]:
    """The hands as one `.phh` file each (in a folder) and as one `.phhs` file of sections."""
    files = folder / "one-hand-files"
    files.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(texts):
        (files / f"{i:05d}.phh").write_text(text, encoding="utf-8")
    bundle = folder / "bundle.phhs"
    with bundle.open("w", encoding="utf-8") as out:
        for i, text in enumerate(texts, 1):
            out.write(f"[{i}]\n{text}")  # a block's text ends with its line end
    return files, bundle


def corpus_texts(folder: Path) -> list[str]:
    """The hands of a folder of `.phh` files, in file order."""
    return [block.text for path in sorted(folder.rglob("*.phh")) for block in read_blocks(path, split_phh)]


def compare(name: str, texts: list[str], folder: Path, jobs: int) -> list[dict[str, Any]]:
    """Rows for the one-hand files against the bundle: hands per second and per CPU-second."""
    files, bundle = write_both(texts, folder)
    alone = measure(files, jobs, folder / "files.duckdb")
    together = measure(bundle, jobs, folder / "bundle.duckdb")
    if alone["hands"] != together["hands"]:
        raise RuntimeError(f"{name}: {alone['hands']} hands stored from the files, "
                           f"{together['hands']} from the bundle")
    note = (f"{alone['hands']:,} {name} hands, one .phh file each, --jobs {jobs}, parsed, replayed and "
            f"stored; {alone['seconds']:.1f} s against {together['seconds']:.1f} s")
    peer = "the same hands in one .phhs file"
    return [
        row(f"ingest one-hand files ({name})", round(alone["hands_per_s"], 1),
            round(together["hands_per_s"], 1), peer, "hands/s", note),
        row(f"ingest one-hand files ({name}), per CPU-second", round(alone["hands"] / alone["cpu_s"], 1),
            round(together["hands"] / together["cpu_s"], 1), peer, "hands/CPU s",
            "the CPU time of the ingest process and its workers"),
    ]


def run(quick: bool) -> list[dict[str, Any]]:
    """Rows for `barge bench`: generated hands, and the Pluribus corpus when it is there."""
    jobs = os.cpu_count() or 1
    rows = []
    with tempfile.TemporaryDirectory(prefix="barge-bench-files-") as temporary:
        generated = hands_file_texts(QUICK_PER_VARIANT if quick else FULL_PER_VARIANT)
        rows += compare("generated PHH", generated, Path(temporary) / "generated", jobs)
        if PLURIBUS.is_dir() and not quick:
            rows += compare("Pluribus", corpus_texts(PLURIBUS), Path(temporary) / "pluribus", jobs)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-variant", type=int, default=FULL_PER_VARIANT, help="hands of each PHH variant")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="barge-bench-files-") as temporary:
        for found in compare("generated PHH", hands_file_texts(args.per_variant), Path(temporary), args.jobs):
            print(f"{found['benchmark']}: {found['ours']:,} against {found['peer']:,} {found['unit']} "
                  f"({found['ratio']:.2f}); {found['note']}")


if __name__ == "__main__":
    main()
