"""`make bench`'s comparison (coursetools/benchcompare.py) grades what it says, where it says.

The figures themselves are the lead's to take on a quiet machine; here, which submissions each scope
holds, that plain nbgrader runs on a scratch copy of a course folder with the course's own
``nbgrader_config.py`` (nothing of the sample class is written), and that it grades there.
"""

from __future__ import annotations

import pytest

from autograder.course import ROOT, SUBMITTED
from coursetools import benchcompare
from coursetools.sample_class import CLASS, kind


def test_the_well_behaved_scope_sets_the_stuck_and_broken_submissions_aside():
    whole = benchcompare.class_tasks(SUBMITTED, "whole")
    well = benchcompare.class_tasks(SUBMITTED, "well-behaved")
    assert set(well) < set(whole)
    kinds = {kind(CLASS[t.student][t.assignment]) for t in well}
    assert kinds <= set(benchcompare.WELL_BEHAVED) and "solution" in kinds
    assert not {"stuck", "loop", "syntax", "os_exit"} & kinds
    left_out = {kind(CLASS.get(t.student, {}).get(t.assignment, "?")) for t in set(whole) - set(well)}
    assert "stuck" in left_out and "loop" in left_out, left_out
    assert len(benchcompare.class_tasks(SUBMITTED, "well-behaved", 3)) == 3


def test_plain_nbgrader_runs_in_a_scratch_course_with_the_course_config(tmp_path):
    tasks = benchcompare.class_tasks(SUBMITTED, "well-behaved", 2)
    root, env = benchcompare.scratch_course(tmp_path / "plain", tasks, SUBMITTED)
    assert (root / "nbgrader_config.py").read_text() == (ROOT / "nbgrader_config.py").read_text()
    assert env["AUTOGRADER_CLASS"] == str(root / "class")
    for task in tasks:
        assert (root / "class" / "submitted" / task.student / task.assignment).is_dir()
        assert (root / "solutions" / task.assignment).is_dir()


@pytest.mark.slow
def test_plain_nbgrader_grades_one_submission_and_the_floor_runs_it(tmp_path):
    """One well-behaved submission, as `make bench` grades the class: a score in the scratch gradebook, and the
    floor's plain kernel ran its autograded copy."""
    task = next(t for t in benchcompare.class_tasks(SUBMITTED, "well-behaved")
                if CLASS[t.student][t.assignment] == "solution" and not t.assignment.endswith("_es"))
    plain = benchcompare.plain_nbgrader([task], SUBMITTED, tmp_path / "plain")
    assert not plain["failed"] and plain["seconds"] > 0
    assert plain["scores"][f"{task.student}/{task.assignment}"] > 0, plain["scores"]
    least = benchcompare.floor([task], plain["autograded"], 30.0)
    assert least["kernel_starts"] > 0 and least["cpu"] > 0 and least["seconds"] > 0, least



def test_the_floor_starts_another_kernel_when_one_dies_before_its_first_cell(tmp_path, monkeypatch):
    """A plain kernel that dies before it answers (seen once in `make test`: "Kernel died before replying to
    kernel_info") is started again, up to the helper package's KERNEL_START_ATTEMPTS; a failure once a kernel has
    answered is not run again; the start counted is the one that answered."""
    from contextlib import contextmanager

    import nbformat
    from nbclient import NotebookClient

    from toolfaults.progress import KERNEL_START_ATTEMPTS

    path = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")]), path)

    def kernels(dying: int):
        starts = []

        @contextmanager
        def setup_kernel(self, **kwargs):
            starts.append(kwargs)
            if len(starts) <= dying:
                raise RuntimeError("Kernel died before replying to kernel_info")
            yield

        monkeypatch.setattr(NotebookClient, "setup_kernel", setup_kernel)
        return starts

    monkeypatch.setattr(benchcompare, "_cells_cpu", lambda client, nb: 1.5)
    starts = kernels(dying=KERNEL_START_ATTEMPTS - 1)
    start, used = benchcompare.floor_one(path, 30.0)
    assert len(starts) == KERNEL_START_ATTEMPTS and used == 1.5 and 0 <= start < 1

    starts = kernels(dying=KERNEL_START_ATTEMPTS)
    with pytest.raises(RuntimeError, match="died"):
        benchcompare.floor_one(path, 30.0)
    assert len(starts) == KERNEL_START_ATTEMPTS

    def dies_running(client, nb):
        raise RuntimeError("Kernel died")

    monkeypatch.setattr(benchcompare, "_cells_cpu", dies_running)
    starts = kernels(dying=0)
    with pytest.raises(RuntimeError):
        benchcompare.floor_one(path, 30.0)
    assert len(starts) == 1


def test_make_bench_runs_the_comparison_first():
    from coursetools import bench

    assert list(bench.SECTIONS)[0] == "compare"
