# paiju — make run | make test | make test-slow | make bench | make lint | make clean
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# benchmarks/ may not exist yet in a fresh clone
LINT_PATHS := $(wildcard src tests benchmarks examples)
# the browser client: oxlint (a wheel of the dev extra) lints it, TypeScript's checker
# (tsc, from Debian's node-typescript: .ci/run installs it) checks its JSDoc types
WEB := src/paiju/web
NEED_TSC := command -v tsc >/dev/null 2>&1 || { echo "tsc not found: the type check of $(WEB) needs TypeScript (Debian: apt-get install node-typescript)" >&2; exit 1; }

export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PIP_NO_INPUT := 1

.PHONY: run test test-slow lint fmt bench clean install

install: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# re-install whenever pyproject.toml changes
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/paiju serve

test: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/oxlint -c .oxlintrc.json --deny-warnings $(WEB)
	@$(NEED_TSC)
	tsc -p tsconfig.json
	$(BIN)/pytest --doctest-modules --ignore=src/paiju/server/store/migrations -m "not slow" src/paiju tests

# the long scenarios marked slow (.ci/run runs them after make test)
test-slow: $(STAMP)
	$(BIN)/pytest -m slow tests

lint: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/oxlint -c .oxlintrc.json --deny-warnings $(WEB)
	@$(NEED_TSC)
	tsc -p tsconfig.json

fmt: $(STAMP)
	$(BIN)/ruff check --fix $(LINT_PATHS)
	$(BIN)/ruff format $(LINT_PATHS)

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .mypy_cache .ruff_cache .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
