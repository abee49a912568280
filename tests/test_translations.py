"""The Spanish edition stays in step with the English one (autograder.translations).

The first tests check the course itself; the others prove, on small notebooks built
here, that the check catches each way a translation goes out of step.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.course import ROOT, assignments
from autograder.translations import KEY, check, check_pair, pairs, source_hash, stamp


def test_the_spanish_edition_is_in_step_with_the_english_one():
    """Every Spanish cell translates the current English cell: the check names each one that does not."""
    problems = check()
    assert not problems, "\n" + "\n".join(map(str, problems))


def test_every_lesson_and_exercise_has_a_spanish_edition():
    english_lessons = sorted(p.name for p in (ROOT / "course").glob("*.ipynb"))
    spanish_lessons = sorted(p.name for p in (ROOT / "course" / "es").glob("*.ipynb"))
    assert spanish_lessons == english_lessons, "course/es/ must hold a translation of every notebook of course/"
    names = assignments()
    english = [a for a in names if not a.endswith("_es")]
    missing = [a for a in english if f"{a}_es" not in names]
    assert not missing, f"assignments without a Spanish edition (solutions/<name>_es/): {missing}"


def test_the_check_runs_from_the_command_line():
    """`python -m autograder.translations check` is what `make translations` runs: exit 0 and a count."""
    run = subprocess.run([sys.executable, "-m", "autograder.translations", "check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(pairs())} Spanish notebook(s), 0 problem(s)" in run.stdout


# --- the check on notebooks built here ------------------------------------------------------


ENGLISH = [
    new_markdown_cell("# Retries\n\nA transient error is worth another try: wait, then call the tool again."),
    new_code_cell('def greet(name):\n    return f"Hello {name}, you have {len(name)} letters"  # a greeting\n'
                  'print(greet("Ana"))'),
    new_code_cell('raise ValueError("Order 4417 was delivered 45 days ago")'),
]
SPANISH = [
    "# Reintentos\n\nUn error transitorio merece otro intento: espera y vuelve a llamar a la herramienta.",
    'def greet(name):\n    return f"{name}: tienes {len(name)} letras, hola"  # un saludo\nprint(greet("Ana"))',
    'raise ValueError("El pedido 4417 se entregó hace 45 días")',
]


@pytest.fixture
def course(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A course folder with one English lesson and its stamped Spanish translation."""
    (tmp_path / "course" / "es").mkdir(parents=True)
    english = new_notebook(cells=[nbformat.from_dict(c) for c in ENGLISH])
    for i, cell in enumerate(english.cells):
        cell.id = f"cell-{i}"
    english_path = tmp_path / "course" / "01_lesson.ipynb"
    nbformat.write(english, english_path)
    spanish = nbformat.read(english_path, as_version=4)
    for cell, text in zip(spanish.cells, SPANISH):
        cell.source = text
    spanish_path = tmp_path / "course" / "es" / "01_lesson.ipynb"
    nbformat.write(spanish, spanish_path)
    stamp(spanish_path, [], every=True, root=tmp_path)
    return tmp_path, english_path, spanish_path


def edit(path: Path, index: int, source: str, **metadata) -> None:
    nb = nbformat.read(path, as_version=4)
    nb.cells[index].source = source
    nb.cells[index].metadata.update(metadata)
    nbformat.write(nb, path)


def test_a_faithful_translation_passes(course):
    """Translated prose, strings, comments and reordered f-string placeholders are all allowed."""
    root, english, spanish = course
    assert pairs(root) == [(english, spanish)]
    assert check(root) == []


def test_a_changed_english_cell_is_named(course):
    root, english, spanish = course
    edit(english, 2, 'raise ValueError("Order 4417 was delivered 31 days ago")')
    problems = check(root)
    assert len(problems) == 1
    assert problems[0].cell.startswith("'cell-2' (code: 'raise ValueError")
    assert "changed in English after it was translated" in problems[0].text
    # Updating the translation and stamping that cell brings it back in step.
    edit(spanish, 2, 'raise ValueError("El pedido 4417 se entregó hace 31 días")')
    assert stamp(spanish, ["cell-2"], root=root) == ["cell-2"]
    assert check(root) == []


def test_stamping_one_cell_does_not_hide_another_stale_one(course):
    root, english, spanish = course
    edit(english, 0, "# Retries\n\nTransient errors deserve another try.")
    edit(english, 2, 'raise ValueError("Order 4417 is too old")')
    stamp(spanish, ["cell-2"], root=root)
    assert [p.cell.split()[0] for p in check(root)] == ["'cell-0'"]


