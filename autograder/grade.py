"""Grade the whole class in one command (what `make grade` runs).

    autograder grade                   # every submission, on a Dask LocalCluster, one worker per core and one more
    autograder grade --workers 1       # one at a time, in this process
    autograder grade --assignment 05_retry_with_backoff --student ana
    autograder grade --db postgresql://grader@dbhost/gradebook --scheduler tcp://scheduler:8786

Grades one class, a folder of its own (:mod:`autograder.classes`: ``--class DIR``, make's ``CLASS=DIR``,
``class.local``, or the sample class ``classes/sample``). Reads
``<class>/submitted/<student>/<assignment>/<notebook>.ipynb`` (never modifies it), then:

1. generates every assignment that has submissions, once (into a scratch release
   folder: ``exercises/`` is left alone), recording it in the gradebook;
2. autogrades every submission as one task per student and assignment on Dask
   (:func:`autograder.pool.grade_tasks`): a LocalCluster of long-lived worker
   processes by default, or the workers of a running scheduler (``--scheduler``), the
   same code path; each notebook in its own kernel, in the bubblewrap sandbox of
   :mod:`autograder.sandbox` when it can run here. The gradebook is SQLite,
   ``<class>/gradebook.db``, by default, PostgreSQL with ``--db``;
3. writes, all in ``<class>/output/``: ``grades.csv`` (student, assignment, score,
   max_score, status, notes) from the gradebook, the feedback of every student
   (``feedback/<student>/<assignment>/``, no test source), the results as data
   (``reports/results.json``) and the class report (``reports/class_report.html``).
   A score an instructor set in the formgrader (a manual score) is what all of them show,
   with the tests' own score beside it; a submission in the submissions folder that no run
   has graded yet is "not graded yet" in grades.csv, not "not submitted".

A broken submission never stops the batch: it gets a score and a reason, and the
ones whose score may not reflect the work are listed as "needs attention".
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import gradebook as gbook
from . import readback
from .course import ROOT, SOLUTIONS, ClassFolder, graded_assignments
from .engine import Course
from .results import ATTENTION, INSTRUCTOR_SCORE, SubmissionResult
from .pool import REGRADED, Task, default_workers, grade_tasks
from .worker import warm_up

# Named, not __name__: run as `python -m autograder.grade` this module is "__main__", outside the
# "autograder" loggers that setup_logging shows (its debug lines were lost, its errors unformatted).
logger = logging.getLogger("autograder.grade")
CLUSTER_DID_NOT_GRADE = 3  # exit status: every task failed on the workers (graded here instead)
NOT_GRADED = "not graded yet"  # grades.csv status: in the submissions folder, not in the gradebook


def setup_logging(verbose: bool = False) -> None:
    """The grader's messages on stderr, once per process (``verbose``: nbgrader's own log too)."""
    root = logging.getLogger("autograder")
    if not any(getattr(h, "_autograder", False) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        handler._autograder = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)


def _folders(path: Path) -> list[Path]:
    """The folders in ``path``, hidden ones aside, by name (none when ``path`` is not a folder)."""
    return sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith(".")) if path.is_dir() else []


def students(submissions: Path) -> list[str]:
    """The students of a submissions folder: its ``<student>/`` folders."""
    return [p.name for p in _folders(submissions)]


def find_tasks(submissions: Path, known: list[str], only_assignments: list[str] | None = None,
               only_students: list[str] | None = None) -> tuple[list[Task], list[str]]:
    """Every ``<student>/<assignment>/`` folder of ``submissions``; and the folders that are not assignments."""
    tasks, unknown = [], []
    for student_dir in _folders(submissions):
        if only_students and student_dir.name not in only_students:
            continue
        for folder in _folders(student_dir):
            if folder.name not in known:
                unknown.append(f"{student_dir.name}/{folder.name}")
            elif not only_assignments or folder.name in only_assignments:
                tasks.append(Task(folder.name, student_dir.name))
    return tasks, unknown


def unknown_names(submissions: Path, only_assignments: list[str] | None,
                  only_students: list[str] | None) -> list[str]:
    """What is wrong with the ``--assignment`` and ``--student`` names, one line each (none: all known).

    An assignment must be one of the course's; a student must have a folder in ``submissions``.
    Each line names the unknown values and lists the valid ones.
    """
    lines = []
    for option, given, valid, where in (
            ("assignment", only_assignments, graded_assignments(), "the course's assignments"),
            ("student", only_students, students(submissions), f"the students in {_rel(submissions)}")):
        wrong = [name for name in dict.fromkeys(given or []) if name not in valid]
        if wrong:
            lines.append(f"unknown {option}{'s' if len(wrong) > 1 else ''} {', '.join(wrong)}; "
                         f"{where}: {', '.join(valid) or 'none'}")
    return lines


def grading_settings(unsandboxed: bool = False, timeout: int | None = None,
                     notebook_timeout: int | None = None, stream: Any = None) -> dict[str, dict[str, Any]]:
    """The course configuration for grading: the sandbox (unless told not to) and time limits."""
    from .preprocessors import autograde_pipeline

    settings: dict[str, dict[str, Any]] = {}
    if unsandboxed:
        from . import sandbox

        sandbox.warn_unsandboxed(stream)
    else:
        from . import sandbox

        sandbox.check_sandbox()  # raises SandboxUnavailable, saying what to do
        settings = sandbox.course_settings(autograde_pipeline())
    if timeout is not None:
        settings.setdefault("Execute", {})["timeout"] = timeout
    if notebook_timeout is not None:
        settings.setdefault("GuardedExecute", {})["notebook_timeout"] = notebook_timeout
    return settings


def make_course(settings: dict[str, dict[str, Any]], release: Path, *, root: Path = ROOT,
                source: Path = SOLUTIONS, submissions: Path | None = None, staging: Path | None = None,
                **coursedir: Any) -> Course:
    return Course(root, source, submissions=submissions, staging=staging, config=settings,
                  release_directory=str(release), **coursedir)


def task_time_limit(course: Course) -> float:
    """A grading task's wall-clock limit (seconds), a function of the course's settings: the notebook's time
    limit twice (``GuardedExecute.notebook_timeout``: the kernel, then the clean room of :mod:`autograder.cleanroom`)
    plus a kernel's start-up limit (``SandboxedKernelManager.startup_timeout``) for each kernel start the grader
    may try (``GuardedExecute.start_attempts``), which also leaves the clean room's start-up and the bookkeeping
    their time."""
    from .preprocessors import GuardedExecute
    from .sandbox import SandboxedKernelManager

    executor = GuardedExecute(config=course.config)
    startup = SandboxedKernelManager(config=course.config).startup_timeout
    return 2.0 * executor.notebook_timeout + startup * max(1, executor.start_attempts)


def run(course: Course, tasks: list[Task], workers: int, out: Path, feedback_dir: Path,
        log=print, scheduler: str | None = None, timings: dict[str, float] | None = None,
        collected: Path | None = None) -> list[SubmissionResult]:
    """Generate, grade (:func:`autograder.pool.grade_tasks`), export, write feedback and the report.

    With a LocalCluster, the cluster starts before the assignments are generated and shuts
    down while grades, feedback and the report are written, so that neither waits for the
    other (:class:`autograder.cluster.StartingCluster`); its workers warm up (imports, warm
    kernel process: :func:`autograder.worker.warm_up`) while the assignments
    are generated. Returns the results; ``timings``, when
    given, gets the seconds of each step (``generate``, ``grade``, ``write``, and with a
    LocalCluster ``cluster_up``, from its start, and ``cluster_close``). ``--verbose`` logs them.
    """
    from contextlib import nullcontext

    from .cluster import StartingCluster

    timings = {} if timings is None else timings
    with (StartingCluster(workers, warm=(warm_up, course.spec())) if workers > 1 and scheduler is None
          else nullcontext()) as cluster:
        results = _run(course, tasks, workers, out, feedback_dir, log, scheduler, cluster, timings, collected)
    if cluster is not None:
        timings.update(cluster_up=cluster.up_after or 0.0, cluster_close=cluster.closed_after or 0.0)
    logger.debug("Seconds: %s.", ", ".join(f"{step} {seconds:.1f}" for step, seconds in timings.items()))
    return results


def _run(course: Course, tasks: list[Task], workers: int, out: Path, feedback_dir: Path, log,
         scheduler: str | None, cluster, timings: dict[str, float],
         collected: Path | None = None) -> list[SubmissionResult]:
    """Generate, grade, write the outputs and say what happened: the grade command's three steps."""
    began = time.perf_counter()
    for assignment in sorted({t.assignment for t in tasks}):
        course.generate(assignment)
    timings["generate"] = time.perf_counter() - began

    # A partial run (--student, --assignment) updates the class's results, it does not replace them;
    # the earlier run's seconds say which submissions to hand out first.
    earlier = {(r.student, r.assignment): r for r in _previous(out / "reports" / "results.json")}
    started = time.perf_counter()
    results = grade_tasks(course, tasks, workers, scheduler=scheduler, time_limit=task_time_limit(course),
                          on_result=_progress(log, max((len(t.student) for t in tasks), default=8)),
                          cluster=cluster, seconds={key: r.seconds for key, r in earlier.items()})
    elapsed = timings["grade"] = time.perf_counter() - started
    if cluster is not None:
        cluster.close(wait=False)  # while the outputs are written; run() waits for it
    csv_path, page = write_outputs(course, results, earlier, out, feedback_dir, collected)
    timings["write"] = time.perf_counter() - started - elapsed
    _summary(log, results, elapsed, scheduler, workers)
    log(f"Grades:   {_rel(csv_path)}\nFeedback: {_rel(feedback_dir)}/<student>/<assignment>/\nReport:   {_rel(page)}")
    return results


