"""A not-found or a mapped HTTP status carries the policy's recovery wherever the course states one.

The policy maps a tool's not-found (HTTP 404, "no such order") to choose_alternative and a denial (401, 403) to
stop_turn (policy.STATUS_RECOVERY). Every ToolError the course writes with a literal code and recovery is read
from the code: a code ending in "not_found" is a 404; a code a notebook maps to "HTTP nnn" (lesson 08's LOG_TEXT,
what the service itself said) is that status. Lessons in both editions, the exercises' sources (visible and
hidden tests) and the package's docstring examples; a function labelled as an anti-pattern is exempt.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import re
from dataclasses import dataclass

import nbformat
import pytest

import toolfaults
from autograder.course import ROOT
from editions import case_id, cases
from toolfaults import policy


NOT_FOUND_CODE = re.compile(r"(?:^|_)not_found$")
HTTP_STATUS = re.compile(r"\bHTTP (\d{3})\b")
ANTI_PATTERN = re.compile(r"anti-pattern|antipatrón", re.I)


@dataclass(frozen=True)
class StatedRecovery:
    """One ToolError written with a literal code and recovery, for a failure the policy maps."""

    where: str
    code: str
    status: int
    recovery: str

    def __str__(self) -> str:
        return (f"{self.where}: ToolError({self.code!r}, ..., {self.recovery!r}) is a {self.status} "
                f"({'not found' if self.status == 404 else 'HTTP ' + str(self.status)}); the policy says "
                f"{policy.recovery_for_status(self.status)!r}")


def _parse(source: str) -> ast.AST | None:
    python = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    try:
        return compile(python, "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except SyntaxError:
        return None


def _text(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _status_texts(trees) -> dict[str, int]:
    """``{code: status}`` from dict literals that map a code to what the service said ("HTTP 404")."""
    found: dict[str, int] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    code, said = _text(key), _text(value)
                    match = HTTP_STATUS.search(said or "")
                    if code and match:
                        found[code] = int(match.group(1))
    return found


def stated_recoveries(sources: list[tuple[str, str]]) -> list[StatedRecovery]:
    """Every ToolError in ``sources`` (``(where, python source)`` pairs, read together) whose code is a not-found
    or a status the policy maps, with the recovery it states."""
    parsed = [(where, source, tree) for where, source in sources if (tree := _parse(source)) is not None]
    statuses = _status_texts(tree for _, _, tree in parsed)
    found = []
    for n, (where, source, tree) in enumerate(parsed):
        exempt = {id(node) for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and ANTI_PATTERN.search(ast.get_source_segment(source, fn) or "") for node in ast.walk(fn)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or id(node) in exempt or not ast.unparse(node.func).endswith("ToolError"):
                continue
            given = dict(zip(("code", "message", "recovery"), node.args)) | {k.arg: k.value for k in node.keywords}
            code, recovery = _text(given.get("code")), _text(given.get("recovery"))
            if code is None or recovery is None:
                continue
            status = statuses.get(code, 404 if NOT_FOUND_CODE.search(code) else None)
            if status in policy.STATUS_RECOVERY:
                found.append(((n, node.lineno, node.col_offset),
                              StatedRecovery(f"{where}, line {node.lineno}", code, status, recovery)))
    return [stated for _, stated in sorted(found, key=lambda pair: pair[0])]


def _disagreements(found: list[StatedRecovery]) -> list[StatedRecovery]:
    return [s for s in found if s.recovery != policy.recovery_for_status(s.status)]


def _notebook_sources(path) -> list[tuple[str, str]]:
    nb = nbformat.read(path, as_version=4)
    return [(f"{path.relative_to(ROOT)}, cell {i}", cell.source) for i, cell in enumerate(nb.cells)
            if cell.cell_type == "code"]


LESSONS_BOTH = cases(lambda e: [*e.numbered(), *e.appendices()])
SOLUTIONS = sorted((ROOT / "solutions").glob("*/*.ipynb"))


@pytest.mark.parametrize(("edition", "path"), LESSONS_BOTH, ids=map(case_id, LESSONS_BOTH))
def test_a_lessons_not_found_and_status_errors_carry_the_policys_recovery(edition, path):
    """A lesson's ToolError for a not-found (404) says choose_alternative, for a 401/403 stop_turn, as
    toolfaults.policy.STATUS_RECOVERY says (COURSE_SPEC §3.9)."""
    wrong = _disagreements(stated_recoveries(_notebook_sources(path)))
    assert not wrong, "recoveries that disagree with toolfaults.policy:\n" + "\n".join(f"- {w}" for w in wrong)


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.parent.name)
def test_an_exercises_not_found_and_status_errors_carry_the_policys_recovery(path):
    """The same in each exercise's source, its visible and hidden tests included."""
    wrong = _disagreements(stated_recoveries(_notebook_sources(path)))
    assert not wrong, "recoveries that disagree with toolfaults.policy:\n" + "\n".join(f"- {w}" for w in wrong)