@pytest.mark.parametrize("code", [
    'def greet(person):\n    return f"Hola {person}"\nprint(greet("Ana"))',                 # a renamed identifier
    'def greet(name):\n    return f"Hola {name.upper()}"\nprint(greet("Ana"))',            # code inside a placeholder
    'def greet(name):\n    return f"Hola {name}"\nprint(greet("Ana"), flush=True)',       # an extra argument
])
def test_code_that_differs_beyond_strings_is_caught(course, code):
    root, _, spanish = course
    edit(spanish, 1, code)
    problems = check(root)
    assert len(problems) == 1 and "only strings and comments may be translated" in problems[0].text
    assert "'cell-1'" in problems[0].cell


def test_untranslated_missing_and_unstamped_cells_are_caught(course):
    root, english, spanish = course
    edit(spanish, 0, ENGLISH[0].source)
    assert any("still the English text" in p.text for p in check(root))
    edit(spanish, 0, SPANISH[0])
    nb = nbformat.read(english, as_version=4)
    nb.cells.append(new_markdown_cell("## Key points\n\nRetry only what can succeed next time."))
    nb.cells[-1].id = "cell-new"
    nbformat.write(nb, english)
    assert any("not translated yet: cell-new" in p.text for p in check(root))
    nb = nbformat.read(spanish, as_version=4)
    nb.cells.append(new_markdown_cell("## Puntos clave\n\nReintenta solo lo que puede salir bien."))
    nb.cells[-1].id = "cell-new"
    nbformat.write(nb, spanish)
    assert [p.text for p in check(root)] == [
        "has no translation hash: translate it, then run "
        f"`python -m autograder.translations stamp {spanish} cell-new`"]


def test_points_and_grade_ids_must_agree(course):
    root, english, spanish = course
    nbgrader = {"grade": True, "grade_id": "test_greet", "points": 2, "solution": False, "locked": True}
    edit(english, 1, ENGLISH[1].source, nbgrader=nbgrader)
    edit(spanish, 1, SPANISH[1], nbgrader={**nbgrader, "points": 1}, **{KEY: {"en": source_hash(ENGLISH[1].source)}})
    assert any("nbgrader metadata that differs" in p.text for p in check(root))



# --- one vocabulary (issue 42) --------------------------------------------------------------

from autograder.translations import (VOCABULARY_PENDING, banned_variants, banned_words, check_vocabulary,  # noqa: E402
                                     learner_text, plain_text)

#: The words issue 42 found drifting, each (the word the glossary keeps, a variant it must reject).
ONE_WORD = [
    ("marca", "indicador"), ("handler", "manejador"), ("capturar", "atrapa"), ("clase padre", "clase madre"),
    ("en directo", "en vivo"), ("réplica", "mirror"), ("una ToolException", "un ToolException"),
    ("no respondió a tiempo", "da timeout"), ("fallo a fallo", "un fallo cada vez"),
    ("Usuario:", "Human:"), ("Modelo:", "AI:"), ("no respondió a tiempo", "read timed out"),
    ("sin llamadas a herramientas", "sin tool calls"),
]


@pytest.mark.parametrize(("keep", "reject"), ONE_WORD, ids=[r for _, r in ONE_WORD])
def test_the_glossary_keeps_one_word_per_concept(keep, reject):
    """GLOSARIO.md's 'Una palabra por concepto' names the word to use and rejects its drifting variant."""
    variants = banned_variants()
    rejecting = [v for v in variants if v.pattern.search(reject)]
    assert rejecting, f"GLOSARIO.md does not reject {reject!r}: add it to the 'No usamos' column of its concept"
    assert any(keep in v.use for v in rejecting), (
        f"GLOSARIO.md rejects {reject!r} but its row does not say to write {keep!r}: {[v.use for v in rejecting]}")


def test_no_word_the_glossary_keeps_is_one_it_rejects():
    """A row never rejects its own word (a pattern too wide would fail the whole edition)."""
    for variant in banned_variants():
        kept = re.findall(r"\*\*([^*]+)\*\*", variant.use) or [variant.use]
        assert not any(variant.pattern.search(word) for word in kept), (variant.text, variant.use)


def test_every_lesson_is_checked_for_its_words():
    """Issue 42 brings every Spanish lesson to one vocabulary: none is left out of the check."""
    assert not VOCABULARY_PENDING, f"lessons not yet checked against GLOSARIO.md: {sorted(VOCABULARY_PENDING)}"


def _spanish(tmp_path: Path, *cells) -> Path:
    nb = new_notebook(cells=list(cells))
    path = tmp_path / "leccion.ipynb"
    nbformat.write(nb, path)
    return path


