# cell: resilient_invoke_answer
# A correct alternative worded in Spanish without accents: the error named by its own text, "N de N
# intentos", "Vuelve a intentarlo dentro de 120 s" for a long Retry-After; a for loop, e - uniform(0, e/2)
# as the draw, time.monotonic. Full marks in both editions.
import random
import time


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    """Llama a la herramienta; reintenta los fallos transitorios con equal jitter; nunca lanza."""
    inicio = time.monotonic()

    def fin(ok, resultado, n):
        return {"success": ok, "result": resultado, "attempts": n, "elapsed_ms": (time.monotonic() - inicio) * 1e3}

    n = 0
    for intento in range(max(1, max_attempts)):
        n = intento + 1
        try:
            return fin(True, tool.invoke(args), n)
        except Exception as exc:  # noqa: BLE001 - se clasifica abajo
            ultimo = exc
        codigo = getattr(ultimo, "status_code", None)
        if not (isinstance(ultimo, (ConnectionError, TimeoutError)) or codigo in (408, 429, 500, 502, 503, 504, 529)):
            return fin(False, f'Fallo permanente de {tool.name}: "{ultimo}". No tiene sentido reintentar.', n)
        if n == max_attempts:
            break
        pedido = getattr(ultimo, "retry_after", None)
        if isinstance(pedido, (int, float)) and not isinstance(pedido, bool):
            if pedido > max_delay:
                return fin(False, f"{tool.name} pidio esperar mas de lo que admite max_delay. "
                                  f"Vuelve a intentarlo dentro de {pedido:g} s.", n)
            sleep(pedido)
        else:
            tope = min(max_delay, base_delay * 2 ** intento)
            sleep(tope - random.uniform(0, tope / 2))
    return fin(False, f'"{ultimo}": fallaron {n} de {n} intentos y {tool.name} sigue sin responder.', n)
