"""A class is its own folder: where its submissions, gradebook, outputs and LMS files live.

Every instructor-side command (``make grade``, ``make collect``, ``make export``, the class
report, nbgrader's own commands and the formgrader through ``nbgrader_config.py``) works on
one class folder, laid out as::

    <class>/submitted/<student>/<assignment>/<assignment>.ipynb   the students' notebooks
    <class>/gradebook.db        nbgrader's gradebook (SQLite): scores, manual scores, comments
    <class>/roster.csv          the roster (optional; Canvas's or Moodle's gradebook export works too)
    <class>/output/             what grading writes and can write again: grades.csv, feedback/,
                                reports/, autograded/
    <class>/collected/          `make collect`: each download, its manifest, the files set aside
    <class>/exports/            `make export`: the LMS gradebook CSVs and feedback zips

Which class: the first of

1. ``--class DIR`` on a command (``make ... CLASS=DIR`` passes it to every command);
2. the environment variable ``AUTOGRADER_CLASS`` (``make`` sets it from ``CLASS=``, so that
   nbgrader's own commands, run by make or by hand, see the same class);
3. the file ``class.local`` at the repository's root (git-ignored), one line: the class
   folder, relative to the repository or absolute. ``make use-class CLASS=../spring-class``
   writes it: the instructor names the class once;
4. the sample class the repository ships, ``classes/sample/``.

Nothing here imports nbgrader or changes anything: ``nbgrader_config.py`` imports it.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from .layout import ROOT  # the one place that finds the course

CLASSES = ROOT / "classes"
SAMPLE_CLASS = CLASSES / "sample"
SETTING = ROOT / "class.local"
ENVIRONMENT = "AUTOGRADER_CLASS"


def _resolve(path: str | os.PathLike[str], base: Path) -> Path:
    path = Path(path).expanduser()
    return (path if path.is_absolute() else base / path).resolve()


def chosen(explicit: str | os.PathLike[str] | None = None) -> tuple[Path, str]:
    """(the class folder, where it was named: "--class", "AUTOGRADER_CLASS", "class.local" or "default")."""
    if explicit:
        return _resolve(explicit, Path.cwd()), "--class"
    if os.environ.get(ENVIRONMENT, "").strip():
        return _resolve(os.environ[ENVIRONMENT].strip(), Path.cwd()), ENVIRONMENT
    if SETTING.is_file():
        lines = [line.strip() for line in SETTING.read_text(encoding="utf-8").splitlines()]
        named = next((line for line in lines if line and not line.startswith("#")), "")
        if named:
            return _resolve(named, ROOT), SETTING.name
    return SAMPLE_CLASS, "default"


def _assignment(name: str, value: str) -> str:
    """``NAME=value`` as a shell reads it back: in double quotes when the value has spaces (GRADE_ARGS="...")."""
    if re.fullmatch(r"[\w./:@%+,=-]+", value):
        return f"{name}={value}"
    if re.search(r'["$`\\]', value):
        return shlex.quote(f"{name}={value}")
    return f'{name}="{value}"'


@dataclass(frozen=True)
class ClassFolder:
    """The folders and files of one class (see the module's docstring)."""

    root: Path
    out: Path | None = None  # `grade --out DIR`: the outputs and the gradebook in DIR instead

    @classmethod
    def current(cls, explicit: str | os.PathLike[str] | None = None) -> ClassFolder:
        return cls(chosen(explicit)[0])

    @property
    def submitted(self) -> Path:
        return self.root / "submitted"

    @property
    def gradebook(self) -> Path:
        return self.out / "gradebook.db" if self.out else self.root / "gradebook.db"

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.gradebook}"

    @property
    def roster(self) -> Path:
        return self.root / "roster.csv"

    @property
    def output(self) -> Path:
        return self.out or self.root / "output"

    @property
    def autograded(self) -> Path:
        return self.output / "autograded"

    @property
    def feedback(self) -> Path:
        return self.output / "feedback"

    @property
    def grades_csv(self) -> Path:
        return self.output / "grades.csv"

    @property
    def reports(self) -> Path:
        return self.output / "reports"

    @property
    def results(self) -> Path:
        return self.reports / "results.json"

    @property
    def collected(self) -> Path:
        return self.root / "collected"

    @property
    def exports(self) -> Path:
        return self.root / "exports"

    def coursedir(self) -> dict[str, str]:
        """nbgrader's ``CourseDirectory`` settings for this class: where its submissions, autograded copies,
        feedback and gradebook are (``nbgrader_config.py`` and the grade command both read them here)."""
        return {"submitted_directory": str(self.submitted), "autograded_directory": str(self.autograded),
                "feedback_directory": str(self.feedback), "db_url": self.db_url}

    @property
    def is_sample(self) -> bool:
        return self.root == SAMPLE_CLASS

    @property
    def shown(self) -> str:
        """The folder as a command line gives it: relative to the repository when it can be (make runs there)."""
        try:
            shown = os.path.relpath(self.root, ROOT)
        except ValueError:  # another drive (Windows)
            return str(self.root)
        # inside the repository or next to it (../spring-class); anywhere else, the whole path
        return str(self.root) if shown.startswith(f"..{os.sep}..") else shown

    def make(self, target: str, **variables: str) -> str:
        """The `make` command line for ``target`` on this class, to print: it names the class, so that it
        is right whatever ``class.local`` says when it is run (from the repository's root, as make is)."""
        words = [("CLASS", self.shown)] + [(name, value) for name, value in variables.items() if value]
        return " ".join(["make", target] + [_assignment(name, value) for name, value in words])

    def grading_files(self) -> list[Path]:
        """What `make clean-grades` removes: the gradebook (manual scores included) and the outputs, when present."""
        return [p for p in (self.gradebook, self.output, self.exports) if p.exists()]


