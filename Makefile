# storbench — `make up` runs the product on its embedded default, `make test` runs every test.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
PYTEST := $(VENV)/bin/pytest
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
export npm_config_audit := false
export npm_config_fund := false
export npm_config_update_notifier := false

FRONTEND_SOURCES := $(shell find frontend/src frontend/public -type f 2>/dev/null) \
	$(wildcard frontend/index.html frontend/vite.config.ts frontend/build-checks.ts frontend/bundle-budget.ts frontend/tsconfig*.json)

.PHONY: help up test lint api-types test-python test-fio test-protocol test-backend test-worker test-cli test-frontend test-e2e \
	deps python-deps frontend-deps frontend-build e2e-deps system-packages test-packages services bench prod-check clean

help:
	@echo "make up     run storbench locally (SQLite, embedded broker, local worker) on http://127.0.0.1:8000"
	@echo "make up REMOTE=1  the same, listening beyond loopback with a Redis broker other hosts can join"
	@echo "make test   run every test suite (starts PostgreSQL and Redis when none are running)"
	@echo "make lint   ruff, mypy, size and TypeScript checks"
	@echo "make prod-check  the production stack (docker-compose.yml) for real, with faults (needs root, ~10 min)"
	@echo "make bench  measure storbench itself (slow: about an hour); report in bench/results/latest.md"
	@echo "make api-types  regenerate the SPA's API types and fixtures from the API (after changing its schema)"

# ---- installation ------------------------------------------------------------------------
system-packages:
	@scripts/bootstrap.sh

test-packages:
	@scripts/bootstrap.sh test

$(VENV)/.installed: requirements.lock fio/pyproject.toml protocol/pyproject.toml worker/pyproject.toml backend/pyproject.toml cli/pyproject.toml
	@echo "==> installing Python packages into $(VENV)"
	@test -x $(PY) || python3 -m venv $(VENV)
	@$(PY) -m pip install -q --disable-pip-version-check -r requirements.lock
	@$(PY) -m pip install -q --disable-pip-version-check --no-deps -e fio -e protocol -e worker -e backend -e cli
	@touch $@

python-deps: system-packages $(VENV)/.installed

frontend/node_modules/.installed: frontend/package-lock.json
	@echo "==> installing frontend packages (npm ci)"
	@cd frontend && npm ci --silent
	@touch $@

frontend-deps: system-packages frontend/node_modules/.installed

frontend/dist/index.html: frontend/node_modules/.installed $(FRONTEND_SOURCES)
	@echo "==> building the web UI"
	@cd frontend && npm run --silent build
	@touch $@

frontend-build: frontend-deps frontend/dist/index.html

e2e/node_modules/.installed: e2e/package-lock.json
	@echo "==> installing end-to-end test packages (npm ci)"
	@cd e2e && npm ci --silent
	@touch $@

e2e-deps: test-packages e2e/node_modules/.installed

deps: python-deps frontend-build

services: test-packages
	@scripts/services.sh postgres redis

# ---- run -----------------------------------------------------------------------------------
# `make up REMOTE=1`: listen beyond loopback with a Redis broker other hosts can reach (see README).
up: deps
	@$(if $(filter-out 0,$(REMOTE)),scripts/bootstrap.sh remote,true)
	@$(if $(REMOTE),STORBENCH_REMOTE=$(REMOTE)) $(PY) scripts/up.py

# ---- checks --------------------------------------------------------------------------------
lint: python-deps frontend-deps e2e-deps
	@echo "==> ruff"
	@$(VENV)/bin/ruff check fio protocol worker backend cli migrations scripts bench
	@$(VENV)/bin/ruff format --check fio protocol worker backend cli migrations scripts bench
	@echo "==> mypy (strict)"
	@$(VENV)/bin/mypy
	@echo "==> sizes: modules at most 400 lines, Python functions at most 80"
	@$(PY) scripts/check_sizes.py
	@echo "==> API contract: the SPA's generated API types and fixtures match the API"
	@$(PY) scripts/openapi.py --check
	@echo "==> TypeScript and ESLint"
	@cd frontend && npm run --silent lint
	@cd e2e && npx tsc -p tsconfig.json
	@echo "==> docker-compose.yml"
	@scripts/check-compose.sh

# The SPA's API types (frontend/src/lib/api/schema.d.ts) and response fixtures, from the API's OpenAPI
# schema and answers (same as `cd frontend && npm run gen:api`).
api-types: python-deps frontend-deps
	@$(PY) scripts/openapi.py

test-fio: python-deps
	@echo "==> fio package tests"
	@cd fio && ../$(PYTEST) -q

test-protocol: python-deps
	@echo "==> worker protocol tests"
	@cd protocol && ../$(PYTEST) -q

test-worker: python-deps
	@echo "==> worker tests"
	@cd worker && ../$(PYTEST) -q

test-cli: python-deps services
	@echo "==> command-line client tests (against a running service)"
	@cd cli && ../$(PYTEST) -q

# The integration tests mostly wait on real worker and fio processes: they run alongside the rest,
# in their own database and broker database, and their report follows the rest's.
test-backend: python-deps services
	@echo "==> backend tests (PostgreSQL, Redis, real worker processes, real fio)"
	@mkdir -p var; \
	  (cd backend && STORBENCH_TEST_DB=$${STORBENCH_TEST_DB:-storbench_test}_it \
	    STORBENCH_TEST_REDIS_URL=$${STORBENCH_TEST_REDIS:-redis://127.0.0.1:6379}/8 \
	    ../$(PYTEST) -q tests/integration >../var/backend-integration-tests.log 2>&1) & integration=$$!; \
	  rest=0; (cd backend && ../$(PYTEST) -q --ignore=tests/integration) || rest=$$?; \
	  status=0; wait $$integration || status=$$?; \
	  echo "==> backend integration tests (ran alongside)"; cat var/backend-integration-tests.log; \
	  test $$rest = 0 && test $$status = 0

test-frontend: frontend-deps
	@echo "==> frontend unit tests"
	@cd frontend && npm test --silent

test-e2e: deps e2e-deps services
	@echo "==> end-to-end tests (Playwright, Debian Chromium)"
	@cd e2e && npx playwright test || { \
	  echo "==> what the failed journeys' pages and the API showed"; cat test-results/diagnosis.txt 2>/dev/null; exit 1; }

test: lint test-fio test-protocol test-worker test-backend test-cli test-frontend test-e2e
	@echo "==> all test suites passed"

# Every bench of storbench itself, one after the other; their figures, targets and verdicts, the machine
# and how each was measured go to bench/results/latest.md (bench/make_report.py; outputs in var/bench/).
# BENCH_ARGS passes options on, e.g. BENCH_ARGS="--only load,faults" or "--skip history_scale".
bench: python-deps services
	@cd frontend && npm run --silent build >/dev/null
	@$(PY) bench/make_report.py $(BENCH_ARGS)
