# cell: safe_agent_loop_answer
# A correct alternative worded in Spanish, not as the Spanish solution words it ("error interno ... tus argumentos
# están bien", "no devolvió nada", "Llamada bloqueada ... no vuelvas a llamarla", "No sé si ... no lo he vuelto
# a intentar"): full marks in both editions.
def safe_agent_loop(question: str, model, tools: list, max_iterations: int = 5,
                    max_attempts: int = 2, *, sleep=time.sleep) -> dict:
    """Ejecuta el bucle modelo -> herramienta -> modelo sin romperlo nunca; devuelve un resumen.

    Devuelve un dict con answer, stop_reason, iterations, tool_calls, errors, elapsed_ms y log.
    """
    started = time.perf_counter()
    by_name = {t.name: t for t in tools}
    messages = [HumanMessage(question)]
    log = []        # una entrada por llamada a herramienta atendida
    failures = {}   # (herramienta, argumentos en JSON) -> cuántas veces falló esa llamada
    iterations = 0

    def is_transient(exc):
        return isinstance(exc, (ConnectionError, TimeoutError)) or getattr(exc, "status_code", None) in TRANSIENT_STATUS

    def wait_before_retry(n):  # equal jitter, n = 0 antes del primer reintento
        ceiling = min(30.0, 1.0 * 2 ** n)
        sleep(random.uniform(ceiling / 2, ceiling))

    def summary(answer, stop_reason):
        return {"answer": answer, "stop_reason": stop_reason, "iterations": iterations,
                "tool_calls": len(log), "errors": sum(not entry["success"] for entry in log),
                "elapsed_ms": (time.perf_counter() - started) * 1000, "log": log}

    def ask_model():
        """(respuesta, None) o (None, la excepción que agotó los intentos)."""
        for attempt in range(max_attempts):
            try:
                return model.invoke(messages), None
            except Exception as exc:
                if not is_transient(exc) or attempt == max_attempts - 1:
                    return None, exc
                wait_before_retry(attempt)
        return None, RuntimeError("max_attempts es menor que 1")

    def as_text(result):
        if result is None or (isinstance(result, str) and not result.strip()):
            return "La herramienta terminó bien, pero no devolvió nada."
        if isinstance(result, (dict, list)):
            return json.dumps(result, ensure_ascii=False, default=str)
        return str(result)

    def run_tool(tool, args):
        """(éxito, contenido para el modelo, uncertain_write)."""
        is_write = bool((tool.metadata or {}).get("side_effects"))
        for attempt in range(max_attempts):
            try:
                return True, as_text(tool.invoke(args)), False
            except ValidationError as exc:
                problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'argumentos'}: {e['msg']}" for e in exc.errors())
                return False, f"{tool.name} no acepta estos argumentos. Campos que hay que corregir -> {problems}", False
            except ToolException as exc:
                return False, f"Error de {tool.name}: {exc}", False
            except Exception as exc:
                if is_write:  # transitorio o inesperado: puede que la escritura se haya hecho, así que nunca se repite
                    return False, f"{tool.name}: sin confirmación ({type(exc).__name__}).", True
                if not is_transient(exc):
                    return False, (f"Se produjo un error interno en {tool.name} ({type(exc).__name__}). Tus argumentos están bien, "
                                   "así que cambiarlos no servirá de nada: prueba con otra herramienta o cuéntaselo al usuario."), False
                if attempt == max_attempts - 1:
                    return False, (f"{tool.name} no respondió en {max_attempts} intentos ({type(exc).__name__}). "
                                   "Prueba dentro de un rato o usa otra herramienta."), False
                wait_before_retry(attempt)
        return False, f"{tool.name} no se ejecutó (max_attempts es menor que 1).", False

    for _ in range(max_iterations):
        iterations += 1
        response, error = ask_model()
        if error is not None:
            return summary(f"No pude hablar con el modelo ({type(error).__name__}); inténtalo dentro de un rato.",
                           "model_error")
        messages.append(response)
        if not response.tool_calls and not response.invalid_tool_calls:
            return summary(response.content if isinstance(response.content, str) else response.text, "answer")
        for call in response.tool_calls:
            name, args = call["name"], call["args"]
            key = (name, json.dumps(args, sort_keys=True, default=str))
            uncertain = False
            if name not in by_name:
                ok, content = False, f"No existe ninguna herramienta llamada {name!r}. Puedes usar: {', '.join(by_name) or '(ninguna)'}."
            elif failures.get(key, 0) >= 2:
                ok, content = False, (f"Llamada bloqueada: {name} ya ha fallado {failures[key]} veces con esos argumentos. "
                                      "No vuelvas a llamarla así; cambia algo o díselo al usuario.")
            else:
                ok, content, uncertain = run_tool(by_name[name], args)
            if not ok:
                failures[key] = failures.get(key, 0) + 1
            log.append({"tool": name, "args": args, "success": ok, "result": content})
            if uncertain:
                return summary(f"No sé si {name} llegó a hacerse: la respuesta nunca llegó. "
                               "No lo he vuelto a intentar para no duplicarlo; revisa antes de pedirlo otra vez.",
                               "uncertain_write")
            messages.append(ToolMessage(content=content, tool_call_id=call["id"], name=name,
                                        status="success" if ok else "error"))
        for bad in response.invalid_tool_calls:
            content = (f"Los argumentos de {bad.get('name')} no son JSON válido ({bad.get('error') or 'no se pudieron leer'}). "
                       "Reenvía la llamada con un objeto JSON.")
            log.append({"tool": bad.get("name"), "args": bad.get("args"), "success": False, "result": content})
            messages.append(ToolMessage(content=content, tool_call_id=bad["id"], name=bad.get("name"), status="error"))
    return summary(f"Me detuve tras {max_iterations} llamadas al modelo sin llegar a una respuesta.", "max_iterations")
