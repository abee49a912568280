"""Untrusted code is graded in a sandbox: every attack fails inside it and shows in the grade.

One batch of submissions of the tiny ``probe`` assignment (answer() -> 42 for 1 point,
double(x) for 2) is graded by one sandboxed course: two innocent students around a
crowd of attackers. Each attacker's ``answer()`` tries one thing; its ``double`` is
correct, so a contained attack costs exactly the answer test (2/3) and its message says
what failed. A control course grades some of the same attacks without the sandbox, to
prove the attacks are real.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from traitlets.config import Config

from autograder import sandbox
from autograder.course import ROOT, load_config
from autograder.engine import Course
from autograder.testcells import replace_answer

from tests.sandbox.probe_assignment import ASSIGNMENT, GOOD, SOURCE, sandbox_ready  # noqa: F401 - a fixture

SECRET = "s3cr3t-grader-token-7f1c"
HOME_SECRET = "instructor-private-notes-93ad"
DOUBLE = "\n\ndef double(x):\n    return 2 * x\n"


class Server:
    """A TCP server on the grader's loopback that records who connected."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.1)
        self.port = self.sock.getsockname()[1]
        self.connections: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    self.connections.append(conn.recv(1000))
                except OSError:
                    self.connections.append(b"")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


def attacks(course: Course, server_port: int, home: Path, victim_paths: list[Path]) -> dict[str, str]:
    """student -> the code of their answer cell (each ``answer()`` tries one attack)."""
    gradebook = str(course.root / "gradebook.db")
    return {
        "net": (
            "import socket\n"
            "def answer():\n"
            f"    conn = socket.create_connection(('127.0.0.1', {server_port}), timeout=5)\n"
            "    conn.sendall(b'stolen grades')\n"
            "    conn.close()\n"
            "    return 'sent'\n"),
        "gradebook": (
            "def answer():\n"
            f"    data = open({gradebook!r}, 'rb').read()\n"
            "    print('read the gradebook:', len(data), 'bytes')\n"
            "    return data\n"),
        "peek": (
            "def answer():\n"
            "    errors = []\n"
            f"    for path in {[str(p) for p in victim_paths]!r}:\n"
            "        try:\n"
            "            text = open(path).read()\n"
            "            print('read', path, len(text))\n"
            "            return text\n"
            "        except OSError as err:\n"
            "            errors.append(f'{type(err).__name__}: {err}')\n"
            "    raise OSError('; '.join(errors))\n"),
        "memory": (
            "def answer():\n"
            "    block = bytearray(4 * 1024 ** 3)\n"
            "    return len(block)\n"),
        "bigfile": (
            "import os\n"
            "def answer():\n"
            "    chunk = b'x' * (1 << 20)\n"
            "    with open(os.path.join(os.environ.get('TMPDIR', '/tmp'), 'fill.bin'), 'wb') as f:\n"
            "        for _ in range(1024):\n"
            "            f.write(chunk)\n"
            "    return 'wrote 1 GiB'\n"),
        "manyfiles": (
            "import os\n"
            "def answer():\n"
            "    chunk = b'x' * (1 << 20)\n"
            "    for i in range(64):\n"
            "        with open(f'/tmp/part{i}.bin', 'wb') as f:\n"
            "            for _ in range(48):\n"
            "                f.write(chunk)\n"
            "    return 'wrote 3 GiB'\n"),
        "ownfolder": (
            "def answer():\n"
            "    with open('planted.py', 'w') as f:\n"
            "        f.write('print(1)')\n"
            "    return 'planted'\n"),
        "kerneldir": (
            "import os, sys\n"
            "def answer():\n"
            "    folder = os.path.dirname(sys.argv[sys.argv.index('-f') + 1])\n"
            "    with open(os.path.join(folder, 'fill.bin'), 'wb') as f:\n"
            "        f.write(b'x' * 1000)\n"
            "    return 'wrote next to the sockets'\n"),
        "secret": (
            "import os\n"
            "def answer():\n"
            "    print(sorted(os.environ))\n"
            "    return os.environ['GRADER_SECRET']\n"),
        "home": (
            "import os\n"
            "def answer():\n"
            f"    return open({str(home / 'notes.txt')!r}).read()\n"),
        "loop": (
            "def answer():\n"
            "    while True:\n"
            "        pass\n"),
    }


def _notebook_text(course: Course, student: str) -> str:
    path = course.directory(course.coursedir.autograded_directory, ASSIGNMENT, student) / f"{ASSIGNMENT}.ipynb"
    return path.read_text() if path.exists() else ""


def _grade_all(course: Course, order: list[str]) -> dict:
    return {student: course.autograde(ASSIGNMENT, student) for student in order}


