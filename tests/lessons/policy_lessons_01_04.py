"""Lessons 01-04's helpers, checked against toolfaults.policy by test_policy_consistency.py.

One entry per lesson: the name a lesson defines, and how to call it (policy_harness's adapters).
"""

from __future__ import annotations

from policy_harness import FAILURE_ROWS, OUTPUT_ROWS, answers, classifies, has_status, probe_call, probe_tool

#: Every row a tool call can end in, for helpers that run a whole call.
ONE_CALL = (*FAILURE_ROWS, *OUTPUT_ROWS)


def _model_fails_with(helper, case):
    """Lesson 03's plan_step, given a model whose call fails with the case's error."""
    from toolfaults.models import ScriptedChatModel

    return helper(ScriptedChatModel(script=[case.example]))


def _through_the_registry(helper, case):
    """Lesson 04's handle_tool_call, with a probe tool registered the lesson's way (then removed)."""
    lesson = helper.__globals__
    lesson["register"](probe_tool(case), timeout_s=5.0)
    try:
        return helper(probe_call(case))
    finally:
        lesson["REGISTRY"].pop("probe", None)


LESSON_HELPERS = {
    "01": {
        "failure_kind": classifies(FAILURE_ROWS),
        "to_text": answers(OUTPUT_ROWS, lambda f, case: f(case.example)),
        "execute_tool_call": answers(("bad_call", *ONE_CALL),
                                     lambda f, case: f(probe_call(case), {"probe": probe_tool(case)})),
    },
    "02": {
        "run": answers(ONE_CALL, lambda f, case: f(probe_tool(case), {"query": "x"})),
    },
    "03": {
        "translate": answers(FAILURE_ROWS, lambda f, case: f(case.example, "probe")),
        "translate_write": answers(FAILURE_ROWS, lambda f, case: f(case.example, "probe"), write=True),
        "execute": answers(ONE_CALL, lambda f, case: f(probe_tool(case), {"query": "x"})),
        "plan_step": answers(("transient", "permanent"), _model_fails_with),
    },
    "04": {
        "describe_errors": answers(("bad_arguments",), lambda f, case: f(case.example)),
        "explain_validation": answers(("bad_arguments",), lambda f, case: f(case.example)),
        "quote_error": answers(("expected",), lambda f, case: f(case.example)),
        "describe_status": answers(("transient", "permanent"), lambda f, case: f(case.example, "probe"),
                                   second="retried", select=has_status),
        "handle_failure": answers(FAILURE_ROWS, lambda f, case: f(case.example, "probe"), second="retried"),
        "to_text": answers(OUTPUT_ROWS, lambda f, case: f(case.example)),
        "safe_invoke": answers(ONE_CALL, lambda f, case: f(probe_tool(case), {"query": "x"})),
        "handle_tool_call": answers(("bad_call", *ONE_CALL), _through_the_registry),
    },
}

#: Helpers these lessons show on purpose as the wrong way, each labelled as an anti-pattern where it is defined.
ANTI_PATTERNS = {
    "01": ("naive_loop", "skipping_loop"),
    "02": ("looks_like_error",),
    "03": ("read_vaguely", "plan_step_naive"),
    "04": ("save_note_buggy", "safe_tool_execute", "diagnose_wrong_order"),
}

#: Lesson 01 introduces the taxonomy, lesson 03 the recoveries: both display the policy's table.
SHOWS_TABLE = ("01", "03")
