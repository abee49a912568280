"""toolfaults speaks the notebook's language: use_language("es") switches every text a learner or a
model reads, use_language("en") brings back the English texts byte for byte.

Codes, recovery values, status values and tool names are code and never change.
"""

from __future__ import annotations

import json

import pytest
from langchain_core.tools import ToolException

from toolfaults import catalog, tools
from toolfaults.anthropic_offline import scripted_answer
from toolfaults.backoff import simulate, summary_table
from toolfaults.clock import RecordingSleep, SleepLimitExceeded
from toolfaults.contract import ToolError
from toolfaults.errors import RateLimitError
from toolfaults.idempotency import idempotent_write_tool
from toolfaults.language import current_language, fold, on_language_change, use_language
from toolfaults.models import ScriptedChatModel, ScriptExhaustedError, invalid_tool_call
from toolfaults.progress import PartProgress, TestOutcome, _part_title, format_table
from toolfaults.quiz import Choice, Question, quiz


def failure_text(tool, args):
    with pytest.raises(Exception) as info:
        tool.invoke(args)
    return str(info.value)


def test_unknown_language_is_refused_and_nothing_changes():
    with pytest.raises(ValueError):
        use_language("fr")
    assert current_language() == "en"


def test_mock_tools_default_outputs_and_errors_follow_the_language():
    english = {
        "search": tools.make_tool().invoke({"query": "jitter"}),
        "flaky": failure_text(tools.flaky_tool(failures=1), {"query": "x"}),
        "failing": failure_text(tools.failing_tool(), {"query": "x"}),
        "timeout": failure_text(tools.timeout_tool(), {"query": "x"}),
        "rate": failure_text(tools.rate_limited_tool(), {"query": "x"}),
        "write": failure_text(tools.write_tool(failures=1), {"to": "ana@example.com", "body": "hola"}),
        "class": failure_text(tools.make_tool(outcomes=[ConnectionError]), {"query": "x"}),
        "description": tools.make_tool().description,
    }
    assert english == {
        "search": "results for 'jitter'", "flaky": "connection reset by peer", "failing": "internal failure",
        "timeout": "web_search did not answer within 5 s",
        "rate": "HTTP 429: web_search: rate limit exceeded (retry after 2 s)",
        "write": "mail server did not confirm within 10 s", "class": "web_search failed",
        "description": "Search the web for a query and return the top results.",
    }
    use_language("es")
    spanish = {
        "search": tools.make_tool().invoke({"query": "jitter"}),
        "flaky": failure_text(tools.flaky_tool(failures=1), {"query": "x"}),
        "failing": failure_text(tools.failing_tool(), {"query": "x"}),
        "timeout": failure_text(tools.timeout_tool(), {"query": "x"}),
        "rate": failure_text(tools.rate_limited_tool(), {"query": "x"}),
        "write": failure_text(tools.write_tool(failures=1), {"to": "ana@example.com", "body": "hola"}),
        "class": failure_text(tools.make_tool(outcomes=[ConnectionError]), {"query": "x"}),
        "description": tools.make_tool().description,
    }
    assert spanish == {
        "search": "resultados para 'jitter'", "flaky": "el servidor cortó la conexión", "failing": "fallo interno",
        "timeout": "web_search no respondió en 5 s",
        "rate": "HTTP 429: web_search: límite de peticiones superado (reintenta dentro de 2 s)",
        "write": "el servidor de correo no confirmó el envío en 10 s", "class": "web_search falló",
        "description": "Busca en la web una consulta y devuelve los mejores resultados.",
    }
    assert tools.write_tool().invoke({"to": "ana@example.com", "body": "hola"}) == "mensaje enviado a ana@example.com"
    use_language("en")
    assert tools.make_tool().invoke({"query": "jitter"}) == english["search"]
    assert failure_text(tools.rate_limited_tool(), {"query": "x"}) == english["rate"]
    assert tools.make_tool().description == english["description"]


def test_an_error_built_in_one_language_reads_in_the_current_one():
    err = RateLimitError("busy", retry_after=30)
    assert str(err) == "HTTP 429: busy (retry after 30 s)"
    use_language("es")
    assert str(err) == "HTTP 429: busy (reintenta dentro de 30 s)" and err.retry_after == 30.0


