# cell: safe_agent_loop_answer
# A correct alternative, terse and in Spanish (the executor-class structure): "se cayó por un fallo de
# nuestro lado ... los parámetros no tienen la culpa", "Sin resultado", "no la repitas", "quedó sin confirmar y
# no la mandé otra vez". Full marks in both editions.
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
            return "Sin resultado: la herramienta no trajo datos."
        if isinstance(value, (dict, list)):
            return json.dumps(value, default=str)
        return value if isinstance(value, str) else str(value)

    def handle(self, name, args):
        """(ok, text) for one parsed tool call; raises _UncertainWrite."""
        tool = self.tools.get(name)
        if tool is None:
            known = ", ".join(sorted(self.tools)) or "(none)"
            return False, f"'{name}' no es una herramienta. Las que hay: {known}."
        signature = name + "|" + json.dumps(args, sort_keys=True, default=str)
        if self.failed.get(signature, 0) >= 2:
            return False, f"Basta: '{name}' ya falló dos veces con estos mismos argumentos; no la repitas."
        writes = bool(getattr(tool, "metadata", None) and tool.metadata.get("side_effects"))
        try:
            return True, self.render(self.with_retries(lambda: tool.invoke(args), may_retry=not writes))
        except ValidationError as error:
            fields = sorted({".".join(str(p) for p in e["loc"]) or "?" for e in error.errors()})
            text = f"'{name}' rechazó sus argumentos; revisa: {', '.join(fields)}."
        except ToolException as error:
            text = f"'{name}' respondió: {error}"
        except Exception as error:
            if writes:  # transient or unexpected: it may have happened
                raise _UncertainWrite(name) from None
            if _retryable(error):
                text = f"'{name}' sigue con un fallo temporal tras {self.attempts} intentos; prueba luego."
            else:
                text = f"'{name}' se cayó por un fallo de nuestro lado. Los parámetros no tienen la culpa; no los cambies."
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
            return done(f"Me paro: falló la llamada al modelo ({error.__class__.__name__}).", "model_error")
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
                    ex.log.append({"tool": name, "args": args, "success": False, "result": "escritura sin confirmar"})
                    return done(f"'{name}' quedó sin confirmar y no la mandé otra vez, para que no ocurra "
                                "dos veces. Compruébalo antes de pedirlo de nuevo.", "uncertain_write")
            else:
                ok, text = False, f"Los argumentos de '{name}' no son un JSON legible. Reenvía la llamada con JSON válido."
            ex.log.append({"tool": name, "args": args, "success": ok, "result": text})
            history.append(ToolMessage(content=text, tool_call_id=call_id, status="success" if ok else "error"))
    return done(f"Sin respuesta final en {max_iterations} turnos del modelo.", "max_iterations")
