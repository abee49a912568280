"""Importing the grader changes nothing global (issue 43).

A fresh Python imports every module of ``autograder`` and compares, before and after, what a module
could change for the whole process: ``os.environ``, ``sys.path``, ``warnings.filters``, the ``atexit``
callbacks, the loggers' levels and handlers, the signal handlers, and the modules marked missing in
``sys.modules`` (the jsonschema speed-up of ``toolfaults/startup.py``). Such changes are made by
:func:`autograder.process.prepare` and its parts, called by the entry points that need them (the CLI,
a Dask worker, the Course constructor...), never by an import.

The third-party modules the grader imports at module level are imported first, before the "before"
snapshot: what *they* change at import (Dask's own atexit hooks, for one) is not the grader's doing.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "autograder"
NOT_MODULES = ("catalogue", "learner_edition")
#: The one module whose import prepares the process, for the launchers that can only import (autograder/boot.py):
#: not imported by the probe, and imported by no module of the package (:func:`test_nothing_imports_the_boot_module`).
BOOT = "autograder.boot"

#: Runs in the fresh Python: argv[1] is a JSON list of third-party modules, argv[2] of the grader's.
PROBE = r'''
import atexit, json, logging, os, signal, sys, warnings, importlib

def snapshot():
    loggers = {"": (logging.root.level, len(logging.root.handlers))}
    for name, logger in list(logging.root.manager.loggerDict.items()):
        if isinstance(logger, logging.Logger):
            loggers[name] = (logger.level, len(logger.handlers))
    handlers = {}
    for sig in signal.valid_signals():
        try:
            handlers[int(sig)] = repr(signal.getsignal(sig))
        except (OSError, ValueError):
            pass
    return {"environ": dict(os.environ), "path": list(sys.path),
            "warnings": [repr(f) for f in warnings.filters], "atexit": atexit._ncallbacks(),
            "loggers": loggers, "disabled": logging.root.manager.disable, "signals": handlers,
            "missing": sorted(k for k, v in sys.modules.items() if v is None and "." not in k)}

third, own = json.loads(sys.argv[1]), json.loads(sys.argv[2])
for name in third:
    try:
        importlib.import_module(name)
    except Exception:
        pass
before = snapshot()
for name in own:
    importlib.import_module(name)
after = snapshot()
# a logger made at import (getLogger) is fine at NOTSET without handlers: compare with that
for name in after["loggers"]:
    before["loggers"].setdefault(name, (0, 0))
print(json.dumps({"before": before, "after": after}))
'''


def grader_modules() -> list[str]:
    """Every module of the package but :data:`BOOT`, by dotted name (the scripts it runs as text included)."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if any(part in NOT_MODULES for part in parts):
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return [name for name in names if name != BOOT]


def third_party_imports() -> list[str]:
    """The modules outside the package that its modules import when imported (not in functions)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and not child.level and child.module:
                found.add(child.module)
                found.update(f"{child.module}.{alias.name}" for alias in child.names)
            visit(child)

    for path in PACKAGE.rglob("*.py"):
        if not any(part in NOT_MODULES for part in path.relative_to(PACKAGE).parts):
            visit(ast.parse(path.read_text(encoding="utf-8")))
    return sorted(name for name in found if name.split(".")[0] not in ("autograder", "__future__"))


def probe(third: list[str]) -> dict:
    """Before and after importing every grader module in a fresh Python, ``third`` imported first."""
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(third), json.dumps(grader_modules())],
                          capture_output=True, text=True, timeout=300, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def snapshots() -> dict:
    return probe(third_party_imports())


def test_every_module_is_imported():
    """The probe sees the modules named in the issue (a listing that missed them would prove nothing)."""
    names = grader_modules()
    for name in ("autograder", "autograder.engine", "autograder.course", "autograder.forkserver",
                 "autograder.cli", "autograder.worker", "autograder.lms.export"):
        assert name in names


@pytest.mark.parametrize("what", ["environ", "path", "warnings", "atexit", "loggers", "disabled", "signals"])
def test_import_changes_nothing_global(snapshots, what):
    before, after = snapshots["before"][what], snapshots["after"][what]
    if isinstance(before, dict):
        changed = {key: (before.get(key), after.get(key)) for key in set(before) | set(after)
                   if before.get(key) != after.get(key)}
        assert not changed, f"importing the grader changed {what}: {changed}"
    else:
        assert before == after, f"importing the grader changed {what}: {before!r} -> {after!r}"


def test_import_marks_no_module_missing():
    """No module is put in ``sys.modules`` as missing (None): with nothing imported first, as in a new
    process, jsonschema would then skip its ``iri`` checkers for everyone who imported the grader."""
    snapshot = probe([])
    assert snapshot["before"]["missing"] == snapshot["after"]["missing"]


def test_nothing_imports_the_boot_module():
    """Only a launcher names :data:`BOOT` (as text: the Dask workers' preload list); no import statement does."""
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                named = [alias.name for alias in node.names] + [getattr(node, "module", None) or ""]
                assert "boot" not in {name.split(".")[-1] for name in named}, f"{path} imports {BOOT}"


def test_the_boot_module_and_python_m_prepare_the_process():
    """What the entry points without a function to call get: ``import autograder.boot`` (a Dask worker's preload)
    and ``python -m autograder.<module>`` skip jsonschema's slow start; a plain ``import autograder`` does not."""
    check = "import sys; print(sys.modules.get('rfc3987_syntax', 'absent'))"
    runs = {"boot": [sys.executable, "-c", f"import autograder.boot; {check}"],
            "plain": [sys.executable, "-c", f"import autograder; {check}"],
            # as `python -m autograder.X` imports the package: with sys.argv[0] == "-m" (Python's documented way)
            "-m": [sys.executable, "-c", f"import sys; sys.argv[0] = '-m'; import autograder; {check}"]}
    seen = {name: subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=PACKAGE.parent).stdout.strip()
            for name, argv in runs.items()}
    assert seen == {"boot": "None", "plain": "absent", "-m": "None"}
