# Everyday commands. `make help` lists them. Each uses the project's .venv, made and
# filled from the lock (requirements/dev.txt) the first time and whenever the lock or
# pyproject.toml changes: uv (itself pinned with hashes in requirements/uv.txt) installs
# it, about ten times faster than pip. Everything is compiled to bytecode once, at install:
# otherwise each of the four test processes and every server a test starts compiles the
# same libraries again on its first run (about 70 CPU seconds on a fresh clone).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Written when .venv holds exactly the lock and the project (editable).
INSTALLED := $(VENV)/.installed
# What the lock holds: every extra the tests and the docs need.
EXTRAS := test research pdf docs
# The lock's resolver (uv pip compile: PyPI, hashes of every file of each pinned version).
UV := uv==0.13.9
LINTED := src tests benchmarks tools setup.py

.DEFAULT_GOAL := help
.PHONY: help venv play test soak release check lock build bench compiled clean

help: ## List the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-9s %s\n", $$1, $$2}'

venv: $(INSTALLED) ## Make .venv from the lock (pinned, hashed) and install the project in it

$(INSTALLED): requirements/dev.txt requirements/uv.txt pyproject.toml setup.py
	@command -v $(PYTHON) >/dev/null || { echo "make: $(PYTHON) is missing: install Python >= 3.11 (apt-get install python3 python3-venv)" >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || { echo "make: cannot make $(VENV): apt-get install python3-venv" >&2; exit 1; }
	$(BIN)/python -m pip install -q --disable-pip-version-check --require-hashes -r requirements/uv.txt
	$(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python --require-hashes -r requirements/dev.txt
	PRIMERO_PURE_PYTHON=1 $(BIN)/uv pip install -q --python $(BIN)/python --no-deps -e .
	$(BIN)/python -m compileall -q -j 0 src
	@touch $@

play: $(INSTALLED) ## Play a match against bots in the terminal
	$(BIN)/primero play

test: $(INSTALLED) ## Lint, format check, the layers, then the tests (mypy among them): what CI runs first
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/lint-imports
	$(BIN)/pytest -n 4 -m "not soak and not release"

soak: $(INSTALLED) ## The long endurance tests (kill -9, failover, a whole evening): CI runs them next
	$(BIN)/pytest -n 4 -m soak

release: $(INSTALLED) ## The sdist and wheel built in isolation, installed, played, its compiled modules tested
	bash tools/check_release.sh

check: $(INSTALLED) ## Lint, types, the layers, and the web client's types and lint
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy
	$(BIN)/lint-imports
	@if [ -d tests/js/node_modules ]; then npm --prefix tests/js run --silent check; \
	else echo "web client: npm ci --prefix tests/js to check it"; fi

lock: ## Refresh the locks requirements/dev.txt (newest versions allowed) and uv.txt, with hashes
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check $(UV)
	$(BIN)/uv pip compile -q --upgrade --generate-hashes --python-version 3.11 \
		$(addprefix --extra ,$(EXTRAS)) -o requirements/dev.txt pyproject.toml
	echo "$(UV)" | $(BIN)/uv pip compile -q --generate-hashes --python-version 3.11 \
		--custom-compile-command "make lock" -o requirements/uv.txt -

build: $(INSTALLED) ## The sdist and the wheel in dist/ (isolated build), checked by twine
	rm -rf dist
	$(BIN)/python -m build
	$(BIN)/twine check --strict dist/*

bench: $(INSTALLED) ## Random play: compiled and pure-Python kernel, pokerkit, the bare-lookup limit
	$(BIN)/python benchmarks/bench_engine.py

compiled: $(INSTALLED) ## The mypyc-compiled modules beside a copy of src/primero (prints its path)
	$(BIN)/python tools/build_compiled.py

clean: ## Remove build outputs (build/, dist/, *.egg-info)
	rm -rf build dist src/*.egg-info
