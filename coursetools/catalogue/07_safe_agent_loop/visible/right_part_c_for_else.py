# cell: write_with_key_answer
# A correct alternative: the key test through toolfaults.idempotency.takes_idempotency_key, a for loop over
# the attempts, one result-building helper, other wording ("outcome unknown", "was not retried").
import uuid

from toolfaults.idempotency import idempotent_write_tool, takes_idempotency_key


def _result(done, uncertain, attempts, key, message):
    return {"done": done, "uncertain": uncertain, "attempts": attempts, "key": key, "message": message}


def write_with_key(tool, args: dict, max_attempts: int = 3, *, sleep=time.sleep) -> dict:
    """Run a write once, or retry it safely with one idempotency key when the tool takes one."""
    key = uuid.uuid4().hex if takes_idempotency_key(tool) else None
    sent = {**args, "idempotency_key": key} if key else dict(args)
    last = max_attempts if key else 1
    for attempt in range(1, last + 1):
        try:
            return _result(True, False, attempt, key, str(tool.invoke(sent)))
        except ToolException as err:
            return _result(False, False, attempt, key, f"Declined, nothing changed: {err}")
        except ValidationError as err:
            fields = ", ".join(str(e["loc"][0]) for e in err.errors() if e.get("loc"))
            return _result(False, False, attempt, key, f"Invalid arguments ({fields}), nothing changed.")
        except Exception as err:
            transient = isinstance(err, (ConnectionError, TimeoutError)) or \
                getattr(err, "status_code", None) in TRANSIENT_STATUS
            if not transient or attempt == last:
                why = (f"Safe to try again later with key {key}." if key
                       else "It was not retried, to avoid doing it twice.")
                return _result(False, True, attempt, key,
                               f"Outcome unknown: {tool.name} could not be confirmed ({type(err).__name__}). {why}")
            sleep(min(4.0, 0.5 * 2 ** attempt) * random.uniform(0.5, 1.0))
    return _result(False, True, last, key, "Outcome unknown: could not be confirmed.")