def _progress(log, width: int):
    """The line printed as each submission is graded."""
    def progress(result: SubmissionResult, done: int, total: int) -> None:
        flag = "  NEEDS ATTENTION: " + "; ".join(p.text for p in result.problems if p.attention) \
            if result.status == ATTENTION else ""
        log(f"[{done:>3}/{total}] {result.student:<{width}} {result.assignment:<28} "
            f"{result.score:>5g}/{result.max_score:<4g} ({result.seconds:.1f} s){flag}")

    return progress


def write_outputs(course: Course, results: list[SubmissionResult], earlier: dict[tuple[str, str], SubmissionResult],
                  out: Path, feedback_dir: Path, collected: Path | None) -> tuple[Path, Path]:
    """grades.csv, the feedback of ``results`` (and of earlier results an instructor's score changed),
    results.json and the class report, for every submission in the gradebook; returns the csv's and the
    report's paths."""
    from . import feedback, report

    table = gbook.scores(course.db_url, course.course_id)
    everyone = dict(earlier)
    everyone.update({(r.student, r.assignment): r for r in results})
    in_gradebook = {(row["student"], row["assignment"]) for row in table if row["submitted"]}
    class_results = [everyone[key] for key in sorted(everyone) if key in in_gradebook]
    # A score an instructor set in the formgrader is what the student gets, as in grades.csv (read from the
    # gradebook); the tests keep the kernel's scores, which the cross-checks compared. An earlier result
    # whose instructor's score changed gets its feedback written again.
    set_by_instructor = course.book.instructor_scores([(r.student, r.assignment) for r in class_results])
    to_write = {(r.student, r.assignment): r for r in results}
    for r in class_results:
        before = (r.score, list(r.problems))
        readback.set_instructor_score(r, set_by_instructor.get((r.student, r.assignment)))
        if (r.score, r.problems) != before:
            to_write[(r.student, r.assignment)] = r
    extra = {(r.student, r.assignment): {"status": r.status, "notes": " | ".join(p.text for p in r.problems)}
             for r in class_results}
    # In the submissions folder but not in the gradebook: handed in, not graded by any run so far.
    submitted, _ = find_tasks(course.submissions, sorted({row["assignment"] for row in table}))
    for task in submitted:
        if (task.student, task.assignment) not in in_gradebook:
            extra[(task.student, task.assignment)] = {"status": NOT_GRADED, "notes": "submitted, not graded yet",
                                                       "score": ""}
    collection = _collection(collected, extra, {row["assignment"] for row in table})
    csv_path = gbook.export_csv(out / "grades.csv", table, extra)
    for r in to_write.values():
        feedback.write(r, feedback_dir, course.notebook_names(r.assignment)[0])
    report.save_results(class_results, out / "reports" / "results.json")
    return csv_path, report.render(class_results, out / "reports", collection=collection)


