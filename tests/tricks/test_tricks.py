"""Every catalogued trick is contained; honest answers, with or without a harmless oddity, keep their score.

The catalogue (``coursetools/catalogue/tricks/``) is graded once, as a class: each trick
and the same answer without it, in a scratch course, by the engine's grading loop,
sandboxed as `make grade` grades where the sandbox runs, with the cross-checks off (what
the kernel alone gives), then cross-checked (:func:`autograder.crosscheck.check`, what
`make grade` reports). Each test checks one trick's outcome.
"""

from __future__ import annotations

import html

import pytest

from autograder import feedback
from autograder.cleanroom import CHANGED, CHANNEL, DIFFERS, KERNEL_KEPT, UNFINISHED
from autograder.problems import RECHECK_FAILED
from autograder.scan import SUSPICIOUS
from coursetools.tricks import Outcome, load_tricks, prove

TRICKS = load_tricks()
NAMES = [t.name for t in TRICKS]
OURS = (CHANGED, CHANNEL, DIFFERS, KERNEL_KEPT, UNFINISHED, RECHECK_FAILED, SUSPICIOUS)
# Words that would tell a learner how a trick works; the feedback must not use them.
TEACHING = ("transformer", "get_ipython", "settrace", "setprofile", "set_custom_exc", "run_cell", "_getframe",
            "f_trace", "events.register", "__builtins__", "builtins.")


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, Outcome]:
    """The catalogue graded as `make grade` grades: sandboxed (a failure in CI if the sandbox cannot run)."""
    from tests.sandbox.probe_assignment import sandboxed

    sandboxed()
    return {o.trick.name: o for o in prove(tmp_path_factory.mktemp("tricks"), TRICKS, workers=2)}


def test_the_catalogue_covers_every_kind_of_trick():
    """At least 12 tricks, covering each way of changing how later cells run."""
    assert len(TRICKS) >= 12
    required = {"input_transformer", "ast_transformer", "run_cell", "post_run_cell_event", "pre_run_cell_event",
                "custom_exc", "settrace", "setprofile", "builtins_exec", "builtins_isinstance",
                "builtins_assertionerror", "toolfaults_helper", "mock_patch"}
    assert required <= set(NAMES), sorted(required - set(NAMES))
    assert any(t.wraps.startswith("right_") for t in TRICKS), "no correct answer wrapped in a harmless trick"


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_trick_is_contained(outcomes, name):
    """It scores no more than the same answer without the trick, and is marked "needs attention"."""
    o = outcomes[name]
    assert o.contained and o.flagged, (
        f"{name}: kernel {o.kernel.score}, cross-checked {o.checked.score}, honest {o.honest.score}; "
        f"{[(p.kind, p.text) for p in o.checked.problems]}")
    if not o.trick.wraps.startswith("right_"):
        assert o.checked.score <= o.honest.score, f"{name}: {o.checked.score} > honest {o.honest.score}"


@pytest.mark.slow
def test_the_catalogue_holds_tricks_that_work_in_the_kernel(outcomes):
    """Without the cross-checks, the tricks that fool nbgrader do score more than their honest answer."""
    fooled = sorted(n for n, o in outcomes.items() if o.kernel.score > o.honest.score)
    assert {"input_transformer", "ast_transformer", "run_cell", "post_run_cell_event", "settrace",
            "builtins_exec"} <= set(fooled), fooled


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("right_")])
def test_a_correct_answer_with_a_harmless_trick_keeps_full_marks(outcomes, name):
    o = outcomes[name]
    assert o.checked.score == o.checked.max_score == o.honest.score, [(t.grade_id, t.message) for t in o.checked.failed]


@pytest.mark.slow
def test_the_honest_answers_are_not_flagged(outcomes):
    """The answers without their tricks (the fake and the correct one) get no cross-check problem."""
    for o in outcomes.values():
        ours = [(p.kind, p.text) for p in o.honest.problems if p.kind in OURS]
        assert not ours and o.honest.status == "graded", f"{o.trick.name}'s honest answer: {ours}"


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_feedback_says_what_was_found_without_teaching_the_trick(outcomes, name):
    o = outcomes[name]
    ours = [p for p in o.checked.problems if p.kind in OURS]
    assert any(p.attention for p in ours)
    page = html.unescape(feedback.render_html(o.checked))
    assert "Your instructor will look at this submission." in page
    for p in ours:
        assert p.text[1:] in page
    said = " ".join([p.text for p in o.checked.problems] + [t.message for t in o.checked.tests])
    taught = [w for w in TEACHING if w in said]
    assert not taught, f"{name}: the feedback names {taught}"


#: The attacks on the clean room's results channel (they find the runner's send() or its pipe once notebook code runs
#: there): each must be seen reaching it, or its containment proves nothing (an attack that no longer finds its target,
#: after the runner's code is renamed or moved, is "contained" for free). Not cleanroom_json_encoder: the runner does
#: not write through json, so that attack has nothing to reach.
CHANNEL_ATTACKS = ("cleanroom_damaged_channel", "cleanroom_forged_first", "cleanroom_forged_results")


