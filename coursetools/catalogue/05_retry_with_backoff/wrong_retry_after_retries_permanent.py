# cell: resilient_invoke_answer
# mistake: honours retry_after before deciding the error is transient: a 403 carrying retry_after is retried
# expect: retry_after says how long to wait, not whether to retry
# expect-es: retry_after dice cuánto esperar, no si hay que reintentar
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
        last = n + 1 == max_attempts
        ra = getattr(err, "retry_after", None)
        if isinstance(ra, (int, float)):  # the service told us when: honour it
            if last:
                break
            if ra > max_delay:
                return done(False, f"Rate limited ({what}); try again in {ra:g} seconds.", n + 1)
            sleep(ra)
            continue
        if not (isinstance(err, (ConnectionError, TimeoutError)) or getattr(err, "status_code", None) in CODES):
            return done(False, f"Permanent error, not retried ({what}).", n + 1)
        if last:
            break
        e = min(max_delay, base_delay * 2 ** n)
        sleep(random.uniform(e / 2, e))
    return done(False, f"Still failing after {max_attempts} attempts ({what}).", max_attempts)
