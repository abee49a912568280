# cell: call_model_answer
# A correct alternative: a while loop counting failures, full jitter with a floor: full marks.
def call_model(model, messages: list, max_attempts: int = 2, *, sleep=time.sleep):
    """Call the model once, retrying transient errors; return its response or raise its last error."""
    failed = 0
    while True:
        try:
            return model.invoke(list(messages))
        except (ConnectionError, TimeoutError):
            failed += 1
            if failed >= max_attempts:
                raise
        except Exception as exc:
            if getattr(exc, "status_code", None) not in TRANSIENT_STATUS:
                raise
            failed += 1
            if failed >= max_attempts:
                raise
        sleep(0.1 + random.random() * min(8.0, 0.5 * 2 ** failed))
