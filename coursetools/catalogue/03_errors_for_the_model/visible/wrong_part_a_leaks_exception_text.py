# cell: to_contract_answer
# mistake: puts str(failure) in every message: paths, keys and the service's words reach the model
# expect: the exception's own text
# expect-es: el texto de la propia excepción

def kind(failure):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        return "bad_arguments"
    if isinstance(failure, ToolException):
        return "expected"
    if isinstance(failure, (ConnectionError, TimeoutError)) or status in (408, 429, 500, 502, 503, 504, 529):
        return "transient"
    return "permanent" if isinstance(status, int) else "internal"


def to_contract(failure, tool_name):
    k = kind(failure)
    if isinstance(failure, ToolFailure):
        return failure.error
    if k == "bad_arguments":
        fields = ", ".join(str(e["loc"][0]) for e in failure.errors())
        return ToolError("invalid_arguments", f"{tool_name}: fix {fields}.", "correct_arguments")
    recovery = {"expected": "choose_alternative", "transient": "retry_later"}.get(k, "stop_turn")
    return ToolError(k, f"{tool_name} failed: {failure}. The tool failed internally; other arguments will not help.", recovery)
