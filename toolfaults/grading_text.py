"""Does a message *mean* what it must? Matchers the exercises' tests use.

A test of a message checks its meaning, not one wording: "all sources failed",
"every source failed", "none of the sources answered" and "no source could answer"
say the same thing, and a test must accept each of them. These functions answer one
question each about a text (case-insensitive) and are written once, here, so that
the visible and the hidden tests of every exercise judge messages the same way::

    from toolfaults.grading_text import says_all_failed

    says_all_failed("Every source failed (primary_api, mirror_api, local_cache).")  # True
    says_all_failed("Answer from mirror_api.")                                      # False

They are deliberately generous with wording and strict with meaning: a message that
does not say the thing (or says something else) is rejected. The course's catalogue
of wrong answers (``autograder/catalogue/``) proves that the tests built on them
still catch every catalogued mistake.

>>> says_all_failed("None of the sources answered: primary_api, mirror_api.")
True
>>> says_may_be_stale("Answer from local_cache: a cached copy that may be old.")
True
>>> says_when_to_retry("Rate limited: retry after 2 minutes.", 120)
True
>>> names("Invalid input: Value must be a number.", "value")
True
"""

from __future__ import annotations

import math
import re

__all__ = [
    "names",
    "names_error",
    "names_range",
    "says_all_failed",
    "says_allowed_scales",
    "says_do_not_repeat",
    "says_internal_failure",
    "says_limit_reached",
    "says_may_be_stale",
    "says_no_result",
    "says_not_confirmed",
    "says_not_repeated",
    "says_not_the_arguments",
    "says_number",
    "says_when_to_retry",
]

_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                 9: "nine", 10: "ten"}
# Within one sentence: no full stop, semicolon or line break in between.
_SAME_SENTENCE = r"[^.;\n]*?"


def _text(message: object) -> str:
    return str(message).lower()


def _any(text: str, patterns: list[str]) -> bool:
    return any(re.search(p, text) for p in patterns)


def names(message: object, name: str) -> bool:
    """The message contains ``name`` anywhere, in any case (``from_scale`` also as "from scale").

    >>> names("Check the From Scale argument", "from_scale"), names("Tool input validation error", "value")
    (True, False)
    """
    pattern = r"[ _-]?".join(re.escape(part) for part in name.lower().split("_"))
    return re.search(pattern, _text(message)) is not None


def names_error(message: object, error: BaseException) -> bool:
    """The message names ``error``: its type ("ConnectionError", "connection error") or its own text.

    >>> names_error("Could not connect (connection error).", ConnectionError("host unreachable"))
    True
    >>> names_error("The tool failed.", ConnectionError("host unreachable"))
    False
    """
    text = _text(message)
    kind = type(error).__name__
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", kind).lower()
    detail = str(error).strip().strip("'\"").lower()
    return kind.lower() in text or spaced in text or bool(detail and detail in text)


def says_number(message: object, n: int) -> bool:
    """The message gives the number ``n`` in digits or (up to ten) in words.

    >>> says_number("Gave up after three attempts.", 3), says_number("Gave up after 13 attempts.", 3)
    (True, False)
    """
    word = _NUMBER_WORDS.get(n)
    pattern = rf"(?<![\d.]){n}(?!\d|\.\d)" + (rf"|\b{word}\b" if word else "")
    return re.search(pattern, _text(message)) is not None


_NUMBER = r"(?:\d{1,3}(?:[,\u202f\u00a0]\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:e[+-]?\d+)?"


def _numbers(text: str, signed: bool = False) -> set[float]:
    """Every number written in ``text`` ("1,000" and "1 000" are one thousand; "-100" is negative if ``signed``)."""
    text = re.sub(r"\b(\d{1,3})((?: \d{3})+)\b", lambda m: m.group().replace(" ", ""), text)
    pattern = (r"(-\s?)?" if signed else "") + _NUMBER
    return {float(re.sub(r"[\s,\u202f\u00a0]", "", m.group())) for m in re.finditer(pattern, text)}


