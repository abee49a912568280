"""The clean room never outlives the grader that started it.

A grading worker stopped at its time limit, or a test run interrupted, must not leave a
submission's endless loop running: the clean-room process is killed with its parent
process, and the run it forked with it.
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
        busy = None
        for _ in range(1200):  # until a process under it (the run, forked by the clean-room process) runs the endless cell
            for proc in me.children(recursive=True):
                try:
                    if sum(proc.cpu_times()[:2]) > 1.0:
                        busy = proc
                except psutil.NoSuchProcess:
                    pass
            if busy is not None:
                break
            psutil.wait_procs([me], timeout=0.1)
        assert busy is not None, "the clean room did not start, or stopped before running the endless cell"
        started = me.children(recursive=True)
        assert len(started) == 2, f"expected the clean-room process and its run, found {started}"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        gone, alive = psutil.wait_procs(started, timeout=30)
        assert not alive, f"the clean room kept running after its parent was killed: {alive}"
    finally:
        if parent.poll() is None:
            parent.kill()
        for p in psutil.Process().children(recursive=True):
            try:
                if p.pid != parent.pid and "clean-room" in " ".join(p.cmdline())[:200]:
                    p.kill()
            except psutil.Error:  # gone, or a zombie another test has not reaped yet
                pass
