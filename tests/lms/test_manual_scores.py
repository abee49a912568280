"""A score set in the formgrader after `make grade` reaches the student's feedback before the export sends it
(issue 46, trap 5): the LMS and the feedback page never disagree."""

from __future__ import annotations

import json

import pytest
from nbgrader.api import Gradebook

from autograder import feedback, report
from autograder.classes import ClassFolder
from autograder.lms.export import ExportError, export
from autograder.lms.roster import Roster, Student
from autograder.results import SubmissionResult, TestResult

A = "06_fallback_and_degradation"
COURSE = "toolcalling-errors"
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")


@pytest.fixture
def graded(tmp_path):
    """chloe graded 10/20 by `make grade`: gradebook, results.json and her feedback page agree."""
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(url, COURSE) as gb:
        gb.add_assignment(A)
        gb.add_notebook(A, A)
        for cell in ("t1", "t2"):
            gb.add_grade_cell(cell, A, A, max_score=10, cell_type="code")
        gb.add_student("chloe")
        gb.add_submission(A, "chloe")
        gb.find_grade("t1", A, A, "chloe").auto_score = 10
        gb.find_grade("t2", A, A, "chloe").auto_score = 0
        gb.db.commit()
    result = SubmissionResult("chloe", A, 10.0, 20.0, [TestResult("t1", "works", 10, 10, True),
                                                       TestResult("t2", "says why", 0, 10, False, "no reason given")])
    results = tmp_path / "reports" / "results.json"
    report.save_results([result], results)
    page = feedback.write(result, tmp_path / "feedback", A)
    (tmp_path / "grades.csv").write_text("student,assignment,score,max_score,status,notes,late,set_aside\n"
                                         f"chloe,{A},10,20,graded,,,\n")
    return {"url": url, "results": results, "page": page, "tmp": tmp_path}


def _export(graded):
    roster = Roster([Student("chloe", "1005", "Chloe Lee", "chloe@uni.example")])
    return export(roster, graded["tmp"] / "exports", db_url=graded["url"], course_id=COURSE,
                  results=graded["results"], feedback=graded["tmp"] / "feedback",
                  collected=graded["tmp"] / "collected", klass=ClassFolder(graded["tmp"] / "class"))


def test_a_manual_score_is_written_into_the_feedback_before_it_is_exported(graded):
    assert "10/20" in graded["page"].read_text() or "10 / 20" in graded["page"].read_text()
    with Gradebook(graded["url"], COURSE) as gb:
        gb.find_grade("t2", A, A, "chloe").manual_score = 2  # the instructor's review in the formgrader
        gb.db.commit()
    done = _export(graded)
    assert done.scores[("chloe", A)].score == 12
    page = graded["page"].read_text()
    assert "12/20" in page and "set to 12/20 by the instructor" in page, page[-2000:]
    with (graded["tmp"] / "grades.csv").open() as fh:
        assert "chloe,06_fallback_and_degradation,12,20" in fh.read()
    saved = json.loads(graded["results"].read_text())[0]
    assert saved["score"] == 12
    assert any("the feedback now says 12/20" in w for w in done.warnings), done.warnings
    assert (graded["results"].parent / "class_report.html").exists()
    # Exporting again changes nothing more and says nothing more.
    assert not any("feedback now says" in w for w in _export(graded).warnings)


def test_feedback_that_disagrees_with_the_gradebook_stops_the_export(graded):
    """A page that no manual score explains (the gradebook was graded again elsewhere): nothing is exported,
    and the command to run is printed for the class."""
    with Gradebook(graded["url"], COURSE) as gb:
        gb.find_grade("t2", A, A, "chloe").auto_score = 10
        gb.db.commit()
    with pytest.raises(ExportError) as err:
        _export(graded)
    assert f'GRADE_ARGS="--student chloe --assignment {A}"' in str(err.value)
    assert "make grade CLASS=" in str(err.value)
    assert not (graded["tmp"] / "exports" / "canvas_grades.csv").exists()
