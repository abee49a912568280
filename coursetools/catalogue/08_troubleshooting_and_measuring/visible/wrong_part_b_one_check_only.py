# cell: checks_answer
# mistake: a single check, the happy path
# expect: Write at least three check_* functions
# expect-es: Escribe al menos tres funciones check_*

def check_returns_the_result(wrapper):
    tool, pause = Mock(), Mock()
    tool.invoke.return_value = "Orion"
    assert wrapper(tool, {"day": "friday"}, sleep=pause) == "Orion"
    assert tool.invoke.call_count == 1 and not pause.called
