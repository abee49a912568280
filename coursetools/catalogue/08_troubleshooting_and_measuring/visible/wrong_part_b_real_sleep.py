# cell: checks_answer
# mistake: passes no sleep, so the wrapper really waits between retries
# expect: pass sleep=Mock()
# expect-es: pasa sleep=Mock()

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


def check_retries_transient_failures(wrapper):
    tool = Mock()
    tool.invoke.side_effect = [ConnectionError("reset"), "Orion"]
    assert wrapper(tool, {"day": "friday"}, max_attempts=3) == "Orion"
    assert tool.invoke.call_count == 2
