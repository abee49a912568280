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
Data that has a Spanish edition (the catalogue's countries and cities) is swapped
in place when the language changes, through :func:`on_language_change`.

Names are compared the way people type them, with :func:`fold`: case, accents and
extra spaces do not matter::

    >>> fold("  México ") == fold("mexico") == fold("MÉXICO")
    True
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

__all__ = ["LANGUAGES", "SPANISH_SUFFIX", "use_language", "current_language", "say", "fold", "strip_accents",
           "on_language_change", "language_of", "english_name"]

LANGUAGES = ("en", "es")
#: A Spanish exercise (and nbgrader assignment) is named like the English one plus this suffix.
SPANISH_SUFFIX = "_es"
_current = "en"
_listeners: list[Callable[[str], object]] = []


def use_language(code: str) -> str:
    """Make ``code`` ("en" or "es") the language of toolfaults' text; returns it."""
    global _current
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}: choose one of {', '.join(LANGUAGES)}")
    _current = code
    for listener in list(_listeners):
        listener(code)
    return code


def on_language_change(listener: Callable[[str], object]) -> Callable[[str], object]:
    """Call ``listener(code)`` now and after every :func:`use_language` (toolfaults' own data uses it)."""
    _listeners.append(listener)
    listener(_current)
    return listener


def current_language() -> str:
    """The language chosen with :func:`use_language` ("en" until one is chosen)."""
    return _current


def say(en: str, es: str) -> str:
    """``en`` or ``es``, whichever is the current language."""
    return es if _current == "es" else en


def strip_accents(text: str) -> str:
    """``text`` without accents or tildes ("Inténtalo" -> "Intentalo", "año" -> "ano"); nothing else changes."""
    decomposed = unicodedata.normalize("NFD", str(text))
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def fold(text: str) -> str:
    """``text`` as a lookup key: no accents, case folded, spaces collapsed ("  MÉXICO " -> "mexico")."""
    return " ".join(strip_accents(text).casefold().split())


def language_of(name: str) -> str:
    """The language of an exercise or assignment, from its name: ``"es"`` for ``..._es``, else ``"en"``.

    >>> language_of("05_retry_with_backoff_es"), language_of("05_retry_with_backoff")
    ('es', 'en')
    """
    return "es" if name.endswith(SPANISH_SUFFIX) else "en"


def english_name(name: str) -> str:
    """The English exercise a name translates (the name itself when it is English).

    >>> english_name("05_retry_with_backoff_es")
    '05_retry_with_backoff'
    """
    return name[: -len(SPANISH_SUFFIX)] if language_of(name) == "es" else name
