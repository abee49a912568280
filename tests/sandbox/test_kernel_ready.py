"""A grading kernel is ready as soon as it has replied and IOPub is live; a stopped one is looked for every 10 ms.

jupyter_client's ``wait_for_ready`` then waits for 0.2 s of silence on IOPub, and its
``_async_wait`` looks every 0.1 s whether a stopped kernel has exited: 0.28 s of waiting in
every graded notebook (commit 001fbf6, brought back by issue 43). These tests drive the
grader's client and manager with stand-in channels: nothing starts, nothing sleeps. The real
kernels of tests/sandbox/test_kernel_fork.py and test_sandbox.py start through the same code.
"""

from __future__ import annotations

import asyncio
from queue import Empty

import pytest
from jupyter_client.manager import AsyncKernelManager

from autograder.sandbox import SandboxedKernelClient, SandboxedKernelManager


class Channel:
    """A channel whose ``get_msg`` hands out queued messages, or raises ``Empty`` at once (recording each wait)."""

    def __init__(self, messages=()):
        self.messages = list(messages)
        self.timeouts: list[float] = []

    async def get_msg(self, timeout=None):
        self.timeouts.append(timeout)
        if not self.messages:
            raise Empty
        return self.messages.pop(0)


class Client:
    """What ``_until_ready`` uses of a kernel client."""

    def __init__(self, shell, iopub, alive=True):
        self.shell_channel, self.iopub_channel, self.alive = shell, iopub, alive
        self.asked = 0
        self.handled = None

    def kernel_info(self):
        self.asked += 1

    def _handle_kernel_info_reply(self, reply):
        self.handled = reply

    async def _async_is_alive(self):
        return self.alive


def until_ready(client, timeout=5.0):
    asyncio.run(SandboxedKernelClient._until_ready(client, timeout))


REPLY = {"msg_type": "kernel_info_reply", "content": {}}
STATUS = {"msg_type": "status", "content": {"execution_state": "idle"}}


def test_ready_once_replied_and_iopub_live_and_what_is_queued_is_drained_without_waiting():
    iopub = Channel([STATUS, STATUS, STATUS])
    client = Client(Channel([REPLY]), iopub)
    until_ready(client)
    assert client.asked == 1 and client.handled is REPLY
    assert iopub.messages == [] and iopub.timeouts == [0.2, 0, 0, 0], "no wait for a silence on IOPub"


def test_iopub_not_live_yet_asks_again():
    iopub = Channel()
    client = Client(Channel([REPLY, REPLY]), iopub)

    async def first_empty(timeout=None):  # IOPub's first wait finds nothing; the second a status
        iopub.timeouts.append(timeout)
        if len(iopub.timeouts) == 1:
            raise Empty
        if len(iopub.timeouts) == 2:
            return STATUS
        raise Empty

    iopub.get_msg = first_empty
    until_ready(client)
    assert client.asked == 2 and client.handled is REPLY


def test_a_dead_kernel_is_said():
    with pytest.raises(RuntimeError, match="died"):
        until_ready(Client(Channel(), Channel(), alive=False))


def test_a_kernel_that_never_replies_times_out():
    with pytest.raises(RuntimeError, match="didn't respond"):
        until_ready(Client(Channel(), Channel()), timeout=-1)


def test_a_stopped_kernel_is_looked_for_every_10_ms(monkeypatch):
    seen = []

    async def wait(self, pollinterval=0.1):
        seen.append(pollinterval)

    monkeypatch.setattr(AsyncKernelManager, "_async_wait", wait)
    manager = SandboxedKernelManager()  # not started: only its wait is called
    asyncio.run(manager._async_wait())
    asyncio.run(manager._async_wait(pollinterval=0.001))
    assert seen == [0.01, 0.001]
