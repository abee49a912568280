"""A free TCP port on 127.0.0.1, for a server a test starts (JupyterLab, a Dask scheduler, PostgreSQL)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port nothing listens on now (another program may still take it before the server binds it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
