# cell: safe_agent_loop_answer
# mistake: elapsed_ms adds up only the model calls' time, not the tools' (not the loop's wall time)
# expect: milliseconds
# expect-es: milisegundos
def safe_agent_loop(question: str, model, tools: list, max_iterations: int = 5,
                    max_attempts: int = 2, *, sleep=time.sleep) -> dict:
    """Run the model -> tool -> model loop without ever breaking it; return a summary.

    Returns a dict with answer, stop_reason, iterations, tool_calls, errors, elapsed_ms and log.
    """
    model_seconds = [0.0]
    by_name = {t.name: t for t in tools}
    messages = [HumanMessage(question)]
    log = []        # one entry per tool call handled
    failures = {}   # (tool name, arguments as JSON) -> how many times that call failed
    iterations = 0

    def is_transient(exc):
        return isinstance(exc, (ConnectionError, TimeoutError)) or getattr(exc, "status_code", None) in TRANSIENT_STATUS

    def wait_before_retry(n):  # equal jitter, n = 0 before the first retry
        ceiling = min(30.0, 1.0 * 2 ** n)
        sleep(random.uniform(ceiling / 2, ceiling))

    def summary(answer, stop_reason):
        return {"answer": answer, "stop_reason": stop_reason, "iterations": iterations,
                "tool_calls": len(log), "errors": sum(not entry["success"] for entry in log),
                "elapsed_ms": model_seconds[0] * 1000, "log": log}

    def ask_model():
        """(response, None) or (None, the exception that ended the attempts)."""
        for attempt in range(max_attempts):
            try:
                t0 = time.perf_counter()
                try:
                    return model.invoke(messages), None
                finally:
                    model_seconds[0] += time.perf_counter() - t0
            except Exception as exc:
                if not is_transient(exc) or attempt == max_attempts - 1:
                    return None, exc
                wait_before_retry(attempt)
        return None, RuntimeError("max_attempts is below 1")

    def as_text(result):
        if result is None or (isinstance(result, str) and not result.strip()):
            return "(no result: the tool ran fine but returned nothing)"
        if isinstance(result, (dict, list)):
            return json.dumps(result, ensure_ascii=False, default=str)
        return str(result)

    def run_tool(tool, args):
        """(success, content for the model, uncertain_write)."""
        is_write = bool((tool.metadata or {}).get("side_effects"))
        for attempt in range(max_attempts):
            try:
                return True, as_text(tool.invoke(args)), False
            except ValidationError as exc:
                problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in exc.errors())
                return False, f"Invalid arguments for {tool.name}: {problems}. Fix these fields and call it again.", False
            except ToolException as exc:
                return False, f"{tool.name} failed: {exc}", False
            except Exception as exc:
                if is_write:  # transient or unexpected: the write may have happened, so never repeat it
                    return False, f"{tool.name} did not confirm ({type(exc).__name__}).", True
                if not is_transient(exc):
                    return False, (f"{tool.name} failed internally ({type(exc).__name__}). This is not a problem "
                                   "with the arguments: do not retry with other values; use another tool or tell the user."), False
                if attempt == max_attempts - 1:
                    return False, (f"{tool.name} is temporarily unavailable ({type(exc).__name__}), "
                                   f"{max_attempts} attempts made. Try again later or use another tool."), False
                wait_before_retry(attempt)
        return False, f"{tool.name} was not run (max_attempts is below 1).", False

    for _ in range(max_iterations):
        iterations += 1
        response, error = ask_model()
        if error is not None:
            return summary(f"The model could not answer ({type(error).__name__}). Please try again later.",
                           "model_error")
        messages.append(response)
        if not response.tool_calls and not response.invalid_tool_calls:
            return summary(response.content if isinstance(response.content, str) else response.text, "answer")
        for call in response.tool_calls:
            name, args = call["name"], call["args"]
            key = (name, json.dumps(args, sort_keys=True, default=str))
            uncertain = False
            if name not in by_name:
                ok, content = False, f"Unknown tool {name!r}. Available tools: {', '.join(by_name) or 'none'}."
            elif failures.get(key, 0) >= 2:
                ok, content = False, (f"{name} already failed {failures[key]} times with these same arguments. "
                                      "Do not repeat this call: change the arguments, use another tool or tell the user.")
            else:
                ok, content, uncertain = run_tool(by_name[name], args)
            if not ok:
                failures[key] = failures.get(key, 0) + 1
            log.append({"tool": name, "args": args, "success": ok, "result": content})
            if uncertain:
                return summary(f"The action {name} could not be confirmed: it may or may not have happened. "
                               "It was not repeated, to avoid doing it twice; please check before asking again.",
                               "uncertain_write")
            messages.append(ToolMessage(content=content, tool_call_id=call["id"], name=name,
                                        status="success" if ok else "error"))
        for bad in response.invalid_tool_calls:
            content = (f"The call to {bad.get('name')} could not be read: its arguments are not valid JSON "
                       f"({bad.get('error') or 'parse error'}). Send the call again with a JSON object of arguments.")
            log.append({"tool": bad.get("name"), "args": bad.get("args"), "success": False, "result": content})
            messages.append(ToolMessage(content=content, tool_call_id=bad["id"], name=bad.get("name"), status="error"))
    return summary(f"Stopped after {max_iterations} model calls without a final answer.", "max_iterations")
