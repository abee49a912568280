"""Every module of the shipped grader has tests of its own: some test file imports it by name, or runs it
(``python -m autograder.x``, or its file ``x.py`` for the code the sandbox runs as text).

A module added to ``autograder/`` without a test that names it fails here, with the list; the test
folders mirror the package's areas (``tests/grading``: the pipeline and its stages, ``tests/sandbox``:
isolation and settings, ``tests/tricks``: the cross-checks, ``tests/lms``: ``autograder/lms`` and the
class folders, ``tests/reporting``: results, feedback and the report, ``tests/cluster``: Dask).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "autograder"


def modules() -> set[str]:
    """``autograder.x`` and ``autograder.lms.y`` for every module of the package (packages' ``__init__`` aside)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        data = {"learner_edition", "templates"} & set(path.relative_to(PACKAGE).parts)  # files it writes, not code
        if path.name != "__init__.py" and not data:
            found.add(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


def imported_by_tests() -> dict[str, set[str]]:
    """Which test files import each ``autograder`` module (``import autograder.x``, ``from autograder import x``,
    ``from autograder.x import ...``)."""
    names: dict[str, set[str]] = {}
    for path in (ROOT / "tests").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                got = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                got = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for name in got:
                names.setdefault(name, set()).add(str(path.relative_to(ROOT)))
        for name in re.findall(r"-m (autograder[.\w]+)|autograder/([\w/]+)\.py", path.read_text(encoding="utf-8")):
            module = name[0] or "autograder." + name[1].replace("/", ".")
            names.setdefault(module, set()).add(str(path.relative_to(ROOT)))
    return names


def test_every_module_of_the_grader_is_imported_by_a_test():
    imported = imported_by_tests()
    untested = sorted(name for name in modules() if name not in imported)
    assert not untested, f"modules of the grader no test imports by name: {untested}"


def test_the_check_sees_a_module_no_test_names(tmp_path):
    """The reader above is not vacuous: a name nothing imports is missing from it, the pipeline is in it."""
    imported = imported_by_tests()
    assert "autograder.pipeline" in imported and "autograder.no_such_module" not in imported
    assert "autograder.pipeline" in modules() and "autograder.lms.roster" in modules()