@pytest.fixture(scope="module")
def batch(tmp_path_factory, sandbox_ready):
    """Grade the innocents and every attacker in one sandboxed course, and a control course unsandboxed."""
    server = Server()
    home = tmp_path_factory.mktemp("instructor-home")
    (home / "notes.txt").write_text(HOME_SECRET)
    saved = {k: os.environ.get(k) for k in ("GRADER_SECRET", "HOME")}
    os.environ["GRADER_SECRET"] = SECRET
    os.environ["HOME"] = str(home)
    try:
        course = Course.scratch(tmp_path_factory.mktemp("sandboxed"), SOURCE)
        course.generate(ASSIGNMENT)
        course.configure(sandbox.course_settings())
        course.api.update_config(Config({"Execute": {"timeout": 8}}))
        released = course.released(ASSIGNMENT)
        ana_path = course.submit("ana", ASSIGNMENT, replace_answer(released, "answers", GOOD))
        ana_graded = course.directory(course.coursedir.autograded_directory, ASSIGNMENT, "ana") / f"{ASSIGNMENT}.ipynb"
        codes = attacks(course, server.port, home, [ana_path, ana_graded])
        for student, code in codes.items():
            nb = replace_answer(released, "answers", code + DOUBLE)
            if student == "secret":  # the notebook asks for another kernel: it must not matter
                nb.metadata["kernelspec"] = {"name": "python3-unsandboxed", "display_name": "x", "language": "python"}
            course.submit(student, ASSIGNMENT, nb)
        course.submit("zoe", ASSIGNMENT, replace_answer(released, "answers", GOOD))
        started = time.perf_counter()
        results = _grade_all(course, ["ana", *codes, "zoe"])
        seconds = time.perf_counter() - started
        sandboxed_connections = list(server.connections)

        control = Course.scratch(tmp_path_factory.mktemp("control"), SOURCE)
        control.generate(ASSIGNMENT)
        control_codes = attacks(control, server.port, home, [ana_path])
        for student in ("net", "gradebook", "peek", "secret", "home"):
            control.submit(student, ASSIGNMENT,
                           replace_answer(control.released(ASSIGNMENT), "answers", control_codes[student] + DOUBLE))
        controls = _grade_all(control, ["net", "gradebook", "peek", "secret", "home"])
        control_connections = list(server.connections[len(sandboxed_connections):])
    finally:
        server.close()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    print(f"\nsandboxed batch: {len(results)} notebooks in {seconds:.1f} s")
    return {"course": course, "results": results, "connections": sandboxed_connections,
            "control": control, "controls": controls, "control_connections": control_connections,
            "ana_path": ana_path}


def _answer(result):
    return next(t for t in result.tests if t.grade_id == "test_answer")


def _contained(batch, student: str, *expected: str) -> str:
    """The attack cost the answer test only, its message names what failed, and the kernel survived."""
    result = batch["results"][student]
    answer = _answer(result)
    assert not answer.passed, f"{student}: the attack's test passed"
    assert any(e.lower() in answer.message.lower() for e in expected), (
        f"{student}: the failing test's message should name the failure {expected}, got {answer.message!r}")
    assert result.score == 2 and result.max_score == 3, (
        f"{student}: the rest of the notebook must still be graded (double: 2/2), got {result.score}/{result.max_score}")
    return answer.message


# -- innocents ---------------------------------------------------------------------------
@pytest.mark.slow
def test_innocent_students_keep_full_marks(batch):
    """Students graded before and after the attackers, in the same batch, get 3/3."""
    for student in ("ana", "zoe"):
        result = batch["results"][student]
        assert result.score == result.max_score == 3, (student, [t.message for t in result.failed])
        assert result.status == "graded", (student, result.problems)


@pytest.mark.slow
def test_the_gradebook_holds_every_grade(batch):
    """The attacks left the gradebook intact: every student has their grade in it."""
    from nbgrader.api import Gradebook

    course = batch["course"]
    with Gradebook(course.coursedir.db_url, course.coursedir.course_id) as gb:
        scores = {s.student.id: s.score for s in gb.assignment_submissions(ASSIGNMENT)}
    assert scores == {s: r.score for s, r in batch["results"].items()}


# -- each attack -------------------------------------------------------------------------
@pytest.mark.slow
def test_loopback_server_is_unreachable(batch):
    """A cell cannot reach a server on the grader's 127.0.0.1 (the control run can)."""
    _contained(batch, "net", "ConnectionRefused", "Network is unreachable", "timed out")
    assert batch["connections"] == []
    assert b"stolen grades" in batch["control_connections"], "the unsandboxed control should have connected"


