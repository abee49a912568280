# cell: call_model_answer
# mistake: it waits with time.sleep, not the sleep it was given
# expect: time.sleep directly
# expect-es: directamente a time.sleep
def call_model(model, messages: list, max_attempts: int = 2, *, sleep=time.sleep):
    """Call the model once, retrying transient errors; return its response or raise its last error."""
    for attempt in range(1, max_attempts + 1):
        try:
            return model.invoke(messages)
        except Exception as exc:
            transient = (isinstance(exc, (ConnectionError, TimeoutError))
                         or getattr(exc, "status_code", None) in TRANSIENT_STATUS)
            if not transient or attempt == max_attempts:
                raise
            ceiling = min(30.0, 1.0 * 2 ** (attempt - 1))      # equal jitter
            time.sleep(random.uniform(ceiling / 2, ceiling) / 1000)
    raise ValueError("max_attempts must be at least 1")
