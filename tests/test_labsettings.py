"""`make lab` shows learners nbgrader's Validate button, not its instructor tools (INSTRUCTOR=1 shows them)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from autograder import labsettings

VALIDATE = "@jupyter/nbgrader:validate-assignment"


def _page_config(prefix: Path) -> dict:
    return json.loads((prefix / "etc" / "jupyter" / "labconfig" / "page_config.json").read_text())


def test_the_plugin_ids_are_nbgraders():
    """Every id switched off is a plugin of the installed nbgrader lab extension (a renamed one would do nothing)."""
    static = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyter" / "nbgrader" / "static"
    source = "\n".join(p.read_text(errors="replace") for p in static.glob("*.js"))
    ids = set(re.findall(r'"(@jupyter/nbgrader:[a-z-]+)"', source))
    assert VALIDATE in ids
    assert set(labsettings.INSTRUCTOR_PLUGINS) <= ids, set(labsettings.INSTRUCTOR_PLUGINS) - ids
    assert set(labsettings.INSTRUCTOR_PLUGINS) | {VALIDATE} >= ids - {"@jupyter/nbgrader:formgrader-local"}


def test_learners_get_validate_only_and_instructors_can_switch_back(tmp_path):
    config = tmp_path / "etc" / "jupyter" / "labconfig" / "page_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"disabledExtensions": {"some-other:plugin": True}, "other": 1}))

    labsettings.write(tmp_path)
    learner = _page_config(tmp_path)
    assert all(learner["disabledExtensions"].get(p) for p in labsettings.INSTRUCTOR_PLUGINS)
    assert VALIDATE not in learner["disabledExtensions"]
    assert learner["disabledExtensions"]["some-other:plugin"] and learner["other"] == 1, "other settings are kept"

    labsettings.write(tmp_path, instructor=True)
    instructor = _page_config(tmp_path)
    assert not set(labsettings.INSTRUCTOR_PLUGINS) & set(instructor["disabledExtensions"])
    assert instructor["disabledExtensions"] == {"some-other:plugin": True}

    labsettings.write(tmp_path)
    assert _page_config(tmp_path) == learner
    overrides = json.loads((tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
