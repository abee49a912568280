# cell: answer_tool_calls_answer
# mistake: str(output): None reaches the model as "None" and a dict as Python text
# expect: pass the output through result_text
# expect-es: pasa la salida por result_text
def answer_tool_calls(response, tools):
    by_name = {tool.name: tool for tool in tools}
    answers = []
    for call in response.tool_calls:
        if call["name"] not in by_name:
            answers.append(ToolMessage(f"No tool named {call['name']}. Tools: {', '.join(by_name)}.", tool_call_id=call["id"], status="error"))
            continue
        try:
            answers.append(ToolMessage(str(by_name[call["name"]].invoke(call["args"])), tool_call_id=call["id"]))
        except Exception as err:
            answers.append(ToolMessage(f"{call['name']} failed: {err}", tool_call_id=call["id"], status="error"))
    for bad in response.invalid_tool_calls:
        answers.append(ToolMessage(f"The arguments of {bad['name']} are not valid JSON.", tool_call_id=bad["id"], status="error"))
    return answers
