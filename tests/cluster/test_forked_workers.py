"""A LocalCluster's workers are forks of one process that imported the grader once (multiprocessing's
forkserver), and each cluster's workers see the environment of their own cluster's start."""

from __future__ import annotations

from multiprocessing import forkserver

import psutil
import pytest
from distributed import Client

from autograder.cluster import local_cluster

pytestmark = pytest.mark.slow

# What each worker says, run by `client.run` (eval travels by name): its parent, whether nbgrader (which
# only the grader imports) was imported before any task, and the probe variable.
PROBE = "(__import__('os').getppid(), 'nbgrader' in __import__('sys').modules, " \
        "__import__('os').environ.get('FORKED_WORKERS_PROBE'))"


def _views(cluster) -> list[tuple[int, bool, str | None]]:
    with Client(cluster, set_as_default=False) as client:
        return list(client.run(eval, PROBE).values())


def _forkservers() -> list[psutil.Process]:
    """This process's running forkservers (its workers are forks of one: they show its command line too).

    A child that has exited (a zombie until it is reaped, say an earlier test's clean-room process) is not one."""
    found = []
    for child in psutil.Process().children():
        try:
            if "multiprocessing.forkserver" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:  # gone, or exited and not yet reaped
            continue
    return found


def test_workers_start_with_the_grader_imported_and_the_environment_of_their_cluster(monkeypatch):
    assert not _forkservers(), "a forkserver was left by an earlier test"
    monkeypatch.setenv("FORKED_WORKERS_PROBE", "first")
    with local_cluster(n_workers=2) as first:
        views = _views(first)
        parents = {parent for parent, _, _ in views}
        [server] = _forkservers()
        assert parents == {server.pid}, (views, server)
        assert all(imported for _, imported, _ in views), "the workers imported the grader themselves"
        assert {value for _, _, value in views} == {"first"}

        # A cluster started while another is open forks from the same process, with its own environment.
        monkeypatch.setenv("FORKED_WORKERS_PROBE", "second")
        with local_cluster(n_workers=1) as second:
            assert [(p, v) for p, _, v in _views(second)] == [(server.pid, "second")]
    assert not _forkservers() and forkserver._forkserver._forkserver_pid is None, "the forkserver outlived its clusters"

    # The next cluster starts a forkserver of its own time.
    monkeypatch.setenv("FORKED_WORKERS_PROBE", "third")
    monkeypatch.setenv("FORKED_WORKERS_ONLY_NOW", "1")
    with local_cluster(n_workers=1) as third:
        with Client(third, set_as_default=False) as client:
            [(parent, value, only_now)] = client.run(
                eval, "(__import__('os').getppid(), __import__('os').environ.get('FORKED_WORKERS_PROBE'), "
                      "__import__('os').environ.get('FORKED_WORKERS_ONLY_NOW'))").values()
        assert parent != server.pid and value == "third" and only_now == "1"
    assert not _forkservers()
