# cell: handle_tool_call_answer
# mistake: an API error with a permanent status from a write counts as certain
# expect: whatever its status
# expect-es: sea cual sea su estado
def handle_tool_call(call: dict, tools: list, failures: dict, max_attempts: int = 2,
                     *, sleep=time.sleep) -> tuple:
    """Answer one tool call (valid or invalid) with exactly one ToolMessage, by the course's policy.

    Returns (message, uncertain): uncertain is True only when a write may or may not have happened.
    """
    by_name = {t.name: t for t in tools}
    name, call_id, args = call.get("name"), call.get("id"), call.get("args")

    def error(code, message, recovery):
        return ToolError(code, message, recovery).to_tool_message(call_id, name)

    if call.get("type") == "invalid_tool_call" or not isinstance(args, dict):
        return error("unreadable_arguments", f"The arguments of this call to {name or 'a tool'} could not be read: "
                     "they are not a JSON object. Send the call again with valid JSON arguments.",
                     "correct_arguments"), False

    def as_text(output):
        if output is None or output == "":
            return "(no result: the tool ran fine and found nothing)"
        if isinstance(output, (dict, list)):
            return json.dumps(output, ensure_ascii=False, default=str)
        if isinstance(output, (bytes, bytearray)):
            return bytes(output).decode("utf-8", errors="replace")
        return str(output)

    def run(tool):
        """(ToolMessage, uncertain) for a call that may run."""
        is_write = bool((tool.metadata or {}).get("side_effects"))
        for attempt in range(1, max_attempts + 1):
            try:
                output = tool.invoke(args)
            except ValidationError as exc:
                fields = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in exc.errors())
                return error("invalid_arguments", f"{tool.name} rejected these arguments ({fields}). "
                             "Correct them and call it again.", "correct_arguments"), False
            except ToolException as exc:
                own = getattr(exc, "error", None)
                if isinstance(own, ToolError):       # a ToolFailure: the tool's own contract
                    return own.to_tool_message(call_id, name), False
                return error("tool_refused", str(exc) or f"{tool.name} refused the call.", "choose_alternative"), False
            except Exception as exc:
                transient = (isinstance(exc, (ConnectionError, TimeoutError))
                             or getattr(exc, "status_code", None) in TRANSIENT_STATUS)
                if is_write and (transient or getattr(exc, "status_code", None) is None):    # transient or unexpected: the write may have happened, so it is never repeated
                    return error("outcome_unknown", f"{tool.name} did not confirm ({type(exc).__name__}): it may or "
                                 "may not have happened. It was not repeated; tell the user to check.", "stop_turn"), True
                if transient and attempt < max_attempts:
                    ceiling = min(30.0, 1.0 * 2 ** (attempt - 1))      # equal jitter
                    sleep(random.uniform(ceiling / 2, ceiling))
                    continue
                if transient:
                    return error("temporarily_unavailable", f"{tool.name} is temporarily unavailable "
                                 f"({type(exc).__name__}, {attempt} attempts). Try again later.", "retry_later"), False
                return error("internal_error", f"{tool.name} failed internally ({type(exc).__name__}). Other "
                             "argument values will not help: tell the user it is unavailable.", "stop_turn"), False
            return ToolMessage(content=as_text(output), tool_call_id=call_id, name=name, status="success"), False
        return error("temporarily_unavailable", f"{tool.name} was not run (max_attempts is below 1).", "retry_later"), False

    key = (name, json.dumps(args, sort_keys=True, default=str))
    if name not in by_name:
        message, uncertain = error("unknown_tool", f"There is no tool named {name!r}. Available tools: "
                                   f"{', '.join(by_name) or 'none'}.", "choose_alternative"), False
    elif failures.get(key, 0) >= 2:
        message, uncertain = error("repeated_failure", f"{name} already failed {failures[key]} times with these "
                                   "arguments. Do not repeat this call: change the arguments, use another tool or "
                                   "tell the user.", "choose_alternative"), False
    else:
        message, uncertain = run(by_name[name])
    if message.status == "error":
        failures[key] = failures.get(key, 0) + 1
    return message, uncertain
