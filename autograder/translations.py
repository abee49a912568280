"""The Spanish edition kept in step with the English one.

Each Spanish notebook is a translation of one English notebook, cell for cell:

- ``course/es/<name>.ipynb`` translates ``course/<name>.ipynb``;
- ``solutions/<name>_es/<name>_es.ipynb`` translates ``solutions/<name>/<name>.ipynb``
  (``make exercises`` then builds ``exercises/<name>_es`` from it, as for English).

The two notebooks have the same cells, in the same order, with the same ids and types
(and the same nbgrader metadata, so an assignment's points and grade ids agree). Every
Spanish cell records, in ``metadata.translation.en``, a hash of the English source it
translates. The check (``make translations``, and ``tests/test_translations.py``) fails,
naming the notebook and the cell, when:

- an English cell changed after its translation was made (the hashes differ);
- a cell was added, removed or moved in one edition and not the other;
- a Spanish code cell differs from the English one in anything but its strings and
  comments: the code has one source, only the text a learner reads is translated;
- a markdown cell of more than a few words is still the English text;
- a lesson of ``course/es/`` uses a word the glossary rejects (``course/es/GLOSARIO.md``,
  "Una palabra por concepto": one word per concept, and no English left in what a
  learner reads), in its prose or in the strings and comments of its code, which is
  what its cells print; not inside `code`, an identifier or a one-word *italic* that
  quotes the English term.

After updating a translation, record it: ``python -m autograder.translations stamp
<spanish notebook> <cell id>...`` (``--new`` stamps only cells that have no hash yet).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import io
import re
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

import nbformat

from toolfaults.language import SPANISH_SUFFIX as SUFFIX

from . import pyast
from .course import ROOT

KEY = "translation"
# Markdown cells with more words than this must not be the English text unchanged.
UNTRANSLATED_WORDS = 6


def source_hash(source: str) -> str:
    """A short, stable hash of a cell's source (what a translation records)."""
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def pairs(root: Path = ROOT) -> list[tuple[Path, Path]]:
    """``(english, spanish)`` for every Spanish notebook in the course."""
    found: list[tuple[Path, Path]] = []
    for spanish in sorted((root / "course" / "es").glob("*.ipynb")):
        found.append((root / "course" / spanish.name, spanish))
    for folder in sorted((root / "solutions").glob(f"*{SUFFIX}")):
        name = folder.name[: -len(SUFFIX)]
        for spanish in sorted(folder.glob("*.ipynb")):
            english = root / "solutions" / name / (spanish.stem[: -len(SUFFIX)] + ".ipynb")
            found.append((english, spanish))
    return found


def english_of(spanish: Path, root: Path = ROOT) -> Path:
    """The English notebook a Spanish one translates."""
    for english, candidate in pairs(root):
        if candidate.resolve() == Path(spanish).resolve():
            return english
    raise ValueError(f"{spanish} is not a Spanish notebook of the course (course/es/*.ipynb or solutions/*_es/*.ipynb)")


# --- one source of code -----------------------------------------------------------------


def _python(source: str) -> str:
    """A code cell as plain Python (IPython's magics and shell escapes turned into calls)."""
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(source)


class _Strings(ast.NodeTransformer):
    """Blanks every string a learner reads, keeping the code of f-strings' placeholders."""

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str):
            return ast.Constant(value="")
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        # A translation may reorder an f-string's placeholders; the code inside them must not change.
        fields = sorted(ast.dump(self.visit(v.value)) for v in node.values if isinstance(v, ast.FormattedValue))
        return ast.Constant(value="f-string:" + "|".join(fields))


def code_shape(source: str) -> str:
    """The cell's code with strings and comments left out: what both editions must share."""
    try:
        tree = pyast.parse(_python(source))
    except SyntaxError as err:
        return f"<syntax error: {err.msg} at line {err.lineno}>"
    return ast.dump(_Strings().visit(tree))


# --- the check ----------------------------------------------------------------------------


@dataclass
class Problem:
    notebook: Path
    cell: str
    text: str

    def __str__(self) -> str:
        return f"{_shown(self.notebook)}: cell {self.cell}: {self.text}"


def _shown(path: Path) -> str:
    """A path as a command to type in the repository would give it."""
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def _first_line(source: str) -> str:
    line = next((ln for ln in source.splitlines() if ln.strip()), "")
    return (line[:60] + "...") if len(line) > 60 else line


