# cell: classify_answer
# mistake: catches OSError as transient, so a missing file of the tool's own is retried
# expect: FileNotFoundError is an OSError
# expect-es: FileNotFoundError es un OSError
TRANSIENT_STATUS = {408, 429, 500, 502, 503, 504, 529}


def classify(failure, *, write=False):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        return "bad_arguments", False, "correct_arguments"
    if isinstance(failure, ToolException):
        own = getattr(getattr(failure, "error", None), "recovery", None)
        return "expected", False, own or "choose_alternative"
    if write:
        return "uncertain_write", False, "stop_turn"
    if isinstance(failure, OSError) or status in TRANSIENT_STATUS:
        return "transient", True, "retry_later"
    if isinstance(status, int):
        return "permanent", False, "stop_turn"
    return "internal", False, "stop_turn"
