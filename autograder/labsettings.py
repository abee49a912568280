"""Write JupyterLab's settings overrides for the course (no news or update pop-ups).

    python -m autograder.labsettings PREFIX   # writes PREFIX/share/jupyter/lab/settings/overrides.json

`make setup` runs it for .venv and Binder's postBuild for its environment, so a
learner opens the course without a "get notified about Jupyter news?" dialog
(`--LabApp.news_url=None` does not stop that one).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OVERRIDES = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


def write(prefix: Path) -> Path:
    path = Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    current = json.loads(path.read_text()) if path.exists() else {}
    current.update(OVERRIDES)
    path.write_text(json.dumps(current, indent=2) + "\n")
    return path


if __name__ == "__main__":
    print(f"wrote {write(Path(sys.argv[1] if len(sys.argv) > 1 else sys.prefix))}")
