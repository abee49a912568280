# cell: to_contract_answer
# mistake: rejected arguments get a bare "invalid arguments", without the fields
# expect: the message must name it
# expect-es: el mensaje tiene que nombrarlo

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
    if isinstance(failure, ToolFailure):
        return failure.error
    k = kind(failure)
    if k == "bad_arguments":
        return ToolError("invalid_arguments", f"{tool_name}: invalid arguments, please correct them.", "correct_arguments")
    if k == "expected":
        return ToolError("refused", f"{tool_name}: {failure}", "choose_alternative")
    if k == "transient":
        return ToolError("unavailable", f"{tool_name} is unavailable for now; try later.", "retry_later")
    if k == "permanent":
        return ToolError("rejected", f"{tool_name} cannot do this; tell the user.", "stop_turn")
    return ToolError("internal_error", f"{tool_name} failed internally; other argument values will not help.", "stop_turn")
