"""toolfaults.progress: the visible tests of each exercise, run on a learner's notebooks.

Right on the released stubs (every part "not started"), on the solutions (every part
"done", hidden tests not run) and on half-done notebooks ("in progress", or one part done
and the other not started); the learner's folder is left exactly as it was.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from toolfaults.progress import (
    PartProgress, TestOutcome, check_exercises, check_notebook, exercise_notebooks, find_parts, format_table,
    main, show_progress, visible_source,
)

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
SOLUTIONS = ROOT / "solutions"
STEMS = [p.parent.name for p in exercise_notebooks(EXERCISES)]


def snapshot(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file under a folder: its content hash and modification time."""
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def rows_by_part(rows: list[PartProgress]) -> dict[tuple[str, str], PartProgress]:
    return {(r.exercise, r.part): r for r in rows}


def answer_cell(nb, grade_id: str):
    found = [c for c in nb.cells if (c.metadata.get("nbgrader") or {}).get("grade_id") == grade_id]
    assert len(found) == 1, f"no single cell with grade_id {grade_id!r}"
    return found[0]


# --- structure, without running anything -----------------------------------------------------------

def test_every_exercise_is_found_with_its_parts_and_visible_tests():
    """Parts and tests come from the nbgrader metadata of the released notebooks."""
    assert STEMS == sorted(p.name for p in EXERCISES.iterdir() if p.is_dir()), "an exercise folder was missed"
    parts = {stem: find_parts(nbformat.read(EXERCISES / stem / f"{stem}.ipynb", as_version=4)) for stem in STEMS}
    for stem, found in parts.items():
        assert found, f"{stem}: no part found"
        for part in found:
            assert part.tests, f"{stem} {part.title}: no visible test found"
    titles = {stem: [p.title for p in found] for stem, found in parts.items()}
    assert titles["04_validate_then_execute"] == ["Part A: convert_temperature", "Part B: lookup_country"]
    assert titles["05_retry_with_backoff"] == ["Part A: resilient_invoke"]
    assert titles["06_fallback_and_degradation"] == ["search_with_fallback"]
    nb = nbformat.read(EXERCISES / "04_validate_then_execute" / "04_validate_then_execute.ipynb", as_version=4)
    ids = [[nb.cells[i].metadata["nbgrader"]["grade_id"] for i in p.tests] for p in find_parts(nb)]
    assert all(i.startswith("test_convert_temperature") for i in ids[0]), ids[0]
    assert all(i.startswith("test_lookup_country") for i in ids[1]), ids[1]
    assert not any(nb.cells[i].metadata["nbgrader"]["grade_id"] == "setup" for p in find_parts(nb) for i in p.tests)


def test_solutions_have_the_same_parts_and_tests_as_the_exercises():
    for stem in STEMS:
        ex = find_parts(nbformat.read(EXERCISES / stem / f"{stem}.ipynb", as_version=4))
        sol = find_parts(nbformat.read(SOLUTIONS / stem / f"{stem}.ipynb", as_version=4))
        assert [(p.title, p.tests) for p in ex] == [(p.title, p.tests) for p in sol], stem


def test_hidden_tests_are_stripped():
    source = ('"""doc"""\nassert f(1) == 2\n### BEGIN HIDDEN TESTS\nassert f(2) == 4, "hidden"\n'
              '### END HIDDEN TESTS\nassert f(0) == 0\n')
    assert visible_source(source) == '"""doc"""\nassert f(1) == 2\nassert f(0) == 0\n'
    assert visible_source("assert True\n") == "assert True\n"


