"""Every lesson helper that classifies a failure, converts an output or writes an error message agrees
with the course's one error policy, toolfaults.policy (COURSE_SPEC §3.9; issue 45), in both editions.

Each lesson runs once, in this process (policy_harness.run_lesson); each helper registered in a
policy_lessons_*.py module is called on every relevant row's examples, and a failure names the lesson,
the cell, the helper and the row where they differ. A lesson may show a wrong policy only as a labelled
anti-pattern; the lessons that introduce the taxonomy display the policy's table.
"""

from __future__ import annotations

import re

import pytest

import policy_harness as harness
from editions import EDITIONS
from toolfaults import policy

REGISTRY = harness.registry()


def _params():
    for edition in EDITIONS:
        for lesson, helpers in sorted(REGISTRY.helpers.items()):
            for name in helpers:
                marks = [pytest.mark.spanish] if edition.language == "es" else []
                yield pytest.param(edition, lesson, name, id=f"{lesson}-{name}-{edition.language}", marks=marks)


def _run(edition, lesson: str) -> harness.LessonRun:
    return harness.ran(edition.folder, lesson)


@pytest.mark.parametrize(("edition", "lesson", "name"), list(_params()))
def test_lesson_helper_follows_the_policy(edition, lesson, name):
    """The helper gives, for every example of every row it handles, the policy's kind, retry decision,
    recovery, error flag and text (no exception text, path or traceback for the model)."""
    run = _run(edition, lesson)
    found = harness.check_helper(run, name, REGISTRY.helpers[lesson][name])
    assert not found, (f"{len(found)} disagreement(s) with toolfaults.policy (COURSE_SPEC §3.9):\n"
                       + "\n".join(f"- {d}" for d in found))


ANTI = [pytest.param(e, lesson, name, id=f"{lesson}-{name}-{e.language}",
                     marks=[pytest.mark.spanish] if e.language == "es" else [])
        for e in EDITIONS for lesson, names in sorted(REGISTRY.anti_patterns.items()) for name in names]


@pytest.mark.parametrize(("edition", "lesson", "name"), ANTI)
def test_a_wrong_policy_is_labelled_as_an_anti_pattern(edition, lesson, name):
    """A helper shown on purpose as the wrong way says so where it is defined ("anti-pattern")."""
    run = _run(edition, lesson)
    cell = run.cell_of(name)
    assert cell is not None, f"{run.name} no longer defines {name} (listed in ANTI_PATTERNS): update the entry"
    word = harness.ANTI_PATTERN_WORDS[edition.language]
    assert word in run.sources[cell].lower(), (
        f"lesson {run.name}, cell {cell}: {name} shows a wrong policy; label it, in its docstring or a comment, "
        f"with {word!r}, next to the right version")


TABLE = [pytest.param(e, lesson, id=f"{lesson}-{e.language}", marks=[pytest.mark.spanish] if e.language == "es" else [])
         for e in EDITIONS for lesson in REGISTRY.shows_table]


@pytest.mark.parametrize(("edition", "lesson"), TABLE)
def test_the_lesson_displays_the_policy_table(edition, lesson):
    """Where a lesson introduces the taxonomy, it displays the policy itself (policy.table()), not a copy."""
    run = _run(edition, lesson)
    shown = [i for i, source in enumerate(run.sources) if source and re.search(r"\bpolicy\.table\(", source)]
    assert shown, f"{run.name}: no code cell displays policy.table() (Markdown(policy.table()))"


def test_every_registered_lesson_exists_in_both_editions():
    for edition in EDITIONS:
        for lesson in REGISTRY.helpers:
            assert list(edition.folder.glob(f"{lesson}_*.ipynb")), f"no lesson {lesson} in {edition.folder}"


def test_the_check_catches_a_helper_changed_back():
    """The harness flags a describe_status that retries every 5xx (501, 505, 507, 511 must fail at once),
    a to_text that calls an empty list 'nothing found', and a handler that sends exception text."""

    def describe_status(e, tool_name):   # the old lesson 04 rule
        return f"{tool_name} answered {e.status_code}", e.status_code in (408, 429) or e.status_code >= 500

    def to_text(result):                 # the old lesson 01 rule: an empty list or dict is "nothing found"
        return policy.result_text(None if result in ([], {}) else result)

    def handle_failure(e, tool_name):
        return f"{type(e).__name__}: {e}", False

    run = harness.LessonRun(harness.HERE / "04_probe.ipynb", "en",
                            {"describe_status": describe_status, "to_text": to_text, "handle_failure": handle_failure},
                            [None])
    run.cell_of = lambda name: 0         # type: ignore[method-assign]
    adapters = harness.registry().helpers["04"]
    status = harness.check_helper(run, "describe_status", adapters["describe_status"])
    flagged = {d.case.example.status_code for d in status if d.case is not None}
    assert flagged == {501, 505, 507, 511}, [str(d) for d in status]
    assert str(status[0]).startswith("lesson 04_probe (en), cell 0, describe_status, row 'permanent'"), str(status[0])
    empty = harness.check_helper(run, "to_text", adapters["to_text"])
    assert {repr(d.case.example) for d in empty} == {"[]", "{}"}, [str(d) for d in empty]
    leaks = harness.check_helper(run, "handle_failure", adapters["handle_failure"])
    assert any("class name 'KeyError'" in d.problem for d in leaks), [str(d) for d in leaks]
    assert policy.is_transient_status(503) and not policy.is_transient_status(501)
