"""The sample class in ``classes/sample/submitted``: what `make grade` grades on a fresh clone.

    python -m coursetools.sample_class           # rebuild classes/sample/submitted
    python -m coursetools.sample_class --check   # exit 1 if it is stale (exercises changed)

Fifteen students; two of them (sofia, tomas) take the Spanish edition (``<assignment>_es``),
graded by the same tests with Spanish messages. Each submission is the released notebook (as generated from
``solutions/``) with the answers a learner would type: the solution, a correct
alternative or a typical mistake from the fairness catalogue
(``coursetools/catalogue/``), the stub left untouched, or a broken notebook:

==============  ====================================================================
syntax          the answer does not parse
loop            a retry loop that never gives up on a permanent error
stuck           retries forever, its sleep does nothing, a bare except eats the interrupt
exit_cell       ``sys.exit()`` in a cell of its own
os_exit         ``os._exit()`` in a cell of its own (the kernel dies)
chatty          prints tens of megabytes
no_test         a test cell deleted
edited_test     every locked test cell edited to ``pass`` (on a wrong answer)
no_answer       the answer cell deleted
renamed         the notebook saved under another name
missing         no notebook at all, only a note
tamper          a wrong answer plus a patch of the helper package so tests pass
==============  ====================================================================

(A notebook that is not valid JSON is graded in the tests, not shipped here: the
repository's notebook checks read every committed ``.ipynb``.)
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

import nbformat

from autograder.course import SOLUTIONS, SUBMITTED
from autograder.testcells import replace_answer
from coursetools.fairness import CATALOGUE, Variant, answer_cells, catalogue

A03, A04, A05, A06 = ("04_validate_then_execute", "05_retry_with_backoff", "06_fallback_and_degradation",
                      "07_safe_agent_loop")

# student -> assignment -> recipe ("solution", "stub", "right:<name>", "wrong:<name>", or a breakage)
CLASS: dict[str, dict[str, str]] = {
    "ana": {A03: "solution", A04: "solution", A05: "solution", A06: "solution"},
    "bruno": {A03: "right:basetool_subclass", A04: "right:while_loop", A05: "right:index_loop",
              A06: "right:executor_class"},
    "chen": {A03: "wrong:keeps_spaces", A04: "wrong:catches_oserror", A05: "wrong:empty_answer_is_failure",
             A06: "wrong:leaks_traceback"},
    "dara": {A03: "wrong:no_range_check", A04: "wrong:no_jitter", A05: "stub", A06: "wrong:status_success_on_errors"},
    "emil": {A03: "stub", A04: "stub", A05: "stub", A06: "stub"},
    "fatima": {A03: "wrong:nan_slips_through", A04: "syntax", A05: "wrong:no_stale_warning"},
    "goran": {A03: "solution", A04: "loop", A05: "wrong:catches_network_errors_only"},
    "hana": {A03: "exit_cell", A04: "os_exit", A05: "solution", A06: "wrong:ignores_invalid_tool_calls"},
    "ivan": {A04: "stuck", A05: "chatty", A06: "no_test"},
    "julia": {A03: "no_answer", A04: "edited_test", A05: "right:recursive", A06: "not_json"},
    "kofi": {A03: "renamed", A04: "missing", A06: "solution"},
    "lena": {A03: "wrong:swapped_formulas", A04: "tamper", A06: "tamper"},
    "mateo": {A03: "wrong:leaks_traceback", A04: "wrong:catches_oserror", A05: "wrong:raises_when_all_fail",
              A06: "wrong:retries_uncertain_write"},
    # The Spanish edition: same catalogue answers, Spanish notebooks, feedback in Spanish.
    "sofia": {f"{A03}_es": "solution", f"{A04}_es": "wrong:no_jitter", f"{A05}_es": "right:index_loop",
              f"{A06}_es": "solution"},
    "tomas": {f"{A03}_es": "wrong:keeps_spaces", f"{A04}_es": "stub", f"{A06}_es": "wrong:leaks_traceback"},
}

# What the tests expect of each recipe ("full", "zero", "partial", or a problem kind the report names).
EXPECT = {
    "solution": "full", "right": "full", "stub": "zero", "wrong": "partial",
    "syntax": "syntax_error", "loop": "timeout", "stuck": "endless", "exit_cell": "sys_exit",
    "os_exit": "kernel_died", "chatty": "huge_output", "no_test": "test_deleted", "edited_test": "test_edited",
    "no_answer": "answer_deleted", "renamed": "renamed", "missing": "missing_notebook", "tamper": "tampered",
    "not_json": "invalid_notebook",
}

TAMPER = {
    # Makes every recorded delay look jittered, so a no-jitter answer passes the jitter test.
    A04: ("wrong:no_jitter",
          "import random\n"
          "from toolfaults.clock import RecordingSleep\n\n"
          "_record = RecordingSleep.__call__\n\n"
          "def _jittered(self, seconds):\n"
          "    _record(self, seconds * random.uniform(0.5, 1.0))\n\n"
          "RecordingSleep.__call__ = _jittered\n\n"),
    # Tools that never fail: the loop's error handling is never exercised.
    A06: ("wrong:leaks_traceback",
          "from langchain_core.runnables import RunnableConfig\n"
          "from langchain_core.tools import StructuredTool\n"
          "from toolfaults.tools import MockTool\n\n"
          "def _never_fails(self, *args, config: RunnableConfig, run_manager=None, **kwargs):\n"
          "    self.calls.append(kwargs)\n"
          "    return StructuredTool._run(self, *args, config=config, run_manager=run_manager, **kwargs)\n\n"
          "MockTool._run = _never_fails\n\n"),
}

# 04 only: the loops are written against resilient_invoke's signature.
LOOP_BODY = (
    "    attempts = 0\n"
    "    while True:                     # retry until it works\n"
    "        attempts += 1\n"
    "        try:\n"
    "            result = tool.invoke(args)\n"
    "            return {'success': True, 'result': result, 'attempts': attempts, 'elapsed_ms': 0.0}\n"
    "        except Exception:\n"
    "            continue\n")
STUCK_BODY = (
    "    attempts = 0\n"
    "    while True:\n"
    "        try:\n"
    "            while True:\n"
    "                try:\n"
    "                    attempts += 1\n"
    "                    result = tool.invoke(args)\n"
    "                    return {'success': True, 'result': result, 'attempts': attempts, 'elapsed_ms': 0.0}\n"
    "                except:              # also catches KeyboardInterrupt\n"
    "                    sleep(0)         # no need to wait\n"
    "        except:\n"
    "            pass\n")


def kind(recipe: str) -> str:
    return recipe.split(":", 1)[0]


def graded_cell(assignment: str) -> str:
    """The answer cell the catalogue (and so the class) varies most (06 also catalogues its Part A)."""
    cells = Counter(v.cell for v in catalogue(assignment))
    if not cells:
        raise ValueError(f"{assignment}: the catalogue is empty")
    return cells.most_common(1)[0][0]


def _variant(assignment: str, recipe: str) -> Variant:
    name = recipe.replace(":", "_", 1)
    for v in catalogue(assignment):
        if v.name == name:
            return v
    raise KeyError(f"{assignment}: no catalogue implementation {name!r} in {CATALOGUE / assignment}")


def _stub_header(released: nbformat.NotebookNode, cell: str) -> str:
    """The released answer cell up to the stub's ``# YOUR CODE HERE`` (signature and docstring)."""
    source = next(c.source for c in released.cells if c.metadata.get("nbgrader", {}).get("grade_id") == cell)
    return source.split("# YOUR CODE HERE")[0].rstrip() + "\n"


