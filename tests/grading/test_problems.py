"""The registry of problem kinds (autograder.problems, issue 43): one place for every kind and its words.

Each kind's texts are checked against the sentences the modules wrote inline before the
registry (copied here from them, f-strings and all), so that moving them changed no byte
of a learner's feedback; each kind's "needs attention" against what those modules passed.
The source of the package is read to prove that no module raises a problem, or holds a
problem's words, outside the registry.
"""

from __future__ import annotations

import ast
import re

import pytest

from autograder import problems
from autograder.course import ROOT
from autograder.problems import KINDS, PHRASES, SCAN_CATEGORIES, KindError, Words, problem, words
from autograder.results import ATTENTION, SubmissionResult

PACKAGE = ROOT / "autograder"

# Whether each kind needs attention, as the modules passed it before the registry. "time_limit" was
# two kinds: the notebook's own limit (diagnosis) and the grading task's hard limit (pool), now
# "task_time_limit"; kinds whose one name had two sentences got a name each: "nothing_submitted"
# (was missing_notebook), "not_recorded" (worker; was not_graded), "gradebook_error" (was
# nbgrader_error), "cleanroom_kernel_kept" (was cleanroom_differs, the case that kept the kernel's
# score and did not need attention), "recheck_failed" (crosscheck; was cleanroom_unfinished).
ATTENTION_BEFORE = {
    "nothing_submitted": True, "missing_notebook": True, "renamed": False, "invalid_notebook": True,
    "bad_timestamp": False, "metadata_changed": False, "test_edited": False, "answer_deleted": False,
    "test_deleted": False, "locked_deleted": False,
    "staging_error": True, "nbgrader_error": True, "gradebook_error": True, "not_graded": True,
    "not_recorded": True, "task_time_limit": True, "regraded": False, "instructor_score": False,
    "huge_output": False, "kernel_died": True, "timeout": False, "stuck_kernel": True, "time_limit": True,
    "syntax_error": False, "sys_exit": False, "tampered": True,
    "cleanroom_overruled": True, "cleanroom_changed": True, "cleanroom_differs": True,
    "cleanroom_kernel_kept": False, "cleanroom_channel": True, "cleanroom_unfinished": True,
    "recheck_failed": True, "suspicious_code": True,
}


def test_every_kind_has_the_attention_it_had():
    assert {k: kind.attention for k, kind in KINDS.items()} == ATTENTION_BEFORE


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_has_both_texts_with_the_same_fields(name):
    kind = KINDS[name]
    assert kind.name == name and kind.en.strip() and kind.es.strip()
    assert kind.en != kind.es, f"{name}: the Spanish text is the English one"
    assert problems._fields(kind.en) == problems._fields(kind.es), name


@pytest.mark.parametrize("name", sorted(PHRASES))
def test_every_phrase_has_both_texts_with_the_same_fields(name):
    en, es = PHRASES[name]
    assert en.strip() and es.strip() and en != es
    assert problems._fields(en) == problems._fields(es), name


def test_every_scan_category_has_both_texts():
    assert all(w.en and w.es and w.en != w.es for w in SCAN_CATEGORIES.values())


# -- the registry's call: a clear error at the call ----------------------------------------
def test_an_unknown_kind_is_refused_where_it_is_raised():
    with pytest.raises(KindError, match="unknown problem kind 'time_out'"):
        problem("time_out", label="cell 1")
    r = SubmissionResult("ana", "a", 0, 1)
    with pytest.raises(KindError, match="unknown problem kind"):
        r.flag("time_out", label="cell 1")
    assert r.problems == [] and r.status == "graded"


def test_a_missing_or_unused_field_is_refused_where_it_is_raised():
    with pytest.raises(KindError, match=r"missing \['label'\]"):
        problem("timeout")
    with pytest.raises(KindError, match=r"not used \['lable'\]"):
        problem("timeout", label="cell 1", lable="cell 1")
    with pytest.raises(KindError, match=r"missing \['n'\]"):
        words("tests_after")
    with pytest.raises(KindError, match="unknown phrase"):
        words("tests_before", n=1)


