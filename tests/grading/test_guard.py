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
}

SCRIPT = r"""
import json, sys
from autograder.guard import check_in_process

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
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(PATCHES)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["pristine"] == "" and found["pristine_again"] == "", found
    missed = [name for name in PATCHES if not found[name].startswith(guard.TAMPERED)]
    assert not missed, f"patches the check did not catch: {missed}"
    assert "RecordingSleep.__call__ was replaced" in found["sleep_call"]
    assert "sys.modules['toolfaults.clock'] was replaced" in found["fake_module"]


def test_wrap_and_unwrap_restore_the_test_source():
    source = '"""A docstring."""\nassert 1 == 1, "fine"'
    wrapped = guard.wrap_test(source, guard.check_code())
    assert wrapped.count(guard.BEGIN) == 2 and source in wrapped
    assert guard.unwrap_test(wrapped) == source
