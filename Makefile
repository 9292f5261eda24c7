# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)

FUZZ_RUNS ?= 1000000
FUZZ_DIR := .fuzz

.PHONY: demo test test-pure lint check screenshots fuzz clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The dependencies first, with nothing compiled; then the hot path (pipeline/hot_path.py) compiled
# by mypyc in this environment, where its type check sees every dependency. `make` compiles again
# when a hot module changes; until then it runs from source (pipeline.hot_path.stale).
HOT := $(shell sed -n 's/^    "\(.*\.py\)",$$/\1/p' pipeline/hot_path.py)
COMPILED := $(VENV)/.compiled

$(STAMP): pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip 'setuptools>=68' wheel
	BARGE_PURE=1 $(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-* $(COMPILED) && touch $@

$(COMPILED): $(STAMP) $(HOT)
	$(BIN)/python -m pip install --quiet --no-build-isolation --no-deps -e .
	$(BIN)/python -c 'import pipeline.hot_path as h; h.require_compiled()'
	touch $@

# Rebuilds ./barge.duckdb from the sample histories and prints the ingest summary.
demo: $(COMPILED)
	rm -f barge.duckdb barge.duckdb.wal
	$(BIN)/barge ingest sample_histories/*.bhh --db barge.duckdb

# The tests run in one pytest worker per core (pytest-xdist): about 1.6 times faster on CI's two cores.
test: $(COMPILED)
	sh scripts/ensure_debian_packages.sh
	BARGE_EXPECT_COMPILED=1 $(BIN)/python -m pytest -q -n auto --dist loadgroup --durations=15

# The tests again with the hot path run as plain Python (BARGE_PURE=1), as on a machine with no
# C compiler; CI runs both. Left out: the browser, PDF and killed-process tests, which exercise the
# server, the renderer and the process pool around the engine (the same code on both paths), and
# take a third of the suite's time; the engine and the readers they call are tested here.
PURE_SKIPS := tests/test_browser.py tests/test_browser_recorder.py tests/test_report.py \
	tests/test_reliability.py tests/test_small_files.py tests/test_parallel_ingest.py
test-pure: $(STAMP)
	BARGE_PURE=1 $(BIN)/python -m pytest -q -n auto --dist loadgroup --durations=10 $(addprefix --ignore=,$(PURE_SKIPS))

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