def test_flag_records_once_and_attention_sets_the_status():
    r = SubmissionResult("ana", "a", 0, 1)
    r.flag("renamed", name="a", graded="b.ipynb")
    assert r.status == "graded"
    r.flag("kernel_died", label="cell 2", after=words("cells_after"))
    r.flag("kernel_died", label="cell 2", after=words("cells_after"))
    assert r.kinds() == ["renamed", "kernel_died"] and r.status == ATTENTION
    again = SubmissionResult.from_dict(r.to_dict())
    assert again.problems == r.problems, "results.json keeps both sentences"


# -- the texts, byte for byte as the modules wrote them ------------------------------------
def _plain(items, limit=4, more="and {} more"):  # cleanroom._plain, as it was
    shown = "; ".join(items[:limit])
    return shown + (f" ({more.format(len(items) - limit)})" if len(items) > limit else "")


MORE_ES = "y {} más"


class K:
    """One case: a kind and its fields (a key of the cases' dict, by identity)."""

    def __init__(self, kind, **fields):
        self.kind, self.fields = kind, fields


def _before_staging(assignment="05_retry", name="retry", path_name="retry (1).ipynb", why="not JSON",
                    gid="answer_1", desc="Retries twice", files=("notes.txt", "a.py")):
    found = f" (the folder holds {', '.join(files)})" if files else " (the folder is empty)"
    found_es = f" (la carpeta contiene {', '.join(files)})" if files else " (la carpeta está vacía)"
    return {
        K("nothing_submitted", assignment=assignment): (
            f"nothing was submitted for {assignment}", f"no se entregó nada para {assignment}"),
        K("missing_notebook", name=name, found=_folder(files)): (
            f"{name}.ipynb was not submitted{found}: its tests score 0",
            f"no se entregó {name}.ipynb{found_es}: sus tests puntúan 0"),
        K("renamed", name=name, graded=path_name): (
            f"{name}.ipynb was missing; {path_name} was graded in its place (the notebook was renamed)",
            f"faltaba {name}.ipynb; se corrigió {path_name} en su lugar (el notebook se había renombrado)"),
        K("invalid_notebook", file=path_name, why=why): (
            f"{path_name} could not be graded: {why}", f"no se pudo corregir {path_name}: {why}"),
        K("bad_timestamp"): ("timestamp.txt is not a date; it was ignored", "timestamp.txt no es una fecha; se ignoró"),
        K("metadata_changed", cell=gid): (
            f"the grading metadata of cell {gid} was changed; the grader restored it",
            f"se cambiaron los metadatos de corrección de la celda {gid}; el corrector los restauró"),
        K("test_edited", test=desc): (
            f"the read-only test \"{desc}\" was edited; the grader ran the original test",
            f"se editó el test de solo lectura \"{desc}\"; el corrector ejecutó el test original"),
        K("answer_deleted", cell=gid): (
            f"the answer cell {gid} was deleted; the tests ran without it",
            f"se borró la celda de respuesta {gid}; los tests se ejecutaron sin ella"),
        K("test_deleted", test=desc): (
            f"the test \"{desc}\" was deleted; the grader put it back and ran it",
            f"se borró el test \"{desc}\"; el corrector lo volvió a poner y lo ejecutó"),
        K("locked_deleted", cell=gid): (
            f"the read-only cell {gid} was deleted; the grader put it back",
            f"se borró la celda de solo lectura {gid}; el corrector la volvió a poner"),
    }


def _folder(files):
    return words("folder_holds", files=", ".join(files)) if files else words("folder_empty")


