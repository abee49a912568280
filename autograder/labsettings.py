"""Set up JupyterLab for learners: no news pop-ups, no nbgrader instructor tools.

    python -m autograder.labsettings PREFIX                 # writes into the environment at PREFIX
    python -m autograder.labsettings PREFIX --instructor    # nbgrader's instructor tools shown

`make setup` and `make lab` run it for .venv, and Binder's postBuild for its
environment. It writes three files of that environment:

- ``share/jupyter/lab/settings/overrides.json``: a learner opens the course without a
  "get notified about Jupyter news?" dialog (``--LabApp.news_url=None`` does not stop
  that one);
- ``etc/jupyter/labconfig/page_config.json``: nbgrader's instructor parts of the
  JupyterLab extension (the Create Assignment sidebar, the Formgrader, the
  assignment and course lists that need an exchange, and the Nbgrader menu that
  opens them) are disabled, so learners see only what is theirs: the **Validate**
  button of nbgrader stays. Instructors grade with ``make grade`` (see
  docs/instructors.md); ``make lab INSTRUCTOR=1`` (``--instructor``) shows the tools,
  for example the Create Assignment sidebar to write a new exercise, until the next
  plain ``make lab``;
- ``etc/jupyter/jupyter_server_config.json``: a kernel that could not bind one
  of its ports is restarted on new ones. The server picks a kernel's TCP ports and
  closes them before the kernel binds them; any program that opens a connection in
  that moment can take one (a Dask cluster or a database client nearby makes it
  likelier). The server then restarts the kernel "with new random ports", but with
  ``KernelManager.cache_ports`` on (jupyter_client's default for TCP) it hands out the
  same ports again, five times, and the learner is left with a dead kernel. Off, each
  restart picks new ones (checked on jupyter_client 8.10).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OVERRIDES = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}

#: The Jupyter server's settings (``jupyter lab --show-config`` lists them with the others).
SERVER_CONFIG = {"KernelManager": {"cache_ports": False}}

# nbgrader 0.9.6's JupyterLab plugins, except "@jupyter/nbgrader:validate-assignment".
INSTRUCTOR_PLUGINS = (
    "@jupyter/nbgrader:menu",
    "@jupyter/nbgrader:create-assignment",
    "@jupyter/nbgrader:formgrader",
    "@jupyter/nbgrader:assignment-list",
    "@jupyter/nbgrader:course-list",
)


def _update(path: Path, change) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    current = json.loads(path.read_text()) if path.exists() else {}
    change(current)
    text = json.dumps(current, indent=2) + "\n"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def write(prefix: Path, instructor: bool = False) -> list[Path]:
    prefix = Path(prefix)

    def disable(config: dict) -> None:
        disabled = config.setdefault("disabledExtensions", {})
        for plugin in INSTRUCTOR_PLUGINS:
            if instructor:
                disabled.pop(plugin, None)
                config.get("lockedExtensions", {}).pop(plugin, None)
            else:
                disabled[plugin] = True

    return [
        _update(prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json", lambda c: c.update(OVERRIDES)),
        _update(prefix / "etc" / "jupyter" / "labconfig" / "page_config.json", disable),
        _update(prefix / "etc" / "jupyter" / "jupyter_server_config.json",
                lambda c: c.update(SERVER_CONFIG)),
    ]


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m autograder.labsettings", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prefix", nargs="?", type=Path, default=Path(sys.prefix),
                        help="the environment to set up (default: this one, %(default)s)")
    parser.add_argument("--instructor", action="store_true", help="show nbgrader's instructor tools")
    args = parser.parse_args(argv)
    for written in write(args.prefix, instructor=args.instructor):
        print(f"wrote {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
