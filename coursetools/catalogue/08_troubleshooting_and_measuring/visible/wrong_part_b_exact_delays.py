# cell: checks_answer
# mistake: checks one implementation's exact delays (0.5 s, 1 s), not the contract
# expect: Check the contract, not one implementation
# expect-es: Comprueba el contrato, no una implementación
from unittest.mock import call

def check_returns_the_result(wrapper):
    tool, pause = Mock(), Mock()
    tool.invoke.return_value = "Orion"
    assert wrapper(tool, {"day": "friday"}, sleep=pause) == "Orion"
    assert tool.invoke.call_count == 1 and not pause.called

def check_permanent_failures_fail_at_once(wrapper):
    for error in (ToolException("no"), api_error(404), ValueError("bug")):
        tool, pause = Mock(), Mock()
        tool.invoke.side_effect = error
        try:
            wrapper(tool, {"day": "friday"}, sleep=pause)
        except type(error):
            pass
        else:
            raise AssertionError(f"{error!r} was not raised")
        assert tool.invoke.call_count == 1 and not pause.called


def check_waits_between_retries(wrapper):
    tool, pause = Mock(), Mock()
    tool.invoke.side_effect = [TimeoutError(), TimeoutError(), "Orion"]
    assert wrapper(tool, {"day": "friday"}, max_attempts=3, sleep=pause) == "Orion"
    assert pause.call_args_list == [call(0.5), call(1.0)]
