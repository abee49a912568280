"""A zygote's requests and replies: one JSON line a request, a JSON header line (and data) a reply."""

import json
import os


def next_line(z, wait=True):
    """The next request line; None when none has come (``wait=False``); b"" once the grader is gone."""
    while b"\n" not in z["pending"]:
        if not wait and not z["waiting"].select(timeout=0):
            return None
        chunk = os.read(z["requests"], 65536)
        if not chunk:
            return b""
        z["pending"] += chunk
    line, z["pending"] = z["pending"].split(b"\n", 1)
    return line + b"\n"


def answer(z, header, data=b""):
    out = json.dumps(header).encode() + b"\n" + data
    while out:
        out = out[os.write(z["replies"], out):]


def reply(z, data, reason, status):
    answer(z, {"size": len(data), "reason": reason, "status": status}, data)
