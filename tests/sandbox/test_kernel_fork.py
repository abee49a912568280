"""Forked grading kernels (autograder.kernelfork): each kernel a fork of a warm one, none seeing another.

A forked kernel must behave as a fresh sandboxed kernel does (its folder read-only, the
limits, interrupts), start with the setup imports done, and find nothing a previous
kernel left: no process, no file in /tmp, HOME, /dev/shm or among the sandbox's binds,
no System V IPC object. A kernel that kills its warm process costs nothing but itself.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import re
import textwrap
from pathlib import Path

import nbformat
import pytest

from ipykernel import compiler

from autograder import cleanroom, forkserver
from autograder.course import SOLUTIONS, assignments
from autograder.inside import kernels
from autograder.kernelfork import PRELOAD
from autograder.sandbox import SandboxedKernelManager, sandbox_available
from coursetools.fairness import has_catalogue

pytestmark = pytest.mark.skipif(not sandbox_available(), reason="bubblewrap cannot run here")


@pytest.fixture(autouse=True)
def fresh_pool():
    forkserver.close_zygotes()
    yield
    forkserver.close_zygotes()


#: What :func:`run` gives for a cell during which the kernel died, and for the cells after it
DIED = "<the kernel died>"


async def _next_message(kc, km) -> dict | None:
    """The kernel's next IOPub message; None once the kernel has died without sending one."""
    for _ in range(60):  # 60 s in all
        try:
            return await kc.get_iopub_msg(timeout=1)
        except queue.Empty:
            if not await km.is_alive():
                return None
    raise queue.Empty


async def _run(workdir: Path, *cells: str, fork: bool = True, interrupt: bool = False,
               options: tuple[str, ...] = ()) -> list[str]:
    """Start a sandboxed kernel in ``workdir`` (its command line ending with ``options``, as nbclient's
    ``extra_arguments``), run ``cells``, stop it: each cell's output (or its error).

    A cell during which the kernel died gives :data:`DIED`, and so do the cells after it.
    """
    km = SandboxedKernelManager(fork=fork, memory_limit=900 * 1024 * 1024, cpu_limit=300)
    await km.start_kernel(cwd=str(workdir), extra_arguments=list(options))
    kc = km.client()
    kc.start_channels()
    outputs = []
    try:
        await kc.wait_for_ready(timeout=60)
        for code in cells:
            msg_id = kc.execute(code)
            text = []
            if interrupt:
                # Once the cell's code runs (its first output), not after a wait in real time. The `busy` status
                # is too early: a SIGINT that reaches ipykernel before the cell's code starts is logged and dropped.
                while True:
                    msg = await kc.get_iopub_msg(timeout=60)
                    if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
                        text.append(msg["content"]["text"])
                        break
                await km.interrupt_kernel()
                interrupt = False
            while True:
                msg = await _next_message(kc, km)
                if msg is None:
                    text = [DIED]
                    break
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if msg["msg_type"] == "stream":
                    text.append(msg["content"]["text"])
                elif msg["msg_type"] == "error":
                    text.append(f"{msg['content']['ename']}: {msg['content']['evalue']}")
                elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    break
            outputs.append("".join(text).strip())
            if outputs[-1] == DIED:
                outputs += [DIED] * (len(cells) - len(outputs))
                break
    finally:
        kc.stop_channels()
        await km.shutdown_kernel(now=False)
    return outputs


def run(workdir: Path, *cells: str, **kw) -> list[str]:
    return asyncio.run(_run(workdir, *[textwrap.dedent(c) for c in cells], **kw))


#: Which warm process a kernel is a fork of (its start time: in the sandbox it is always PID 2), and whether
#: the setup imports were done before the kernel started.
WARM = "open(f'/proc/{os.getppid()}/stat').read().rsplit(')', 1)[1].split()[19]"
PROBE = f"import os, sys; print({WARM}, 'langchain_core.tools' in sys.modules)"


def test_kernels_are_forks_of_one_warm_process_with_the_setup_imports_done(tmp_path):
    (tmp_path / "data.txt").write_text("mine")
    first = run(tmp_path, PROBE, "print(open('data.txt').read(), sorted(os.listdir('.')))")
    second = run(tmp_path, PROBE)
    assert first[0] == second[0] and first[0].endswith("True"), (first, second)
    assert first[1] == "mine ['data.txt']"
    assert forkserver.idle_zygotes() == 1
    fresh = run(tmp_path, PROBE, fork=False)
    assert fresh[0].endswith("False") and fresh[0] != first[0]


