"""Start-up cost: what a course process does before it imports ``jsonschema``.

``jsonschema`` (imported by nbformat, nbclient and nbgrader) imports ``rfc3987_syntax`` when
it is installed (jupyter-events pulls it in) to check the ``iri`` and ``iri-reference``
formats, and that module builds its Earley parsers as it is imported: 1 to 2 s of CPU in
every process that reads a notebook (python-jsonschema/jsonschema#1428). No schema the
course validates (notebooks, nbgrader's) uses those formats. Marked as missing, the module
is skipped, as ``jsonschema`` skips it when it is not installed; everything else it checks
is checked as before.
"""

from __future__ import annotations

import sys

SLOW = "rfc3987_syntax"


def skip_slow_format_checkers() -> None:
    """Have ``jsonschema`` skip the ``iri`` format checkers; does nothing if it has loaded them already."""
    sys.modules.setdefault(SLOW, None)  # type: ignore[arg-type]  # None: `import` raises ImportError
