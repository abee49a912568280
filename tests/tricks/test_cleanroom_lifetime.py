"""The clean room never outlives the grader that started it.

A grading worker stopped at its time limit, or a test run interrupted, must not leave a
submission's endless loop running: the runner is killed with its parent process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import psutil

PARENT = textwrap.dedent("""
    import sys
    from pathlib import Path
    from autograder import cleanroom

    cells = [{"kind": "answer", "id": "answer", "source": "while True:\\n    pass\\n"},
             {"kind": "test", "id": "test_0", "source": "assert True"}]
    options = cleanroom.Settings(sandboxed=False, cell_timeout=600, notebook_timeout=600)
    print("started", flush=True)
    cleanroom.run(cells, Path(sys.argv[1]), options)
""")


def test_the_runner_dies_with_the_process_that_started_it(tmp_path):
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        assert parent.stdout.readline().strip() == "started"
        me = psutil.Process(parent.pid)
        runner = None
        for _ in range(600):  # until the runner has started (bounded: about 60 s)
            children = me.children()
            if children:
                runner = children[0]
                break
            psutil.wait_procs([me], timeout=0.1)
        assert runner is not None, "the clean room did not start"
        for _ in range(600):  # until it runs the endless cell (it has read its plan): a second of CPU
            if sum(runner.cpu_times()[:2]) > 1.0:
                break
            psutil.wait_procs([runner], timeout=0.1)
        assert runner.is_running(), "the clean room stopped before running the endless cell"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        gone, alive = psutil.wait_procs([runner], timeout=30)
        assert runner in gone, "the clean-room runner kept running after its parent was killed"
    finally:
        if parent.poll() is None:
            parent.kill()
        for p in psutil.Process().children(recursive=True):
            if p.pid != parent.pid and "clean-room" in " ".join(p.cmdline())[:200]:
                p.kill()
