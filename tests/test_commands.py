"""Every `python -m autograder.<module>` and `python -m coursetools.<module>` command answers --help with its
usage and changes nothing; the `autograder` console script runs the grader's commands only.

A command that ignores its arguments does whatever it does by default when someone only
asks what it does: rebuild the sample class, run a proof for minutes, or write settings
into a folder named ``--help``. The commands are found, not listed: every module of the
grader and of the course's own tooling that runs as a script.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.course import ROOT

PACKAGE = ROOT / "autograder"
#: The course's own tooling (not in the wheel): its commands run from the checkout.
TOOLS = ROOT / "coursetools"
# Not the checkout's own content: git, caches, and artifacts/ (what the running tests write: `make test`'s lane logs grow
# while this test runs in the main lane).
SKIPPED_DIRS = {".git", "__pycache__", ".ipynb_checkpoints", "node_modules", ".pytest_cache", "artifacts"}


def commands() -> list[str]:
    found = []
    for path in sorted([*PACKAGE.rglob("*.py"), *TOOLS.glob("*.py")]):
        if 'if __name__ == "__main__"' in path.read_text(encoding="utf-8"):
            found.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


def run_module(module: str, argument: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m module argument`` in ``cwd``; the course's tooling finds its package in the checkout (``PYTHONPATH``),
    as `make` and pytest, which run from the checkout, find it: it is not installed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", module, argument], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, env=env if module.startswith("coursetools.") else None)


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
    assert {"autograder.grade", "coursetools.sample_class", "coursetools.bench", "autograder.release",
            "autograder.labsettings", "autograder.lms.collect"} <= set(found), found


def test_the_console_script_runs_only_the_graders_own_commands(capsys):
    """Each subcommand of `autograder` (autograder/cli.py) is a module of the shipped package, so that it works
    where the wheel is installed; the benchmark, the course's own tooling, is `make bench`, not `autograder bench`."""
    from autograder.cli import COMMANDS, main

    outside = {name: module for name, (module, _) in COMMANDS.items() if not module.startswith("autograder.")}
    assert not outside, f"subcommands that run modules outside the grader's package: {outside}"
    with pytest.raises(SystemExit) as refused:
        main(["bench"])
    assert refused.value.code == 2 and "invalid choice: 'bench'" in capsys.readouterr().err
    done = subprocess.run(["make", "--no-print-directory", "-n", "bench"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "python -m coursetools.bench" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("module", commands())
def test_help_prints_usage_and_changes_nothing(module, tmp_path):
    before = snapshot(ROOT)
    done = run_module(module, "--help", tmp_path)
    assert done.returncode == 0, f"`python -m {module} --help` exited {done.returncode}:\n{done.stdout}{done.stderr}"
    assert done.stdout.lstrip().startswith("usage:"), f"`python -m {module} --help` printed no usage:\n{done.stdout}"
    assert not list(tmp_path.iterdir()), f"`--help` wrote into the working folder: {list(tmp_path.iterdir())}"
    after = snapshot(ROOT)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed, f"`python -m {module} --help` changed the checkout: {changed[:10]}"


@pytest.mark.parametrize("module", ["coursetools.sample_class", "autograder.release", "autograder.labsettings"])
def test_an_unknown_option_is_refused(module, tmp_path):
    done = run_module(module, "--no-such-option", tmp_path)
    assert done.returncode == 2 and "unrecognized arguments: --no-such-option" in done.stderr, done.stderr
    assert not list(tmp_path.iterdir())
