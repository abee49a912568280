# cell: resilient_invoke_answer
# mistake: stopping early on a too-long retry_after reports attempts=max_attempts instead of the 1 call made
# expect: attempts must be 1
# expect-es: attempts debe ser 1
import random
import time

CODES = {408, 429, 500, 502, 503, 504, 529}


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
        what = f"{type(err).__name__}: {err}"
        if not (isinstance(err, (ConnectionError, TimeoutError)) or getattr(err, "status_code", None) in CODES):
            return done(False, f"Permanent error, not retried ({what}).", n + 1)
        if n + 1 == max_attempts:
            break
        ra = getattr(err, "retry_after", None)
        if isinstance(ra, (int, float)):
            if ra > max_delay:
                return done(False, f"Rate limited ({what}); try again in {ra:g} seconds.", max_attempts)
            sleep(ra)
        else:
            e = min(max_delay, base_delay * 2 ** n)
            sleep(random.uniform(e / 2, e))
    return done(False, f"Still failing after {max_attempts} attempts ({what}).", max_attempts)
