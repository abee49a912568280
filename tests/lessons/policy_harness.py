"""Run a lesson's code in this process, and check its helpers against ``toolfaults.policy`` (issue 45).

Every lesson function that classifies a failure, converts a tool's output or writes an error message
for the model (``describe_status``, ``to_text``, ``safe_invoke``...) must agree with the course's one
error policy. ``test_policy_consistency.py`` proves it: it runs each lesson (both editions), feeds each
registered helper every relevant row's examples (:data:`toolfaults.policy.EXAMPLES`, and the status codes
of :data:`~toolfaults.policy.TRANSIENT_STATUS` and :data:`~toolfaults.policy.PERMANENT_STATUS_EXAMPLES`)
and fails naming the lesson, the cell and the row where they differ.

Registering a lesson's helpers is one entry in a module named ``policy_lessons_*.py`` next to this one
(one module per lesson range, so that each can be edited on its own)::

    from policy_harness import FAILURE_ROWS, OUTPUT_ROWS, answers, classifies, has_status, probe_tool

    LESSON_HELPERS = {
        "04": {
            # name in the lesson -> an Adapter: which rows to try, and how to call the helper on one case
            "describe_status": answers(("transient", "permanent"), lambda f, case: f(case.example, "probe"),
                                       second="retried", select=has_status),
            "to_text": answers(OUTPUT_ROWS, lambda f, case: f(case.example)),
            "safe_invoke": answers((*FAILURE_ROWS, *OUTPUT_ROWS), lambda f, case: f(probe_tool(case), {"query": "x"})),
        },
    }
    #: helpers a lesson shows on purpose as the wrong way; each must say "anti-pattern" (es: "antipatrón")
    ANTI_PATTERNS = {"04": ("safe_tool_execute",)}
    #: lessons that introduce the taxonomy, and so display the policy's table (policy.table())
    SHOWS_TABLE = ("01",)

An adapter turns a :class:`Case` (a row of the policy, one example) into a call of the helper, and
what the helper returns into an :class:`Observed` (the kind it names, whether it retries, the
recovery, the error flag, the text for the model). :func:`check_helper` compares each field the
adapter observed with what the policy says for that case. The lesson runs once per session
(:func:`run_lesson`): its code cells, in order, in one namespace, offline; cells tagged
``raises-exception`` may raise; the self-check's quiz cell is skipped.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import functools
import importlib
import inspect
import io
import json
import os
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
from pydantic import ValidationError

from toolfaults import policy
from toolfaults.contract import ToolError
from toolfaults.language import current_language, use_language

HERE = Path(__file__).parent

#: Rows whose examples are failures the calling code sees (exceptions), in the policy's order.
FAILURE_ROWS: tuple[str, ...] = ("bad_arguments", "expected", "transient", "permanent", "internal")
#: Rows whose examples are a tool's successful output.
OUTPUT_ROWS: tuple[str, ...] = ("empty_result", "result")
#: A tool name that does not exist: the ``bad_call`` row's example (the policy has none: it is only a name).
UNKNOWN_TOOL = "google_search"
#: Bytes a tool may return: text for the model, never the repr ``b'...'`` (checked with the ``result`` row).
BYTES_OUTPUTS: tuple[bytes, ...] = (b"22 C, sunny", "22 °C, soleado".encode())
#: Words that label a helper as an anti-pattern, in each edition.
ANTI_PATTERN_WORDS = {"en": "anti-pattern", "es": "antipatrón"}


# --- cases: one row of the policy, one example -----------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One example of one policy row: what the helper is given."""

    row: str          # the policy's kind (a row of toolfaults.policy.ROWS)
    example: Any      # an exception, a tool's output, a status code (int) or, for bad_call, a tool name
    label: str        # how a failure message names it

    @property
    def is_status(self) -> bool:
        return isinstance(self.example, int) and not isinstance(self.example, bool)


def _label(example: Any) -> str:
    if isinstance(example, ValidationError):   # its str() is several lines, with a URL
        return f"ValidationError({', '.join('.'.join(map(str, e['loc'])) + ': ' + e['type'] for e in example.errors())})"
    if isinstance(example, BaseException):
        status = policy.status_of(example)
        return f"{type(example).__name__}(status {status})" if status is not None else repr(example)
    return repr(example)


