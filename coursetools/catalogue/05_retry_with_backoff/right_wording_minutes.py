# cell: resilient_invoke_answer
# A correct alternative worded differently: the error type written as words ("Connection error"), a long
# Retry-After given in minutes when it is a minute or more, "(3 tries)"; a recursive retry.
import random
import re
import time


def _words(exc):
    """ConnectionError -> 'Connection error'."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", type(exc).__name__).capitalize()


def _when(seconds):
    return f"in {seconds / 60:g} minutes" if seconds >= 60 else f"in {seconds:g} s"


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep, _tries: int = 0, _start=None) -> dict:
    """Call the tool; retry transient failures with equal jitter; never raise."""
    start = time.perf_counter() if _start is None else _start
    tries = _tries + 1

    def report(ok, result):
        return {"success": ok, "result": result, "attempts": tries, "elapsed_ms": (time.perf_counter() - start) * 1000}

    try:
        return report(True, tool.invoke(args))
    except Exception as exc:  # noqa: BLE001 - sorted below
        problem = exc
    transient = isinstance(problem, (ConnectionError, TimeoutError)) or \
        getattr(problem, "status_code", None) in (408, 429, 500, 502, 503, 504, 529)
    if not transient:
        return report(False, f"{_words(problem)} from {tool.name}; retrying cannot fix it.")
    if tries >= max_attempts:
        return report(False, f"{_words(problem)} from {tool.name} ({tries} tries). Giving up for now.")
    hold = getattr(problem, "retry_after", None)
    if isinstance(hold, (int, float)) and not isinstance(hold, bool):
        if hold > max_delay:
            return report(False, f"{_words(problem)}: {tool.name} is rate limited; come back {_when(hold)}.")
    else:
        ceiling = min(max_delay, base_delay * 2 ** _tries)
        hold = ceiling / 2 + random.uniform(0, ceiling / 2)
    sleep(hold)
    return resilient_invoke(tool, args, max_attempts, base_delay, max_delay=max_delay, sleep=sleep,
                            _tries=tries, _start=start)
