"""The grader's isolation layers depend one way, and stay small enough to read (issue 43).

Two checks read the source, nothing runs:

- **No import cycle among autograder's modules** (nor coursetools', the course's tooling, which the grader
  never imports). An edge ``a -> b`` is any import of module
  ``b`` written in module ``a``: at module level *and* inside a function (a function-level
  import only puts a cycle off until the function runs; it is still a dependency), in any of
  its forms (``from .b import x``, ``from . import b``, ``from autograder.b import x``,
  ``import autograder.b``). Not counted: imports under ``if TYPE_CHECKING:`` (never run), the
  implicit import of a module's parent package (``autograder.lms.collect`` importing
  ``autograder.lms``: every submodule does, and a package may re-export its submodules). The proof catalogue (``catalogue/``) and the learner edition's template
  (``learner_edition/``) are data, not modules of the grader.
- **The code that runs inside the sandbox (``autograder/inside/``) stands alone**: it imports the standard
  library, ipykernel and its own modules, each only those before it (:data:`INSIDE`), and no other module of
  the grader imports it (the grader starts it by its folder, :func:`autograder.forkserver.boot`).
- **No function over 80 lines** (from its ``def`` to its last line, docstring included) in any
  module of the grader or of the course's tooling, with no exception.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "autograder"
#: The course's own tooling (proofs, benchmark): checked for cycles with the grader; the grader never imports it.
TOOLS = PACKAGE.parent / "coursetools"
NOT_MODULES = ("catalogue", "learner_edition")
MAX_LINES = 80
#: The layers, each allowed to import only those before it (and modules outside this list).
LAYERS = ("jail", "forkserver", "kernelfork", "sandbox", "cleanroom")
#: The modules of ``autograder/inside/``, each allowed to import only those before it (docs/architecture.md's table).
INSIDE = ("watch", "checks", "cells", "run", "channel", "wipe", "kernels", "zygote", "main")
#: What the code inside the sandbox may import besides the standard library and itself.
INSIDE_MAY_IMPORT = ("ipykernel",)


def _modules() -> dict[str, Path]:
    """``dotted name -> file`` of every module of the grader and of the course's tooling (``autograder.lms`` for a
    package's ``__init__``)."""
    found = {}
    for path in [*PACKAGE.rglob("*.py"), *TOOLS.rglob("*.py")]:
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if any(part in NOT_MODULES for part in parts):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            ids.update(id(n) for child in node.body for n in ast.walk(child))
    return ids


def _imported(module: str, is_package: bool, node: ast.AST) -> list[str]:
    """The dotted names an import node names (each module, or the module a name is taken from and the name)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        parent = ".".join(base + ([node.module] if node.module else []))
    else:
        parent = node.module or ""
    return [parent] + [f"{parent}.{alias.name}" for alias in node.names]


def import_edges() -> dict[str, set[str]]:
    """``module -> the package's modules it imports`` (see the module's docstring for what counts)."""
    modules = _modules()
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_only(tree)
        targets: set[str] = set()
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or id(node) in skipped:
                continue
            for dotted in _imported(name, path.name == "__init__.py", node):
                if dotted in modules and dotted != name and not name.startswith(dotted + "."):
                    targets.add(dotted)
        edges[name] = targets
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one importing itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == node:
                    break
            if len(component) > 1 or node in edges.get(node, ()):
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def function_lengths(path: Path) -> dict[str, int]:
    """``qualified name -> lines`` of every function in ``path`` (methods and nested functions too)."""
    lengths: dict[str, int] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lengths[prefix + child.name] = child.end_lineno - child.lineno + 1
                walk(child, f"{prefix}{child.name}.<locals>.")
            elif isinstance(child, ast.ClassDef):
                walk(child, f"{prefix}{child.name}.")
            else:
                walk(child, prefix)

    walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return lengths


def _source(module: str) -> Path:
    """The file of a module (its dotted name): the grader's, or the course tooling's."""
    return _modules()[module]


def test_autograder_has_no_import_cycle():
    found = cycles(import_edges())
    assert not found, f"import cycles among autograder's modules (module- and function-level imports): {found}"


def test_the_isolation_layers_depend_one_way():
    """jail <- forkserver <- kernelfork <- sandbox <- cleanroom: no layer imports one after it."""
    edges = import_edges()
    for position, layer in enumerate(LAYERS):
        later = {f"autograder.{name}" for name in LAYERS[position + 1:]}
        assert not edges[f"autograder.{layer}"] & later, (layer, sorted(edges[f"autograder.{layer}"] & later))


def test_the_check_sees_a_cycle_made_in_a_function():
    """The walk counts function-level imports, and a cycle through them is found."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    tree = ast.parse("def f():\n    from .sandbox import x\n")
    node = tree.body[0].body[0]
    assert "autograder.sandbox" in _imported("autograder.cleanroom", False, node)
    assert _imported("autograder.lms.collect", False, ast.parse("from .. import jail").body[0])[1] == "autograder.jail"
    assert _imported("autograder.lms", True, ast.parse("from . import roster").body[0])[1] == "autograder.lms.roster"


