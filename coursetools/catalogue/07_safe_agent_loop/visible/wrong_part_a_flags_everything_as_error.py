# cell: debug_tool_loop_answer
# mistake: sends every result with status="error", successes included
# expect: they must be "success"
# expect-es: deben ser "success"
def debug_tool_loop(question: str, model, tools: list, max_iterations: int = 5) -> str:
    """Run the model -> tool -> model loop, print a step-by-step report and return the final answer."""
    by_name = {t.name: t for t in tools}
    messages = [HumanMessage(question)]
    print("=" * 60)
    print(f"DEBUG TOOL LOOP\nQuestion: {question}\nTools: {', '.join(by_name)}")
    print("=" * 60)
    for iteration in range(1, max_iterations + 1):
        print(f"\n--- Iteration {iteration} ---")
        start = time.perf_counter()
        response = model.invoke(messages)
        model_ms = (time.perf_counter() - start) * 1000
        messages.append(response)
        print(f"  [model] {model_ms:.1f} ms")
        print(f"    content: {response.content!r}" if response.content else "    content: (empty)")
        print(f"    tool calls: {len(response.tool_calls)}")
        if not response.tool_calls:
            print(f"\nFinal answer: {response.content}")
            return response.content
        for number, call in enumerate(response.tool_calls, 1):
            print(f"\n  [tool call {number}]")
            print(f"    name:   {call['name']}")
            print(f"    args:   {call['args']}")
            print(f"    id:     {call['id']}")
            start = time.perf_counter()
            tool = by_name.get(call["name"])
            status = "error"  # until the tool has run fine
            if tool is None:
                result = f"unknown tool {call['name']!r}; available: {', '.join(by_name)}"
            else:
                try:
                    result, status = tool.invoke(call["args"]), "success"
                except Exception as exc:
                    result = f"{call['name']} failed: {type(exc).__name__}: {exc}"
            tool_ms = (time.perf_counter() - start) * 1000
            print(f"    result: {result}" if status == "success" else f"    error:  {result}")
            print(f"    time:   {tool_ms:.1f} ms")
            messages.append(ToolMessage(content=str(result), tool_call_id=call["id"], status="error"))
    answer = f"Stopped: the iteration limit ({max_iterations}) was reached without a final answer."
    print(f"\n{answer}")
    return answer
