# cell: handle_tool_call_answer
# A correct alternative built from small guards and a Breaker class (as lesson 07 builds them), other codes,
# full jitter: full marks.
from collections import Counter


class Breaker:
    """Counts failures per exact call (name and arguments); blocks a call that failed twice."""

    def __init__(self, counts):
        self.counts = counts

    @staticmethod
    def key(call):
        return call["name"], json.dumps(call["args"], sort_keys=True, default=str)

    def blocked(self, call):
        return self.counts.get(self.key(call), 0) >= 2

    def record(self, call, message):
        if message.status == "error":
            self.counts[self.key(call)] = self.counts.get(self.key(call), 0) + 1


def _err(call, code, text, recovery):
    return ToolError(code, text, recovery).to_tool_message(call["id"], call.get("name"))


def _transient(exc):
    return isinstance(exc, (ConnectionError, TimeoutError)) or getattr(exc, "status_code", None) in TRANSIENT_STATUS


def _content(output):
    if output is None or output == "":
        return "Nothing found."
    if isinstance(output, (dict, list)):
        return json.dumps(output)
    if isinstance(output, bytes):
        return output.decode()
    return str(output)


def handle_tool_call(call: dict, tools: list, failures: dict, max_attempts: int = 2,
                     *, sleep=time.sleep) -> tuple:
    """Answer one tool call (valid or invalid) with exactly one ToolMessage, by the course's policy."""
    if call.get("type") == "invalid_tool_call":
        return _err(call, "unparseable_call", "Your arguments were not valid JSON; send them again.", "correct_arguments"), False
    tool = next((t for t in tools if t.name == call["name"]), None)
    breaker = Breaker(failures)
    if tool is None:
        message, uncertain = _err(call, "tool_not_found", f"{call['name']} does not exist; use one of: "
                                  + ", ".join(t.name for t in tools), "choose_alternative"), False
    elif breaker.blocked(call):
        message, uncertain = _err(call, "too_many_failures", "Twice failed: don't call it again like this.",
                                  "choose_alternative"), False
    else:
        message, uncertain = _run(call, tool, max_attempts, sleep)
    breaker.record(call, message)
    return message, uncertain


def _run(call, tool, max_attempts, sleep):
    writes = (tool.metadata or {}).get("side_effects") is True
    for attempt in range(max_attempts):
        try:
            return ToolMessage(_content(tool.invoke(call["args"])), tool_call_id=call["id"], status="success"), False
        except ValidationError as exc:
            bad = sorted({str(part) for e in exc.errors() for part in e["loc"]})
            return _err(call, "schema_rejected", "Wrong value for: " + ", ".join(bad), "correct_arguments"), False
        except ToolException as exc:
            if getattr(exc, "error", None) is not None:
                return exc.error.to_tool_message(call["id"], call["name"]), False
            return _err(call, "tool_said_no", str(exc), "choose_alternative"), False
        except Exception as exc:
            if writes:
                return _err(call, "unknown_outcome", "Not confirmed, not retried.", "stop_turn"), True
            if not _transient(exc):
                return _err(call, "tool_crashed", "Internal failure; other arguments won't help.", "stop_turn"), False
            if attempt + 1 == max_attempts:
                return _err(call, "unavailable_now", "Down for now: retry later.", "retry_later"), False
            sleep(random.uniform(0, min(20.0, 2.0 ** attempt)) + 0.01)
    return _err(call, "unavailable_now", "Not attempted.", "retry_later"), False
