"""toolfaults.grading_text in Spanish: the Spanish editions' tests judge messages with the same matchers.

A Spanish-speaking learner writes "inténtalo de nuevo en 2 minutos" or, on a keyboard
without accents, "intentalo de nuevo en 2 minutos"; both must pass where the English
"try again in 2 minutes" passes, and vague or wrong Spanish messages must fail where
their English counterparts fail.
"""

from __future__ import annotations

import pytest

from toolfaults import grading_text as gt


def check(matcher, accepted, rejected, *args):
    wrongly_rejected = [m for m in accepted if not matcher(m, *args)]
    wrongly_accepted = [m for m in rejected if matcher(m, *args)]
    assert not wrongly_rejected, f"{matcher.__name__} rejects: {wrongly_rejected}"
    assert not wrongly_accepted, f"{matcher.__name__} accepts: {wrongly_accepted}"


def without_accents(messages):
    table = str.maketrans("áéíóúüñÁÉÍÓÚÜÑ", "aeiouunAEIOUUN")
    return [m.translate(table) for m in messages]


@pytest.mark.parametrize(("message", "seconds"), [
    ("Inténtalo de nuevo en 2 minutos.", 120), ("intentalo de nuevo en 2 minutos", 120),
    ("Reintenta en 120 segundos.", 120), ("espera 45 s", 45), ("Espera 45 segundos antes de volver a llamar.", 45),
    ("Límite de peticiones: vuelve a intentarlo dentro de 2 min.", 120), ("Retry-After: 120000 milisegundos", 120),
    ("reintenta en 0,75 minutos", 45), ("Espera 1.200 segundos", 1200), ("espera 2,5 s", 2.5),
    ("El servicio pidió esperar 45 s (más que max_delay 2,5 s): inténtalo en 45 segundos.", 45),
])
def test_when_to_retry_accepts_spanish(message, seconds):
    assert gt.says_when_to_retry(message, seconds)


@pytest.mark.parametrize(("message", "seconds"), [
    ("Inténtalo más tarde.", 120), ("intentalo mas tarde", 120), ("Demasiadas peticiones (max_delay es 30 s).", 120),
    ("espera 1200 s", 120), ("reintenta en 2 segundos", 120), ("espera 12 s", 120), ("vuelve a intentarlo luego", 45),
])
def test_when_to_retry_rejects_vague_or_wrong_spanish(message, seconds):
    assert not gt.says_when_to_retry(message, seconds)


def test_all_failed_spanish():
    accepted = [
        "Fallaron las 3 fuentes: primary_api (ConnectionError), mirror_api, local_cache.",
        "Todas las fuentes fallaron.", "fallaron todas las fuentes", "Ninguna de las fuentes respondió.",
        "Ninguna fuente pudo responder.", "No se pudo obtener respuesta de ninguna fuente (primary_api, mirror_api).",
        "Sin respuesta: primary_api, mirror_api y local_cache están caídas.",
        "Cada una de primary_api, mirror_api y local_cache dio error.",
        "Probé primary_api, mirror_api, local_cache: todas fallaron.",
        "Ningún proveedor respondió.",
    ]
    check(gt.says_all_failed, accepted + without_accents(accepted), [
        "Respuesta de backup_api. Antes fallaron: primary_api, mirror_api.",
        "primary_api, mirror_api, local_cache", "Fuentes probadas: primary_api, mirror_api, local_cache.",
        "Respuesta de mirror_api; falló primary_api.",
    ])


def test_may_be_stale_spanish():
    accepted = [
        "local_cache es una caché: esta respuesta puede estar desactualizada.", "Esto puede estar obsoleto.",
        "Datos de local_cache: puede que no estén al día.", "Respuesta servida desde la caché.",
        "Respuesta en caché; compruébala antes de fiarte.", "Puede que la respuesta no sea actual.",
        "Este resultado podría haber cambiado desde que se guardó.", "Copia antigua de local_cache.",
    ]
    check(gt.says_may_be_stale, accepted + without_accents(accepted), [
        "Respuesta de primary.", "Respuesta de live_api. Antes falló: cache (ConnectionError).",
        "Respuesta de live_api; la caché falló antes.",
    ])


def test_names_error_and_number_spanish():
    error = ConnectionError("search API unreachable")
    check(gt.names_error, ["ConnectionError: la API no responde", "error de conexión tras 3 intentos",
                           "Error de conexion tras 3 intentos", "search API unreachable, 3 intentos"],
          ["web_search falló tras 3 intentos.", "un problema de red"], error)
    check(gt.names_error, ["Se agotó el tiempo de espera.", "TimeoutError tras 3 intentos"], ["la herramienta falló"],
          TimeoutError("read timed out"))
    check(gt.names_error, ["la API no está disponible"], ["la herramienta falló"], ConnectionError("la API no está disponible"))
    check(gt.names_error, ["la API no esta disponible"], ["la herramienta falló"], ConnectionError("la API no está disponible"))
    check(gt.says_number, ["tras 3 intentos", "lo intenté tres veces", "Tres intentos fallaron", "(3/3)"],
          ["tras 13 intentos", "tras 2 intentos", "3,5 s", "sin intentos"], 3)


def test_says_one_in_spanish_is_not_any_article():
    check(gt.says_number, ["Lo intenté una vez.", "Tras un intento, me rindo.", "Falló la única llamada (1 de 1)."],
          ["Un error de conexión.", "Una fuente falló tras 2 intentos."], 1)


