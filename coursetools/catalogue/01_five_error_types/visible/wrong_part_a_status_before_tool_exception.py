# cell: classify_answer
# mistake: reads status_code before asking whether the tool raised a ToolException
# expect: check ToolException before the status code
# expect-es: comprueba ToolException antes que el código de estado
TRANSIENT_STATUS = {408, 429, 500, 502, 503, 504, 529}


def classify(failure, *, write=False):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        return "bad_arguments", False, "correct_arguments"
    if write and not isinstance(failure, ToolException):
        return "uncertain_write", False, "stop_turn"
    if isinstance(failure, (ConnectionError, TimeoutError)) or status in TRANSIENT_STATUS:
        return "transient", True, "retry_later"
    if isinstance(failure, ToolException):
        own = getattr(getattr(failure, "error", None), "recovery", None)
        return "expected", False, own or "choose_alternative"
    if isinstance(status, int):
        return "permanent", False, "stop_turn"
    return "internal", False, "stop_turn"
