# cell: resilient_invoke_answer
# A correct alternative worded differently: the error named by its own text (not its type), attempts in
# words, "wait N seconds" for a long Retry-After; a for/else loop.
import random
import time

WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    """Call the tool; retry transient failures with equal jitter; never raise."""
    begin = time.perf_counter()

    def done(ok, result, calls):
        return {"success": ok, "result": result, "attempts": calls, "elapsed_ms": (time.perf_counter() - begin) * 1e3}

    calls = 0
    for n in range(max(1, max_attempts)):
        calls = n + 1
        try:
            return done(True, tool.invoke(args), calls)
        except Exception as exc:  # noqa: BLE001 - sorted below
            last = exc
        passing = isinstance(last, (ConnectionError, TimeoutError)) or \
            getattr(last, "status_code", None) in {408, 429, 500, 502, 503, 504, 529}
        if not passing:
            return done(False, f'"{last}" - this will not go away by itself, so it was not retried.', calls)
        if calls == max_attempts:
            break
        asked = getattr(last, "retry_after", None)
        if isinstance(asked, (int, float)) and not isinstance(asked, bool):
            if asked > max_delay:
                return done(False, f'"{last}": the service is busy. Wait {asked:g} seconds before calling it again.',
                            calls)
            sleep(asked)
        else:
            top = min(max_delay, base_delay * 2 ** n)
            sleep(random.uniform(top / 2, top))
    return done(False, f'"{last}" on every try: {WORDS.get(calls, calls)} attempts, none worked.', calls)
