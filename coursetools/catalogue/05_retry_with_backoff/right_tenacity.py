# cell: resilient_invoke_answer
# mistake: none: built on tenacity's Retrying with custom retry, wait and stop rules
import random
import time

from tenacity import RetryError, Retrying, retry_if_exception

TRANSIENT = {408, 429, 500, 502, 503, 504, 529}


def transient(exc: BaseException) -> bool:
    return isinstance(exc, (ConnectionError, TimeoutError)) or getattr(exc, "status_code", None) in TRANSIENT


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    """tenacity does the looping; the rules come from the contract."""
    started = time.perf_counter()

    def asked_wait(state):
        wait = getattr(state.outcome.exception(), "retry_after", None)
        return wait if isinstance(wait, (int, float)) else None

    def stop(state):
        wait = asked_wait(state)
        return state.attempt_number >= max_attempts or (wait is not None and wait > max_delay)

    def wait(state):
        asked = asked_wait(state)
        if asked is not None:
            return asked
        e = min(max_delay, base_delay * 2 ** (state.attempt_number - 1))
        return random.uniform(e / 2, e)

    retrying = Retrying(retry=retry_if_exception(transient), stop=stop, wait=wait, sleep=sleep, reraise=False)
    calls = 0

    def call():
        nonlocal calls
        calls += 1
        return tool.invoke(args)

    result = {"success": True, "result": None}
    try:
        result["result"] = retrying(call)
    except RetryError as gave_up:
        error = gave_up.last_attempt.exception()
        asked = getattr(error, "retry_after", None)
        if isinstance(asked, (int, float)) and asked > max_delay and calls < max_attempts:
            text = f"{type(error).__name__}: {error}. Try again in {asked:g} s."
        else:
            text = f"{type(error).__name__}: {error} (after {calls} attempts)."
        result = {"success": False, "result": text}
    except Exception as error:  # not transient: tenacity re-raises it at once
        result = {"success": False, "result": f"{type(error).__name__}: {error} (permanent, not retried)."}
    result.update(attempts=calls, elapsed_ms=(time.perf_counter() - started) * 1000)
    return result
