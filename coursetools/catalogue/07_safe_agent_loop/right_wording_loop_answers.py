# cell: safe_agent_loop_answer
# A correct alternative whose stop answers are worded otherwise: full marks.
def safe_agent_loop(question: str, model, tools: list, max_iterations: int = 5,
                    max_attempts: int = 2, *, sleep=time.sleep) -> dict:
    """Run the model -> tool -> model loop without ever breaking it; return a summary.

    Returns a dict with answer, stop_reason, iterations, tool_calls, errors, elapsed_ms and log.
    """
    started = time.perf_counter()
    messages = [HumanMessage(question)]
    failures, log = {}, []   # failures: handle_tool_call's count of failed calls, for the whole conversation
    iterations = 0

    def summary(answer, stop_reason):
        return {"answer": answer, "stop_reason": stop_reason, "iterations": iterations,
                "tool_calls": len(log), "errors": sum(not entry["success"] for entry in log),
                "elapsed_ms": (time.perf_counter() - started) * 1000, "log": log}

    while iterations < max_iterations:
        iterations += 1
        try:
            response = call_model(model, messages, max_attempts, sleep=sleep)
        except Exception as exc:
            return summary("The model is unavailable right now.", "model_error")
        messages.append(response)
        calls = [*response.tool_calls, *response.invalid_tool_calls]
        if not calls:
            return summary(response.content if isinstance(response.content, str) else response.text, "answer")
        for call in calls:
            message, uncertain = handle_tool_call(call, tools, failures, max_attempts, sleep=sleep)
            log.append({"tool": call.get("name"), "args": call.get("args"), "success": message.status == "success",
                        "result": message.content})
            if uncertain:   # the rest of the batch is not run, and the model is not asked again
                return summary(f"Outcome unknown: {call.get('name')} may or may not have gone through, and I made no second attempt. "
                               "Please verify before trying again.", "uncertain_write")
            messages.append(message)
    return summary("Too many steps: no final answer.", "max_iterations")
