# cell: to_contract_answer
# mistake: every failure stops the turn, so the model is never told to fix an argument or try later
# expect: the policy calls this failure
# expect-es: la política llama a este fallo

def kind(failure):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        return "bad_arguments"
    if isinstance(failure, ToolException):
        return "expected"
    if isinstance(failure, (ConnectionError, TimeoutError)) or status in (408, 429, 500, 502, 503, 504, 529):
        return "transient"
    return "permanent" if isinstance(status, int) else "internal"


CODES = {"bad_arguments": "invalid_arguments", "expected": "refused", "transient": "unavailable",
         "permanent": "rejected", "internal": "internal_error"}


def to_contract(failure, tool_name):
    if isinstance(failure, ToolFailure):
        return failure.error
    k = kind(failure)
    text = {"bad_arguments": "fix " + ", ".join(str(e["loc"][0]) for e in failure.errors()) if k == "bad_arguments" else "",
            "expected": str(failure)}.get(k, "failed internally; other argument values will not help")
    return ToolError(CODES[k], f"{tool_name}: {text}", "stop_turn")
