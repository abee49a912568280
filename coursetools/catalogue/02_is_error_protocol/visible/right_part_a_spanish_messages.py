# cell: answer_tool_calls_answer
# mistake: none: messages in Spanish, tools looked up in a loop, invalid calls first collected then appended
def answer_tool_calls(response, tools):
    names = [t.name for t in tools]
    out = []
    for call in response.tool_calls:
        tool = next((t for t in tools if t.name == call["name"]), None)
        if tool is None:
            out.append(ToolMessage(content=f"La herramienta {call['name']} no existe; usa {', '.join(names)}.", tool_call_id=call["id"], status="error"))
        else:
            try:
                out.append(ToolMessage(content=result_text(tool.invoke(call["args"])), tool_call_id=call["id"], status="success"))
            except Exception:
                out.append(ToolMessage(content=f"{call['name']} falló; prueba otra cosa.", tool_call_id=call["id"], status="error"))
    unreadable = [ToolMessage(content=f"No pude leer los argumentos de {c['name']}: no son JSON.", tool_call_id=c["id"], status="error")
                  for c in response.invalid_tool_calls]
    return out + unreadable