def _before_steps(err="disk full", failure="KeyError: 'x'", name="retry", tests=3.5, total=7.0, out_of=10.0):
    t, tot, of = f"{tests:g}", f"{total:g}", f"{out_of:g}"
    return {
        K("staging_error", error=err): (
            f"the submission could not be prepared for grading ({err})",
            f"no se pudo preparar la entrega para corregirla ({err})"),
        K("nbgrader_error", failure=failure): (
            f"nbgrader could not grade this submission: {failure}", f"nbgrader no pudo corregir esta entrega: {failure}"),
        K("gradebook_error", error=err): (
            f"the gradebook could not record this submission ({err})",
            f"el libro de notas no pudo registrar esta entrega ({err})"),
        K("not_graded", name=name): (f"{name}.ipynb was not graded", f"{name}.ipynb no se corrigió"),
        K("not_recorded"): ("nbgrader recorded nothing for this submission", "nbgrader no registró nada de esta entrega"),
        K("task_time_limit"): ("grading took longer than its time limit; its kernel was stopped",
                                  "la corrección superó su tiempo límite; se detuvo su kernel"),
        K("regraded"): ("a grading worker failed; this submission was graded again on its own",
                           "un proceso de corrección falló; esta entrega se volvió a corregir aparte"),
        K("instructor_score", tests=tests, total=total, out_of=out_of): (
            f"{t}/{of} from the tests, set to {tot}/{of} by the instructor",
            f"{t}/{of} según los tests; el profesor la cambió a {tot}/{of}"),
    }


def _labels():
    """(label, label_es) as diagnosis wrote them, with the phrase that says the same."""
    desc, gid, index, quote = "Retries twice", "answer_1", 4, " (while True:)"
    return [((f"the test \"{desc}\"", f"el test \"{desc}\""), words("label_test", test=desc)),
            ((f"the answer cell {gid}", f"la celda de respuesta {gid}"), words("label_answer", cell=gid)),
            ((f"cell {index + 1}{quote}", f"la celda {index + 1}{quote}"), words("label_cell", number=index + 1,
                                                                               quote=quote))]


def _before_diagnosis(label, label_es, label_words, printed=12345678, ename="SyntaxError", evalue=" bad ",
                      detail="toolfaults.retry was replaced"):
    count_es = f"{printed:,}".replace(",", ".")
    cells = words("cells_after")
    return {
        K("huge_output", label=label_words, chars=printed): (
            f"{label} printed {printed:,} characters; the grader cut the output",
            f"{label_es} imprimió {count_es} caracteres; el corrector cortó la salida"),
        K("kernel_died", label=label_words, after=cells): (
            "the kernel died (os._exit(), a crash or out of memory?) while "
            f"running {label}; the cells after it were not run",
            "el kernel murió (¿os._exit(), un fallo o falta de memoria?) al ejecutar "
            f"{label_es}; las celdas posteriores no se ejecutaron"),
        K("timeout", label=label_words): (
            f"{label} did not finish within the time limit and was stopped (an endless loop?)",
            f"{label_es} no terminó dentro del tiempo límite y se detuvo (¿un bucle infinito?)"),
        K("stuck_kernel", after=cells): (
            "a cell kept running after it was interrupted (an endless loop that catches KeyboardInterrupt?); "
            "the cells after it were not run",
            "una celda siguió ejecutándose tras interrumpirla (¿un bucle infinito que captura "
            "KeyboardInterrupt?); las celdas posteriores no se ejecutaron"),
        K("time_limit", after=cells): (
            "the notebook used up its time limit (an endless loop?); the cells after it were not run",
            "el notebook agotó su tiempo límite (¿un bucle infinito?); las celdas posteriores no se ejecutaron"),
        K("syntax_error", label=label_words, error=f"{ename}: {evalue.strip()[:160]}"): (
            f"{label} has a syntax error ({ename}: {evalue.strip()[:160]}); nothing in it was defined",
            f"{label_es} tiene un error de sintaxis ({ename}: {evalue.strip()[:160]}); no se definió nada de ella"),
        K("sys_exit", label=label_words): (
            f"{label} called sys.exit(); the grader kept going",
            f"{label_es} llamó a sys.exit(); el corrector siguió adelante"),
        K("tampered", detail=detail): (
            f"the course's helper package was not as installed in the notebook's "
            f"kernel ({detail}); the tests that ran after that failed there, and the score is under review",
            "el paquete de apoyo del curso no era el instalado en el kernel del notebook "
            f"({detail}); los tests que se ejecutaron después fallaron allí, y la nota está en revisión"),
    }