@pytest.mark.parametrize(("tests", "stub", "status"), [
    ((TestOutcome("a", True), TestOutcome("b", True)), False, "done"),
    ((TestOutcome("a", True), TestOutcome("b", True)), True, "done"),
    ((TestOutcome("a", True), TestOutcome("b", False, "AssertionError: x")), False, "in progress"),
    ((TestOutcome("a", True), TestOutcome("b", False, "AssertionError: x")), True, "in progress"),
    ((TestOutcome("a", False, "AssertionError: x"),), True, "not started"),
    ((TestOutcome("a", False, "NameError: name 'f' is not defined"),), False, "in progress"),
    ((), True, "not started"),
])
def test_status_rule(tests, stub, status):
    """Done: every visible test passes. Not started: none passes and the stub is still there."""
    assert PartProgress("01_x", "Part A: f", tests, stub).status == status


def test_rows_round_trip_through_json_and_print_as_a_table():
    rows = [
        PartProgress("03_validate", "Part A: convert_temperature",
                     (TestOutcome("test_a", True), TestOutcome("test_b", False, "AssertionError: says why")), False),
        PartProgress("03_validate", "Part B: lookup_country", (TestOutcome("test_c", False, "AssertionError: no"),), True),
        PartProgress("04_retry", "-", problem="unreadable: NotJSONError: bad"),
    ]
    back = [PartProgress.from_dict(d) for d in json.loads(json.dumps([r.to_dict() for r in rows]))]
    assert back == rows
    table = format_table(rows, details=True)
    lines = table.splitlines()
    assert lines[0].split() == ["exercise", "part", "visible", "tests", "status"]
    assert lines[1].split()[-3:] == ["1/2", "in", "progress"]
    assert lines[2] == "    test_b: AssertionError: says why", "a part in progress lists its failing tests"
    assert lines[3].split()[-3:] == ["0/1", "not", "started"]
    assert "unreadable (NotJSONError: bad)" in lines[4]
    assert lines[-1].startswith("0 of 3 parts done, 1 in progress, 1 not started.")
    assert "test_b" not in format_table(rows), "failing tests are listed only with details"


def test_missing_and_unreadable_notebooks_are_reported_not_raised(tmp_path):
    (tmp_path / "01_broken").mkdir()
    (tmp_path / "01_broken" / "01_broken.ipynb").write_text('{"cells": [')
    (tmp_path / "02_gone").mkdir()
    rows = check_exercises(tmp_path)
    assert [(r.exercise, r.status) for r in rows] == [("01_broken", "unreadable"), ("02_gone", "missing")]


def test_exercises_are_checked_side_by_side_and_listed_in_order(tmp_path, monkeypatch):
    """With two cores, two exercises run at the same time (each waits for the other at a barrier; run one after
    the other, the first would wait in vain and fail), and the rows still come in the exercises' order."""
    import threading

    import toolfaults.progress as progress

    for stem in ("01_first", "02_second", "03_third"):
        (tmp_path / stem).mkdir()
    barrier = threading.Barrier(2, timeout=30)
    seen: list[str] = []

    def check(notebook, *, exercise=None, **kwargs):
        if exercise != "03_third":
            barrier.wait()  # raises BrokenBarrierError when the other exercise is not running alongside
        seen.append(exercise)
        return [PartProgress(exercise, "Part A")]

    monkeypatch.setattr(progress, "check_notebook", check)
    monkeypatch.setattr(progress.os, "cpu_count", lambda: 2)
    rows = check_exercises(tmp_path)
    assert [r.exercise for r in rows] == ["01_first", "02_second", "03_third"]
    assert sorted(seen) == ["01_first", "02_second", "03_third"]


def test_main_says_when_there_is_no_exercises_folder(tmp_path, capsys):
    assert main([str(tmp_path / "nowhere"), "--quiet"]) == 2
    assert "no exercises folder" in capsys.readouterr().err


# --- real runs --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def stub_run():
    """The released exercises as a learner first opens them; the folder's files before and after."""
    before = snapshot(EXERCISES)
    rows = check_exercises(EXERCISES)
    return rows, before, snapshot(EXERCISES)


