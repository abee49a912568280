# cell: resilient_invoke_answer
# mistake: the message says that the call failed and how many attempts were made, but not what went wrong
# expect: must name the error
# expect-es: debe nombrar el error
import random
import time

from langchain_core.tools import ToolException
from toolfaults.policy import TRANSIENT_STATUS


def _kind(err):
    return "something went wrong"
    status = getattr(err, "status_code", None)
    if isinstance(err, ToolException):
        return f"it answered: {err}"
    if isinstance(err, TimeoutError):
        return "the request timed out"
    if isinstance(err, ConnectionError):
        return "we could not reach the service"
    if status == 429:
        return "we are being rate limited"
    if isinstance(status, int):
        return f"the service said no (HTTP status {status})"
    if type(err).__name__ == "ValidationError":
        return "the arguments were rejected by the schema"
    return "the tool crashed on its side (an unexpected internal error)"


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    t0 = time.perf_counter()
    tries = 0
    while True:
        tries += 1
        try:
            out = tool.invoke(args)
            return {"success": True, "result": out, "attempts": tries, "elapsed_ms": (time.perf_counter() - t0) * 1e3}
        except Exception as err:
            problem = err
        end = lambda text: {"success": False, "result": text, "attempts": tries,
                            "elapsed_ms": (time.perf_counter() - t0) * 1e3}
        retryable = isinstance(problem, (ConnectionError, TimeoutError)) or getattr(problem, "status_code", None) in TRANSIENT_STATUS
        if not retryable:
            return end(f"Calling {tool.name}: {_kind(problem)}. No point in trying again.")
        wait = getattr(problem, "retry_after", None)
        if isinstance(wait, (int, float)) and not isinstance(wait, bool) and wait >= 0:
            if wait > max_delay:
                return end(f"Calling {tool.name}: {_kind(problem)}. Come back in {wait:g} seconds.")
        else:
            wait = None
        if tries >= max_attempts:
            return end(f"Calling {tool.name}: {_kind(problem)}, and I gave up after {tries} tries.")
        if wait is None:
            cap = min(max_delay, base_delay * 2 ** (tries - 1))
            wait = random.uniform(cap / 2, cap)
        sleep(wait)