@pytest.mark.slow
def test_gradebook_is_invisible(batch):
    _contained(batch, "gradebook", "No such file or directory")
    assert "read the gradebook" in _notebook_text(batch["control"], "gradebook")


@pytest.mark.slow
def test_other_students_work_is_invisible(batch):
    """Neither another student's submission nor their autograded notebook can be read."""
    message = _contained(batch, "peek", "No such file or directory")
    assert message.count("No such file or directory") == 2
    assert "read " + str(batch["ana_path"]) in _notebook_text(batch["control"], "peek")


@pytest.mark.slow
def test_memory_is_limited(batch):
    """Allocating 4 GB raises MemoryError in the cell; the kernel lives on."""
    _contained(batch, "memory", "MemoryError")


@pytest.mark.slow
def test_a_huge_file_stops_at_the_size_limit(batch):
    _contained(batch, "bigfile", "File too large")


@pytest.mark.slow
def test_many_files_fill_only_a_small_scratch_space(batch):
    _contained(batch, "manyfiles", "No space left on device")


@pytest.mark.slow
def test_the_submission_folder_is_read_only(batch):
    _contained(batch, "ownfolder", "Read-only file system")
    graded = batch["course"].directory(batch["course"].coursedir.autograded_directory, ASSIGNMENT, "ownfolder")
    assert not (graded / "planted.py").exists()


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="the kernel's folder is locked only when the grader runs as root")
def test_the_kernels_own_folder_is_locked(batch):
    _contained(batch, "kerneldir", "Permission denied")


@pytest.mark.slow
def test_grader_environment_is_hidden(batch):
    """A secret in the grader's environment is not in the kernel's (the control sees it),
    even when the notebook's metadata names another kernel."""
    _contained(batch, "secret", "KeyError")
    assert SECRET not in _notebook_text(batch["course"], "secret")
    assert "GRADER_SECRET" in _notebook_text(batch["control"], "secret")


@pytest.mark.slow
def test_instructor_home_is_invisible(batch):
    _contained(batch, "home", "No such file or directory")
    control = _answer(batch["controls"]["home"])
    assert "No such file" not in control.message  # the control read it


@pytest.mark.slow
def test_an_endless_loop_is_interrupted_inside_the_sandbox(batch):
    """The cell time limit interrupts the sandboxed kernel; the next cells still run."""
    result = batch["results"]["loop"]
    assert not _answer(result).passed and result.score == 2, [t.message for t in result.tests]


@pytest.mark.slow
def test_nothing_escaped_to_the_grader(batch):
    """No file written by an attack exists anywhere in the course folders."""
    course = batch["course"]
    leftovers = [p for p in course.root.rglob("*") if p.name in {"fill.bin", "planted.py"} or p.name.startswith("part")]
    assert leftovers == []


# -- what the sandbox looks like from inside (fast, no nbgrader) -------------------------
def _inside(code: str, workdir: Path, **env: str) -> subprocess.CompletedProcess:
    cmd = sandbox.sandbox_command([sys.executable, "-c", code], workdir=workdir)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, env={**os.environ, **env})


def test_the_repository_shows_only_the_helper_package(tmp_path, sandbox_ready):
    """Of the repository, the kernel sees the helper package (and the venv when it lives there)."""
    done = _inside(f"import os, json; print(json.dumps(sorted(os.listdir({str(ROOT)!r}))))", tmp_path)
    assert done.returncode == 0, done.stderr
    visible = set(json.loads(done.stdout))
    assert "toolfaults" in visible
    assert visible <= {"toolfaults", ".venv"}, visible


def test_the_environment_is_rebuilt_from_scratch(tmp_path, sandbox_ready):
    done = _inside("import os, json; print(json.dumps(dict(os.environ)))", tmp_path,
                   ANTHROPIC_API_KEY="sk-ant-not-a-real-key", GRADER_SECRET=SECRET)
    env = json.loads(done.stdout)
    assert "ANTHROPIC_API_KEY" not in env and "GRADER_SECRET" not in env
    assert env["HOME"] == "/tmp/home" and env["USER"] == "student"


def test_the_kernel_runs_as_nobody_without_capabilities(tmp_path, sandbox_ready):
    done = _inside("import os; print(os.getuid(), os.getgid());"
                   "print([l for l in open('/proc/self/status') if l.startswith('CapEff')][0].split()[1])", tmp_path)
    uid_gid, caps = done.stdout.splitlines()
    assert uid_gid == "65534 65534"
    assert int(caps, 16) == 0