@pytest.mark.slow
def test_released_stubs_are_all_not_started(stub_run):
    rows, _, _ = stub_run
    assert {r.exercise for r in rows} == set(STEMS)
    wrong = [(r.exercise, r.part, f"{r.passed}/{r.total}", r.status) for r in rows
             if r.status != "not started" or r.passed != 0 or r.total == 0]
    assert not wrong, f"released stubs must read 'not started' with 0 tests passed: {wrong}"
    expected = {(stem, p.title): len(p.tests) for stem in STEMS
                for p in find_parts(nbformat.read(EXERCISES / stem / f"{stem}.ipynb", as_version=4))}
    assert {(r.exercise, r.part): r.total for r in rows} == expected, "every visible test is counted once"


@pytest.mark.slow
def test_running_the_tests_touches_nothing(stub_run):
    _, before, after = stub_run
    assert after == before, "the exercises folder changed (a file written, saved or added) during the check"


@pytest.mark.slow
def test_solutions_are_all_done_on_their_visible_tests(tmp_path):
    """The solution notebooks pass every visible test (their hidden tests are skipped, not run)."""
    before = snapshot(SOLUTIONS)
    rows = check_exercises(SOLUTIONS)
    assert {r.exercise for r in rows} == set(STEMS), "every exercise's solution, practice ones included, has its parts"
    not_done = [(r.exercise, r.part, f"{r.passed}/{r.total}", [t.error for t in r.failing]) for r in rows
                if r.status != "done"]
    assert not not_done, f"solutions must be 'done': {not_done}"
    assert snapshot(SOLUTIONS) == before


@pytest.mark.slow
def test_half_done_exercises_read_in_progress_and_per_part(tmp_path):
    """One part solved and one not: done + not started. A partial function: in progress."""
    root = tmp_path / "exercises"
    for stem in ("04_validate_then_execute", "06_fallback_and_degradation"):
        shutil.copytree(EXERCISES / stem, root / stem)

    path = root / "04_validate_then_execute" / "04_validate_then_execute.ipynb"
    nb = nbformat.read(path, as_version=4)
    solution = nbformat.read(SOLUTIONS / "04_validate_then_execute" / "04_validate_then_execute.ipynb", as_version=4)
    answer_cell(nb, "convert_temperature_answer").source = answer_cell(solution, "convert_temperature_answer").source
    nbformat.write(nb, path)

    path = root / "06_fallback_and_degradation" / "06_fallback_and_degradation.ipynb"
    nb = nbformat.read(path, as_version=4)
    answer_cell(nb, "search_with_fallback_answer").source = '''\
def search_with_fallback(query, sources):
    # first answer wins, but failures are not recorded and the message says little
    for name, source in sources:
        try:
            result = source(query)
        except Exception:
            continue
        return {"ok": True, "source": name, "result": result, "failed": [], "message": f"From {name}."}
    return {"ok": False, "source": None, "result": None, "failed": [], "message": "No answer."}
'''
    nbformat.write(nb, path)

    rows = rows_by_part(check_exercises(root))
    a = rows[("04_validate_then_execute", "Part A: convert_temperature")]
    b = rows[("04_validate_then_execute", "Part B: lookup_country")]
    c = rows[("06_fallback_and_degradation", "search_with_fallback")]
    assert (a.status, a.passed == a.total) == ("done", True), a
    assert (b.status, b.passed) == ("not started", 0), b
    assert c.status == "in progress" and 0 < c.passed < c.total, c
    failing = {t.name for t in c.failing}
    assert "test_search_with_fallback_records_failures" in failing, failing
    assert all(t.error.startswith("AssertionError") for t in c.failing), [t.error for t in c.failing]


