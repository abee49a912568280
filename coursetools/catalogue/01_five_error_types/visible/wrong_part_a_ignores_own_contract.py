# cell: classify_answer
# mistake: every ToolException gets choose_alternative, even one that carries its own contract
# expect: use failure.error.recovery
# expect-es: usa failure.error.recovery
TRANSIENT_STATUS = {408, 429, 500, 502, 503, 504, 529}


def classify(failure, *, write=False):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        return "bad_arguments", False, "correct_arguments"
    if isinstance(failure, ToolException):
        return "expected", False, "choose_alternative"
    if write:
        return "uncertain_write", False, "stop_turn"
    if isinstance(failure, (ConnectionError, TimeoutError)) or status in TRANSIENT_STATUS:
        return "transient", True, "retry_later"
    if isinstance(status, int):
        return "permanent", False, "stop_turn"
    return "internal", False, "stop_turn"
