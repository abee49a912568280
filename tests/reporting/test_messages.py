"""What a failing test's message may show a learner (``autograder.testcells.redact``).

Every message the feedback shows goes through ``redact`` first, from the kernel's run and
from the clean room's: hidden test lines become ``[hidden test]``, the grading machine's
library paths are cut to the library's own part, and the length is capped.
"""

from __future__ import annotations

import pytest

from autograder.testcells import MAX_MESSAGE, redact

HIDDEN = ("assert convert(300, 'K') == 26.85",)


def test_a_hidden_test_line_in_a_message_is_replaced():
    message = redact("AssertionError in: assert convert(300, 'K') == 26.85", HIDDEN)
    assert message == "AssertionError in: [hidden test]"


@pytest.mark.parametrize(("quoted", "shown"), [
    # a venv on the grading machine (a learner's tool returned the traceback it caught)
    ('File "/tmp/final/.venv/lib/python3.11/site-packages/langchain_core/tools/base.py", line 1099, in run',
     'File "langchain_core/tools/base.py", line 1099, in run'),
    # a pyenv or system Python's standard library
    ('File "/root/.pyenv/versions/3.12.8/lib/python3.12/asyncio/tasks.py", line 3',
     'File "asyncio/tasks.py", line 3'),
    ('File "/usr/lib/python3.13/json/decoder.py", line 9', 'File "json/decoder.py", line 9'),
    # Debian's packages, and a path inside a repr (quotes escaped)
    ('File "/usr/lib/python3/dist-packages/yaml/reader.py"', 'File "yaml/reader.py"'),
    ("'  File \\\"/srv/grader/.venv/lib/python3.13/site-packages/pydantic/main.py\\\", line 5'",
     "'  File \\\"pydantic/main.py\\\", line 5'"),
])
def test_the_grading_machines_library_paths_are_shortened(quoted, shown):
    assert redact(f"The tool returned: {quoted}. Return a short message.", ()) == \
        f"The tool returned: {shown}. Return a short message."


def test_what_is_left_of_the_grading_machines_folders_is_hidden():
    """A quote the test cut mid-path, or a path outside the libraries: the machine's folders become "…"."""
    import sys

    from autograder.course import ROOT

    cut = f'File "{sys.prefix}/lib/python3.1'
    assert redact(f"leaks a traceback: {cut}'. Send a short sentence.", ()) == \
        "leaks a traceback: File \"…/lib/python3.1'. Send a short sentence."
    assert redact(f"could not open {ROOT}/autograder/submitted/ana", ()) == "could not open …/autograder/submitted/ana"


def test_other_paths_and_words_are_left_as_they_are():
    message = "Read /home/ana/notes.txt and data/lib/python3.11.csv; 3/4 of the calls failed"
    assert redact(message, ()) == message


def test_a_long_message_is_capped_after_the_paths_are_shortened():
    path = "/tmp/x/.venv/lib/python3.11/site-packages/"
    message = redact((path + "m.py ") * 300, ())
    assert path not in message
    assert message.startswith("m.py m.py")
    assert len(message) <= MAX_MESSAGE + len(" ...") and message.endswith(" ...")
