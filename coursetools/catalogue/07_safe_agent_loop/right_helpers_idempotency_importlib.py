# cell: write_with_key_answer
# mistake: none: the idempotency helper and the policy loaded with importlib.import_module, the transient test taken from toolfaults.policy
import importlib
import uuid

idempotency = importlib.import_module("toolfaults.idempotency")
policy = importlib.import_module("toolfaults.policy")


def write_with_key(tool, args: dict, max_attempts: int = 3, *, sleep=time.sleep) -> dict:
    """A write run once, or retried with one idempotency key when the tool takes one."""
    key = uuid.uuid4().hex if idempotency.KEY_FIELD in tool.args else None
    payload = dict(args, **({idempotency.KEY_FIELD: key} if key else {}))
    limit = max_attempts if key else 1
    attempt = 0
    while True:
        attempt += 1
        try:
            result = tool.invoke(payload)
        except (ValidationError, ToolException) as err:
            what = "its arguments were rejected" if isinstance(err, ValidationError) else "it was refused"
            return {"done": False, "uncertain": False, "attempts": attempt, "key": key,
                    "message": f"{tool.name}: {what}, so nothing was written."}
        except Exception as err:  # noqa: BLE001
            if policy.is_transient(err) and attempt < limit:
                sleep(random.uniform(0.25, 0.5) * 2 ** attempt)
                continue
            retry = (f"Retrying later with idempotency key {key} is safe." if key
                     else "It was not repeated: ask the user to check before trying again.")
            return {"done": False, "uncertain": True, "attempts": attempt, "key": key,
                    "message": f"Could not confirm that {tool.name} completed. {retry}"}
        return {"done": True, "uncertain": False, "attempts": attempt, "key": key, "message": str(result)}
