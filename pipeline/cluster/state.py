"""What the driver of a cluster ingest knows of a run: its files and what their parts stored.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import dataclass, field

from evaluator.findings import Finding
from pipeline.dataset import Location
from pipeline.ingest import FileReport, IngestSummary


@dataclass(slots=True)
class File:
    report: FileReport
    source_id: int
    path: str
    sha: str
    fmt: str
    failure: str = ""


@dataclass(slots=True)
class Run:
    location: Location
    root: str  # the run's staging folder
    summary: IngestSummary
    audit: bool
    rules: str | None
    files: dict[int, File] = field(default_factory=dict)  # by source id
    findings: dict[str, list[Finding]] = field(default_factory=dict)  # by part key
    order: dict[str, tuple[int, int]] = field(default_factory=dict)  # part key: its first source id and line
    parts_of_source: defaultdict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    deletions: list[str] = field(default_factory=list)  # committed files the commit deletes
    first_new_source: int = 1

    def staged(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)
