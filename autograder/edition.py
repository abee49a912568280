"""The learner edition: a repository of its own with the lessons and exercises, and no answers.

    python -m autograder.edition DEST [--repository URL] [--language es|en]   # what `make learner-edition` runs
    python -m autograder.edition badge [--check]                              # write (check) the README's Binder badge

The course repository holds ``solutions/`` (every solution and every hidden test), the
grader and a sample class. A graded class must not get those, so the class's repository
is a *learner edition* written from this one:

- copied: the lessons (``course/``), the released exercises (``exercises/``), the helper
  package (``toolfaults/``) with its unit tests, ``pyproject.toml`` and the pinned
  environment, without the packages only grading needs;
- written from ``autograder/learner_edition/``: a Makefile with the learner targets
  (``make lab``, ``make test``, and ``make progress`` when the course has it), a README
  for learners, Binder's ``postBuild`` (with its own copy of :mod:`autograder.labsettings`,
  so that nothing imports the grader), and the learner tests;
- never: ``solutions/``, ``autograder/`` and ``coursetools/`` (grading code, proofs, catalogue),
  ``classes/`` (the sample class's submissions), the instructors' docs.

DEST becomes a git repository with its own history: the first run creates it, a later run
replaces the files with the current course's and commits the difference (nothing when
nothing changed). Before it commits, every file is scanned for a line that only the
solutions' ``BEGIN SOLUTION`` / ``BEGIN HIDDEN TESTS`` regions hold (:func:`leaks`); one
found stops the build.

The Binder badge of an edition is written from the class repository's address, given
once: ``--repository`` (kept in ``.edition.json`` for later runs) or else the ``origin``
remote of DEST. The course's own README badge comes from :data:`autograder.course.REPOSITORY`.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import nbformat

from .course import REPOSITORY, ROOT, SOLUTIONS

log = logging.getLogger(__name__)

TEMPLATES = Path(__file__).resolve().parent / "learner_edition"
FIRST_PAGE = "course/00_index.ipynb"
# The first page of each language's edition (`make learner-edition LANG=es`, `make lab LANG=es`).
FIRST_PAGES = {"en": FIRST_PAGE, "es": "course/es/00_index.ipynb"}
# Tracked files of the course copied as they are (folders, then single files).
COPIED = ("course/", "exercises/", "toolfaults/", "tests/package/", "pyproject.toml", "constraints.txt")
# Pins that only grading and the course's own tests need (Dask, PostgreSQL, the browser tests).
GRADING_ONLY = {"dask", "distributed", "psycopg2-binary", "playwright"}
MANIFEST = ".edition.json"
REGION = re.compile(r"^\s*#+\s*(BEGIN|END) (SOLUTION|HIDDEN TESTS)\b")
# Lines that say nothing about an answer: no letter or digit, or a bare keyword.
BARE = {"pass", "else:", "try:", "finally:", "return", "return None", "return True", "return False",
        "break", "continue", "raise", "except Exception:", "...", "None"}


class EditionError(RuntimeError):
    """The edition cannot be written (a leak, a folder that is not an edition, git failing)."""


# --- what must never be published -------------------------------------------------------------

def trivial(line: str) -> bool:
    """True for a line that tells nothing about an answer: blank, brackets, ``pass``, ``else:``..."""
    s = line.strip()
    return not re.search(r"[A-Za-z0-9]", s) or s in BARE


# The course's own public material: a line a lesson or the helper package shows openly
# (`messages.append(response)`, an import) is not an answer even when a solution uses it too.
TAUGHT = ("course/*.ipynb", "course/es/*.ipynb", "toolfaults/*.py", "tests/package/*.py")


def taught_lines(source: Path = ROOT) -> set[str]:
    """Every line of the lessons, the helper package and its tests (stripped)."""
    return {line for pattern in TAUGHT for path in sorted(Path(source).glob(pattern))
            for line in (_text_lines(path) or [])}


def secret_lines(solutions: Path = SOLUTIONS, source: Path = ROOT) -> dict[str, str]:
    """Every non-trivial line that appears only inside a solution or hidden-test region.

    Returns line -> ``"solution"`` or ``"hidden test"``. A line that also appears outside
    those regions (a visible test, a set-up cell) is public in the exercise, and a line the
    lessons or the helper package show (:func:`taught_lines`) is public in the course: both
    are left out.
    """
    inside: dict[str, str] = {}
    outside: set[str] = taught_lines(source)
    for path in sorted(Path(solutions).glob("*/*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            region = None
            for raw in cell.source.splitlines():
                m = REGION.match(raw)
                if m:
                    region = ("solution" if m.group(2) == "SOLUTION" else "hidden test") if m.group(1) == "BEGIN" else None
                    continue
                line = raw.strip()
                if trivial(line):
                    continue
                if region:
                    inside.setdefault(line, region)
                else:
                    outside.add(line)
    return {line: kind for line, kind in inside.items() if line not in outside}


def _text_lines(path: Path) -> list[str] | None:
    """The lines of a text file, with each notebook cell's source lines as lines (None: binary)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None
    lines = [line.strip() for line in text.splitlines()]
    if path.suffix == ".ipynb":
        try:
            nb = nbformat.reads(text, as_version=4)
            lines += [line.strip() for cell in nb.cells for line in cell.source.splitlines()]
        except Exception:  # an unreadable notebook is still scanned as text
            pass
    return lines


