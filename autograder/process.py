"""What a grading process sets up for itself, once, where it starts: never when a module is imported.

Importing the grader changes nothing for the rest of the process (tests/sandbox/test_import_effects.py).
The entry points call what they need:

- :func:`prepare` (all of the below): the ``autograder`` command (:func:`autograder.cli.main`),
  ``python -m autograder.<module>`` (``autograder/__init__.py``), the Dask workers
  (:mod:`autograder.boot`, which a LocalCluster's workers import first), the test suite (tests/conftest.py);
- :func:`venv_tools_on_path` and :func:`quiet_gradebook_warnings`: a :class:`autograder.engine.Course`
  as it is built (a script or a notebook that grades through the Python API).

Each is idempotent: calling it again changes nothing more.
"""

from __future__ import annotations

import os
import sys
import warnings

#: The message of SQLAlchemy's warnings that nbgrader's gradebook gives thousands of times while grading.
GRADEBOOK_CHATTER = ".*not in session.*"


def skip_slow_imports() -> None:
    """Have ``jsonschema`` skip its ``iri`` format checkers: 1 to 2 s less per process (:mod:`toolfaults.startup`).

    Only of use before anything imports ``jsonschema`` (nbformat, nbclient, nbgrader do): an entry point's first call.
    """
    from toolfaults.startup import skip_slow_format_checkers

    skip_slow_format_checkers()


def venv_tools_on_path() -> None:
    """Put this interpreter's ``bin`` folder first on ``PATH``: nbgrader runs ``alembic`` (and kernels run
    ``python``) from ``PATH``, so the venv's tools are found whatever folder or shell the grader starts from."""
    folder = os.path.dirname(sys.executable)
    if os.environ.get("PATH", "").split(os.pathsep)[0] != folder:
        os.environ["PATH"] = folder + os.pathsep + os.environ.get("PATH", "")


def quiet_gradebook_warnings() -> None:
    """Keep nbgrader's gradebook chatter (SQLAlchemy's "not in session" warnings) out of the grading output."""
    warnings.filterwarnings("ignore", message=GRADEBOOK_CHATTER)


def prepare() -> None:
    """Everything a grading process sets up: :func:`skip_slow_imports`, :func:`venv_tools_on_path`,
    :func:`quiet_gradebook_warnings`."""
    skip_slow_imports()
    venv_tools_on_path()
    quiet_gradebook_warnings()
