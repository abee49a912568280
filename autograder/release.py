"""Generate the learners' exercises from the solutions with nbgrader.

    python -m autograder.release           # regenerate exercises/ (what `make exercises` runs)
    python -m autograder.release --check   # exit 1 if exercises/ is stale

``solutions/NN_topic/NN_topic.ipynb`` is the only exercise file edited by hand;
``exercises/`` is generated from it (solutions replaced by stubs, hidden tests
removed, outputs cleared) and committed so that Binder learners open it directly.
"""

from __future__ import annotations

import filecmp
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import nbformat

from .course import EXERCISES, ROOT, SOLUTIONS, api, assignments, load_config
from .notebooks import clean


def generate(dest: Path, source: Path = SOLUTIONS) -> list[str]:
    """Generate every assignment of ``source`` into ``dest`` (replacing what is there)."""
    dest = Path(dest).resolve()
    with tempfile.TemporaryDirectory(prefix="release-") as tmp:
        config = load_config(
            root=tmp,
            source_directory=str(Path(source).resolve()),
            release_directory="release",
            db_url=f"sqlite:///{tmp}/gradebook.db",
        )
        config.GenerateAssignment.no_database = True
        config.SaveCells.enabled = False  # what `--no-db` also sets: no gradebook involved
        course = api(config)
        names = assignments(source)
        for name in names:
            result = course.generate_assignment(name, force=True, create=False)
            if not result["success"]:
                raise RuntimeError(f"nbgrader could not generate {name}:\n{result.get('error') or result.get('log')}")
        built = Path(tmp) / "release"
        for nb_path in built.rglob("*.ipynb"):
            nbformat.write(clean(nbformat.read(nb_path, as_version=4)), nb_path)
        dest.mkdir(parents=True, exist_ok=True)
        for name in names:
            shutil.rmtree(dest / name, ignore_errors=True)
            shutil.copytree(built / name, dest / name)
        for stale in (p for p in dest.iterdir() if p.is_dir() and p.name not in names):
            shutil.rmtree(stale)
    return names


def stale_files(current: Path = EXERCISES, source: Path = SOLUTIONS) -> list[str]:
    """Files of ``current`` that differ from a fresh generation (empty when in sync)."""
    return stale_tree(lambda dest: generate(dest, source), current, "exercises/", "generated from solutions/")


def stale_tree(build: Callable[[Path], object], current: Path, name: str, made: str) -> list[str]:
    """Files of the committed tree ``current`` that differ from a fresh ``build(folder)`` (empty when in sync).

    Shared by the generated trees that are committed: ``exercises/`` (this module) and the
    sample class (:func:`coursetools.sample_class.stale`).

    Args:
        build: writes the tree afresh into the folder it is given.
        current: the committed tree.
        name: how the messages name ``current`` (``"exercises/"``).
        made: how they say where its files come from (``"generated from solutions/"``).

    Returns:
        One line per file that is missing, extra or different, sorted.
    """
    def walk(cmp: filecmp.dircmp, prefix: Path) -> list[str]:
        found = [f"{prefix / n}: missing from {name}" for n in cmp.left_only]
        found += [f"{prefix / n}: not {made}" for n in cmp.right_only]
        found += [f"{prefix / n}: differs from what is {made}" for n in cmp.diff_files]
        for sub_name, sub in cmp.subdirs.items():
            found += walk(sub, prefix / sub_name)
        return found

    with tempfile.TemporaryDirectory(prefix="expected-") as tmp:
        build(Path(tmp))
        return sorted(walk(filecmp.dircmp(tmp, current, ignore=["__pycache__", ".ipynb_checkpoints"]), Path(".")))


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m autograder.release",
                                     description="Generate exercises/ from solutions/ with nbgrader (`make exercises`).")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if exercises/ is stale (solutions/ changed)")
    if parser.parse_args(argv).check:
        stale = stale_files()
        for line in stale:
            print(line)
        if stale:
            print("exercises/ is stale: run `make exercises` and commit the result.")
            return 1
        print("exercises/ is in sync with solutions/.")
        return 0
    names = generate(EXERCISES)
    print(f"Generated {len(names)} exercise(s) into {EXERCISES.relative_to(ROOT)}/: {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
