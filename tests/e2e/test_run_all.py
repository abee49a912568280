"""Every lesson, Run All in JupyterLab, on every supported Python: what a learner sees.

For each supported Python (Makefile: PYTHON_VERSIONS) and each notebook in course/, the
browser opens the lesson on that Python's kernel (the course's venv, or the venv
`make test` made for the other versions), clicks Run ▸ Run All Cells, waits until the
kernel is idle and saves. The saved file must show every code cell executed, and errors
only in the cells tagged `raises-exception` (failures shown on purpose; JupyterLab's Run
All goes on past them and stops at any other error, which is how a learner sees it).
A version with no interpreter on this machine is skipped, saying so. The Spanish edition
(course/es/, the same code with its text translated) runs on the course's own Python.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import nbformat
import pytest

from labdriver import MAIN_VERSION, REPO, SOURCE, Notebook, kernel_name, other_pythons, supported_versions

pytestmark = pytest.mark.e2e

def _notebooks(folder: Path) -> list[str]:
    """The lessons and appendices of one edition, as paths relative to the repository."""
    found = [*folder.glob("[0-9][0-9]_*.ipynb"), *folder.glob("A[0-9]*_*.ipynb")]
    return sorted(p.relative_to(REPO).as_posix() for p in found)


LESSONS = _notebooks(REPO / "course")
SPANISH = _notebooks(REPO / "course" / "es")
CASES = [(v, lesson) for v in supported_versions() for lesson in LESSONS] + [(MAIN_VERSION, lesson) for lesson in SPANISH]


def _case_id(version: str, lesson: str) -> str:
    return f"py{version}-{Path(lesson).name[:2]}" + ("-es" if "/es/" in lesson else "")


def on_kernel(checkout: Path, lesson: str, version: str) -> str:
    """A copy of the lesson beside it (same folder: relative links and files still resolve)
    whose metadata names the kernel of ``version``; returns its path in the checkout."""
    src = checkout / lesson
    # From the checkout under test, not the server's copy: other browser tests run and save lessons there.
    nb = nbformat.read(SOURCE / lesson, as_version=4)
    nb.metadata["kernelspec"] = {"name": kernel_name(version), "language": "python",
                                 "display_name": f"Python {version}"}
    name = f"{src.stem}-py{version}.ipynb"
    nbformat.write(nb, src.parent / name)
    return (src.parent / name).relative_to(checkout).as_posix()


def problems(path: Path) -> list[str]:
    """What went wrong in a saved notebook: cells not run, unexpected errors, expected ones missing."""
    nb = nbformat.read(path, as_version=4)
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        errors = [o for o in cell.outputs if o.get("output_type") == "error"]
        expected = "raises-exception" in cell.metadata.get("tags", [])
        if cell.execution_count is None:
            found.append(f"cell {i} never ran")
        elif errors and not expected:
            found += [f"cell {i} raised {e.get('ename')}: {e.get('evalue')}" for e in errors]
        elif expected and not errors:
            found.append(f"cell {i} is tagged raises-exception but did not raise")
    return found


def until_last_cell_ran(lab, nb: Notebook, timeout: float) -> None:
    """Wait until the last code cell has its execution count, or the kernel has stayed idle for
    5 s short of it (Run All stopped at an error). The status bar alone can read idle between two
    cells, and off-screen cells are not rendered, so the last cell is scrolled into view."""
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline:
        last = nb.panel.locator(".jp-Cell.jp-CodeCell").last
        last.evaluate("e => e.scrollIntoView({block: 'center'})")
        if re.search(r"\[\d+\]", last.locator(".jp-InputPrompt").text_content() or ""):
            nb.wait_idle(timeout=60, settle=0)  # the last cell has run: nothing runs after it
            return
        kernels = lab.server.api("GET", "/api/kernels") or []
        quiet = quiet + 1 if all(k.get("execution_state") == "idle" for k in kernels) else 0
        if quiet >= 10:
            return
        lab.page.wait_for_timeout(500)


@pytest.mark.parametrize(("version", "lesson"), CASES, ids=[_case_id(v, lesson) for v, lesson in CASES])
def test_run_all_executes_every_cell(lab_tab, version, lesson):
    """Run ▸ Run All Cells runs every code cell of the lesson on this Python, with no unexpected error."""
    lab = lab_tab
    if version != MAIN_VERSION and other_pythons().get(version) is None:
        pytest.skip(f"Python {version} was not found on this machine: `make pythons` says where it is looked for")
    rel = on_kernel(lab.server.checkout, lesson, version)
    lab.open(rel)
    nb = Notebook(lab.page, Path(rel).name).wait_open(timeout=90, settle=0)
    kernel = lab.server.api("GET", "/api/sessions") or []
    running = {s["kernel"]["name"] for s in kernel if s.get("path", "").endswith(Path(rel).name)}
    assert running == {kernel_name(version)}, f"{rel} runs on kernels {running}, not {kernel_name(version)}"
    nb.run_all(timeout=240, settle=0)  # it may end idle between two cells: until_last_cell_ran waits for the last
    until_last_cell_ran(lab, nb, timeout=240)
    nb.save()
    lab.shot("ran")
    found = problems(lab.server.checkout / rel)
    assert not found, f"{lesson} on Python {version}, Run All in JupyterLab:\n" + "\n".join(found)