def check_pair(english_path: Path, spanish_path: Path) -> list[Problem]:
    """Every way ``spanish_path`` is out of step with ``english_path``."""
    problems: list[Problem] = []
    if not english_path.exists():
        return [Problem(spanish_path, "-", f"translates {english_path.name}, which does not exist")]
    english = nbformat.read(english_path, as_version=4)
    spanish = nbformat.read(spanish_path, as_version=4)
    en_ids = [c.get("id") for c in english.cells]
    es_ids = [c.get("id") for c in spanish.cells]
    if en_ids != es_ids:
        missing = [i for i in en_ids if i not in es_ids]
        extra = [i for i in es_ids if i not in en_ids]
        text = "the cells differ from the English notebook's"
        if missing:
            text += f"; not translated yet: {', '.join(map(str, missing))}"
        if extra:
            text += f"; no longer in English: {', '.join(map(str, extra))}"
        if not missing and not extra:
            text += "; same cells in another order: move them to the English order"
        problems.append(Problem(spanish_path, "-", text))
    by_id = {c.get("id"): c for c in english.cells}
    for cell in spanish.cells:
        cell_id = cell.get("id")
        en = by_id.get(cell_id)
        if en is None:
            continue
        label = f"'{cell_id}' ({en.cell_type}: {_first_line(en.source)!r})"
        if en.cell_type != cell.cell_type:
            problems.append(Problem(spanish_path, label, f"is {cell.cell_type} here and {en.cell_type} in English"))
            continue
        recorded = cell.metadata.get(KEY, {}).get("en")
        if recorded is None:
            problems.append(Problem(spanish_path, label, "has no translation hash: translate it, then run "
                                    f"`python -m autograder.translations stamp {_shown(spanish_path)} {cell_id}`"))
        elif recorded != source_hash(en.source):
            problems.append(Problem(spanish_path, label, "changed in English after it was translated: update the "
                                    f"translation, then run `python -m autograder.translations stamp {_shown(spanish_path)} {cell_id}`"))
        if en.metadata.get("nbgrader") != cell.metadata.get("nbgrader"):
            problems.append(Problem(spanish_path, label, "has nbgrader metadata that differs from the English cell's "
                                    "(points, grade ids and cell kinds must agree)"))
        if cell.cell_type == "code" and code_shape(en.source) != code_shape(cell.source):
            problems.append(Problem(spanish_path, label, "has code that differs from the English cell: only strings and "
                                    "comments may be translated, the code itself has one source"))
        if (cell.cell_type == "markdown" and cell.source.strip() == en.source.strip()
                and len(en.source.split()) > UNTRANSLATED_WORDS):
            problems.append(Problem(spanish_path, label, "is still the English text"))
    return problems


# --- one vocabulary ---------------------------------------------------------------------

GLOSSARY = Path("course") / "es" / "GLOSARIO.md"
VOCABULARY_HEADING = "## Una palabra por concepto"
#: Spanish lessons whose words are still being brought in line with the glossary (by name): each leaves
#: this set when its fixes land, and then stays checked.
VOCABULARY_PENDING: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Variant:
    """A word the glossary rejects: ``text`` as written there, the concept it names and the word to use."""

    text: str
    concept: str
    use: str

    @property
    def pattern(self) -> re.Pattern[str]:
        word = self.text.removesuffix("*")
        tail = r"\w*" if self.text.endswith("*") else r"(?!\w)"
        flags = 0 if any(ch.isupper() for ch in word) else re.IGNORECASE
        return re.compile(r"(?<!\w)" + re.escape(word) + tail, flags)


def plain_text(cell_text: str) -> str:
    """Markdown as the check reads it: inline code, link targets and one-word italics left out."""
    text = re.sub(r"`[^`\n]*`", " ", cell_text)
    text = re.sub(r"\]\([^)\s]*\)", "]", text)
    return re.sub(r"(?<![*\w])\*([^\s*]+)\*(?![*\w])", " ", text)


def banned_variants(root: Path = ROOT) -> list[Variant]:
    """Every variant the glossary's one-word-per-concept table rejects, in its order."""
    text = (root / GLOSSARY).read_text(encoding="utf-8")
    if VOCABULARY_HEADING not in text:
        raise ValueError(f"{GLOSSARY} has no '{VOCABULARY_HEADING}' section")
    section = text.split(VOCABULARY_HEADING, 1)[1].split("\n## ", 1)[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("|") and not set(ln) <= set("|-: ")]
    found: list[Variant] = []
    for row in rows[1:]:                       # the first row is the header
        cells = [c.strip() for c in row.strip().strip("|").split(" | ")]
        if len(cells) != 3:
            raise ValueError(f"{GLOSSARY}: a row of '{VOCABULARY_HEADING}' needs three columns: {row}")
        concept, use, rejected = cells
        found += [Variant(v, concept, re.sub(r"\*\*|`", "", use)) for v in re.findall(r'"([^"]+)"', rejected)]
    return found


