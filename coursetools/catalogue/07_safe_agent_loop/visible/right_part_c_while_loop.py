# cell: write_with_key_answer
# A correct alternative: a while loop and a helper that sorts errors, the key as str(uuid4()), other wording
# ("Unconfirmed ... may or may not have gone through ... did not send it a second time").
import uuid

from toolfaults.idempotency import idempotent_write_tool


def _kind(err: Exception) -> str:
    if isinstance(err, (ToolException, ValidationError)):
        return "refused"
    if isinstance(err, (ConnectionError, TimeoutError)) or getattr(err, "status_code", None) in TRANSIENT_STATUS:
        return "transient"
    return "unexpected"


def write_with_key(tool, args: dict, max_attempts: int = 3, *, sleep=time.sleep) -> dict:
    """Run a write once, or retry it safely with one idempotency key when the tool takes one."""
    key = str(uuid.uuid4()) if "idempotency_key" in tool.args else None
    payload = dict(args) if key is None else {**args, "idempotency_key": key}
    limit = 1 if key is None else max(1, max_attempts)
    attempts = 0
    while True:
        attempts += 1
        try:
            outcome = tool.invoke(payload)
        except Exception as err:
            kind = _kind(err)
            if kind == "refused":
                return {"done": False, "uncertain": False, "attempts": attempts, "key": key,
                        "message": f"Nothing was written: {tool.name} rejected the request ({err})."}
            if kind == "transient" and attempts < limit:
                sleep(random.uniform(0.25, 0.5) * 2 ** attempts)
                continue
            note = (f"retry later with the same key {key}" if key
                    else "so I did not send it a second time; check before asking again")
            return {"done": False, "uncertain": True, "attempts": attempts, "key": key,
                    "message": f"Unconfirmed: {tool.name} may or may not have gone through, {note}."}
        return {"done": True, "uncertain": False, "attempts": attempts, "key": key, "message": f"{tool.name}: {outcome}"}
