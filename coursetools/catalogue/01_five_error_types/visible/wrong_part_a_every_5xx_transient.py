# cell: classify_answer
# mistake: calls every 5xx transient, so a 507 (storage full) is retried
# expect: 507 is not in the transient set
# expect-es: 507 no está en el conjunto transitorio
def classify(failure, *, write=False):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        return "bad_arguments", False, "correct_arguments"
    if isinstance(failure, ToolException):
        own = getattr(getattr(failure, "error", None), "recovery", None)
        return "expected", False, own or "choose_alternative"
    if write:
        return "uncertain_write", False, "stop_turn"
    if isinstance(failure, (ConnectionError, TimeoutError)) or (isinstance(status, int) and (status >= 500 or status in (408, 429))):
        return "transient", True, "retry_later"
    if isinstance(status, int):
        return "permanent", False, "stop_turn"
    return "internal", False, "stop_turn"