def _synthetic_exercise(folder: Path) -> Path:
    """Three parts: two answers of which one is done; an endless loop; an untouched stub."""
    def locked(source, grade_id, **extra):
        return new_code_cell(source, metadata={"nbgrader": {"grade_id": grade_id, "locked": True, "solution": False,
                                                            "grade": bool(extra), **extra}})

    def answer(source, grade_id):
        return new_code_cell(source, metadata={"nbgrader": {"grade_id": grade_id, "locked": False,
                                                            "solution": True, "grade": False}})

    stub = "    # YOUR CODE HERE\n    raise NotImplementedError()"
    nb = new_notebook(cells=[
        locked("import math", "setup"),
        new_markdown_cell("## Part A: `double` and `triple` (3 points)"),
        answer("def double(x):\n    return 2 * x", "double_answer"),
        answer(f"def triple(x):\n{stub}", "triple_answer"),
        new_code_cell("triple(2)"),  # a "try it" cell: not a test
        locked("assert double(2) == 4", "test_double", points=1),
        locked("assert triple(1) == 3, 'triple is not written'", "check_triple"),
        locked("assert double(0) == 0\n### BEGIN HIDDEN TESTS\nassert False, 'a hidden test ran'\n"
               "### END HIDDEN TESTS", "test_double_hidden", points=1),
        new_markdown_cell("## Part B: forever"),
        answer("def forever():\n    while True:\n        pass", "forever_answer"),
        locked("forever()", "test_forever", points=1),
        locked("assert math.pi > 3", "test_after_the_loop", points=1),
        new_markdown_cell("## Part C: `later`"),
        answer(f"def later():\n{stub}", "later_answer"),
        locked("assert later() == 1", "test_later", points=1),
    ])
    path = folder / "01_synthetic" / "01_synthetic.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nb, path)
    return path


@pytest.mark.slow
def test_parts_hidden_tests_and_an_endless_loop(tmp_path):
    """Tests are grouped per part; hidden blocks are skipped; a cell that never ends is
    interrupted, counted as failed, and the tests after it still run."""
    path = _synthetic_exercise(tmp_path)
    rows = check_notebook(path, timeout=3)
    assert [(r.part, r.passed, r.total, r.status) for r in rows] == [
        ("Part A: double", 2, 3, "in progress"),
        ("Part B: forever", 1, 2, "in progress"),
        ("Part C: later", 0, 1, "not started"),
    ], rows
    a, b, _ = rows
    assert [t.name for t in a.failing] == ["check_triple"] and "NotImplementedError" in a.failing[0].error
    assert [t.name for t in b.failing] == ["test_forever"], b
    assert not (path.parent / ".ipynb_checkpoints").exists()


@pytest.mark.slow
def test_show_progress_prints_the_table_for_a_notebook_cell(tmp_path, monkeypatch, capsys):
    """The index page's cell: finds exercises/ above the notebook's folder, runs in a separate
    process, prints the table and returns nothing (no list echoed under the cell)."""
    root = tmp_path / "exercises"
    shutil.copytree(EXERCISES / "06_fallback_and_degradation", root / "06_fallback_and_degradation")
    (tmp_path / "course").mkdir()
    monkeypatch.chdir(tmp_path / "course")
    assert show_progress() is None
    out = capsys.readouterr().out
    assert f"exercises in {root}" in out
    row = next(line for line in out.splitlines() if line.startswith("06_fallback_and_degradation"))
    (part,) = find_parts(nbformat.read(root / "06_fallback_and_degradation" / "06_fallback_and_degradation.ipynb",
                                      as_version=4))
    assert row.split()[1:] == ["search_with_fallback", f"0/{len(part.tests)}", "not", "started"], row
    assert out.strip().endswith("hidden tests run when you are graded."), out


def test_module_doctests_pass():
    import doctest

    import toolfaults.progress as module

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, f"{result.failed} doctest(s) in toolfaults.progress failed"


# A kernel that exits at once for its first `fails` starts, then is a real IPython kernel.
_FLAKY_KERNEL = '''\
import pathlib, sys
starts = pathlib.Path(sys.argv[1])
n = len(starts.read_text()) if starts.exists() else 0
starts.write_text("x" * (n + 1))
if n < int(sys.argv[2]):
    sys.exit(1)
from ipykernel import kernelapp
kernelapp.launch_new_instance(argv=sys.argv[3:])
'''


