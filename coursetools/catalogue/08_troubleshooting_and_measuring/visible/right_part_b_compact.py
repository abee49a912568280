# cell: checks_answer
# mistake: none: three checks, each covering several promises

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


def check_transient_then_give_up(wrapper):
    tool, pause = Mock(), Mock()
    tool.invoke.side_effect = [TimeoutError(), "Orion"]
    assert wrapper(tool, {}, max_attempts=3, sleep=pause) == "Orion" and pause.call_count == 1
    assert all(c.args[0] > 0 for c in pause.call_args_list)
    tool, pause = Mock(), Mock()
    tool.invoke.side_effect = ConnectionError()
    try:
        wrapper(tool, {}, max_attempts=3, sleep=pause)
        raise AssertionError("must raise when the attempts run out")
    except ConnectionError:
        pass
    assert tool.invoke.call_count == 3 and pause.call_count == 2
