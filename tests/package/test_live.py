"""toolfaults.live: the switch between scripted replay and a real model.

The LIVE path is exercised end to end against a local
:class:`~toolfaults.standin.AnthropicStandIn` (loopback only): real
``anthropic.Anthropic`` and ``ChatAnthropic`` objects, real HTTP, a dummy key.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import anthropic
import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from toolfaults import live
from toolfaults.anthropic_offline import DEFAULT_MODEL, OfflineAnthropic, error_response, text_response, tool_use_response
from toolfaults.catalog import weather_tool
from toolfaults.models import ScriptedChatModel
from toolfaults.standin import REDACTED, AnthropicStandIn

SECRET = "sk-ant-api03-NEVER-PRINT-ME-0123456789"
ENV_VARS = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_API_URL",
    "TOOLFAULTS_MODE",
    "LANGSMITH_GATEWAY",
)
USER = [{"role": "user", "content": "Weather in Madrid?"}]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No key, no base URL, no forced mode: each test sets what it needs."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.fixture
def standin_live(clean_env: pytest.MonkeyPatch) -> Iterator[AnthropicStandIn]:
    """A running stand-in, with the environment in LIVE mode pointing at it."""
    with AnthropicStandIn() as api:
        clean_env.setenv("ANTHROPIC_API_KEY", SECRET)
        clean_env.setenv("ANTHROPIC_BASE_URL", api.url)
        yield api


# -- the switch --------------------------------------------------------------


def test_offline_without_key(clean_env: pytest.MonkeyPatch) -> None:
    assert live.live_mode() is False
    assert live.describe_mode().startswith("OFFLINE: scripted replay")
    assert "ANTHROPIC_API_KEY" in live.describe_mode()  # says how to go live


@pytest.mark.parametrize("blank", ["", "   ", "\n"])
def test_blank_key_is_no_key(clean_env: pytest.MonkeyPatch, blank: str) -> None:
    clean_env.setenv("ANTHROPIC_API_KEY", blank)
    assert live.live_mode() is False
    assert live.describe_mode().startswith("OFFLINE: scripted replay")


def test_live_with_key(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("ANTHROPIC_API_KEY", SECRET)
    assert live.live_mode() is True
    text = live.describe_mode()
    assert text.startswith("LIVE") and "real Anthropic API" in text and DEFAULT_MODEL in text
    assert SECRET not in text and "NEVER" not in text


@pytest.mark.parametrize("value", ["offline", "OFFLINE", " Offline "])
def test_toolfaults_mode_offline_forces_replay(clean_env: pytest.MonkeyPatch, value: str) -> None:
    clean_env.setenv("ANTHROPIC_API_KEY", SECRET)
    clean_env.setenv("TOOLFAULTS_MODE", value)
    assert live.live_mode() is False
    text = live.describe_mode()
    assert text.startswith("OFFLINE (forced by TOOLFAULTS_MODE=offline)")
    assert SECRET not in text
    assert isinstance(live.anthropic_client([text_response("x")]), OfflineAnthropic)
    assert isinstance(live.chat_model(["x"]), ScriptedChatModel)


def test_other_mode_values_do_not_force_replay(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("ANTHROPIC_API_KEY", SECRET)
    clean_env.setenv("TOOLFAULTS_MODE", "live")
    assert live.live_mode() is True


def test_offline_factories_replay_the_script(clean_env: pytest.MonkeyPatch) -> None:
    client = live.anthropic_client([text_response("scripted")], max_retries=0)
    assert isinstance(client, OfflineAnthropic) and client.max_retries == 0
    reply = client.messages.create(model=DEFAULT_MODEL, max_tokens=16, messages=USER)
    assert reply.content[0].text == "scripted"
    model = live.chat_model(["scripted answer"])
    assert isinstance(model, ScriptedChatModel)
    assert model.invoke("hi").content == "scripted answer"


def test_test_suite_runs_offline_by_default() -> None:
    # tests/conftest.py forces replay for the whole suite, even with a developer's key.
    assert os.environ.get("TOOLFAULTS_MODE") == "offline"
    assert live.live_mode() is False


def test_base_url_precedence(clean_env: pytest.MonkeyPatch) -> None:
    assert live.base_url() is None
    clean_env.setenv("ANTHROPIC_API_URL", "http://127.0.0.1:1111")
    assert live.base_url() == "http://127.0.0.1:1111"
    clean_env.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:2222")
    assert live.base_url() == "http://127.0.0.1:2222"


def test_describe_mode_shows_custom_url_without_credentials(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("ANTHROPIC_API_KEY", SECRET)
    clean_env.setenv("ANTHROPIC_BASE_URL", "http://user:hunter2@127.0.0.1:8123/proxy?token=abc#frag")
    text = live.describe_mode()
    assert "http://127.0.0.1:8123/proxy" in text
    assert "hunter2" not in text and "token" not in text and "user" not in text and SECRET not in text


# -- the LIVE path against the stand-in ----------------------------------------


def test_live_anthropic_client_reaches_the_standin(standin_live: AnthropicStandIn, capsys) -> None:
    api = standin_live
    api.script.extend([tool_use_response("get_weather", {"city": "Madrid"}, id="toolu_9"), text_response("Sunny.")])
    client = live.anthropic_client([text_response("ignored offline script")], sleep=print, max_retries=0)
    assert type(client) is anthropic.Anthropic  # the real client, not the offline one
    assert str(client.base_url).rstrip("/") == api.url
    first = client.messages.create(model=DEFAULT_MODEL, max_tokens=64, messages=USER)
    assert first.content[0].name == "get_weather" and first.content[0].id == "toolu_9"
    result = {"type": "tool_result", "tool_use_id": "toolu_9", "content": "weather API down", "is_error": True}
    history = [
        *USER,
        {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
        {"role": "user", "content": [result]},
    ]
    second = client.messages.create(model=DEFAULT_MODEL, max_tokens=64, messages=history)
    assert second.content[0].text == "Sunny."
    assert len(api.requests) == 2
    assert api.last_request["messages"][-1] == {"role": "user", "content": [result]}
    # the key was sent, and recorded only as redacted
    sent_auth = [h.get("authorization") or h.get("x-api-key") for h in api.headers]
    assert sent_auth == [REDACTED, REDACTED]
    printed = capsys.readouterr()
    assert SECRET not in printed.out + printed.err
    for text in (repr(client), repr(api), str(api.headers), str(api.requests), live.describe_mode()):
        assert SECRET not in text


def test_live_describe_mode_names_the_standin(standin_live: AnthropicStandIn) -> None:
    text = live.describe_mode()
    assert text.startswith("LIVE") and standin_live.url in text and SECRET not in text


def test_live_rate_limit_without_retries_raises_sdk_error(standin_live: AnthropicStandIn) -> None:
    standin_live.script.append(error_response(429, "slow down", retry_after=3))
    client = live.anthropic_client(max_retries=0)
    with pytest.raises(anthropic.RateLimitError) as info:
        client.messages.create(model=DEFAULT_MODEL, max_tokens=16, messages=USER)
    assert info.value.status_code == 429
    assert info.value.response.headers["retry-after"] == "3"
    assert len(standin_live.requests) == 1


def test_live_chat_model_tool_call_round_trip(standin_live: AnthropicStandIn) -> None:
    from langchain_anthropic import ChatAnthropic

    api = standin_live
    api.script.extend(
        [
            tool_use_response("get_weather", {"city": "Atlantis"}, id="toolu_42"),
            text_response("I could not find Atlantis; known cities are Madrid, Tokyo and others."),
        ]
    )
    model = live.chat_model(["ignored offline script"], max_retries=0)
    assert isinstance(model, ChatAnthropic)
    assert model.model == DEFAULT_MODEL
    assert SECRET not in repr(model) and SECRET not in str(model)

    tool = weather_tool()
    tool.handle_tool_error = True
    bound = model.bind_tools([tool])
    messages = [HumanMessage("Weather in Atlantis?")]
    reply = bound.invoke(messages)
    assert isinstance(reply, AIMessage)
    assert reply.tool_calls == [{"name": "get_weather", "args": {"city": "Atlantis"}, "id": "toolu_42", "type": "tool_call"}]
    assert api.requests[0]["model"] == DEFAULT_MODEL
    assert api.requests[0]["tools"][0]["name"] == "get_weather"
    assert api.requests[0]["messages"] == [{"role": "user", "content": "Weather in Atlantis?"}]

    result = tool.invoke(reply.tool_calls[0])
    assert isinstance(result, ToolMessage) and result.status == "error"
    final = bound.invoke([*messages, reply, result])
    assert final.content.startswith("I could not find Atlantis")
    tool_result = api.last_request["messages"][-1]["content"][0]
    assert tool_result["type"] == "tool_result" and tool_result["tool_use_id"] == "toolu_42"
    assert tool_result["is_error"] is True
    assert "Atlantis" in str(tool_result["content"])
    assert len(api.requests) == 2


def test_chat_model_follows_anthropic_base_url_over_api_url(standin_live: AnthropicStandIn, clean_env) -> None:
    # langchain-anthropic alone would prefer ANTHROPIC_API_URL; the course's switch
    # sends both clients to ANTHROPIC_BASE_URL. Port 9 (discard) is never answered.
    clean_env.setenv("ANTHROPIC_API_URL", "http://127.0.0.1:9")
    standin_live.script.append(text_response("from the stand-in"))
    model = live.chat_model(max_retries=0)
    assert model.invoke("hi").content == "from the stand-in"


def test_chat_model_with_only_api_url(clean_env: pytest.MonkeyPatch) -> None:
    with AnthropicStandIn([text_response("via API_URL"), text_response("client too")]) as api:
        clean_env.setenv("ANTHROPIC_API_KEY", SECRET)
        clean_env.setenv("ANTHROPIC_API_URL", api.url)
        assert live.chat_model(max_retries=0).invoke("hi").content == "via API_URL"
        client = live.anthropic_client(max_retries=0)
        assert client.messages.create(model=DEFAULT_MODEL, max_tokens=8, messages=USER).content[0].text == "client too"


def test_live_environment_switches_and_restores(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("TOOLFAULTS_MODE", "offline")
    clean_env.setenv("ANTHROPIC_API_URL", "http://example.invalid")
    before = {name: os.environ.get(name) for name in ENV_VARS}
    with AnthropicStandIn([text_response("hello")]) as api:
        with api.live_environment() as same:
            assert same is api
            assert live.live_mode() is True
            assert os.environ["ANTHROPIC_BASE_URL"] == api.url == os.environ["ANTHROPIC_API_URL"]
            assert "TOOLFAULTS_MODE" not in os.environ
            client = live.anthropic_client(max_retries=0)
            assert client.messages.create(model=DEFAULT_MODEL, max_tokens=8, messages=USER).content[0].text == "hello"
        assert {name: os.environ.get(name) for name in ENV_VARS} == before
    assert live.live_mode() is False
