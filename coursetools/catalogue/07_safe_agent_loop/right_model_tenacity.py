# cell: call_model_answer
# A correct alternative: tenacity's Retrying with its sleep= hook, exponential jitter and reraise: full marks.
import tenacity


def call_model(model, messages: list, max_attempts: int = 2, *, sleep=time.sleep):
    """Call the model once, retrying transient errors; return its response or raise its last error."""
    def transient(exc):
        return isinstance(exc, (ConnectionError, TimeoutError)) or getattr(exc, "status_code", None) in TRANSIENT_STATUS

    retrying = tenacity.Retrying(stop=tenacity.stop_after_attempt(max_attempts),
                                 wait=tenacity.wait_exponential_jitter(initial=1, max=20, jitter=1),
                                 retry=tenacity.retry_if_exception(transient), sleep=sleep, reraise=True)
    return retrying(model.invoke, messages)
