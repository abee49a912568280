"""Every lesson helper that classifies a failure, converts an output or writes an error message agrees
with the course's one error policy, toolfaults.policy (COURSE_SPEC §3.9; issue 45), in both editions.

Each lesson runs once, in this process (policy_harness.run_lesson); each helper registered in a
policy_lessons_*.py module is called on every relevant row's examples, and a failure names the lesson,
the cell, the helper and the row where they differ. A lesson may show a wrong policy only as a labelled
anti-pattern; the lessons that introduce the taxonomy display the policy's table.
"""

from __future__ import annotations

import re

import pytest

import policy_harness as harness
from editions import EDITIONS
from toolfaults import policy

REGISTRY = harness.registry()


def _params():
    for edition in EDITIONS:
        for lesson, helpers in sorted(REGISTRY.helpers.items()):
            for name in helpers:
                marks = [pytest.mark.spanish] if edition.language == "es" else []
                yield pytest.param(edition, lesson, name, id=f"{lesson}-{name}-{edition.language}", marks=marks)


def _run(edition, lesson: str) -> harness.LessonRun:
    return harness.ran(edition.folder, lesson)


@pytest.mark.parametrize(("edition", "lesson", "name"), list(_params()))
def test_lesson_helper_follows_the_policy(edition, lesson, name):
    """The helper gives, for every example of every row it handles, the policy's kind, retry decision,
    recovery, error flag and text (no exception text, path or traceback for the model)."""
    run = _run(edition, lesson)
    found = harness.check_helper(run, name, REGISTRY.helpers[lesson][name])
    assert not found, (f"{len(found)} disagreement(s) with toolfaults.policy (COURSE_SPEC §3.9):\n"
                       + "\n".join(f"- {d}" for d in found))


ANTI = [pytest.param(e, lesson, name, id=f"{lesson}-{name}-{e.language}",
                     marks=[pytest.mark.spanish] if e.language == "es" else [])
        for e in EDITIONS for lesson, names in sorted(REGISTRY.anti_patterns.items()) for name in names]


@pytest.mark.parametrize(("edition", "lesson", "name"), ANTI)
def test_a_wrong_policy_is_labelled_as_an_anti_pattern(edition, lesson, name):
    """A helper shown on purpose as the wrong way says so where it is defined ("anti-pattern")."""
    run = _run(edition, lesson)
    cell = run.cell_of(name)
    assert cell is not None, f"{run.name} no longer defines {name} (listed in ANTI_PATTERNS): update the entry"
    word = harness.ANTI_PATTERN_WORDS[edition.language]
    assert word in run.sources[cell].lower(), (
        f"lesson {run.name}, cell {cell}: {name} shows a wrong policy; label it, in its docstring or a comment, "
        f"with {word!r}, next to the right version")


TABLE = [pytest.param(e, lesson, id=f"{lesson}-{e.language}", marks=[pytest.mark.spanish] if e.language == "es" else [])
         for e in EDITIONS for lesson in REGISTRY.shows_table]


@pytest.mark.parametrize(("edition", "lesson"), TABLE)
def test_the_lesson_displays_the_policy_table(edition, lesson):
    """Where a lesson introduces the taxonomy, it displays the policy itself (policy.table()), not a copy."""
    run = _run(edition, lesson)
    shown = [i for i, source in enumerate(run.sources) if source and re.search(r"\bpolicy\.table\(", source)]
    assert shown, f"{run.name}: no code cell displays policy.table() (Markdown(policy.table()))"


def test_every_registered_lesson_exists_in_both_editions():
    for edition in EDITIONS:
        for lesson in REGISTRY.helpers:
            assert list(edition.folder.glob(f"{lesson}_*.ipynb")), f"no lesson {lesson} in {edition.folder}"


def test_the_check_catches_a_helper_changed_back():
    """The harness flags a describe_status that retries every 5xx (501, 505, 507, 511 must fail at once),
    a to_text that calls an empty list 'nothing found', and a handler that sends exception text."""

    def describe_status(e, tool_name):   # the old lesson 04 rule
        return f"{tool_name} answered {e.status_code}", e.status_code in (408, 429) or e.status_code >= 500

    def to_text(result):                 # the old lesson 01 rule: an empty list or dict is "nothing found"
        return policy.result_text(None if result in ([], {}) else result)

    def handle_failure(e, tool_name):
        return f"{type(e).__name__}: {e}", False

    run = harness.LessonRun(harness.HERE / "04_probe.ipynb", "en",
                            {"describe_status": describe_status, "to_text": to_text, "handle_failure": handle_failure},
                            [None])
    run.cell_of = lambda name: 0         # type: ignore[method-assign]
    adapters = harness.registry().helpers["04"]
    status = harness.check_helper(run, "describe_status", adapters["describe_status"])
    flagged = {d.case.example.status_code for d in status if d.case is not None}
    assert flagged == {501, 505, 507, 511}, [str(d) for d in status]
    assert str(status[0]).startswith("lesson 04_probe (en), cell 0, describe_status, row 'permanent'"), str(status[0])
    empty = harness.check_helper(run, "to_text", adapters["to_text"])
    assert {repr(d.case.example) for d in empty} == {"[]", "{}"}, [str(d) for d in empty]
    leaks = harness.check_helper(run, "handle_failure", adapters["handle_failure"])
    assert any("class name 'KeyError'" in d.problem for d in leaks), [str(d) for d in leaks]
    assert policy.is_transient_status(503) and not policy.is_transient_status(501)


# --- a not-found or a mapped status carries the policy's recovery wherever the course states one ------------------
#
# The policy maps a tool's not-found (HTTP 404, "no such order") to choose_alternative and a denial (401, 403) to
# stop_turn (policy.STATUS_RECOVERY). Every ToolError the course writes with a literal code and recovery is read
# from the code: a code ending in "not_found" is a 404; a code a notebook maps to "HTTP nnn" (lesson 08's LOG_TEXT,
# what the service itself said) is that status. Lessons in both editions, the exercises' sources (visible and
# hidden tests) and the package's docstring examples; a function labelled as an anti-pattern is exempt.

import ast
import doctest
import importlib
import pkgutil
from dataclasses import dataclass

import nbformat

import toolfaults
from autograder.course import ROOT
from editions import case_id, cases

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
