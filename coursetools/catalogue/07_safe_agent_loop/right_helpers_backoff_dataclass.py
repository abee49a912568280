# cell: handle_tool_call_answer
# mistake: none: toolfaults.backoff imported first here (as a module, under another name), the errors module by a star import, and a dataclass built on ToolError that remembers the tool
from dataclasses import dataclass

import toolfaults.backoff as backoff
from toolfaults.errors import *  # noqa: F403


@dataclass(frozen=True)
class CallError(ToolError):
    """The course's contract, plus the tool it is about (the model reads only code, message and recovery)."""

    tool: str = ""


def handle_tool_call(call: dict, tools: list, failures: dict, max_attempts: int = 2,
                     *, sleep=time.sleep) -> tuple:
    """One ToolMessage for one call, valid or not; (message, uncertain)."""
    tools_by_name = {t.name: t for t in tools}
    name, call_id, args = call.get("name"), call.get("id"), call.get("args")

    def fail(code, message, recovery, uncertain=False):
        error = CallError(code, message, recovery, tool=name or "")
        return ToolMessage(error.to_json(), tool_call_id=call_id, name=name, status="error"), uncertain

    def done(message, uncertain):
        if message.status == "error":
            failures[key] = failures.get(key, 0) + 1
        return message, uncertain

    if call.get("type") == "invalid_tool_call" or not isinstance(args, dict):
        return fail("bad_json_arguments", f"The arguments for {name or 'this tool'} could not be read as JSON. "
                    "Send the call again with a valid JSON object.", "correct_arguments")
    key = (name, repr(sorted(args.items())))
    if name not in tools_by_name:
        return done(*fail("no_such_tool", f"{name!r} is not a tool here. Use one of: {', '.join(tools_by_name)}.",
                          "choose_alternative"))
    if failures.get(key, 0) >= 2:
        return done(*fail("repeated_failure", f"{name} has failed twice with these same arguments: do not repeat "
                          "the call; try something else or tell the user.", "choose_alternative"))
    tool = tools_by_name[name]
    writes = bool((tool.metadata or {}).get("side_effects"))
    for attempt in range(max(1, max_attempts)):
        try:
            output = tool.invoke(args)
        except ValidationError as exc:
            fields = ", ".join(str(e["loc"][0]) for e in exc.errors() if e["loc"]) or "arguments"
            return done(*fail("bad_arguments", f"{name} did not accept {fields}: fix them and call again.",
                              "correct_arguments"))
        except ToolException as exc:
            own = getattr(exc, "error", None)
            if isinstance(own, ToolError):
                return done(own.to_tool_message(call_id, name), False)
            return done(*fail("refused", str(exc), "choose_alternative"))
        except Exception as exc:  # noqa: BLE001
            transient = isinstance(exc, (ConnectionError, TimeoutError)) or \
                getattr(exc, "status_code", None) in TRANSIENT_STATUS
            if writes:
                return done(*fail("write_unconfirmed", f"{name} may or may not have completed; it was not "
                                  "repeated. Stop and tell the user to check.", "stop_turn", True))
            if not transient:
                return done(*fail("tool_broken", f"{name} failed internally; other arguments will not help. "
                                  "Tell the user it is unavailable.", "stop_turn"))
            if attempt + 1 < max(1, max_attempts):
                sleep(backoff.equal_jitter(attempt, 1.0, 30.0))
                continue
            return done(*fail("try_later", f"{name} is temporarily unavailable after {attempt + 1} attempts; "
                              "try again later.", "retry_later"))
        if output is None or output == "":
            text = "No result."
        elif isinstance(output, (dict, list)):
            text = json.dumps(output, default=str)
        elif isinstance(output, (bytes, bytearray)):
            text = bytes(output).decode("utf-8", "replace")
        else:
            text = str(output)
        return done(ToolMessage(text, tool_call_id=call_id, name=name, status="success"), False)
