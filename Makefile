# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)

FUZZ_RUNS ?= 1000000
FUZZ_DIR := .fuzz

.PHONY: demo test lint check screenshots fuzz clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-* && touch $@

# Rebuilds ./barge.duckdb from the sample histories and prints the ingest summary.
demo: $(STAMP)
	rm -f barge.duckdb barge.duckdb.wal
	$(BIN)/barge ingest sample_histories/*.bhh --db barge.duckdb

test: $(STAMP)
	sh scripts/ensure_debian_packages.sh
	$(BIN)/python -m pytest -q --durations=15

lint: $(STAMP)
	$(BIN)/ruff check grammar pipeline evaluator dashboard tests benchmarks
	$(BIN)/mypy

check: lint test

# Saves what the browser test sees of each dashboard page to docs/screenshots/.
screenshots: $(STAMP)
	sh scripts/ensure_debian_packages.sh
	BARGE_SCREENSHOTS=1 $(BIN)/python -m pytest -q tests/test_browser.py

# Coverage-guided fuzzing of the native reader and writer: two workers share FUZZ_RUNS inputs
# and a corpus seeded from the samples; crashes are saved under .fuzz/ and fail the target.
fuzz: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,fuzz]'
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/crashes
	for w in 1 2; do \
	  $(BIN)/python tests/fuzz/fuzz_native.py $(FUZZ_DIR)/corpus -runs=$$(( $(FUZZ_RUNS) / 2 )) \
	    -max_len=8192 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_DIR)/crashes/ > $(FUZZ_DIR)/worker-$$w.log 2>&1 & \
	done; wait
	@grep -h -E "^Done|stat::number_of_executed_units|stat::peak_rss_mb" $(FUZZ_DIR)/worker-*.log
	@echo "corpus: $$(ls $(FUZZ_DIR)/corpus | wc -l) inputs; crashes: $$(ls $(FUZZ_DIR)/crashes | wc -l)"
	@test -z "$$(ls $(FUZZ_DIR)/crashes)"

clean:
	rm -rf $(VENV) $(FUZZ_DIR) barge.duckdb barge.duckdb.wal .pytest_cache .mypy_cache .ruff_cache
