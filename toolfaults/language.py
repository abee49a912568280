"""The language of the text toolfaults writes for people and models: English or Spanish.

A lesson's first code cell picks it, so the mocked tools' outputs, the scripted
models' defaults and the self-check widgets speak the notebook's language::

    >>> from toolfaults.language import use_language, say
    >>> use_language("es")
    'es'
    >>> say("results for 'jitter'", "resultados para 'jitter'")
    "resultados para 'jitter'"
    >>> use_language("en")
    'en'

Code, identifiers and error *codes* never change with the language: only text.
"""

from __future__ import annotations

__all__ = ["LANGUAGES", "use_language", "current_language", "say"]

LANGUAGES = ("en", "es")
_current = "en"


def use_language(code: str) -> str:
    """Make ``code`` ("en" or "es") the language of toolfaults' text; returns it."""
    global _current
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}: choose one of {', '.join(LANGUAGES)}")
    _current = code
    return code


def current_language() -> str:
    """The language chosen with :func:`use_language` ("en" until one is chosen)."""
    return _current


def say(en: str, es: str) -> str:
    """``en`` or ``es``, whichever is the current language."""
    return es if _current == "es" else en
