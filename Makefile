# The course's front door: `make help` lists every target.
# Everything runs inside .venv, created in the repo on first use with pinned versions.

SHELL := /bin/bash
.DEFAULT_GOAL := help

# The supported Pythons. Each is looked for on PATH, under pyenv and in /usr(/local)/bin, and
# counts only if it runs: pyenv puts a shim for every version it knows on PATH, and a shim
# for a version that is not selected fails ("pyenv: python3.12: command not found").
PYTHON_VERSIONS := 3.11 3.12 3.13
comma := ,
python_for = $(shell for c in python$(1) $(HOME)/.pyenv/versions/$(1).*/bin/python$(1) \
	/usr/local/bin/python$(1) /usr/bin/python$(1); do \
	command -v "$$c" >/dev/null 2>&1 && "$$c" -c 'import sys; sys.exit(sys.version_info[:2] != ($(subst .,$(comma),$(1))))' \
	>/dev/null 2>&1 && { "$$c" -c 'import sys; print(sys.executable)'; break; }; done)
FOUND_VERSIONS := $(foreach v,$(PYTHON_VERSIONS),$(if $(call python_for,$(v)),$(v)))
# The course's venv uses the oldest supported Python found (constraints.txt is locked on it).
PYTHON ?= $(call python_for,$(firstword $(FOUND_VERSIONS)))
MAIN_VERSION := $(if $(PYTHON),$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null))
# `make test` also runs the lessons, the helper package and the exercises on every other
# supported Python it finds, each in a venv of its own (.venv-3.12, .venv-3.13).
# PYTHONS_REQUIRED="3.11 3.12 3.13" (CI) makes a missing one an error instead of a skip.
EXTRA_VERSIONS := $(filter-out $(MAIN_VERSION),$(FOUND_VERSIONS))
MISSING_VERSIONS := $(filter-out $(FOUND_VERSIONS),$(PYTHON_VERSIONS))
PYTHONS_REQUIRED ?=
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.installed
EXTRA_STAMPS := $(foreach v,$(EXTRA_VERSIONS),$(VENV)-$(v)/.installed)
# The venv's bin first on PATH: nbgrader runs `alembic` and `jupyter` from PATH.
RUN := PATH="$(BIN):$$PATH" PYTHONNOUSERSITE=1
# Tests never use a real model, even when a key is set in the environment.
OFFLINE := TOOLFAULTS_MODE=offline
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
# The course's language: `make lab LANG=es` opens the Spanish edition (course/es/), as does a
# Spanish locale (LANG=es_ES.UTF-8); anything else opens the English one. Only that first page
# changes: both editions are always there, each index links the other.
COURSE_LANGUAGE := $(if $(filter es es_% es-%,$(LANG)),es,en)
FIRST_PAGE := $(if $(filter es,$(COURSE_LANGUAGE)),course/es/00_index.ipynb,course/00_index.ipynb)
# What the programs run by `make lab LANG=es` see as their locale: a real one, not "es".
LAB_LOCALE := $(if $(filter es,$(LANG)),C.UTF-8,$(LANG))
PORT ?= 8888
# The one JupyterLab command. `make lab` runs it; the end-to-end tests start JupyterLab
# through `make lab` too, adding only their own port, token and settings folders in LAB_ARGS.
LAB_ARGS ?=
LAB = $(RUN) LANG="$(LAB_LOCALE)" $(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" --port=$(PORT) $(ROOT_FLAG) \
	--LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate \
	$(LAB_ARGS) "$(FIRST_PAGE)"
# The class every grading command works on (autograder/classes.py): `CLASS=../spring-class` on make's
# command line, for this command; else the folder named in class.local (`make use-class CLASS=DIR` writes
# it: name the class once); else the sample class, classes/sample. Passed as AUTOGRADER_CLASS, so that
# nbgrader's own commands and the formgrader (`make lab INSTRUCTOR=1`) see the same class. Only a CLASS=
# given on the command line counts (a CLASS in the shell's environment is not taken for a folder).
ifeq ($(origin CLASS),command line)
export AUTOGRADER_CLASS := $(CLASS)
endif
# Headless Chromium for `make e2e` (Debian/Ubuntu package; Playwright drives it, it downloads nothing).
CHROMIUM ?= /usr/bin/chromium

.PHONY: venvs _venv-deps _venv-packages learner-edition collect export report use-class clean-grades help test-fast pythons setup lab test e2e browser sandbox postgres exercises grade bench clean clean-notebooks check-notebooks

help: ## List every target with one line (default)
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z0-9-]*:.*## / {printf "  make %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# Create venv $(1) with interpreter $(2) and install the pinned dependencies (the slow part: the
# venvs `make test` needs install theirs side by side, see `venvs`), then stamp $(1)/.deps.
define install_deps
	@test -n "$(2)" || { echo "No Python $(PYTHON_VERSIONS) that runs was found; install one, or set PYTHON=/path/to/python3.11"; exit 1; }
	@$(2) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (nbgrader 0.9.6 requires it); set PYTHON=/path/to/python3.11")'
	@test -x $(1)/bin/python || $(2) -m venv $(1)
	$(1)/bin/python -m pip install --quiet --disable-pip-version-check --upgrade "pip>=24"
	$(1)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -c constraints.txt
	@touch $(1)/.deps