def _index(nb: nbformat.NotebookNode, grade_id: str) -> int:
    return next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def _with_cell_after(nb: nbformat.NotebookNode, grade_id: str, code: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(code)
    cell.id = f"added-{grade_id}"[:64]
    nb.cells.insert(_index(nb, grade_id) + 1, cell)
    return nb


def build_submission(assignment: str, recipe: str, released: nbformat.NotebookNode,
                     solution: nbformat.NotebookNode) -> dict[str, nbformat.NotebookNode | str]:
    """``file name -> notebook (or text)`` for one student's submission folder."""
    name = f"{assignment}.ipynb"
    cell = graded_cell(assignment)
    answers = answer_cells(solution)

    def solved(**replace: str) -> nbformat.NotebookNode:
        nb = nbformat.from_dict(nbformat.reads(nbformat.writes(released), as_version=4))
        for grade_id, code in {**answers, **replace}.items():
            nb = replace_answer(nb, grade_id, code)
        return nb

    k = kind(recipe)
    if k == "solution":
        return {name: solved()}
    if k == "stub":
        return {name: released}
    if k in ("right", "wrong"):
        variant = _variant(assignment, recipe)
        return {name: solved(**{variant.cell: variant.code})}
    if k == "syntax":
        return {name: solved(**{cell: answers[cell].rstrip() + "\n    if attempts > max_attempts\n        pass\n"})}
    if k == "loop":
        return {name: solved(**{cell: _stub_header(released, cell) + LOOP_BODY})}
    if k == "stuck":
        return {name: solved(**{cell: _stub_header(released, cell) + STUCK_BODY})}
    if k == "exit_cell":
        return {name: _with_cell_after(solved(), cell, "import sys\n\nsys.exit(\"That's all for today\")")}
    if k == "os_exit":
        return {name: _with_cell_after(solved(), cell, "import os\n\nos._exit(0)")}
    if k == "chatty":
        return {name: _with_cell_after(solved(), cell, "print(\"debug \" * 5_000_000)  # about 30 MB")}
    if k == "no_test":
        nb = solved()
        tests = [i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade")]
        del nb.cells[tests[1]]
        return {name: nb}
    if k == "edited_test":
        nb = solved(**{cell: _variant(assignment, "wrong:catches_oserror").code})
        for c in nb.cells:
            meta = c.metadata.get("nbgrader", {})
            if meta.get("grade") and not meta.get("solution"):
                c.source = "pass"
        return {name: nb}
    if k == "no_answer":
        nb = solved()
        del nb.cells[_index(nb, cell)]
        return {name: nb}
    if k == "not_json":  # a half-written file: the editor crashed while saving
        text = nbformat.writes(solved())
        return {name: text[: len(text) // 2]}
    if k == "renamed":
        return {f"{assignment}-Copy1.ipynb": solved()}
    if k == "missing":
        return {"notes.md": "I ran out of time on this one, sorry. I will hand it in next week.\n"}
    if k == "tamper":
        base, patch = TAMPER[assignment]
        variant = _variant(assignment, base)
        return {name: solved(**{variant.cell: patch + variant.code})}
    raise ValueError(f"unknown recipe {recipe!r}")


def build(dest: Path, source: Path = SOLUTIONS) -> list[tuple[str, str, str]]:
    """Write the sample class into ``dest`` (replacing it); returns (student, assignment, recipe)."""
    from autograder.release import generate

    dest = Path(dest)
    built = []
    with tempfile.TemporaryDirectory(prefix="sample-release-") as tmp:
        generate(Path(tmp), source)
        shutil.rmtree(dest, ignore_errors=True)
        for student, plan in CLASS.items():
            for assignment, recipe in plan.items():
                released = nbformat.read(Path(tmp) / assignment / f"{assignment}.ipynb", as_version=4)
                solution = nbformat.read(source / assignment / f"{assignment}.ipynb", as_version=4)
                folder = dest / student / assignment
                folder.mkdir(parents=True, exist_ok=True)
                for file_name, content in build_submission(assignment, recipe, released, solution).items():
                    if isinstance(content, str):
                        (folder / file_name).write_text(content)
                    else:
                        nbformat.write(content, folder / file_name)
                built.append((student, assignment, recipe))
    return built


def stale(current: Path = SUBMITTED) -> list[str]:
    """Files of ``current`` that differ from a fresh build (empty when in sync)."""
    from autograder.release import stale_tree

    return stale_tree(build, current, "classes/sample/submitted/", "built by sample_class.py")


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m coursetools.sample_class",
                                     description="Rebuild the sample class in classes/sample/submitted from the exercises.")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if classes/sample/submitted is stale (the exercises changed)")
    args = parser.parse_args(argv)
    if args.check:
        found = stale()
        for line in found:
            print(line)
        print("classes/sample/submitted is stale: run `python -m coursetools.sample_class` and commit."
              if found else "classes/sample/submitted is in sync with the exercises.")
        return 1 if found else 0
    built = build(SUBMITTED)
    print(f"Built {len(built)} submissions of {len(CLASS)} students into {SUBMITTED}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
