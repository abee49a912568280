# cell: safe_agent_loop_answer
# A correct alternative: the loop as a small class with a for loop over turns, invalid calls answered after the
# valid ones, other wording: full marks.
class _Run:
    def __init__(self, question, tools, max_attempts, sleep):
        self.t0 = time.monotonic()
        self.history = [HumanMessage(question)]
        self.tools, self.max_attempts, self.sleep = tools, max_attempts, sleep
        self.failures, self.entries, self.turns = {}, [], 0

    def result(self, answer, why):
        return {"answer": answer, "stop_reason": why, "iterations": self.turns, "tool_calls": len(self.entries),
                "errors": len([e for e in self.entries if not e["success"]]),
                "elapsed_ms": 1000.0 * (time.monotonic() - self.t0), "log": self.entries}

    def answer_batch(self, response):
        """None when the batch is answered, else the summary that ends the run."""
        for call in list(response.tool_calls) + list(response.invalid_tool_calls):
            reply, unsure = handle_tool_call(call, self.tools, self.failures, self.max_attempts, sleep=self.sleep)
            self.entries.append({"tool": call["name"], "args": call["args"], "success": reply.status == "success",
                                 "result": reply.content})
            if unsure:
                return self.result(f"{call['name']} was not confirmed, and I did not repeat it: check it first.",
                                   "uncertain_write")
            self.history.append(reply)
        return None


def safe_agent_loop(question: str, model, tools: list, max_iterations: int = 5,
                    max_attempts: int = 2, *, sleep=time.sleep) -> dict:
    """Run the model -> tool -> model loop without ever breaking it; return a summary."""
    run = _Run(question, tools, max_attempts, sleep)
    for run.turns in range(1, max_iterations + 1):
        try:
            response = call_model(model, run.history, max_attempts, sleep=sleep)
        except Exception as exc:
            return run.result(f"Model error: {type(exc).__name__}.", "model_error")
        run.history.append(response)
        if not (response.tool_calls or response.invalid_tool_calls):
            return run.result(response.text if not isinstance(response.content, str) else response.content, "answer")
        ended = run.answer_batch(response)
        if ended is not None:
            return ended
    return run.result("Reached the iteration limit before an answer.", "max_iterations")
