# cell: resilient_invoke_answer
# A correct alternative worded in Spanish: every failure named by its kind in plain words and never by the
# exception's text (lessons 03 and 04): "se agotó el tiempo de espera", "no se pudo conectar", "demasiadas peticiones",
# "estado 404" and "un fallo interno" for an unexpected exception; only a ToolException's own message is passed on.
import random
import time

from langchain_core.tools import ToolException
from toolfaults.policy import TRANSIENT_STATUS


def _kind(err):
    status = getattr(err, "status_code", None)
    if isinstance(err, ToolException):
        return f"respondió: {err}"
    if isinstance(err, TimeoutError):
        return "se agotó el tiempo de espera"
    if isinstance(err, ConnectionError):
        return "no se pudo conectar con el servicio"
    if status == 429:
        return "el servicio pide menos peticiones (límite de peticiones)"
    if isinstance(status, int):
        return f"el servicio respondió con el estado HTTP {status}"
    if type(err).__name__ == "ValidationError":
        return "el schema rechazó los argumentos"
    return "la herramienta tuvo un fallo interno"


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    t0 = time.perf_counter()
    tries = 0
    while True:
        tries += 1
        try:
            out = tool.invoke(args)
            return {"success": True, "result": out, "attempts": tries, "elapsed_ms": (time.perf_counter() - t0) * 1e3}
        except Exception as err:
            problem = err
        end = lambda text: {"success": False, "result": text, "attempts": tries,
                            "elapsed_ms": (time.perf_counter() - t0) * 1e3}
        retryable = isinstance(problem, (ConnectionError, TimeoutError)) or getattr(problem, "status_code", None) in TRANSIENT_STATUS
        if not retryable:
            return end(f"Al llamar a {tool.name}: {_kind(problem)}. No tiene sentido reintentar.")
        wait = getattr(problem, "retry_after", None)
        if isinstance(wait, (int, float)) and not isinstance(wait, bool) and wait >= 0:
            if wait > max_delay:
                return end(f"Al llamar a {tool.name}: {_kind(problem)}. Vuelve a intentarlo dentro de {wait:g} segundos.")
        else:
            wait = None
        if tries >= max_attempts:
            return end(f"Al llamar a {tool.name}: {_kind(problem)}; me rendí tras {tries} intentos.")
        if wait is None:
            cap = min(max_delay, base_delay * 2 ** (tries - 1))
            wait = random.uniform(cap / 2, cap)
        sleep(wait)
