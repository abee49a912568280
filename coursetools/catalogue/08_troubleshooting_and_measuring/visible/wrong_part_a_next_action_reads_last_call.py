# cell: metrics_answer
# mistake: next_action looks at the following turn's last call, not its first
# expect: only the first call of the following turn counts
# expect-es: solo cuenta la primera llamada del turno siguiente
import json


def next_action(call, following):
    if following is None:
        return "none"
    if not following.tool_calls:
        return "stop_turn"
    last = following.tool_calls[-1]
    if last["name"] != call["name"]:
        return "choose_alternative"
    return "retry_later" if last["args"] == call["args"] else "correct_arguments"

def useless_retries(messages):
    bad, count = set(), 0
    for call, result, _ in steps(messages):
        key = (call["name"], json.dumps(call["args"], sort_keys=True))
        count += key in bad
        if result.status == "error" and ToolError.from_result(result).recovery != "retry_later":
            bad.add(key)
    return count

def obedience(messages):
    errors = [(c, r, f) for c, r, f in steps(messages) if r.status == "error"]
    return sum(next_action(c, f) == ToolError.from_result(r).recovery for c, r, f in errors), len(errors)

def workarounds(messages, denials):
    seen = steps(messages)
    for i, (call, result, _) in enumerate(seen):
        if result.status == "error" and ToolError.from_result(result).code in denials:
            return sum(later["name"] != call["name"] for later, _, _ in seen[i + 1:])
    return 0
