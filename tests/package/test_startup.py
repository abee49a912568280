"""A course process reads notebooks without paying for jsonschema's `iri` parsers (toolfaults/startup.py)."""

from __future__ import annotations

import importlib.util
import os
from importlib import metadata
import subprocess
import sys

import pytest

READ = ("{first}; import nbformat, sys; "
        "nbformat.validate(nbformat.v4.new_notebook()); "
        "print(sys.modules.get('rfc3987_syntax', 'absent'))")
#: How each kind of course process starts: the learner's check imports it; the grader's entry points (the
#: ``autograder`` command, ``python -m autograder.x``, a Dask worker) call ``autograder.process.prepare``
#: (importing the grader changes nothing: tests/sandbox/test_import_effects.py).
STARTS = {"toolfaults.progress": "import toolfaults.progress",
          "autograder": "from autograder.process import prepare; prepare()"}


@pytest.mark.parametrize("first", sorted(STARTS))
def test_reading_a_notebook_does_not_build_the_iri_parsers(first):
    """A process that starts with the learner's check or the grader validates notebooks without the slow module."""
    if importlib.util.find_spec(first.split(".")[0]) is None:
        pytest.skip(f"{first} is not installed here (the learner edition has no grader)")
    try:  # by its distribution: this process has it marked as missing already (tests/conftest.py)
        metadata.distribution("rfc3987-syntax")
    except metadata.PackageNotFoundError:
        pytest.skip("rfc3987-syntax is not installed: there is nothing to skip")
    done = subprocess.run([sys.executable, "-c", READ.format(first=STARTS[first])], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None", f"after `{STARTS[first]}`, nbformat loaded {done.stdout.strip()}"


def test_notebooks_are_still_validated():
    """Only the `iri` formats are skipped: a notebook that breaks the schema is still refused."""
    done = subprocess.run([sys.executable, "-c", (
        "import toolfaults.progress, nbformat\n"
        "nb = nbformat.v4.new_notebook(); nb.cells.append(nbformat.from_dict({'cell_type': 'code', 'source': 1}))\n"
        "try:\n    nbformat.validate(nb)\nexcept nbformat.ValidationError:\n    print('refused')\n")],
        capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "refused", done.stdout + done.stderr


def test_the_mode_switch_does_not_import_the_sdk():
    """`toolfaults.live` imports the Anthropic SDK (about 0.8 s of CPU) only when a client is asked for:
    the lessons that only print the mode or use the scripted chat model start without it."""
    done = subprocess.run([sys.executable, "-c", (
        "import sys, toolfaults.live as live\n"
        "print(live.describe_mode().split(':')[0], 'anthropic' in sys.modules)\n"
        "live.chat_model(['hi'])\n"
        "print('anthropic' in sys.modules)\n"
        "live.anthropic_client()\n"
        "print('anthropic' in sys.modules)\n")],
        capture_output=True, text=True, timeout=120, env={**os.environ, "TOOLFAULTS_MODE": "offline"})
    assert done.stdout.split() == ["OFFLINE", "False", "False", "True"], done.stdout + done.stderr