def _summary(log, results: list[SubmissionResult], elapsed: float, scheduler: str | None, workers: int) -> None:
    """What the run did: where it graded, how many need attention and why, the instructors' scores kept."""
    parallel = scheduler is not None or workers > 1
    here = [r for r in results if REGRADED in r.kinds()]
    if parallel and results:
        where = "the cluster's workers" if scheduler else "the Dask workers"
        log(f"\nGraded on {where}: {len(results) - len(here)}; graded here, after a worker failed: {len(here)}.")
        if len(here) == len(results):
            logger.error("%s did not grade: every task failed there (the reasons are above), so all %d were "
                         "graded here, one at a time.", "The cluster" if scheduler else where[0].upper() + where[1:],
                         len(results))
    attention = [r for r in results if r.status == ATTENTION]
    log(f"\nGraded {len(results)} submission(s) of {len({r.student for r in results})} student(s) "
        f"in {elapsed:.1f} s; {len(attention)} need attention.")
    for r in attention:
        log(f"  ! {r.student}/{r.assignment}: " + "; ".join(p.text for p in r.problems if p.attention))
    for r in results:
        for p in r.problems:
            if p.kind == INSTRUCTOR_SCORE:
                log(f"  {r.student}/{r.assignment}: {p.text} (kept)")