def test_the_packages_examples_carry_the_policys_recovery():
    """The same in the docstring examples of toolfaults (contract.py's "No order ... exists" among them)."""
    sources = []
    for info in pkgutil.iter_modules(toolfaults.__path__):
        module = importlib.import_module(f"toolfaults.{info.name}")
        for test in doctest.DocTestFinder().find(module):
            sources += [(f"{test.name}, the docstring example at {info.name}.py:{test.lineno + example.lineno + 1}",
                         example.source) for example in test.examples]
    found = stated_recoveries(sources)
    assert any(s.status == 404 for s in found), "the scan found no not-found ToolError in the package's examples"
    wrong = _disagreements(found)
    assert not wrong, "recoveries that disagree with toolfaults.policy:\n" + "\n".join(f"- {w}" for w in wrong)


def test_the_status_check_catches_a_recovery_that_disagrees():
    """The scan is not vacuous: a not-found with stop_turn, a code the notebook maps to HTTP 404 or 403 with the
    wrong recovery, keyword arguments and ToolFailure(ToolError(...)) are caught; agreeing ones, codes it cannot
    tie to a status, non-literal recoveries and a labelled anti-pattern are not."""
    cells = [
        ("cell 0", 'LOG_TEXT = {"order_missing": "HTTP 404", "refund_denied": "HTTP 403", "busy": "HTTP 503"}'),
        ("cell 1", 'raise ToolFailure(ToolError("order_not_found", "No order 7. Ask the user.", "stop_turn"))\n'
                   'ToolError(code="not_found", message="No city.", recovery="choose_alternative")\n'
                   'ToolError("order_missing", "No order 7.", recovery="stop_turn")\n'
                   'ToolError("refund_denied", "Over the limit.", "choose_alternative")\n'
                   'ToolError("busy", "Try later.", "retry_later")\n'
                   'ToolError("no_records", "Nothing logged yet.", "stop_turn")\n'
                   'ToolError("not_found", "No city.", policy.recovery_for("expected"))'),
        ("cell 2", 'def lookup_naive(order_id):\n    """Anti-pattern: every failure stops the turn."""\n'
                   '    return ToolError("order_not_found", "Not found.", "stop_turn")'),
    ]
    found = stated_recoveries(cells)
    assert [(s.code, s.status) for s in found] == [
        ("order_not_found", 404), ("not_found", 404), ("order_missing", 404), ("refund_denied", 403)], found
    wrong = _disagreements(found)
    assert [s.code for s in wrong] == ["order_not_found", "order_missing", "refund_denied"], [str(w) for w in wrong]
    assert str(wrong[0]).startswith("cell 1, line 1: ToolError('order_not_found', ..., 'stop_turn') is a 404"), str(wrong[0])
    assert str(wrong[0]).endswith("the policy says 'choose_alternative'"), str(wrong[0])
