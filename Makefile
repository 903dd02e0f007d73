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
	touch $(STAMP)

run: install
	$(BIN)/normcli --workspace sample_workspace browse

test: install
	$(BIN)/python -m pytest -q

bench: install
	$(BIN)/python bench/run.py

lint: install
	$(BIN)/ruff check normcli tests bench
	$(BIN)/ruff format --check normcli tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache sample_workspace/.normcli
