# cell: resilient_invoke_answer
# mistake: elapsed_ms holds the elapsed time in seconds (perf_counter difference, not times 1000)
# expect: must count milliseconds
# expect-es: debe contar milisegundos
TRANSIENT_STATUS_CODES = {408, 429, 500, 502, 503, 504, 529}


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    """Invoke ``tool`` with ``args``, retrying transient errors with capped equal-jitter backoff.

    Returns {"success": bool, "result": output or message, "attempts": int, "elapsed_ms": float}.
    """
    started = time.perf_counter()

    def outcome(success: bool, result, attempts: int) -> dict:
        elapsed_ms = time.perf_counter() - started
        return {"success": success, "result": result, "attempts": attempts, "elapsed_ms": elapsed_ms}

    max_attempts = max(1, int(max_attempts))
    for attempt in range(1, max_attempts + 1):
        try:
            return outcome(True, tool.invoke(args), attempt)
        except Exception as error:  # every failure is classified below; none escapes
            failure = error
        what = f"{type(failure).__name__}: {failure}"
        transient = (isinstance(failure, (ConnectionError, TimeoutError))
                     or getattr(failure, "status_code", None) in TRANSIENT_STATUS_CODES)
        if not transient:
            return outcome(False, f"{tool.name} failed with a permanent error ({what}); retrying will not help.", attempt)
        if attempt == max_attempts:
            break
        retry_after = getattr(failure, "retry_after", None)
        if isinstance(retry_after, (int, float)) and not isinstance(retry_after, bool):
            if retry_after > max_delay:
                return outcome(False, f"{tool.name} is busy ({what}). The service asked to wait {retry_after:g} s, "
                                      f"more than max_delay ({max_delay:g} s): try again in {retry_after:g} seconds.",
                               attempt)
            delay = retry_after
        else:
            ceiling = min(max_delay, base_delay * 2 ** (attempt - 1))
            delay = random.uniform(ceiling / 2, ceiling)
        sleep(delay)
    return outcome(False, f"{tool.name} still failed after {max_attempts} attempts ({what}).", max_attempts)