def test_internal_and_not_the_arguments_spanish():
    check(gt.says_internal_failure, [
        "web_search falló internamente (RuntimeError).", "Error interno en la herramienta.", "La herramienta se colgó.",
        "Algo falló dentro de la herramienta.", "Un bug en web_search la detuvo.", "El fallo está del lado de la herramienta.",
        "Error interno", "Error del servidor.",
    ], ["Argumentos no válidos en la llamada.", "web_search falló: RuntimeError", "Herramienta desconocida."])
    accepted = [
        "No es un problema de los argumentos.", "Tus argumentos estaban bien.", "La entrada es válida; la herramienta se rompió.",
        "No tiene nada que ver con los parámetros que enviaste.", "No reintentes con otros argumentos.",
        "Cambiar los argumentos no ayudará.", "Los argumentos son correctos.",
    ]
    check(gt.says_not_the_arguments, accepted + without_accents(accepted), [
        "Argumentos no válidos para web_search: corrígelos y vuelve a llamarla.", "web_search falló (RuntimeError).",
        "Los argumentos no son válidos.", "Los argumentos son incorrectos.", "Los argumentos no son correctos.",
    ])


def test_no_result_and_do_not_repeat_spanish():
    check(gt.says_no_result, ["(sin resultado)", "La herramienta no devolvió nada.", "Resultado vacío.", "Sin datos.",
                              "La herramienta se ejecutó pero no devolvió ningún resultado.", "[sin salida]",
                              "No hay registro en esa fecha.", "no hay registros"],
          ["None", "null", "''", "Hecho.", "Ninguno"])
    accepted = ["No repitas esta llamada.", "No la vuelvas a llamar.", "Deja de llamar a get_weather.",
                "Bloqueada: esta misma llamada ya falló dos veces.", "No reintentes: falló dos veces.",
                "No la llames otra vez con los mismos argumentos."]
    check(gt.says_do_not_repeat, accepted + without_accents(accepted),
          ["Ciudad desconocida 'Atlantis'. Ciudades conocidas: Madrid, Tokio.", "get_weather falló."])


def test_uncertain_write_spanish():
    accepted = [
        "No se pudo confirmar la acción.", "send_email no está confirmado.", "No sé si llegó a enviarse.",
        "No puedo saber si el correo salió.", "Puede que se haya enviado o no.", "No pudimos verificar el envío.",
        "Su resultado es incierto.", "No estoy seguro de que se enviara.",
    ]
    check(gt.says_not_confirmed, accepted + without_accents(accepted),
          ["El correo se envió.", "send_email falló: buzón lleno."])
    accepted = [
        "No se repitió.", "No lo reintenté.", "No lo volví a enviar.", "No se reenvió, para evitar un duplicado.",
        "No se intentó una segunda vez.", "No lo haré dos veces.", "No lo envié de nuevo.",
    ]
    check(gt.says_not_repeated, accepted + without_accents(accepted), ["El correo se envió.", "send_email agotó el tiempo."])


def test_limit_reached_spanish():
    accepted = [
        "Detenido: se alcanzó el límite de iteraciones (5).", "Llegué a max_iterations sin respuesta.",
        "Demasiados pasos.", "Se agotaron las iteraciones.", "Me rendí tras 2 iteraciones.",
        "Se alcanzó el número máximo de iteraciones.",
    ]
    check(gt.says_limit_reached, accepted + without_accents(accepted), ["7 × 8 + 3 × 4 = 68", "Sin respuesta.", "La respuesta es 68."])


def test_allowed_scales_and_range_spanish():
    check(gt.says_allowed_scales, ["Usa 'C' o 'F'.", "from_scale debe ser C o F", "La escala debe ser celsius o fahrenheit.",
                                   "se esperaba una de ['C', 'F']", "usa c o f (mayúsculas o minúsculas)"],
          ["Escala desconocida 'K'.", "from_scale 'CF' desconocida.", "Escala no válida: Kelvin", "from_scale es incorrecta"])
    check(gt.names_range, ["da una temperatura de -100 a 1000", "entre −100 y 1.000", "rango [-100, 1000]",
                           "de menos 100 a 1 000", "-100,0 ≤ valor ≤ 1000,0",
                           "el mínimo es -100 y el máximo, 1.000.", "entre -100,0 y 1000,0, ambos incluidos"],
          ["fuera de rango", "de 100 a 1000", "de -100 a 100", "-1001000"], -100, 1000)


def test_names_ignores_accents():
    assert gt.names("Falta el campo 'número'.", "numero") and gt.names("Falta el campo 'numero'.", "número")
    assert not gt.names("Falta un campo.", "numero")