def leaks(folder: Path, secrets: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    """Every (file, kind, line) of ``folder`` (``.git`` and ``.venv`` aside) that is a secret line."""
    secrets = secret_lines() if secrets is None else secrets
    found = []
    folder = Path(folder)
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder)
        if rel.parts[0] in (".git", ".venv") or "__pycache__" in rel.parts:
            continue
        for line in sorted(set(_text_lines(path) or [])):
            if line in secrets:
                found.append((rel.as_posix(), secrets[line], line))
    return found


# --- Binder -----------------------------------------------------------------------------------

def binder_url(repository: str, page: str = FIRST_PAGE) -> str:
    """The mybinder.org link that opens JupyterLab on ``page`` of ``repository`` (its web or git address)."""
    repo = repository.strip()
    m = re.match(r"^(?:https?://|git@)(github\.com|gitlab\.com)[/:]([^/\s]+)/([^/\s]+?)(?:\.git)?/?$", repo)
    if m:
        host, owner, name = m.groups()
        spec = f"gh/{owner}/{name}/HEAD" if host == "github.com" else f"gl/{quote(owner + '/' + name, safe='')}/HEAD"
    elif re.match(r"^https?://", repo):
        spec = f"git/{quote(repo, safe='')}/HEAD"
    else:
        raise ValueError(f"not a repository address Binder can open: {repository!r} (e.g. https://github.com/OWNER/REPO)")
    return f"https://mybinder.org/v2/{spec}?urlpath=lab/tree/{page}"


BADGE_LABELS = {"en": "Binder", "es": "Binder (español)"}


def badge(repository: str, page: str = FIRST_PAGE, language: str = "en") -> str:
    """The Binder badge (Markdown) for ``repository``; the Spanish one is labelled and opens ``page``."""
    return f"[![{BADGE_LABELS[language]}](https://mybinder.org/badge_logo.svg)]({binder_url(repository, page)})"


def _badge_line(language: str) -> re.Pattern[str]:
    return re.compile(rf"^\[!\[{re.escape(BADGE_LABELS[language])}\]\([^)]*\)\]\([^)]*\)$", re.M)


BADGE_LINE = _badge_line("en")


def readme_badge(readme: Path, repository: str = REPOSITORY, write: bool = True) -> bool:
    """Make ``readme``'s Binder badges (the English one, and the Spanish section's when there is
    one) those of ``repository``; returns True when they already were."""
    text = new = Path(readme).read_text(encoding="utf-8")
    if not BADGE_LINE.search(text):
        raise EditionError(f"{readme} has no Binder badge line to update")
    for language, page in FIRST_PAGES.items():
        line = _badge_line(language)
        if line.search(new):
            new = line.sub(badge(repository, page, language), new, count=1)
    if new == text:
        return True
    if write:
        Path(readme).write_text(new, encoding="utf-8")
    return False


# --- writing the edition ----------------------------------------------------------------------

@dataclass
class Edition:
    """What :func:`build` wrote."""

    dest: Path
    files: list[str] = field(default_factory=list)
    repository: str | None = None
    commit: str | None = None  # the edition's new commit (None: nothing changed)
    language: str = "en"


