"""Every kind of problem the grader can find with a submission, and its words in English and Spanish.

A problem is one sentence for the instructor (English: the class report, grades.csv) and
the learner (the feedback, in the submission's language). Each kind is registered here
once, in :data:`KINDS`: its stable name (tests and the report use it), whether it needs
attention (the score may not reflect the work, a person should look) and its two texts as
templates with named fields. Modules raise a problem by kind and fields only::

    result.flag("timeout", label=problems.words("label_cell", number=3, quote=""))
    staged.append(problems.problem("renamed", name="notes", graded="notes (1).ipynb"))

An unknown kind, a missing field or a field the texts do not use raises :class:`KindError`
at the call. A field's value is written into both texts; a :class:`Words` value (a phrase
of :data:`PHRASES`, made with :func:`words`) gives each text its own language. Besides
Python's format specifications, the templates know three more (:class:`_Formatter`):

- ``{n:one|other}`` picks by a count: the first when ``n == 1``, else the second;
- ``{items}`` / ``{items:3}`` for a list: its first four (three) items joined by "; ",
  then "(and 2 more)" / "(y 2 más)";
- ``{n:,}`` groups thousands with "," in English and with "." in Spanish.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

LANGUAGES = ("en", "es")


@dataclass
class Problem:
    """Something wrong with a submission, in one sentence for the instructor and the learner.

    ``kind`` is a stable key (tests and the report use it); ``attention`` means the
    score may not reflect the work and a person should look at it. ``text`` is in
    English (the class report, grades.csv); ``text_es`` is the same sentence for the
    feedback of a Spanish-edition submission (empty: ``text`` is shown). Made by
    :func:`problem` from a kind of :data:`KINDS`; read back as saved from ``results.json``.
    """

    kind: str
    text: str
    attention: bool = False
    text_es: str = ""

    def in_language(self, language: str) -> str:
        """The sentence in ``language`` ("en" or "es"), English when there is no translation."""
        return self.text_es if language == "es" and self.text_es else self.text


class KindError(ValueError):
    """A problem raised with a kind that is not registered, or with the wrong fields."""


class Words(NamedTuple):
    """A field's value that reads differently in each language (a phrase of :data:`PHRASES`)."""

    en: str
    es: str


@dataclass(frozen=True)
class Kind:
    """One kind of problem: its name, whether it needs attention, and its texts (templates)."""

    name: str
    attention: bool
    en: str
    es: str

    @property
    def fields(self) -> frozenset[str]:
        """The names of the fields its texts use (both use the same ones; a test checks it)."""
        return _fields(self.en) | _fields(self.es)


def _fields(template: str) -> frozenset[str]:
    """The field names of a template, those nested in a format specification included."""
    names = set()
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is not None:
            names.add(name)
            names |= _fields(spec or "")
    return frozenset(names)


class _Formatter(string.Formatter):
    """``str.format`` for one language, with the plural, list and thousands specifications above."""

    def __init__(self, language: str) -> None:
        self.language = language

    def format_field(self, value: Any, spec: str) -> str:
        if isinstance(value, Words):
            return getattr(value, self.language)
        if isinstance(value, (list, tuple)):
            return _listing(value, int(spec or 4), getattr(MORE, self.language))
        if "|" in spec:
            one, other = spec.split("|")
            return one if value == 1 else other
        if spec == "," and self.language == "es":
            return f"{value:,}".replace(",", ".")  # 12.345.678, as Spanish writes it
        return super().format_field(value, spec)


def _listing(items: Iterable[Any], limit: int, more: str) -> str:
    items = [str(i) for i in items]
    shown = "; ".join(items[:limit])
    return shown + (f" ({more.format(len(items) - limit)})" if len(items) > limit else "")


def _render(template: str, language: str, fields: Mapping[str, Any]) -> str:
    return _Formatter(language).vformat(template, (), fields)


def _check(name: str, wanted: frozenset[str], fields: Mapping[str, Any]) -> None:
    missing, extra = wanted - fields.keys(), fields.keys() - wanted
    if missing or extra:
        raise KindError(f"{name} takes the fields {sorted(wanted)}: "
                        f"missing {sorted(missing)}, not used {sorted(extra)}")


def problem(kind: str, **fields: Any) -> Problem:
    """The problem of ``kind`` (a key of :data:`KINDS`) with its texts filled in from ``fields``.

    Raises:
        KindError: ``kind`` is not registered, or ``fields`` are not exactly the kind's fields.
    """
    found = KINDS.get(kind)
    if found is None:
        raise KindError(f"unknown problem kind {kind!r}: register it in autograder/problems.py")
    _check(f"problem kind {kind!r}", found.fields, fields)
    return Problem(kind, _render(found.en, "en", fields), found.attention, _render(found.es, "es", fields))


