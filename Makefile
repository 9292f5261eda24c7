# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)

.PHONY: demo test lint check clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-* && touch $@

# Rebuilds ./barge.duckdb from the sample histories and prints the ingest summary.
demo: $(STAMP)
	rm -f barge.duckdb barge.duckdb.wal
	$(BIN)/barge ingest sample_histories --db barge.duckdb

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check grammar pipeline evaluator tests
	$(BIN)/mypy

check: lint test

clean:
	rm -rf $(VENV) barge.duckdb barge.duckdb.wal .pytest_cache .mypy_cache .ruff_cache
