# cell: debug_tool_loop_answer
# A correct alternative: a while loop that collects each step's lines and prints them at once, other
# wording ("ITERATION #1", "<empty>", "took 0.3 ms", "No tool called 'power' here"), max_iterations named at the limit.
def debug_tool_loop(question: str, model, tools: list, max_iterations: int = 5) -> str:
    """Run the model -> tool -> model loop, print a step-by-step report and return the final answer."""
    toolbox = {t.name: t for t in tools}
    history = [HumanMessage(question)]
    print(f"Q: {question}  |  tools available: {sorted(toolbox)}")
    turn = 0
    while turn < max_iterations:
        turn += 1
        lines = [f"ITERATION #{turn}"]
        t0 = time.perf_counter()
        reply = model.invoke(history)
        lines.append(f"  model took {1000 * (time.perf_counter() - t0):.2f} ms, said: {reply.content or '<empty>'}, "
                     f"asked for {len(reply.tool_calls)} tool(s)")
        history.append(reply)
        if not reply.tool_calls:
            print("\n".join(lines))
            print(f"==> {reply.content}")
            return reply.content
        for call in reply.tool_calls:
            t0 = time.perf_counter()
            if call["name"] in toolbox:
                try:
                    text, flag = str(toolbox[call["name"]].invoke(call["args"])), "success"
                except Exception as problem:  # any failure goes back to the model, flagged
                    text, flag = f"{call['name']} raised {problem.__class__.__name__} ({problem})", "error"
            else:
                text, flag = f"No tool called {call['name']!r} here (have: {', '.join(sorted(toolbox))})", "error"
            lines.append(f"  -> {call['name']} args={call['args']} id={call['id']} [{flag}] {text} "
                         f"(took {1000 * (time.perf_counter() - t0):.2f} ms)")
            history.append(ToolMessage(text, tool_call_id=call["id"], status=flag))
        print("\n".join(lines))
    message = f"Gave up: max_iterations ({max_iterations}) used without a final answer."
    print(message)
    return message