def _before_tests_after(not_run):
    """What diagnosis made of "the cells after it were not run" once it had counted the tests not run."""
    tests = f"{not_run} test{'s' if not_run != 1 else ''}"
    es = f"los {tests} posteriores no se ejecutaron" if not_run != 1 else "el test posterior no se ejecutó"
    return f"the {tests} after it were not run", es


def _before_cleanroom(items, scores=("3/10", "5/10"), reason="it was stopped after 60 s", error="OSError"):
    n = len(items)
    s = "s" if n != 1 else ""
    return {
        K("cleanroom_overruled", n=n, tests=items, kernel=scores[0], clean=scores[1]): (
            f"{n} test{s} failed in the notebook's kernel only because the "
            "grader's helper-package check fired, and passed in a clean Python process that puts "
            f"the package back before every test ({_plain(items, 3)}): kernel {scores[0]}, "
            f"clean room {scores[1]}; the clean room's score counts, and the score is under review",
            f"{n} test{s} {'fallaron' if n != 1 else 'falló'} en el kernel del notebook "
            "solo porque saltó la comprobación del paquete de apoyo del corrector, y "
            f"{'pasaron' if n != 1 else 'pasó'} en un proceso de Python limpio que restaura el paquete antes "
            f"de cada test ({_plain(items, 3, MORE_ES)}): kernel {scores[0]}, proceso limpio "
            f"{scores[1]}; cuenta la nota del proceso limpio, y la nota está en revisión"),
        K("cleanroom_changed", changes=items): (
            f"the submission changed how Python or the tests' tools work ({_plain(items)}); "
            "the grader undid it before each test",
            "la entrega cambió cómo funcionan Python o las herramientas de los tests "
            f"({_plain(items, more=MORE_ES)}); el corrector lo deshizo antes de cada test"),
        K("cleanroom_differs", n=n, tests=items): (
            f"{n} test{s} passed in the notebook's kernel but failed when the tests were re-run in a clean Python "
            f"process ({_plain(items, 3)}); the clean result was kept",
            f"{n} test{s} {'pasaron' if n != 1 else 'pasó'} en el kernel del notebook pero "
            f"{'fallaron' if n != 1 else 'falló'} al repetir los tests en un proceso de Python "
            f"limpio ({_plain(items, 3, MORE_ES)}); se conservó el resultado limpio"),
        K("cleanroom_kernel_kept", n=n, tests=items): (
            f"{n} test{s} failed in the notebook's kernel but passed in a clean Python process "
            f"({_plain(items, 3)}); the kernel's result was kept",
            f"{n} test{s} {'fallaron' if n != 1 else 'falló'} en el kernel del notebook pero "
            f"{'pasaron' if n != 1 else 'pasó'} en un proceso de Python limpio "
            f"({_plain(items, 3, MORE_ES)}); se conservó el resultado del kernel"),
        K("cleanroom_channel", damage=items): (
            "the clean Python process's results were interfered with by the submission's code "
            f"({_plain(items)}); a test with no clean result scored 0",
            "el código de la entrega interfirió con los resultados del proceso de Python limpio "
            f"({_plain(items, more=MORE_ES)}); un test sin resultado limpio obtuvo 0"),
        K("cleanroom_unfinished", reason=reason): (
            f"the tests could not all be re-run in a clean Python process ({reason}); "
            "the kernel's results were kept for the others",
            f"no se pudieron repetir todos los tests en un proceso de Python limpio ({reason}); "
            "para los demás se conservaron los resultados del kernel"),
        K("recheck_failed", error=error): (
            f"the grader could not re-check this submission ({error}); the kernel's results were kept",
            f"el corrector no pudo volver a comprobar esta entrega ({error}); se conservaron los resultados del kernel"),
    }


# scan.py's CATEGORIES and CATEGORIES_ES, as they were (two of them suffice for the sentence).
SCAN_BEFORE = {"kernel": ("reaches into the notebook kernel's machinery", "accede a la maquinaria del kernel del notebook"),
               "code": ("changes the code of existing functions", "cambia el código de funciones existentes")}


