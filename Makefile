# Two commands do all the set-up: `make run` and `make test`. Both install into .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed

.PHONY: install run test bench lint fuzz clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m compileall -q normcli > /dev/null  # as pip does for a wheel: no call compiles them again
	touch $(STAMP)

run: install
	$(BIN)/normcli --workspace sample_workspace browse

test: install
	$(BIN)/python -m pytest -q

bench: install
	$(BIN)/python bench/run.py

# ruff (lint and format), mypy over the whole package (the TUI included), and the import contracts
# of pyproject.toml (the layering of STYLE.md). CI runs it after the tests.
lint: install
	$(BIN)/ruff check normcli tests bench
	$(BIN)/ruff format --check normcli tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# Fuzz the bundle parser and the query arguments for FUZZ_SECONDS each (atheris when it installs, else
# hypothesis), then the full-size cases: a 10,000-level heading chain and a 50 MB bundle. Not part of `make test`.
FUZZ_SECONDS ?= 120
fuzz: install
	-$(BIN)/python -m pip install --quiet atheris
	$(BIN)/python -m tests.fuzz.run --seconds $(FUZZ_SECONDS)
	NORMCLI_STRESS=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/reliability/test_big_bundles.py

clean:
	rm -rf $(VENV) .pytest_cache sample_workspace/.normcli
