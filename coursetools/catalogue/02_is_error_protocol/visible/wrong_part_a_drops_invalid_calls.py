# cell: answer_tool_calls_answer
# mistake: answers only response.tool_calls: the invalid tool calls get no result
# expect: one result per call
# expect-es: un resultado por llamada
def answer_tool_calls(response, tools):
    by_name = {tool.name: tool for tool in tools}
    answers = []
    for call in response.tool_calls:
        if call["name"] not in by_name:
            answers.append(ToolMessage(f"Unknown tool {call['name']}; use one of {sorted(by_name)}.", tool_call_id=call["id"], status="error"))
            continue
        try:
            answers.append(ToolMessage(result_text(by_name[call["name"]].invoke(call["args"])), tool_call_id=call["id"]))
        except Exception as err:
            answers.append(ToolMessage(f"{call['name']} failed: {err}", tool_call_id=call["id"], status="error"))
    return answers