def main(argv: list[str] | None = None) -> int:
    """``python -m autograder.classes [use DIR | show | clean-grades [--yes]]`` (what the make targets run)."""
    import argparse
    import shutil

    parser = argparse.ArgumentParser(prog="python -m autograder.classes", description=main.__doc__)
    parser.add_argument("action", choices=["show", "use", "clean-grades"])
    parser.add_argument("folder", nargs="?", help="use: the class folder to grade from now on")
    parser.add_argument("--class", dest="klass", default=None, help="the class folder (default: as `show` says)")
    parser.add_argument("--yes", action="store_true", help="clean-grades: remove, not only list")
    args = parser.parse_args(argv)
    if args.action == "use":
        if not args.folder:
            parser.error("use needs the class folder: make use-class CLASS=../spring-class")
        folder = _resolve(args.folder, Path.cwd())
        (folder / "submitted").mkdir(parents=True, exist_ok=True)
        shown = ClassFolder(folder).shown
        SETTING.write_text(f"# the class every grading command works on (make use-class CLASS=...)\n{shown}\n",
                           encoding="utf-8")
        print(f"From now on every command grades the class in {shown} ({SETTING.name}); "
              f"`make use-class CLASS={os.path.relpath(SAMPLE_CLASS, ROOT)}` goes back to the sample class.")
        return 0
    folder, origin = chosen(args.klass)
    klass = ClassFolder(folder)
    if args.action == "show":
        print(f"{klass.shown} (named by {origin}); submissions in {klass.shown}/submitted, gradebook "
              f"{klass.shown}/gradebook.db, outputs in {klass.shown}/output")
        return 0
    doomed = klass.grading_files()
    if not doomed:
        print(f"Nothing to remove: {klass.shown} has no gradebook, outputs or exports.")
        return 0
    print(f"{'Removing' if args.yes else 'make clean-grades CONFIRM=yes removes'} the grading of the class in "
          f"{klass.shown}:")
    for path in doomed:
        what = {"gradebook.db": "the gradebook: every score, MANUAL SCORES AND COMMENTS included",
                "output": "grades.csv, the feedback pages, the class report, the autograded copies",
                "exports": "the LMS files written by make export"}[path.name]
        print(f"  {os.path.relpath(path, ROOT) if path.is_relative_to(ROOT) else path}: {what}")
    print(f"The submissions ({klass.shown}/submitted) and the downloads ({klass.shown}/collected) stay.")
    if not args.yes:
        print(f"Nothing removed. To remove them: {klass.make('clean-grades', CONFIRM='yes')}")
        return 0
    for path in doomed:
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    print("Removed.")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
