"""Parse time and tokens a hand for each reader with a coarse grammar, coarse against record.

The hands, in memory: every native hand of the samples and the shared corpus (`../shared/corpus`,
when it is there), and every PokerStars and GGPoker hand of the corpus that reads without error.
Each is read by the record grammar alone (`HandReader.parse_record`) and by the reader as it runs
(`HandReader.parse`: the coarse grammar first, the record grammar where it fails), the two taking
turns over all hands a few times, the best run kept; the parsers are the compiled ones unless `BARGE_PURE=1`.
Tokens a hand are counted with plain Lark. Run it as `nice -n 10 python -m benchmarks.parsing`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

from lark import Lark

from grammar.barge_parser import READER
from grammar.errors import HandSyntaxError
from grammar.pokerstars_names import mask
from grammar.pokerstars_parser import GG_READER, PS_READER, SiteReader
from grammar.reading import HandReader
from pipeline.sources import native_header, read_blocks

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
RUNS = 5


def native_hands() -> list[str]:
    """The native hands of the samples and the corpus."""
    paths = sorted((ROOT / "sample_histories").glob("*.bhh"))
    if CORPUS.is_dir():
        paths += sorted(CORPUS.rglob("*.bhh"))
    return [block.text for path in paths for block in read_blocks(path) if native_header(block.text)]


def site_hands(site: SiteReader, folder: str) -> list[str]:
    """The corpus's hands of a PokerStars dialect, as its reader hands them to the grammar."""
    texts = []
    for path in sorted((CORPUS / folder).rglob("*.txt")) if CORPUS.is_dir() else []:
        for block in read_blocks(path, site.split):
            if site.is_header(block.text.splitlines()[0]):
                texts.append(mask(block.text.replace("\u00a0", " ").lstrip("\ufeff")))
    return texts


def tokens(parser: Lark, hands: list[str]) -> float:
    """Tokens a hand that `parser` reads."""
    return sum(sum(1 for _ in parser.parse_interactive(hand).iter_parse()) for hand in hands) / len(hands)


def _reads(reader: HandReader, hand: str) -> bool:
    try:
        reader.parse_record(hand)
    except HandSyntaxError:
        return False
    return True


def micros(parsers: list[Callable[[str], object]], hands: list[str]) -> list[float]:
    """Each parser's best of `RUNS` runs over all hands, in microseconds a hand; the parsers take
    turns within each run, so that a busy machine slows them alike."""
    best = [float("inf")] * len(parsers)
    for _ in range(RUNS):
        for index, parse in enumerate(parsers):
            start = time.perf_counter()
            for hand in hands:
                parse(hand)
            best[index] = min(best[index], time.perf_counter() - start)
    return [seconds / len(hands) * 1e6 for seconds in best]


def rows() -> Iterator[tuple[str, int, float, float, float, float]]:
    """(reader, hands, record µs, coarse µs, record tokens, coarse tokens) for each reader."""
    readers: list[tuple[str, HandReader, list[str]]] = [
        ("native", READER, native_hands()),
        ("pokerstars", PS_READER.reader, site_hands(PS_READER, "pokerstars")),
        ("ggpoker", GG_READER.reader, site_hands(GG_READER, "ggpoker")),
    ]
    for name, reader, hands in readers:
        hands = [hand for hand in hands if _reads(reader, hand)]  # the corpus keeps broken hands
        if not hands:
            continue
        assert reader.coarse_lark is not None
        record, coarse = micros([reader.parse_record, reader.parse], hands)
        yield (name, len(hands), record, coarse, tokens(reader.lark, hands),
               tokens(reader.coarse_lark, hands))


def main() -> None:
    print(f"{'reader':8} {'hands':>6} {'record us':>10} {'coarse us':>10} {'speed-up':>8} "
          f"{'record tok':>10} {'coarse tok':>10}")
    for name, count, record, coarse, record_tokens, coarse_tokens in rows():
        print(f"{name:8} {count:6} {record:10.0f} {coarse:10.0f} {record / coarse:7.2f}x "
              f"{record_tokens:10.1f} {coarse_tokens:10.1f}")


if __name__ == "__main__":
    main()
