"""`make learner-edition`: a repository of its own, with the lessons and exercises and no answer line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from autograder import edition
from autograder.course import REPOSITORY, ROOT

CLASS_REPO = "https://github.com/example-school/errors-spring"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    dest = tmp_path_factory.mktemp("edition") / "class"
    return edition.build(dest, CLASS_REPO)


def _git(dest: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=dest, capture_output=True, text=True, check=True).stdout.strip()


def test_secret_lines_come_from_the_solutions_regions():
    """The lines looked for are the solutions' and hidden tests' own, not their boilerplate."""
    secrets = edition.secret_lines()
    kinds = set(secrets.values())
    assert kinds == {"solution", "hidden test"}, kinds
    assert sum(k == "solution" for k in secrets.values()) > 50 and sum(k == "hidden test" for k in secrets.values()) > 20
    assert not any(edition.trivial(line) for line in secrets), "blank lines, brackets and `pass` are not answers"
    taught = edition.taught_lines()
    assert not set(secrets) & taught, "a line the lessons show openly is not a secret"


def test_no_answer_line_in_the_edition(built):
    """No file of the edition holds a line of a solution or of a hidden test."""
    assert edition.leaks(built.dest) == []


def test_the_scan_finds_a_planted_answer(built, tmp_path):
    """The scan is not blind: a solution line in a lesson and a hidden test line in a text file are found."""
    copy = tmp_path / "copy"
    shutil.copytree(built.dest, copy, ignore=shutil.ignore_patterns(".git"))
    secrets = edition.secret_lines()
    solution = next(line for line, kind in sorted(secrets.items()) if kind == "solution" and len(line) > 30)
    hidden = next(line for line, kind in sorted(secrets.items()) if kind == "hidden test" and len(line) > 30)
    lesson = copy / "course" / "01_five_error_types.ipynb"
    nb = nbformat.read(lesson, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("x = 1\n    " + solution))
    nbformat.write(nb, lesson)
    (copy / "notes.md").write_text(f"remember:\n  {hidden}\n")
    found = {(f, kind) for f, kind, _ in edition.leaks(copy, secrets)}
    assert found == {("course/01_five_error_types.ipynb", "solution"), ("notes.md", "hidden test")}


def test_edition_holds_the_learner_material_only(built):
    """Lessons, exercises, the helper package and the environment are in; solutions, grader, samples are out."""
    files = set(built.files)
    for must in ("course/00_index.ipynb", "exercises/05_retry_with_backoff/05_retry_with_backoff.ipynb",
                 "exercises/01_five_error_types/01_five_error_types.ipynb",
                 "exercises/08_troubleshooting_and_measuring_es/08_troubleshooting_and_measuring_es.ipynb",
                 "toolfaults/__init__.py", "tests/package/test_tools.py", "tests/test_course.py", "Makefile",
                 "README.md", "environment.yml", "requirements.txt", "constraints.txt", "pyproject.toml",
                 "postBuild", "binder/labsettings.py", ".gitignore"):
        assert must in files, f"the edition lacks {must}"
    for part in ("solutions/", "autograder/", "coursetools/", "classes/", "class.local", "docs/", "nbgrader_config.py"):
        assert not [f for f in files if f.startswith(part)], f"the edition must not hold {part}"
    assert not any("catalogue" in f or "submitted" in f for f in files)
    for name in ("requirements.txt", "environment.yml"):
        text = (built.dest / name).read_text()
        assert "nbgrader==" in text and "dask==" not in text and "psycopg2" not in text and "playwright" not in text
    assert "autograder" not in (built.dest / "postBuild").read_text(), "Binder must not need the grader"
    assert "autograder" not in (built.dest / "Makefile").read_text()
    assert "autograder" not in (built.dest / "pyproject.toml").read_text(), "pip must install toolfaults only"
    exercises = sorted((ROOT / "exercises").glob("*/*.ipynb"))
    assert all((built.dest / p.relative_to(ROOT)).read_bytes() == p.read_bytes() for p in exercises)


def test_makefile_has_the_learner_targets(built):
    """`make help` of the edition lists lab and test (and progress when the course has it)."""
    out = subprocess.run(["make", "help"], cwd=built.dest, capture_output=True, text=True, check=True).stdout
    assert "make lab" in out and "make test" in out and "grade" not in out
    has_progress = (ROOT / "toolfaults" / "progress.py").is_file() or "\nprogress:" in (ROOT / "Makefile").read_text()
    assert ("make progress" in out) == has_progress


def test_badges_are_written_from_the_repository_address(built):
    """Both editions' Binder badges come from their repository's address, given once."""
    readme = (built.dest / "README.md").read_text()
    assert edition.badge(CLASS_REPO) in readme
    assert "mybinder.org/v2/gh/example-school/errors-spring/HEAD?urlpath=lab/tree/course/00_index.ipynb" in readme
    assert json.loads((built.dest / ".edition.json").read_text())["repository"] == CLASS_REPO
    assert edition.readme_badge(ROOT / "README.md", REPOSITORY, write=False), (
        "README.md's Binder badges are not those of autograder/course.py's REPOSITORY: "
        "run `python -m autograder.edition badge`")
    course_readme = (ROOT / "README.md").read_text()
    assert edition.badge(REPOSITORY, "course/es/00_index.ipynb", "es") in course_readme, (
        "the README's Spanish section has no Binder badge opening course/es/00_index.ipynb")
    assert edition.binder_url("git@gitlab.com:group/course.git").startswith("https://mybinder.org/v2/gl/group%2Fcourse/HEAD")


def test_an_edition_in_spanish(tmp_path):
    """LANG=es: the first page, README and Binder badge are the Spanish edition's; the course map links resolve."""
    import re

    spanish = edition.build(tmp_path / "clase", CLASS_REPO, language="es")
    assert spanish.language == "es"
    makefile = (spanish.dest / "Makefile").read_text()
    assert "FIRST_PAGE := course/es/00_index.ipynb" in makefile
    readme = (spanish.dest / "README.md").read_text()
    assert readme.startswith("# Manejo de errores en tool calling con LLM")
    assert edition.badge(CLASS_REPO, "course/es/00_index.ipynb", "es") in readme
    assert "Pulsa el botón de Binder" in readme and "## Mapa del curso" in readme
    links = re.findall(r"\]\(((?:course|exercises)/[^)]+\.ipynb)\)", readme)
    assert len(links) >= 10 and all("/es/" in link or "_es/" in link for link in links), links
    missing = [link for link in links if not (spanish.dest / link).is_file()]
    assert not missing, f"the Spanish README links notebooks the edition lacks: {missing}"
    assert edition.leaks(spanish.dest) == []
    again = edition.build(spanish.dest)   # the language is remembered, like the address
    assert again.language == "es" and again.commit is None


