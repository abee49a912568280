"""The catalogue of tricks: submissions that try to change how the tests run.

``coursetools/catalogue/tricks/<name>.py`` is one whole answer cell. Its header says
which assignment and answer cell it targets, what kind of trick it is and which honest
answer it wraps; the trick itself sits between ``# >>> trick`` and ``# <<< trick``::

    # assignment: 05_retry_with_backoff
    # cell: resilient_invoke_answer
    # category: kernel
    # trick: an IPython input transformer replaces every cell that asserts by `pass`
    # wraps: the fake: never calls the tool, always reports success
    <the honest answer>
    # >>> trick
    <the trick>
    # <<< trick

The same file without the trick lines is "the same answer without the trick": its
honest score. A trick is *contained* when, graded with the cross-checks
(:mod:`autograder.crosscheck`), it scores no more than that, or is marked "needs
attention". ``tests/tricks/test_tricks.py`` proves it for every file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.course import CATALOGUE
from autograder.results import ATTENTION

TRICKS = CATALOGUE / "tricks"
BEGIN, END = "# >>> trick", "# <<< trick"
FIELDS = ("assignment", "cell", "category", "trick", "wraps")


@dataclass
class Trick:
    """One catalogued trick."""

    name: str
    assignment: str
    cell: str
    category: str
    what: str
    wraps: str
    code: str

    @property
    def baseline(self) -> str:
        """The same answer cell without the trick's lines."""
        kept, inside = [], False
        for line in self.code.splitlines():
            if line.strip() == BEGIN:
                inside = True
            elif line.strip() == END:
                inside = False
            elif not inside:
                kept.append(line)
        return "\n".join(kept).rstrip() + "\n"

    @classmethod
    def load(cls, path: Path) -> Trick:
        """Read one catalogue file.

        Args:
            path: the file.

        Returns:
            The trick. Raises ``ValueError`` when the header or the trick markers are missing.
        """
        text = path.read_text(encoding="utf-8")
        header = {}
        for line in text.splitlines():
            if not line.startswith("# ") or ":" not in line:
                break
            key, _, value = line[2:].partition(":")
            header[key.strip()] = value.strip()
        missing = [f for f in FIELDS if not header.get(f)]
        if missing:
            raise ValueError(f"{path}: the header lacks {', '.join(missing)}")
        if BEGIN not in text or END not in text:
            raise ValueError(f"{path}: the trick must sit between '{BEGIN}' and '{END}'")
        return cls(path.stem, header["assignment"], header["cell"], header["category"], header["trick"],
                   header["wraps"], text)


def load_tricks(folder: Path = TRICKS) -> list[Trick]:
    """Every trick in the catalogue, by name.

    Args:
        folder: the catalogue folder.

    Returns:
        The tricks, sorted by file name.
    """
    return [Trick.load(p) for p in sorted(folder.glob("*.py"))]


@dataclass
class Outcome:
    """What one trick scored, with and without the cross-checks, against its honest answer."""

    trick: Trick
    kernel: Any  # SubmissionResult: graded in the kernel alone (the cross-checks off)
    checked: Any  # SubmissionResult: the same grading, then cross-checked (what `make grade` reports)
    honest: Any  # SubmissionResult: the answer without the trick, cross-checked

    @property
    def flagged(self) -> bool:
        return self.checked.status == ATTENTION

    @property
    def contained(self) -> bool:
        """No more than the honest answer, or "needs attention"."""
        return self.checked.score <= self.honest.score or self.flagged


def prove(root: Path, tricks: list[Trick] | None = None, workers: int | None = None) -> list[Outcome]:
    """Grade every trick and its honest answer in a scratch course, then cross-check them.

    The scratch course grades as `make grade` does: sandboxed where the sandbox runs (each kernel a
    fork of a warm one, :mod:`autograder.kernelfork`), unsandboxed elsewhere.

    Args:
        root: an empty folder for the scratch course.
        tricks: the tricks (default: the whole catalogue).
        workers: grading processes (default: one per core).

    Returns:
        One :class:`Outcome` per trick, in order.
    """
    import copy
    from concurrent.futures import ThreadPoolExecutor

    from autograder import cleanroom, crosscheck
    from autograder.engine import Course
    from autograder.pool import Task, grade_tasks
    from autograder.sandbox import where_available
    from coursetools.fairness import solved

    tricks = load_tricks() if tricks is None else tricks
    # Sandboxed as `make grade` grades a class where the sandbox runs (each kernel a fork of a warm one),
    # unsandboxed elsewhere; the cross-checks run after the kernel's grading, below.
    course = Course.scratch(root, config={**where_available(), "CrossCheck": {"enabled": False}})
    for assignment in sorted({t.assignment for t in tricks}):
        course.generate(assignment)
    honest_names: dict[tuple[str, str], str] = {}
    tasks = []
    for trick in tricks:
        course.submit(trick.name, trick.assignment, solved(course, trick.assignment, **{trick.cell: trick.code}))
        tasks.append(Task(trick.assignment, trick.name))
        key = (trick.assignment, trick.baseline)
        if key not in honest_names:
            honest_names[key] = f"honest-{len(honest_names) + 1}"
            course.submit(honest_names[key], trick.assignment,
                          solved(course, trick.assignment, **{trick.cell: trick.baseline}))
            tasks.append(Task(trick.assignment, honest_names[key]))
    kernel = {r.student: r for r in grade_tasks(course, tasks, workers)}
    checked = {name: copy.deepcopy(r) for name, r in kernel.items()}
    options = cleanroom.settings(course.config)  # the cross-checks as `make grade` runs them

    def cross_check(result) -> None:  # the pipeline's cross-check stage, then its gradebook write
        changed = crosscheck.check(course.submission(result.assignment, result.student), result, options)
        if changed:
            course.book.set_auto_scores(result.assignment, result.student, changed)

    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        list(pool.map(cross_check, checked.values()))
    return [Outcome(t, kernel[t.name], checked[t.name], checked[honest_names[(t.assignment, t.baseline)]])
            for t in tricks]


def main(argv: list[str] | None = None) -> int:
    """Print the catalogue's table: kernel alone, cross-checked, honest; contained or not."""
    import argparse
    import tempfile

    argparse.ArgumentParser(prog="python -m coursetools.tricks", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="tricks-") as tmp:
        outcomes = prove(Path(tmp))
    bad = 0
    for o in outcomes:
        mark = "ok  " if o.contained else "FAIL"
        bad += not o.contained
        print(f"{mark} {o.trick.name:28} kernel {o.kernel.score:4g}  checked {o.checked.score:4g}  "
              f"honest {o.honest.score:4g}/{o.honest.max_score:g}  {'needs attention' if o.flagged else ''}")
    print(f"{bad} trick(s) not contained")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
