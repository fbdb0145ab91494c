# Everyday commands (CONTRIBUTING.md). Each uses the project's .venv (see "Set-up").
VENV ?= .venv/bin

.PHONY: check test bench compiled

# Lint, types, the layers (import-linter), and the web client's types and lint when
# tests/js/node_modules is there (npm ci --prefix tests/js).
check:
	$(VENV)/ruff check src tests benchmarks tools setup.py
	$(VENV)/mypy
	$(VENV)/lint-imports
	@if [ -d tests/js/node_modules ]; then \
		npm --prefix tests/js run --silent check; \
	else echo "web client: npm ci --prefix tests/js to check it"; fi

# The README's test command (mypy runs as one of the tests: tests/project/test_types.py).
test:
	$(VENV)/ruff check src tests benchmarks tools setup.py
	$(VENV)/lint-imports
	$(VENV)/pytest -n 4

# Random play: compiled and pure-Python kernel, pokerkit, the bare-lookup limit.
bench:
	$(VENV)/python benchmarks/bench_engine.py

# The mypyc-compiled modules beside a copy of src/primero (prints its path).
compiled:
	$(VENV)/python tools/build_compiled.py
