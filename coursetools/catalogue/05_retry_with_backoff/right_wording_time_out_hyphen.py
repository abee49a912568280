# cell: resilient_invoke_answer
# A correct alternative: plain words, 'the call hit a time-out' for TimeoutError. Full marks in both editions.
import random
import time

CODES = {408, 429, 500, 502, 503, 504, 529}


def transient(err):
    return isinstance(err, (ConnectionError, TimeoutError)) or getattr(err, "status_code", None) in CODES


def describe(err):
    if isinstance(err, TimeoutError):
        return "the call hit a time-out"
    if isinstance(err, ConnectionError):
        return "the connection failed"
    if isinstance(err, PermissionError):
        return "permission denied"
    return f"{type(err).__name__}: {err}"


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    start = time.perf_counter()

    def done(ok, res, n):
        return {"success": ok, "result": res, "attempts": n, "elapsed_ms": (time.perf_counter() - start) * 1000.0}

    for n in range(max_attempts):
        try:
            return done(True, tool.invoke(args), n + 1)
        except Exception as exc:
            err = exc
        what = describe(err)
        if not transient(err):
            return done(False, f"{tool.name}: {what}. Permanent error, not retried.", n + 1)
        if n + 1 == max_attempts:
            break
        ra = getattr(err, "retry_after", None)
        if isinstance(ra, (int, float)) and not isinstance(ra, bool):
            if ra > max_delay:
                return done(False, f"{tool.name} is rate limited ({what}); try again in {ra:g} seconds.", n + 1)
            sleep(ra)
        else:
            e = min(max_delay, base_delay * 2 ** n)
            sleep(random.uniform(e / 2, e))
    return done(False, f"{tool.name} still failing after {max_attempts} attempts ({what}).", max_attempts)