def test_a_forked_kernel_is_started_with_the_options_of_the_kernel_command_line(tmp_path):
    """nbclient starts a grading kernel with ``--HistoryManager.hist_file=:memory:`` (and the grader's
    ``GuardedExecute`` with ``--IPKernelApp.log_level=ERROR``): a fork takes them as a fresh kernel does, so it keeps no history
    database (one write of every cell it runs) and logs what a fresh kernel logs."""
    probe = ("from ipykernel.kernelapp import IPKernelApp; "
             "print(get_ipython().history_manager.hist_file, IPKernelApp.instance().log_level)")
    options = ("--HistoryManager.hist_file=:memory:", "--IPKernelApp.log_level=ERROR")
    forked, fresh = run(tmp_path, PROBE, probe, options=options), run(tmp_path, PROBE, probe, fork=False, options=options)
    assert forked[0].endswith("True") and fresh[0].endswith("False"), (forked, fresh)
    assert forked[1] == fresh[1] == f":memory: {logging.ERROR}", (forked, fresh)
    plain = run(tmp_path, probe)[0]
    assert not plain.startswith(":memory:"), f"without the options, the fork keeps IPython's default history: {plain}"


def test_a_forked_kernel_names_cells_by_their_source_and_shows_tracebacks_as_a_fresh_kernel_does(tmp_path):
    """A fork names each cell's code with a C hash (autograder.inside.kernels.cell_name_hash), not ipykernel's
    pure-Python murmur2: one name per source, and a failing cell's traceback as a fresh kernel shows it."""
    name = "from ipykernel.compiler import get_file_name as n; import os; print(os.path.basename(n('a = 1')), os.path.basename(n('a = 2')), os.path.basename(n('a = 1')))"
    failing = "def f():\n    raise ValueError('no')\nf()"
    trace = "import sys; print(get_ipython().InteractiveTB.text(sys.last_type, sys.last_value, sys.last_traceback))"
    forked, fresh = run(tmp_path, name, failing, trace), run(tmp_path, name, failing, trace, fork=False)
    one, two, again = forked[0].split()
    assert one == again != two and one.endswith(".py"), forked[0]
    seed = compiler.get_tmp_hash_seed()
    assert one == f"{kernels.cell_name_hash('a = 1', seed)}.py" != fresh[0].split()[0] == f"{compiler.murmur2_x86('a = 1', seed)}.py"
    assert forked[1] == fresh[1] == "ValueError: no", (forked, fresh)
    shown = re.sub(r"\x1b\[[0-9;]*m", "", forked[2])
    assert "Cell In[2], line 3" in shown and "Cell In[2], line 2, in f" in shown, shown
    assert forked[2] == fresh[2], (forked[2], fresh[2])


def test_a_folder_with_a_subfolder_gets_a_fresh_kernel(tmp_path):
    (tmp_path / "sub").mkdir()
    assert run(tmp_path, PROBE)[0].endswith("False")


def test_the_folder_is_read_only_and_the_limits_hold(tmp_path):
    (tmp_path / "answer.txt").write_text("x")
    out = run(tmp_path, """
        import os, resource
        for attempt in (lambda: open('planted.py', 'w'), lambda: os.chmod('.', 0o777),
                        lambda: open('answer.txt', 'a')):
            try:
                attempt()
                print('WROTE')
            except OSError as err:
                print(type(err).__name__, err.strerror)
        print(resource.getrlimit(resource.RLIMIT_DATA)[0], resource.getrlimit(resource.RLIMIT_CPU)[0])
    """)[0].splitlines()
    assert out[0] == out[1] == "OSError Read-only file system", out
    assert out[2].startswith(("OSError", "PermissionError")), out
    assert out[3] == f"{900 * 1024 * 1024} 300"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer.txt"]


