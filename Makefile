# The course's front door: `make help` lists every target.
# Everything runs inside .venv, created in the repo on first use with pinned versions.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3.12 || command -v python3.13 || command -v python3)
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.installed
# The venv's bin first on PATH: nbgrader runs `alembic` and `jupyter` from PATH.
RUN := PATH="$(BIN):$$PATH" PYTHONNOUSERSITE=1
# Tests never use a real model, even when a key is set in the environment.
OFFLINE := TOOLFAULTS_MODE=offline
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
FIRST_PAGE := course/00_index.ipynb
PORT ?= 8888
# The one JupyterLab command. `make lab` runs it; the end-to-end tests start JupyterLab
# through `make lab` too, adding only their own port, token and settings folders in LAB_ARGS.
LAB_ARGS ?=
LAB = $(RUN) $(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" --port=$(PORT) $(ROOT_FLAG) \
	--LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate \
	$(LAB_ARGS) "$(FIRST_PAGE)"
# Headless Chromium for `make e2e` (Debian/Ubuntu package; Playwright drives it, it downloads nothing).
CHROMIUM ?= /usr/bin/chromium

.PHONY: help setup lab test e2e browser sandbox postgres exercises grade bench clean clean-notebooks check-notebooks

help: ## List every target with one line (default)
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z0-9-]*:.*## / {printf "  make %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): requirements.txt constraints.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (nbgrader 0.9.6 requires it); set PYTHON=/path/to/python3.11")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -c constraints.txt
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e . > $(VENV)/install-package.log 2>&1 \
		|| { cat $(VENV)/install-package.log; exit 1; }
	@$(BIN)/python -m autograder.labsettings $(VENV) >/dev/null
	@touch $(STAMP)
	@echo "Environment ready in $(VENV)."

setup: $(STAMP) ## Create .venv and install the pinned dependencies (fast when nothing changed)

lab: $(STAMP) ## Start JupyterLab on the course's first page (INSTRUCTOR=1: with nbgrader's instructor tools)
	@$(BIN)/python -m autograder.labsettings $(VENV) $(if $(INSTRUCTOR),--instructor,) >/dev/null
	$(LAB)

test: $(STAMP) ## Run every check: package, notebooks, exercises, grader fairness, lessons, grading, browser (if Chromium is installed)
	$(RUN) $(OFFLINE) $(BIN)/python -m pytest $(PYTEST_ARGS)

browser: ## Install headless Chromium for the browser tests when it is missing (apt-get; root or sudo)
	@if [ -x "$(CHROMIUM)" ] && [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then \
		echo "Chromium found: $(CHROMIUM)"; \
	elif command -v apt-get >/dev/null; then \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-dejavu-core; \
	else \
		echo "Install Chromium (at $(CHROMIUM), or set CHROMIUM=/path) to run the browser tests."; exit 1; \
	fi

sandbox: ## Install bubblewrap, the grading sandbox for students' code, when it is missing (apt-get; root or sudo)
	@if command -v bwrap >/dev/null && command -v prlimit >/dev/null; then \
		echo "Sandbox tools found: $$(command -v bwrap)"; \
	elif command -v apt-get >/dev/null && { [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null; }; then \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends bubblewrap util-linux; \
	else \
		echo "WARNING: bubblewrap (bwrap) is not installed and cannot be installed here: grading will refuse to run"; \
		echo "students' code unsandboxed unless you pass GRADE_ARGS=--unsandboxed (see docs/instructors.md)."; \
	fi

postgres: ## Install PostgreSQL for the PostgreSQL-gradebook tests when it is missing (apt-get; root or sudo)
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo "PostgreSQL found: $$(ls -d /usr/lib/postgresql/*/bin | head -1)"; \
	elif command -v apt-get >/dev/null; then \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends postgresql; \
	else \
		echo "Install PostgreSQL (server binaries: initdb, pg_ctl) to run the PostgreSQL tests."; exit 1; \
	fi

e2e: $(STAMP) browser ## Drive JupyterLab (started as `make lab` does) in headless Chromium: lessons, widgets, Validate
	$(RUN) $(OFFLINE) E2E_REQUIRED=1 E2E_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m pytest tests/e2e $(PYTEST_ARGS)

exercises: $(STAMP) ## Regenerate exercises/ from solutions/ with nbgrader
	$(RUN) $(BIN)/python -m autograder.release

grade: $(STAMP) sandbox ## Auto-grade every submission in autograder/submitted and write grades, feedback and the report
	$(RUN) $(OFFLINE) $(BIN)/python -m autograder.grade $(GRADE_ARGS)

bench: $(STAMP) ## Print speed figures (lesson run times, grading throughput) measured in one run
	$(RUN) $(OFFLINE) $(BIN)/python -m autograder.bench

check-notebooks: $(STAMP) ## Fail if a committed notebook has outputs or execution counts
	$(RUN) $(BIN)/python -m autograder.notebooks check

clean-notebooks: $(STAMP) ## Strip outputs and execution counts from every notebook (keeps nbgrader metadata)
	$(RUN) $(BIN)/python -m autograder.notebooks clean

clean: ## Remove the venv, caches and grading by-products (keeps sample submissions)
	rm -rf $(VENV) .pytest_cache autograder/gradebook.db autograder/grades.csv autograder/autograded autograder/feedback autograder/reports
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
