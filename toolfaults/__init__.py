"""toolfaults: mocked tools that fail on purpose, scripted models, a sleep that never waits.

The helper package of the course on error handling in LLM tool calling. Import
what you need from its modules explicitly::

    from toolfaults.tools import flaky_tool, rate_limited_tool
    from toolfaults.models import ScriptedChatModel, ai, tool_call
    from toolfaults.clock import RecordingSleep
    from toolfaults.anthropic_offline import OfflineAnthropic
    from toolfaults.errors import RateLimitError

Everything runs offline and deterministically.
"""

__version__ = "0.1.0"
