"""One clean run: the process set up (:func:`start`), the snapshot taken, every cell run, the results sent.

The results channel is a private copy of stdout; each message is one line, the run's token then a Python
literal (a dict)::

    {"kind": "ready"}
    {"kind": "cell", "index": 0}                                        # before each cell
    {"kind": "finding", "cell": 3, "when": "before", "what": ["..."]}      # what was put back
    {"kind": "test", "id": "...", "passed": True, "message": "", "what": [...]}
    {"kind": "done"}
"""

import asyncio
import json
import os
import signal
import sys

from .cells import notebook_namespace, on_alarm, run_cells
from .watch import import_watched, snapshot


def start(payload):
    """Set this process up for one run; ``(payload, results channel, token)``.

    The clean room never outlives the grader that started it (a grading worker stopped at its
    time limit, a test run interrupted): killed with its parent, and at most the notebook's
    time limit of CPU even if that fails (a cell that loops forever never reaches the
    between-cells time check). The results channel is a private copy of stdout; stdin, stdout
    and stderr then go to /dev/null.
    """
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    channel = os.dup(1)
    if payload is None:
        payload = json.loads(sys.stdin.read())
    try:
        import resource

        cpu = int(payload["notebook_timeout"]) + 30
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    except (ImportError, ValueError, OSError):
        pass
    token = payload.pop("token")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    return payload, channel, token


def clean_run(payload=None, _close=os.close, _exit=os._exit):
    """Run one payload (read from stdin when not given) and exit; never returns."""
    payload, channel, token = start(payload)

    def send(kind, _token=token, _fd=channel, _write=os.write, _repr=repr, **data):
        # One line per message, as a Python literal: repr of plain dicts, lists, str and bool is
        # C code that the notebook cannot patch (json's shared encoder is an object it could).
        data["kind"] = kind
        line = (_token + _repr(data) + "\n").encode("utf-8", "backslashreplace")
        while line:
            line = line[_write(_fd, line):]

    snap = snapshot(import_watched(payload))
    signal.signal(signal.SIGALRM, on_alarm)
    snap["alarm"] = on_alarm
    room = {"send": send, "snap": snap, "namespace": notebook_namespace(), "locked": {},
            "real_builtins": dict(snap["builtins"]), "loop": asyncio.new_event_loop()}
    run_cells(payload, room)
    _close(channel)
    _exit(0)