def _git(*args: str, cwd: Path, check: bool = True) -> str:
    env_identity = ["-c", "user.name=Course edition", "-c", "user.email=edition@localhost"]
    has_identity = subprocess.run(["git", "config", "user.email"], cwd=cwd, capture_output=True, text=True).stdout.strip()
    cmd = ["git", *([] if has_identity else env_identity), *args]
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if check and done.returncode:
        raise EditionError(f"`git {' '.join(args)}` failed in {cwd}: {done.stderr.strip()}")
    return done.stdout.strip()


def _tracked(source: Path) -> list[str]:
    """The course's tracked files the edition copies (as they are in the work tree)."""
    listed = _git("ls-files", "-z", "--", *COPIED, cwd=source).split("\0")
    return sorted(p for p in listed if p and (source / p).is_file())


def _without_grading_pins(text: str) -> str:
    """``requirements.txt`` / ``environment.yml`` without the grading-only pins and their empty sections."""
    out: list[str] = []
    for line in text.splitlines():
        name = re.match(r"^\s*-?\s*([A-Za-z0-9_.\-]+)\s*==", line)
        if name and name.group(1).lower() in GRADING_ONLY:
            continue
        out.append(line)
    # a section heading ("# --- ... ---") followed by no pin before the next heading or the end
    kept = [line for i, line in enumerate(out) if not (
        re.match(r"^# ---.*---$", line.strip())
        and all(not re.search(r"==", nxt) for nxt in _until_heading(out[i + 1:])))]
    text = "\n".join(kept).replace("tests/test_repo.py", "tests/test_course.py")
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"


#: The course's ``pyproject.toml`` sections that install or describe the grader: not in the learner edition.
GRADER_SECTIONS = ("[project.scripts]", "[tool.setuptools]", "[tool.setuptools.packages.find]",
                   "[tool.setuptools.package-data]")
LEARNER_PACKAGES = '[tool.setuptools]\npackages = ["toolfaults"]\n'


def _learner_pyproject(text: str) -> str:
    """``pyproject.toml`` installing the helper package only (the course's also installs the grader).

    The file is cut into sections, each with the comment lines above its header; the grader's
    (:data:`GRADER_SECTIONS`) are left out, and one that installs ``toolfaults`` alone takes their place.
    """
    lines = text.splitlines()
    starts = []
    for index, line in enumerate(lines):
        if line.startswith("["):
            start = index
            while start > 0 and lines[start - 1].startswith("#"):
                start -= 1  # the comment right above a header is that section's
            starts.append(start)
    bounds = [0, *starts, len(lines)]
    kept, placed = [], False
    for begin, end in zip(bounds, bounds[1:]):
        section = lines[begin:end]
        header = next((x.strip() for x in section if x.startswith("[")), "")
        if header in GRADER_SECTIONS:
            if not placed:
                kept.append([*LEARNER_PACKAGES.rstrip("\n").split("\n"), ""])
                placed = True
            continue
        kept.append(section)
    out = "\n".join(line for lines in kept for line in lines)
    return re.sub(r"\n{3,}", "\n\n", out).rstrip("\n") + "\n"


def _until_heading(lines: list[str]) -> list[str]:
    taken = []
    for line in lines:
        if re.match(r"^# ---.*---$", line.strip()):
            break
        taken.append(line)
    return taken


def _makefile_extra(source: Path) -> tuple[str, str]:
    """The learner targets the course has beyond lab and test: ``make progress`` when it exists."""
    makefile = (source / "Makefile").read_text()
    m = re.search(r"^progress:[^\n]*\n(?:\t[^\n]*\n)+", makefile, re.M)
    if m:
        return "progress", "\n" + m.group(0)
    if (source / "toolfaults" / "progress.py").is_file():
        return "progress", ("\nprogress: $(STAMP) ## Show which exercises you have done and what is left\n"
                            "\t$(RUN) $(OFFLINE) $(BIN)/python -m toolfaults.progress\n")
    return "", ""


def _section(markdown: str, heading: str) -> str:
    m = re.search(rf"^## {re.escape(heading)}\n.*?(?=^## |\Z)", markdown, re.M | re.S)
    return m.group(0) if m else ""