def _inside_imports() -> dict[str, list[str]]:
    """``module -> every name it imports`` for each module of ``autograder/inside/`` (function-level imports too)."""
    found = {}
    for path in sorted((PACKAGE / "inside").glob("*.py")):
        name = "autograder.inside" + ("" if path.stem == "__init__" else f".{path.stem}")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found[name] = [dotted for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                       for dotted in _imported(name, path.stem == "__init__", node)]
    return found


def test_the_code_inside_the_sandbox_imports_the_standard_library_and_itself_only():
    """Only ``autograder/inside/`` is visible in the sandbox: the rest of the grader, toolfaults or a third-party
    package imported there would fail, or be a way out of it."""
    import sys

    found = _inside_imports()
    assert set(found) == {"autograder.inside", *(f"autograder.inside.{m}" for m in INSIDE)}, sorted(found)
    wrong = {module: [n for n in names if not n.startswith("autograder.inside")
                      and n.split(".")[0] not in (*sys.stdlib_module_names, *INSIDE_MAY_IMPORT)]
             for module, names in found.items()}
    assert not {m: n for m, n in wrong.items() if n}, wrong


def test_the_code_inside_the_sandbox_depends_one_way():
    """watch <- checks <- cells <- run, channel, wipe <- kernels <- zygote <- main: none imports one after it."""
    found = _inside_imports()
    for position, module in enumerate(INSIDE):
        later = {f"autograder.inside.{name}" for name in INSIDE[position:]}
        imported = {".".join(n.split(".")[:3]) for n in found[f"autograder.inside.{module}"]}
        assert not imported & later, (module, sorted(imported & later))


def test_no_other_module_of_the_grader_imports_the_code_inside_the_sandbox():
    """The grader starts it by its folder (forkserver.boot), never imports it: one copy of it runs, in the sandbox."""
    wrong = {name: sorted(t for t in targets if t.startswith("autograder.inside"))
             for name, targets in import_edges().items() if not name.startswith("autograder.inside")}
    assert not {n: t for n, t in wrong.items() if t}, wrong


def test_the_inside_checks_see_a_wrong_import():
    """The checks above are not vacuous: a relative import reaches its module, and toolfaults is not allowed."""
    assert "autograder.inside.watch" in _imported("autograder.inside.checks", False,
                                                  ast.parse("from .watch import MISSING").body[0])
    assert "toolfaults" not in __import__("sys").stdlib_module_names


@pytest.mark.parametrize("module", sorted(_modules()))
def test_no_function_is_over_80_lines(module):
    lengths = function_lengths(_source(module))
    long = {name: lines for name, lines in lengths.items() if lines > MAX_LINES}
    assert not long, f"functions over {MAX_LINES} lines in {_source(module)}: {long}"


def test_the_grader_never_imports_the_course_tooling():
    """The wheel ships ``autograder`` without ``coursetools``: no module of the grader imports it, at any level."""
    edges = import_edges()
    assert any(name.startswith("coursetools.") for name in edges), "the walk does not see coursetools/"
    wrong = {name: sorted(t for t in targets if t.startswith("coursetools"))
             for name, targets in edges.items() if name.startswith("autograder")}
    wrong = {name: found for name, found in wrong.items() if found}
    assert not wrong, f"grader modules that import the course's tooling: {wrong}"

