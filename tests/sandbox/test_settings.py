"""Each time limit is one declared setting, read from one place, and documented once (issue 43).

- every setting the grader declares has help text;
- the clean room's and the fork server's defaults are the traits' defaults (no second literal), and so are
  the sandbox command's (``autograder/jail.py``);
- no module gives a time limit a number of its own: a literal default or constant for a name like a limit
  (:func:`literal_limits`) is found in the source, but for the ones :data:`NOT_GRADING_LIMITS` lists with a reason;
- a grading task's limit is a function of the settings (:func:`autograder.grade.task_time_limit`);
- docs/instructors.md's table of the time limits is the one :func:`table` writes from the traits;
- a misspelt setting in a course's configuration is an error (:func:`autograder.course.check_settings`).
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from traitlets.config import Config

from autograder import cleanroom, forkserver, jail
from autograder.course import check_settings, load_config
from autograder.grade import task_time_limit
from autograder.preprocessors import GuardedExecute, LimitOutputSize
from autograder.sandbox import SandboxedKernelManager
from autograder.settings import CrossCheck

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "autograder"
DOCS = ROOT / "docs" / "instructors.md"

#: The grader's own configurable classes: every trait they declare themselves is documented (help text).
OWN_CLASSES = (GuardedExecute, LimitOutputSize, SandboxedKernelManager, CrossCheck)

#: The time limits an instructor may tune, in the docs' table's order: (section, trait, class that reads it).
TIME_LIMITS = (
    ("Execute", "timeout", GuardedExecute),
    ("GuardedExecute", "notebook_timeout", GuardedExecute),
    ("GuardedExecute", "interrupt_grace", GuardedExecute),
    ("GuardedExecute", "start_attempts", GuardedExecute),
    ("Execute", "startup_timeout", GuardedExecute),
    ("SandboxedKernelManager", "startup_timeout", SandboxedKernelManager),
    ("SandboxedKernelManager", "cpu_limit", SandboxedKernelManager),
    ("CrossCheck", "grace", CrossCheck),
)
#: How the table's last row, the derived limit, is written.
TASK_ROW = ("the grading task (derived)",
            "2 × `notebook_timeout` + `SandboxedKernelManager.startup_timeout` × `start_attempts`")

#: Names a number given in the source would make a second time limit (a default, a constant, a keyword).
LIMIT_NAME = re.compile(r"(timeout|grace|attempts|time_limit|cpu_limit|deadline)$|^[A-Z_]*(TIMEOUT|GRACE|LIMIT)[A-Z_]*$")
#: ``module:line text`` of the literals :func:`literal_limits` finds that are not grading limits, and why.
NOT_GRADING_LIMITS = {
    "checkcluster": "the check-cluster command's wait for a Dask scheduler (its --timeout option), not a grading limit",
    "cluster": "how long a LocalCluster's or a scheduler's workers may take to come up, not a grading limit",
    "jail": "check_sandbox's trial run of bwrap; sandbox_command's cpu_limit default is checked against the trait",
}


def first_sentence(text: str) -> str:
    words = " ".join(text.split())
    return words.split(". ")[0].rstrip(".") + "."


def table(course: Config) -> str:
    """docs/instructors.md's table of the time limits: each setting, its default, its value for ``course``
    (the course's nbgrader_config.py), and the first sentence of its help; then the grading task's limit."""
    rows = ["| setting | default | this course | what it limits (its help) |", "|---|---|---|---|"]
    for section, name, cls in TIME_LIMITS:
        trait = cls.class_traits()[name]
        rows.append(f"| `{section}.{name}` | {trait.default()} | {getattr(cls(config=course), name)} | "
                    f"{first_sentence(trait.help)} |")
    default, ours = (task_time_limit(SimpleNamespace(config=config)) for config in (Config(), course))
    rows.append(f"| {TASK_ROW[0]} | {default:g} | {ours:g} | {TASK_ROW[1]} (`autograder.grade.task_time_limit`) |")
    return "\n".join(rows)


def test_every_declared_setting_has_help_text():
    for cls in OWN_CLASSES:
        for name, trait in cls.class_own_traits(config=True).items():
            assert len((trait.help or "").split()) >= 4, f"{cls.__name__}.{name} has no help text"


def test_every_time_limit_the_grader_declares_is_in_the_table():
    listed = {(cls, name) for _, name, cls in TIME_LIMITS}
    for cls in OWN_CLASSES:
        for name, trait in cls.class_own_traits(config=True).items():
            if LIMIT_NAME.search(name) or "seconds" in (trait.help or "").lower():
                assert (cls, name) in listed, f"{cls.__name__}.{name} is a time limit the docs' table does not list"


def test_the_docs_table_is_the_traits():
    expected = table(load_config())
    assert expected in DOCS.read_text(encoding="utf-8"), (
        "docs/instructors.md's table of the time limits differs from the traits; it should read:\n" + expected)


def test_the_clean_rooms_defaults_are_the_traits_defaults():
    """forkserver.Settings() and cleanroom.settings() of an empty configuration give each trait's default."""
    traits = {"cell_timeout": GuardedExecute.class_traits()["timeout"].default(),
              "notebook_timeout": GuardedExecute.class_traits()["notebook_timeout"].default(),
              "fork": CrossCheck.class_traits()["fork"].default(),
              "grace": CrossCheck.class_traits()["grace"].default()}
    for made in (forkserver.Settings(), cleanroom.settings(Config())):
        assert {name: getattr(made, name) for name in traits} == traits
    defaults, limits = SandboxedKernelManager(), cleanroom.settings(Config()).limits
    assert limits and all(limits[name] == getattr(defaults, name) for name in limits)


def test_the_clean_room_reads_the_course_through_the_traits():
    """A course's settings reach the clean room, parents' sections included (``ExecutePreprocessor.timeout``)."""
    config = Config({"ExecutePreprocessor": {"timeout": 7}, "GuardedExecute": {"notebook_timeout": 9},
                     "CrossCheck": {"fork": False, "grace": 2.5}, "SandboxedKernelManager": {"cpu_limit": 11}})
    options = cleanroom.settings(config)
    assert (options.cell_timeout, options.notebook_timeout, options.fork, options.grace) == (7, 9, False, 2.5)
    assert options.limits["cpu_limit"] == 11
    assert cleanroom.settings(Config({"Execute": {"timeout": 0}})).cell_timeout == 120  # unset: the notebook's


def test_the_sandbox_commands_limits_are_the_kernel_managers():
    """jail.sandbox_command's numeric defaults (memory, file size, /tmp, CPU seconds, open files) are the traits'."""
    defaults = SandboxedKernelManager()
    limits = {name: parameter.default for name, parameter in inspect.signature(jail.sandbox_command).parameters.items()
              if isinstance(parameter.default, (int, float)) and not isinstance(parameter.default, bool)}
    assert "cpu_limit" in limits
    assert limits == {name: getattr(defaults, name) for name in limits}


def test_a_grading_tasks_limit_is_a_function_of_the_settings():
    course = SimpleNamespace(config=Config({"GuardedExecute": {"notebook_timeout": 10, "start_attempts": 2},
                                            "SandboxedKernelManager": {"startup_timeout": 7}}))
    assert task_time_limit(course) == 2 * 10 + 7 * 2
    assert task_time_limit(SimpleNamespace(config=Config())) == 2 * 120 + 60 * 3


def literal_limits() -> dict[str, list[str]]:
    """``module -> ["line: text"]``: numbers given to a name like a time limit (:data:`LIMIT_NAME`) outside a trait's
    declaration: a parameter's default, a dataclass field or a constant, a call's keyword (``timeout=60``).
    Waits under 10 s (polling, a process's exit) are not limits an instructor tunes and are not reported."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        pairs = []
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args.args + node.args.kwonlyargs
                defaults = [None] * (len(node.args.args) - len(node.args.defaults)) + node.args.defaults \
                    + node.args.kw_defaults
                pairs += [(a.arg, d) for a, d in zip(args, defaults) if d is not None]
            elif isinstance(node, ast.keyword) and node.arg:
                pairs.append((node.arg, node.value))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                pairs += [(t.id, node.value) for t in targets if isinstance(t, ast.Name) and node.value is not None]
        for name, value in pairs:
            if LIMIT_NAME.search(name) and isinstance(value, ast.Constant) and isinstance(value.value, (int, float)) \
                    and not isinstance(value.value, bool) and value.value >= 10:
                found.setdefault(path.stem, []).append(f"{value.lineno}: {name}={value.value}")
    return found


def test_no_module_gives_a_time_limit_a_number_of_its_own():
    found = {module: lines for module, lines in literal_limits().items() if module not in NOT_GRADING_LIMITS}
    assert not found, f"literal time limits (make each a trait, or read one): {found}"


def test_the_known_exceptions_are_still_there():
    """:data:`NOT_GRADING_LIMITS` names only modules that still need it (a stale reason would hide a new literal)."""
    assert set(NOT_GRADING_LIMITS) <= set(literal_limits())


@pytest.mark.parametrize("settings, unknown", [
    ({"CrossCheck": {"enable": False}}, "CrossCheck.enable (did you mean CrossCheck.enabled?)"),
    ({"CrossChek": {"enabled": False}}, "'CrossChek' (did you mean CrossCheck?)"),
    ({"GuardedExecute": {"notebook_timout": 5}}, "GuardedExecute.notebook_timout (did you mean GuardedExecute.notebook_timeout?)"),
    ({"SandboxedKernelManager": {"memory": 1}}, "SandboxedKernelManager.memory"),
])
def test_a_misspelt_setting_is_an_error(settings, unknown):
    with pytest.raises(ValueError, match=re.escape(unknown)):
        check_settings(settings)


def test_the_settings_the_grader_and_its_tests_use_are_known():
    check_settings({"Execute": {"timeout": 5, "kernel_name": "python3", "startup_timeout": 30},
                    "ExecutePreprocessor": {"timeout": 5},
                    "GuardedExecute": {"notebook_timeout": 12, "interrupt_grace": 4, "start_attempts": 1},
                    "CrossCheck": {"enabled": False, "fork": False, "grace": 1.0},
                    "Autograde": {"autograde_preprocessors": []}, "CourseDirectory": {"db_url": "sqlite://"},
                    "SandboxedKernelManager": {"memory_limit": 2 ** 30, "fork": False},
                    "LimitOutputSize": {"max_chars": 100}})


def test_nbgrader_config_may_set_nbgrader_commands_but_not_misspell_the_graders():
    """``nbgrader_config.py`` (read by :func:`autograder.course.load_config`) may configure nbgrader's own
    commands, sections the grader does not know; a misspelt setting of a section it knows is an error."""
    check_settings(Config({"Exchange": {"root": "/srv/exchange"}, "GuardedExecute": {"notebook_timeout": 60}}),
                   other_sections=True)
    with pytest.raises(ValueError, match=re.escape("GuardedExecute.notebook_timout")):
        check_settings(Config({"GuardedExecute": {"notebook_timout": 60}}), other_sections=True)
    check_settings(load_config(), other_sections=True)  # the course's own


@pytest.mark.slow
def test_a_course_with_a_misspelt_setting_does_not_start(tmp_path):
    from autograder.engine import Course

    with pytest.raises(ValueError, match=re.escape("CrossCheck.enable (did you mean CrossCheck.enabled?)")):
        Course.scratch(tmp_path, config={"CrossCheck": {"enable": False}})
