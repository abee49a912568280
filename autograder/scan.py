"""Flag submissions whose code reaches for what could change how the tests run.

A second line behind :mod:`autograder.cleanroom`: it reads the submission's own code
cells (never the tests) and *flags* what an honest answer to these exercises has no
reason to touch: IPython's kernel machinery, the interpreter's tracing hooks, the
builtins, stack frames and the garbage collector, ``ctypes``, the import system, the
code of functions, the modules and helpers the tests use, code built from text.

A flag never changes a score: obfuscation defeats any scan, and an honest answer may
look odd. It marks the submission "needs attention" with the cell and line to read;
the feedback names the kind of thing found, not how it could be used.

    flags = scan_notebook(nb)       # [Flag(cell, line, category), ...]
    report(result, flags)           # adds one "needs attention" problem
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass
from typing import Any

from . import problems, pyast

SUSPICIOUS = problems.SUSPICIOUS  # the problem kind this module adds
# What each category means, in the words the feedback uses: problems.SCAN_CATEGORIES.

# IPython magics an honest notebook may use (as IPython rewrites them: run_line_magic("time", ...)).
BENIGN_MAGICS = {"time", "timeit", "matplotlib", "pip", "conda", "who", "whos", "pwd", "ls", "history",
                 "capture", "prun", "env", "autoreload", "load_ext", "writefile", "precision", "pprint"}
MAGIC_CALLS = {"run_line_magic", "run_cell_magic", "system", "getoutput"}

NAMES = {  # attribute or name -> category
    "settrace": "tracing", "setprofile": "tracing", "settrace_all_threads": "tracing",
    "setprofile_all_threads": "tracing", "call_tracing": "tracing", "f_trace": "tracing",
    "f_trace_lines": "tracing", "f_trace_opcodes": "tracing", "monitoring": "tracing",
    "addaudithook": "tracing", "excepthook": "tracing", "displayhook": "tracing",
    "_getframe": "frames", "currentframe": "frames", "f_back": "frames", "f_globals": "frames",
    "f_locals": "frames", "f_builtins": "frames", "tb_frame": "frames", "gi_frame": "frames", "cr_frame": "frames",
    "get_objects": "frames", "get_referrers": "frames", "get_referents": "frames",
    "__code__": "code", "__closure__": "code", "cell_contents": "code", "co_code": "code", "CodeType": "code",
    "__defaults__": "code", "__kwdefaults__": "code",
    "meta_path": "imports", "path_hooks": "imports", "path_importer_cache": "imports",
    "__builtins__": "builtins",
    "setitimer": "signals", "SIGALRM": "signals",
    "input_transformers_cleanup": "kernel", "input_transformers_post": "kernel", "ast_transformers": "kernel",
    "run_cell": "kernel", "run_cell_async": "kernel", "run_ast_nodes": "kernel", "run_code": "kernel",
    "set_custom_exc": "kernel", "custom_exceptions": "kernel", "showtraceback": "kernel",
    "_showtraceback": "kernel", "showsyntaxerror": "kernel", "InteractiveTB": "kernel",
    "pre_run_cell": "kernel", "post_run_cell": "kernel", "pre_execute": "kernel", "post_execute": "kernel",
    "input_transformer_manager": "kernel", "transform_cell": "kernel", "should_run_async": "kernel",
}
MODULES = {  # imported module (root or full name) -> category
    "builtins": "builtins", "ctypes": "lowlevel", "gc": "frames", "inspect": "frames", "traceback": None,
    "IPython": "kernel", "ipykernel": "kernel", "traitlets": "kernel", "jupyter_client": "kernel",
    "importlib": None, "bdb": "tracing", "pdb": None, "sys": None, "signal": "signals", "_testcapi": "lowlevel",
}
ALLOWED_IMPORTS = ("IPython.display", "IPython.core.display")
# Modules whose attributes the tests rely on: assigning to one of their attributes is flagged.
TEST_MODULES = ("toolfaults", "unittest", "mock", "time", "random", "threading", "json", "math", "langchain_core",
                "pydantic", "builtins")
DYNAMIC = {"exec", "eval", "compile", "__import__"}
# Comparisons an object answers itself: defined to return a constant, they make any check pass.
COMPARISONS = {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__contains__",
               "__instancecheck__", "__subclasscheck__"}
ATTRIBUTE_FUNCTIONS = {"getattr", "setattr", "delattr", "hasattr"}


def folded(node: ast.AST) -> str | None:
    """The text an expression always has when it is built from literals: ``"ast_" + "transformers"``,
    ``f"{'_get'}frame"``, ``"".join(["g", "c"])``, ``"%s" % "x"``; ``None`` for anything else."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.BinOp):
        left, right = folded(node.left), folded(node.right)
        if isinstance(node.op, ast.Add) and left is not None and right is not None:
            return left + right
        if isinstance(node.op, ast.Mod) and left is not None and right is not None:
            try:
                return left % right
            except (TypeError, ValueError):
                return None
        return None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            part = folded(value.value) if isinstance(value, ast.FormattedValue) else folded(value)
            if part is None:
                return None
            parts.append(part)
        return "".join(parts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords:
        base = folded(node.func.value)
        if base is None:
            return None
        if node.func.attr == "join" and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple)):
            items = [folded(e) for e in node.args[0].elts]
            return None if None in items else base.join(items)
        if node.func.attr == "format":
            args = [folded(a) for a in node.args]
            if None in args:
                return None
            try:
                return base.format(*args)
            except (IndexError, KeyError, ValueError):
                return None
        if node.func.attr in ("lower", "upper", "strip") and not node.args:
            return getattr(base, node.func.attr)()
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        base = folded(node.value)
        bounds = []
        for b in (node.slice.lower, node.slice.upper, node.slice.step):
            if b is None:
                bounds.append(None)
            elif isinstance(b, ast.Constant) and isinstance(b.value, int):
                bounds.append(b.value)
            elif isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub) and isinstance(b.operand, ast.Constant) \
                    and isinstance(b.operand.value, int):
                bounds.append(-b.operand.value)
            else:
                return None
        return None if base is None or bounds[2] == 0 else base[slice(*bounds)]
    return None