# Messages written the way the Spanish catalogue's right answers and Spanish-speaking learners write them,
# and nearby messages that do not say the thing.
CASES = {
 "says_all_failed": ([
  "Todas las fuentes fallaron (a, b); no hay respuesta que dar.", "Ninguna fuente respondió (a, b, c). No te inventes la respuesta: díselo al usuario.",
  "No hubo respuesta de ninguna fuente.", "Fallaron todas: primary, mirror.", "Ninguna de las fuentes funcionó.",
  "No se obtuvo respuesta: fallaron primary_api, mirror_api y local_cache.", "Todas han fallado.", "Las tres fuentes fallaron.",
  "No pude obtener respuesta de ninguna fuente.", "Imposible responder: todas las fuentes dieron error.",
  "Se probaron primary, mirror y cache, y ninguna respondió.", "Ninguna respondió: primary, mirror.",
 ], ["Respondió mirror_api. Antes fallaron: primary_api.", "La respuesta viene de cache; antes fallaron primary, mirror; es un dato de la cache, quiza antiguo.",
     "Respuesta de backup. Fallaron antes primary y mirror.", "Respondió primary."]),
 "says_may_be_stale": ([
  "La respuesta viene de cache; antes fallo primary; es un dato de la cache, quiza antiguo.", "Ojo: es una copia guardada y puede estar desactualizada.",
  "Dato en caché: puede no estar actualizado.", "Viene de la caché y podría ser antiguo.", "Puede que ya no sea válido: es de la caché.",
  "Respuesta cacheada.", "Es una copia antigua.", "Cuidado: los datos pueden estar obsoletos.", "Quizá no esté al día.",
 ], ["Respondió primary_api.", "Respondió mirror_api. Antes fallaron: cache.", "Respuesta de live_api; antes falló la caché.",
     "La respuesta viene de mirror_api; antes fallaron primary_api, local_cache."]),
 "says_limit_reached": ([
  "Me detuve tras 5 iteraciones sin respuesta.", "Se alcanzó el máximo de iteraciones.", "He llegado al límite de 5 pasos.",
  "Demasiadas iteraciones: paro aquí.", "Sin respuesta tras 3 iteraciones.", "Límite de iteraciones alcanzado.",
 ], ["La respuesta es 68.", "Sin respuesta.", "7 × 8 + 3 × 4 = 68"]),
 "says_internal_failure": ([
  "Fallo interno de la herramienta.", "La herramienta falló por dentro.", "La herramienta se ha caído.", "Error interno (RuntimeError).",
  "El fallo es de la propia herramienta.",
 ], ["Argumentos no válidos.", "Herramienta desconocida: google_search."]),
 "says_not_the_arguments": ([
  "Fallo interno; no es un problema de tus argumentos.", "No es culpa de los argumentos.", "Los argumentos no tienen la culpa.",
  "No reintentes con otros argumentos: no servirá de nada.", "El problema no está en los argumentos.", "No cambies los argumentos: no ayudará.",
  "Tus argumentos son correctos.", "Los parámetros están bien.",
 ], ["Argumentos no válidos: corrígelos.", "Los argumentos no son válidos.", "Faltan argumentos.", "Revisa los argumentos."]),
 "says_no_result": ([
  "(sin resultado)", "La herramienta no devolvió resultado.", "No hay resultados.", "Respuesta vacía.", "La herramienta no devolvió ningún dato.",
  "Sin resultados.", "La herramienta no produjo salida.",
 ], ["None", "Hecho.", "Ninguno", "null"]),
 "says_do_not_repeat": ([
  "No vuelvas a llamarla con los mismos argumentos.", "No repitas la llamada.", "Bloqueada: ya falló dos veces con estos argumentos.",
  "No la intentes de nuevo.", "Esta llamada ya falló dos veces; no la repitas.", "Deja de llamar a get_weather con 'Atlántida'.",
 ], ["Ciudad desconocida 'Atlántida'.", "get_weather falló."]),
 "says_not_confirmed": ([
  "No se pudo confirmar si el correo se envió.", "No sé si el correo llegó a salir.", "El envío no está confirmado.", "Es posible que se haya enviado.",
  "Quizá se envió, quizá no.", "No hay confirmación del envío.", "Puede que el correo se haya enviado.",
 ], ["El correo se envió.", "send_email falló: buzón lleno."]),
 "says_not_repeated": ([
  "No lo he reintentado.", "No lo volví a enviar para no duplicarlo.", "No se repitió.", "No lo intenté otra vez.", "No lo reenvié.",
 ], ["El correo se envió.", "send_email agotó el tiempo."]),
}


# Phrasings an audit found rejected (right answers that lost points), and near misses that must stay rejected.
MORE_CASES = {
 "says_all_failed": ([
  "Se probaron todas las fuentes sin éxito: primary_api, mirror_api, local_cache.", "Todas las fuentes lanzaron excepciones: a, b.",
  "Ninguna fuente tuvo éxito: a, b.", "Nadie respondió: a, b.", "No funcionó ninguna: a, b.",
 ], ["Respuesta de primary_api. Fuentes fallidas: ninguna.", "Respuesta de backup_api; antes primary_api lanzó una excepción."]),
 "says_may_be_stale": ([
  "Respuesta de local_cache: puede que la respuesta no sea la más reciente.", "Puede que no refleje los cambios más recientes.",
  "Viene de la caché.", "Es una copia de la caché.", "Quizá no sea lo más actual.",
 ], ["Respuesta de cache.", "Respuesta de live_api, tras pasar de la caché (falló).", "Respuesta de live_api; antes falló la caché."]),
 "says_internal_failure": ([
  "web_search tuvo un error inesperado.", "La herramienta falló por su parte.", "Fallo de la propia herramienta.",
 ], ["web_search falló (RuntimeError).", "Argumentos no válidos."]),
 "says_not_the_arguments": ([
  "Tus argumentos no tienen nada de malo: no pruebes otros valores.", "No pruebes otros valores.", "No cambies los argumentos.",
  "Los argumentos no tienen ningún problema.", "Cambiar los parámetros no lo arreglará.",
 ], ["Argumentos no válidos: prueba otros valores.", "Los argumentos no son válidos.", "Revisa los argumentos."]),
 "says_not_confirmed": ([
  "send_email no respondió a tiempo: quizá se envió.", "Quizá se mandó.", "El resultado es desconocido.", "Tal vez llegó.",
 ], ["El correo se envió.", "send_email falló: buzón lleno."]),
 "says_not_repeated": ([
  "No hice más intentos.", "No se hicieron más intentos.", "Solo lo intenté una vez.", "No lo reenvié.",
  "Quedó sin confirmar y no la mandé otra vez.", "No lo he vuelto a intentar para no duplicarlo.",
  "No sé si llegó a hacerse y no lo he vuelto a lanzar: sin clave, otro intento podría duplicarlo.", "No lo he vuelto a enviar.",
 ], ["Lo reintenté dos veces.", "Lo envié de nuevo.", "send_email agotó el tiempo."]),
 "says_do_not_repeat": ([
  "No insistas con esta llamada.", "No la llames así.", "Deja de insistir.", "Basta: no la repitas.",
 ], ["Vuelve a llamarla con otra ciudad.", "No existe esa ciudad, vuelve a intentarlo.", "Ciudad desconocida: inténtalo de nuevo."]),
 "says_no_result": (["(sin valor de retorno)", "No devolvió ningún valor."], ["Ninguno", "Hecho."]),
}


