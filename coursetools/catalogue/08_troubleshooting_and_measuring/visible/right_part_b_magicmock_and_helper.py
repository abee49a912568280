# cell: checks_answer
# mistake: none: MagicMock, a helper that expects an error, four checks
from unittest.mock import MagicMock


def expect_error(kind, wrapper, tool, **options):
    try:
        wrapper(tool, {"room": "Orion"}, **options)
    except kind:
        return
    raise AssertionError(f"{kind.__name__} expected")


def check_success(wrapper):
    tool, sleep = MagicMock(), MagicMock()
    tool.invoke.return_value = {"ok": True}
    assert wrapper(tool, {"room": "Orion"}, sleep=sleep) == {"ok": True}
    sleep.assert_not_called()


def check_transient_retried_with_waits(wrapper):
    tool, sleep = MagicMock(), MagicMock()
    tool.invoke.side_effect = [api_error(429), api_error(503), "ok"]
    assert wrapper(tool, {"room": "Orion"}, max_attempts=3, sleep=sleep) == "ok"
    assert [c.args[0] > 0 for c in sleep.call_args_list] == [True, True]


def check_stops_at_max_attempts(wrapper):
    tool, sleep = MagicMock(), MagicMock()
    tool.invoke.side_effect = ConnectionError("down")
    expect_error(ConnectionError, wrapper, tool, max_attempts=4, sleep=sleep)
    assert (tool.invoke.call_count, sleep.call_count) == (4, 3)


def check_permanent_at_once(wrapper):
    tool, sleep = MagicMock(), MagicMock()
    tool.invoke.side_effect = ToolException("room does not exist")
    expect_error(ToolException, wrapper, tool, sleep=sleep)
    assert (tool.invoke.call_count, sleep.call_count) == (1, 0)