BUILTIN_NAMES = {n for n in dir(builtins) if not n.startswith("_")}


@dataclass
class Flag:
    """One thing the scan found."""

    cell: str  # the answer cell's grade id, or "cell N"
    line: int
    category: str

    @property
    def text(self) -> str:
        return problems.SCAN_CATEGORIES[self.category].en


class _Visitor(ast.NodeVisitor):
    def __init__(self) -> None:
        self.found: list[tuple[int, str]] = []
        self.shells: set[str] = set()  # names bound to get_ipython()
        self.test_names: set[str] = set()  # names bound to test modules or what they export

    def hit(self, node: ast.AST, category: str | None) -> None:
        if category:
            self.found.append((getattr(node, "lineno", 0), category))

    # imports
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._imported(node, alias.name, alias.asname or alias.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        for alias in node.names:
            self._imported(node, f"{module}.{alias.name}", alias.asname or alias.name, module)

    def _imported(self, node: ast.AST, full: str, bound: str, module: str = "") -> None:
        if full.startswith(ALLOWED_IMPORTS) or (module and module.startswith(ALLOWED_IMPORTS)):
            return
        root = (module or full).split(".")[0]
        name = full.split(".")[-1]
        self.hit(node, MODULES.get(root) or MODULES.get(full) or (NAMES.get(name) if module else None))
        if root in TEST_MODULES or bound in TEST_MODULES:
            self.test_names.add(bound)

    # names and attributes
    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.hit(node, NAMES.get(node.attr))
        base = node.value
        shell = (isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "get_ipython") \
            or (isinstance(base, ast.Name) and base.id in self.shells)
        if shell and node.attr not in MAGIC_CALLS:
            self.hit(node, "kernel")
        if isinstance(node.ctx, ast.Store) and (node.attr == "__class__" or node.attr in COMPARISONS):
            self.hit(node, "identity")  # obj.__class__ = ..., Cls.__eq__ = ...: objects that lie
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in self.test_names | {"sys"}:
                self.hit(node, "test_tools" if root.id != "sys" else NAMES.get(node.attr, "tracing"))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in ("__builtins__",):
            self.hit(node, "builtins")

    def visit_Constant(self, node: ast.Constant) -> None:
        # getattr(x, "settrace") and friends: the name as text
        if isinstance(node.value, str) and node.value in NAMES:
            self.hit(node, NAMES[node.value])

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if node.name in COMPARISONS and _answers_a_constant(node.body):
            self.hit(node, "identity")
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for item in node.body:  # __eq__ = lambda self, other: True, or = a function defined elsewhere
            if isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id in COMPARISONS
                                                    for t in item.targets):
                value = item.value
                if not (isinstance(value, ast.Lambda) and not isinstance(value.body, ast.Constant)):
                    self.hit(item, "identity")
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        if any(folded(k) in COMPARISONS for k in node.keys if k is not None):
            self.hit(node, "identity")  # the members of a class made with type(...)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "get_ipython":
            self.shells.update(t.id for t in node.targets if isinstance(t, ast.Name))
        self.generic_visit(node)

    def _is_shell(self, node: ast.AST) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "get_ipython") \
            or (isinstance(node, ast.Name) and node.id in self.shells)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if called in ATTRIBUTE_FUNCTIONS and len(node.args) >= 2:
            # getattr(x, "ast_" + "transformers"): a name built from pieces is read as the name it spells
            name = folded(node.args[1])
            if name is not None and not isinstance(node.args[1], ast.Constant):
                self.hit(node, NAMES.get(name))
            if self._is_shell(node.args[0]) and (name is None or name not in MAGIC_CALLS):
                self.hit(node, "kernel")
            if called == "setattr" and (name == "__class__" or name in COMPARISONS):
                self.hit(node, "identity")
        if called == "__setattr__" and any(folded(a) == "__class__" or folded(a) in COMPARISONS for a in node.args):
            self.hit(node, "identity")  # object.__setattr__(obj, "__class__", ...)
        if called == "import_module" and node.args:
            module = folded(node.args[0])
            if module is None:
                self.hit(node, "imports")  # a module whose name is computed
            else:
                self.hit(node, MODULES.get(module.split(".")[0]) or MODULES.get(module))
        if called == "type" and isinstance(func, ast.Name) and len(node.args) == 3:
            self.hit(node, "identity")  # a class made on the fly: type(name, bases, members)
        if isinstance(func, ast.Name):
            if func.id in DYNAMIC:
                self.hit(node, "dynamic")
            elif func.id in ("setattr", "delattr") and node.args and isinstance(node.args[0], ast.Name) \
                    and node.args[0].id in self.test_names | {"sys"}:
                self.hit(node, "test_tools")
        if isinstance(func, ast.Attribute):
            if func.attr in MAGIC_CALLS:
                name = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
                magic = str(name).split()[0] if name else ""
                if func.attr in ("run_line_magic", "run_cell_magic") and magic not in BENIGN_MAGICS:
                    self.hit(node, "kernel")
            if func.attr == "start" and isinstance(func.value, ast.Call):  # mock.patch(...).start()
                self.hit(node, "test_tools")
        self.generic_visit(node)


