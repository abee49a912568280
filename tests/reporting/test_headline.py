"""The class report's headline comes from the results it shows (issue 46, trap 7).

With 2 of 3 students at 0/20 the report once said "Every test passed in every graded submission": the
sentence was chosen from the fail-rate table, which leaves out the submissions that pass no test.
"""

from __future__ import annotations

import re

import pytest

from autograder import report
from autograder.results import ATTENTION, SubmissionResult, TestResult


def _result(student: str, passed: list[bool], status: str = "graded") -> SubmissionResult:
    tests = [TestResult(f"t{i}", f"behaviour {i}", 5.0 if ok else 0.0, 5.0, ok) for i, ok in enumerate(passed)]
    return SubmissionResult(student, "05_retry_with_backoff", sum(t.points for t in tests), 5.0 * len(passed),
                            tests, status)


def _page_says(results: list[SubmissionResult], tmp_path) -> str:
    page = report.render(results, tmp_path).read_text()
    return re.sub(r"<[^>]+>", " ", page)


def test_two_zeros_of_three_are_not_every_test_passed(tmp_path):
    results = [_result("ana", [True] * 4), _result("chloe", [False] * 4), _result("dan", [False] * 4)]
    text = _page_says(results, tmp_path)
    assert "Every test passed" not in text
    assert "1 of 3 submissions have full marks; 2 score 0 (2 pass no test at all" in text


CASES = {
    "all full": [[True] * 3, [True] * 3],
    "one partial": [[True] * 3, [True, False, True]],
    "stubs only": [[False] * 3, [False] * 3],
    "mixed": [[True] * 3, [False] * 3, [True, False, False]],
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("attention", [False, True])
def test_the_headline_agrees_with_the_results_shown(case, attention, tmp_path):
    """Whatever the results, "every test passed" appears exactly when every test of every result passed,
    and the headline's count of full marks is the results' own."""
    results = [_result(f"s{i}", passed) for i, passed in enumerate(CASES[case])]
    if attention:
        results[0].status = ATTENTION
    text = _page_says(results, tmp_path)
    everything_passed = all(t.passed for r in results for t in r.tests) and not attention
    assert ("Every test passed" in text) == everything_passed, text[:400]
    if not everything_passed:
        full = sum(r.score == r.max_score and r.status != ATTENTION for r in results)
        assert f"{full} of {len(results)} submissions have full marks" in text