def test_catalog_tools_answer_in_the_language():
    weather, stocks, source = catalog.weather_tool(), catalog.stock_price_tool(), catalog.Source("primary")
    assert weather.invoke({"city": "Mexico City"}) == "Mexico City: 18°C, cloudy"
    assert "Known cities: Buenos Aires, Madrid, Mexico City, Moscow, Tokyo." in failure_text(weather, {"city": "Atlantis"})
    assert source("x") == "primary: results for 'x'"
    use_language("es")
    assert weather.invoke({"city": "Ciudad de México"}) == "Ciudad de México: 18°C, nublado"
    assert weather.invoke({"city": "mexico city"}) == "Ciudad de México: 18°C, nublado"
    text = failure_text(weather, {"city": "Atlántida"})
    assert text == ("Ciudad desconocida: 'Atlántida'. Ciudades conocidas: Buenos Aires, Ciudad de México, Madrid, "
                    "Moscú, Tokio.")
    assert "Ticker desconocido: 'XYZ'. Tickers válidos:" in failure_text(stocks, {"ticker": "XYZ"})
    assert source("x") == "primary: resultados para 'x'"
    assert catalog.weather_tool().description == "Consulta el tiempo que hace ahora en una ciudad."
    assert catalog.weather_tool().name == "get_weather"  # names are code
    use_language("en")
    assert weather.invoke({"city": "Ciudad de México"}) == "Mexico City: 18°C, cloudy"
    assert catalog.weather_tool().description == "Get the current weather for a city."


@pytest.mark.parametrize("asked", ["México", "mexico", "MÉXICO", "  Mexico ", "méxico", "MEXICO"])
def test_country_lookup_ignores_case_and_accents(asked):
    tool = catalog.country_tool()
    assert tool.invoke({"country": asked}) == "Mexico: capital Mexico City, population 130M, language Spanish"
    use_language("es")
    assert tool.invoke({"country": asked}) == "México: capital Ciudad de México, población 130M, idioma español"


@pytest.mark.parametrize(("asked", "name"), [("espana", "España"), ("ESPAÑA", "España"), ("Spain", "España"),
                                             ("japon", "Japón"), ("Japón", "Japón"), ("JAPAN", "Japón")])
def test_spanish_country_names_keep_their_accents(asked, name):
    use_language("es")
    assert catalog.find_country(asked).startswith(f"{name}: capital ")
    assert set(catalog.COUNTRIES) == {"España", "Japón", "México"}
    assert catalog.COUNTRIES["Japón"] == {"capital": "Tokio", "population": "124M", "language": "japonés"}


def test_unknown_country_names_it_and_lists_the_known_ones():
    with pytest.raises(ToolException) as info:
        catalog.find_country("Atlantis")
    assert str(info.value) == "Unknown country 'Atlantis'. Known countries: Japan, Mexico, Spain."
    use_language("es")
    with pytest.raises(ToolException) as info:
        catalog.find_country("Atlántida")
    assert str(info.value) == "País desconocido: 'Atlántida'. Países conocidos: España, Japón, México."
    assert catalog.find_country("  méxico  ").startswith("México:")


def test_imported_data_follows_the_language_in_place():
    """A notebook imports COUNTRIES once; switching the language refills that same dict."""
    countries, weather = catalog.COUNTRIES, catalog.WEATHER
    assert set(countries) == {"Spain", "Japan", "Mexico"} and weather["Tokyo"] == "15°C, rain"
    use_language("es")
    assert countries is catalog.COUNTRIES and "México" in countries and weather["Tokio"] == "15°C, lluvia"
    use_language("en")
    assert list(countries) == ["Spain", "Japan", "Mexico"]
    assert countries["Spain"] == {"capital": "Madrid", "population": "48M", "language": "Spanish"}


def test_json_for_the_model_keeps_accents_readable():
    use_language("es")
    answer = catalog.country_tool().invoke({"country": "mexico"})
    error = ToolError("not_found", f"No hay datos de {answer.split(':')[0]}.", "choose_alternative")
    text = error.to_json()
    assert "México" in text and "\\u00e9" not in text and json.loads(text)["message"] == "No hay datos de México."
    assert json.loads(error.to_tool_message("call_1").content)["code"] == "not_found"