def _answers_a_constant(body: list[ast.stmt]) -> bool:
    """A function body that, docstring aside, only returns a literal (``return True``)."""
    statements = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return len(statements) == 1 and isinstance(statements[0], ast.Return) \
        and isinstance(statements[0].value, ast.Constant)


def _top_level_builtin_shadows(tree: ast.Module) -> list[tuple[int, str]]:
    """Functions, classes or lambdas defined at the top level under a built-in's name (``def isinstance``)."""
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in BUILTIN_NAMES:
            found.append((node.lineno, "builtins"))
        elif isinstance(node, ast.Assign) and isinstance(node.value, (ast.Lambda, ast.Name, ast.Attribute)):
            if any(isinstance(t, ast.Name) and t.id in BUILTIN_NAMES for t in node.targets):
                found.append((node.lineno, "builtins"))
    return found


TEXT_PATTERNS = [(re.compile(p), c) for p, c in [
    (r"get_ipython\s*\(\s*\)\s*\.\s*(?!run_line_magic|run_cell_magic|system|getoutput)\w", "kernel"),
    (r"\bsettrace\b|\bsetprofile\b", "tracing"),
    (r"\b_getframe\b|\bf_back\b|\bget_referrers\b", "frames"),
    (r"\bctypes\b", "lowlevel"),
]]


def scan_source(source: str, cell: str) -> list[Flag]:
    """What one cell's code reaches for.

    Args:
        source: the cell's source, as typed (magics allowed).
        cell: how to name the cell in the flags.

    Returns:
        One flag per (line, category), in line order.
    """
    from .cleanroom import python_source

    code = python_source(source)
    try:
        tree = pyast.parse(code)
    except SyntaxError:  # the kernel could not run it either; a rough text scan is all that is left
        hits = [(n, c) for n, line in enumerate(source.splitlines(), 1) for p, c in TEXT_PATTERNS if p.search(line)]
    else:
        visitor = _Visitor()
        visitor.visit(tree)
        hits = visitor.found + _top_level_builtin_shadows(tree)
    return [Flag(cell, line, category) for line, category in sorted(set(hits))]


def scan_notebook(nb: Any) -> list[Flag]:
    """Scan every code cell of a submission that is not a test (answers, locked cells, cells the learner added).

    Args:
        nb: the submitted (or autograded) notebook.

    Returns:
        Every flag, cell by cell.
    """
    flags: list[Flag] = []
    for index, cell in enumerate(nb.cells):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type != "code" or (meta.get("grade") and not meta.get("solution")) or meta.get("locked"):
            continue
        label = meta.get("grade_id") or f"cell {index + 1}"
        flags += scan_source(cell.source, label)
    return flags


def report(result: Any, flags: list[Flag]) -> None:
    """Mark ``result`` "needs attention" for ``flags`` (no score changes).

    Args:
        result: a :class:`autograder.engine.SubmissionResult` (changed in place).
        flags: what :func:`scan_notebook` found.

    Returns:
        None. One problem naming each kind of thing found and where (cell, line).
    """
    if not flags:
        return
    found: dict[str, list[tuple[str, int]]] = {}
    for flag in flags:
        found.setdefault(flag.category, []).append((flag.cell, flag.line))
    result.flag(SUSPICIOUS, found=problems.scan_findings(found))
