"""The two editions of the lessons, and what each one's text must say, for the lesson tests.

English lessons live in ``course/``, their Spanish translations in ``course/es/`` (same file
names; see autograder/translations.py). The structural checks are the same in both; only
the words they look for differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autograder.course import ROOT


@dataclass(frozen=True)
class Edition:
    language: str
    folder: Path
    max_words: int                 # markdown words per lesson (Spanish runs ~15% longer than English)
    predict: re.Pattern[str]       # the line that opens a prediction, above a failure demo
    happened: str                  # what the markdown after a failure demo says (lower case)
    objectives: tuple[str, ...]    # one of these opens the lesson's objectives (lower case)
    key_points: str
    self_check: str                # the heading above the quiz cell (lower case)

    def lessons(self) -> list[Path]:
        """00_index and the numbered lessons."""
        return sorted(self.folder.glob("[0-9][0-9]_*.ipynb"))

    def numbered(self) -> list[Path]:
        return [p for p in self.lessons() if not p.name.startswith("00_")]

    def appendices(self) -> list[Path]:
        return sorted(self.folder.glob("A[0-9]*_*.ipynb"))


ENGLISH = Edition("en", ROOT / "course", 2_200, re.compile(r"^\*\*Predict:\*\*", re.M), "what happened",
                  ("learning objectives", "you will learn"), "key points", "self-check")
SPANISH = Edition("es", ROOT / "course" / "es", 2_600, re.compile(r"^\*\*Predice:\*\*", re.M), "qué pasó",
                  ("objetivos de aprendizaje",), "puntos clave", "autoevaluación")
EDITIONS = (ENGLISH, SPANISH)


def cases(select) -> list[tuple[Edition, Path]]:
    """``(edition, notebook)`` for each notebook ``select(edition)`` returns, both editions."""
    return [(e, p) for e in EDITIONS for p in select(e)]


def case_id(case) -> str:
    edition, path = case
    return path.stem if edition.language == "en" else f"{path.stem}[es]"