def words(phrase: str, **fields: Any) -> Words:
    """The phrase ``phrase`` of :data:`PHRASES` in both languages, filled in from ``fields``.

    Raises:
        KindError: ``phrase`` is not registered, or ``fields`` are not exactly its fields.
    """
    found = PHRASES.get(phrase)
    if found is None:
        raise KindError(f"unknown phrase {phrase!r}: register it in autograder/problems.py")
    _check(f"phrase {phrase!r}", _fields(found.en) | _fields(found.es), fields)
    return Words(_render(found.en, "en", fields), _render(found.es, "es", fields))


def parse(kind: str, text: str, language: str = "en") -> dict[str, str] | None:
    """The fields a problem's ``text`` (in ``language``) was made with, read back with its kind's template.

    For kinds whose fields are written as they are (no plural or list specification). ``None``
    when ``text`` is not a text of ``kind``.
    """
    pattern, seen = "", set()
    for literal, name, _, _ in string.Formatter().parse(getattr(KINDS[kind], language)):
        pattern += re.escape(literal)
        if name is not None:
            pattern += f"(?P={name})" if name in seen else f"(?P<{name}>.*?)"
            seen.add(name)
    found = re.fullmatch(pattern, text, re.DOTALL)
    return found.groupdict() if found else None


def scan_findings(found: Mapping[str, list[tuple[str, int]]]) -> Words:
    """What the code scan found, for :data:`SUSPICIOUS`: ``{category: [(cell, line), ...]}`` in order.

    Each category's meaning (:data:`SCAN_CATEGORIES`), then up to three places, "cell 3 line 2"
    ("celda 3 línea 2"; a cell named by its grade id keeps its name).
    """
    return Words(*("; ".join(f"{getattr(SCAN_CATEGORIES[c], language)} {_places(places, language)}"
                             for c, places in found.items()) for language in LANGUAGES))


def _places(places: list[tuple[str, int]], language: str) -> str:
    cell, line = getattr(CELL_WORD, language), getattr(LINE_WORD, language)
    named = [f"{c.replace(CELL_WORD.en, cell)} {line} {n}" for c, n in places[:3]]
    return f"({', '.join(named)}{', ...' if len(places) > 3 else ''})"


def _kinds(*kinds: Kind) -> dict[str, Kind]:
    return {k.name: k for k in kinds}


# ``(and 2 more)`` after a list cut short (:func:`_listing`).
MORE = Words("and {} more", "y {} más")
# How the code scan names a place ("cell 3 line 2"); a grade id is kept as it is.
CELL_WORD, LINE_WORD = Words("cell ", "celda "), Words("line", "línea")

#: Parts of sentences, chosen by the module that raises the problem (:func:`words`).
PHRASES: dict[str, Words] = {
    # which cell a notebook's error happened in (diagnosis)
    "label_test": Words('the test "{test}"', 'el test "{test}"'),
    "label_answer": Words("the answer cell {cell}", "la celda de respuesta {cell}"),
    "label_cell": Words("cell {number}{quote}", "la celda {number}{quote}"),
    # what was not run after the kernel died, got stuck or used up the time (diagnosis)
    "cells_after": Words("the cells after it were not run", "las celdas posteriores no se ejecutaron"),
    "tests_after": Words("the {n} test{n:|s} after it were not run",
                         "{n:el test posterior no se ejecutó|los {n} tests posteriores no se ejecutaron}"),
    # a syntax error's place, for IPython's name of the cell's file ("3996864638.py", line 3: autograder.unparsed)
    "line_of_cell": Words("(line {line} of that cell)", "(línea {line} de esa celda)"),
    "cell_line": Words("{cell}, line {line}", "{cell}, línea {line}"),
    # the message of a test that failed only because the answer does not parse (autograder.unparsed)
    "not_parsed": Words("not run: the answer does not parse (a syntax error in {where}), so nothing in it was "
                        "defined; fix that first", "no se ejecutó: la respuesta no se puede leer (un error de "
                        "sintaxis en {where}), así que no se definió nada de ella; corrige eso primero"),
    # what a submission's folder held when a notebook was missing (staging)
    "folder_holds": Words(" (the folder holds {files})", " (la carpeta contiene {files})"),
    "folder_empty": Words(" (the folder is empty)", " (la carpeta está vacía)"),
}

