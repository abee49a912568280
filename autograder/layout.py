"""Where the course is: the one place that finds the course folder every path is derived from.

The grader is a package (``pip install .`` or a wheel); the course it grades is a folder that
holds ``nbgrader_config.py`` and ``solutions/`` (this repository, or a course built from it).
The course folder is the first of:

1. the environment variable ``AUTOGRADER_COURSE`` (a path);
2. the checkout the package was installed from (an editable install, ``make setup``'s);
3. the current folder or the nearest folder above it that holds ``nbgrader_config.py`` and
   ``solutions/`` (a wheel install: run the ``autograder`` command from anywhere inside the course).

Everything else (``autograder.course``, ``autograder.classes``, ``autograder.notebooks``) reads
:data:`ROOT` from here. Nothing here changes anything at import.
"""

from __future__ import annotations

import os
from pathlib import Path

ENVIRONMENT = "AUTOGRADER_COURSE"
#: What makes a folder a course folder.
MARKERS = ("nbgrader_config.py", "solutions")


def is_course(folder: Path) -> bool:
    """Whether ``folder`` holds a course (``nbgrader_config.py`` and ``solutions/``)."""
    return (folder / MARKERS[0]).is_file() and (folder / MARKERS[1]).is_dir()


def find_root(cwd: Path | None = None, environ: dict[str, str] | None = None) -> Path:
    """The course folder (see the module's docstring)."""
    environ = os.environ if environ is None else environ
    named = environ.get(ENVIRONMENT, "").strip()
    if named:
        return Path(named).expanduser().resolve()
    checkout = Path(__file__).resolve().parent.parent
    if is_course(checkout):
        return checkout
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if is_course(folder):
            return folder
    # No course found: the commands that need one say so when they look for solutions/.
    return here


ROOT = find_root()
