# cell: classify_answer
# mistake: none: a match statement on the exception's class, then the status
def classify(failure, *, write=False):
    match failure:
        case ValidationError():
            return ("bad_arguments", False, "correct_arguments")
        case ToolException():
            contract = getattr(failure, "error", None)
            return ("expected", False, contract.recovery if isinstance(contract, ToolError) else "choose_alternative")
    if write:
        return ("uncertain_write", False, "stop_turn")
    status = getattr(failure, "status_code", None)
    match failure:
        case ConnectionError() | TimeoutError():
            return ("transient", True, "retry_later")
    if status in {408, 429, 500, 502, 503, 504, 529}:
        return ("transient", True, "retry_later")
    if isinstance(status, int) and not isinstance(status, bool):
        return ("permanent", False, "stop_turn")
    return ("internal", False, "stop_turn")
