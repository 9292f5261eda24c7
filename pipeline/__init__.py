"""The pipeline: hand model, Arrow schemas, DuckDB store, ingest and the `barge` command."""

from pipeline.hot_path import choose

choose()  # before any hot module is imported: BARGE_PURE=1 runs them as plain Python