def cases(rows: tuple[str, ...], *, statuses: bool = False) -> list[Case]:
    """The examples of ``rows``: :data:`toolfaults.policy.EXAMPLES`, bytes with ``result``, an unknown
    name for ``bad_call``; with ``statuses=True``, the transient and permanent rows are status codes."""
    found: list[Case] = []
    for row in rows:
        if row == "bad_call":
            found.append(Case(row, UNKNOWN_TOOL, f"tool name {UNKNOWN_TOOL!r}"))
            continue
        if statuses and row in ("transient", "permanent"):
            codes = sorted(policy.TRANSIENT_STATUS) if row == "transient" else policy.PERMANENT_STATUS_EXAMPLES
            found += [Case(row, code, f"status {code}") for code in codes]
            continue
        if row not in policy.EXAMPLES:
            raise ValueError(f"the policy has no examples for row {row!r}: give the adapter its own cases (extra=...)")
        found += [Case(row, example, _label(example)) for example in policy.EXAMPLES[row]]
        if row == "result":
            found += [Case(row, data, f"bytes {data!r}") for data in BYTES_OUTPUTS]
    return found


# --- what a helper said ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Observed:
    """What a helper decided for one case; ``None`` where it says nothing about that."""

    kind: str | None = None          # the policy kind it names
    retried: bool | None = None      # whether it retries (or asks to retry) the failure
    recovery: str | None = None      # the recovery the model is told
    is_error: bool | None = None     # whether the result goes back flagged as an error
    text: str | None = None          # what the model reads


def observe(answer: Any, *, second: str = "is_error") -> Observed:
    """Read a helper's answer, whatever its shape.

    A ``ToolMessage`` (its status and content), a ``ToolError``, an Anthropic ``tool_result`` block,
    a ``(text, flag)`` tuple (``second`` names the flag: ``"is_error"`` or ``"retried"``), a dict
    with ``retry`` (lesson 03's step report), or a string. Content that is the course's contract as
    JSON gives its recovery and its message.
    """
    from langchain_core.messages import ToolMessage

    if isinstance(answer, ToolMessage):
        return _with_contract(Observed(is_error=answer.status == "error", text=text_of(answer.content)))
    if isinstance(answer, ToolError):
        return Observed(is_error=True, recovery=answer.recovery, text=answer.message)
    if isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[1], bool):
        text, flag = answer
        return _with_contract(Observed(**{second: flag}, text=text_of(text)))
    if isinstance(answer, Mapping) and answer.get("type") == "tool_result":
        return _with_contract(Observed(is_error=bool(answer.get("is_error")), text=text_of(answer.get("content"))))
    if isinstance(answer, Mapping) and "retry" in answer:
        return Observed(retried=bool(answer["retry"]))
    if isinstance(answer, str):
        return _with_contract(Observed(text=answer))
    raise TypeError(f"cannot read a helper's answer of type {type(answer).__name__}: {answer!r}")


