"""Exercise 05 in the browser, as a learner works on it, in English and in Spanish.

Run All on the stub: every visible test fails with its own message (in the edition's
language); nbgrader's Validate says the notebook fails. Type a correct answer into the
answer cell through the editor, Run All again: every visible test passes, and Validate
says success.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from playwright.sync_api import expect

from autograder.course import CATALOGUE, ROOT
from labdriver import Notebook

pytestmark = pytest.mark.e2e

ENGLISH = "05_retry_with_backoff"
EDITIONS = {"en": ENGLISH, "es": f"{ENGLISH}_es"}
FUNCTION = "resilient_invoke"
ANSWER_ID = f"{FUNCTION}_answer"
_HEADER = re.compile(r"^#\s*(cell|mistake|expect|expect-es)\s*:")
# Words every Spanish test message uses and no English one does; English ones that must not remain.
SPANISH = re.compile(r"\b(debe|deben|tiene|que|el|la|los|las|una?|del|con|sin|veces?)\b", re.I)
ENGLISH_ONLY = re.compile(r"\b(must|should|the|was|were|got)\b")


def notebook(assignment: str) -> str:
    return f"exercises/{assignment}/{assignment}.ipynb"


def correct_answer(root, assignment: str = ENGLISH) -> str:
    """A correct answer cell: a `right_` implementation of the catalogue (shared by both editions), else the solution's."""
    for path in sorted((root / CATALOGUE.relative_to(ROOT) / ENGLISH).glob("right_*.py")):
        lines = path.read_text().splitlines()
        if lines and lines[0].split(":", 1)[-1].strip() == ANSWER_ID:
            while lines and _HEADER.match(lines[0]):
                lines.pop(0)
            return "\n".join(lines).strip() + "\n"
    solution = nbformat.read(root / "solutions" / assignment / f"{assignment}.ipynb", as_version=4)
    cell = next(c for c in solution.cells if c.metadata.get("nbgrader", {}).get("grade_id") == ANSWER_ID)
    return re.sub(r"^\s*### (BEGIN|END) SOLUTION\n", "", cell.source, flags=re.M)


def layout(path):
    """(index of the answer cell, indices of the test cells) in the released notebook."""
    assert path.is_file(), f"{path} does not exist (generated from solutions/ by `make exercises`)"
    nb = nbformat.read(path, as_version=4)
    meta = [c.metadata.get("nbgrader", {}) for c in nb.cells]
    answer = [i for i, m in enumerate(meta) if m.get("grade_id") == ANSWER_ID]
    tests = [i for i, m in enumerate(meta) if m.get("grade") and nb.cells[i].cell_type == "code"]
    assert len(answer) == 1, f"{path}: expected one answer cell {ANSWER_ID!r}, found {len(answer)}"
    assert tests, f"{path}: no test cells"
    return answer[0], tests


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def validate(lab, nb: Notebook, expected: str, step: str) -> str:
    """Click Validate; the dialog must carry `validation-<expected>`; returns its text."""
    nb.panel.locator(".validate-button").first.click()
    dialog = lab.page.locator(".jp-Dialog")
    dialog.locator(".validation-failed, .validation-success, .validation-changed, "
                   ".validation-type-changed, .validation-passed").first.wait_for(timeout=90000)
    text = dialog.inner_text()
    lab.shot(step)
    found = dialog.locator(f".validation-{expected}")
    assert found.count() == 1, f"Validate should report {expected}; it says:\n{text[:2000]}"
    dialog.locator("button", has_text="Ok").first.click()
    expect(dialog).to_have_count(0)
    return text


@pytest.mark.parametrize("language", sorted(EDITIONS))
def test_exercise_stub_fails_helpfully_then_a_correct_answer_passes_and_validates(lab, language):
    root = lab.server.checkout
    assignment = EDITIONS[language]
    path = notebook(assignment)
    answer, tests = layout(root / path)
    lab.goto(path)
    nb = Notebook(lab.page, f"{assignment}.ipynb").wait_open()
    lab.shot("opened")

    # 1. The stub: Run All stops at the first error (JupyterLab stops on errors), so the
    #    learner runs the remaining tests one by one; each shows its own message.
    nb.run_all()
    lab.shot("stub-ran-all")
    for i in tests:
        if not re.search(r"\[\d+\]", nb.prompt(i)):
            nb.run_cell(i)
    nb.wait_idle()
    lab.shot("stub-ran-tests")
    failures = {}
    for i in tests:
        failures[i] = last_line(nb.cell_text(i))
    not_failing = [i for i, line in failures.items() if not re.match(r"^\w+(Error|Exception)\b", line)]
    assert not not_failing, f"on the stub these test cells show no error: {[(i, failures[i]) for i in not_failing]}"
    bare = [i for i, line in failures.items() if line == "AssertionError"]
    assert not bare, f"test cells fail with a bare AssertionError (no message for the learner): {bare}"
    helpful = [line for line in failures.values() if re.match(r"^AssertionError: \S", line)]
    assert helpful, f"no visible test explains its failure on the stub: {failures}"
    if language == "es":
        english = [line for line in helpful if ENGLISH_ONLY.search(line) or not SPANISH.search(line)]
        assert not english, f"the Spanish exercise explains failures in English: {english}"
    (lab.artifacts / f"{lab.name}-stub-messages.txt").write_text(
        "".join(f"cell {i}: {line}\n" for i, line in failures.items()))
    nb.cells.nth(tests[0]).locator(".jp-OutputArea-output").last.evaluate(
        "e => e.scrollIntoView({block: 'end'})")  # the message, under the traceback
    lab.shot("stub-tests-fail")
    validate(lab, nb, "failed", "stub-validate-failed")

    # 2. A correct answer typed into the answer cell; Run All now goes through.
    typed = correct_answer(root, assignment)
    nb.set_cell_source(answer, typed)
    nb.save()
    saved = nbformat.read(root / path, as_version=4).cells[answer].source
    assert saved.strip() == typed.strip(), f"the editor holds\n{saved}\ninstead of\n{typed}"
    nb.run_all()
    prompts = nb.prompts()
    assert all(re.fullmatch(r"\[\d+\]:", p) for p in prompts), f"not every cell ran: {prompts}"
    errors = [(i, last_line(t)) for i, t in nb.error_outputs() if re.search(r"Error|Traceback|Exception", t)]
    failing = [e for e in errors if e[0] in tests]
    assert not failing, f"with a correct answer these visible tests still fail: {failing}"
    assert not errors, f"error output with a correct answer: {errors}"
    nb.cells.nth(tests[0]).scroll_into_view_if_needed()
    lab.shot("answer-tests-pass")
    validate(lab, nb, "success", "answer-validate-success")
    nb.wait_idle()
    lab.assert_clean()
