"""The text scan flags what an honest answer has no reason to touch, and never an honest answer."""

from __future__ import annotations

import nbformat
import pytest

from autograder.course import SOLUTIONS
from autograder.results import SubmissionResult
from autograder.scan import SUSPICIOUS, report, scan_notebook, scan_source
from coursetools.tricks import load_tricks
from coursetools.fairness import CATALOGUE, answer_cells

HONEST = sorted(p for p in [*CATALOGUE.glob("*/right_*.py"), *CATALOGUE.glob("*/wrong_*.py")] if p.parent.name != "tricks")


@pytest.mark.parametrize("path", HONEST, ids=[f"{p.parent.name}/{p.stem}" for p in HONEST])
def test_no_catalogued_answer_is_flagged(path):
    assert scan_source(path.read_text(), path.stem) == []


@pytest.mark.parametrize("assignment", sorted(p.name for p in SOLUTIONS.iterdir() if p.is_dir()))
def test_no_solution_is_flagged(assignment):
    for nb_path in (SOLUTIONS / assignment).glob("*.ipynb"):
        nb = nbformat.read(nb_path, as_version=4)
        assert scan_notebook(nb) == []
        for gid, code in answer_cells(nb).items():
            assert scan_source(code, gid) == []


def test_honest_notebook_habits_are_not_flagged():
    code = ("%timeit sum(range(10))\n%matplotlib inline\nfrom IPython.display import display, Markdown\n"
            "import traceback, sys, time\nprint(sys.version)\ndisplay(Markdown('**hi**'))\nmax_delay = 3\n"
            "def resilient_invoke(tool, args):\n    return tool.invoke(args)\n")
    assert scan_source(code, "answer") == []


@pytest.mark.parametrize("trick", load_tricks(), ids=lambda t: t.name)
def test_every_catalogued_trick_is_flagged(trick):
    """Every trick in the catalogue is seen by the scan (as a second line: the clean room is the first)."""
    flags = scan_source(trick.code, trick.cell)
    assert flags, f"{trick.name}: the scan found nothing"


@pytest.mark.parametrize(("code", "category"), [
    ("ip = get_ipython()\nip.ast_transformers.append(object())", "kernel"),
    ("f = getattr(__import__('sys'), 'settrace')", "tracing"),
    ("import sys\nsys._getframe(1).f_globals['x'] = 1", "frames"),
    ("import ctypes", "lowlevel"),
    ("import toolfaults.clock as c\nc.RecordingSleep.__call__ = None", "test_tools"),
    ("from unittest import mock\nmock.patch('time.sleep').start()", "test_tools"),
    ("def isinstance(*a):\n    return True", "builtins"),
    ("f.__code__ = g.__code__", "code"),
    ("import sys\nsys.meta_path.insert(0, object())", "imports"),
    ("exec(open('x').read())", "dynamic"),
    ("import signal\nsignal.setitimer(signal.ITIMER_REAL, 0)", "signals"),
])
def test_each_category(code, category):
    assert category in {f.category for f in scan_source(code, "answer")}


def test_the_report_names_the_kind_and_place_not_the_trick():
    result = SubmissionResult("s", "a", 5.0, 10.0)
    report(result, scan_source("x = 1\nget_ipython().input_transformers_cleanup.append(str)\n", "answer_cell"))
    assert result.score == 5.0 and result.status == "needs attention"
    text = result.problems[0].text
    assert result.problems[0].kind == SUSPICIOUS and "answer_cell line 2" in text and "kernel's machinery" in text
    assert "transformer" not in text and "get_ipython" not in text


@pytest.mark.parametrize(("code", "category"), [
    # names built from pieces read as the names they spell
    ("getattr(get_ipython(), 'ast_' + 'transformers').append(object())", "kernel"),
    ("s = get_ipython()\ngetattr(s, f\"{'input_'}transformers_post\").append(f)", "kernel"),
    ("import sys\nf = getattr(sys, '_get' + 'frame')(0)", "frames"),
    ("v = getattr(frame, ''.join(['f_lo', 'cals']))", "frames"),
    ("import importlib\ngc = importlib.import_module('g' + 'c')", "frames"),
    ("import importlib\nm = importlib.import_module(name)", "imports"),
    ("getattr(get_ipython(), name)", "kernel"),
    # objects that lie about what they are or equal
    ("tool.__class__ = Liar", "identity"),
    ("setattr(tool, '__cl' + 'ass__', Liar)", "identity"),
    ("object.__setattr__(tool, '__class__', Liar)", "identity"),
    ("class Int(int):\n    pass\nInt.__eq__ = yes", "identity"),
    ("setattr(Int, '__eq__', yes)", "identity"),
    ("Int = type('Int', (int,), {'__eq__': yes})", "identity"),
    ("class Yes(str):\n    def __eq__(self, other):\n        return True", "identity"),
    ("class Yes(int):\n    __eq__ = lambda self, other: True", "identity"),
    ("class Any:\n    def __contains__(self, item):\n        '''Everything.'''\n        return True", "identity"),
])
def test_obfuscated_names_and_lying_objects(code, category):
    assert category in {f.category for f in scan_source(code, "answer")}


def test_honest_comparisons_and_attribute_lookups_are_not_flagged():
    code = ("import dataclasses\n@dataclasses.dataclass\nclass Reply:\n    text: str\n"
            "    def __eq__(self, other):\n        return isinstance(other, Reply) and other.text == self.text\n"
            "code = getattr(err, 'status_' + 'code', None)\nname = err.__class__.__name__\n"
            "kind = type(err).__name__\nfor key in ('status_code', 'status'):\n    v = getattr(err, key, None)\n")
    assert scan_source(code, "answer") == []
