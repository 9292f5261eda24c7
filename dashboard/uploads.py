"""Ingesting files uploaded in the browser: size limits, safe names, a private folder, and the
same ingest and audit as `barge ingest`.

Uploads are only ever read as text by the history readers: they are written under names made of
letters, digits, `.`, `_` and `-` into a folder only this user can read, ingested, and deleted.
The folder is the same for every upload to a database (`upload_dir`), because a file's identity
in `sources` is its path: uploading a corrected version of a file replaces its changed hands, as
running `barge ingest` again on a corrected file does.

>>> safe_name("../../etc/passwd"), safe_name("C:\\\\hands\\\\day 1 (final).bhh"), safe_name("..")
('passwd', 'day_1_final.bhh', 'upload')
"""

from __future__ import annotations

import hashlib
import re
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dashboard.connection import GATE, DatabaseBusy, release
from pipeline.audit import audit
from pipeline.dataset import is_dataset
from pipeline.ingest import ingest
from pipeline.store import Store

MAX_FILE_MB = 50  # per file; `launch.serve` gives Streamlit the same limit
MAX_TOTAL_MB = 200  # per upload
TYPES = ("bhh", "txt", "phh", "phhs")
WRITER_WAIT = 30.0  # seconds to wait for the database while another process writes it
_SAVING = threading.Lock()  # sessions share the upload folder: one upload at a time


@dataclass(frozen=True, slots=True)
class Upload:
    name: str
    data: bytes


class UploadRefused(ValueError):
    """The upload breaks a limit; the message says which."""


def safe_name(name: str) -> str:
    """The file's base name, its stem made of [A-Za-z0-9_-] (anything else becomes `_`, so no
    dot can lead it) and its extension of letters and digits."""
    base = re.split(r"[\\/]", name)[-1]
    stem, dot, suffix = base.rpartition(".")
    if not dot:
        stem, suffix = base, ""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", stem).strip("_")[:100] or "upload"
    suffix = re.sub(r"[^A-Za-z0-9]+", "", suffix)[:10]
    return f"{stem}.{suffix}" if suffix else stem


def check(uploads: Sequence[Upload]) -> None:
    """Refuse an upload that is empty, too big, or has a file of another type."""
    if not uploads:
        raise UploadRefused("Choose at least one file.")
    for upload in uploads:
        if upload.name.rsplit(".", 1)[-1].lower() not in TYPES:
            kinds = ", ".join("." + t for t in TYPES)
            raise UploadRefused(f"{upload.name}: only {kinds} files are accepted.")
        if len(upload.data) > MAX_FILE_MB * 2**20:
            raise UploadRefused(f"{upload.name} is larger than {MAX_FILE_MB} MB.")
    if sum(len(u.data) for u in uploads) > MAX_TOTAL_MB * 2**20:
        raise UploadRefused(f"The files together are larger than {MAX_TOTAL_MB} MB.")


def upload_dir(db: Path) -> Path:
    """The private folder the uploads to `db` are written to while they are ingested."""
    key = hashlib.sha256(str(db.resolve()).encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / "barge-dashboard-uploads" / key
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    return folder


def save(uploads: Sequence[Upload], folder: Path) -> list[Path]:
    """Write the uploads under safe, distinct names; never outside `folder`."""
    paths: list[Path] = []
    for upload in uploads:
        name = safe_name(upload.name)
        path = folder / name
        n = 2
        while path in paths:
            path = folder / f"{Path(name).stem}-{n}{Path(name).suffix}"
            n += 1
        path.write_bytes(upload.data)
        paths.append(path)
    return paths


def ingest_uploads(uploads: Sequence[Upload], db: Path, on_wait: Callable[[str], None]) -> dict[str, Any]:
    """Check, save, ingest and audit the uploads into `db` (created if missing); return the
    ingest summary as `barge ingest --json` prints it, with the audit's under "audit". Raises
    UploadRefused, DatabaseBusy or pipeline.store.StoreError with a message for the user."""
    if is_dataset(db):
        raise UploadRefused(f"{db} is a Parquet dataset, which the dashboard only reads: add histories to it "
                            f"with `barge ingest FILES --cluster ray --out {db}`")
    check(uploads)
    with _SAVING:
        folder = upload_dir(db)
        paths = save(uploads, folder)
        release()  # this page's own reading connection would keep the writer waiting for itself
        try:
            with GATE.writing(WRITER_WAIT), Store(db, wait=WRITER_WAIT, on_wait=on_wait) as store:
                summary = ingest(paths, store)
                audited = audit(store, None, pending_only=True)
        except DatabaseBusy as exc:
            raise DatabaseBusy(f"The dashboard is still reading the database ({exc}); try again.") from None
        finally:
            for path in paths:
                path.unlink(missing_ok=True)
    report = summary.to_json()
    report["audit"] = audited.to_json()
    shown = {str(path): upload.name for path, upload in zip(paths, uploads, strict=True)}
    for item in (*report["files"], *report["reject_details"]):
        item["path"] = shown.get(item["path"], Path(item["path"]).name)
    return report
