# cell: safe_agent_loop_answer
# mistake: the model is called max_iterations - 1 times
# expect: off-by-one
# expect-es: off-by-one
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

    while iterations < max_iterations - 1:
        iterations += 1
        try:
            response = call_model(model, messages, max_attempts, sleep=sleep)
        except Exception as exc:
            return summary(f"The model could not answer ({type(exc).__name__}). Please try again later.", "model_error")
        messages.append(response)
        calls = [*response.tool_calls, *response.invalid_tool_calls]
        if not calls:
            return summary(response.content if isinstance(response.content, str) else response.text, "answer")
        for call in calls:
            message, uncertain = handle_tool_call(call, tools, failures, max_attempts, sleep=sleep)
            log.append({"tool": call.get("name"), "args": call.get("args"), "success": message.status == "success",
                        "result": message.content})
            if uncertain:   # the rest of the batch is not run, and the model is not asked again
                return summary(f"I could not confirm that {call.get('name')} completed: it may or may not have "
                               "happened. It was not repeated, so that it cannot happen twice; please check before "
                               "asking again.", "uncertain_write")
            messages.append(message)
    return summary(f"Stopped after {max_iterations} model calls without a final answer.", "max_iterations")