#: The learner README's words that depend on the language (the rest is in its template).
README_WORDS = {
    "en": {
        "binder": ("Click the Binder badge above: JupyterLab opens on the course's first page in your "
                   "browser, with nothing to install. (Binder keeps nothing: download the notebooks you "
                   "work on before you close the tab.)"),
        "clone": "Your instructor gives you the repository's address; clone it and run it on your machine:",
        "progress": "make progress  # which exercises you have done, and what is left\n",
    },
    "es": {
        "binder": ("Pulsa el botón de Binder de arriba: JupyterLab se abre en la primera página del curso, "
                   "en tu navegador, sin instalar nada. (Binder no guarda nada: descarga los notebooks en "
                   "los que trabajas antes de cerrar la pestaña.)"),
        "clone": "Tu profesor te da la dirección del repositorio; clónalo y ejecútalo en tu máquina:",
        "progress": "make progress  # qué ejercicios has terminado y qué te falta\n",
    },
}


def _course_map(source: Path, language: str) -> str:
    """The course map of the course README, in ``language`` (the Spanish one is in its "En español" section)."""
    readme = (source / "README.md").read_text()
    if language == "es":
        m = re.search(r"^### Mapa del curso\n.*?(?=^##|\Z)", _section(readme, "En español"), re.M | re.S)
        return ("#" + m.group(0)) if m else ""
    course_map = _section(readme, "Course map")
    return re.sub(r"\n(Exercises `convert_temperature`.*?)(?=\n\n|\Z)", "", course_map, flags=re.S)


def _readme(source: Path, repository: str | None, progress: bool, language: str = "en") -> str:
    text = (TEMPLATES / ("README.md" if language == "en" else f"README.{language}.md")).read_text()
    words = README_WORDS[language]
    if repository:
        start = words["binder"]
        text = text.replace("@BADGE@", badge(repository, FIRST_PAGES[language], language))
    else:
        start = words["clone"]
        text = text.replace("@BADGE@\n\n", "")
    progress_line = words["progress"] if progress else ""
    course_map = _course_map(source, language)
    return (text.replace("@BINDER_START@", start).replace("@PROGRESS_LINE@", progress_line)
            .replace("@COURSE_MAP@", course_map.rstrip() + "\n\n"))


