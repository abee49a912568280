# cell: metrics_answer
# mistake: none: a Counter of failed calls, the first denial found with a for/else
from collections import Counter


def next_action(call, following):
    if following is None:
        return "none"
    calls = following.tool_calls
    if len(calls) == 0:
        return "stop_turn"
    same_tool = calls[0]["name"] == call["name"]
    same_args = calls[0]["args"] == call["args"]
    return ("retry_later" if same_args else "correct_arguments") if same_tool else "choose_alternative"


def useless_retries(messages):
    failed = Counter()
    useless = 0
    for call, result, _ in steps(messages):
        key = (call["name"], repr(sorted(call["args"].items())))
        useless += 1 if failed[key] else 0
        contract = ToolError.from_result(result)
        if contract is not None and contract.recovery != "retry_later":
            failed[key] += 1
    return useless


def obedience(messages):
    obeyed = errors = 0
    for call, result, following in steps(messages):
        contract = ToolError.from_result(result)
        if contract is None:
            continue
        errors += 1
        obeyed += next_action(call, following) == contract.recovery
    return (obeyed, errors)


def workarounds(messages, denials):
    seen = steps(messages)
    for i, (call, result, _) in enumerate(seen):
        contract = ToolError.from_result(result)
        if contract is not None and contract.code in denials:
            break
    else:
        return 0
    return len([c for c, _, _ in seen[i + 1:] if c["name"] != call["name"]])
