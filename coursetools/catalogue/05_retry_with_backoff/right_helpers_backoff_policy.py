# cell: resilient_invoke_answer
# mistake: none: the course's helpers imported first here: equal jitter from toolfaults.backoff, the transient test from toolfaults.policy, the clock module
import math

import toolfaults.clock
from toolfaults.backoff import equal_jitter
from toolfaults.policy import is_transient


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    """Call the tool, retrying only transient failures, with capped equal-jitter backoff."""
    start = time.monotonic()
    attempts = 0
    while True:
        attempts += 1
        try:
            output = tool.invoke(args)
        except Exception as error:  # noqa: BLE001 - classified below
            failure = error
        else:
            return {"success": True, "result": output, "attempts": attempts,
                    "elapsed_ms": (time.monotonic() - start) * 1000}

        def failed(message: str) -> dict:
            return {"success": False, "result": message, "attempts": attempts,
                    "elapsed_ms": (time.monotonic() - start) * 1000}

        kind = type(failure).__name__
        if not is_transient(failure):
            return failed(f"{tool.name}: {kind}, a permanent error; retrying will not help.")
        wait = getattr(failure, "retry_after", None)
        usable = isinstance(wait, (int, float)) and not isinstance(wait, bool) and math.isfinite(wait) and wait >= 0
        if usable and wait > max_delay:
            return failed(f"{tool.name} is rate limited ({kind}): try again in {wait:g} seconds.")
        if attempts >= max_attempts:
            return failed(f"{tool.name} still failed ({kind}) after {attempts} attempts.")
        sleep(wait if usable else equal_jitter(attempts - 1, base_delay, max_delay))
