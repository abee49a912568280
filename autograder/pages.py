"""The HTML pages of grading (class report, feedback), rendered from ``autograder/templates/``.

One Jinja2 environment for both: autoescape on (every value a student or a test
wrote reaches the page escaped), undefined names fail loudly, and the pages share
one stylesheet, ``templates/style.css``, which each page embeds so that it opens
anywhere on its own.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jinja2

TEMPLATES = Path(__file__).parent / "templates"


def _g(value: float) -> str:
    """A number as ``{:g}`` writes it: 2.0 -> "2", 1.5 -> "1.5"."""
    return f"{value:g}"


def _pct(value: float) -> str:
    """A percentage rounded to a whole number: 41.7 -> "42%"."""
    return f"{value:.0f}%"


@cache
def environment() -> jinja2.Environment:
    """The environment every page is rendered with (built once)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["g"] = _g
    env.filters["pct"] = _pct
    return env


def render(template: str, **context: Any) -> str:
    """Render ``templates/<template>`` with ``context``.

    Args:
        template: the template's file name, e.g. ``"feedback.html"``.
        **context: the names the template uses.

    Returns:
        The page, as text.

    Raises:
        jinja2.UndefinedError: the template uses a name that ``context`` lacks.
    """
    return environment().get_template(template).render(**context)
