# cell: write_with_key_answer
# mistake: derives the key from the arguments: two real charges of the same amount share one key and merge
# expect: Both operations used the key
# expect-es: Las dos operaciones usaron la clave
import uuid

from toolfaults.idempotency import idempotent_write_tool


def write_with_key(tool, args: dict, max_attempts: int = 3, *, sleep=time.sleep) -> dict:
    """Run a write once, or retry it safely with one idempotency key when the tool takes one."""
    keyed = "idempotency_key" in tool.args
    key = "charge-" + json.dumps(args, sort_keys=True) if keyed else None
    call_args = {**args, "idempotency_key": key} if keyed else dict(args)
    tries = max_attempts if keyed else 1
    for attempt in range(1, tries + 1):
        try:
            result = tool.invoke(call_args)
        except (ToolException, ValidationError) as err:
            return {"done": False, "uncertain": False, "attempts": attempt, "key": key,
                    "message": f"{tool.name} refused the request, so nothing was written: {err}"}
        except Exception as err:
            transient = (isinstance(err, (ConnectionError, TimeoutError))
                         or getattr(err, "status_code", None) in TRANSIENT_STATUS)
            if transient and attempt < tries:
                sleep(min(8.0, 0.5 * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0))
                continue
            if keyed:
                message = (f"Could not confirm that {tool.name} completed ({type(err).__name__} after {attempt} "
                           f"attempt(s)). Retrying later with idempotency key {key} is safe: it cannot happen twice.")
            else:
                message = (f"Could not confirm that {tool.name} completed ({type(err).__name__}). To avoid doing it "
                           "twice, it was not repeated: ask the user to check before trying again.")
            return {"done": False, "uncertain": True, "attempts": attempt, "key": key, "message": message}
        return {"done": True, "uncertain": False, "attempts": attempt, "key": key, "message": str(result)}
