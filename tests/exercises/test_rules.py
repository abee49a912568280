"""No hidden rule (COURSE_SPEC §5): every test of an exercise (graded or practice) names a numbered rule of its
visible contract.

Each part of an exercise (a ``## Part ...`` / ``## Parte ...`` section, or the whole notebook when it
has one task) states its contract in markdown, its rules numbered: a numbered list with explicit,
stable numbers (``1. ...``, ``2. ...``), or items labelled ``Rule 1`` / ``Regla 1``. Every test cell
of the part names the rule(s) it checks ("(rule 3)", "rules 2 and 4", "regla 3"), in its visible
code (its description, a comment or a message), and every hidden test block (nbgrader's
``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS``) names the rule it checks more cases of, in
the block itself, since that is the code a learner never sees. A reference to a rule the part's
contract does not number fails, naming the notebook, the test cell and the rule.

Read from the solution notebooks (the release is generated from them), both editions; the
Spanish edition must name the same rules in the same cells as the English one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

from autograder.testcells import HIDDEN

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"

#: A rule's definition: a top-level item of a numbered list ("3. ..."), or an item labelled "Rule 3" / "Regla 3".
NUMBERED_ITEM = re.compile(r"^(\d+)\.\s+\S", re.M)
LABELLED_ITEM = re.compile(r"^(?:[-*]\s+)?[*_]*(?:rule|regla)\s+(\d+)\b", re.M | re.I)
#: A reference to rules: "rule 3", "Rule 3", "rules 2 and 4", "rules 2, 3 and 5", "reglas 4 y 5", "rules 6-7".
REFERENCE = re.compile(r"\b(?:rules?|reglas?)\s+(\d+(?:\s*(?:,|&|and|or|y|o|-|–)\s*\d+)*)", re.I)
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
DETAILS = re.compile(r"<details>.*?</details>", re.S | re.I)
PART_HEADING = re.compile(r"^##\s", re.M)


def numbers(text: str) -> set[int]:
    """The rule numbers ``text`` refers to ("rules 6-7" is 6 and 7)."""
    found: set[int] = set()
    for match in REFERENCE.finditer(text):
        spec = match.group(1)
        for a, b in re.findall(r"(\d+)\s*[-–]\s*(\d+)", spec):
            found |= set(range(int(a), int(b) + 1))
        found |= {int(n) for n in re.findall(r"\d+", spec)}
    return found


def defined_rules(markdown: str) -> list[int]:
    """The rule numbers a contract cell defines, in order (code blocks and hints left out)."""
    text = DETAILS.sub("", FENCE.sub("", markdown))
    labelled = [int(n) for n in LABELLED_ITEM.findall(text)]
    return labelled or [int(n) for n in NUMBERED_ITEM.findall(text)]


def split_hidden(source: str) -> tuple[str, list[str]]:
    """A test cell's visible code and its hidden blocks."""
    visible, blocks, current = [], [], None
    for line in source.splitlines():
        if line.strip() == HIDDEN[0]:
            current = []
        elif line.strip() == HIDDEN[1] and current is not None:
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
        else:
            visible.append(line)
    if current is not None:
        blocks.append("\n".join(current))
    return "\n".join(visible), blocks


def is_test_cell(cell) -> bool:
    meta = cell.metadata.get("nbgrader", {})
    return (cell.cell_type == "code" and bool(meta) and not meta.get("solution")
            and (bool(meta.get("grade")) or str(meta.get("grade_id", "")).startswith("test")))


@dataclass
class CellTests:
    grade_id: str
    visible: str
    hidden: list[str]


@dataclass
class Part:
    title: str
    rules: list[int] = field(default_factory=list)
    tests: list[CellTests] = field(default_factory=list)


def parts(nb) -> list[Part]:
    """The notebook's parts that hold tests, each with the rules its contract numbers (before its first test)."""
    found = [Part("(before the first part)")]
    for cell in nb.cells:
        if cell.cell_type == "markdown" and PART_HEADING.search(cell.source):
            heading = next(line for line in cell.source.splitlines() if PART_HEADING.match(line))
            found.append(Part(heading.lstrip("# ").strip()))
        part = found[-1]
        if cell.cell_type == "markdown" and not part.tests:
            part.rules += defined_rules(cell.source)
        elif is_test_cell(cell):
            visible, hidden = split_hidden(cell.source)
            part.tests.append(CellTests(cell.metadata["nbgrader"]["grade_id"], visible, hidden))
    return [p for p in found if p.tests]


def _rules(part: Part) -> str:
    return f"rules {min(part.rules)}-{max(part.rules)}" if part.rules else "no numbered rules"


def problems(path: Path) -> list[str]:
    """Each way the notebook's tests break COURSE_SPEC §5 (empty when none)."""
    nb = nbformat.read(path, as_version=4)
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    found: list[str] = []
    for part in parts(nb):
        if not part.rules:
            found.append(f"{where}, {part.title}: the visible contract numbers no rules (a numbered list '1. ...' or "
                         f"'Rule 1' items), so its {len(part.tests)} test cell(s) cannot name the rule they check")
            continue
        if sorted(part.rules) != list(range(1, len(part.rules) + 1)):
            found.append(f"{where}, {part.title}: the contract's rules are numbered {part.rules}, not 1, 2, 3... once each")
        for test in part.tests:
            named = numbers(test.visible)
            if not named:
                found.append(f"{where}, test cell {test.grade_id} ({part.title}): names no rule of the visible contract "
                             f"({_rules(part)}) in its description, comments or messages")
            for n in sorted(named - set(part.rules)):
                found.append(f"{where}, test cell {test.grade_id} ({part.title}): names rule {n}, which the visible "
                             f"contract lacks ({_rules(part)})")
            for i, block in enumerate(test.hidden, 1):
                hidden_named = numbers(block)
                if not hidden_named:
                    found.append(f"{where}, test cell {test.grade_id} ({part.title}): hidden test {i} names no rule of "
                                 f"the visible contract ({_rules(part)})")
                for n in sorted(hidden_named - set(part.rules)):
                    found.append(f"{where}, test cell {test.grade_id} ({part.title}): hidden test {i} names rule {n}, "
                                 f"which the visible contract lacks ({_rules(part)})")
    return found


