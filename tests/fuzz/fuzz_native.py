"""Coverage-guided fuzzing of the native reader and writer (atheris); run by `make fuzz`.

Any input must give hands or located syntax errors, and a hand that reads must be written
back to the same hand. Anything else (another exception, a hang) is a crash that libFuzzer
reports with the input that caused it.

    python tests/fuzz/fuzz_native.py CORPUS_DIR -runs=1000000
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # for the test helpers that find the seed hands

with atheris.instrument_imports():
    from grammar.barge_parser import parse_hand
    from grammar.errors import HandSyntaxError
    from pipeline.sources import detect_encoding, split_blocks
    from pipeline.writer import write_hand


def test_one_input(data: bytes) -> None:
    text = data.decode(detect_encoding(data), errors="replace")
    for block in split_blocks(text.splitlines()):
        try:
            hand = parse_hand(block.text)
        except HandSyntaxError as error:
            if error.line < 1 or error.column < 1:
                raise AssertionError(f"error without a position: {error!r}") from None
            continue
        if parse_hand(write_hand(hand)) != hand:
            raise AssertionError(f"hand {hand.hand_id} reads back differently after writing")


def seed_corpus(folder: Path) -> None:
    """One seed per hand of the samples and of docs/format.md."""
    from tests.conftest import doc_examples, sample_files

    texts = [p.read_text(encoding="utf-8") for p in sample_files()] + doc_examples()
    folder.mkdir(parents=True, exist_ok=True)
    hands = [b.text for t in texts for b in split_blocks(t.splitlines())]
    for i, hand in enumerate(hands):
        (folder / f"seed-{i:03d}.bhh").write_text(hand, encoding="utf-8")


if __name__ == "__main__":
    corpus = next((Path(a) for a in sys.argv[1:] if not a.startswith("-")), None)
    if corpus is not None and not any(corpus.glob("*")):
        seed_corpus(corpus)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
