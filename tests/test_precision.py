"""Every finding true: each error and warning the audit leaves on real histories no one here wrote
(the shared corpora) and on the samples is listed, with why it is the record's fault, in
docs/interop.md ("Findings left on real histories"). A new finding, right or wrong, fails here
until a person has read it and either fixed the product or explained the hand there. The findings
across a table's hands are among them: `barge ingest` checks each table's hands in order after its
audit (evaluator/sequences.py), and the report holds those findings with the others."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.conftest import ROOT, SHARED, faults_in, ingest_report, sample_files

INTEROP = ROOT / "docs" / "interop.md"
HEADING = "## Findings left on real histories"
# The corpora the list covers, as folders of the shared corpus.
CORPORA = ("pokerstars", "phh", "888poker", "ggpoker", "winamax", "fulltilt", "ipoker",
           "partypoker", "bovada", "winning")


def documented() -> Counter[tuple[str, str]]:
    """The (hand, code) pairs the table in docs/interop.md explains, with how often each occurs.

    A row names one or more hands (`PS-1`, `PS-2`) and its findings as `` `CODE` `` or
    a count, a multiplication sign and `` `CODE` ``, comma-separated; every hand of the row has
    every finding of the row.
    """
    text = INTEROP.read_text(encoding="utf-8")
    assert HEADING in text, f"docs/interop.md has no section {HEADING!r}"
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    listed: Counter[tuple[str, str]] = Counter()
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if not row.startswith("|") or len(cells) < 3 or set(cells[0]) <= {"-", " "} or cells[0] == "hand":
            continue
        hands = [h.strip(" `") for h in cells[0].split(",")]
        for item in cells[2].split(","):
            match = re.fullmatch(r"\s*(?:(\d+) \N{MULTIPLICATION SIGN} )?`([A-Z_]+)`\s*", item)
            assert match, f"docs/interop.md: cannot read the finding {item!r} in row {row!r}"
            for hand in hands:
                listed[(hand, match.group(2))] += int(match.group(1) or 1)
    return listed


def test_the_documented_list_reads() -> None:
    listed = documented()
    assert listed and all(code.isupper() for _, code in listed)


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """`barge ingest` of the corpora and the samples into one database, as a user runs it."""
    folders = [SHARED / "corpus" / name for name in CORPORA]
    missing = [str(f) for f in folders if not f.is_dir()]
    if missing:
        pytest.skip(f"the shared corpus is not there: {', '.join(missing)} (see README: shared corpus)")
    return ingest_report([*folders, *sample_files()], tmp_path_factory.mktemp("precision") / "all.duckdb")


def test_every_error_and_warning_on_real_histories_is_explained(audited: dict[str, object]) -> None:
    found = faults_in(audited)
    listed = documented()
    unexplained = sorted((found - listed).elements())
    gone = sorted((listed - found).elements())
    assert not unexplained, f"findings not explained in docs/interop.md ({HEADING}): {unexplained}"
    assert not gone, f"docs/interop.md explains findings the audit no longer makes: {gone}"
