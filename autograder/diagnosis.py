"""Diagnosis: what the autograded notebooks show went wrong, in words for the report.

:func:`diagnose` reads the error outputs that nbgrader and the grader's own
preprocessors left in a submission's autograded copy (a dead kernel, a timeout, a
stuck cell, a syntax error, ``sys.exit()``, a tampered helper package, huge output)
and adds one :class:`~autograder.results.Problem` per finding to the result. The
ones where the score may not reflect the work are marked "needs attention".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .guard import TAMPERED
from .preprocessors import CELL_TIMEOUT, KERNEL_DIED, META, NOT_RUN
from .readback import ANSI
from .results import SubmissionResult
from .testcells import is_test

if TYPE_CHECKING:
    from .pipeline import Submission


def diagnose(sub: Submission, result: SubmissionResult) -> None:
    """Add to ``result`` what the autograded notebooks of ``sub`` (:class:`autograder.pipeline.Submission`)
    show went wrong."""
    described = sub.assignment.tests
    not_run = 0
    for name in sub.assignment.notebooks:
        nb = sub.graded(name)
        if nb is None:
            continue
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            meta = cell.metadata.get("nbgrader", {})
            gid = meta.get("grade_id")
            if is_test(meta):
                desc = described.get(gid, (gid, 0))[0] or gid
                label, label_es = f"the test \"{desc}\"", f"el test \"{desc}\""
            elif meta.get("solution"):
                label, label_es = f"the answer cell {gid}", f"la celda de respuesta {gid}"
            else:
                quote = _snippet(cell.source)
                label, label_es = f"cell {index + 1}{quote}", f"la celda {index + 1}{quote}"
            printed = cell.metadata.get(META, {}).get("output_chars")
            if printed:
                count_es = f"{printed:,}".replace(",", ".")  # 12.345.678, as Spanish writes it
                result.add("huge_output", f"{label} printed {printed:,} characters; the grader cut the output",
                           text_es=f"{label_es} imprimió {count_es} caracteres; el corrector cortó la salida")
            for out in cell.get("outputs", []):
                if out.get("output_type") != "error":
                    continue
                ename, evalue = out.get("ename", ""), ANSI.sub("", str(out.get("evalue", "")))
                if ename == KERNEL_DIED:
                    result.add("kernel_died", "the kernel died (os._exit(), a crash or out of memory?) while "
                                              f"running {label}; the cells after it were not run", True,
                               "el kernel murió (¿os._exit(), un fallo o falta de memoria?) al ejecutar "
                               f"{label_es}; las celdas posteriores no se ejecutaron")
                elif ename == CELL_TIMEOUT:
                    result.add("timeout", f"{label} did not finish within the time limit and was stopped "
                                          "(an endless loop?)",
                               text_es=f"{label_es} no terminó dentro del tiempo límite y se detuvo "
                                       "(¿un bucle infinito?)")
                elif ename == NOT_RUN:
                    not_run += is_test(meta)
                    if "interrupted" in evalue:
                        result.add("stuck_kernel", "a cell kept running after it was interrupted (an endless "
                                                   "loop that catches KeyboardInterrupt?); the cells after it "
                                                   "were not run", True,
                                   "una celda siguió ejecutándose tras interrumpirla (¿un bucle infinito que "
                                   "captura KeyboardInterrupt?); las celdas posteriores no se ejecutaron")
                    elif "time limit" in evalue:
                        result.add("time_limit", "the notebook used up its time limit (an endless loop?); "
                                                 "the cells after it were not run", True,
                                   "el notebook agotó su tiempo límite (¿un bucle infinito?); "
                                   "las celdas posteriores no se ejecutaron")
                elif ename in ("SyntaxError", "IndentationError", "TabError") and not is_test(meta):
                    result.add("syntax_error", f"{label} has a syntax error ({ename}: {evalue.strip()[:160]}); "
                                               "nothing in it was defined",
                               text_es=f"{label_es} tiene un error de sintaxis ({ename}: {evalue.strip()[:160]}); "
                                       "no se definió nada de ella")
                elif ename == "SystemExit":
                    result.add("sys_exit", f"{label} called sys.exit(); the grader kept going",
                               text_es=f"{label_es} llamó a sys.exit(); el corrector siguió adelante")
                elif ename == "AssertionError" and evalue.startswith(TAMPERED):
                    detail = evalue[len(TAMPERED):].split(". The tests", 1)[0].lstrip(": ")
                    result.add("tampered", f"the course's helper package was not as installed in the notebook's "
                                           f"kernel ({detail}); the tests that ran after that failed there, and the "
                                           "score is under review", True,
                               "el paquete de apoyo del curso no era el instalado en el kernel del notebook "
                               f"({detail}); los tests que se ejecutaron después fallaron allí, y la nota está "
                               "en revisión")
    if not_run:
        for p in result.problems:
            if p.kind in ("kernel_died", "stuck_kernel", "time_limit") and p.text.endswith("were not run"):
                tests = f"{not_run} test{'s' if not_run != 1 else ''}"
                p.text = p.text.replace("the cells after it were not run", f"the {tests} after it were not run")
                p.text_es = p.text_es.replace("las celdas posteriores no se ejecutaron",
                                              f"los {tests} posteriores no se ejecutaron" if not_run != 1
                                              else "el test posterior no se ejecutó")
                break


def _snippet(source: str) -> str:
    """A short quote of a cell's first line of code that is not an import or a comment."""
    for line in source.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "import ", "from ")):
            return f" ({line[:40]}{'...' if len(line) > 40 else ''})"
    return ""
