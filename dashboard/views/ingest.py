"""Ingest page: upload history files from the browser into the database (`dashboard.uploads`:
size and type limits, safe names, a private temporary folder, `pipeline.ingest` then the audit),
then the summary, the rejected hands, and every reject the database holds."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import queries, tables, ui, uploads
from dashboard.connection import DatabaseBusy, DatabaseUnavailable, database_path
from pipeline.store import StoreError

RESULT = "ingest_result"

path = database_path()
ui.page_title("Ingest", f"Add hand histories to {ui.plain(path)}. Files are read as text only, at most "
              f"{uploads.MAX_FILE_MB} MB each and {uploads.MAX_TOTAL_MB} MB together "
              f"({', '.join('.' + t for t in uploads.TYPES)}); hands already stored are skipped, and the "
              "new ones are audited as `barge ingest` does.")

with st.form("upload", clear_on_submit=True):
    files = st.file_uploader("History files", type=list(uploads.TYPES), accept_multiple_files=True,
                             max_upload_size=uploads.MAX_FILE_MB)
    submitted = st.form_submit_button("Ingest", type="primary", key="ingest_submit")

if submitted:
    notice = st.empty()

    def waiting(message: str) -> None:
        notice.info(f"The database is busy, retrying: {message}")

    batch = [uploads.Upload(f.name, f.getvalue()) for f in files or []]
    try:
        with st.spinner(f"Ingesting {len(batch)} files…"):
            st.session_state[RESULT] = uploads.ingest_uploads(
                batch, path, on_wait=waiting)
        notice.empty()
    except uploads.UploadRefused as exc:
        notice.error(ui.plain(exc))
    except (DatabaseBusy, StoreError) as exc:
        notice.error(f"Nothing was ingested: {exc}")

report = st.session_state.get(RESULT)
if report:
    st.subheader("Last upload")
    audit = report["audit"]
    cols = st.columns(6)
    cols[0].metric("Hands stored", f"{report['hands']:,}")
    cols[1].metric("Rejected", f"{report['rejects']:,}")
    cols[2].metric("Duplicates skipped", f"{report['duplicates']:,}")
    cols[3].metric("Changed", f"{report['changed']:,}")
    cols[4].metric("Errors found", f"{audit['errors']:,}")
    cols[5].metric("Seconds", f"{report['seconds']:.2f}")
    tables.show(pl.DataFrame(report["files"]).drop("format"))
    if report["by_variant"]:
        by_variant = report["by_variant"]
        tables.show(pl.DataFrame({"variant": list(by_variant), "hands": list(by_variant.values())}))
    if report["reject_details"]:
        st.subheader("Rejected hands")
        tables.show(pl.DataFrame(report["reject_details"]))
    if audit["findings"]:
        st.caption(f"The audit of the new hands found {audit['errors']} errors, {audit['warnings']} "
                   f"warnings and {audit['infos']} notes; the Audit page lists them.")

st.subheader("Rejects in the database")
try:
    stored = ui.fetch(queries.rejects)
except DatabaseUnavailable as exc:
    st.info(str(exc))
else:
    if stored.is_empty():
        st.caption("None: every hand block stored so far was read.")
    else:
        st.caption("Hands that could not be read, where, and why; fix them and upload the file again "
                   "(or `barge ingest --retry-rejects` after a grammar fix).")
        tables.show(stored)
