# cell: metrics_answer
# mistake: none: the lesson's definitions, written with a dict of failed calls
import json

def next_action(call, following):
    if following is None:
        return "none"
    if not following.tool_calls:
        return "stop_turn"
    first = following.tool_calls[0]
    if first["name"] != call["name"]:
        return "choose_alternative"
    return "retry_later" if first["args"] == call["args"] else "correct_arguments"


def useless_retries(messages):
    failed_for_good = {}
    total = 0
    for call, result, _ in steps(messages):
        key = call["name"] + json.dumps(call["args"], sort_keys=True)
        if failed_for_good.get(key):
            total += 1
        if result.status == "error":
            failed_for_good[key] = failed_for_good.get(key) or ToolError.from_result(result).recovery != "retry_later"
    return total

def obedience(messages):
    errors = [(c, r, f) for c, r, f in steps(messages) if r.status == "error"]
    return sum(next_action(c, f) == ToolError.from_result(r).recovery for c, r, f in errors), len(errors)

def workarounds(messages, denials):
    seen = steps(messages)
    for i, (call, result, _) in enumerate(seen):
        if result.status == "error" and ToolError.from_result(result).code in denials:
            return sum(later["name"] != call["name"] for later, _, _ in seen[i + 1:])
    return 0
