"""A notebook that does not parse: one problem naming the line, not a NameError per test (issue 46, trap 8)."""

from __future__ import annotations

from autograder import unparsed
from autograder.problems import words
from autograder.results import SubmissionResult, TestResult

NAME_ERROR = ("NameError: name 'resilient_invoke' is not defined (it must never raise for a tool's failure: "
              "return the error result instead)")
RAISED = ("resilient_invoke raised NameError: name 'resilient_invoke' is not defined (it must never raise for a "
          "tool's failure: return a dict with success=False).")


def _broken(assignment: str = "05_retry_with_backoff") -> SubmissionResult:
    tests = [TestResult(f"t{i}", f"rule {i}", 0, 2, False, NAME_ERROR if i % 2 else RAISED) for i in range(14)]
    tests.append(TestResult("t_other", "other", 0, 2, False, "AssertionError: expected 3 calls, got 1"))
    result = SubmissionResult("fatima", assignment, 0, 30, tests)
    quote = " (def resilient_invoke(tool, args, max_attempts=...)"
    result.flag("syntax_error", **unparsed.syntax_fields(words("label_cell", number=5, quote=quote), "SyntaxError",
                                                         "invalid syntax (3996864638.py, line 3)"))
    return result


def test_one_problem_names_the_line_and_no_cell_file_name():
    result = _broken()
    unparsed.explain(result)
    [problem] = [p for p in result.problems if p.kind == "syntax_error"]
    assert problem.text == ("cell 5 (def resilient_invoke(tool, args, max_attempts=...) has a syntax error "
                            "(SyntaxError: invalid syntax (line 3 of that cell)); nothing in it was defined")
    assert problem.text_es == ("la celda 5 (def resilient_invoke(tool, args, max_attempts=...) tiene un error de "
                               "sintaxis (SyntaxError: invalid syntax (línea 3 de esa celda)); no se definió nada de ella")


def test_the_tests_point_at_the_syntax_error_not_at_a_name_error():
    result = _broken()
    unparsed.explain(result)
    messages = {t.message for t in result.tests[:14]}
    assert messages == {"not run: the answer does not parse (a syntax error in cell 5 (def resilient_invoke(tool, "
                        "args, max_attempts=...), line 3), so nothing in it was defined; fix that first"}
    assert result.tests[14].message.startswith("AssertionError")  # not about the missing name: kept
    assert result.score == 0  # words only


def test_spanish_edition_in_spanish_and_others_untouched():
    result = _broken("05_retry_with_backoff_es")
    unparsed.explain(result)
    assert result.tests[0].message == ("no se ejecutó: la respuesta no se puede leer (un error de sintaxis en la celda 5 "
                                       "(def resilient_invoke(tool, args, max_attempts=...), línea 3), así que no se "
                                       "definió nada de ella; corrige eso primero")
    fine = SubmissionResult("ana", "05_retry_with_backoff", 0, 2, [TestResult("t", "r", 0, 2, False, NAME_ERROR)])
    unparsed.explain(fine)
    assert fine.tests[0].message == NAME_ERROR
