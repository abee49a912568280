# cell: resilient_invoke_answer
# mistake: none: helpers loaded with importlib.import_module and a star import, and a subclass of MockTool defined next to the answer
import importlib
import random

from toolfaults.errors import *  # noqa: F403

tools = importlib.import_module("toolfaults.tools")
backoff = importlib.import_module("toolfaults.backoff")


class CountingTool(tools.MockTool):
    """A mocked tool that counts its calls (for trying the function out)."""


RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504, 529})


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    """Call the tool, retrying only transient failures, with capped equal-jitter backoff."""
    began = time.perf_counter()
    result = {"success": False, "result": None, "attempts": 0}
    for n in range(max(1, max_attempts)):
        result["attempts"] = n + 1
        try:
            result.update(success=True, result=tool.invoke(args))
            break
        except Exception as error:  # noqa: BLE001
            transient = isinstance(error, (ConnectionError, TimeoutError)) or \
                getattr(error, "status_code", None) in RETRY_STATUS
            name = type(error).__name__
            if not transient:
                result["result"] = f"{tool.name} failed ({name}) and will not work on retry."
                break
            after = getattr(error, "retry_after", None)
            if isinstance(after, (int, float)) and not isinstance(after, bool) and after == after and after >= 0:
                if after > max_delay:
                    result["result"] = f"{tool.name} asked us to wait {after:g} seconds: try again in {after:g} s."
                    break
                pause = after
            else:
                cap = backoff.exponential_delay(n, base_delay, max_delay)
                pause = random.uniform(cap / 2, cap)
            if n + 1 == max(1, max_attempts):
                result["result"] = f"{tool.name} failed ({name}) after {n + 1} attempts."
                break
            sleep(pause)
    result["elapsed_ms"] = (time.perf_counter() - began) * 1000
    return result
