# cell: resilient_invoke_answer
# mistake: a doubling delay variable that only advances on backoff sleeps: after a retry_after wait, retry n uses base*2**(n-1)
# expect: retry
# expect-es: reintento
import random
import time

CODES = {408, 429, 500, 502, 503, 504, 529}


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    start = time.perf_counter()
    delay = base_delay
    attempts = 0
    while True:
        attempts += 1
        try:
            result = tool.invoke(args)
            return {"success": True, "result": result, "attempts": attempts,
                    "elapsed_ms": (time.perf_counter() - start) * 1000.0}
        except Exception as exc:
            err = exc
        what = f"{type(err).__name__}: {err}"
        ok = isinstance(err, (ConnectionError, TimeoutError)) or getattr(err, "status_code", None) in CODES
        if not ok:
            text = f"Permanent error ({what}), not retried."
            break
        if attempts >= max_attempts:
            text = f"Gave up after {attempts} attempts ({what})."
            break
        ra = getattr(err, "retry_after", None)
        if isinstance(ra, (int, float)) and not isinstance(ra, bool):
            if ra > max_delay:
                text = f"Rate limited ({what}); try again in {ra:g} s."
                break
            sleep(ra)
            continue
        e = min(max_delay, delay)
        sleep(random.uniform(e / 2, e))
        delay *= 2
    return {"success": False, "result": text, "attempts": attempts, "elapsed_ms": (time.perf_counter() - start) * 1000.0}
