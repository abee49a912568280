# cell: checks_answer
# mistake: never gives the wrapper a permanent failure, so retrying everything goes unnoticed
# expect: retries a ToolException
# expect-es: reintenta una ToolException

def check_returns_the_result(wrapper):
    tool, pause = Mock(), Mock()
    tool.invoke.return_value = "Orion"
    assert wrapper(tool, {"day": "friday"}, sleep=pause) == "Orion"
    assert tool.invoke.call_count == 1 and not pause.called

def check_retries_transient_failures(wrapper):
    tool, pause = Mock(), Mock()
    tool.invoke.side_effect = [ConnectionError("reset"), "Orion"]
    assert wrapper(tool, {"day": "friday"}, max_attempts=3, sleep=pause) == "Orion"
    assert tool.invoke.call_count == 2 and pause.call_count == 1 and pause.call_args.args[0] > 0

def check_gives_up(wrapper):
    tool, pause = Mock(), Mock()
    tool.invoke.side_effect = TimeoutError("slow")
    try:
        wrapper(tool, {"day": "friday"}, max_attempts=2, sleep=pause)
    except TimeoutError:
        pass
    else:
        raise AssertionError("no error after the last attempt")
    assert tool.invoke.call_count == 2 and pause.call_count == 1