def test_nothing_a_kernel_leaves_reaches_the_next(tmp_path):
    """Files in every writable place, a daemon, System V IPC, files beside the sandbox's binds: all gone."""
    planted = run(tmp_path, """
        import ctypes, os, subprocess
        libc = ctypes.CDLL(None)
        print('shm', libc.shmget(0x5eed, 4096, 0o1666), 'sem', libc.semget(0x5eee, 1, 0o1666),
              'msg', libc.msgget(0x5eef, 0o1666))
        for path in ('/tmp/left', '/tmp/home/left', '/dev/shm/left'):
            open(path, 'w').write('secret')
        # beside the binds this sandbox holds under /tmp (the kernels' sockets and folders)
        holders = [os.path.join('/tmp', n) for n in os.listdir('/tmp') if n not in ('home', 'left')]
        for holder in holders:
            try:
                open(os.path.join(holder, 'left'), 'w').write('secret')
                print('planted beside', holder)
            except OSError as err:
                print('refused', holder, err.strerror)
        subprocess.Popen(['sh', '-c', 'sleep 300'], start_new_session=True)
        print(WARM)
    """.replace("WARM", WARM))[0]
    assert "shm -1" not in planted and "msg -1" not in planted, planted
    looked = run(tmp_path, """
        import os, subprocess
        found = [p for p in ('/tmp/left', '/tmp/home/left', '/dev/shm/left') if os.path.exists(p)]
        for holder in [os.path.join('/tmp', n) for n in os.listdir('/tmp') if n != 'home']:
            found += [os.path.join(holder, n) for n in os.listdir(holder) if n == 'left']
        print('found', found)
        print('ipc', [open(f'/proc/sysvipc/{k}').read().splitlines()[1:] for k in ('shm', 'sem', 'msg')])
        print('others', sorted(p for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, os.getpid(), os.getppid())))
        print(WARM)
    """.replace("WARM", WARM))[0].splitlines()
    assert looked[0] == "found []", looked
    assert looked[1] == "ipc [[], [], []]", looked
    assert looked[2] == "others []", looked
    assert looked[3] == planted.splitlines()[-1], "the second kernel came from another warm process"


def test_a_clean_run_is_a_fork_of_the_idle_warm_kernel_process_and_leaves_nothing_for_the_next_kernel(tmp_path):
    """The clean room's re-run of a notebook takes the grading process's idle warm kernel process (one warm process
    serves both): the run starts as a clean-room process's would (its folder is not on the path), and what it plants
    in the sandbox, beside the kernels' binds included, is gone before the next kernel starts."""
    first = run(tmp_path, PROBE)[0]
    made = forkserver.zygotes_started()
    (zygote_key, zygote), = forkserver._idle
    limits = SandboxedKernelManager(fork=True, memory_limit=900 * 1024 * 1024, cpu_limit=300)._limits()
    options = cleanroom.Settings(sandboxed=True, limits=limits, cell_timeout=10, notebook_timeout=30)
    (tmp_path / "helper.py").write_text("X = 1\n")
    probe = textwrap.dedent("""
        import os, sys
        planted = []
        for name in ('/tmp/left', '/tmp/home/left', '/dev/shm/left'):
            open(name, 'w').write('secret')
        for holder in [os.path.join('/tmp', n) for n in os.listdir('/tmp') if n.startswith('k-')]:
            for folder in [holder] + [os.path.join(holder, n) for n in os.listdir(holder)]:
                try:
                    open(os.path.join(folder, 'left'), 'w').write('secret')
                    planted.append(folder)
                except OSError:
                    pass
        assert False, (WARM, '' in sys.path, 'helper' in sys.modules, 'ipykernel.kernelapp' in sys.modules, planted)
    """).replace("WARM", WARM)
    done = cleanroom.run([{"kind": "answer", "id": "answer", "source": "import helper"},
                          {"kind": "test", "id": "probe", "source": probe}], tmp_path, options)
    assert done.forked and done.complete, done
    warm, path_has_folder, imported_helper, ipykernel_loaded, planted = \
        eval(done.tests["probe"].message.removeprefix("AssertionError: "))
    assert warm == first.split()[0], "the clean run was not a fork of the warm kernel process"
    assert forkserver.zygotes_started() == made and forkserver.idle_zygotes() == 1, "the clean run started a process"
    assert ipykernel_loaded and planted, (ipykernel_loaded, planted)
    assert not path_has_folder and not imported_helper, "as in a clean-room process (`python -I`), the folder is off the path"
    assert not any(zygote.sockets.iterdir()) and not any(zygote.workdir.iterdir())
    looked = run(tmp_path, """
        import os
        found = [p for p in ('/tmp/left', '/tmp/home/left', '/dev/shm/left') if os.path.exists(p)]
        for holder in [os.path.join('/tmp', n) for n in os.listdir('/tmp') if n.startswith('k-')]:
            for folder, _, files in os.walk(holder):
                found += [os.path.join(folder, n) for n in files if n == 'left']
        print('found', found)
        print(WARM)
    """.replace("WARM", WARM))[0].splitlines()
    assert looked == ["found []", first.split()[0]], looked