def _flaky_kernel(folder: Path, name: str, fails: int) -> Path:
    """A kernelspec ``name`` under ``folder/kernels``; returns the file that counts its starts."""
    import sys

    spec = folder / "kernels" / name
    spec.mkdir(parents=True)
    (spec / "flaky.py").write_text(_FLAKY_KERNEL)
    starts = folder / f"{name}-starts"
    argv = [sys.executable, str(spec / "flaky.py"), str(starts), str(fails), "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": name, "language": "python"}))
    return starts


def _small_exercise(folder: Path, test_sources: list[str]) -> Path:
    cells = [new_markdown_cell("## Part A: `one`"),
             new_code_cell("def one():\n    return 1", metadata={"nbgrader": {
                 "grade_id": "one_answer", "locked": False, "solution": True, "grade": False}})]
    cells += [new_code_cell(src, metadata={"nbgrader": {"grade_id": f"test_{i}", "locked": True, "solution": False,
                                                         "grade": True, "points": 1}})
              for i, src in enumerate(test_sources)]
    path = folder / "01_small" / "01_small.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(new_notebook(cells=cells), path)
    return path


@pytest.mark.slow
def test_a_kernel_that_does_not_start_is_started_again(tmp_path, monkeypatch):
    """A kernel that fails to start is the machine's doing: another one runs the tests."""
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    starts = _flaky_kernel(tmp_path / "jupyter", "flaky", fails=1)
    path = _small_exercise(tmp_path / "exercises", ["assert one() == 1", "assert one() == 2, 'one is not two'"])
    (row,) = check_notebook(path, kernel_name="flaky", timeout=30)
    assert len(starts.read_text()) == 2, "the kernel was not started again"
    assert [(t.name, t.passed) for t in row.tests] == [("test_0", True), ("test_1", False)], row
    assert "one is not two" in row.tests[1].error


@pytest.mark.slow
def test_progress_says_when_the_kernel_never_starts(tmp_path):
    """`python -m toolfaults.progress`, its python3 kernel never starting: a few tries, then every test
    says the kernel did not start and why, nothing else is printed, and the command still answers."""
    import subprocess
    import sys

    from toolfaults.progress import KERNEL_START_ATTEMPTS, _kernel_env

    starts = _flaky_kernel(tmp_path / "jupyter", "python3", fails=99)
    _small_exercise(tmp_path / "exercises", ["assert one() == 1"])
    env = {**_kernel_env(), "JUPYTER_PATH": str(tmp_path / "jupyter")}
    done = subprocess.run([sys.executable, "-m", "toolfaults.progress", str(tmp_path / "exercises"), "--json"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    (row,) = [PartProgress.from_dict(d) for d in json.loads(done.stdout)]
    (test,) = row.tests
    assert not test.passed
    assert test.error.startswith(f"not run: the kernel did not start after {KERNEL_START_ATTEMPTS} tries ("), test
    assert "Kernel died" in test.error, test
    assert len(starts.read_text()) == KERNEL_START_ATTEMPTS
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr


@pytest.mark.slow
def test_a_kernel_the_notebook_kills_is_not_started_again(tmp_path, monkeypatch):
    """A notebook that ends its own kernel is run once: that cell fails, saying so, and the tests after it
    say where it stopped."""
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    starts = _flaky_kernel(tmp_path / "jupyter", "flaky", fails=0)
    path = _small_exercise(tmp_path / "exercises", ["assert one() == 1", "import os\nos._exit(3)", "assert one()"])
    (row,) = check_notebook(path, kernel_name="flaky", timeout=30)
    assert len(starts.read_text()) == 1, "a notebook that kills its kernel was run again"
    first, killer, after = row.tests
    assert first.passed and not killer.passed and not after.passed, row
    assert killer.error.startswith("the notebook stopped during this cell (DeadKernelError"), killer
    assert after.error.startswith("not run: the notebook stopped before this cell (DeadKernelError"), after
