"""The helper-package check: silent on the pristine package, loud on every kind of patch.

Runs the check in a separate Python process (the patches must not leak into the test
process), applying one patch at a time and re-importing the package in between.
"""

from __future__ import annotations

import json
import subprocess
import sys

from autograder import guard
from autograder.course import ROOT

PATCHES = {
    "sleep_call": "from toolfaults.clock import RecordingSleep\nRecordingSleep.__call__ = lambda self, s: None",
    "sleep_property": "from toolfaults.clock import RecordingSleep\nRecordingSleep.calls = property(lambda self: 2)",
    "tool_run": "from toolfaults.tools import MockTool\nfrom langchain_core.tools import StructuredTool\n"
                "MockTool._run = StructuredTool._run",
    "tool_added_method": "from toolfaults.tools import MockTool\nMockTool.invoke = lambda self, *a, **k: 'ok'",
    "factory": "import toolfaults.tools\ntoolfaults.tools.flaky_tool = lambda *a, **k: None",
    "class_replaced": "import toolfaults.clock\ntoolfaults.clock.RecordingSleep = type('RecordingSleep', (), {})",
    "method_removed": "from toolfaults.clock import RecordingSleep\ndel RecordingSleep.total",
    "fake_module": "import sys, types\nsys.modules['toolfaults.clock'] = types.ModuleType('toolfaults.clock')",
    "base_class": "from langchain_core.tools import StructuredTool\nStructuredTool._run = lambda *a, **k: 'ok'",
    "model": "from toolfaults.models import ScriptedChatModel\nScriptedChatModel._generate = lambda *a, **k: None",
    # methods a class decorator made (@dataclass): the grader fingerprints them too, so a replacement is caught
    "dataclass_init": "from toolfaults.contract import ToolError\nToolError.__init__ = lambda self, *a, **k: None",
    "dataclass_eq": "from toolfaults.contract import ToolError\nToolError.__eq__ = lambda self, other: True",
    "dataclass_other_init": "from dataclasses import dataclass\nfrom toolfaults.contract import ToolError\n"
                            "@dataclass\nclass Loose:\n    code: str\n    message: str\n    recovery: str\n"
                            "ToolError.__init__ = Loose.__init__",
}

# What a learner does with the helper package as the lessons teach it: never tampering (issue 44). Each runs in
# a fresh state (the package's modules not imported yet), so every module below is imported for the first time.
HONEST = {
    **{f"first_import_{m}": f"import toolfaults.{m}" for m in (
        "anthropic_offline", "backoff", "catalog", "clock", "contract", "errors", "idempotency", "language", "live",
        "models", "plain", "policy", "progress", "quiz", "standin", "tools")},
    "from_import": "from toolfaults.contract import ToolError, ToolFailure\nfrom toolfaults.backoff import next_delay",
    "import_as": "import toolfaults.contract as c\nimport toolfaults.backoff as b\nc.ToolError('x', 'y', 'stop_turn')",
    "star": "from toolfaults.contract import *\nfrom toolfaults.backoff import *\nfrom toolfaults.policy import *",
    "importlib": "import importlib\nimportlib.import_module('toolfaults.contract')\nimportlib.import_module('toolfaults.quiz')",
    "package_from": "from toolfaults import contract, backoff, policy, idempotency",
    "dataclass_on_helper": "from dataclasses import dataclass\nfrom toolfaults.contract import ToolError\n"
                           "@dataclass(frozen=True)\nclass FieldError(ToolError):\n    field: str = ''\n"
                           "FieldError('bad', 'Bad field.', 'correct_arguments', field='x').to_json()",
    "subclass_tool_error": "from toolfaults.contract import ToolError, ToolFailure\nclass Mine(ToolError):\n    pass\n"
                           "raise_it = ToolFailure(Mine('a', 'b', 'stop_turn'))",
    "subclass_mock_tool": "from toolfaults.tools import MockTool, flaky_tool\nclass Counting(MockTool):\n    pass\n"
                          "flaky_tool(failures=1).invoke({'query': 'x'}) if False else None",
    "use_the_helpers": "from toolfaults.backoff import simulate, equal_jitter\nfrom toolfaults.contract import ToolError\n"
                       "simulate(20, 'equal')\nequal_jitter(2)\nToolError('a', 'b', 'stop_turn') == "
                       "ToolError('a', 'b', 'stop_turn')\nhash(ToolError('a', 'b', 'stop_turn'))",
    "reload": "import importlib, toolfaults.contract\nimportlib.reload(toolfaults.contract)",
}

SCRIPT = r"""
import json, sys
from autograder import guard

def check_in_process():  # the helper-package check, run here as a test cell runs it (AssertionError: changed)
    exec(compile(guard.check_code(), guard.__file__, "exec"), {})

def fresh():
    for name in list(sys.modules):
        if name.startswith(("toolfaults", "langchain_core")):
            del sys.modules[name]
    import toolfaults.tools, toolfaults.clock, toolfaults.models, toolfaults.catalog, toolfaults.errors  # noqa

def check():
    try:
        check_in_process()
        return ""
    except AssertionError as err:
        return str(err)

patches = json.loads(sys.argv[1])
out = {}
for name, code in json.loads(sys.argv[2]).items():
    for module in [m for m in sys.modules if m.startswith("toolfaults")]:
        del sys.modules[module]
    exec(code, {})
    out["honest:" + name] = check()
fresh()
out["pristine"] = check()
for name, code in patches.items():
    fresh()
    exec(code, {})
    out[name] = check()
fresh()
out["pristine_again"] = check()
print(json.dumps(out))
"""


def test_check_passes_untouched_and_catches_every_patch():
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(PATCHES), json.dumps(HONEST)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["pristine"] == "" and found["pristine_again"] == "", found
    missed = [name for name in PATCHES if not found[name].startswith(guard.TAMPERED)]
    assert not missed, f"patches the check did not catch: {missed}"
    assert "RecordingSleep.__call__ was replaced" in found["sleep_call"]
    assert "sys.modules['toolfaults.clock'] was replaced" in found["fake_module"]
    flagged = {name: found[f"honest:{name}"] for name in HONEST if found[f"honest:{name}"]}
    assert not flagged, f"importing or using the helper package as the lessons do was taken for tampering: {flagged}"


def test_wrap_and_unwrap_restore_the_test_source():
    source = '"""A docstring."""\nassert 1 == 1, "fine"'
    wrapped = guard.wrap_test(source, guard.check_code())
    assert wrapped.count(guard.BEGIN) == 2 and source in wrapped
    assert guard.unwrap_test(wrapped) == source