@pytest.mark.parametrize("matcher", sorted(MORE_CASES))
def test_spanish_phrasings_an_audit_found(matcher):
    accepted, rejected = MORE_CASES[matcher]
    check(getattr(gt, matcher), accepted + without_accents(accepted), rejected + without_accents(rejected))


@pytest.mark.parametrize("matcher", sorted(CASES))
def test_spanish_phrasings_learners_write(matcher):
    accepted, rejected = CASES[matcher]
    check(getattr(gt, matcher), accepted + without_accents(accepted), rejected + without_accents(rejected))


def test_safe_agent_loop_spanish_wordings_a_red_team_found():
    """Right answers of exercise 07 in Spanish worded otherwise (they must pass), and near misses that say the opposite."""
    cases = {
        gt.says_internal_failure: (
            ["web_search falló por sí misma (RuntimeError).", "Fue un error del sistema.", "Falló en el servidor.",
             "Un problema propio de la herramienta."],
            ["web_search falló (RuntimeError).", "Argumentos no válidos.", "El servidor rechazó los argumentos."]),
        gt.says_not_the_arguments: (
            ["Los argumentos no son el problema.", "El problema no son los argumentos.", "La causa no está en los argumentos.",
             "No fueron tus argumentos."],
            ["El problema son los argumentos.", "No son los argumentos correctos.", "No son los argumentos que espera.",
             "Los argumentos no son válidos."]),
        gt.says_not_repeated: (["No lo repetí.", "Solo hubo un intento.", "No hice un segundo intento."],
                               ["Lo repetí.", "Lo reintenté dos veces."]),
        gt.says_not_confirmed: (["No consta que send_email se completara.", "Nadie sabe si salió el correo."],
                                ["Consta que se envió.", "El correo se envió."]),
        gt.says_do_not_repeat: (["Deja de pedirla y prueba otra cosa.", "Ya falló dos veces con estos valores; prueba otra cosa."],
                                ["Ciudad desconocida: prueba otra cosa.", "Vuelve a pedirla."]),
        gt.says_no_result: (["(en blanco)", "(nulo)"], ["nulo", "Ninguno", "Hecho."]),
    }
    for matcher, (accepted, rejected) in cases.items():
        check(matcher, accepted + without_accents(accepted), rejected + without_accents(rejected))


def test_names_error_and_number_other_words_spanish_05():
    check(gt.names_error, ["web_search: no se pudo conectar con el servicio; 3 intentos sin éxito.",
                           "Se perdió la conexión.", "Conexión interrumpida.", "No fue posible conectar."],
          ["web_search falló tras 3 intentos.", "un problema de red"], ConnectionError("search API unreachable"))
    check(gt.names_error, ["Time-out tras 4 intentos."], ["la herramienta falló"], TimeoutError("read timed out"))
    check(gt.names_error, ["La herramienta no está autorizada.", "Acceso denegado."], ["la herramienta falló"],
          PermissionError("/etc/shadow"))
    check(gt.says_number, ["Falló también al tercer intento.", "Falló por tercera vez."],
          ["Falló al primer intento.", "la tercera fuente", "espera 3,5 s"], 3)
    check(gt.says_number, ["Falló el segundo intento."], ["Espera 1 segundo."], 2)


@pytest.mark.parametrize(("message", "seconds"), [
    ("Inténtalo de nuevo en dos minutos.", 120), ("espera cuarenta y cinco segundos", 45),
    ("reintenta en ciento veinte segundos", 120), ("vuelve a intentarlo en una hora", 3600),
    ("inténtalo en 0:02:00", 120),
])
def test_when_to_retry_accepts_words_spanish(message, seconds):
    assert gt.says_when_to_retry(message, seconds)


@pytest.mark.parametrize(("message", "seconds"), [
    ("Inténtalo de nuevo en dos segundos.", 120), ("Inténtalo una vez más luego.", 120),
])
def test_when_to_retry_rejects_other_words_spanish(message, seconds):
    assert not gt.says_when_to_retry(message, seconds)


