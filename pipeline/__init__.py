"""The pipeline: hand model, Arrow schemas, DuckDB store, ingest and the `barge` command."""