def test_the_vocabulary_check_reads_prose_strings_comments_and_diagram_labels(tmp_path):
    """A rejected word is found in prose, a printed string, a comment and a mermaid label, with the word to use."""
    path = _spanish(
        tmp_path,
        new_markdown_cell("El manejador devuelve el texto."),
        new_code_cell('print("Human: hola")\nraise TimeoutError("read timed out")  # el bucle la atrapa'),
        new_markdown_cell('```mermaid\nflowchart LR\n  a["la API en vivo"] --> b\n```'),
    )
    problems = check_vocabulary(path, banned_variants())
    said = sorted(p.text.split('"')[1] for p in problems)
    assert said == ["Human:", "atrapa", "en vivo", "manejador", "read timed out"], [str(p) for p in problems]
    assert any("handler" in p.text for p in problems if '"manejador"' in p.text), "the problem names the word to use"


def test_code_identifiers_inline_code_and_quoted_english_terms_pass(tmp_path):
    """`weather_mirror`, code in backticks and a one-word italic that quotes the English term are not prose."""
    path = _spanish(
        tmp_path,
        new_markdown_cell("Una réplica (*mirror*) de la fuente; en el código, `mirror` y `weather_mirror`."),
        new_code_cell('mirror = Source("weather_mirror")\nprint(mirror.name, "respondió")'),
    )
    assert check_vocabulary(path, banned_variants()) == []
    assert not re.search(r"\bmirror\b", learner_text(nbformat.read(path, as_version=4).cells[1]))


def _run_offline(path: Path):
    import os

    from toolfaults.progress import execute_notebook

    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    env.update(TOOLFAULTS_MODE="offline", MPLBACKEND="Agg")
    nb = nbformat.read(path, as_version=4)
    execute_notebook(nb, start={"env": env}, timeout=120, kernel_name="python3",
                     resources={"metadata": {"path": str(path.parent)}})
    return nb


def printed_text(cell) -> str:
    """What an executed code cell showed: its streams and the plain text of its results (errors left out: a
    traceback is Python's, in English)."""
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif out.get("output_type") in ("execute_result", "display_data"):
            parts.append(out.get("data", {}).get("text/plain", ""))
    return "".join(parts)


def check_printed(spanish_path: Path, executed, variants: list) -> list:
    """Every rejected variant in what an executed Spanish notebook printed (``executed``: the notebook, run), read
    as the static check reads a cell (:func:`autograder.translations.banned_words`)."""
    return [problem for cell in executed.cells if cell.cell_type == "code"
            for problem in banned_words(spanish_path, cell, plain_text(printed_text(cell)), variants, "prints")]


#: Lessons whose printed words wait on a change outside the vocabulary (by name): the reason.
PRINTED_PENDING: dict[str, str] = {}
PRINTED_PENDING.update({name: "issue 42: this lesson's words come last (another change is editing it)"
                        for name in VOCABULARY_PENDING})
SPANISH_LESSONS = [p for p in sorted((ROOT / "course" / "es").glob("[0-9][0-9]_*.ipynb")) if p.name != "00_index.ipynb"]


@pytest.mark.slow
@pytest.mark.spanish
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=[pytest.mark.xfail(reason=PRINTED_PENDING[p.name],
                                                                                        strict=False)]
                                               if p.name in PRINTED_PENDING else []) for p in SPANISH_LESSONS])
def test_what_a_spanish_lesson_prints_uses_the_glossary(path: Path):
    """Run offline, a Spanish lesson prints no word GLOSARIO.md rejects: no "Human:"/"AI:" labels, no English
    error text left in a mocked tool, no drifting synonym (the static check reads the code; this reads its output)."""
    problems = check_printed(path, _run_offline(path), banned_variants())
    assert not problems, "\n" + "\n".join(map(str, problems))


def test_the_printed_check_reads_streams_and_results():
    """check_printed reads a cell's printed text and its result, not its traceback."""
    from nbformat.v4 import new_output

    cell = new_code_cell("show(messages)")
    cell.outputs = [new_output("stream", name="stdout", text=" Human: ¿Qué tiempo hace?\n    AI: llama a get_weather\n"),
                    new_output("execute_result", data={"text/plain": "'la API en vivo'"}, execution_count=1),
                    new_output("error", ename="TimeoutError", evalue="read timed out", traceback=[])]
    found = check_printed(Path("x.ipynb"), new_notebook(cells=[cell]), banned_variants())
    assert sorted(p.text.split('"')[1] for p in found) == ["AI:", "Human:", "en vivo"], [str(p) for p in found]
    assert all(p.text.startswith('prints "') and "(code: 'show(messages)')" in p.cell for p in found), found