# Exercise 06: wordings a red-team pass found rejected, and the opposite meanings that must stay rejected.
RED_TEAM_CASES = {
 "says_all_failed": ([
  "Ambas fuentes fallaron: alpha (RuntimeError) y beta (ValueError).",
  "Ni primary_api (ConnectionError) ni mirror_api (TimeoutError) ni local_cache (KeyError) respondieron.",
  "0 de 3 fuentes respondieron: primary_api, mirror_api, local_cache.", "Las 2 fuentes fallaron: a, b.",
 ], ["Ninguna fuente falló.", "No falló ninguna fuente.", "Todas las fuentes respondieron sin error: a, b.",
     "Ni alpha ni beta fallaron.", "Respuesta de primary. Fuentes fallidas: ninguna."]),
 "says_no_source_answered": ([
  "Ninguna fuente respondió.", "Fallaron todas las fuentes.", "Ambas fuentes fallaron.", "0 de 3 fuentes respondieron.",
 ], ["Respuesta de primary: vacía, ningún resultado.", "Respuesta de primary: sin resultados.", "Ninguna fuente falló.",
     "primary respondió con una cadena vacía; no se consultó ninguna otra fuente.",
     "No hizo falta ninguna alternativa: respondió primary."]),
 "says_may_be_stale": ([
  "local_cache es una caché: la respuesta puede estar anticuada.", "local_cache es una caché: la respuesta puede estar desfasada.",
  "local_cache es una caché: los datos podrían haber cambiado desde entonces.", "La respuesta podría haber cambiado.",
 ], ["local_cache es una caché, pero sus datos están al día: no están desactualizados.",
     "Respuesta de primary (datos en vivo, no guardados en caché).", "Nunca está desactualizada.",
     "Datos en vivo, sin riesgo de estar desactualizados."]),
 "says_data_may_be_old": ([
  "Puede estar desactualizada.", "la respuesta puede estar anticuada.", "Los datos pueden estar desfasados.",
  "Los datos podrían haber cambiado desde entonces.", "Es una copia antigua.",
 ], ["Respuesta de live_api. Antes falló cache (la copia en caché).", "Respuesta servida desde la caché.",
     "Respuesta de primary (datos en vivo, no guardados en caché).", "No están desactualizados."]),
}


@pytest.mark.parametrize("matcher", sorted(RED_TEAM_CASES))
def test_spanish_phrasings_a_red_team_found(matcher):
    accepted, rejected = RED_TEAM_CASES[matcher]
    check(getattr(gt, matcher), accepted + without_accents(accepted), rejected + without_accents(rejected))


def test_range_in_words_and_typography_spanish():
    check(gt.names_range, ["de menos cien a mil grados", "entre menos cien y mil", "de -100,0 a 1.000,0 grados",
                           "entre −100 y 1\u2009000", "de −100 a 1.000,0"],
          ["de cien a mil grados", "entre cien y mil", "de menos diez a mil", "de -100,0 a 1.001,0"], -100, 1000)
    check(gt.says_allowed_scales, ["sólo convierto desde grados centígrados o Fahrenheit", "usa centigrados o fahrenheit"],
          ["sólo grados centígrados", "Escala 'K' desconocida."])


def test_names_value_spanish():
    check(gt.names_value, ["El valor 5000 está fuera de rango", "5.000 grados es demasiado", "5000,0 no vale",
                           "cinco mil grados es demasiado"],
          ["Fuera de rango: de -100 a 1000.", "El valor 500 no vale"], 5000)
    check(gt.names_value, ["El valor no es finito", "infinito no es una temperatura", "value=NaN no vale",
                           "el valor no es un número finito"],
          ["Fuera de rango: de -100 a 1000.", "valor no válido"], float("nan"))


def test_asks_for_a_number_spanish():
    check(gt.asks_for_a_number, ["value debe ser numérico", "value tiene que ser un número", "value: un número decimal",
                                 "value debe ser un numero real"],
          ["Argumento no válido: value.", "value no es válido", "Corrige value y vuelve a intentarlo."])


