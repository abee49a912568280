"""Every notice the grader can write about a submission has its Spanish sentence.

The feedback of a Spanish-edition submission shows ``Problem.text_es``; a notice written
without one would reach a Spanish learner in English. Every notice is a kind of
:data:`autograder.problems.KINDS`, each with both texts, and no module writes one by hand:
``tests/grading/test_problems.py`` proves both. Here: what the feedback shows when a saved
result has no translation.
"""

from __future__ import annotations

from autograder.results import Problem, SubmissionResult


def test_a_notice_falls_back_to_english_only_without_a_translation():
    r = SubmissionResult("ana", "05_retry_with_backoff_es", 0, 1)
    r.flag("renamed", name="a", graded="b.ipynb")
    r.problems.append(Problem("other", "only English"))  # as a results.json of an older grader may hold
    assert [p.in_language("es") for p in r.problems] == [
        "faltaba a.ipynb; se corrigió b.ipynb en su lugar (el notebook se había renombrado)", "only English"]
    assert [p.in_language("en") for p in r.problems] == [
        "a.ipynb was missing; b.ipynb was graded in its place (the notebook was renamed)", "only English"]
    again = SubmissionResult.from_dict(r.to_dict())
    assert again.problems == r.problems, "results.json keeps the Spanish sentence"
