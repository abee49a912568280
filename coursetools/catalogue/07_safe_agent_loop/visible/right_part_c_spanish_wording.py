# cell: write_with_key_answer
# A correct alternative worded in Spanish ("sigue sin confirmar", "No sé si ... llegó a hacerse", "no lo he vuelto
# a lanzar"): done in both editions.
import uuid

from toolfaults.idempotency import idempotent_write_tool


def write_with_key(tool, args: dict, max_attempts: int = 3, *, sleep=time.sleep) -> dict:
    """Ejecuta una escritura una vez, o reinténtala sin riesgo con una sola clave de idempotencia si la herramienta la acepta."""
    keyed = "idempotency_key" in tool.args
    key = uuid.uuid4().hex if keyed else None
    call_args = {**args, "idempotency_key": key} if keyed else dict(args)
    tries = max_attempts if keyed else 1
    for attempt in range(1, tries + 1):
        try:
            result = tool.invoke(call_args)
        except (ToolException, ValidationError) as err:
            return {"done": False, "uncertain": False, "attempts": attempt, "key": key,
                    "message": f"No se ha escrito nada: {tool.name} dijo que no ({err})."}
        except Exception as err:
            transient = (isinstance(err, (ConnectionError, TimeoutError))
                         or getattr(err, "status_code", None) in TRANSIENT_STATUS)
            if transient and attempt < tries:
                sleep(min(8.0, 0.5 * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0))
                continue
            if keyed:
                message = (f"{tool.name} sigue sin confirmar tras {attempt} intento(s) ({type(err).__name__}). "
                           f"Con la clave {key} se puede volver a pedir sin miedo a un duplicado.")
            else:
                message = (f"No sé si {tool.name} llegó a hacerse ({type(err).__name__}) y no lo he vuelto a lanzar: "
                           "sin clave, otro intento podría duplicarlo. Que el usuario lo revise primero.")
            return {"done": False, "uncertain": True, "attempts": attempt, "key": key, "message": message}
        return {"done": True, "uncertain": False, "attempts": attempt, "key": key, "message": str(result)}