@pytest.mark.slow
def test_the_start_up_figures_of_make_bench_measure_both_kernels(sandbox_ready):
    """`make bench` (section sandbox) times a plain and a sandboxed kernel from start to first reply; here,
    only that both started and answered (how long they took depends on the machine's load)."""
    figures = sandbox.startup_overhead(runs=1)
    assert figures["runs"] == 1
    assert figures["plain_s"] > 0 and figures["sandboxed_s"] > 0 and figures["forked_s"] > 0, figures
    assert figures["overhead_s"] == figures["sandboxed_s"] - figures["plain_s"], figures


# -- configuration -------------------------------------------------------------------------
def test_without_bwrap_grading_refuses_and_says_what_to_do(monkeypatch):
    from autograder import jail

    jail._check.cache_clear()
    monkeypatch.setattr(jail.shutil, "which", lambda name: None)
    try:
        with pytest.raises(sandbox.SandboxUnavailable) as err:
            sandbox.check_sandbox()
        assert "bubblewrap" in str(err.value) and "--unsandboxed" in str(err.value)
        assert sandbox.where_available() == {}, "the proofs' scratch courses grade unsandboxed where it cannot run"
    finally:
        jail._check.cache_clear()


def test_a_broken_bwrap_refuses_too():
    with pytest.raises(sandbox.SandboxUnavailable, match="does not run"):
        sandbox.check_sandbox("/nonexistent/bwrap")


def test_unsandboxed_grading_is_explicit_and_loud():
    """The grade command's --unsandboxed: its settings have no sandbox, and it says so on the stream it is given."""
    from autograder.grade import grading_settings

    stream = io.StringIO()
    settings = grading_settings(unsandboxed=True, stream=stream)
    assert "WITHOUT A SANDBOX" in stream.getvalue()
    assert "SandboxedKernelManager" not in settings
    assert not sandbox.is_sandboxed(Config(settings))


def test_the_sandbox_settings_leave_the_course_config_alone(sandbox_ready):
    """Learners are unaffected: the course's own config (JupyterLab, validate) has no sandbox."""
    settings = sandbox.course_settings(memory_limit=512 * 1024 ** 2)
    boxed = Config(settings)
    assert sandbox.is_sandboxed(boxed) and not sandbox.is_sandboxed(load_config())
    assert boxed.SandboxedKernelManager.memory_limit == 512 * 1024 ** 2
    assert boxed.Execute.kernel_name == "python3"
    assert "sandbox" not in (ROOT / "nbgrader_config.py").read_text().lower()
    assert sandbox.where_available() == sandbox.course_settings(), "the proofs grade as the grade command does"


def test_every_execute_step_of_a_custom_pipeline_is_sandboxed():
    from nbgrader.preprocessors import Execute

    class MyExecute(Execute):
        pass

    pipeline = sandbox.sandboxed_pipeline([MyExecute, "not a class"])
    assert issubclass(pipeline[0], MyExecute) and pipeline[0].sandboxed and pipeline[1] == "not a class"
    with pytest.raises(sandbox.SandboxUnavailable):
        sandbox.sandboxed_pipeline(["no execute step"])
    with pytest.raises(TypeError):
        sandbox.course_settings(memory=1)


def test_sandboxed_classes_pickle_by_reference():
    """A config holding the sandboxed step can be sent to another process (multiprocessing, Dask)."""
    from nbgrader.preprocessors import Execute

    cls = sandbox.sandboxed_class(Execute)
    assert pickle.loads(pickle.dumps(cls)) is cls
    settings = sandbox.course_settings()
    assert pickle.loads(pickle.dumps(settings)) == settings
    code = ("import pickle, sys; cls = pickle.loads(sys.stdin.buffer.read()); "
            "print(cls.__name__, cls.sandboxed, cls.__mro__[1].__name__)")
    done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(cls), capture_output=True, cwd=ROOT,
                          timeout=120)
    assert done.stdout.decode().split() == ["SandboxedExecute", "True", "Execute"], done.stderr.decode()


def test_a_course_sandboxed_in_place_is_sandboxed_where_a_worker_rebuilds_it(tmp_path):
    """`course.configure(course_settings(...))` changes the course and its `spec()`, from which each Dask worker
    builds its own course."""
    course = Course.scratch(tmp_path, SOURCE)
    course.configure(sandbox.course_settings(memory_limit=2 ** 30))
    rebuilt = Course.from_spec(course.spec())
    for built in (course, rebuilt):
        assert sandbox.is_sandboxed(built.config)
        assert built.config.SandboxedKernelManager.memory_limit == 2 ** 30
    assert not sandbox.is_sandboxed(Course.scratch(tmp_path / "plain", SOURCE).config)