def says_when_to_retry(message: object, seconds: float) -> bool:
    """The message says when to try again: ``seconds`` as seconds, minutes or milliseconds.

    "try again in 120 s", "retry after 120.0 seconds", "wait 2 minutes" and
    "Retry-After: 120000 ms" all say it for 120 s; "try again later" alone does not say when.

    >>> says_when_to_retry("Busy: wait 45 seconds before the next call.", 45)
    True
    >>> says_when_to_retry("Busy: try again later.", 45)
    False
    """
    text = re.sub(r"(\d)([a-z])", r"\1 \2", _text(message))  # "2min" -> "2 min"
    numbers = _numbers(text)

    def close(a: float, b: float) -> bool:
        return math.isclose(a, b, rel_tol=1e-3, abs_tol=1e-6)

    if any(close(n, seconds) for n in numbers):
        return True
    if re.search(r"\bmin", text) and any(close(n, seconds / 60) for n in numbers):
        return True
    if re.search(r"\bms\b|millisecond", text) and any(close(n, seconds * 1000) for n in numbers):
        return True
    return False


def says_all_failed(message: object) -> bool:
    """The message says that every source failed (no source gave an answer).

    >>> [says_all_failed(m) for m in ("All sources failed.", "No source could answer.", "mirror_api failed.")]
    [True, True, False]
    """
    text = _text(message)
    failed = r"(fail|unavailable|down\b|error|unreachable|could ?n[o']t|can't|can ?not|did ?n[o']t|no answer|gave up|broke|timed out|refused)"
    return _any(text, [
        rf"\b(all|every|each)\b{_SAME_SENTENCE}{failed}",
        rf"{failed}{_SAME_SENTENCE}\b(all|every|each)\b",
        r"\bnone of\b",
        r"\bno (single )?(source|sources|one|provider|providers|backend|backends|fallback)\b",
        r"\bnot (a single|one) (source|of)",
        r"\bno (answer|result|data)\b",
        r"\bnothing (answered|worked)\b",
        rf"(\bnot\b|n't\b|\bnever\b|\bunable\b|\bfail)\w*{_SAME_SENTENCE}\bany\b",
    ])


def says_may_be_stale(message: object) -> bool:
    """The message warns that the answer may be stale (old, cached, out of date).

    >>> [says_may_be_stale(m) for m in ("This may be outdated.", "Served from cache, may be old.", "Answer from api.")]
    [True, True, False]
    """
    return _any(_text(message), [
        r"stale", r"outdated", r"out[ -]of[ -]date", r"\bcached\b", r"\bfrom (the |a |its )?cache\b",
        r"\b(may|might|could) (be|have become) (old|older|obsolete|expired)",
        r"\bold (data|answer|copy|result|information|info)\b",
        r"not (be )?(up[ -]to[ -]date|current|fresh|live|the latest)",
        r"(may|might|could) (have changed|no longer be)",
    ])


def says_internal_failure(message: object) -> bool:
    """The message says the tool failed on its own side (internally, it crashed, a bug).

    >>> [says_internal_failure(m) for m in ("Internal error in web_search.", "web_search crashed.", "Bad input.")]
    [True, True, False]
    """
    return _any(_text(message), [
        r"internal", r"crash", r"\bbug\b", r"\bbroke", r"server[- ]side",
        r"\b(in|inside|within) (the|this|that) tool\b(?! call)", r"\btool itself\b",
        r"\bon (its|our|the tool's|the service's) (own )?side\b",
    ])


def says_not_the_arguments(message: object) -> bool:
    """The message says the failure is not a problem with the arguments (so other values will not help).

    >>> says_not_the_arguments("This is not a problem with your arguments."), says_not_the_arguments("Invalid arguments.")
    (True, False)
    """
    args = r"\b(argument|arguments|parameter|parameters|input|inputs|args|values)\b"
    fine = r"\b(fine|ok|okay|correct|valid|right|good|not (the )?(problem|issue|cause|reason)|not to blame|are not|aren't|is not|isn't|were not|weren't|was not|wasn't|(won't|will not|would not|wouldn't|does not|doesn't|cannot|can't) help)\b"
    return _any(_text(message), [
        rf"{args}{_SAME_SENTENCE}{fine}",
        rf"\b(not|n't|nothing to do with|no problem with|nothing wrong with|unrelated to|regardless of|whatever the)\b{_SAME_SENTENCE}{args}",
    ])


