# cell: call_model_answer
# mistake: it waits after the last failed attempt too
# expect: never after the last attempt
# expect-es: nunca tras el
def call_model(model, messages: list, max_attempts: int = 2, *, sleep=time.sleep):
    """Call the model once, retrying transient errors; return its response or raise its last error."""
    for attempt in range(1, max_attempts + 1):
        try:
            return model.invoke(messages)
        except Exception as exc:
            transient = (isinstance(exc, (ConnectionError, TimeoutError))
                         or getattr(exc, "status_code", None) in TRANSIENT_STATUS)
            ceiling = min(30.0, 1.0 * 2 ** (attempt - 1))      # equal jitter
            if transient:
                sleep(random.uniform(ceiling / 2, ceiling))
            if not transient or attempt == max_attempts:
                raise
    raise ValueError("max_attempts must be at least 1")
