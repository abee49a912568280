# cell: classify_answer
# mistake: ignores write=True: a timed-out booking is retried like a read
# expect: a write's timeout is uncertain_write
# expect-es: el timeout de una escritura es uncertain_write
TRANSIENT_STATUS = {408, 429, 500, 502, 503, 504, 529}


def classify(failure, *, write=False):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        return "bad_arguments", False, "correct_arguments"
    if isinstance(failure, ToolException):
        own = getattr(getattr(failure, "error", None), "recovery", None)
        return "expected", False, own or "choose_alternative"
    if isinstance(failure, (ConnectionError, TimeoutError)) or status in TRANSIENT_STATUS:
        return "transient", True, "retry_later"
    if isinstance(status, int):
        return "permanent", False, "stop_turn"
    return "internal", False, "stop_turn"
