# cell: resilient_invoke_answer
# mistake: none: recursion instead of a loop, e/2 + random()*e/2 as the draw, different wording
import random
import time


def _should_retry(error):
    if isinstance(error, ConnectionError) or isinstance(error, TimeoutError):
        return True
    return getattr(error, "status_code", 0) in (408, 429, 500, 502, 503, 504, 529)


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    """Invoke a tool, retrying transient errors (recursive version)."""
    began = time.time()

    def attempt(n):  # n = index of this attempt, 0-based
        try:
            value = tool.invoke(args)
            return {"success": True, "result": value, "attempts": n + 1}
        except Exception as error:
            described = "%s: %s" % (type(error).__name__, error)
            if not _should_retry(error):
                return {"success": False, "result": "Not retryable -> " + described, "attempts": n + 1}
            if n + 1 >= max_attempts:
                return {"success": False, "result": "%d attempts, all failed. Last error -> %s" % (n + 1, described),
                        "attempts": n + 1}
            hint = getattr(error, "retry_after", None)
            if hint is not None and hint > max_delay:
                return {"success": False, "attempts": n + 1,
                        "result": "Server busy (%s). Come back in %g seconds." % (described, hint)}
            if hint is None:
                top = min(max_delay, base_delay * (2 ** n))
                hint = top / 2 + random.random() * top / 2
            sleep(hint)
            return attempt(n + 1)

    report = attempt(0)
    report["elapsed_ms"] = max(0.0, (time.time() - began) * 1000.0)
    return report
