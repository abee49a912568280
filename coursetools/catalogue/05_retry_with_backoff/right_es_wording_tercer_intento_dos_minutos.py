# cell: resilient_invoke_answer
# A correct alternative worded in Spanish: "no se pudo conectar con el servicio" for ConnectionError, the attempts
# as an ordinal ("falló por tercera vez, en el tercer intento"), a long Retry-After as number words ("inténtalo
# de nuevo en dos minutos", "en cuarenta y cinco segundos"). Full marks in both editions.
import random
import time

CODES = {408, 429, 500, 502, 503, 504, 529}
UNIDADES = ["cero", "un", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce",
            "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte"]
DECENAS = {3: "treinta", 4: "cuarenta", 5: "cincuenta", 6: "sesenta", 7: "setenta", 8: "ochenta", 9: "noventa"}
ORDINAL = {1: ("primer", "primera"), 2: ("segundo", "segunda"), 3: ("tercer", "tercera"), 4: ("cuarto", "cuarta"),
           5: ("quinto", "quinta")}


def en_palabras(n):
    if n <= 20:
        return UNIDADES[n]
    if 30 <= n < 100:
        return DECENAS[n // 10] + ("" if n % 10 == 0 else " y " + UNIDADES[n % 10])
    return str(n)


def cuanto(segundos):
    entero = int(segundos)
    if entero != segundos:
        return f"{segundos:g} segundos"
    if entero % 60 == 0:
        minutos = entero // 60
        return f"{en_palabras(minutos)} minuto{'s' if minutos != 1 else ''}"
    return f"{en_palabras(entero)} segundo{'s' if entero != 1 else ''}"


def describe(err):
    if type(err) is ConnectionError:
        return "no se pudo conectar con el servicio"
    return f"{type(err).__name__}: {err}"


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    start = time.perf_counter()

    def done(ok, res, n):
        return {"success": ok, "result": res, "attempts": n, "elapsed_ms": (time.perf_counter() - start) * 1000.0}

    for n in range(max_attempts):
        try:
            return done(True, tool.invoke(args), n + 1)
        except Exception as exc:
            err = exc
        transient = isinstance(err, (ConnectionError, TimeoutError)) or getattr(err, "status_code", None) in CODES
        if not transient:
            return done(False, f"{tool.name}: {describe(err)}. Error permanente: no se reintenta.", n + 1)
        if n + 1 == max_attempts:
            break
        ra = getattr(err, "retry_after", None)
        if isinstance(ra, (int, float)) and not isinstance(ra, bool):
            if ra > max_delay:
                return done(False, f"{tool.name} tiene un límite de peticiones; inténtalo de nuevo en {cuanto(ra)}.", n + 1)
            sleep(ra)
        else:
            e = min(max_delay, base_delay * 2 ** n)
            sleep(random.uniform(e / 2, e))
    masculino, femenino = ORDINAL.get(max_attempts, (f"{max_attempts}.º", f"{max_attempts}.ª"))
    return done(False, f"{tool.name}: {describe(err)}; falló por {femenino} vez, en el {masculino} intento.", max_attempts)
