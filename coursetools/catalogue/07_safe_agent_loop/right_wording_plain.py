# cell: handle_tool_call_answer
# A correct alternative in other words and other codes: full marks.
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
        return error("bad_json", f"Unreadable arguments (not JSON) for {name}: resend the call with a JSON object.",
                     "correct_arguments"), False

    def as_text(output):
        if output is None or output == "":
            return "The tool returned nothing for this query."
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
                return error("bad_args", f"Fix these fields and resend: {fields}.", "correct_arguments"), False
            except ToolException as exc:
                own = getattr(exc, "error", None)
                if isinstance(own, ToolError):       # a ToolFailure: the tool's own contract
                    return own.to_tool_message(call_id, name), False
                return error("refused", str(exc) or f"{tool.name} refused the call.", "choose_alternative"), False
            except Exception as exc:
                transient = (isinstance(exc, (ConnectionError, TimeoutError))
                             or getattr(exc, "status_code", None) in TRANSIENT_STATUS)
                if is_write:    # transient or unexpected: the write may have happened, so it is never repeated
                    return error("write_unconfirmed", f"Outcome of {tool.name} unknown; no second attempt was made. Ask the user to verify.", "stop_turn"), True
                if transient and attempt < max_attempts:
                    ceiling = min(30.0, 1.0 * 2 ** (attempt - 1))      # equal jitter
                    sleep(random.uniform(ceiling / 2, ceiling))
                    continue
                if transient:
                    return error("busy", f"{tool.name} is busy right now; gave up after {attempt} tries. Later, the same call may pass.", "retry_later"), False
                return error("crashed", f"{tool.name} broke on its own side; changing the input will not fix it.", "stop_turn"), False
            return ToolMessage(content=as_text(output), tool_call_id=call_id, name=name, status="success"), False
        return error("busy", f"{tool.name} was not run (max_attempts is below 1).", "retry_later"), False

    key = (name, json.dumps(args, sort_keys=True, default=str))
    if name not in by_name:
        message, uncertain = error("no_such_tool", f"{name} is not one of the tools you have ({', '.join(by_name)}). Pick one of those.", "choose_alternative"), False
    elif failures.get(key, 0) >= 2:
        message, uncertain = error("blocked_call", f"Blocked: {name} with these arguments failed twice already. Try something else.", "choose_alternative"), False
    else:
        message, uncertain = run(by_name[name])
    if message.status == "error":
        failures[key] = failures.get(key, 0) + 1
    return message, uncertain
