"""toolfaults.standin.AnthropicStandIn: a local Messages API on loopback."""

from __future__ import annotations

import json
import threading
from typing import Any

import anthropic
import httpx2
import pytest

from toolfaults.anthropic_offline import DEFAULT_MODEL, error_response, text_response, tool_use_response
from toolfaults.standin import MESSAGES_PATH, REDACTED, AnthropicStandIn

USER = [{"role": "user", "content": "Hi"}]


def client_for(api: AnthropicStandIn, **kw: Any) -> anthropic.Anthropic:
    kw.setdefault("max_retries", 0)
    return anthropic.Anthropic(api_key="dummy-standin-key", base_url=api.url, **kw)


def create(client: anthropic.Anthropic, messages: list[dict[str, Any]] = USER) -> Any:
    return client.messages.create(model=DEFAULT_MODEL, max_tokens=32, messages=messages)


@pytest.fixture
def http() -> httpx2.Client:
    with httpx2.Client(trust_env=False, timeout=5) as client:
        yield client


def test_context_manager_serves_on_loopback_and_stops() -> None:
    api = AnthropicStandIn([text_response("hello")])
    assert not api.running
    with pytest.raises(RuntimeError, match="not running"):
        _ = api.url
    with api as same:
        assert same is api and api.running
        assert api.url.startswith("http://127.0.0.1:") and api.port > 0
        assert create(client_for(api)).content[0].text == "hello"
        thread = api._thread
    assert not api.running and thread is not None and not thread.is_alive()
    api.stop()  # a second stop is harmless


def test_two_standins_get_different_ports() -> None:
    with AnthropicStandIn() as one, AnthropicStandIn() as two:
        assert one.port != two.port


def test_start_twice_is_an_error() -> None:
    api = AnthropicStandIn().start()
    try:
        with pytest.raises(RuntimeError, match="already running"):
            api.start()
    finally:
        api.stop()


def test_only_loopback_hosts() -> None:
    with pytest.raises(ValueError, match="loopback"):
        AnthropicStandIn(host="0.0.0.0")


def test_records_bodies_and_redacts_credentials() -> None:
    script = [tool_use_response("get_weather", {"city": "Oslo"}, id="toolu_1"), text_response("Cold.")]
    with AnthropicStandIn(script) as api:
        client = client_for(api)
        first = create(client)
        assert first.stop_reason == "tool_use" and first.content[0].input == {"city": "Oslo"}
        assert api.remaining == 1
        second = create(client, [{"role": "user", "content": "and now?"}])
        assert second.content[0].text == "Cold."
    assert [r["messages"][0]["content"] for r in api.requests] == ["Hi", "and now?"]
    assert api.last_request["model"] == DEFAULT_MODEL
    assert api.paths == [MESSAGES_PATH, MESSAGES_PATH]
    assert api.remaining == 0
    for headers in api.headers:
        credentials = {k: v for k, v in headers.items() if k in ("authorization", "x-api-key")}
        assert credentials and set(credentials.values()) == {REDACTED}
        assert "dummy-standin-key" not in json.dumps(headers)
        assert headers["content-type"] == "application/json"


def test_error_entries_reach_the_sdk_as_its_exceptions() -> None:
    with AnthropicStandIn([error_response(529), error_response(400, "max_tokens: required")]) as api:
        client = client_for(api)
        with pytest.raises(anthropic.OverloadedError) as info:
            create(client)
        assert info.value.status_code == 529 and info.value.body["error"]["type"] == "overloaded_error"
        with pytest.raises(anthropic.BadRequestError, match="max_tokens: required"):
            create(client)
    assert len(api.requests) == 2


def test_exhausted_script_fails_clearly_and_is_not_retried() -> None:
    with AnthropicStandIn([]) as api:
        client = client_for(api, max_retries=3)  # x-should-retry: false, so no real waiting
        with pytest.raises(anthropic.InternalServerError) as info:
            create(client)
    assert "AnthropicStandIn script exhausted" in str(info.value) and "request 1" in str(info.value)
    assert len(api.requests) == 1


def test_callable_entry_gets_the_request_body() -> None:
    def echo(body: dict[str, Any]) -> dict[str, Any]:
        return text_response(f"echo: {body['messages'][-1]['content']}")

    with AnthropicStandIn([echo]) as api:
        assert create(client_for(api)).content[0].text == "echo: Hi"


def test_broken_callable_entry_is_reported_as_500() -> None:
    with AnthropicStandIn([lambda body: 1 / 0]) as api:
        with pytest.raises(anthropic.InternalServerError, match="stand-in script entry failed"):
            create(client_for(api, max_retries=2))
    assert len(api.requests) == 1


def test_other_paths_methods_and_bad_bodies(http: httpx2.Client) -> None:
    with AnthropicStandIn([text_response("kept")]) as api:
        missing = http.post(f"{api.url}/v1/complete", json={})
        assert missing.status_code == 404 and MESSAGES_PATH in missing.json()["error"]["message"]
        assert http.get(f"{api.url}{MESSAGES_PATH}").status_code == 405
        bad = http.post(f"{api.url}{MESSAGES_PATH}", content=b"{not json", headers={"content-type": "application/json"})
        assert bad.status_code == 400 and bad.json()["error"]["type"] == "invalid_request_error"
        stream = http.post(f"{api.url}{MESSAGES_PATH}", json={"stream": True, "messages": []})
        assert stream.status_code == 400 and "streaming" in stream.json()["error"]["message"]
        assert api.requests == [] and api.remaining == 1  # none of these used up the script
        ok = http.post(f"{api.url}{MESSAGES_PATH}?beta=true", json={"messages": []})
        assert ok.status_code == 200 and ok.json()["content"][0]["text"] == "kept"
        assert ok.headers["request-id"].startswith("req_standin_")
    assert api.paths[0] == "/v1/complete" and len(api.paths) == 5


def test_concurrent_requests_are_all_answered_and_recorded(http: httpx2.Client) -> None:
    n = 8
    with AnthropicStandIn([lambda body: text_response(str(body["i"]))] * n) as api:
        answers: list[str] = []
        lock = threading.Lock()

        def worker(i: int) -> None:
            with httpx2.Client(trust_env=False, timeout=5) as own:
                text = own.post(f"{api.url}{MESSAGES_PATH}", json={"i": i}).json()["content"][0]["text"]
            with lock:
                answers.append(text)

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=10)
    assert sorted(answers, key=int) == [str(i) for i in range(n)]
    assert sorted(r["i"] for r in api.requests) == list(range(n))


def test_last_request_and_repr() -> None:
    api = AnthropicStandIn([text_response("x")])
    with pytest.raises(LookupError):
        _ = api.last_request
    assert repr(api) == "AnthropicStandIn(stopped, requests=0, script=1)"
    with api:
        assert api.url in repr(api)
