"""Notebook hygiene: committed notebooks carry no outputs and no execution counts.

    python -m autograder.notebooks check   # exit 1 and list the dirty notebooks
    python -m autograder.notebooks clean   # strip outputs/counts in place

Cleaning keeps every cell's metadata (nbgrader's included) and the notebook's own
metadata; it only drops outputs, execution counts and per-run noise
(``execution`` timing metadata, widget state).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat

from .layout import ROOT  # the one place that finds the course

NOISE_CELL_KEYS = ("execution", "collapsed", "scrolled")


def tracked_notebooks(root: Path = ROOT) -> list[Path]:
    """Every notebook git tracks or would track (untracked but not ignored), sample submissions aside."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.ipynb"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # Class folders (classes/sample/submitted: the sample class) hold students' files as handed in (one is not even valid JSON on
    # purpose): the grader copes with them, hygiene does not apply.
    return sorted(root / p for p in out.split()
                  if (root / p).exists() and not p.startswith("classes/"))


def problems(nb: nbformat.NotebookNode) -> list[str]:
    """What makes a notebook dirty, one line per problem (empty when clean)."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if cell.get("outputs"):
            found.append(f"cell {i}: has outputs")
        if cell.get("execution_count") is not None:
            found.append(f"cell {i}: has an execution count")
        if any(k in cell.metadata for k in NOISE_CELL_KEYS):
            found.append(f"cell {i}: has run metadata ({', '.join(k for k in NOISE_CELL_KEYS if k in cell.metadata)})")
    if "widgets" in nb.metadata:
        found.append("notebook metadata: has saved widget state")
    return found


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip outputs, execution counts and run noise; keep nbgrader metadata."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        for key in NOISE_CELL_KEYS:
            cell.metadata.pop(key, None)
    nb.metadata.pop("widgets", None)
    return nb


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m autograder.notebooks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["check", "clean"], help="check: list dirty notebooks; clean: strip them")
    parser.add_argument("notebooks", nargs="*", default=[], help="notebooks to look at (default: every tracked one)")
    options = parser.parse_args(argv)
    args = [options.action]
    paths = [Path(p).resolve() for p in options.notebooks] or tracked_notebooks()
    dirty = 0
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        found = problems(nb)
        if not found:
            continue
        rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        if args[0] == "clean":
            nbformat.write(clean(nb), path)
            print(f"cleaned {rel}")
        else:
            dirty += 1
            print(f"{rel}: " + "; ".join(found[:3]) + (" ..." if len(found) > 3 else ""))
    if dirty:
        print(f"\n{dirty} notebook(s) are dirty. Run `make clean-notebooks`, then commit.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
