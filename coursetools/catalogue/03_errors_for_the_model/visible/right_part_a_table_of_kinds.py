# cell: to_contract_answer
# mistake: none: one table gives code, recovery and message per kind

def kind(failure):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        return "bad_arguments"
    if isinstance(failure, ToolException):
        return "expected"
    if isinstance(failure, (ConnectionError, TimeoutError)) or status in (408, 429, 500, 502, 503, 504, 529):
        return "transient"
    return "permanent" if isinstance(status, int) else "internal"


TABLE = {
    "transient": ("service_unavailable", "retry_later", "{tool} did not answer this time; the same call may work later."),
    "permanent": ("request_refused", "stop_turn", "{tool} refused the request; trying again will not help. Tell the user."),
    "internal": ("tool_crashed", "stop_turn", "{tool} crashed on its side (an internal error). It is not a problem with "
                 "your arguments, so other values will not help. Tell the user."),
}


def to_contract(failure, tool_name):
    k = kind(failure)
    if k == "bad_arguments":
        fields = sorted({str(e["loc"][0]) for e in failure.errors() if e["loc"]})
        return ToolError("bad_arguments", f"Call {tool_name} again with valid values for: {', '.join(fields)}.", "correct_arguments")
    if k == "expected":
        if isinstance(failure, ToolFailure):
            return failure.error
        return ToolError("tool_said_no", f"{tool_name} answered: {failure}", "choose_alternative")
    code, recovery, text = TABLE[k]
    return ToolError(code, text.format(tool=tool_name), recovery)
