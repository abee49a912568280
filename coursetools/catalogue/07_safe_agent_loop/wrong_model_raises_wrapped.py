# cell: call_model_answer
# mistake: it raises its own RuntimeError instead of the model's exception
# expect: raise the model's own exception
# expect-es: vuelve a lanzar la propia excepción del modelo
def call_model(model, messages: list, max_attempts: int = 2, *, sleep=time.sleep):
    """Call the model once, retrying transient errors; return its response or raise its last error."""
    for attempt in range(1, max_attempts + 1):
        try:
            return model.invoke(messages)
        except Exception as exc:
            transient = (isinstance(exc, (ConnectionError, TimeoutError))
                         or getattr(exc, "status_code", None) in TRANSIENT_STATUS)
            if not transient or attempt == max_attempts:
                raise RuntimeError(f"the model failed: {exc}") from exc
            ceiling = min(30.0, 1.0 * 2 ** (attempt - 1))      # equal jitter
            sleep(random.uniform(ceiling / 2, ceiling))
    raise ValueError("max_attempts must be at least 1")
