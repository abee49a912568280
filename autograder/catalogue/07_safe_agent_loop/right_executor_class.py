# cell: safe_agent_loop_answer
# A correct alternative: an executor class, invalid calls answered before valid ones, plain exponential
# backoff (0.5 s, 1 s, ...), a while loop and other wording.
import json
import time

from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.tools import ToolException
from pydantic import ValidationError

RETRYABLE_CODES = frozenset({408, 429, 500, 502, 503, 504, 529})


def _retryable(error):
    return isinstance(error, (ConnectionError, TimeoutError)) or getattr(error, "status_code", None) in RETRYABLE_CODES


class _UncertainWrite(Exception):
    """A write failed transiently: it may or may not have happened."""


class _Executor:
    def __init__(self, tools, attempts, sleep):
        self.tools = {t.name: t for t in tools}
        self.attempts = max(1, attempts)
        self.sleep = sleep
        self.failed = {}
        self.log = []

    def with_retries(self, fn, *, may_retry=True):
        delay = 0.5
        for number in range(1, self.attempts + 1):
            try:
                return fn()
            except Exception as error:
                if not may_retry or not _retryable(error) or number == self.attempts:
                    raise
                self.sleep(delay)
                delay *= 2

    @staticmethod
    def render(value):
        if value is None or value == "":
            return "The tool returned nothing (no result)."
        if isinstance(value, (dict, list)):
            return json.dumps(value, default=str)
        return value if isinstance(value, str) else str(value)

    def handle(self, name, args):
        """(ok, text) for one parsed tool call; raises _UncertainWrite."""
        tool = self.tools.get(name)
        if tool is None:
            known = ", ".join(sorted(self.tools)) or "(none)"
            return False, f"There is no tool called '{name}'. Tools you can call: {known}."
        signature = name + "|" + json.dumps(args, sort_keys=True, default=str)
        if self.failed.get(signature, 0) >= 2:
            return False, f"Stop: '{name}' has failed twice with exactly these arguments; do not call it again like this."
        writes = bool(getattr(tool, "metadata", None) and tool.metadata.get("side_effects"))
        try:
            return True, self.render(self.with_retries(lambda: tool.invoke(args), may_retry=not writes))
        except ValidationError as error:
            fields = sorted({".".join(str(p) for p in e["loc"]) or "?" for e in error.errors()})
            text = f"'{name}' rejected its arguments; check the field(s): {', '.join(fields)}."
        except ToolException as error:
            text = f"'{name}' reported: {error}"
        except Exception as error:
            if writes:  # transient or unexpected: it may have happened
                raise _UncertainWrite(name) from None
            if _retryable(error):
                text = f"'{name}' kept failing with a temporary problem after {self.attempts} tries; try later."
            else:
                text = f"'{name}' hit an internal error on our side. Your arguments are fine; don't vary them."
        self.failed[signature] = self.failed.get(signature, 0) + 1
        return False, text


def safe_agent_loop(question: str, model, tools: list, max_iterations: int = 5,
                    max_attempts: int = 2, *, sleep=time.sleep) -> dict:
    """Run the model -> tool -> model loop without ever breaking it; return a summary."""
    t0 = time.monotonic()
    ex = _Executor(tools, max_attempts, sleep)
    history = [HumanMessage(content=question)]
    turns = 0

    def done(answer, why):
        return {"answer": answer, "stop_reason": why, "iterations": turns, "tool_calls": len(ex.log),
                "errors": len([e for e in ex.log if not e["success"]]),
                "elapsed_ms": 1000.0 * (time.monotonic() - t0), "log": ex.log}

    while turns < max_iterations:
        turns += 1
        try:
            reply = ex.with_retries(lambda: model.invoke(history))
        except Exception as error:
            return done(f"Stopped: the model call failed ({error.__class__.__name__}).", "model_error")
        history.append(reply)
        pending = [(c.get("name"), c.get("args"), c["id"], False) for c in reply.invalid_tool_calls]
        pending += [(c["name"], c["args"], c["id"], True) for c in reply.tool_calls]
        if not pending:
            return done(reply.content if isinstance(reply.content, str) else reply.text, "answer")
        for name, args, call_id, parsed in pending:
            if parsed:
                try:
                    ok, text = ex.handle(name, args)
                except _UncertainWrite:
                    ex.log.append({"tool": name, "args": args, "success": False, "result": "write not confirmed"})
                    return done(f"I could not confirm that '{name}' went through, and I did not repeat it so that it "
                                "cannot happen twice. Please check before trying again.", "uncertain_write")
            else:
                ok, text = False, f"Could not parse the arguments of '{name}' as JSON. Resend the call with valid JSON."
            ex.log.append({"tool": name, "args": args, "success": ok, "result": text})
            history.append(ToolMessage(content=text, tool_call_id=call_id, status="success" if ok else "error"))
    return done(f"No final answer within {max_iterations} model turns.", "max_iterations")
