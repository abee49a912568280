"""A notebook that is not valid JSON is set aside with json's own reason, said once and plainly."""

from __future__ import annotations

import pytest

from autograder.staging import read_notebook


@pytest.mark.parametrize("text, why", [
    # json's text ends in "at" ("Unterminated string starting at"): the message said "at at line 1"
    ('{"cells": [], "x": "abc', "it is not valid JSON (unterminated string starting at line 1, column 20)"),
    ('{"cells": "a\nb"}', "it is not valid JSON (invalid control character at line 1, column 13)"),
    ('{"cells": [] ', "it is not valid JSON (expecting ',' delimiter at line 1, column 14)"),
    ("", "it is not valid JSON (expecting value at line 1, column 1)"),
])
def test_a_json_error_says_where_once(tmp_path, text, why):
    path = tmp_path / "broken.ipynb"
    path.write_text(text, encoding="utf-8")
    nb, reason = read_notebook(path)
    assert nb is None
    assert reason == why
    assert " at at " not in reason