def _before_scan(found):
    """scan.report's sentence as it was, for ``{category: [(cell, line)]}``."""
    def sentence(language, cell, line):
        def where(places):
            named = [f"{c.replace('cell ', cell)} {line} {n}" for c, n in places[:3]]
            return f"({', '.join(named)}{', ...' if len(places) > 3 else ''})"
        return "; ".join(f"{SCAN_BEFORE[c][language]} {where(places)}" for c, places in found.items())
    return ("the submission's code " + sentence(0, "cell ", "line")
            + ". This does not change the score; an instructor will read it",
            "el código de la entrega " + sentence(1, "celda ", "línea") + ". Esto no cambia la nota; lo leerá un profesor")


def _cases():
    cases = dict(_before_staging())
    cases.update(_before_staging(files=()))
    cases.update(_before_steps())
    cases.update(_before_steps(tests=3, total=2.25, out_of=4))
    for (label, label_es), label_words in _labels():
        cases.update(_before_diagnosis(label, label_es, label_words))
    cases.update(_before_diagnosis("cell 1", "cell 1", "cell 1", printed=999))  # a plain string: the same in both
    for items in (["a"], ["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"], list("abcdef")):
        cases.update(_before_cleanroom(items))
    found = {"kernel": [("cell 3", 2), ("answer_1", 4)], "code": [("cell 1", n) for n in range(1, 6)]}
    cases[K("suspicious_code", found=problems.scan_findings(found))] = _before_scan(found)
    return [(k.kind, k.fields, texts) for k, texts in cases.items()]


def _key(case):
    return case[0] + ":" + ",".join(f"{k}={v!r}"[:40] for k, v in case[1].items())


CASES = _cases()


@pytest.mark.parametrize(("kind", "fields", "texts"), CASES, ids=[_key(c) for c in CASES])
def test_every_text_is_the_one_the_module_wrote(kind, fields, texts):
    made = problem(kind, **fields)
    assert (made.text, made.text_es) == texts
    assert made.kind == kind and made.attention == ATTENTION_BEFORE[kind]


def test_every_kind_is_checked_against_its_text_before():
    assert {kind for kind, _, _ in CASES} == set(KINDS)


@pytest.mark.parametrize("not_run", [1, 2, 3, 12])
def test_the_tests_not_run_read_as_diagnosis_rewrote_them(not_run):
    assert tuple(words("tests_after", n=not_run)) == _before_tests_after(not_run)


def test_the_scan_categories_are_the_ones_the_feedback_used():
    assert {c: tuple(SCAN_CATEGORIES[c]) for c in SCAN_BEFORE} == SCAN_BEFORE
    assert len(SCAN_CATEGORIES) == 11


