# cell: debug_tool_loop_answer
# A correct alternative: each tool is invoked with the whole ToolCall, so LangChain builds the ToolMessage
# (status included); failures it does not handle are flagged by hand. Small helpers, other wording.
def _timed(fn, *args):
    began = time.perf_counter()
    value = fn(*args)
    return value, (time.perf_counter() - began) * 1000


def _answer_call(tool, call):
    """A ToolMessage for one call: LangChain's own when the tool runs, a flagged error otherwise."""
    if tool is None:
        return ToolMessage(f"There is no tool named {call['name']}.", tool_call_id=call["id"], status="error")
    try:
        return tool.invoke({**call, "type": "tool_call"})
    except Exception as err:  # not handled by the tool itself
        return ToolMessage(f"{call['name']} failed with {type(err).__name__}: {err}", tool_call_id=call["id"],
                           status="error")


def debug_tool_loop(question: str, model, tools: list, max_iterations: int = 5) -> str:
    """Run the model -> tool -> model loop, print a step-by-step report and return the final answer."""
    named = {tool.name: tool for tool in tools}
    chat = [HumanMessage(question)]
    for i in range(max_iterations):
        response, ms = _timed(model.invoke, chat)
        chat.append(response)
        print(f"Iteration {i + 1} of {max_iterations}: model {ms:.1f} ms, "
              f"{len(response.tool_calls)} tool call(s), text: {response.content or 'no content'}")
        if not response.tool_calls:
            print("Answer:", response.content)
            return response.content
        for call in response.tool_calls:
            reply, ms = _timed(_answer_call, named.get(call["name"]), call)
            print(f"    {call['name']}{call['args']} #{call['id']} -> {reply.status}: {reply.content} ({ms:.1f} ms)")
            chat.append(reply)
    print("Too many iterations: stopped before a final answer.")
    return f"Too many iterations: stopped after {max_iterations} model calls without a final answer."
