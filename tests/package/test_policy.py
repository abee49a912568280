"""toolfaults.policy's status rule: the recovery a tool gives the ToolException it maps a permanent status to.

The rest of the policy is checked by its doctests (test_doctests.py) and, against every lesson, by
tests/lessons/test_policy_consistency.py.
"""

from __future__ import annotations

import pytest

from toolfaults import policy
from toolfaults.contract import RECOVERIES


def test_a_not_found_chooses_an_alternative_and_a_denial_stops_the_turn():
    assert policy.recovery_for_status(404) == "choose_alternative"
    assert policy.recovery_for_status(401) == policy.recovery_for_status(403) == "stop_turn"
    assert set(policy.STATUS_RECOVERY.values()) <= set(RECOVERIES)


def test_only_permanent_statuses_are_mapped():
    """A tool maps a permanent status to its own contract; a transient one is retried, never mapped."""
    assert set(policy.STATUS_RECOVERY) <= set(policy.PERMANENT_STATUS_EXAMPLES)
    assert not set(policy.STATUS_RECOVERY) & policy.TRANSIENT_STATUS
    for status in (503, 400, 999):
        with pytest.raises(ValueError, match=f"maps no recovery for status {status}"):
            policy.recovery_for_status(status)


def test_the_table_states_the_status_rule_in_both_languages():
    """The table the lessons display says what STATUS_RECOVERY says, in English and in Spanish (its text reads the
    mapping, so the rule is stated once)."""
    rule = policy.STATUS_RECOVERY
    assert rule[401] == rule[403]
    for language in ("en", "es"):
        text = policy.table(language)
        assert f"404 → {rule[404]}" in text and f"401/403 → {rule[403]}" in text, language
    with pytest.raises(TypeError):
        policy.STATUS_RECOVERY[404] = "stop_turn"  # type: ignore[index]
