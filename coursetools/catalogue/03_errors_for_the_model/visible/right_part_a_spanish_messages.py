# cell: to_contract_answer
# mistake: none: messages in Spanish, field names from each error's loc
def to_contract(failure, tool_name):
    status = getattr(failure, "status_code", None)
    if isinstance(failure, ValidationError):
        campos = ", ".join(dict.fromkeys(str(e["loc"][-1]) for e in failure.errors()))
        return ToolError("argumentos_no_validos", f"{tool_name} rechazó los argumentos: corrige {campos}.", "correct_arguments")
    if isinstance(failure, ToolFailure):
        return failure.error
    if isinstance(failure, ToolException):
        return ToolError("rechazo_de_la_herramienta", f"{tool_name}: {failure}", "choose_alternative")
    if isinstance(failure, (ConnectionError, TimeoutError)) or status in {408, 429, 500, 502, 503, 504, 529}:
        return ToolError("no_disponible", f"{tool_name} no está disponible ahora; inténtalo más tarde.", "retry_later")
    if isinstance(status, int):
        return ToolError("rechazo_del_servicio", f"{tool_name} no puede hacer esto; avisa al usuario.", "stop_turn")
    return ToolError("error_interno", f"Error interno en {tool_name}. No es un problema de tus argumentos: otros valores no ayudarán.", "stop_turn")