def _collection(collected: Path | None, extra: dict[tuple[str, str], dict[str, str]],
                graded: set[str]) -> list[dict[str, str]]:
    """Put what `make collect` recorded (late work, files set aside) into grades.csv's ``late`` and ``set_aside``
    columns (``extra``), and return it as the class report's lines."""
    from .lms.collect import collection_notes

    lines = []
    for (student, assignment), note in sorted(collection_notes(collected).items()) if collected else []:
        if assignment not in graded:
            continue
        row = extra.setdefault((student, assignment), {})
        if note["late"]:
            row["late"] = "late"
            lines.append({"student": student, "assignment": assignment, "what": "handed in late (the LMS says so)"})
        if note["set_aside"]:
            row["set_aside"] = " | ".join(note["set_aside"])
            lines += [{"student": student, "assignment": assignment, "what": text} for text in note["set_aside"]]
    return lines


def class_roster(klass: ClassFolder):
    """The class's roster (``<class>/roster.csv``: ours, Canvas's or Moodle's export), None when there is none;
    an unreadable one is said and left aside (grading does not need it)."""
    from .lms.roster import Roster, RosterError

    if not klass.roster.is_file():
        return None
    try:
        return Roster.load(klass.roster)
    except RosterError as err:
        logger.warning("The class's roster is not used (%s): the formgrader shows no names.", err)
        return None


def _previous(path: Path) -> list[SubmissionResult]:
    """The results of earlier runs (none when missing or unreadable)."""
    from .report import load_results

    try:
        return load_results(path) if path.exists() else []
    except (ValueError, TypeError, KeyError):
        return []


def _rel(path: Path) -> str:
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _announce(course: Course, tasks: int, workers: int, scheduler: str | None, unsandboxed: bool) -> str:
    """The line that says what is about to be graded, where and how."""
    if scheduler:
        how = f"on the workers of the Dask scheduler at {scheduler}"
    elif workers == 1:
        how = "one at a time"
    else:
        how = f"on a Dask LocalCluster of {workers} workers"
    gradebook = "PostgreSQL" if course.db_url.startswith("postgres") else "SQLite"
    return (f"Grading {tasks} submission(s) from {_rel(course.submissions)} {how}, "
            f"{gradebook} gradebook{'' if unsandboxed else ', each kernel in the sandbox'}...")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="autograder grade", description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=None,
                        help=f"worker processes of the Dask LocalCluster (default: one per core and one more = {default_workers()}); "
                             "1 grades one submission at a time in this process")
    parser.add_argument("--assignment", action="append", help="grade only this assignment (repeatable)")
    parser.add_argument("--student", action="append", help="grade only this student (repeatable)")
    parser.add_argument("--class", dest="klass", type=Path, default=None, metavar="DIR",
                        help="the class folder: DIR/submitted is graded, into DIR/gradebook.db and DIR/output "
                             "(default: make's CLASS=, else class.local, else the sample class, classes/sample)")
    parser.add_argument("--submissions", type=Path, default=None,
                        help="folder of <student>/<assignment>/ submissions (default: the class's submitted/)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where grades.csv, feedback/, reports/, autograded/ and the gradebook go "
                             "(default: the class's output/, and its gradebook.db)")
    parser.add_argument("--timeout", type=int, default=None, help="seconds per cell (default: nbgrader_config.py)")
    parser.add_argument("--notebook-timeout", type=int, default=None,
                        help="seconds per notebook (default: nbgrader_config.py)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the grading tasks on the workers of the running Dask scheduler at ADDRESS "
                             "(tcp://host:8786; needs --db postgresql://...) instead of a LocalCluster")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="the gradebook: a PostgreSQL URL (postgresql://user@host:port/db); default: SQLite "
                             "in --out")
    parser.add_argument("--unsandboxed", action="store_true",
                        help="run students' code WITHOUT the sandbox (only for code you trust)")
    parser.add_argument("--verbose", "-v", action="store_true", help="say more, nbgrader's own log included")
    return parser


