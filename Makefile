# Two front doors (see README.md):  make demo   and   make test
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev

.PHONY: demo test docs lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tourney solve data/examples/combined.yaml --out plan

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/mkdocs build --strict --quiet
	HYPOTHESIS_PROFILE=ci $(BIN)/pytest -q -m "not slow" -n auto

# the manual as a site in site/ (docs/ and the API from its docstrings; strict: no warning)
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

# BENCH_MAX: largest N of benchmarks/run.py (1, 10, 50, 200, 1000, 5000); results in
# benchmarks/results/ (benchmark.csv, benchmark.png)
BENCH_MAX ?= 1000

bench: $(STAMP)
	$(BIN)/python benchmarks/examples.py
	$(BIN)/python benchmarks/run.py --max $(BENCH_MAX) --jobs1

clean:
	rm -rf $(VENV) plan site .pytest_cache .mypy_cache .ruff_cache