def test_json_sent_by_the_standin_keeps_accents():
    from toolfaults.anthropic_offline import text_response
    from toolfaults.standin import AnthropicStandIn

    import urllib.request

    with AnthropicStandIn([text_response("Ciudad de México: 18°C")]) as standin:
        request = urllib.request.Request(standin.url + "/v1/messages", data=b'{"model": "x", "messages": []}',
                                         headers={"content-type": "application/json", "x-api-key": "k"})
        raw = urllib.request.urlopen(request, timeout=10).read()
    assert "Ciudad de México".encode() in raw and b"\\u00e9" not in raw


def test_contract_texts_follow_the_language_codes_do_not():
    with pytest.raises(ValueError, match="recovery must be one of"):
        ToolError("timeout", "The service timed out.", "try_harder")
    use_language("es")
    with pytest.raises(ValueError, match=r"recovery debe ser uno de correct_arguments, choose_alternative"):
        ToolError("timeout", "El servicio tardó demasiado.", "try_harder")
    with pytest.raises(ValueError, match="message debe ser un texto no vacío"):
        ToolError("timeout", " ", "retry_later")
    error = ToolError("timeout", "El servicio tardó demasiado.", "retry_later")
    assert error.to_dict() == {"code": "timeout", "message": "El servicio tardó demasiado.", "recovery": "retry_later"}


def test_scripted_model_texts_follow_the_language():
    model = ScriptedChatModel(script=[RuntimeError])
    with pytest.raises(RuntimeError, match="scripted failure of model call 1"):
        model.invoke("hola")
    assert invalid_tool_call("f", "{").get("error") == "arguments are not valid JSON"
    use_language("es")
    with pytest.raises(ScriptExhaustedError, match="recibió 2 llamadas, pero su guion solo tiene 1"):
        model.invoke("hola")
    with pytest.raises(RuntimeError, match="fallo programado en la llamada 1 al modelo"):
        ScriptedChatModel(script=[RuntimeError]).invoke("hola")
    assert invalid_tool_call("f", "{").get("error") == "los argumentos no son JSON válido"


def question():
    return Question("¿Qué haces con un 503?", [
        Choice("Reintentar con backoff.", "Un 503 dice 'ahora no', no 'nunca'.", correct=True),
        Choice("Rendirte.", "El servicio puede volver en unos segundos."),
    ])


def test_quiz_labels_feedback_and_score_follow_the_language():
    english = quiz([question()])
    assert english.title == "Self-check" and english.check(0, 1).text().startswith("Not quite.")
    assert english.check(0, 1).text().endswith(" Try another answer.")
    assert english.score_text() == "0 of 1 right (0 at the first try)."
    use_language("es")
    spanish = quiz([question()])
    assert spanish.title == "Autoevaluación"
    assert spanish.text().startswith("Autoevaluación (1 preguntas; ejecuta la celda para responderlas)")
    assert spanish.score_text() == "1 preguntas: elige una respuesta para ver si es correcta y por qué."
    wrong = spanish.click(0, 1)
    assert wrong == "✗ No exactamente. El servicio puede volver en unos segundos. Prueba otra respuesta.", wrong
    assert spanish.click(0, 0).startswith("✓ Correcto.")
    assert spanish.score_text() == "1 de 1 correctas (0 a la primera)."
    assert quiz([question()], title="Autoevaluación: lección 1").title == "Autoevaluación: lección 1"
    use_language("en")
    assert quiz([question()]).title == "Self-check"


def test_progress_table_follows_the_language():
    rows = [PartProgress("05_retry_with_backoff_es", _part_title("## Parte A: `resilient_invoke` (20 puntos)", "x"),
                         (TestOutcome("test_a", True), TestOutcome("test_b", False, "AssertionError: no")), False),
            PartProgress("05_retry_with_backoff_es", "Parte B: retry_after", (TestOutcome("test_c", False),), True)]
    assert rows[0].part == "Parte A: resilient_invoke"
    english = format_table(rows)
    assert english.splitlines()[0].split() == ["exercise", "part", "visible", "tests", "status"]
    assert english.endswith("0 of 2 parts done, 1 in progress, 1 not started. Visible tests only: "
                            "hidden tests run when you are graded.")
    use_language("es")
    spanish = format_table(rows, details=True)
    assert spanish.splitlines()[0].split() == ["ejercicio", "parte", "tests", "visibles", "estado"]
    assert spanish.splitlines()[1].endswith("1/2  en curso") and spanish.splitlines()[3].endswith("0/1  sin empezar")
    assert spanish.endswith("0 de 2 partes hechas, 1 en curso, 1 sin empezar. Solo tests visibles: "
                            "los ocultos se ejecutan al calificar.")
    assert rows[0].status == "in progress"  # the value is code; only the table translates it
    use_language("en")
    assert format_table(rows) == english