# Every matcher, said the opposite way in Spanish (the English table is in test_grading_text.py): a sentence that
# says the opposite fails ("El pago se confirmó" is no "sin confirmar", "no todas las fuentes fallaron" no "todas
# fallaron"), and the right meaning passes however it is worded, negations included ("ninguna fuente respondió",
# "no se pudo confirmar", "no lo volví a enviar").
OPPOSITES = {
    "says_all_failed": ([
        "Todas las fuentes fallaron.", "Ninguna fuente respondió.", "No respondió ninguna fuente.", "Ni alpha ni beta respondieron.",
        "No se pudo obtener respuesta de ninguna fuente.", "Fallaron todas: alpha, beta.", "Todas fallaron, pero no te inventes nada.",
    ], [
        "No todas las fuentes fallaron.", "No fallaron todas.", "Fallaron todas menos mirror.", "Todas fallaron excepto mirror.",
        "Todas las demás fallaron; respondió mirror.", "Ninguna fuente estaba caída.", "Ninguna fuente tuvo problemas.",
        "Ninguna dio problemas.", "Todas salvo una fallaron.", "Ninguna fuente falló.", "Al menos una fuente respondió.",
    ]),
    "says_no_source_answered": ([
        "Ninguna fuente respondió.", "Fallaron todas las fuentes.",
    ], [
        "No todas las fuentes fallaron.", "Fallaron todas menos mirror.", "Ninguna fuente tuvo problemas.",
    ]),
    "says_may_be_stale": ([
        "Puede estar desactualizada.", "Puede que ya no sea actual.", "Ya no está al día.", "Viene de la caché.",
    ], [
        "No puede estar desactualizada.", "Está al día.", "No es antigua.", "No viene de la caché.", "Nunca está desactualizada.",
    ]),
    "says_data_may_be_old": ([
        "Puede estar desactualizada.", "Ya no está al día.",
    ], [
        "No puede estar desactualizada.", "Está al día.", "Viene de la caché.",
    ]),
    "says_internal_failure": ([
        "Error interno en web_search.", "La herramienta se colgó.", "No es culpa de tus argumentos: es un error interno.",
        "No es un problema de tus argumentos, sino un fallo interno.",
    ], [
        "No es un error interno: tus argumentos no son válidos.", "La herramienta no se colgó; la entrada es incorrecta.",
        "El fallo no es del lado del servidor: revisa los argumentos.", "No es un fallo propio de la herramienta: corrige la ciudad.",
    ]),
    "says_not_the_arguments": ([
        "No es un problema de tus argumentos.", "Tus argumentos están bien.", "No es culpa de los argumentos, sino de la herramienta.",
    ], [
        "No es un problema de la herramienta, sino de tus argumentos.", "El problema no es la herramienta: son los argumentos.",
        "Los argumentos no están bien.", "No es culpa de la herramienta sino de los argumentos.",
    ]),
    "says_no_result": ([
        "(sin resultado)", "La herramienta no devolvió nada.", "Resultado vacío.", "No hay datos.",
    ], [
        "La respuesta no está vacía: 3 filas.", "No pasó nada malo: 42.", "Resultado no vacío.", "Nada falló: 42.",
    ]),
    "says_do_not_repeat": ([
        "No la vuelvas a llamar.", "No repitas esta llamada.", "No reintentes: ya falló dos veces.", "Deja de llamarla con estos argumentos.",
    ], [
        "Vuelve a llamarla con los mismos argumentos.", "No pasa nada si lo intentas de nuevo.", "No dudes en reintentar.",
        "No funcionó así que inténtalo de nuevo.", "No cambies nada y vuelve a llamarla.", "No te rindas y vuelve a intentarlo.",
        "No dejes de intentarlo.",
    ]),
    "says_not_confirmed": ([
        "No se pudo confirmar.", "Sin confirmar.", "No hay confirmación del envío.", "No sé si se envió.", "No está confirmado todavía.",
    ], [
        "El pago se confirmó.", "Confirmado: el correo se envió.", "Verifiqué que se envió.", "Puedo confirmar que llegó.",
        "No hay duda: se envió.", "No es posible que se haya enviado.", "No puede haberse enviado.", "Está confirmado.",
        "No hace falta confirmar: ya se envió.",
    ]),
    "says_not_repeated": ([
        "No se reintentó.", "No lo volví a enviar.", "No lo envié de nuevo.", "Para no duplicarlo, no lo reenvié.",
    ], [
        "Lo reintenté.", "Como no se confirmó lo reintenté.", "No esperé y lo reintenté.", "No dudé en reenviarlo.",
        "Otro intento lo duplicó.", "Lo intenté solo una vez más.", "No se confirmó así que lo envié otra vez.",
    ]),
    "says_limit_reached": ([
        "Me detuve: límite de iteraciones.", "Se alcanzó el máximo de iteraciones.", "Sin respuesta dentro del límite de 5 pasos.",
    ], [
        "No se alcanzó el límite.", "Sin llegar al límite de iteraciones.", "Dentro del límite: 2 pasos.",
        "El límite no se alcanzó.",
    ]),
    "says_allowed_scales": ([
        "Usa C o F, no K.", "'K' no es C ni F: usa una de ellas.",
    ], [
        "C y F no están permitidas.", "No se admiten C ni F.", "Ni C ni F son válidas.",
    ]),
    "asks_for_a_number": ([
        "'caliente' no es un número.", "value debe ser un número, no texto.",
    ], [
        "value no debe ser un número.", "value debe ser texto, no un número.",
    ]),
}
OPPOSITES_WITH_ARGS = {
    "names": [(("valor",), ["el valor está bien"], ["la temperatura es incorrecta"])],
    "names_error": [
        ((ConnectionError("x"),), ["Error de conexión tras 3 intentos.", "No se pudo conectar con la API.", "Sin conexión."],
         ["No fue un error de conexión.", "Sin errores de conexión.", "No se perdió la conexión."]),
        ((TimeoutError("y"),), ["Se agotó el tiempo de espera."], ["No se agotó el tiempo de espera."]),
    ],
    "says_number": [((3,), ["tras 3 intentos", "no tras 2, sino tras 3 intentos"], ["tras 2 intentos", "tras 13 intentos"])],
    "says_when_to_retry": [((120,), [
        "Inténtalo de nuevo en 2 minutos.", "No reintentes hasta dentro de 2 minutos.", "No antes de 120 segundos.",
        "No esperes menos de 2 minutos.",
    ], [
        "No esperes 2 minutos: reintenta ya.", "No hace falta esperar 120 segundos.", "Reintenta ya, no dentro de 2 minutos.",
        "Inténtalo más tarde.",
    ])],
    "names_range": [((-100, 1000), ["5000 no está entre -100 y 1000."], ["5000 no está entre 100 y 1000."])],
    "names_value": [
        ((5000,), ["5000 no está permitido."], ["500 no está permitido."]),
        ((float("inf"),), ["El valor no es finito."], ["El valor no es infinito.", "El valor es finito."]),
    ],
}


@pytest.mark.parametrize("matcher", sorted(OPPOSITES))
def test_every_matcher_rejects_the_opposite_in_spanish(matcher):
    accepted, rejected = OPPOSITES[matcher]
    check(getattr(gt, matcher), accepted + without_accents(accepted), rejected + without_accents(rejected))


@pytest.mark.parametrize("matcher", sorted(OPPOSITES_WITH_ARGS))
def test_every_matcher_with_arguments_rejects_the_opposite_in_spanish(matcher):
    for args, accepted, rejected in OPPOSITES_WITH_ARGS[matcher]:
        check(getattr(gt, matcher), accepted + without_accents(accepted), rejected + without_accents(rejected), *args)


def test_every_matcher_has_spanish_opposites():
    missing = set(gt.__all__) - set(OPPOSITES) - set(OPPOSITES_WITH_ARGS)
    assert not missing, f"no Spanish opposites for {sorted(missing)}"


