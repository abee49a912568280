"""Check a running Dask cluster before grading on it: can every worker grade?

    python -m autograder.checkcluster tcp://127.0.0.1:8786     # or: make check-cluster SCHEDULER=...

Asks the scheduler, then each worker, to import the grader (``autograder``, installed
in the course's venv by ``make setup``) and asks each worker to start one kernel in
the grading sandbox. Prints one line per worker, ``ok`` or what failed (the exception's
type and message), and exits 1 unless every worker can grade.

The question travels as a string evaluated on the far side (``eval`` is the only
function sent), so a worker that cannot import the grader still answers, with the
``ModuleNotFoundError`` that says so.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

GRADER = Path(__file__).resolve().parent
PROBE = "__import__('autograder.checkcluster', fromlist=['probe']).probe()"
WHERE = "__import__('autograder').__file__"


def probe() -> dict[str, Any]:
    """Runs on a worker: where the grader is imported from, and one sandboxed kernel's start-up."""
    from . import sandbox
    from .course import ROOT

    answer: dict[str, Any] = {"host": socket.gethostname(), "pid": os.getpid(), "python": sys.executable,
                              "grader": str(GRADER), "course": str(ROOT),
                              "course_found": (ROOT / "nbgrader_config.py").is_file(), "problems": []}
    try:
        import nbgrader  # noqa: F401 - the grader's own dependency

        sandbox.check_sandbox()
        # Client.run calls this in the worker's event loop: the kernel gets a loop of its own, in a thread.
        with ThreadPoolExecutor(1) as thread:
            answer["kernel_seconds"] = thread.submit(sandbox.kernel_start_seconds, True).result()
    except Exception as err:  # noqa: BLE001 - reported for this worker
        from .cluster import describe

        answer["problems"].append(describe(err))
    if not answer["course_found"]:
        answer["problems"].append(f"the course folder {ROOT} has no nbgrader_config.py on this machine")
    return answer


def _failure(err: BaseException) -> str:
    from .cluster import describe

    return describe(err)


def check(address: str, timeout: float = 30, out=print) -> bool:
    """Ask the scheduler at ``address`` and each of its workers; print one line each. Whether all can grade."""
    from distributed import Client

    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except OSError as err:
        out(f"Cannot reach a Dask scheduler at {address}: {_failure(err)}")
        return False
    ok = True
    with client:
        try:
            found = client.run_on_scheduler(eval, WHERE)
            out(f"scheduler {address}: ok: imports the grader from {Path(found).parent}")
        except Exception as err:  # noqa: BLE001 - the scheduler unpickles every task: it needs the grader too
            ok = False
            out(f"scheduler {address}: CANNOT READ GRADING TASKS: {_failure(err)}")
        workers = sorted(client.scheduler_info()["workers"])
        if not workers:
            out("No workers are connected: start them with "
                f"`.venv/bin/dask worker {address} --nthreads 1 --nworkers 2`.")
            return False
        started = time.perf_counter()
        answers = client.run(eval, PROBE, on_error="return")
        for worker in workers:
            answer = answers.get(worker)
            if isinstance(answer, BaseException):
                ok = False
                out(f"worker {worker}: CANNOT GRADE: {_failure(answer)}")
                continue
            if answer is None:
                ok = False
                out(f"worker {worker}: CANNOT GRADE: it did not answer")
                continue
            notes = list(answer["problems"])
            if answer["grader"] != str(GRADER):
                notes.append(f"it imports the grader from {answer['grader']}, not {GRADER} as here: give every "
                             "machine the course at the same path")
            where = f"{answer['host']}, pid {answer['pid']}"
            if notes:
                ok = False
                out(f"worker {worker} ({where}): CANNOT GRADE: " + "; ".join(notes))
            else:
                out(f"worker {worker} ({where}): ok: imports the grader from {answer['grader']}; a sandboxed "
                    f"kernel started in {answer['kernel_seconds']:.1f} s")
        ready = sum(1 for w in workers if not isinstance(answers.get(w), BaseException) and answers.get(w)
                    and not answers[w]["problems"] and answers[w]["grader"] == str(GRADER))
        out(f"{ready} of {len(workers)} worker(s) can grade ({time.perf_counter() - started:.1f} s).")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.checkcluster", description=__doc__.split("\n\n")[0])
    parser.add_argument("scheduler", nargs="?", default="tcp://127.0.0.1:8786",
                        help="the scheduler's address (default: tcp://127.0.0.1:8786)")
    parser.add_argument("--timeout", type=float, default=30, help="seconds to wait for the scheduler (30)")
    args = parser.parse_args(argv)
    return 0 if check(args.scheduler, args.timeout) else 1


if __name__ == "__main__":
    sys.exit(main())
