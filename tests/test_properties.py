"""Property tests: mutated, truncated, spliced and shuffled histories only ever give hands or
rejects with a position; a hand that reads is written back to the same hand."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grammar.barge_parser import parse_hand
from grammar.errors import HandSyntaxError
from pipeline.ingest import ingest
from pipeline.sources import split_blocks
from pipeline.store import Store
from pipeline.writer import write_hand
from tests.conftest import SHARED, doc_examples, sample_files

CORPUS = SHARED / "corpus" / "pokerstars"
SOURCES = (
    [p.read_text(encoding="utf-8") for p in sample_files()]
    + ["\n".join(doc_examples())]
    + [p.read_text(encoding="utf-8", errors="replace") for p in sorted(CORPUS.rglob("*.txt"))[:20]]
)
NOISE = st.text(alphabet=st.sampled_from([*":[]()*#?,.0123456789 -/\t\x00\ufeffé♠Jk", "\n"]), max_size=12)
# A longer run: FUZZ_EXAMPLES=30000 pytest tests/test_properties.py
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))


@st.composite
def mutated(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(SOURCES)).splitlines()
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "truncate", "splice", "char", "insert",
                                   "shuffle"]))
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(j, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "truncate":
            cut = draw(st.integers(0, len(lines[i])))
            lines = [*lines[:i], lines[i][:cut]]
        elif op == "splice":
            other = draw(st.sampled_from(SOURCES)).splitlines()
            lines = lines[:i] + other[draw(st.integers(0, max(len(other) - 1, 0))):]
        elif op == "char":
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(NOISE) + lines[i][at + 1:]
        elif op == "insert":
            lines.insert(i, draw(NOISE))
        else:
            lo, hi = sorted((i, j))
            part = lines[lo:hi + 1]
            lines[lo:hi + 1] = draw(st.permutations(part))
    return "\n".join(lines) + "\n"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_parser_gives_a_hand_or_a_located_error(text: str) -> None:
    for block in split_blocks(text.splitlines()):
        try:
            hand = parse_hand(block.text)
        except HandSyntaxError as error:
            assert 1 <= error.line <= block.text.count("\n") + 1
            assert error.column >= 1 and error.message
            continue
        assert parse_hand(write_hand(hand)) == hand


@settings(max_examples=max(EXAMPLES // 12, 1), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutated(), min_size=1, max_size=3))
def test_ingest_stores_or_rejects_every_block(texts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp, "in")
        folder.mkdir()
        for i, text in enumerate(texts):
            (folder / f"{i}.bhh").write_text(text, encoding="utf-8")
        with Store(Path(tmp, "db.duckdb")) as store:
            summary = ingest([folder], store)  # checks its own accounting
            stored, rejected = store.count("hands"), store.count("rejects")
        assert not summary.errors
        assert stored == summary.total("hands") and rejected == summary.total("rejects")