# Phrasings written after the matchers were tuned, and run once as a held-out check (issue 45): 20 right and 20
# opposite sentences. On that run 19/20 right ones passed ("No tenemos constancia de que..." was missed: "constancia"
# now counts like "no consta") and 15/20 opposites were rejected; the misses were "Ninguno de los proveedores informó
# de un error" (any verb before "un error" now counts), "No hay motivo para no reintentarlo" (a double negation),
# "La búsqueda no volvió vacía" (a verb between the negation and "vacía"), "...una palabra como 'templado', no un
# número" (the window before "no un número" was too short), and a names_error case that only passed because the check
# used an exception whose text was one letter. Kept here so they stay right.
HELD_OUT = [
    ("says_not_confirmed", "No llegó ningún acuse de recibo, así que no sabemos si el pago se hizo.", True),
    ("says_not_confirmed", "Es posible que la reserva se creara, pero el servidor no lo confirmó.", True),
    ("says_not_confirmed", "No tenemos constancia de que el correo saliera.", True),
    ("says_not_repeated", "Me quedé en un solo intento para no cobrar dos veces al cliente.", True),
    ("says_not_repeated", "El pago no se envió por segunda vez.", True),
    ("says_all_failed", "Cada uno de los tres proveedores devolvió un error.", True),
    ("says_all_failed", "Ninguno de los proveedores pudo dar una respuesta.", True),
    ("says_all_failed", "La consulta falló en todas partes: primary, mirror y cache.", True),
    ("says_may_be_stale", "Ojo: el dato se leyó de una copia guardada y quizá esté desactualizado.", True),
    ("says_may_be_stale", "El valor en caché podría haber cambiado desde que se guardó.", True),
    ("says_internal_failure", "La calculadora tuvo un fallo interno y se detuvo.", True),
    ("says_not_the_arguments", "Tus datos de entrada no tienen nada que ver con esto; otros valores no lo arreglarán.", True),
    ("says_do_not_repeat", "Por favor, no vuelvas a enviar esta misma petición.", True),
    ("says_do_not_repeat", "No reintentes get_weather con Atlántida.", True),
    ("says_no_result", "La búsqueda volvió vacía.", True),
    ("says_limit_reached", "Paré porque se agotó el número máximo de pasos.", True),
    ("names_error", "El servicio del tiempo tardó demasiado y se agotó el tiempo de espera.", True, TimeoutError("read timed out")),
    ("names_error", "Se perdió la conexión con la API de búsqueda tres veces.", True, ConnectionError("search API unreachable")),
    ("says_when_to_retry", "Límite de peticiones: espera 90 segundos antes de volver a llamar.", True, 90),
    ("asks_for_a_number", "temperature tiene que ser numérica, por ejemplo 21,5.", True),
    ("says_not_confirmed", "El banco confirmó la transferencia hace un momento.", False),
    ("says_not_confirmed", "Hemos verificado la entrega: el mensaje está en la bandeja del destinatario.", False),
    ("says_not_confirmed", "No cabe duda de que la reserva se creó.", False),
    ("says_not_repeated", "Tras el timeout reenvié el correo por si acaso.", False),
    ("says_not_repeated", "Como no llegó nada, la petición se volvió a enviar.", False),
    ("says_all_failed", "No fallaron todos los proveedores: la caché respondió.", False),
    ("says_all_failed", "Todos los proveedores salvo el espejo dieron error; el espejo respondió.", False),
    ("says_all_failed", "Ninguno de los proveedores informó de un error.", False),
    ("says_may_be_stale", "Este valor viene fresco de la API en vivo, no de una copia antigua.", False),
    ("says_may_be_stale", "Los datos no pueden estar desactualizados: se obtuvieron hace un segundo.", False),
    ("says_internal_failure", "La herramienta funciona bien; la ciudad que diste no existe.", False),
    ("says_internal_failure", "No hubo ningún fallo interno: la fecha que pasaste ya pasó.", False),
    ("says_not_the_arguments", "La herramienta está bien, pero tus argumentos no.", False),
    ("says_do_not_repeat", "No te rindas: llámala otra vez con la ciudad corregida.", False),
    ("says_do_not_repeat", "No hay motivo para no reintentarlo.", False),
    ("says_no_result", "La búsqueda no volvió vacía: 12 resultados.", False),
    ("says_limit_reached", "Terminé en tres pasos, muy por debajo del límite de iteraciones.", False),
    ("names_error", "El servicio respondió a tiempo; el error fue una conexión rechazada.", False, TimeoutError("read timed out")),
    ("says_when_to_retry", "No hace falta esperar 90 segundos; puedes volver a llamar ya.", False, 90),
    ("asks_for_a_number", "temperature debe ser una palabra como 'templado', no un número.", False),
]


def test_held_out_phrasings_in_spanish():
    wrong = [(matcher, message) for matcher, message, means, *args in HELD_OUT
             if getattr(gt, matcher)(message, *args) != means]
    assert not wrong, f"judged the wrong way: {wrong}"
    assert not [m for matcher, m, means, *args in HELD_OUT if getattr(gt, matcher)(without_accents([m])[0], *args) != means]


