# cell: to_contract_answer
# mistake: the code is the exception's class name: a timeout and a reset get two codes
# expect: one stable code per kind
# expect-es: un código estable por tipo
import re

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
    code = re.sub(r"(?<!^)(?=[A-Z])", "_", type(failure).__name__).lower()
    k = kind(failure)
    if k == "bad_arguments":
        fields = ", ".join(str(e["loc"][0]) for e in failure.errors())
        return ToolError(code, f"{tool_name}: fix {fields}.", "correct_arguments")
    if k == "expected":
        return ToolError(code, f"{tool_name}: {failure}", "choose_alternative")
    if k == "transient":
        return ToolError(code, f"{tool_name} is unavailable for now; try later.", "retry_later")
    return ToolError(code, f"{tool_name} failed internally; other argument values will not help.", "stop_turn")