def test_a_clean_run_does_not_take_a_warm_kernel_process_whose_kernel_folders_are_in_use(tmp_path):
    run(tmp_path, PROBE)
    (_, zygote), = forkserver._idle
    (zygote.workdir / "nb-in-use").mkdir()  # a kernel's copy not yet removed (another thread's kernel, say)
    try:
        limits = SandboxedKernelManager(fork=True, memory_limit=900 * 1024 * 1024, cpu_limit=300)._limits()
        options = cleanroom.Settings(sandboxed=True, limits=limits, cell_timeout=10, notebook_timeout=30)
        taken = forkserver.take(options)
        try:
            assert taken is not zygote and taken.kernel_modules is None
        finally:
            taken.close()
    finally:
        (zygote.workdir / "nb-in-use").rmdir()


def test_an_endless_cell_is_interrupted(tmp_path):
    out = run(tmp_path, "print('looping', flush=True)\nwhile True:\n    pass", "print('still here')", interrupt=True)
    assert out[0].startswith("looping\nKeyboardInterrupt"), out
    assert out[1] == "still here"


def test_a_kernel_that_kills_its_warm_process_costs_only_itself(tmp_path):
    """The killing kernel dies with its sandbox, or finishes its cell first: which of the two is a race."""
    before = run(tmp_path, PROBE)[0]
    killed = run(tmp_path, f"import os; print({WARM})", "import os, signal; os.kill(os.getppid(), signal.SIGKILL)")
    assert killed[0] == before.split()[0], "the kernel was not a fork of the warm process the first one came from"
    assert killed[1] in ("", DIED), killed
    after = run(tmp_path, PROBE)[0]
    assert after.endswith("True") and after.split()[0] != before.split()[0]
    assert forkserver.running_zygotes() == 1


def test_preload_covers_what_the_graded_notebooks_import_from_installed_packages():
    """A module a graded notebook imports and PRELOAD lacks would cost every kernel its import again."""
    missing = set()
    for assignment in (a for a in assignments() if has_catalogue(a)):
        nb = nbformat.read(SOLUTIONS / assignment / f"{assignment}.ipynb", as_version=4)
        for cell in nb.cells:
            nbgrader = cell.metadata.get("nbgrader", {})
            if cell.cell_type != "code" or nbgrader.get("solution"):
                continue
            for found in re.findall(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", cell.source, re.M):
                name = found[0] or found[1]
                covered = name in PRELOAD or any(p.startswith(name + ".") for p in PRELOAD)
                if name.split(".")[0] in ("langchain_core", "pydantic", "toolfaults") and not covered:
                    missing.add(name)
    assert not missing, f"add to autograder.kernelfork.PRELOAD: {sorted(missing)}"


def test_no_kernel_process_is_left_once_the_pool_is_closed(tmp_path):
    run(tmp_path, PROBE)
    assert forkserver.running_zygotes() == 1
    forkserver.close_zygotes()
    assert forkserver.running_zygotes() == 0


_KERNEL_START = """
import json, os, sys, tempfile
from autograder.inside.kernels import KERNEL_MODULES
from autograder.kernelfork import PRELOAD
from jupyter_client import write_connection_file
for name in (*KERNEL_MODULES, *PRELOAD):
    __import__(name)
folder = tempfile.mkdtemp()
os.environ["HOME"] = folder
connection_file, _ = write_connection_file(os.path.join(folder, "kernel.json"))
read, write = os.pipe()
if os.fork() == 0:  # as the zygote forks a kernel
    before = set(sys.modules)
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.instance().initialize(["-f", connection_file])
    os.write(write, json.dumps(sorted(set(sys.modules) - before)).encode())
    os._exit(0)
os.close(write)
print(os.read(read, 1 << 20).decode())
"""


def test_a_forked_kernel_finds_ipykernel_and_its_debugger_imported():
    """What ipykernel imports as a kernel starts, debugpy above all (0.1 s of CPU a kernel), the
    zygote has imported before it forks: a kernel started from its imports imports none of it again."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _KERNEL_START], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert not [m for m in imported if m.split(".")[0] in ("ipykernel", "debugpy", "_pydevd_bundle", "pydevd")], imported