# A negating subject or determiner ("nada", "ninguno de", "ninguna parte de", "nunca") denies its whole clause, verb
# and all: "nada falló internamente" is no internal failure. But only its own clause: "nada de lo que hiciste lo
# causó: la herramienta falló internamente" still says the tool failed. The English table is in test_grading_text.py.
NEGATING_SUBJECTS = {
    "says_internal_failure": ([
        "Error interno en web_search.", "web_search se colgó.", "Tus argumentos no causaron este error interno.",
        "Nada de lo que hiciste lo causó: la herramienta falló internamente.", "No llegaron datos porque el servicio se cayó.",
        "Ninguno de tus argumentos causó el fallo interno.", "Nada de lo que enviaste provocó el error interno.",
        "No fue culpa tuya sino un error interno.", "Nada falló en tu petición; la herramienta se rompió por dentro.",
        "Ningún argumento estaba mal: fallo interno.", "No hubo respuesta porque el servicio se cayó.",
        "Nada falló hasta que el servidor se cayó.", "No falló por tus argumentos, sino que falló internamente.",
        "Ningún dato volvió: la herramienta falló por dentro.",
    ], [
        "Nada falló internamente; revisa los argumentos.", "Ningún error interno: revisa los argumentos.",
        "No hubo ningún fallo interno.", "Ninguna parte de la herramienta falló internamente: la ciudad no existe.",
        "Ninguno de los servidores se cayó; la fecha es incorrecta.", "Nada ha fallado por dentro: revisa la ciudad.",
        "Nada salió mal dentro de la herramienta.", "No salió nada mal dentro de la herramienta: corrige la fecha.",
        "No hubo ningún error interno en la herramienta: revisa la ciudad.", "Nunca falló internamente: el argumento está fuera de rango.",
        "Ningún servidor se cayó: la ciudad está mal escrita.", "Ningún componente falló en el servidor.",
        "Nada se rompió en el servidor: revisa los argumentos.", "Jamás falló por dentro: corrige la fecha.",
        "Ninguna pieza de la herramienta se rompió: revisa la fecha.",
    ]),
    "says_may_be_stale": ([
        "Ninguna fuente en vivo respondió: viene de la caché.", "Nada más reciente: puede estar desactualizado.",
    ], [
        "Nada está desactualizado.", "Nada viene de la caché.", "Ninguna parte está desactualizada.",
        "Ninguno de los datos está desactualizado.",
    ]),
    "says_data_may_be_old": (["Nada más reciente: puede estar desactualizado."], ["Nada está desactualizado."]),
    "says_no_result": ([
        "(sin resultado)", "Ningún resultado: la lista está vacía.", "No hay datos.",
    ], [
        "Ningún campo está vacío: 42.", "Nada vino vacío.", "Ninguno de los resultados volvió vacío.",
    ]),
    "says_limit_reached": ([
        "Ningún paso más: se alcanzó el límite.", "Sin respuesta tras 3 iteraciones.",
    ], [
        "Ninguno de los pasos llegó al límite.", "Ninguna iteración superó el límite.",
    ]),
    # "Ningún número hace falta" no pide un número; "nada más", "nada más que un número" y "ningún dato numérico
    # recibido" sí lo piden.
    "asks_for_a_number": ([
        "El valor debe ser un número, nada más.", "Nada se convirtió: value debe ser un número.", "Nada más que un número hace falta.",
        "Ningún valor es válido si no es un número.", "Ningún valor que no sea un número se admite.",
        "Ningún dato numérico recibido: value debe ser un número.", "Nada de lo que enviaste es un número.",
        "value debe ser un número; nada más se acepta.", "value: se esperaba un número y no llegó nada numérico.",
        "Nada salvo un número es válido.",
    ], [
        "Ningún número hace falta.", "Nada numérico.", "Ningún valor numérico hace falta.", "Ninguno de los campos necesita un número.",
        "Ningún número es necesario.", "Nadie pide un número.", "Ningún campo tiene que ser numérico.", "Nada numérico se admite.",
        "No hace falta ningún número.", "Ningún número se acepta en value.", "Nada numérico, por favor.",
    ]),
    # "Ninguna escala C o F se admite" no admite ninguna; "ninguna escala salvo C o F", "solo C o F; ninguna otra
    # escala" y "no se indicó ninguna escala (C o F)" sí dicen C o F.
    "says_allowed_scales": ([
        "Solo se admiten C o F; ninguna otra escala.", "La escala debe ser C o F (no K).", "Ninguna escala salvo C o F es válida.",
        "Ninguna escala distinta de C o F se admite.", "Ninguna escala es válida si no es C o F.", "Ninguna otra escala: usa C o F.",
        "Escala 'K' desconocida: solo C o F, ninguna más.", "Ninguna escala válida: usa C o F.",
        "Ninguna escala se admite aparte de C y F.", "Ninguna escala más que C o F.", "No se indicó ninguna escala (C o F).",
        "Ninguna escala excepto C y F funciona.",
    ], [
        "Ninguna escala C o F se admite.", "Ninguna de las escalas C o F es válida.", "Ninguna escala vale, ni siquiera C o F.",
        "No se admite ninguna escala C o F.", "Ninguna escala es válida, tampoco C o F.", "Ninguna unidad (C o F) está permitida.",
        "Ninguna escala se admite: no C, no F.", "Ninguna escala, C o F, se acepta.", "Ninguna escala se acepta: tampoco C ni F.",
    ]),
}


@pytest.mark.parametrize("matcher", sorted(NEGATING_SUBJECTS))
def test_a_negating_subject_denies_its_clause_in_spanish(matcher):
    accepted, rejected = NEGATING_SUBJECTS[matcher]
    check(getattr(gt, matcher), accepted + without_accents(accepted), rejected + without_accents(rejected))


def test_a_negating_subject_denies_the_error_it_names_in_spanish():
    check(gt.names_error, ["Ninguna llamada respondió: se agotó el tiempo.", "Nada volvió porque se agotó el tiempo de espera."],
          ["Ninguna llamada agotó el tiempo.", "Nada agotó el tiempo de espera: falló la conexión.",
           "Ninguno de los intentos sufrió un tiempo de espera agotado."], TimeoutError("y"))
    check(gt.names_error, ["Ninguna fuente respondió: error de conexión.", "Nada llegó porque falló la conexión."],
          ["Nada provocó un error de conexión.", "Ninguna de las llamadas tuvo un error de conexión."], ConnectionError("x"))