def learner_text(cell) -> str:
    """What a learner reads in a cell: a markdown cell's prose (mermaid labels included), or a code cell's strings
    and comments (what it prints), each as the check reads markdown."""
    if cell.cell_type == "markdown":
        parts = re.split(r"^```.*$", cell.source, flags=re.M)
        prose = parts[0::2]
        fenced = [" ".join(re.findall(r'"([^"\n]*)"', block)) for block in parts[1::2]]   # a diagram's labels
        return plain_text("\n".join(prose + fenced))
    if cell.cell_type != "code":
        return ""
    python = _python(cell.source)
    pieces: list[str] = []
    try:
        tree = pyast.parse(python)
    except SyntaxError:
        return ""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            pieces.append(node.value)
    try:
        pieces += [tok.string for tok in tokenize.generate_tokens(io.StringIO(python).readline)
                   if tok.type == tokenize.COMMENT]
    except (tokenize.TokenError, IndentationError):
        pass
    return plain_text("\n".join(pieces))


def banned_words(spanish_path: Path, cell, text: str, variants: list[Variant], verb: str = "says") -> list[Problem]:
    """Every rejected variant in ``text``, what ``cell`` of ``spanish_path`` shows (``verb``: how the problem says
    it shows it), named with the cell and the word to use instead."""
    problems: list[Problem] = []
    taken: list[tuple[int, int]] = []
    for variant in variants:
        for match in variant.pattern.finditer(text):
            if any(start < match.end() and match.start() < end for start, end in taken):
                continue                   # "read timed out" is reported once, not again as "timed out"
            taken.append(match.span())
            label = f"'{cell.get('id')}' ({cell.cell_type}: {_first_line(cell.source)!r})"
            problems.append(Problem(spanish_path, label, f'{verb} "{match.group(0)}": {GLOSSARY.as_posix()} '
                                    f'("{VOCABULARY_HEADING[3:]}") writes {variant.concept} as: {variant.use}'))
    return problems


def check_vocabulary(spanish_path: Path, variants: list[Variant]) -> list[Problem]:
    """Every rejected variant in a Spanish notebook, named with its cell and the word to use instead."""
    nb = nbformat.read(spanish_path, as_version=4)
    return [p for cell in nb.cells for p in banned_words(spanish_path, cell, learner_text(cell), variants)]


def vocabulary_scope(root: Path = ROOT) -> list[Path]:
    """The Spanish notebooks the vocabulary check reads: the lessons and the exercises' sources (solutions/*_es)."""
    found = [*sorted((root / "course" / "es").glob("*.ipynb")), *sorted((root / "solutions").glob(f"*{SUFFIX}/*.ipynb"))]
    return [p for p in found if p.name not in VOCABULARY_PENDING]


def check(root: Path = ROOT) -> list[Problem]:
    """Every problem of every Spanish notebook: out of step with its English one, or off the glossary."""
    problems = [p for english, spanish in pairs(root) for p in check_pair(english, spanish)]
    if not (root / GLOSSARY).exists():          # a course without a Spanish glossary has no words to enforce
        return problems
    variants = banned_variants(root)
    return problems + [p for spanish in vocabulary_scope(root) for p in check_vocabulary(spanish, variants)]


def stamp(spanish_path: Path, cells: list[str], *, new_only: bool = False, every: bool = False,
          root: Path = ROOT) -> list[str]:
    """Record the English hash on the named cells of a Spanish notebook; the ids stamped."""
    english = nbformat.read(english_of(spanish_path, root), as_version=4)
    by_id = {c.get("id"): c for c in english.cells}
    nb = nbformat.read(spanish_path, as_version=4)
    unknown = [c for c in cells if c not in by_id]
    if unknown:
        raise ValueError(f"no English cell with id {', '.join(unknown)}")
    done: list[str] = []
    for cell in nb.cells:
        cell_id = cell.get("id")
        if cell_id not in by_id:
            continue
        has = KEY in cell.metadata and "en" in cell.metadata[KEY]
        if every or cell_id in cells or (new_only and not has):
            cell.metadata[KEY] = {"en": source_hash(by_id[cell_id].source)}
            done.append(cell_id)
    nbformat.write(nb, spanish_path)
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.translations", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("check", help="fail, naming each cell, when a Spanish notebook is out of step with the English one")
    st = sub.add_parser("stamp", help="record that the named cells' translations match the current English cells")
    st.add_argument("notebook", type=Path)
    st.add_argument("cells", nargs="*", help="cell ids")
    st.add_argument("--new", action="store_true", help="stamp every cell that has no hash yet")
    st.add_argument("--all", action="store_true", help="stamp every cell (only for a notebook you just translated)")
    args = parser.parse_args(argv)
    if args.command == "stamp":
        done = stamp(args.notebook, args.cells, new_only=args.new, every=args.all)
        print(f"Stamped {len(done)} cell(s) of {args.notebook}.")
        return 0
    problems = check()
    for problem in problems:
        print(problem)
    print(f"{len(pairs())} Spanish notebook(s), {len(problems)} problem(s).")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