#: What each category of the code scan (autograder.scan) means, in the words the feedback uses.
SCAN_CATEGORIES: dict[str, Words] = {
    "kernel": Words("reaches into the notebook kernel's machinery",
                    "accede a la maquinaria del kernel del notebook"),
    "tracing": Words("switches on the interpreter's tracing, profiling or monitoring hooks",
                     "activa los ganchos de trazado, perfilado o monitorización del intérprete"),
    "builtins": Words("changes or hides Python's built-in functions", "cambia u oculta funciones integradas de Python"),
    "frames": Words("reads or changes other code's stack frames or live objects",
                    "lee o cambia los marcos de pila u objetos vivos de otro código"),
    "lowlevel": Words("uses low-level memory access", "usa acceso a memoria de bajo nivel"),
    "code": Words("changes the code of existing functions", "cambia el código de funciones existentes"),
    "imports": Words("changes the import system", "cambia el sistema de importación"),
    "test_tools": Words("changes a module or class the tests use", "cambia un módulo o una clase que usan los tests"),
    "dynamic": Words("runs code built from text", "ejecuta código construido a partir de texto"),
    "signals": Words("changes the handling of signals and timers", "cambia el manejo de señales y temporizadores"),
    "identity": Words("makes objects lie about their class or about what they equal",
                      "hace que los objetos mientan sobre su clase o sobre a qué son iguales"),
}

# Kinds other modules name (tests, the report, the grade command).
REGRADED = "regraded"
INSTRUCTOR_SCORE = "instructor_score"
SYNTAX = "syntax_error"
TAMPERED = "tampered"
DIFFERS = "cleanroom_differs"
KERNEL_KEPT = "cleanroom_kernel_kept"
CHANGED = "cleanroom_changed"
UNFINISHED = "cleanroom_unfinished"
OVERRULED = "cleanroom_overruled"
CHANNEL = "cleanroom_channel"
RECHECK_FAILED = "recheck_failed"
SUSPICIOUS = "suspicious_code"