def _test_cells(dest: Path) -> dict[str, list[str]]:
    cells = {}
    for path in sorted((dest / "exercises").glob("*/*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cells[path.relative_to(dest).as_posix()] = [
            c.metadata["nbgrader"]["grade_id"] for c in nb.cells
            if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("locked")
            and not c.metadata["nbgrader"].get("solution") and "assert" in c.source]
    return cells


def _origin(dest: Path) -> str | None:
    if not (dest / ".git").exists():
        return None
    url = _git("remote", "get-url", "origin", cwd=dest, check=False)
    return url or None


def _prepare(dest: Path, source: Path) -> dict:
    """Check that ``dest`` may be (re)written; returns its previous manifest ({} when new)."""
    if dest == source or source.is_relative_to(dest):
        raise EditionError(f"{dest} holds the course itself: give the edition a folder of its own")
    if not dest.exists() or not any(dest.iterdir()):
        dest.mkdir(parents=True, exist_ok=True)
        return {}
    if not (dest / MANIFEST).is_file() or not (dest / ".git").exists():
        raise EditionError(f"{dest} is not empty and is not a learner edition (no {MANIFEST} and .git): "
                           "choose an empty or new folder")
    previous = json.loads((dest / MANIFEST).read_text())
    for rel in _git("ls-files", "-z", cwd=dest).split("\0"):
        if rel and (dest / rel).is_file():
            (dest / rel).unlink()
    return previous


def build(dest: Path, repository: str | None = None, source: Path = ROOT, language: str | None = None) -> Edition:
    """Write the learner edition into ``dest`` and commit it there (see the module's docstring).

    Args:
        dest: an empty or new folder, or an edition written before (updated in place).
        repository: the class repository's address, for its Binder badge; default: the one
            given before (``.edition.json``), else ``dest``'s ``origin`` remote, else no badge.
        source: the course repository.
        language: "en" or "es": the edition's first page, README and Binder badge (both editions'
            notebooks are in it either way); default: the one given before, else English.
    Returns:
        the :class:`Edition` written, with the new commit (None when nothing changed).
    Raises:
        EditionError: ``dest`` is another folder's content, a secret line would be published, git failed.
    """
    dest, source = Path(dest).resolve(), Path(source).resolve()
    previous = _prepare(dest, source)
    repository = repository or previous.get("repository") or _origin(dest)
    language = language or previous.get("language") or "en"
    if language not in FIRST_PAGES:
        raise EditionError(f"no {language!r} edition of the course: choose one of {', '.join(FIRST_PAGES)}")
    if repository:
        binder_url(repository)  # fails early on an address Binder cannot open
    files = _tracked(source)
    for rel in files:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / rel, target)
    for name in ("requirements.txt", "environment.yml"):
        (dest / name).write_text(_without_grading_pins((source / name).read_text()))
    (dest / "pyproject.toml").write_text(_learner_pyproject((source / "pyproject.toml").read_text()))
    phony, target = _makefile_extra(source)
    makefile = (TEMPLATES / "Makefile").read_text().replace("@PHONY_EXTRA@", phony).replace("@TARGETS_EXTRA@", target)
    makefile = makefile.replace(f"FIRST_PAGE := {FIRST_PAGE}", f"FIRST_PAGE := {FIRST_PAGES[language]}")
    (dest / "Makefile").write_text(makefile.replace(" \n", "\n"))
    (dest / "README.md").write_text(_readme(source, repository, bool(phony), language))
    (dest / ".gitignore").write_text((TEMPLATES / "gitignore").read_text())
    shutil.copy2(TEMPLATES / "postBuild", dest / "postBuild")
    (dest / "binder").mkdir(exist_ok=True)
    shutil.copy2(Path(__file__).resolve().parent / "labsettings.py", dest / "binder" / "labsettings.py")
    for test in sorted((TEMPLATES / "tests").glob("*.py")):
        shutil.copy2(test, dest / "tests" / test.name)
    source_commit = _git("rev-parse", "HEAD", cwd=source, check=False) or None
    manifest = {"repository": repository, "language": language, "source_commit": source_commit, "test_cells": _test_cells(dest)}
    (dest / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")

    found = leaks(dest)
    if found:
        listing = "\n".join(f"  {f}: {kind} line {line!r}" for f, kind, line in found[:20])
        raise EditionError(f"the edition would publish {len(found)} answer line(s); nothing was committed:\n{listing}")

    if not (dest / ".git").exists():
        _git("init", "-q", "-b", "main", cwd=dest)
    _git("add", "-A", cwd=dest)
    commit = None
    if _git("status", "--porcelain", cwd=dest):
        short = (source_commit or "a work tree")[:12]
        _git("commit", "-q", "-m", f"Learner edition of the course at {short}", cwd=dest)
        commit = _git("rev-parse", "HEAD", cwd=dest)
    written = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*")
                     if p.is_file() and ".git" not in p.relative_to(dest).parts[:1])
    return Edition(dest, written, repository, commit, language)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.edition", description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", help="the edition's folder, or `badge` to write the course README's Binder badge")
    parser.add_argument("--repository", default=None,
                        help="the class repository's address (https://github.com/OWNER/REPO), for its Binder badge")
    parser.add_argument("--language", choices=sorted(FIRST_PAGES), default=None,
                        help="the edition's language: its first page, README and Binder badge (default: en, or as before)")
    parser.add_argument("--check", action="store_true", help="with `badge`: only check, exit 1 when it differs")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        if args.dest == "badge":
            readme = ROOT / "README.md"
            if readme_badge(readme, args.repository or REPOSITORY, write=not args.check):
                print(f"README.md's Binder badge opens {binder_url(args.repository or REPOSITORY)}")
                return 0
            print("README.md's Binder badge " + ("differs from autograder/course.py's REPOSITORY: run "
                                                 "`python -m autograder.edition badge`" if args.check else "updated"))
            return 1 if args.check else 0
        edition = build(Path(args.dest), args.repository, language=args.language)
    except (EditionError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"Learner edition in {edition.dest}: {len(edition.files)} files, "
          + (f"committed {edition.commit[:12]}." if edition.commit else "nothing changed since its last commit."))
    if edition.repository:
        print(f"Binder: {binder_url(edition.repository, FIRST_PAGES[edition.language])}")
    else:
        print("No Binder badge: give the class repository's address once with REPOSITORY=https://github.com/OWNER/REPO "
              "(or add it as the edition's `origin` remote) and run this again.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
