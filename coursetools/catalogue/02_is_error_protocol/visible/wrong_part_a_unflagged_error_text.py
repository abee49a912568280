# cell: answer_tool_calls_answer
# mistake: a failing tool answers "Error: ..." with status="success" (the anti-pattern of Lesson 2)
# expect: flag every failure with status='error'
# expect-es: marca cada fallo con status='error'
def answer_tool_calls(response, tools):
    by_name = {tool.name: tool for tool in tools}
    answers = []
    for call in response.tool_calls:
        if call["name"] not in by_name:
            answers.append(ToolMessage(f"Error: no tool {call['name']}; available: {', '.join(by_name)}", tool_call_id=call["id"], status="error"))
            continue
        try:
            content = result_text(by_name[call["name"]].invoke(call["args"]))
        except Exception as err:
            content = f"Error: {call['name']} failed: {err}"
        answers.append(ToolMessage(content, tool_call_id=call["id"]))
    for bad in response.invalid_tool_calls:
        answers.append(ToolMessage(f"Could not read the arguments for {bad['name']} (invalid JSON).", tool_call_id=bad["id"], status="error"))
    return answers
