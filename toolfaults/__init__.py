"""toolfaults: mocked tools that fail on purpose, scripted models, a sleep that never waits.

The helper package of the course on error handling in LLM tool calling. Import
what you need from its modules explicitly::

    from toolfaults.tools import flaky_tool, rate_limited_tool
    from toolfaults.models import ScriptedChatModel, ai, tool_call
    from toolfaults.clock import RecordingSleep
    from toolfaults.anthropic_offline import OfflineAnthropic
    from toolfaults.errors import RateLimitError
    from toolfaults.catalog import weather_tool, Source
    from toolfaults.live import chat_model, anthropic_client, describe_mode
    from toolfaults.contract import ToolError, ToolFailure

Everything runs offline and deterministically. :mod:`toolfaults.live` switches
to a real model when ``ANTHROPIC_API_KEY`` is set, and
:class:`toolfaults.standin.AnthropicStandIn` (a local stand-in for the Messages
API) lets that live path be tested without a network or a key.
"""

__version__ = "0.1.0"