def text_of(content: Any) -> str:
    """A message's content as text (a list of content blocks joined)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(b if isinstance(b, str) else str(b.get("text", b)) for b in content)
    return repr(content)


def _with_contract(seen: Observed) -> Observed:
    """The contract's recovery and message, when the text is lesson 03's contract as JSON."""
    try:
        data = json.loads(seen.text or "")
    except ValueError:
        return seen
    if isinstance(data, dict) and {"code", "message", "recovery"} <= data.keys():
        return Observed(seen.kind, seen.retried, data["recovery"], seen.is_error, data["message"])
    return seen


# --- adapters: how to call a helper ------------------------------------------------------------------


@dataclass(frozen=True)
class Adapter:
    """How one lesson helper is checked: on which rows, and how it is called and read.

    ``check(helper, case)`` calls the helper on the case and returns what it said. With
    ``write=True`` the helper handles a write (a tool with side effects): a failure's expected kind is
    ``policy.kind_of(example, write=True)`` (a transient or internal failure is an uncertain write).
    """

    rows: tuple[str, ...]
    check: Callable[[Callable[..., Any], Case], Observed]
    statuses: bool = False
    write: bool = False
    select: Callable[[Case], bool] | None = None
    extra: tuple[Case, ...] = ()     # cases of rows the policy has no examples for (repeated_failure...)

    def cases(self) -> list[Case]:
        found = [c for c in cases(self.rows, statuses=self.statuses) if self.select is None or self.select(c)]
        return found + list(self.extra)


def has_status(case: Case) -> bool:
    """Whether the case is a failure carrying an HTTP status (for helpers that read ``status_code``)."""
    return isinstance(case.example, BaseException) and policy.status_of(case.example) is not None


def classifies(rows: tuple[str, ...] = FAILURE_ROWS, *, call: Callable[[Callable, Case], Any] | None = None,
               labels: Mapping[str, str] | None = None, statuses: bool = False,
               select: Callable[[Case], bool] | None = None, extra: tuple[Case, ...] = ()) -> Adapter:
    """A helper that names a failure's kind: ``helper(example)`` (or ``call(helper, case)``) returns it.

    ``labels`` maps the lesson's words to the policy's kinds, when the lesson uses its own.
    """
    def check(helper, case):
        said = call(helper, case) if call else helper(case.example)
        return Observed(kind=(labels or {}).get(said, said))
    return Adapter(rows, check, statuses=statuses, select=select, extra=extra)


def answers(rows: tuple[str, ...], call: Callable[[Callable, Case], Any], *, second: str = "is_error",
            statuses: bool = False, write: bool = False, select: Callable[[Case], bool] | None = None,
            extra: tuple[Case, ...] = ()) -> Adapter:
    """A helper that answers a failure or an output: ``call(helper, case)`` returns its answer, read by
    :func:`observe` (``second`` names what a ``(text, flag)`` answer's flag means). ``select`` keeps only
    the cases it accepts (:func:`has_status`, for a helper that reads ``status_code``)."""
    return Adapter(rows, lambda helper, case: observe(call(helper, case), second=second),
                   statuses=statuses, write=write, select=select, extra=extra)


def probe_tool(case: Case, name: str = "probe"):
    """A LangChain tool taking ``query: str`` that raises the case's failure, or returns its output."""
    from toolfaults.tools import failing_tool, odd_format_tool

    if isinstance(case.example, BaseException):
        return failing_tool(name=name, error=case.example)
    return odd_format_tool(case.example, name=name)


def probe_call(case: Case, name: str = "probe") -> dict:
    """A tool call of :func:`probe_tool` (of an unknown tool, for ``bad_call``)."""
    from toolfaults.models import tool_call

    return tool_call(case.example if case.row == "bad_call" else name, {"query": "x"}, id="call_probe")


# --- running a lesson ----------------------------------------------------------------------------------


@dataclass
class LessonRun:
    """A lesson executed top to bottom in this process: its namespace and where each name was defined."""

    path: Path
    language: str
    namespace: dict[str, Any]
    sources: list[str | None]              # each cell's code as it ran (None: markdown or skipped)
    failures: list[tuple[int, str]] = field(default_factory=list)   # (cell, error) of cells that raised

    @property
    def name(self) -> str:
        return f"{self.path.stem} ({self.language})"

    def cell_of(self, name: str) -> int | None:
        """The index of the cell whose definition of ``name`` is in effect (the last one that made it)."""
        value = self.namespace.get(name)
        code = getattr(inspect.unwrap(value), "__code__", None) if callable(value) else None
        if code is not None and code.co_filename.startswith("<cell "):
            return int(code.co_filename.removeprefix("<cell ").split(">")[0])
        found = None
        for i, source in enumerate(self.sources):
            if source is not None and name in _defined_names(source):
                found = i
        return found


def _defined_names(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def _python(source: str) -> str:
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(source)


@contextlib.contextmanager
def _kept_language() -> Iterator[None]:
    before = current_language()
    try:
        yield
    finally:
        use_language(before)


@functools.cache
def run_lesson(path: Path) -> LessonRun:
    """Execute a lesson's code cells in order, in one namespace, offline (once per session).

    Top-level ``await`` runs on one event loop kept for the whole lesson, as in a kernel. A cell
    tagged ``raises-exception`` may raise; any other cell that raises is recorded in ``failures``.
    The quiz cell (tagged ``self-check``) is skipped: it defines no helper.
    """
    from IPython.display import display

    nb = nbformat.read(path, as_version=4)
    language = "es" if path.parent.name == "es" else "en"
    # A real module, registered, as a kernel's __main__ is: dataclasses and pickling look their module up.
    module = types.ModuleType(f"lesson_{path.stem}_{language}")
    sys.modules[module.__name__] = module
    namespace: dict[str, Any] = module.__dict__
    namespace["display"] = display
    sources: list[str | None] = []
    run = LessonRun(path, language, namespace, sources)
    loop = asyncio.new_event_loop()
    cwd = os.getcwd()
    try:
        os.chdir(path.parent)
        with _kept_language(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            for i, cell in enumerate(nb.cells):
                tags = set(cell.metadata.get("tags", []))
                if cell.cell_type != "code" or "self-check" in tags:
                    sources.append(None)
                    continue
                source = _python(cell.source)
                sources.append(source)
                try:
                    code = compile(source, f"<cell {i}>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
                    if code.co_flags & inspect.CO_COROUTINE:
                        loop.run_until_complete(eval(code, namespace))
                    else:
                        exec(code, namespace)
                except Exception as err:  # noqa: BLE001 - a lesson cell may fail on purpose
                    if "raises-exception" not in tags:
                        run.failures.append((i, f"{type(err).__name__}: {err}"))
    finally:
        os.chdir(cwd)
        pending = asyncio.all_tasks(loop)   # a lesson may leave a task it cancelled, as a kernel would
        for task in pending:
            task.cancel()
        if pending:
            async def drain():
                await asyncio.gather(*pending, return_exceptions=True)
            loop.run_until_complete(drain())
        asyncio.set_event_loop(None)
        loop.close()
    return run


# --- what the policy expects, and the check ---------------------------------------------------------------


def expected_kind(case: Case, *, write: bool = False) -> str:
    if write and isinstance(case.example, BaseException):
        return policy.kind_of(case.example, write=True)
    return case.row


def _leaks(case: Case, text: str) -> list[str]:
    """Internals of the failure that appear in the model's text (for failures the model did not cause)."""
    error = case.example
    found = []
    if "Traceback (most recent call last)" in text or 'File "' in text:
        found.append("a traceback")
    if not isinstance(error, BaseException):
        return found
    name = type(error).__name__
    if name in text:
        found.append(f"the exception's class name {name!r}")
    said = str(error)
    status = policy.status_of(error)
    if len(said) >= 4 and said != f"HTTP {status}" and said in text:   # "HTTP 429" alone is the status, not text
        found.append(f"the exception's text {said!r}")
    filename = getattr(error, "filename", None)
    if isinstance(filename, str) and (filename in text or Path(filename).name in text):
        found.append(f"the path {filename!r}")
    return found


def problems_with(observed: Observed, case: Case, language: str, *, write: bool = False) -> list[str]:
    """How ``observed`` differs from what the policy says for ``case`` (empty: they agree)."""
    kind = expected_kind(case, write=write)
    row = policy.row(kind)
    out: list[str] = []
    if observed.kind is not None and observed.kind != kind:
        out.append(f"kind: the policy says {kind!r}, the lesson {observed.kind!r}")
    if observed.retried is not None and observed.retried != policy.retried(kind):
        out.append(f"retried: the policy says {policy.retried(kind)}, the lesson {observed.retried}")
    if observed.is_error is not None and observed.is_error != row.is_error:
        out.append(f"error flag: the policy says {row.is_error}, the lesson {observed.is_error}")
    if observed.recovery is not None and row.is_error:
        error = case.example if isinstance(case.example, BaseException) else None
        wanted = policy.recovery_for(kind, error)
        if observed.recovery != wanted:
            out.append(f"recovery: the policy says {wanted!r}, the lesson {observed.recovery!r}")
    text = observed.text
    if text is None:
        return out
    if not row.is_error:
        wanted_text = policy.result_text(case.example, language)
        if text != wanted_text:
            out.append(f"text: the policy says {wanted_text!r} (policy.result_text), the lesson {text!r}")
        return out
    if kind == "bad_arguments" and isinstance(case.example, ValidationError):
        fields = {".".join(map(str, e["loc"])) for e in case.example.errors()}
        missing = [f for f in fields if f not in text]
        if missing:
            out.append(f"message does not name the field(s) {missing}: {text!r}")
        if "errors.pydantic.dev" in text or "validation error for" in text:
            out.append(f"message carries pydantic's own text or URL: {text!r}")
    elif kind == "expected" and isinstance(case.example, BaseException):
        if str(case.example) not in text:
            out.append(f"message drops the tool's own message {str(case.example)!r}: {text!r}")
    elif kind == "bad_call":
        if UNKNOWN_TOOL not in text:
            out.append(f"message does not name the unknown tool {UNKNOWN_TOOL!r}: {text!r}")
    else:
        leaks = _leaks(case, text)
        if leaks:
            out.append(f"message shows {', '.join(leaks)} to the model: {text!r}")
    return out


@dataclass(frozen=True)
class Disagreement:
    lesson: str
    cell: int | None
    helper: str
    case: Case | None
    problem: str

    def __str__(self) -> str:
        where = f"lesson {self.lesson}, cell {self.cell}, {self.helper}"
        if self.case is None:
            return f"{where}: {self.problem}"
        return f"{where}, row {self.case.row!r}, example {self.case.label}: {self.problem}"


def check_helper(run: LessonRun, name: str, adapter: Adapter | tuple[Adapter, ...]) -> list[Disagreement]:
    """Every way the lesson's ``name`` differs from the policy, on every case of the adapter's rows (of each
    adapter, when a registry entry checks a helper more than one way: a read and a write)."""
    if isinstance(adapter, tuple):
        return [d for each in adapter for d in check_helper(run, name, each)]
    cell = run.cell_of(name)
    helper = run.namespace.get(name)
    if helper is None or cell is None:
        return [Disagreement(run.name, None, name, None, "the lesson no longer defines it (registered in a "
                             "policy_lessons_*.py module: update the entry)")]
    found: list[Disagreement] = []
    with _kept_language():
        use_language(run.language)
        for case in adapter.cases():
            try:
                observed = adapter.check(helper, case)
            except Exception as err:  # noqa: BLE001 - a helper that raises disagrees too
                found.append(Disagreement(run.name, cell, name, case, f"raised {type(err).__name__}: {err}"))
                continue
            found += [Disagreement(run.name, cell, name, case, p)
                      for p in problems_with(observed, case, run.language, write=adapter.write)]
    return found


# --- the registry ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Registry:
    helpers: dict[str, dict[str, Adapter]]          # lesson number -> helper name -> adapter
    anti_patterns: dict[str, tuple[str, ...]]       # lesson number -> helpers shown as the wrong way
    shows_table: tuple[str, ...]                    # lessons that display policy.table()
    modules: dict[str, str]                         # lesson number -> the module that registers it


def registry(folder: Path = HERE) -> Registry:
    """Every ``policy_lessons_*.py`` module's entries, merged (a lesson registered twice is an error)."""
    helpers: dict[str, dict[str, Adapter]] = {}
    anti: dict[str, tuple[str, ...]] = {}
    table: list[str] = []
    modules: dict[str, str] = {}
    for path in sorted(folder.glob("policy_lessons_*.py")):
        module = importlib.import_module(path.stem)
        for lesson, entry in getattr(module, "LESSON_HELPERS", {}).items():
            if lesson in modules:
                raise ValueError(f"lesson {lesson} is registered in {modules[lesson]} and in {path.name}")
            modules[lesson] = path.name
            helpers[lesson] = dict(entry)
        anti.update(getattr(module, "ANTI_PATTERNS", {}))
        table += list(getattr(module, "SHOWS_TABLE", ()))
    return Registry(helpers, anti, tuple(table), modules)


def ran(folder: Path, lesson: str) -> LessonRun:
    """Lesson ``lesson`` ("04") of an edition's folder, run (once a session): it must have run top to bottom."""
    run = run_lesson(lesson_path(folder, lesson))
    assert not run.failures, f"{run.name} did not run top to bottom here: cells {run.failures}"
    return run


def lesson_path(folder: Path, lesson: str) -> Path:
    """The notebook of lesson ``lesson`` ("04") in an edition's folder."""
    (path,) = sorted(folder.glob(f"{lesson}_*.ipynb"))
    return path
