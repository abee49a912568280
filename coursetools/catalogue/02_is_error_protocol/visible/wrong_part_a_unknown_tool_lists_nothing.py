# cell: answer_tool_calls_answer
# mistake: an unknown tool is flagged, but the message does not say which tools exist
# expect: must list the available tools
# expect-es: tiene que listar las herramientas disponibles
def answer_tool_calls(response, tools):
    by_name = {tool.name: tool for tool in tools}
    answers = []
    for call in response.tool_calls:
        if call["name"] not in by_name:
            answers.append(ToolMessage(f"There is no tool called {call['name']}.", tool_call_id=call["id"], status="error"))
            continue
        try:
            answers.append(ToolMessage(result_text(by_name[call["name"]].invoke(call["args"])), tool_call_id=call["id"]))
        except Exception as err:
            answers.append(ToolMessage(f"{call['name']} failed: {err}", tool_call_id=call["id"], status="error"))
    for bad in response.invalid_tool_calls:
        answers.append(ToolMessage(f"The arguments of {bad['name']} are not valid JSON.", tool_call_id=bad["id"], status="error"))
    return answers