def test_edition_has_its_own_history(built, tmp_path):
    """A git repository of its own; a later build commits what changed, and nothing when nothing did."""
    assert _git(built.dest, "rev-parse", "--show-toplevel") == str(built.dest)
    assert _git(built.dest, "status", "--porcelain") == ""
    assert len(_git(built.dest, "log", "--format=%H").splitlines()) == 1
    again = edition.build(built.dest)  # the repository's address is remembered
    assert again.commit is None and again.repository == CLASS_REPO
    (built.dest / "course" / "stale_lesson.ipynb").write_text("{}")  # a file the course no longer has
    _git(built.dest, "add", "-A")
    _git(built.dest, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "instructor's change")
    third = edition.build(built.dest)
    assert third.commit and not (built.dest / "course" / "stale_lesson.ipynb").exists()
    assert len(_git(built.dest, "log", "--format=%H").splitlines()) == 3


def test_refuses_a_folder_that_is_not_an_edition(tmp_path):
    """It never writes over a folder of other files, or into the course itself."""
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(edition.EditionError, match="not a learner edition"):
        edition.build(tmp_path)
    with pytest.raises(edition.EditionError, match="the course itself"):
        edition.build(ROOT)
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def lesson_imports(folder: Path) -> list[str]:
    """Every module the lessons' code cells in ``folder`` import, read as the clean room reads a notebook's
    imports (:func:`autograder.cleanroom.imports`: IPython's magics turned into Python first)."""
    from autograder.cleanroom import imports, python_source

    cells = [{"kind": "code", "source": python_source(cell.source)} for path in sorted(folder.rglob("*.ipynb"))
             for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]
    return imports(cells, kind="code")[0]


def test_the_edition_lessons_are_the_course_lessons(built):
    """The edition's lessons are the course's files, byte for byte: what the browser tests run on every
    Python (tests/e2e/test_run_all.py) is what a learner of the edition opens."""
    course = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "course").rglob("*.ipynb")
                    if ".ipynb_checkpoints" not in p.parts)
    assert course and [f for f in sorted(built.files) if f.startswith("course/") and f.endswith(".ipynb")] == course
    differ = [f for f in course if (built.dest / f).read_bytes() != (ROOT / f).read_bytes()]
    assert not differ, f"the edition changed these lessons: {differ}"


@pytest.mark.slow
def test_fresh_clone_of_the_edition_passes_its_own_make_test(built, tmp_path):
    """`git clone` of the edition, then its `make test`: creates its venv and runs the learner checks.

    Of the lesson runs, one in each language: the lessons are the course's own files (the test above),
    run in the browser on every supported Python. What could differ here is the edition's environment:
    those lessons run in it, the exercises' set-up cells run in it, and every module any lesson imports
    imports in it.
    """
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(built.dest), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTEST", "COURSE_"))}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if ".venv" not in p)
    done = subprocess.run(["make", "test", "PYTEST_ARGS=-q -p no:cacheprovider -rp "
                           "-k 'not test_lesson_runs_offline or A1_'"],
                          cwd=clone, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert (clone / ".venv" / ".installed").exists(), "make test must have created the edition's own venv"
    assert " passed" in done.stdout and " failed" not in done.stdout
    ran = [line for line in done.stdout.splitlines() if line.startswith("PASSED") and "test_lesson_runs_offline" in line]
    assert len(ran) == 2 and all("A1_" in line for line in ran), ran  # the English one and the Spanish one
    assert "test_exercise_sets_up" in done.stdout
    modules = lesson_imports(clone / "course")
    assert "toolfaults" in modules and "langchain_core.tools" in modules, modules
    imported = subprocess.run([str(clone / ".venv" / "bin" / "python"), "-c",
                               "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)", *modules],
                              cwd=clone, env={**env, "MPLBACKEND": "Agg"}, capture_output=True, text=True, timeout=300)
    assert imported.returncode == 0, f"a module the lessons import is missing from the edition:\n{imported.stderr[-2000:]}"
