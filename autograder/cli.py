"""The ``autograder`` command: one entry point, a subcommand per instructor task.

    autograder grade [--class DIR] [--assignment A] ...     grade a class (what `make grade` runs)
    autograder collect ASSIGNMENT ZIP [--roster CSV] ...    an LMS download into the class
    autograder export [--roster CSV] ...                    grades and feedback for the LMS
    autograder report                                       the class report again
    autograder class show|use DIR|clean-grades              which class the commands work on
    autograder release                                      regenerate exercises/ from solutions/
    autograder learner-edition DEST [--repository URL]      the class's repository
    autograder check-cluster tcp://host:8786                a Dask cluster's workers, checked

This module only parses the subcommand: each one's own options are parsed, documented
(``autograder grade --help``) and run by the module named in :data:`COMMANDS`. The Makefile
calls this command. Each command is a module of this package: the course's own tooling (``make bench``:
``python -m coursetools.bench``) runs from the course's checkout and is not one of them.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .process import prepare

#: subcommand -> (module whose ``main(argv)`` runs it, one line of help)
COMMANDS: dict[str, tuple[str, str]] = {
    "grade": ("autograder.grade", "grade a class's submissions: grades.csv, feedback, the report"),
    "collect": ("autograder.lms.collect", "put a Canvas or Moodle download into the class"),
    "export": ("autograder.lms.export", "grades and feedback as Canvas's and Moodle's imports"),
    "report": ("autograder.report", "write the class report again from the last grading"),
    "class": ("autograder.classes", "show or choose the class the commands work on; clean-grades"),
    "release": ("autograder.release", "regenerate exercises/ from solutions/ (nbgrader)"),
    "learner-edition": ("autograder.edition", "write the learner edition: lessons and exercises, no grader"),
    "check-cluster": ("autograder.checkcluster", "check a running Dask cluster's workers"),
}


def parser() -> argparse.ArgumentParser:
    listing = "\n".join(f"  {name:<16} {text}" for name, (_, text) in COMMANDS.items())
    out = argparse.ArgumentParser(prog="autograder", formatter_class=argparse.RawDescriptionHelpFormatter,
                                  description=f"Grade the course's exercises with nbgrader.\n\ncommands:\n{listing}",
                                  epilog="Each command's own options: autograder COMMAND --help.")
    out.add_argument("command", choices=list(COMMANDS), metavar="COMMAND", help="one of the commands above")
    out.add_argument("args", nargs=argparse.REMAINDER, help="the command's own arguments")
    return out


def main(argv: list[str] | None = None) -> int:
    """Run ``autograder COMMAND ARGS...``; returns the command's exit status."""
    options = parser().parse_args(sys.argv[1:] if argv is None else argv)
    module, _ = COMMANDS[options.command]
    prepare()  # before the command's imports (nbgrader's): autograder/process.py
    return int(importlib.import_module(module).main(options.args) or 0)


if __name__ == "__main__":
    sys.exit(main())
