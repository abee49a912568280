# cell: metrics_answer
# mistake: divides by every call, not by the errors
# expect: as (obeyed, errors)
# expect-es: como (obeyed, errors)
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
    bad, count = set(), 0
    for call, result, _ in steps(messages):
        key = (call["name"], json.dumps(call["args"], sort_keys=True))
        count += key in bad
        if result.status == "error" and ToolError.from_result(result).recovery != "retry_later":
            bad.add(key)
    return count


def obedience(messages):
    seen = steps(messages)
    obeyed = sum(r.status == "error" and next_action(c, f) == ToolError.from_result(r).recovery for c, r, f in seen)
    return obeyed, len(seen)

def workarounds(messages, denials):
    seen = steps(messages)
    for i, (call, result, _) in enumerate(seen):
        if result.status == "error" and ToolError.from_result(result).code in denials:
            return sum(later["name"] != call["name"] for later, _, _ in seen[i + 1:])
    return 0
