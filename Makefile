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

.PHONY: help setup lab test exercises grade bench clean clean-notebooks check-notebooks

help: ## List every target with one line (default)
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  make %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): requirements.txt constraints.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (nbgrader 0.9.6 requires it); set PYTHON=/path/to/python3.11")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -c constraints.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $(STAMP)
	@echo "Environment ready in $(VENV)."

setup: $(STAMP) ## Create .venv and install the pinned dependencies (fast when nothing changed)

lab: $(STAMP) ## Start JupyterLab on the course's first page
	$(RUN) $(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" --port=$(PORT) $(ROOT_FLAG) \
		--LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate \
		"$(FIRST_PAGE)"

test: $(STAMP) ## Run every check: package, notebooks, exercises, grader fairness, lessons, grading
	$(RUN) $(OFFLINE) $(BIN)/python -m pytest $(PYTEST_ARGS)

exercises: $(STAMP) ## Regenerate exercises/ from solutions/ with nbgrader
	$(RUN) $(BIN)/python -m autograder.release

grade: $(STAMP) ## Auto-grade every submission in autograder/submitted and write grades, feedback and the report
	$(RUN) $(OFFLINE) $(BIN)/python -m autograder.grade $(GRADE_ARGS)

bench: $(STAMP) ## Print speed figures (lesson run times, grading throughput) measured in one run
	$(RUN) $(OFFLINE) $(BIN)/python -m autograder.bench

check-notebooks: $(STAMP) ## Fail if a committed notebook has outputs or execution counts
	$(RUN) $(BIN)/python -m autograder.notebooks check

clean-notebooks: $(STAMP) ## Strip outputs and execution counts from every notebook (keeps nbgrader metadata)
	$(RUN) $(BIN)/python -m autograder.notebooks clean

clean: ## Remove the venv, caches and grading by-products (keeps sample submissions)
	rm -rf $(VENV) .pytest_cache autograder/gradebook.db autograder/autograded autograder/feedback autograder/reports
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
