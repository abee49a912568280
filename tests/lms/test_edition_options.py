"""`make learner-edition`, the course exported for a class: its language and its own `make test`.

- The edition's language is the one given on make's command line (`LANG=es`), never the
  shell's locale: a Spanish-speaking instructor (LANG=es_ES.UTF-8) updating an English
  edition must not turn it Spanish.
- The edition's `make test` runs the lessons of every language it holds: course/ and course/es/.

(The edition itself, and its `make test` in a fresh clone: test_edition.py.)
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from autograder import edition
from autograder.course import ROOT


def _env(**changes: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "MAKE"))}
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def _edition_command(*make_args: str, locale: str | None) -> str:
    """The command `make learner-edition` would run (make -n), with the shell's locale ``locale``."""
    done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), "learner-edition",
                           "DEST=/nonexistent/class", *make_args],
                          env=_env(LANG=locale, LC_ALL=None), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.replace("\\\n", " ").splitlines() if "autograder learner-edition" in line]
    assert len(lines) == 1, done.stdout
    return lines[0]


def test_the_shells_locale_does_not_choose_the_editions_language():
    """LANG=es_ES.UTF-8 in the environment: no --language (the edition keeps its own); LANG= on make's line counts."""
    for locale in ("es_ES.UTF-8", "es", "en_US.UTF-8", None):
        assert "--language" not in _edition_command(locale=locale), locale
    assert '--language "es"' in _edition_command("LANG=es", locale="en_US.UTF-8")
    assert '--language "es"' in _edition_command("LANG=es_MX.UTF-8", locale=None)
    assert '--language "en"' in _edition_command("LANG=en", locale="es_ES.UTF-8")


@pytest.fixture(scope="module")
def spanish_edition(tmp_path_factory):
    return edition.build(tmp_path_factory.mktemp("edition") / "clase", language="es")


def _pytest_in(dest, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=dest,
                          env=_env(), capture_output=True, text=True, timeout=300)


def test_the_editions_make_test_runs_every_languages_lessons(spanish_edition):
    """The learner tests collect each lesson of course/ and of course/es/ (as `make test` in the edition runs them)."""
    dest = spanish_edition.dest
    done = _pytest_in(dest, "--collect-only", "tests/test_course.py")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    collected = set(done.stdout.split())
    lessons = [p for folder in (dest / "course", dest / "course" / "es") for p in sorted(folder.glob("*.ipynb"))]
    assert len(lessons) >= 20, lessons
    for path in lessons:
        name = path.relative_to(dest / "course").with_suffix("").as_posix()
        assert f"tests/test_course.py::test_lesson_runs_offline[{name}]" in collected, (name, sorted(collected)[:40])
    ran = _pytest_in(dest, "tests/test_course.py::test_every_lesson_is_run")
    assert ran.returncode == 0, ran.stdout[-3000:]
