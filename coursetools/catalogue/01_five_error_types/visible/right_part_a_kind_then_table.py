# cell: classify_answer
# mistake: none: finds the kind first, then reads retried and recovery from tables
RECOVERY = {"bad_arguments": "correct_arguments", "expected": "choose_alternative", "transient": "retry_later",
            "permanent": "stop_turn", "internal": "stop_turn", "uncertain_write": "stop_turn"}


def kind_of(failure, write):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        return "bad_arguments"
    if isinstance(failure, ToolException):
        return "expected"
    if write:
        return "uncertain_write"
    if isinstance(failure, (ConnectionError, TimeoutError)) or status in (408, 429, 500, 502, 503, 504, 529):
        return "transient"
    return "permanent" if type(status) is int else "internal"


def classify(failure, *, write=False):
    kind = kind_of(failure, write)
    recovery = RECOVERY[kind]
    if kind == "expected" and isinstance(failure, ToolFailure):
        recovery = failure.error.recovery
    return (kind, kind == "transient", recovery)
