"""autograder/layout.py: which folder is the course, for a checkout, a wheel install run from inside a course, and
the environment's AUTOGRADER_COURSE."""

from __future__ import annotations

from pathlib import Path

from autograder import layout


def course(folder: Path) -> Path:
    (folder / "solutions").mkdir(parents=True)
    (folder / "nbgrader_config.py").write_text("c = get_config()\n")
    return folder


def test_the_checkout_is_the_course_and_the_environment_names_another(tmp_path):
    assert layout.ROOT == Path(layout.__file__).resolve().parents[1] and layout.is_course(layout.ROOT)
    other = course(tmp_path / "spring")
    assert layout.find_root(environ={layout.ENVIRONMENT: str(other)}) == other.resolve()
    assert layout.find_root(environ={layout.ENVIRONMENT: "  "}) == layout.ROOT  # blank: not set


def test_an_installed_grader_finds_the_course_it_is_run_in(tmp_path, monkeypatch):
    installed = tmp_path / "site-packages" / "autograder" / "layout.py"
    monkeypatch.setattr(layout, "__file__", str(installed))  # a wheel: no course around the package
    spring = course(tmp_path / "spring")
    deep = spring / "classes" / "a" / "submitted"
    deep.mkdir(parents=True)
    assert layout.find_root(cwd=deep, environ={}) == spring.resolve()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert layout.find_root(cwd=elsewhere, environ={}) == elsewhere.resolve()  # none: the commands say so later


def test_a_folder_is_a_course_only_with_both_markers(tmp_path):
    (tmp_path / "solutions").mkdir()
    assert not layout.is_course(tmp_path)
    (tmp_path / "nbgrader_config.py").write_text("")
    assert layout.is_course(tmp_path)