#: Every kind of problem, by name.
KINDS: dict[str, Kind] = _kinds(
    # staging: the submission's folder and notebooks (autograder.staging)
    Kind("nothing_submitted", True, "nothing was submitted for {assignment}", "no se entregó nada para {assignment}"),
    Kind("missing_notebook", True, "{name}.ipynb was not submitted{found}: its tests score 0",
         "no se entregó {name}.ipynb{found}: sus tests puntúan 0"),
    Kind("renamed", False, "{name}.ipynb was missing; {graded} was graded in its place (the notebook was renamed)",
         "faltaba {name}.ipynb; se corrigió {graded} en su lugar (el notebook se había renombrado)"),
    Kind("invalid_notebook", True, "{file} could not be graded: {why}", "no se pudo corregir {file}: {why}"),
    Kind("bad_timestamp", False, "timestamp.txt is not a date; it was ignored",
         "timestamp.txt no es una fecha; se ignoró"),
    Kind("metadata_changed", False, "the grading metadata of cell {cell} was changed; the grader restored it",
         "se cambiaron los metadatos de corrección de la celda {cell}; el corrector los restauró"),
    Kind("test_edited", False, 'the read-only test "{test}" was edited; the grader ran the original test',
         'se editó el test de solo lectura "{test}"; el corrector ejecutó el test original'),
    Kind("answer_deleted", False, "the answer cell {cell} was deleted; the tests ran without it",
         "se borró la celda de respuesta {cell}; los tests se ejecutaron sin ella"),
    Kind("test_deleted", False, 'the test "{test}" was deleted; the grader put it back and ran it',
         'se borró el test "{test}"; el corrector lo volvió a poner y lo ejecutó'),
    Kind("locked_deleted", False, "the read-only cell {cell} was deleted; the grader put it back",
         "se borró la celda de solo lectura {cell}; el corrector la volvió a poner"),
    # the grader's own steps (autograder.engine, pipeline, readback, worker, pool)
    Kind("staging_error", True, "the submission could not be prepared for grading ({error})",
         "no se pudo preparar la entrega para corregirla ({error})"),
    Kind("nbgrader_error", True, "nbgrader could not grade this submission: {failure}",
         "nbgrader no pudo corregir esta entrega: {failure}"),
    Kind("gradebook_error", True, "the gradebook could not record this submission ({error})",
         "el libro de notas no pudo registrar esta entrega ({error})"),
    Kind("not_graded", True, "{name}.ipynb was not graded", "{name}.ipynb no se corrigió"),
    Kind("not_recorded", True, "nbgrader recorded nothing for this submission",
         "nbgrader no registró nada de esta entrega"),
    Kind("task_time_limit", True, "grading took longer than its time limit; its kernel was stopped",
         "la corrección superó su tiempo límite; se detuvo su kernel"),
    Kind(REGRADED, False, "a grading worker failed; this submission was graded again on its own",
         "un proceso de corrección falló; esta entrega se volvió a corregir aparte"),
    Kind(INSTRUCTOR_SCORE, False, "{tests:g}/{out_of:g} from the tests, set to {total:g}/{out_of:g} by the instructor",
         "{tests:g}/{out_of:g} según los tests; el profesor la cambió a {total:g}/{out_of:g}"),
    # what the autograded notebook shows (autograder.diagnosis); {label}: a phrase label_*, {after}: *_after
    Kind("huge_output", False, "{label} printed {chars:,} characters; the grader cut the output",
         "{label} imprimió {chars:,} caracteres; el corrector cortó la salida"),
    Kind("kernel_died", True, "the kernel died (os._exit(), a crash or out of memory?) while running {label}; "
         "{after}", "el kernel murió (¿os._exit(), un fallo o falta de memoria?) al ejecutar {label}; {after}"),
    Kind("timeout", False, "{label} did not finish within the time limit and was stopped (an endless loop?)",
         "{label} no terminó dentro del tiempo límite y se detuvo (¿un bucle infinito?)"),
    Kind("stuck_kernel", True, "a cell kept running after it was interrupted (an endless loop that catches "
         "KeyboardInterrupt?); {after}", "una celda siguió ejecutándose tras interrumpirla (¿un bucle infinito "
         "que captura KeyboardInterrupt?); {after}"),
    Kind("time_limit", True, "the notebook used up its time limit (an endless loop?); {after}",
         "el notebook agotó su tiempo límite (¿un bucle infinito?); {after}"),
    Kind(SYNTAX, False, "{label} has a syntax error ({error}); nothing in it was defined",
         "{label} tiene un error de sintaxis ({error}); no se definió nada de ella"),
    Kind("sys_exit", False, "{label} called sys.exit(); the grader kept going",
         "{label} llamó a sys.exit(); el corrector siguió adelante"),
    Kind(TAMPERED, True, "the course's helper package was not as installed in the notebook's kernel ({detail}); "
         "the tests that ran after that failed there, and the score is under review",
         "el paquete de apoyo del curso no era el instalado en el kernel del notebook ({detail}); los tests que se "
         "ejecutaron después fallaron allí, y la nota está en revisión"),
    # the cross-checks (autograder.cleanroom, crosscheck, scan)
    Kind(OVERRULED, True, "{n} test{n:|s} failed in the notebook's kernel only because the grader's helper-package "
         "check fired, and passed in a clean Python process that puts the package back before every test "
         "({tests:3}): kernel {kernel}, clean room {clean}; the clean room's score counts, and the score is under "
         "review",
         "{n} test{n:|s} {n:falló|fallaron} en el kernel del notebook solo porque saltó la comprobación del paquete "
         "de apoyo del corrector, y {n:pasó|pasaron} en un proceso de Python limpio que restaura el paquete antes "
         "de cada test ({tests:3}): kernel {kernel}, proceso limpio {clean}; cuenta la nota del proceso limpio, y "
         "la nota está en revisión"),
    Kind(CHANGED, True, "the submission changed how Python or the tests' tools work ({changes}); the grader undid "
         "it before each test", "la entrega cambió cómo funcionan Python o las herramientas de los tests "
         "({changes}); el corrector lo deshizo antes de cada test"),
    Kind(DIFFERS, True, "{n} test{n:|s} passed in the notebook's kernel but failed when the tests were re-run in a "
         "clean Python process ({tests:3}); the clean result was kept",
         "{n} test{n:|s} {n:pasó|pasaron} en el kernel del notebook pero {n:falló|fallaron} al repetir los tests "
         "en un proceso de Python limpio ({tests:3}); se conservó el resultado limpio"),
    Kind(KERNEL_KEPT, False, "{n} test{n:|s} failed in the notebook's kernel but passed in a clean Python process "
         "({tests:3}); the kernel's result was kept",
         "{n} test{n:|s} {n:falló|fallaron} en el kernel del notebook pero {n:pasó|pasaron} en un proceso de "
         "Python limpio ({tests:3}); se conservó el resultado del kernel"),
    Kind(CHANNEL, True, "the clean Python process's results were interfered with by the submission's code "
         "({damage}); a test with no clean result scored 0", "el código de la entrega interfirió con los "
         "resultados del proceso de Python limpio ({damage}); un test sin resultado limpio obtuvo 0"),
    Kind(UNFINISHED, True, "the tests could not all be re-run in a clean Python process ({reason}); the kernel's "
         "results were kept for the others", "no se pudieron repetir todos los tests en un proceso de Python "
         "limpio ({reason}); para los demás se conservaron los resultados del kernel"),
    Kind(RECHECK_FAILED, True, "the grader could not re-check this submission ({error}); the kernel's results were "
         "kept", "el corrector no pudo volver a comprobar esta entrega ({error}); se conservaron los resultados "
         "del kernel"),
    Kind(SUSPICIOUS, True, "the submission's code {found}. This does not change the score; an instructor will "
         "read it", "el código de la entrega {found}. Esto no cambia la nota; lo leerá un profesor"),
)