def test_the_channel_attacks_are_the_catalogue_s():
    assert set(CHANNEL_ATTACKS) | {"cleanroom_json_encoder"} == {n for n in NAMES if n.startswith("cleanroom_")}


@pytest.mark.slow
@pytest.mark.parametrize("name", CHANNEL_ATTACKS)
def test_each_attack_on_the_clean_room_s_channel_reaches_it(outcomes, name):
    o = outcomes[name]
    assert any(p.kind == CHANNEL for p in o.checked.problems), (
        f"{name} left no trace on the clean room's channel: it no longer reaches it, so it proves nothing; "
        f"{[(p.kind, p.text) for p in o.checked.problems]}")


@pytest.mark.slow
def test_the_engine_cross_checks_every_submission(tmp_path):
    """`make grade`'s path: Course.autograde runs the checks itself, and the gradebook holds the lowered score."""
    from autograder import gradebook
    from autograder.engine import Course
    from coursetools.fairness import solved

    trick = next(t for t in TRICKS if t.name == "input_transformer")
    course = Course.scratch(tmp_path)
    course.generate(trick.assignment)
    course.submit("mallory", trick.assignment, solved(course, trick.assignment, **{trick.cell: trick.code}))
    result = course.autograde(trick.assignment, "mallory")
    assert result.score == 0 and result.status == "needs attention", [(t.grade_id, t.passed) for t in result.tests]
    assert {CHANGED, DIFFERS, SUSPICIOUS} & set(result.kinds())
    row = gradebook.scores(course.db_url, course.course_id, ["mallory"])[0]
    assert row["score"] == 0, row


@pytest.mark.slow
def test_a_submission_nbgrader_could_not_grade_is_still_cross_checked(tmp_path):
    """When nbgrader leaves no autograded copy (a dead kernel, a time limit, a loaded machine), the clean
    room re-runs and the scan reads the staged submission: the trick is still named, not only "nbgrader failed"."""
    import shutil

    from autograder import cleanroom, crosscheck
    from autograder.engine import Course
    from coursetools.fairness import solved

    trick = next(t for t in TRICKS if t.name == "builtins_assertionerror")
    course = Course.scratch(tmp_path, config={"CrossCheck": {"enabled": False}})
    course.generate(trick.assignment)
    course.submit("mallory", trick.assignment, solved(course, trick.assignment, **{trick.cell: trick.code}))
    result = course.autograde(trick.assignment, "mallory")
    assert not set(OURS) & set(result.kinds())  # the checks are off: nothing of ours yet
    sub = course.submission(trick.assignment, "mallory")
    shutil.rmtree(sub.autograded)  # as nbgrader leaves it when it could not grade: only the staged copy
    assert (sub.staged / f"{trick.assignment}.ipynb").is_file()
    crosscheck.check(sub, result, cleanroom.settings(course.config))
    found = {p.kind: p for p in result.problems}
    assert CHANGED in found and SUSPICIOUS in found, [(p.kind, p.text) for p in result.problems]
    assert found[CHANGED].attention and found[SUSPICIOUS].attention
    assert UNFINISHED not in found and RECHECK_FAILED not in found, [(p.kind, p.text) for p in result.problems]


@pytest.mark.slow
def test_the_clean_room_attacks_are_contained_when_the_re_runs_fork_from_the_warm_kernel_process(outcomes, tmp_path):
    """`make grade`'s own path, sandboxed, one submission after another in one grading process: each kernel, and
    then the clean room's re-run of the same submission, are forks of one warm process (``forkserver.take``). The
    tricks aimed at the clean room are contained there as in the catalogue's run, whose re-runs come from a
    clean-room process of their own."""
    from autograder import forkserver
    from autograder.engine import Course
    from coursetools.fairness import solved
    from autograder.results import ATTENTION
    from autograder.sandbox import where_available

    attacks = [t for t in TRICKS if t.name.startswith("cleanroom_")]
    assert len(attacks) >= 4
    forkserver.close_zygotes()
    course = Course.scratch(tmp_path, config=where_available())
    for assignment in sorted({t.assignment for t in attacks}):
        course.generate(assignment)
    made = forkserver.zygotes_started()
    for trick in attacks:
        course.submit(trick.name, trick.assignment, solved(course, trick.assignment, **{trick.cell: trick.code}))
        result = course.autograde(trick.assignment, trick.name)
        honest = outcomes[trick.name].honest
        assert result.status == ATTENTION or result.score <= honest.score, \
            (trick.name, result.score, result.status, [p.text for p in result.problems])
    assert forkserver.zygotes_started() - made == 1, "the kernels and the clean runs did not share one warm process"
    forkserver.close_zygotes()
