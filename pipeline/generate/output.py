"""Generating hands to files: one file per variant, streamed, in one process or several.

`generate` writes `<variant>.bhh` (native text, hands separated by a blank line) or
`<variant>.phhs` (PHH sections `[1]`, `[2]`, ... through `pipeline.phh_writer`) into the output
folder, and `breaks.csv` when hands are broken on purpose. Each hand depends only on (seed,
variant, index), so the files are the same whether written by one process or by `jobs` worker
processes (`pipeline.parallel`), which generate chunks of hands that are written in order.

>>> from pathlib import Path; import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     summary = generate(Request(("razz",), hands=3, seed=7), Path(folder))
...     text = (Path(folder) / "razz.bhh").read_text()
>>> summary.by_variant, text.count("BARGE Hand #gen-7-razz-")
({'razz': 3}, 3)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from random import Random
from typing import TextIO

from evaluator.catalog import ALL_GAMES
from pipeline.generate import breaks
from pipeline.generate.guts import Carry, chain
from pipeline.generate.play import play
from pipeline.generate.world import SESSION, hand_setup, tables
from pipeline.model import Hand
from pipeline.parallel import Workers
from pipeline.phh_writer import PHH_VARIANTS, hand_to_phh, phh_code
from pipeline.writer import write_hand

FORMATS = ("native", "phh")
SUFFIX = {"native": ".bhh", "phh": ".phhs"}
CHUNK = 200  # hands a worker generates at a time: the text of a chunk is held in memory once

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class Request:
    variants: tuple[str, ...]
    hands: int  # per variant
    seed: int
    form: str = "native"
    break_rate: float = 0.0
    jobs: int = 1


@dataclass(slots=True)
class Summary:
    by_variant: dict[str, int] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # variant -> why it was not written
    breaks: int = 0
    seconds: float = 0.0

    @property
    def hands(self) -> int:
        return sum(self.by_variant.values())


def make_hand(seed: int, variant: str, index: int, break_rate: float = 0.0, plain: bool = False,
              structures: tuple[str, ...] | None = None) -> tuple[Hand, breaks.Break | None]:
    """The `index`-th generated hand of `variant` (from 0), and its break if it was broken."""
    setup = hand_setup(seed, variant, index, plain, structures)
    chance = Random(f"{seed}:{variant}:{index}:break")
    mistake = breaks.plan(setup.hand, chance) if break_rate and chance.random() < break_rate else None
    carry = _carry(seed, variant, index, plain, structures) if ALL_GAMES[variant].guts else None
    played = play(setup, Random(f"{seed}:{variant}:{index}:play"), mistake, carry)
    if mistake is None:
        return played.hand, None
    return breaks.finish(played, mistake, chance)


def _carry(seed: int, variant: str, index: int, plain: bool, structures: tuple[str, ...] | None) -> Carry:
    """A guts game's deal starts from what the table's deal before it left, in its session
    (`pipeline.generate.guts`): that deal is played again, unbroken, from its own start."""
    step = len(tables(seed, variant, plain, structures))
    first = (index // step) % SESSION == 0

    def previous() -> tuple[Hand, Carry]:
        before = _carry(seed, variant, index - step, plain, structures)
        setup = hand_setup(seed, variant, index - step, plain, structures)
        return play(setup, Random(f"{seed}:{variant}:{index - step}:play"), None, before).hand, before

    return chain((seed, variant, index, plain, structures), first, previous)


# ---- PHH -----------------------------------------------------------------------------------------

def phh_structures(variant: str) -> tuple[str, ...]:
    """The structures in which `variant` can be written as PHH (none: it cannot)."""
    return tuple(sorted({structure for vid, structure in PHH_VARIANTS.values() if vid == variant}))


def phh_section(number: int, document: str) -> str:
    """One hand's TOML document as section `[number]` of a .phhs file, as `barge export` writes
    them (the document's keys are plain `key = value` lines)."""
    return f"[{number}]\n{document}"


def _render(hand: Hand, form: str, number: int) -> str | None:
    if form == "native":
        return write_hand(hand)
    if phh_code(hand) is None:
        return None
    return phh_section(number, hand_to_phh(hand))


# ---- the work, in chunks of hands ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Chunk:
    request: Request
    variant: str
    start: int
    stop: int


@dataclass(frozen=True, slots=True)
class _Done:
    text: str
    written: int
    broken: tuple[breaks.Break, ...]


def _chunk(task: _Chunk) -> _Done:
    """Generate one chunk of a variant's hands (in a worker process, or here with one job)."""
    request = task.request
    plain = request.form != "native"
    structures = phh_structures(task.variant) if plain else None
    texts: list[str] = []
    broken: list[breaks.Break] = []
    for index in range(task.start, task.stop):
        hand, row = make_hand(request.seed, task.variant, index, request.break_rate, plain, structures)
        text = _render(hand, request.form, index + 1)
        if text is not None:
            texts.append(text)
            if row is not None:
                broken.append(row)
    return _Done("\n".join(texts), len(texts), tuple(broken))


def _chunks(request: Request) -> Iterator[tuple[str, _Chunk]]:
    for variant in request.variants:
        for start in range(0, request.hands, CHUNK):
            yield variant, _Chunk(request, variant, start, min(start + CHUNK, request.hands))


def _skip_reason(request: Request, variant: str) -> str | None:
    if request.form == "phh" and not phh_structures(variant):
        return "PHH has no code for this variant"
    return None


def generate(request: Request, folder: Path, progress: Progress | None = None) -> Summary:
    """Write the requested hands into `folder` (created if needed) and say what was written.

    Raises OSError when the folder or a file cannot be written."""
    if request.form not in FORMATS:
        raise ValueError(f"unknown format {request.form!r} (one of {', '.join(FORMATS)})")
    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    summary = Summary()
    variants = []
    for variant in request.variants:
        reason = _skip_reason(request, variant)
        if reason is None:
            variants.append(variant)
        else:
            summary.skipped[variant] = reason
            if progress is not None:
                progress(request.hands)
    work = replace(request, variants=tuple(variants))
    with ExitStack() as stack:
        add_row: Callable[[breaks.Break], None] | None = None
        if request.break_rate:
            manifest, add_row = breaks.open_manifest(folder / breaks.MANIFEST)
            stack.enter_context(manifest)
        workers = stack.enter_context(Workers(request.jobs))
        out: TextIO | None = None
        current = None
        for variant, chunk, done in workers.ordered(_chunk, _chunks(work)):
            assert chunk is not None and done is not None
            if variant != current:
                if out is not None:
                    out.close()
                path = folder / f"{variant}{SUFFIX[request.form]}"
                out = stack.enter_context(path.open("w", encoding="utf-8"))
                summary.files.append(path)
                summary.by_variant[variant] = 0
                current = variant
            assert out is not None
            if done.written:
                if summary.by_variant[variant]:
                    out.write("\n")  # hands are separated by a blank line
                out.write(done.text)
            summary.by_variant[variant] += done.written
            summary.breaks += len(done.broken)
            if add_row is not None:
                for row in done.broken:
                    add_row(row)
            if progress is not None:
                progress(chunk.stop - chunk.start)
    if request.break_rate:
        summary.files.append(folder / breaks.MANIFEST)
    summary.seconds = time.perf_counter() - started
    return summary