def exercise_notebooks() -> list[Path]:
    """The solution notebooks of every exercise with test cells, graded and practice, both editions."""
    return [path for path in sorted(SOLUTIONS.glob("*/*.ipynb"))
            if any(is_test_cell(c) for c in nbformat.read(path, as_version=4).cells)]


NOTEBOOKS = exercise_notebooks()


def test_every_graded_exercise_is_checked():
    """Exercises 04 to 07, in both editions, are graded and read here."""
    names = {p.parent.name for p in NOTEBOOKS}
    for stem in ("04_validate_then_execute", "05_retry_with_backoff", "06_fallback_and_degradation", "07_safe_agent_loop"):
        assert {stem, f"{stem}_es"} <= names, f"{stem}: no graded solution notebook in one edition ({sorted(names)})"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.parent.name)
def test_every_test_names_a_rule_its_visible_contract_numbers(path):
    """Each test cell and each hidden test of the notebook names a numbered rule of its part's visible contract."""
    found = problems(path)
    assert not found, "Tests that check no numbered visible rule (COURSE_SPEC §5):\n- " + "\n- ".join(found)


def _named(path: Path) -> dict[str, tuple[set[int], list[set[int]]]]:
    return {t.grade_id: (numbers(t.visible), [numbers(b) for b in t.hidden])
            for part in parts(nbformat.read(path, as_version=4)) for t in part.tests}


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.parent.name.endswith("_es")], ids=lambda p: p.parent.name)
def test_the_spanish_edition_names_the_same_rules(path):
    """A Spanish test cell names the same rules as the English one, hidden tests included, and the contracts number as many."""
    english = SOLUTIONS / path.parent.name[: -len("_es")] / (path.stem[: -len("_es")] + ".ipynb")
    en_parts = [len(p.rules) for p in parts(nbformat.read(english, as_version=4))]
    es_parts = [len(p.rules) for p in parts(nbformat.read(path, as_version=4))]
    assert en_parts == es_parts, f"{path.name}: the parts number {es_parts} rules, the English edition {en_parts}"
    en, es = _named(english), _named(path)
    differ = [f"{cell}: English {en[cell]}, Spanish {es.get(cell)}" for cell in en if en[cell] != es.get(cell)]
    assert not differ, f"{path.name} names other rules than {english.name}:\n- " + "\n- ".join(differ)


# --- the check itself, on small notebooks ------------------------------------------------------------------


def _notebook(tmp_path: Path, contract: str, test_source: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(contract),
                nbformat.v4.new_code_cell(test_source)]
    nb.cells[1].metadata["nbgrader"] = {"grade": True, "grade_id": "test_thing", "points": 1, "solution": False,
                                        "locked": True}
    path = tmp_path / "ex.ipynb"
    nbformat.write(nb, path)
    return path


CONTRACT = "## Part A: thing (1 point)\n\n1. It works.\n2. It never raises.\n\n```python\n3. not a rule\n```\n"


def test_a_test_naming_its_rules_passes(tmp_path):
    source = f'"""It works (rule 1)."""\nassert True\n{HIDDEN[0]}\n# More cases of rules 1 and 2\nassert True\n{HIDDEN[1]}\n'
    assert problems(_notebook(tmp_path, CONTRACT, source)) == []


def test_a_hidden_test_that_names_no_rule_is_named(tmp_path):
    source = f'"""It works (rule 1)."""\nassert True\n{HIDDEN[0]}\nassert 1 + 1 == 2\n{HIDDEN[1]}\n'
    (problem,) = problems(_notebook(tmp_path, CONTRACT, source))
    assert "ex.ipynb" in problem and "test_thing" in problem and "hidden test 1 names no rule" in problem


def test_a_rule_the_contract_lacks_is_named(tmp_path):
    source = f'"""It works (rule 1)."""\nassert True\n{HIDDEN[0]}\n# rule 3\nassert True\n{HIDDEN[1]}\n'
    (problem,) = problems(_notebook(tmp_path, CONTRACT, source))
    assert "test_thing" in problem and "names rule 3, which the visible contract lacks (rules 1-2)" in problem


def test_a_visible_test_that_names_no_rule_is_named(tmp_path):
    (problem,) = problems(_notebook(tmp_path, CONTRACT, '"""It works."""\nassert True\n'))
    assert "test_thing" in problem and "names no rule" in problem


def test_a_contract_without_numbered_rules_is_named(tmp_path):
    (problem,) = problems(_notebook(tmp_path, "## Part A\n\n- It works.\n", '"""It works (rule 1)."""\n'))
    assert "numbers no rules" in problem


def test_labelled_rules_and_spanish_references_count(tmp_path):
    contract = "## Parte A\n\n- **Regla 1.** Funciona.\n- **Regla 2.** Nunca lanza.\n"
    source = f'"""Funciona (reglas 1 y 2)."""\n{HIDDEN[0]}\n# Más casos de la regla 2\n{HIDDEN[1]}\n'
    assert problems(_notebook(tmp_path, contract, source)) == []
