# cell: handle_tool_call_answer
# A correct alternative with its messages and codes in Spanish: full marks in both editions.
def handle_tool_call(call: dict, tools: list, failures: dict, max_attempts: int = 2,
                     *, sleep=time.sleep) -> tuple:
    """Answer one tool call (valid or invalid) with exactly one ToolMessage, by the course's policy.

    Returns (message, uncertain): uncertain is True only when a write may or may not have happened.
    """
    by_name = {t.name: t for t in tools}
    name, call_id, args = call.get("name"), call.get("id"), call.get("args")

    def error(code, message, recovery):
        return ToolError(code, message, recovery).to_tool_message(call_id, name)

    if call.get("type") == "invalid_tool_call" or not isinstance(args, dict):
        return error("json_ilegible", f"No pude leer los argumentos de {name}: no son un objeto JSON. Repite la llamada con JSON válido.",
                     "correct_arguments"), False

    def as_text(output):
        if output is None or output == "":
            return "Sin resultados: la herramienta no encontró nada."
        if isinstance(output, (dict, list)):
            return json.dumps(output, ensure_ascii=False, default=str)
        if isinstance(output, (bytes, bytearray)):
            return bytes(output).decode("utf-8", errors="replace")
        return str(output)

    def run(tool):
        """(ToolMessage, uncertain) for a call that may run."""
        is_write = bool((tool.metadata or {}).get("side_effects"))
        for attempt in range(1, max_attempts + 1):
            try:
                output = tool.invoke(args)
            except ValidationError as exc:
                fields = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in exc.errors())
                return error("argumentos_no_validos", f"{tool.name} no acepta estos argumentos ({fields}). Corrígelos y vuelve a llamarla.", "correct_arguments"), False
            except ToolException as exc:
                own = getattr(exc, "error", None)
                if isinstance(own, ToolError):       # a ToolFailure: the tool's own contract
                    return own.to_tool_message(call_id, name), False
                return error("rechazo", str(exc) or f"{tool.name} refused the call.", "choose_alternative"), False
            except Exception as exc:
                transient = (isinstance(exc, (ConnectionError, TimeoutError))
                             or getattr(exc, "status_code", None) in TRANSIENT_STATUS)
                if is_write:    # transient or unexpected: the write may have happened, so it is never repeated
                    return error("resultado_incierto", f"{tool.name} no confirmó: no sé si se hizo. No lo he repetido; pide al usuario que lo compruebe.", "stop_turn"), True
                if transient and attempt < max_attempts:
                    ceiling = min(30.0, 1.0 * 2 ** (attempt - 1))      # equal jitter
                    sleep(random.uniform(ceiling / 2, ceiling))
                    continue
                if transient:
                    return error("no_disponible", f"{tool.name} no está disponible ahora ({attempt} intentos). Vuelve a intentarlo más tarde.", "retry_later"), False
                return error("fallo_interno", f"{tool.name} falló por dentro; otros argumentos no lo arreglarán. Díselo al usuario.", "stop_turn"), False
            return ToolMessage(content=as_text(output), tool_call_id=call_id, name=name, status="success"), False
        return error("no_disponible", f"{tool.name} was not run (max_attempts is below 1).", "retry_later"), False

    key = (name, json.dumps(args, sort_keys=True, default=str))
    if name not in by_name:
        message, uncertain = error("herramienta_desconocida", f"No existe la herramienta {name!r}. Herramientas disponibles: {', '.join(by_name) or 'ninguna'}.", "choose_alternative"), False
    elif failures.get(key, 0) >= 2:
        message, uncertain = error("llamada_bloqueada", f"{name} ya falló {failures[key]} veces con estos argumentos: no repitas la llamada; cambia algo.", "choose_alternative"), False
    else:
        message, uncertain = run(by_name[name])
    if message.status == "error":
        failures[key] = failures.get(key, 0) + 1
    return message, uncertain
