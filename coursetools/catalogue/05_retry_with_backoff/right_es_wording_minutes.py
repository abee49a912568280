# cell: resilient_invoke_answer
# A correct alternative worded in Spanish: the error named in Spanish words ("Error de conexión"), a long
# Retry-After in minutes when it is a minute or more ("Inténtalo de nuevo en 2 minutos"), the attempts in
# words ("tras tres intentos"); a while loop. Full marks in both editions.
import random
import time

TRANSITORIOS = {408, 429, 500, 502, 503, 504, 529}
# Exact classes only: a subclass (ConnectionRefusedError) is named by its own text instead.
NOMBRES = {ConnectionError: "Error de conexión", TimeoutError: "Se agotó el tiempo de espera",
           PermissionError: "Permiso denegado", FileNotFoundError: "Archivo no encontrado"}
PALABRAS = {1: "un", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete", 8: "ocho",
            9: "nueve", 10: "diez"}


def _nombre(error):
    return NOMBRES.get(type(error)) or f'Error inesperado: "{error}"'


def _cuando(segundos):
    return f"en {segundos / 60:g} minutos" if segundos >= 60 else f"en {segundos:g} segundos"


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    """Llama a la herramienta; reintenta los fallos transitorios con equal jitter; nunca lanza."""
    inicio = time.perf_counter()

    def salida(ok, resultado, llamadas):
        return {"success": ok, "result": resultado, "attempts": llamadas,
                "elapsed_ms": (time.perf_counter() - inicio) * 1000}

    llamadas = 0
    while True:
        llamadas += 1
        try:
            return salida(True, tool.invoke(args), llamadas)
        except Exception as exc:  # noqa: BLE001 - se clasifica abajo
            error = exc
        transitorio = isinstance(error, (ConnectionError, TimeoutError)) or \
            getattr(error, "status_code", None) in TRANSITORIOS
        if not transitorio:
            return salida(False, f"{_nombre(error)} en {tool.name}. Esperar no lo arregla, así que no se reintentó.",
                          llamadas)
        if llamadas >= max(1, max_attempts):
            palabra = PALABRAS.get(llamadas, str(llamadas))
            return salida(False, f"{_nombre(error)} en {tool.name} tras {palabra} intento{'s' if llamadas != 1 else ''}. "
                                 "Lo dejo por ahora.", llamadas)
        pedido = getattr(error, "retry_after", None)
        if isinstance(pedido, (int, float)) and not isinstance(pedido, bool):
            if pedido > max_delay:
                return salida(False, f"{tool.name} tiene un límite de peticiones. Inténtalo de nuevo {_cuando(pedido)}.",
                              llamadas)
            espera = pedido
        else:
            e = min(max_delay, base_delay * 2 ** (llamadas - 1))
            espera = random.uniform(e / 2, e)
        sleep(espera)