# -- no problem raised, and no problem's words written, outside the registry -----------------
# Modules that write Spanish that is not a problem's: the course's translation checks, the edition
# builder, the feedback page's own headings and the LMS comment's.
SPANISH_ELSEWHERE = {"translations.py", "edition.py", "feedback.py", "lms/export.py"}
SPANISH = re.compile(r"\b(corrector|entrega|celda|ejecut\w*|se conserv\w*|no se|línea)\b|¿", re.IGNORECASE)


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        if "catalogue" not in path.parts and path.name != "problems.py":
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def _raised_outside(tree: ast.AST) -> list[int]:
    """Lines that build a Problem, or add one as text, instead of naming a registered kind."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        rebuilt = any(k.arg is None for k in node.keywords)  # Problem(**saved): read back from results.json
        if (name == "Problem" and not rebuilt) or (name == "add" and len(node.args) >= 2):
            lines.append(node.lineno)
    return lines


def test_no_module_raises_a_problem_outside_the_registry():
    found = {str(p.relative_to(ROOT)): lines for p, tree in _modules() if (lines := _raised_outside(tree))}
    found.pop("autograder/translations.py", None)  # its Problem is another class: notes for the course's authors
    assert not found, f"problems built by hand, not by kind (problems.problem / result.flag): {found}"


def test_the_check_sees_a_problem_built_by_hand():
    tree = ast.parse("result.add('timeout', 'x did not finish', True)\np = Problem('x', 'y')\nProblem(**saved)\n"
                     "seen.add(gid)\nresult.flag('timeout', label='x')\n")
    assert _raised_outside(tree) == [1, 2]


def _sentences(tree: ast.AST) -> list[tuple[int, str]]:
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def test_no_module_but_the_registry_holds_spanish_problem_texts():
    found = {}
    for path, tree in _modules():
        if path.relative_to(PACKAGE).as_posix() not in SPANISH_ELSEWHERE:
            hits = [(line, text[:60]) for line, text in _sentences(tree) if SPANISH.search(text)]
            if hits:
                found[str(path.relative_to(ROOT))] = hits
    assert not found, f"Spanish sentences outside autograder/problems.py: {found}"


def _pieces() -> set[str]:
    """The registry's words, cut at their fields: pieces long enough to be a copy, not a coincidence."""
    texts = [t for k in KINDS.values() for t in (k.en, k.es)] + [t for w in PHRASES.values() for t in w]
    texts += [t for w in SCAN_CATEGORIES.values() for t in w]
    return {p.strip() for t in texts for p in re.split(r"\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}", t) if len(p.strip()) >= 24}


def test_no_module_copies_a_registered_sentence():
    pieces = _pieces()
    assert len(pieces) > 40
    found = {}
    for path, tree in _modules():
        hits = [(line, text[:60]) for line, text in _sentences(tree) if any(p in text for p in pieces)]
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert not found, f"problem texts written outside autograder/problems.py: {found}"


def test_the_text_checks_see_an_inline_sentence():
    tree = ast.parse('x = "el corrector cortó la salida"\ny = "the grader kept going after sys.exit()"\n'
                     'z = "nbgrader could not grade this submission: "\n'
                     'w = f"no se pudo preparar la entrega para corregirla ({err})"\n')
    assert sorted(line for line, text in _sentences(tree) if SPANISH.search(text)) == [1, 4]
    assert sorted(line for line, text in _sentences(tree) if any(p in text for p in _pieces())) == [3, 4]


def test_the_kinds_other_modules_name_are_registered():
    named = [problems.REGRADED, problems.INSTRUCTOR_SCORE, problems.SYNTAX, problems.TAMPERED, problems.DIFFERS,
             problems.KERNEL_KEPT, problems.CHANGED, problems.UNFINISHED, problems.OVERRULED, problems.CHANNEL,
             problems.RECHECK_FAILED, problems.SUSPICIOUS]
    assert set(named) <= set(KINDS)
    assert isinstance(words("folder_empty"), Words)


def test_a_text_reads_back_into_its_fields():
    made = problem("syntax_error", label=words("label_cell", number=5, quote=" (def f(x):"),
                   error="SyntaxError: bad (line 3 of that cell)")
    assert problems.parse("syntax_error", made.text) == {"label": "cell 5 (def f(x):",
                                                         "error": "SyntaxError: bad (line 3 of that cell)"}
    assert problems.parse("syntax_error", made.text_es, "es")["label"] == "la celda 5 (def f(x):"
    assert problems.parse("syntax_error", "cell 5 printed 3 characters; the grader cut the output") is None
    score = problem("instructor_score", tests=3, out_of=10, total=7)
    assert problems.parse("instructor_score", score.text) == {"tests": "3", "out_of": "10", "total": "7"}


def test_every_category_the_scan_finds_has_its_words():
    from autograder import scan

    source = (PACKAGE / "scan.py").read_text(encoding="utf-8")
    named = set(re.findall(r'hit\([^)]*"(\w+)"', source)) | set(re.findall(r',\s*"(\w+)"\),?\n', source))
    used = {c for c in [*scan.NAMES.values(), *scan.MODULES.values(), *named] if c}
    assert used and used <= set(SCAN_CATEGORIES), used - set(SCAN_CATEGORIES)