def says_no_result(message: object) -> bool:
    """The message says, briefly, that the tool returned nothing.

    >>> [says_no_result(m) for m in ("(no result)", "The tool returned nothing.", "None")]
    [True, True, False]
    """
    return _any(_text(message), [
        r"\bno (result|results|data|output|content|value|answer|records|matches)\b", r"\bempty\b", r"\bnothing\b",
        r"\breturned none\b", r"\bdid ?n[o']t return\b", r"\bwithout (a |any )?(result|output|value)\b",
    ])


def says_do_not_repeat(message: object) -> bool:
    """The message tells the model not to make the same call again.

    >>> says_do_not_repeat("Do not call it again with these arguments."), says_do_not_repeat("Unknown city.")
    (True, False)
    """
    return _any(_text(message), [
        r"repeat", r"\bagain\b", r"\bretry", r"\bsame (call|arguments|args|request|input|parameters)\b",
        r"\bstop (calling|trying)\b", r"\bblocked\b", r"\bno more (attempts|calls|tries)\b",
    ])


def says_not_confirmed(message: object) -> bool:
    """The message says the action could not be confirmed (it may or may not have happened).

    >>> [says_not_confirmed(m) for m in ("Unconfirmed: check the outbox.", "It may or may not have happened.", "Sent.")]
    [True, True, False]
    """
    return _any(_text(message), [
        r"confirm", r"verif", r"uncertain", r"unknown (whether|if)", r"unclear (whether|if)",
        r"(do ?n[o']t|does ?n[o']t|can't|can ?not|could ?n[o']t|no way to) (know|tell|say|be sure)",
        r"not (be )?(sure|certain)", r"(may|might) or (may|might) not", r"(may|might) (already )?have (happened|been|gone)",
    ])


def says_not_repeated(message: object) -> bool:
    """The message says the action was not repeated (not retried, not sent again).

    >>> says_not_repeated("It was not retried."), says_not_repeated("I did not send it a second time."), says_not_repeated("Done.")
    (True, True, False)
    """
    return _any(_text(message), [
        r"repeat", r"\bretr(y|ied|ying)\b", r"\bagain\b", r"\bre-?(send|sent|run|ran|tried|attempt)", r"second time",
        r"\btwice\b", r"duplicat", r"one more time",
    ])


def says_limit_reached(message: object) -> bool:
    """The message says the loop stopped at its limit of iterations.

    >>> says_limit_reached("Stopped: too many steps."), says_limit_reached("The answer is 68.")
    (True, False)
    """
    return _any(_text(message), [
        r"limit", r"max(imum)?[ _]?(number of )?(iterations|steps|turns|calls|rounds)", r"too many",
        r"ran out of", r"out of (iterations|steps|turns|rounds)", r"exhausted", r"budget",
        r"(gave up|stopped) after \d+", r"after \d+ (iterations|steps|turns|rounds|model calls)",
    ])


def says_allowed_scales(message: object) -> bool:
    """The message says the allowed scales are C and F (letters, quoted or not, or the names).

    >>> [says_allowed_scales(m) for m in ("Use 'C' or 'F'.", "scale must be celsius or fahrenheit", "Unknown scale 'CF'.")]
    [True, True, False]
    """
    text = _text(message)
    letter = r"(?<![a-z0-9_]){}(?![a-z0-9_])"
    return (re.search(letter.format("c") + "|celsius", text) is not None
            and re.search(letter.format("f") + "|fahrenheit", text) is not None)


def names_range(message: object, low: float, high: float) -> bool:
    """The message gives both ends of the range (``-100`` and ``1000`` also as "−100", "1,000", "1 000").

    >>> names_range("value must be between −100 and 1,000", -100, 1000), names_range("out of range", -100, 1000)
    (True, False)
    """
    text = re.sub(r"[−–]", "-", _text(message)).replace("minus ", "-")
    found = _numbers(text, signed=True)
    return float(low) in found and float(high) in found
