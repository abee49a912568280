# cell: resilient_invoke_answer
# mistake: trusts only the course's APIError class, not any exception's status_code attribute
# expect: UpstreamError
# expect-es: UpstreamError
import random
import time

from toolfaults.errors import APIError

TRANSIENT_STATUS_CODES = {408, 429, 500, 502, 503, 504, 529}


def is_transient(error: Exception) -> bool:
    return isinstance(error, (ConnectionError, TimeoutError)) or (isinstance(error, APIError) and error.status_code in TRANSIENT_STATUS_CODES)


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    """Invoke ``tool`` with ``args``, retrying transient errors with capped equal-jitter backoff."""
    start = time.perf_counter()

    def done(success, result, attempts):
        return {"success": success, "result": result, "attempts": attempts,
                "elapsed_ms": (time.perf_counter() - start) * 1000}

    for attempt in range(max_attempts):
        try:
            return done(True, tool.invoke(args), attempt + 1)
        except Exception as error:
            last = error
            message = f"{type(error).__name__}: {error}"
            if not is_transient(error):
                return done(False, f"Permanent error, not retried: {message}", attempt + 1)
        if attempt == max_attempts - 1:
            break
        retry_after = getattr(last, "retry_after", None)
        if isinstance(retry_after, (int, float)):
            if retry_after > max_delay:
                return done(False, f"Rate limited ({message}); try again in {retry_after:g} seconds.", attempt + 1)
            delay = retry_after
        else:
            e = min(max_delay, base_delay * 2 ** attempt)
            delay = random.uniform(e / 2, e)
        sleep(delay)
    return done(False, f"Gave up after {max_attempts} attempts: {message}", max_attempts)