endef
# Install the course's own packages (editable) into venv $(1): one venv at a time, because each
# install writes toolfaults.egg-info into the repo.
define install_package
	@$(1)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e . > $(1)/install-package.log 2>&1 \
		|| { cat $(1)/install-package.log; exit 1; }
endef

$(VENV)/.deps: requirements.txt constraints.txt
	$(call install_deps,$(VENV),$(PYTHON))

$(VENV)-%/.deps: requirements.txt constraints.txt
	$(call install_deps,$(VENV)-$*,$(call python_for,$*))

$(STAMP): $(VENV)/.deps pyproject.toml
	$(call install_package,$(VENV))
	@$(BIN)/python -m autograder.labsettings $(VENV) >/dev/null
	@touch $(STAMP)
	@echo "Environment ready in $(VENV) (Python $(MAIN_VERSION))."

$(VENV)-%/.installed: $(VENV)-%/.deps pyproject.toml
	$(call install_package,$(VENV)-$*)
	@touch $@
	@echo "Environment ready in $(VENV)-$* (Python $*)."

# Every venv `make test` and `make e2e` use: their dependencies installed side by side (pip waits on the
# disk and the registry as much as on a core), then the course's packages, one venv at a time.
venvs: ## Install every venv `make test` uses (.venv, and .venv-3.X for each other supported Python), side by side
	@$(MAKE) --no-print-directory -j $(words $(STAMP) $(EXTRA_STAMPS)) _venv-deps
	@$(MAKE) --no-print-directory _venv-packages
_venv-deps: $(VENV)/.deps $(foreach v,$(EXTRA_VERSIONS),$(VENV)-$(v)/.deps)
	@:
_venv-packages: $(STAMP) $(EXTRA_STAMPS)
	@:

setup: $(STAMP) ## Create .venv and install the pinned dependencies (fast when nothing changed)

lab: $(STAMP) ## Start JupyterLab on the course's first page (LANG=es: the Spanish edition; INSTRUCTOR=1: with nbgrader's instructor tools)
	@$(BIN)/python -m autograder.labsettings $(VENV) $(if $(INSTRUCTOR),--instructor,) >/dev/null
	$(LAB)

# The fast tier, for someone changing one notebook or one module: the helper package, notebook
# hygiene and the exercises-in-sync check (tests/test_repo.py), the report and feedback pages
# (tests/reporting), and the grade command on two submissions (tests/smoke). Selected by path:
# FAST_TESTS is the one list; everything else runs in `make test` only.
FAST_TESTS := tests/package tests/test_repo.py tests/test_translations.py tests/reporting tests/smoke tests/exercises/test_rules.py
test-fast: $(STAMP) ## Run the fast tier (under 90 s): helper package, notebook hygiene, exercises in sync, report and feedback, two gradings
	$(RUN) $(OFFLINE) $(BIN)/python -m pytest $(FAST_TESTS) $(PYTEST_ARGS)

# `make test` runs its jobs one per core at a time (TEST_SLOTS=n to choose): one per lane of
# tests/lanes.txt (the browser tests, the sample class on every path, the lessons and LMS, the rest), the
# fairness proofs' two parts, and the lessons, helper package and exercises on each other Python
# (coursetools/testlanes.py). Each job writes its log to $(TEST_LOGS)/; a line is printed as each starts and
# ends, then each one's summary, or the whole log of one that failed.
TEST_LOGS := artifacts/test-logs
TEST_SLOTS ?=
test: pythons venvs ## Run every check: the lanes of tests/lanes.txt, the fairness proofs and the other Pythons, one job per core at a time (logs in artifacts/test-logs/)
	@$(RUN) $(OFFLINE) $(BIN)/python -m coursetools.testlanes --logs $(TEST_LOGS) $(if $(TEST_SLOTS),--slots $(TEST_SLOTS)) \
		$(foreach v,$(EXTRA_VERSIONS),--python $(v)=$(CURDIR)/$(VENV)-$(v)/bin/python) -- $(PYTEST_ARGS)
	@$(if $(MISSING_VERSIONS),echo "Skipped Python $(MISSING_VERSIONS): not found (see README, Supported Pythons).",true)

pythons: ## Say which supported Pythons were found (PYTHONS_REQUIRED="3.11 3.12 3.13": fail if one is missing)
	@$(foreach v,$(PYTHON_VERSIONS),echo "Python $(v): $(or $(call python_for,$(v)),not found)";) true
	@missing="$(filter-out $(FOUND_VERSIONS),$(PYTHONS_REQUIRED))"; if [ -n "$$missing" ]; then \
		echo "Python $$missing required (PYTHONS_REQUIRED) but not found: install it (e.g. pyenv install $$missing)."; exit 1; fi

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

