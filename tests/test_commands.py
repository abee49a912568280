"""Every `python -m autograder.<module>` command answers --help with its usage and changes nothing.

A command that ignores its arguments does whatever it does by default when someone only
asks what it does: rebuild the sample class, run a proof for minutes, or write settings
into a folder named ``--help``. The commands are found, not listed: every module of the
package that runs as a script.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.course import ROOT

PACKAGE = ROOT / "autograder"
# Not a command: the clean room's own process, started by the grader with its payload on stdin.
NOT_COMMANDS = {"autograder.cleanroom_runner"}
# Not the checkout's own content: git, caches, and artifacts/ (what the running tests write: `make test`'s lane logs grow
# while this test runs in the main lane).
SKIPPED_DIRS = {".git", "__pycache__", ".ipynb_checkpoints", "node_modules", ".pytest_cache", "artifacts"}


def commands() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if 'if __name__ == "__main__"' in path.read_text(encoding="utf-8"):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if module not in NOT_COMMANDS:
                found.append(module)
    return found


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file of the checkout (virtual environments and caches aside): its size and modification time."""
    seen = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".venv")]
        for name in files:
            path = Path(folder, name)
            try:
                st = path.stat()
            except OSError:
                continue
            seen[str(path.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return seen


def test_the_commands_are_found():
    found = commands()
    assert {"autograder.grade", "autograder.sample_class", "autograder.release", "autograder.labsettings",
            "autograder.lms.collect"} <= set(found), found


@pytest.mark.parametrize("module", commands())
def test_help_prints_usage_and_changes_nothing(module, tmp_path):
    before = snapshot(ROOT)
    done = subprocess.run([sys.executable, "-m", module, "--help"], cwd=tmp_path, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 0, f"`python -m {module} --help` exited {done.returncode}:\n{done.stdout}{done.stderr}"
    assert done.stdout.lstrip().startswith("usage:"), f"`python -m {module} --help` printed no usage:\n{done.stdout}"
    assert not list(tmp_path.iterdir()), f"`--help` wrote into the working folder: {list(tmp_path.iterdir())}"
    after = snapshot(ROOT)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed, f"`python -m {module} --help` changed the checkout: {changed[:10]}"


@pytest.mark.parametrize("module", ["autograder.sample_class", "autograder.release", "autograder.labsettings"])
def test_an_unknown_option_is_refused(module, tmp_path):
    done = subprocess.run([sys.executable, "-m", module, "--no-such-option"], cwd=tmp_path, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2 and "unrecognized arguments: --no-such-option" in done.stderr, done.stderr
    assert not list(tmp_path.iterdir())
