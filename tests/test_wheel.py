"""The grader installs as a normal wheel and runs from any folder (issue 43, COURSE_SPEC §5).

The wheel is built offline (``pip wheel --no-build-isolation .``, with the setuptools the venv pins),
installed without its dependencies into a scratch venv that borrows the course venv's packages (a
``.pth`` file: the test reaches no package index), and run from a folder outside the repository,
against a course folder that is not the checkout: ``autograder --help``, ``autograder class show``,
and ``autograder grade`` of one submission, whose feedback page needs the package's templates. The wheel
holds ``autograder`` and ``toolfaults`` only: the course's own tooling (``coursetools/``, the proof catalogue
included) stays in the checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from autograder.course import ROOT, SUBMITTED

A04 = "04_validate_then_execute"
STUDENT = "goran"  # the sample class's solution of exercise 4 (coursetools/sample_class.py)


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("src") / "course"
    # Build from a clean copy of what git tracks, so that the checkout's build/ and egg-info stay as they are.
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in filter(None, files.split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(out), str(source)])
    found = sorted(out.glob("*.whl"))
    assert len(found) == 1, found
    return found[0]


def test_the_wheel_holds_the_grader_its_templates_and_no_course_data_or_tooling(wheel: Path):
    """The grader and the helper package with their data; not the course's own tooling (coursetools/: the
    fairness proofs, the tricks, the sample class's builder, the benchmark) nor the proof catalogue."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("autograder/cli.py", "autograder/inside/run.py", "autograder/lms/export.py", "autograder/templates/feedback.html",
                   "autograder/templates/style.css", "autograder/learner_edition/Makefile", "toolfaults/policy.py"):
        assert needed in names, f"{needed} is not in the wheel"
    scripts = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "autograder = autograder.cli:main" in scripts, scripts
    data = [n for n in names if n.startswith(("coursetools/", "classes/", "solutions/")) or "/catalogue/" in n]
    assert not data, f"course data or tooling in the wheel: {data[:5]}"
    packages = {n.split("/", 1)[0] for n in names if "/" in n and ".dist-info/" not in n}
    assert packages == {"autograder", "toolfaults"}, packages


@pytest.mark.slow
def test_an_installed_wheel_grades_a_course_from_another_folder(wheel: Path, tmp_path: Path):
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    site = Path(subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # The course venv's packages (langchain, nbgrader...) without its editable install of this checkout.
    (site / "course-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet", "--no-deps",
          "--no-index", str(wheel)])
    python = venv / "bin" / "python"
    where = subprocess.run([str(python), "-c", "import autograder, toolfaults; print(autograder.__file__, toolfaults.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert str(ROOT) not in where and str(site) in where, f"not the installed wheel: {where}"
    tooling = subprocess.run([str(python), "-c", "import coursetools"], capture_output=True, text=True, cwd=tmp_path)
    assert "No module named 'coursetools'" in tooling.stderr, "the course's tooling came with the grader's wheel"

    course = tmp_path / "course"  # a course folder that is not the checkout: what the grader needs of it
    course.mkdir()
    shutil.copy2(ROOT / "nbgrader_config.py", course / "nbgrader_config.py")
    shutil.copytree(ROOT / "solutions" / A04, course / "solutions" / A04)
    klass = tmp_path / "spring"
    shutil.copytree(SUBMITTED / STUDENT / A04, klass / "submitted" / STUDENT / A04)
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    env = {**{k: v for k, v in os.environ.items() if k not in ("AUTOGRADER_CLASS", "PYTHONPATH")},
           "AUTOGRADER_COURSE": str(course), "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    command = str(venv / "bin" / "autograder")

    listing = _run([command, "--help"], cwd=elsewhere, env=env).stdout
    assert "grade" in listing and "bench" not in listing, listing  # the benchmark is the checkout's (make bench)
    shown = _run([command, "class", "show"], cwd=elsewhere, env={**env, "AUTOGRADER_CLASS": str(klass)}).stdout
    assert "spring (named by AUTOGRADER_CLASS)" in shown, shown
    _run([command, "grade", "--class", str(klass), "--assignment", A04, "--workers", "1", "--unsandboxed"],
         cwd=elsewhere, env=env)
    rows = (klass / "output" / "grades.csv").read_text().splitlines()
    assert any(row.startswith(f"{STUDENT},{A04},") and ",18,18," in row.replace(".0", "") for row in rows), rows
    page = klass / "output" / "feedback" / STUDENT / A04 / f"{A04}.html"
    assert page.is_file() and "<style>" in page.read_text(), "the feedback page (the package's templates) is missing"
    feedback = json.loads((klass / "output" / "feedback" / STUDENT / A04 / "feedback.json").read_text())
    # The clean room ran from the installed package (autograder/inside/): a run that could not start says so here.
    assert feedback["score"] == 18 and feedback["problems"] == [], feedback["problems"]
