"""docs/architecture.md matches the code where a test can tell: the modules and names it gives exist, and its
table of the isolation layers is the order they depend in (tests/sandbox/test_structure.py)."""

from __future__ import annotations

from tests.sandbox.test_structure import INSIDE, LAYERS, PACKAGE


ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"


def test_the_modules_the_architecture_names_exist():
    """Each ``name.py`` the tour names is a module of the package (or a file at the repository's root, or a path
    in it), and each ``module.name`` it names in one of the package's modules is there."""
    import importlib
    import re

    text = ARCHITECTURE.read_text(encoding="utf-8")
    files = set(re.findall(r"`([\w/.-]+\.py)`", text))
    assert {"sandbox.py", "jail.py", "forkserver.py", "kernelfork.py", "cleanroom.py", "inside/run.py"} <= files
    missing = [name for name in sorted(files)
               if not ((PACKAGE / name).is_file() or (PACKAGE.parent / name).is_file())]
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"
    named = {(module, name) for module, name in re.findall(r"`(\w+)\.(\w+)`", text)
             if name not in ("py", "json", "csv", "db", "md", "txt", "ipynb", "local")}
    wrong = [f"{module}.{name}" for module, name in sorted(named)
             if (PACKAGE / f"{module}.py").is_file()
             and not hasattr(importlib.import_module(f"autograder.{module}"), name)]
    assert not wrong, f"docs/architecture.md names what these modules do not have: {wrong}"


def test_the_architecture_lists_the_isolation_layers_in_their_order():
    """The tour's table of the isolation layers is :data:`LAYERS`, in that order."""
    import re

    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Isolation", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)\.py` \|", section, re.M)
    assert tuple(rows) == LAYERS, rows


#: Words the isolation table puts in backticks that are not names of the row's module.
NOT_NAMES = {"Popen", "Execute", "toolfaults"}


def test_the_names_in_the_isolation_table_are_in_their_modules():
    """Each function, class or constant a row of the isolation table names is in that row's module."""
    import importlib
    import re

    section = ARCHITECTURE.read_text(encoding="utf-8").split("## Isolation", 1)[1].split("\n## ", 1)[0]
    wrong = []
    for module, text in re.findall(r"^\| `(\w+)\.py` \| (.*) \|$", section, re.M):
        loaded = importlib.import_module(f"autograder.{module}")
        for name in re.findall(r"`(\w+)(?:\(\))?`", text):
            if name not in NOT_NAMES and not hasattr(loaded, name):
                wrong.append(f"{module}.{name}")
    assert not wrong, f"the isolation table names what its modules do not have: {wrong}"


def test_the_table_of_the_code_inside_the_sandbox_is_its_modules_in_their_order():
    """The tour's table of ``inside/`` lists its modules in the order they depend (:data:`INSIDE`), and each name a
    row gives is in that row's module."""
    import importlib
    import re

    section = ARCHITECTURE.read_text(encoding="utf-8").split("**`inside/`** is the code", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `inside/(\w+)\.py` \| (.*) \|$", section, re.M)
    assert tuple(module for module, _ in rows) == INSIDE, rows
    wrong = [f"inside.{module}.{name}" for module, text in rows for name in re.findall(r"`(\w+)`", text)
             if not hasattr(importlib.import_module(f"autograder.inside.{module}"), name)]
    assert not wrong, f"the table of inside/ names what its modules do not have: {wrong}"
