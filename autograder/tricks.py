"""The catalogue of tricks: submissions that try to change how the tests run.

``autograder/catalogue/tricks/<name>.py`` is one whole answer cell. Its header says
which assignment and answer cell it targets, what kind of trick it is and which honest
answer it wraps; the trick itself sits between ``# >>> trick`` and ``# <<< trick``::

    # assignment: 04_retry_with_backoff
    # cell: resilient_invoke_answer
    # category: kernel
    # trick: an IPython input transformer replaces every cell that asserts by `pass`
    # wraps: the fake: never calls the tool, always reports success
    <the honest answer>
    # >>> trick
    <the trick>
    # <<< trick

The same file without the trick lines is "the same answer without the trick": its
honest score. A trick is *contained* when, graded with the cross-checks
(:mod:`autograder.crosscheck`), it scores no more than that, or is marked "needs
attention". ``tests/tricks/test_tricks.py`` proves it for every file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .course import AUTOGRADER

TRICKS = AUTOGRADER / "catalogue" / "tricks"
BEGIN, END = "# >>> trick", "# <<< trick"
FIELDS = ("assignment", "cell", "category", "trick", "wraps")


@dataclass
class Trick:
    """One catalogued trick."""

    name: str
    assignment: str
    cell: str
    category: str
    what: str
    wraps: str
    code: str

    @property
    def baseline(self) -> str:
        """The same answer cell without the trick's lines."""
        kept, inside = [], False
        for line in self.code.splitlines():
            if line.strip() == BEGIN:
                inside = True
            elif line.strip() == END:
                inside = False
            elif not inside:
                kept.append(line)
        return "\n".join(kept).rstrip() + "\n"

    @classmethod
    def load(cls, path: Path) -> Trick:
        """Read one catalogue file.

        Args:
            path: the file.

        Returns:
            The trick. Raises ``ValueError`` when the header or the trick markers are missing.
        """
        text = path.read_text(encoding="utf-8")
        header = {}
        for line in text.splitlines():
            if not line.startswith("# ") or ":" not in line:
                break
            key, _, value = line[2:].partition(":")
            header[key.strip()] = value.strip()
        missing = [f for f in FIELDS if not header.get(f)]
        if missing:
            raise ValueError(f"{path}: the header lacks {', '.join(missing)}")
        if BEGIN not in text or END not in text:
            raise ValueError(f"{path}: the trick must sit between '{BEGIN}' and '{END}'")
        return cls(path.stem, header["assignment"], header["cell"], header["category"], header["trick"],
                   header["wraps"], text)


def load_tricks(folder: Path = TRICKS) -> list[Trick]:
    """Every trick in the catalogue, by name.

    Args:
        folder: the catalogue folder.

    Returns:
        The tricks, sorted by file name.
    """
    return [Trick.load(p) for p in sorted(folder.glob("*.py"))]
