"""toolfaults.anthropic_offline: the real anthropic SDK answering from a script."""

from __future__ import annotations

from typing import Any

import anthropic
import httpx2
import pytest

from toolfaults.anthropic_offline import (
    DEFAULT_MODEL,
    OfflineAnthropic,
    error_response,
    scripted_answer,
    text_response,
    tool_use_response,
)
from toolfaults.clock import RecordingSleep

USER = [{"role": "user", "content": "Weather in Madrid?"}]
TOOLS = [
    {
        "name": "get_weather",
        "description": "Get the current weather for a city.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    }
]


def create(client: anthropic.Anthropic, messages: list[dict[str, Any]] = USER, **kw: Any) -> Any:
    return client.messages.create(model=DEFAULT_MODEL, max_tokens=256, messages=messages, **kw)


def test_is_a_real_anthropic_client() -> None:
    client = OfflineAnthropic()
    assert isinstance(client, anthropic.Anthropic)
    assert isinstance(client.sleep, RecordingSleep)
    assert client.max_retries == 2


def test_tool_use_round_trip_with_is_error_tool_result(no_real_sleep: None) -> None:
    client = OfflineAnthropic(
        [
            tool_use_response("get_weather", {"city": "Madrid"}, id="toolu_01", text="Let me check."),
            text_response("The weather service is down; please try again later."),
        ]
    )
    first = create(client, tools=TOOLS)
    assert isinstance(first, anthropic.types.Message)
    assert first.stop_reason == "tool_use"
    assert first.content[0].type == "text" and first.content[0].text == "Let me check."
    use = first.content[1]
    assert (use.type, use.id, use.name, use.input) == ("tool_use", "toolu_01", "get_weather", {"city": "Madrid"})
    assert client.requests[0]["tools"] == TOOLS
    assert client.requests[0]["messages"] == USER

    tool_result = {
        "type": "tool_result",
        "tool_use_id": "toolu_01",
        "content": "Weather service unavailable (HTTP 503). Retry later.",
        "is_error": True,
    }
    history = [
        *USER,
        {"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in first.content]},
        {"role": "user", "content": [tool_result]},
    ]
    second = create(client, history, tools=TOOLS)
    assert second.stop_reason == "end_turn"
    assert second.content[0].text.startswith("The weather service is down")
    sent = client.last_request
    assert sent is client.requests[1] and len(client.requests) == 2
    assert sent["messages"][-1] == {"role": "user", "content": [tool_result]}
    assert sent["messages"][-1]["content"][0]["is_error"] is True
    assert sent["messages"][1]["content"][1]["type"] == "tool_use"
    assert sent["model"] == DEFAULT_MODEL and sent["max_tokens"] == 256
    assert client.sleep.calls == 0


def test_parallel_tool_calls_with_more() -> None:
    body = tool_use_response("get_weather", {"city": "Madrid"}, id="toolu_a", more=[("get_weather", {"city": "Tokyo"})])
    client = OfflineAnthropic([body])
    msg = create(client)
    uses = [b for b in msg.content if b.type == "tool_use"]
    assert [u.input["city"] for u in uses] == ["Madrid", "Tokyo"]
    assert uses[0].id == "toolu_a" and uses[1].id != "toolu_a" and uses[1].id.startswith("toolu_")


def test_429_and_529_are_retried_through_injected_sleep(no_real_sleep: None) -> None:
    client = OfflineAnthropic([error_response(429, retry_after=7), error_response(529), text_response("finally")])
    msg = create(client)
    assert msg.content[0].text == "finally"
    assert len(client.requests) == 3
    assert client.sleep.calls == 2
    assert client.sleep.delays[0] == 7.0  # retry-after wins over the SDK's backoff
    # the SDK's own backoff before its second retry: 0.5 * 2**1 s minus up to 25 % jitter
    assert 0.75 <= client.sleep.delays[1] <= 1.0


def test_long_retry_after_costs_no_time(no_real_sleep: None) -> None:
    sleep = RecordingSleep()
    client = OfflineAnthropic([error_response(429, retry_after=30), text_response("ok")], sleep=sleep)
    assert create(client).content[0].text == "ok"
    assert client.sleep is sleep and sleep.delays == [30.0]


def test_max_retries_zero_raises_rate_limit_error(no_real_sleep: None) -> None:
    client = OfflineAnthropic([error_response(429, "slow down", retry_after=5), text_response("never")], max_retries=0)
    with pytest.raises(anthropic.RateLimitError) as info:
        create(client)
    err = info.value
    assert err.status_code == 429
    assert err.response.headers["retry-after"] == "5"
    assert err.body["error"]["type"] == "rate_limit_error" and "slow down" in str(err)
    assert len(client.requests) == 1 and client.sleep.calls == 0


def test_persistent_overload_raises_after_the_retry_budget(no_real_sleep: None) -> None:
    client = OfflineAnthropic([error_response(529)] * 3 + [text_response("too late")])
    with pytest.raises(anthropic.OverloadedError) as info:
        create(client)
    assert info.value.status_code == 529
    assert len(client.requests) == 3 and client.sleep.calls == 2


def test_should_retry_false_stops_sdk_retries(no_real_sleep: None) -> None:
    client = OfflineAnthropic([error_response(500, "boom", should_retry=False), text_response("x")])
    with pytest.raises(anthropic.InternalServerError, match="boom"):
        create(client)
    assert len(client.requests) == 1


def test_bad_request_is_not_retried() -> None:
    client = OfflineAnthropic([error_response(400, "messages: field required"), text_response("x")])
    with pytest.raises(anthropic.BadRequestError) as info:
        create(client)
    assert info.value.body["error"]["type"] == "invalid_request_error"
    assert len(client.requests) == 1


def test_exhausted_script_fails_clearly_without_retrying(no_real_sleep: None) -> None:
    client = OfflineAnthropic([text_response("only one")])
    create(client)
    with pytest.raises(anthropic.APIStatusError) as info:
        create(client)
    text = str(info.value)
    assert "script exhausted" in text and "request 2" in text and "only 1" in text
    assert len(client.requests) == 2 and client.sleep.calls == 0


def test_callable_entry_gets_the_request_body() -> None:
    def answer(body: dict[str, Any]) -> dict[str, Any]:
        return text_response(f"you said {body['messages'][-1]['content']!r}")

    client = OfflineAnthropic([answer, lambda body: error_response(404)], max_retries=0)
    assert create(client).content[0].text == "you said 'Weather in Madrid?'"
    with pytest.raises(anthropic.NotFoundError):
        create(client)


def test_bad_script_entry_is_reported() -> None:
    with pytest.raises(TypeError, match="script entry 0 is int"):
        scripted_answer([42], 0, {})


def test_with_options_shares_script_record_and_sleep(no_real_sleep: None) -> None:
    client = OfflineAnthropic([error_response(503), error_response(503), text_response("ok")], max_retries=0)
    patient = client.with_options(max_retries=5)
    assert patient.max_retries == 5 and client.max_retries == 0
    assert create(patient).content[0].text == "ok"
    assert len(client.requests) == 3 and patient.requests is client.requests
    assert client.sleep.calls == 2 and patient.sleep is client.sleep


def test_last_request_before_any_request() -> None:
    with pytest.raises(LookupError, match="no request"):
        _ = OfflineAnthropic().last_request


def test_error_response_headers_and_repr() -> None:
    err = error_response(429, retry_after=1.5, should_retry=True)
    assert err.headers == {"retry-after": "1.5", "x-should-retry": "true"}
    assert err.body() == {
        "type": "error",
        "error": {"type": "rate_limit_error", "message": "Number of requests has exceeded your rate limit"},
    }
    assert err.to_httpx().status_code == 429 and isinstance(err.to_httpx(), httpx2.Response)
    assert "429" in repr(err)
    assert error_response(529).body()["error"] == {"type": "overloaded_error", "message": "Overloaded"}


def test_response_builders_are_valid_messages() -> None:
    text = anthropic.types.Message.model_validate(text_response("hi", model="claude-x"))
    assert text.model == "claude-x" and text.stop_reason == "end_turn" and text.content[0].text == "hi"
    use = anthropic.types.Message.model_validate(tool_use_response("f", {"a": 1}))
    assert use.stop_reason == "tool_use" and use.content[0].input == {"a": 1}
    assert text.id != use.id


def test_key_in_offline_client_is_not_real() -> None:
    client = OfflineAnthropic()
    assert client.api_key and "offline" in client.api_key
    assert str(client.base_url).startswith("https://api.anthropic.invalid")


def test_default_model_raises_no_deprecation_warning(recwarn: pytest.WarningsRecorder) -> None:
    import warnings

    warnings.simplefilter("always")
    create(OfflineAnthropic([text_response("hi")]))
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning)], (
        f"DEFAULT_MODEL {DEFAULT_MODEL!r} is deprecated in the pinned SDK: notebooks would show a warning"
    )