def test_progress_lists_one_edition(tmp_path):
    from toolfaults.progress import exercise_notebooks

    for stem in ("05_retry", "05_retry_es", "06_fallback"):
        (tmp_path / stem).mkdir()
    names = lambda language: [p.parent.name for p in exercise_notebooks(tmp_path, language)]  # noqa: E731
    assert names(None) == ["05_retry", "05_retry_es", "06_fallback"]
    assert names("en") == ["05_retry", "06_fallback"] and names("es") == ["05_retry_es"]


def test_other_learner_facing_texts_follow_the_language():
    charge = {"customer_id": "cus_1", "amount_eur": 9.5, "idempotency_key": "k1"}
    assert idempotent_write_tool().invoke(charge) == "charged 9.50 EUR to cus_1 (payment k1)"
    sleep = RecordingSleep(max_calls=0)
    with pytest.raises(SleepLimitExceeded, match="was called more than 0 times"):
        sleep(1)
    assert summary_table({}).startswith("strategy")
    status, _, body = scripted_answer([], 0, {})
    assert "script exhausted" in body["error"]["message"]
    use_language("es")
    assert idempotent_write_tool().invoke(charge) == "cobrados 9.50 EUR a cus_1 (pago k1)"
    assert "no confirmó" in failure_text(idempotent_write_tool(failures=1), charge)
    with pytest.raises(SleepLimitExceeded, match="se llamó más de 0 veces"):
        sleep(1)
    assert summary_table({}).startswith("estrategia")
    assert "guion agotado" in scripted_answer([], 0, {})[2]["error"]["message"]


def test_backoff_summaries_follow_the_language():
    result = simulate(clients=5, strategy="full")
    english_line, english_table = result.summary(), summary_table([result])
    assert " calls (" in english_line and english_table.splitlines()[0].split()[:3] == ["strategy", "total", "calls"]
    use_language("es")
    assert " llamadas (" in result.summary() and "por cliente" in result.summary()
    spanish = summary_table([result]).splitlines()
    assert spanish[0].split()[0] == "estrategia" and spanish[1].split()[0] == "full"
    assert len(spanish[0]) == len(spanish[1]), "the Spanish rows line up with their header"
    use_language("en")
    assert (result.summary(), summary_table([result])) == (english_line, english_table)


def test_calculator_schema_and_mode_line_follow_the_language():
    from langchain_core.utils.function_calling import convert_to_openai_tool

    from toolfaults.live import describe_mode

    english = convert_to_openai_tool(catalog.calculator_tool())
    assert english["function"]["parameters"]["properties"]["a"]["description"] == "The first operand."
    assert describe_mode().startswith("OFFLINE")
    use_language("es")
    spanish = convert_to_openai_tool(catalog.calculator_tool())
    assert spanish["function"]["name"] == "calculator"
    assert spanish["function"]["description"] == "Hace una operación aritmética básica con dos números."
    assert spanish["function"]["parameters"]["properties"]["a"]["description"] == "El primer operando."
    assert spanish["function"]["parameters"]["properties"]["operation"]["enum"] == ["add", "subtract", "multiply", "divide"]
    assert catalog.calculator_tool().invoke({"operation": "add", "a": 2, "b": 3}) == "5.0"
    assert describe_mode().startswith("OFFLINE") and "sin red" in describe_mode()
    use_language("en")
    assert convert_to_openai_tool(catalog.calculator_tool()) == english


def test_fold_and_listeners():
    assert fold("  Ciudad de  MÉXICO ") == "ciudad de mexico" and fold("Moscú") == fold("moscu")
    from toolfaults import language

    seen = []
    listener = on_language_change(seen.append)
    try:
        use_language("es")
        use_language("en")
    finally:
        language._listeners.remove(listener)
    assert seen == ["en", "es", "en"]
