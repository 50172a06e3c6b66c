# The two commands: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT
# The PostgreSQL run of the suite; pytest-django creates and drops test_<name> beside it.
TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test

.PHONY: run test test-sqlite test-postgres lint lock prepare install bench backup restore createsuperuser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Installed from the lock files: every package, direct or not, at the version the tests ran with.
# `make lock` regenerates them (uv) after a change to the dependencies in pyproject.toml.
$(VENV)/.installed-run: requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install -q -r requirements.lock
	touch $@

$(VENV)/.installed-test: requirements-test.lock | $(BIN)/python
	$(BIN)/python -m pip install -q -r requirements-test.lock
	touch $@ $(VENV)/.installed-run

lock: $(VENV)/.installed-test
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 -q --custom-compile-command "make lock" -o requirements.lock
	$(BIN)/uv pip compile pyproject.toml --extra test --python-version 3.11 -q --custom-compile-command "make lock" -o requirements-test.lock

install: $(VENV)/.installed-run

# Migrate, collect static files and load the demo property (idempotent).
prepare: $(VENV)/.installed-run
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py setup_roles

# Lint (ruff: pyflakes, pycodestyle, import order, bugbear, pyupgrade, Django conventions, complexity), format (ruff
# format), types (mypy on the pricing engine, the services, payments, the API and config/; strict on the pricing engine
# and the services) and no model change without its migration. Part of `make test`; .pre-commit-config.yaml runs the same.
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python manage.py makemigrations --check --dry-run

# The real service: web (granian: site + API + MCP + A2A on one port), Celery worker and beat.
run: prepare
	exec $(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

# The first owner account, in the database `make run` uses: DATA_DIR and DATABASE_URL are read from the
# environment (or `make createsuperuser DATA_DIR=...`) as `make run` reads them, and the database is migrated
# first. Asks for the username, email and password; with DJANGO_SUPERUSER_USERNAME, DJANGO_SUPERUSER_EMAIL and
# DJANGO_SUPERUSER_PASSWORD set it runs without asking (Django's --noinput).
createsuperuser: $(VENV)/.installed-run
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py createsuperuser $(if $(DJANGO_SUPERUSER_PASSWORD),--noinput)

# axe-core for the accessibility tests, from the npm registry into the virtualenv (not committed).
AXE_VERSION := 4.14.1
$(VENV)/axe-core/axe.min.js: | $(BIN)/python
	mkdir -p $(VENV)/axe-core
	cd $(VENV)/axe-core && npm pack --silent axe-core@$(AXE_VERSION) >/dev/null && tar -xzf axe-core-$(AXE_VERSION).tgz --strip-components=1 package/axe.min.js && rm axe-core-$(AXE_VERSION).tgz

test: $(VENV)/.installed-test $(VENV)/axe-core/axe.min.js
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-sqlite
	$(MAKE) --no-print-directory test-postgres

# In parallel (pytest-xdist): one worker per core (at most 4), each test file on one worker, so a
# module's live server and fixtures stay together. Each worker has its own DATA_DIR, STATIC_ROOT and
# test database (tests/parallel.py). PYTEST_WORKERS=0 runs the suite in one process.
PYTEST_WORKERS ?= auto
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --maxprocesses 4 --dist loadfile

test-sqlite: $(VENV)/.installed-test
	env -u DATABASE_URL $(BIN)/python -m pytest $(PYTEST_PARALLEL)

test-postgres: $(VENV)/.installed-test
	@if $(BIN)/python -c 'import psycopg, sys; psycopg.connect(sys.argv[1].replace("postgres://", "postgresql://"), connect_timeout=3).close()' "$(TEST_POSTGRES_URL)" 2>/dev/null; then \
		DATABASE_URL=$(TEST_POSTGRES_URL) $(BIN)/python -m pytest $(PYTEST_PARALLEL); \
	elif [ "$(CI)" = "true" ]; then \
		echo "PostgreSQL at $(TEST_POSTGRES_URL) is not reachable, and CI never skips it: the lock-control race, the exclusion constraint and the pool tests run only there. Start PostgreSQL or set TEST_POSTGRES_URL." >&2; exit 1; \
	else echo "PostgreSQL at $(TEST_POSTGRES_URL) is not reachable: the PostgreSQL run is skipped (under CI=true this fails)."; fi

# The service beside plain Django under gunicorn (gthread) and granian (WSGI), under wrk, SQLite and PostgreSQL, and the
# channel manager's delays against a local Channex test double (docs/performance.md).
bench: $(VENV)/.installed-run
	@command -v wrk >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk)
	$(BIN)/python manage.py bench

# Backups of the database and uploads under DATA_DIR/backups (docs/operations.md).
backup: $(VENV)/.installed-run
	$(BIN)/python manage.py backup

restore: $(VENV)/.installed-run
	@test -n "$(BACKUP)" || (echo "usage: make restore BACKUP=var/backups/<timestamp>"; exit 2)
	$(BIN)/python manage.py restore "$(BACKUP)"
