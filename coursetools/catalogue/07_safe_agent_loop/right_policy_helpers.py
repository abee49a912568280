# cell: handle_tool_call_answer
# A correct alternative that reads the course's policy from toolfaults.policy (kind_of, recovery_for, is_write,
# result_text) instead of writing the classification by hand, one code per kind: full marks.
from toolfaults.policy import is_transient, is_write, kind_of, recovery_for, result_text

SAY = {
    "bad_call": "No such tool. Available: {tools}.",
    "bad_arguments": "Check these fields: {fields}.",
    "transient": "Temporarily unavailable after {n} attempts.",
    "internal": "The tool failed internally; other arguments will not help.",
    "permanent": "The tool failed internally; other arguments will not help.",
    "repeated_failure": "This call already failed twice: do not repeat it.",
    "uncertain_write": "Could not confirm the action; it was not repeated.",
}


def handle_tool_call(call: dict, tools: list, failures: dict, max_attempts: int = 2,
                     *, sleep=time.sleep) -> tuple:
    """Answer one tool call (valid or invalid) with exactly one ToolMessage, by the course's policy."""
    tools_by_name = {t.name: t for t in tools}
    name, call_id = call.get("name"), call.get("id")

    def fail(kind, recovery=None, **facts):
        text = SAY[kind].format(**facts)
        code = "internal" if kind == "permanent" else kind
        return ToolError(code, f"{name}: {text}", recovery or recovery_for(kind)).to_tool_message(call_id, name)

    if call.get("type") == "invalid_tool_call":
        return fail("bad_arguments", fields="the arguments are not valid JSON"), False
    key = f"{name}:{json.dumps(call['args'], sort_keys=True, default=str)}"
    if name not in tools_by_name:
        answer = fail("bad_call", tools=", ".join(tools_by_name) or "none"), False
    elif failures.get(key, 0) >= 2:
        answer = fail("repeated_failure"), False
    else:
        answer = attempt_all(tools_by_name[name], call, fail, max_attempts, sleep)
    if answer[0].status == "error":
        failures[key] = failures.get(key, 0) + 1
    return answer


def attempt_all(tool, call, fail, max_attempts, sleep):
    n = 0
    while True:
        n += 1
        try:
            output = tool.invoke(call["args"])
            return ToolMessage(result_text(output), tool_call_id=call["id"], name=tool.name, status="success"), False
        except ToolException as exc:
            own = getattr(exc, "error", None)
            if own is not None:
                return own.to_tool_message(call["id"], tool.name), False
            return ToolError("expected", str(exc), recovery_for("expected", exc)).to_tool_message(call["id"], tool.name), False
        except Exception as exc:
            kind = kind_of(exc, write=is_write(tool))
            if kind == "bad_arguments":
                fields = ", ".join(str(e["loc"][-1]) for e in exc.errors() if e["loc"]) or "arguments"
                return fail(kind, fields=fields), False
            if kind == "transient" and n < max_attempts:
                sleep(min(10.0, 0.5 * 2 ** n) * random.uniform(0.5, 1.0))
                continue
            return fail(kind, n=n), kind == "uncertain_write"
