# cell: answer_tool_calls_answer
# mistake: none: one helper answers one call; invalid calls are answered by the same helper
def answer_one(call, by_name, readable=True):
    name = call.get("name") or "?"
    if not readable:
        return ToolMessage(f"Your call to {name} had arguments that are not JSON; resend them as a JSON object.",
                           tool_call_id=call["id"], name=name, status="error")
    if name not in by_name:
        return ToolMessage(f"'{name}' is not a tool here. Choose from: {', '.join(by_name)}.",
                           tool_call_id=call["id"], name=name, status="error")
    try:
        output = by_name[name].invoke(call["args"])
    except Exception as err:
        return ToolMessage(f"The tool {name} failed ({type(err).__name__}).", tool_call_id=call["id"], name=name, status="error")
    return ToolMessage(result_text(output), tool_call_id=call["id"], name=name, status="success")


def answer_tool_calls(response, tools):
    by_name = {tool.name: tool for tool in tools}
    return ([answer_one(c, by_name) for c in response.tool_calls]
            + [answer_one(c, by_name, readable=False) for c in response.invalid_tool_calls])