e2e: venvs browser ## Drive JupyterLab (started as `make lab` does) in headless Chromium: lessons, widgets, Validate
	$(RUN) $(OFFLINE) E2E_REQUIRED=1 E2E_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m pytest tests/e2e $(PYTEST_ARGS)

exercises: $(STAMP) ## Regenerate exercises/ from solutions/ with nbgrader
	$(RUN) $(BIN)/autograder release

.PHONY: progress
progress: $(STAMP) ## Run the visible tests of your exercises/ notebooks (scratch copy, offline): each part not started / in progress / done
	$(RUN) $(OFFLINE) $(BIN)/python -m toolfaults.progress exercises $(PROGRESS_ARGS)

use-class: $(STAMP) ## Name the class every grading command works on, once: CLASS=../spring-class (writes class.local); without CLASS, say which it is
	@$(if $(filter command line,$(origin CLASS)),$(BIN)/autograder class use "$(CLASS)",$(BIN)/autograder class show)

grade: $(STAMP) sandbox ## Auto-grade every submission of the class (CLASS=DIR, or make use-class) and write grades, feedback and the report
	$(RUN) $(OFFLINE) $(BIN)/autograder grade $(GRADE_ARGS)

# The edition's language: only LANG given on make's command line counts (`make learner-edition LANG=es`, or
# LANG=en to switch back). LANG in the environment is the shell's locale (es_ES.UTF-8), which must not
# switch an edition; without LANG=, an edition keeps the language it was written in (English when new).
EDITION_LANGUAGE = $(if $(filter command line,$(origin LANG)),$(if $(filter es es_% es-%,$(LANG)),es,$(if $(filter en en_% en-%,$(LANG)),en,$(LANG))))
learner-edition: $(STAMP) ## Write the learner edition (no solutions, no grader) as a git repository: DEST=dir [REPOSITORY=its address] [LANG=es|en]
	@test -n "$(DEST)" || { echo "usage: make learner-edition DEST=../errors-class [REPOSITORY=https://github.com/OWNER/REPO] [LANG=es|en]"; exit 1; }
	$(RUN) $(BIN)/autograder learner-edition "$(DEST)" $(if $(REPOSITORY),--repository "$(REPOSITORY)",) \
		$(if $(EDITION_LANGUAGE),--language "$(EDITION_LANGUAGE)",)

collect: $(STAMP) ## Put an LMS download into the class's submitted/: ASSIGNMENT=id ZIP=download.zip [ROSTER=roster.csv, default: the class's roster.csv] [CLASS=DIR]
	@test -n "$(ASSIGNMENT)" -a -n "$(ZIP)" || { echo "usage: make collect ASSIGNMENT=05_retry_with_backoff ZIP=submissions.zip [ROSTER=roster.csv] [CLASS=../spring-class]"; exit 1; }
	$(RUN) $(BIN)/autograder collect "$(ASSIGNMENT)" "$(ZIP)" $(if $(ROSTER),--roster "$(ROSTER)",) $(COLLECT_ARGS)

export: $(STAMP) ## Grades and feedback for Canvas and Moodle into the class's exports/: [ROSTER=roster.csv, default: the class's roster.csv] [CLASS=DIR] [EXPORT_ARGS="--canvas-id ID=N --db URL ..."]
	$(RUN) $(BIN)/autograder export $(if $(ROSTER),--roster "$(ROSTER)",) $(EXPORT_ARGS)

report: $(STAMP) ## Rebuild the class report from the class's saved results (CLASS=DIR, or make use-class)
	$(RUN) $(BIN)/autograder report

# The benchmark is the course's own tooling (coursetools/, run from this checkout), not a command of the grader.
bench: $(STAMP) ## Print speed figures (lesson run times, grading throughput) measured in one run
	$(RUN) $(OFFLINE) $(BIN)/python -m coursetools.bench

SCHEDULER ?= tcp://127.0.0.1:8786
check-cluster: $(STAMP) ## Check a running Dask cluster (SCHEDULER=tcp://host:8786): each worker imports the grader and starts a sandboxed kernel
	$(RUN) $(BIN)/autograder check-cluster $(SCHEDULER)

.PHONY: translations
translations: $(STAMP) ## Fail, naming each cell, where the Spanish edition is out of step with the English one or uses a word GLOSARIO.md rejects
	$(RUN) $(BIN)/python -m autograder.translations check

check-notebooks: $(STAMP) ## Fail if a committed notebook has outputs or execution counts
	$(RUN) $(BIN)/python -m autograder.notebooks check

clean-notebooks: $(STAMP) ## Strip outputs and execution counts from every notebook (keeps nbgrader metadata)
	$(RUN) $(BIN)/python -m autograder.notebooks clean

clean: ## Remove the venvs and caches (never a class's gradebook, submissions or outputs: see clean-grades)
	rm -rf $(VENV) $(VENV)-3.* .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

clean-grades: $(STAMP) ## Say what grading the class wrote (gradebook with manual scores, outputs, exports); CONFIRM=yes removes it
	@$(BIN)/autograder class clean-grades $(if $(filter yes,$(CONFIRM)),--yes,)
