# cell: safe_agent_loop_answer
# A correct alternative: retries through tenacity (with its sleep= hook and exponential jitter), a strike
# counter keyed by text, other wording.
import json
import time

import tenacity
from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.tools import ToolException
from pydantic import ValidationError


def safe_agent_loop(question: str, model, tools: list, max_iterations: int = 5,
                    max_attempts: int = 2, *, sleep=time.sleep) -> dict:
    """Run the model -> tool -> model loop without ever breaking it; return a summary."""
    begin = time.perf_counter()
    registry = {tool.name: tool for tool in tools}
    convo = [HumanMessage(question)]
    records, strikes, turns = [], {}, 0

    def transient(exc):
        return isinstance(exc, (ConnectionError, TimeoutError)) or getattr(exc, "status_code", 0) in TRANSIENT_STATUS

    def retrying(allowed=True):
        return tenacity.Retrying(
            stop=tenacity.stop_after_attempt(max(1, max_attempts) if allowed else 1),
            wait=tenacity.wait_exponential_jitter(initial=1, max=20, jitter=0.5),
            retry=tenacity.retry_if_exception(transient),
            sleep=sleep,
            reraise=True,
        )

    def finish(reason, text):
        return {"answer": text, "stop_reason": reason, "iterations": turns, "tool_calls": len(records),
                "errors": sum(1 for r in records if r["success"] is False),
                "elapsed_ms": (time.perf_counter() - begin) * 1e3, "log": records}

    def describe(value):
        if value is None or value == "":
            return "Done, but there is nothing to show (empty result)."
        if isinstance(value, (list, dict)):
            return json.dumps(value)
        return f"{value}"

    for _ in range(max_iterations):
        turns += 1
        try:
            reply = retrying()(model.invoke, convo)
        except Exception as exc:
            return finish("model_error", f"The language model is unavailable right now ({type(exc).__name__}).")
        convo.append(reply)
        if not (reply.tool_calls or reply.invalid_tool_calls):
            return finish("answer", reply.content if isinstance(reply.content, str) else reply.text)
        for call in reply.tool_calls:
            name, args = call["name"], call["args"]
            key = f"{name}:{json.dumps(args, sort_keys=True, default=repr)}"
            tool = registry.get(name)
            success = False
            if tool is None:
                text = f"'{name}' does not exist here; choose one of: {sorted(registry)}."
            elif strikes.get(key, 0) > 1:
                text = "This exact call has failed twice already. Please do not repeat it."
            else:
                write = (tool.metadata or {}).get("side_effects") is True
                try:
                    value = retrying(allowed=not write)(tool.invoke, args)
                    success, text = True, describe(value)
                except ValidationError as exc:
                    text = "Please fix " + ", ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors()) \
                        + " and call again."
                except ToolException as exc:
                    text = str(exc)
                except Exception as exc:
                    if write:  # transient or unexpected: it may have happened
                        records.append({"tool": name, "args": args, "success": False, "result": "unconfirmed"})
                        return finish("uncertain_write",
                                      "The write could not be confirmed. It has not been repeated; please verify it first.")
                    if transient(exc):
                        text = f"Temporary failure of {name} ({type(exc).__name__}); tried {max_attempts} times."
                    else:
                        text = f"Internal error inside {name}; the arguments were not the problem."
                if not success:
                    strikes[key] = strikes.get(key, 0) + 1
            records.append({"tool": name, "args": args, "success": success, "result": text})
            convo.append(ToolMessage(text, tool_call_id=call["id"], status="success" if success else "error"))
        for bad in reply.invalid_tool_calls:
            text = f"Malformed arguments for {bad.get('name')}: send them again as valid JSON."
            records.append({"tool": bad.get("name"), "args": bad.get("args"), "success": False, "result": text})
            convo.append(ToolMessage(text, tool_call_id=bad["id"], status="error"))
    return finish("max_iterations", f"Gave up after {max_iterations} model turns.")