def main(argv: list[str] | None = None) -> int:
    """``autograder grade``: parse and check the options, then grade the class (:func:`run`)."""
    parser = _parser()
    args = parser.parse_args(argv)
    setup_logging(args.verbose)
    if args.scheduler and not (args.db or "").startswith("postgres"):
        parser.error("grading on a Dask scheduler needs a gradebook every worker can reach: "
                     "add --db postgresql://user@host:port/database")
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be 1 or more")
    klass = ClassFolder.current(args.klass)
    submissions = (args.submissions or klass.submitted).resolve()
    if args.submissions and not args.out and submissions != klass.submitted:
        # Another class's notebooks never go into this class's gradebook.
        parser.error(f"--submissions {args.submissions} is not the submissions folder of the class {klass.shown} "
                     f"({klass.shown}/submitted): name the class instead, with --class (make grade CLASS=DIR), "
                     "or give --out for its results")
    wrong = unknown_names(submissions, args.assignment, args.student)
    if wrong:
        parser.error("\n".join(wrong))

    from .sandbox import SandboxUnavailable

    try:
        settings = grading_settings(args.unsandboxed, args.timeout, args.notebook_timeout)
    except SandboxUnavailable as err:
        print(err, file=sys.stderr)
        return 2
    if args.out:
        klass = replace(klass, out=args.out.resolve())
    out = klass.output.resolve()
    coursedir: dict[str, Any] = klass.coursedir()
    coursedir.pop("submitted_directory")  # the Course reads `submissions` and nbgrader its staged copies
    if args.db:
        coursedir["db_url"] = gbook.gradebook_url(args.db)
    out.mkdir(parents=True, exist_ok=True)
    # On a cluster, workers on other machines read the released assignments and stage submissions:
    # keep both scratch folders in the (shared) output folder; otherwise in this machine's temp folder.
    scratch = out if args.scheduler else None
    release = Path(tempfile.mkdtemp(prefix=".release-", dir=scratch))
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=scratch))
    try:
        course = make_course(settings, release, submissions=submissions, staging=staging, **coursedir)
        tasks, unknown = find_tasks(course.submissions, graded_assignments(), args.assignment, args.student)
        for folder in unknown:
            print(f"skipped {folder}: not an assignment of this course", file=sys.stderr)
        if not tasks:
            of = f" of {', '.join(args.assignment)}" if args.assignment else ""
            by = f" by {', '.join(args.student)}" if args.student else ""
            print(f"No submissions{of}{by} to grade in {_rel(course.submissions)}.")
            return 0
        workers = min(args.workers or default_workers(), len(tasks))
        print(_announce(course, len(tasks), workers, args.scheduler, args.unsandboxed))
        # The class's roster names the class's students: not those of a submissions folder given instead of the class's.
        roster = class_roster(klass) if submissions == klass.submitted.resolve() else None
        if roster:
            course.book.set_names([(st.student_id, *st.names(), st.email) for st in roster.students])
        results = run(course, tasks, workers, out, course.root / course.coursedir.feedback_directory,
                      scheduler=args.scheduler, collected=klass.collected)
        if (args.scheduler or workers > 1) and results and all(REGRADED in r.kinds() for r in results):
            return CLUSTER_DID_NOT_GRADE
    finally:
        shutil.rmtree(release, ignore_errors=True)
        shutil.rmtree(staging, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
