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
does not say the thing (or says something else) is rejected, and so is one that says its
opposite: "The payment was confirmed" is no "not confirmed", "not all sources failed" no
"all failed", "the tool did not crash" no internal failure. The course's catalogue
of wrong answers (``coursetools/catalogue/``) proves that the tests built on them
still catch every catalogued mistake.

Every matcher understands English and Spanish alike, with or without accents
("Inténtalo de nuevo en 2 minutos", "intentalo de nuevo en 2 minutos"), so the same
answer code is judged the same in both editions of an exercise.

>>> says_all_failed("None of the sources answered: primary_api, mirror_api.")
True
>>> says_may_be_stale("Answer from local_cache: a cached copy that may be old.")
True
>>> says_when_to_retry("Rate limited: retry after 2 minutes.", 120)
True
>>> names("Invalid input: Value must be a number.", "value")
True
>>> says_when_to_retry("Límite de peticiones: inténtalo de nuevo en 2 minutos.", 120)
True
>>> says_all_failed("Ninguna de las fuentes respondió.")
True
>>> says_not_confirmed("The payment was confirmed."), says_all_failed("Not all sources failed: mirror_api answered.")
(False, False)
"""

from __future__ import annotations

import math
import re

from .language import strip_accents as _plain

__all__ = [
    "asks_for_a_number",
    "names",
    "names_error",
    "names_range",
    "names_value",
    "says_all_failed",
    "says_allowed_scales",
    "says_data_may_be_old",
    "says_do_not_repeat",
    "says_internal_failure",
    "says_limit_reached",
    "says_may_be_stale",
    "says_no_result",
    "says_no_source_answered",
    "says_not_confirmed",
    "says_not_repeated",
    "says_not_the_arguments",
    "says_number",
    "says_when_to_retry",
]

_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                 9: "nine", 10: "ten"}
# "un"/"una" alone are articles ("un error"): one is "uno", "una vez", "un intento", "una llamada".
_NUMBER_WORDS_ES = {1: r"uno|una (sola )?(vez|llamada)|un (solo |unico )?intento", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
                    8: "ocho", 9: "nueve", 10: "diez"}
# Within one sentence: no full stop, semicolon or line break in between.
_SAME_SENTENCE = r"[^.;\n]*?"


def _text(message: object) -> str:
    """The message in lower case, without accents and with plain apostrophes: the patterns below are written that way."""
    return _plain(str(message).lower()).replace("\u2019", "'")


def _any(text: str, patterns: list[str]) -> bool:
    return any(re.search(p, text) for p in patterns)


# Negation. A matcher must not read a sentence that says the opposite of its meaning as saying it: "The payment
# was confirmed" is no "not confirmed", "the tool did not crash" no internal failure, "not all sources failed"
# no "all failed". The matchers below share these tools:
#
# - _NOT / _NO: a negation, in English and in Spanish ("not", "never", "no", "n't", "without"; "no", "nunca",
#   "ni", "sin"...). Every pattern reads both languages, so a Spanish pattern must not misread English and back;
# - _reach(): how far a negation reaches: the rest of its clause, never past a punctuation mark or a word that
#   starts another clause ("It did not fail, so it was confirmed", "no es la herramienta sino tus argumentos");
# - _governed(): a negation that governs a word, with only small words between ("it was not retried"), not a
#   negation of another verb before it ("do not hesitate to retry");
# - _subject(): a negating subject with its noun phrase ("nothing", "none of the calls", "ningún servidor"), which
#   denies its whole clause, verb and all ("none of the calls timed out"), not a clause of its own ("nothing you did");
# - _without(): a message with the clauses that say the opposite cut out, before a matcher reads it ("the result
#   is not empty", "none of the sources failed").
#
# Some meanings negation does not turn around: a field's name, a number or a range in a negative sentence is still
# given ("5000 is not between -100 and 1000" gives the range, "'hot' is not a number" asks for a number). Each
# matcher says which.
_NOT = (r"(?:\b(?:not|never|no|none|nothing|nobody|no-one|neither|nor|without|cannot|dont|doesnt|didnt|wont|cant"
        r"|isnt|wasnt|arent|werent|couldnt|shouldnt|wouldnt|havent|hasnt|hadnt)\b|n't\b)")
_NO = r"\b(?:no|nunca|jamas|ni|sin|nadie|nada|ningun[oa]?)\b"
_BREAKS = (r"and|but|so|then|though|although|because|since|as|while|whereas|which|instead|rather|just|only|except"
           r"|however|therefore|thus|hence|y|pero|sino|asi que|porque|pues|aunque|ya que|mientras|luego|entonces|solo"
           r"|excepto|salvo|menos|sin embargo|por eso|por lo que")


def _reach(chars: int = 40, stop: str = "", *, rest: bool = False) -> str:
    """Up to ``chars`` characters of one clause: no punctuation mark and no word that starts another clause (nor
    any of the words ``stop``); as few as a match needs or, with ``rest``, as many as there are (to cut a clause)."""
    words = f"{_BREAKS}|{stop}" if stop else _BREAKS
    return rf"(?:(?!\b(?:{words})\b)[^.;:,!?()\[\]\n\u2013\u2014]){{0,{chars}}}{'' if rest else '?'}"


def _governed(negation: str, between: str, words: str, most: int = 4) -> str:
    """``negation``, at most ``most`` of the small words ``between`` (auxiliaries, pronouns...), then ``words``:
    the negation governs them ("it was not retried", "no la vuelvas a llamar"), not a verb further on ("do not
    wait to retry", "no dudes en reintentar")."""
    return rf"{negation}(?:\s+(?:{between})\b){{0,{most}}}\s*(?:{words})"


# The small words a negation may have between it and what it governs: auxiliaries, pronouns, articles.
_SMALL = (r"be|been|being|have|has|had|it|this|that|them|the|a|an|any|same|exact|call|request|write|action|message|e-?mail"
          r"|payment|order|ever|even|yet|actually|again|i|we|you|they|was|were|is|are|will|would|could|should|did|do|does|can"
          r"|may|might|must|to|going to|try to|attempt to|bother to|go on to|want to|please|get|got"
          r"|lo|la|le|los|las|se|me|te|nos|les|he|ha|has|hemos|han|habia|habian|hube|hubo|fue|fueron|sido|pude|pudo"
          r"|pudimos|puedo|puede|puedes|quise|quiso|debo|debe|debes|debia|deberia|voy a|va a|vas a|vamos a|iba a|queria"
          r"|quiero|trate de|ya|yo|tu|usted|ustedes|mas")


# A negation that is the subject or its determiner: "nothing", "none of the calls", "no part of the tool", "nada",
# "ningún servidor", "ninguna de las llamadas". It denies what its clause says, verb and all ("nothing failed
# internally", "none of the calls timed out"), where "not" denies only the words that follow it. Its noun phrase
# holds only the ``nouns`` a matcher names, not any word, so that a relative clause stays out: "nothing you did
# caused it" denies that you caused it, not that it happened.
_NP = (r"of|the|this|that|these|those|its|their|our|my|your|it|them|one|single|part|parts|piece|pieces|here|there"
       r"|de|del|el|la|los|las|este|esta|estos|estas|esto|eso|su|sus|tus|nuestr[oa]s?|sol[oa]|parte|partes|pieza|piezas|aqui")
_NO_SUBJECT = r"\b(?:nothing|none|nobody|no-one|no|neither|nada|nadie|ningun[oa]?s?)\b"


def _subject(nouns: str, most: int = 4) -> str:
    """A negating subject and at most ``most`` words of its noun phrase (:data:`_NP` and ``nouns``): "none of the
    calls", "no part of the tool", "ninguno de los servidores", a possessive too ("nobody's server", "no one's tool")."""
    return rf"(?:{_NO_SUBJECT}(?:'s)?(?:\s+(?:{_NP}|{nouns})\b(?:'s)?){{0,{most}}})"


def _without(text: str, patterns: list[str]) -> str:
    """``text`` with every match of ``patterns`` cut out (a clause that says the opposite)."""
    for pattern in patterns:
        text = re.sub(pattern, " ", text)
    return text


def names(message: object, name: str) -> bool:
    """The message contains ``name`` anywhere, in any case (``from_scale`` also as "from scale").

    Naming is no claim, so it has no opposite: a field's name anywhere passes (COURSE_SPEC §5), "value is fine" too.

    >>> names("Check the From Scale argument", "from_scale"), names("Tool input validation error", "value")
    (True, False)
    """
    pattern = r"[ _-]?".join(re.escape(part) for part in _plain(name.lower()).split("_"))
    return re.search(pattern, _text(message)) is not None


def names_error(message: object, error: BaseException) -> bool:
    """The message names ``error``: its type ("ConnectionError", "connection error") or its own text.

    Named negated, it is not named: "not a connection error", "it did not time out", "no fue un error de conexión".
    "Could not connect", "no connection", "sin conexión" do name a connection error.

    >>> names_error("Could not connect (connection error).", ConnectionError("host unreachable"))
    True
    >>> names_error("The tool failed.", ConnectionError("host unreachable"))
    False
    >>> names_error("Error de conexión tras 3 intentos.", ConnectionError("host unreachable"))
    True
    >>> names_error("web_search: the connection failed, 3 attempts in a row.", ConnectionError("reset"))
    True
    >>> names_error("Not a connection error: the tool timed out.", ConnectionError("reset"))
    False
    """
    text = _without(_text(message), _NOT_KIND)
    kind = type(error).__name__
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", kind).lower()
    detail = _plain(str(error).strip().strip("'\"").lower())
    if kind.lower() in text or spaced in text or bool(detail and detail in text):
        return True
    return any(re.search(kinds[k.__name__], text) for kinds in (_KINDS, _KINDS_ES)
               for k in type(error).__mro__ if k.__name__ in kinds)


# How a message names a kind of error in plain words ("the connection failed" for ConnectionError,
# "error de conexión" in Spanish); a message may name the error's own class or any listed class it
# derives from ("connection reset" for ConnectionResetError, or "the connection failed").
_KINDS = {
    "ConnectionRefusedError": r"connection (was )?refused|refused (the|a|our) connection",
    "ConnectionResetError": r"connection (was )?(reset|dropped|closed)",
    "ConnectionError": r"connection(?: (?:to|with) (?:the |a |an )?[\w-]+(?: [\w-]+)?)? (?:(?:was|has been|got|is) )?"
                       r"(failed|failure|error|problem|lost|broke|broken|dropped|interrupted)"
                       r"|(could not|couldn't|cannot|can't|unable to) "
                       r"(connect|reach)|(failed|unable) to connect|no connection|(lost|lost the|dropped the) connection"
                       r"|(host|server|service|api|endpoint) (is |was )?unreachable",
    "TimeoutError": r"timed?[ -]?out|took too long|did not (answer|respond|reply) in time|deadline",
    "FileNotFoundError": r"(file|path) (was )?not found|no such file|(file|path) (does not|doesn't) exist|missing file",
    "PermissionError": r"permission|not (allowed|permitted|authori[sz]ed)|unauthori[sz]ed|access (is |was )?denied|forbidden",
    "KeyError": r"\bkey\b",
    "ZeroDivisionError": r"divi(de|sion|ded) by zero",
    "ValueError": r"(bad|invalid|wrong) value|value (error|is (not valid|invalid|wrong))",
    "TypeError": r"(bad|invalid|wrong) type|type (error|mismatch)",
}
_KINDS_ES = {
    "ConnectionRefusedError": r"conexion rechazada",
    "ConnectionResetError": r"conexion (reiniciada|restablecida|cortada|cerrada)",
    "ConnectionError": r"(error|fallo|problema|falta) de conexion|conexion (fallida|perdida|interrumpida|caida)|sin conexion"
                       r"|(se )?(perdio|cayo|corto|fallo|interrumpio) la conexion"
                       r"|no (se )?(pudo|puede|podia|logro|consiguio|fue posible|es posible) (conectar|establecer (la|una) conexion)"
                       r"|(imposible|incapaz de) conectar",
    "TimeoutError": r"tiempo de espera|(se )?agot\w* (el )?tiempo|tiempo agotado|time[ -]?out",
    "FileNotFoundError": r"(archivo|fichero) no (encontrado|existe)|no (se encontro|existe) el (archivo|fichero)",
    "PermissionError": r"permiso|no (esta |estaba )?autorizad|sin autorizacion|acceso denegado|prohibid",
    "KeyError": r"\bclave\b",
    "ZeroDivisionError": r"division (por|entre) cero",
    "ValueError": r"(error|problema) de valor|valor (no valido|invalido|incorrecto)",
    "TypeError": r"(error|problema) de tipo|tipo (no valido|invalido|incorrecto)",
}


# An error named negated is not named: "not a connection error", "it did not time out", "the connection was fine",
# "no fue un error de conexión", "no se agotó el tiempo". Not "could not connect", "no connection", "not authorized",
# "no such file", which name the error.
_ERROR_NOUN = (r"[a-z]+error\b|[a-z]+exception\b|(?:connection|network|permission|timeout|time-out|type|value|key|file|access)"
               r" (?:errors?|failures?|problems?|issues?|loss|drops?|exceptions?)\b|time[ -]?outs?\b|timed? out\b|(?:error|fallo|problema)e?s?"
               r" de (?:conexion|red|tiempo|permisos?|tipo|valor|acceso|clave)\b|time-?outs?\b|tiempo de espera agotado"
               r"|(?:se )?agot\w* el tiempo( de espera)?|(?:se )?(?:perdio|cayo|corto|interrumpio|fallo) la conexion")
# A negating subject denies the error its clause gives, through the verb: "none of the calls timed out", "no request
# ever hit a timeout", "ninguna llamada agotó el tiempo", "nada provocó un error de conexión".
_CALL_NOUNS = (r"call|calls|request|requests|attempt|attempts|retry|retries|try|tries|connection|connections|source|sources"
               r"|server|servers|tool|tools|llamadas?|peticion|peticiones|solicitud|solicitudes|intentos?|conexion|conexiones"
               r"|fuentes?|servidor|servidores|herramientas?")
_HAD = (r"ran|run|runs|running|into|hit|hits|had|raised|raise|raises|threw|throw|encountered|encounter|experienced|suffered|saw"
        r"|produced|returned|reported|tuvo|tuvieron|tiene|sufrio|sufrieron|lanzo|lanzaron|dio|dieron|provoco|provocaron|causo"
        r"|devolvio|encontro|agoto")
_NOT_KIND = [
    _governed(_subject(_CALL_NOUNS), _SMALL + r"|an?|un|una|any|the|cause|caused|" + _HAD, rf"(?:{_ERROR_NOUN})"),
    _governed(rf"(?:{_NOT}|{_NO})", _SMALL + r"|an?|un|una|es|era|fue|hubo|hay|any|the|get|got|see|saw|cause|caused|due to|from|by"
              r"|because of|por|de|del", rf"(?:{_ERROR_NOUN})"),
    r"\bconnection( to the \w+| with the \w+| to \w+)? (was|is|stayed|remained|seemed|looked|has been)( always)? (fine|ok|okay|good|stable"
    r"|up|working|healthy|not the problem|not lost|not dropped|not reset|not refused|never lost|never dropped)\b",
    r"\bconnection( to the \w+| with the \w+)? (did not|didn't|never) (fail|drop|break|reset|time out)\b",
    r"\bconexion (fue|es|esta|estaba|funciona|funcionaba|funciono|estuvo)( siempre)? (bien|correcta|estable|activa)\b",
    r"\b(la )?conexion no (se )?(perdio|cayo|fallo|corto|interrumpio|rechazo|reinicio)\b",
    r"\bpermission (was |is |has been )?(granted|given|fine|ok|okay)\b|\b(has|had|have|with|tiene|tenia|con) (the )?(permission|permiso)s?\b",
]


# The count as an ordinal ("it failed on the third and last attempt", "falló al tercer intento", "por tercera vez").
_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth",
             9: "ninth", 10: "tenth"}
_ORDINALS_ES = {1: "primer[oa]?", 2: "segund[oa]", 3: "tercer[oa]?", 4: "cuart[oa]", 5: "quint[oa]", 6: "sext[oa]",
                7: "s[eé]?ptim[oa]", 8: "octav[oa]", 9: "noven[oa]", 10: "d[eé]cim[oa]"}


def says_number(message: object, n: int) -> bool:
    """The message gives the number ``n`` in digits or (up to ten) in words, cardinal or ordinal.

    The opposite of a number is another number ("after 13 attempts" is not 3); a number in a negative sentence is
    still given.

    >>> says_number("Gave up after three attempts.", 3), says_number("Gave up after 13 attempts.", 3)
    (True, False)
    >>> says_number("Me rendí tras tres intentos.", 3)
    True
    >>> says_number("It failed again on the third and last attempt.", 3), says_number("Falló al tercer intento.", 3)
    (True, True)
    """
    word = "|".join(w for w in (_NUMBER_WORDS.get(n), _NUMBER_WORDS_ES.get(n)) if w)
    ordinal = "|".join(w for w in (_ORDINALS.get(n), _ORDINALS_ES.get(n)) if w)
    pattern = rf"(?<![\d.])(?<!\d,){n}(?!\d|[.,]\d)" + (rf"|\b({word})\b" if word else "")
    if ordinal:  # an ordinal counts when it ranks an attempt ("1 segundo" is no second attempt)
        pattern += rf"|\b({ordinal})\b(?: [\w']+){{0,3}}? (attempts?|tries|try|calls?|times?|intentos?|vez|llamadas?|tentativas?)\b"
    return re.search(pattern, _text(message)) is not None


# Numbers written in words, for every matcher that reads numbers ("minus one hundred", "one thousand", "menos cien", "mil").
_UNITS_EN = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
             "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS_EN = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_UNITS_ES = ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce",
             "trece", "catorce", "quince", "dieciseis", "diecisiete", "dieciocho", "diecinueve", "veinte"]
_TENS_ES = ["treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]
_HUNDREDS_ES = ["ciento", "doscient", "trescient", "cuatrocient", "quinient", "seiscient", "setecient", "ochocient",
                "novecient"]
_WORD_VALUES = {
    **{w: i for i, w in enumerate(_UNITS_EN)}, **{w: 20 + 10 * i for i, w in enumerate(_TENS_EN)},
    **{w: i for i, w in enumerate(_UNITS_ES)}, **{w: 30 + 10 * i for i, w in enumerate(_TENS_ES)},
    "un": 1, "una": 1, "veintiun": 21, "veintiuno": 21, "veintiuna": 21,
    **{"veinti" + w: 20 + i for i, w in enumerate(_UNITS_ES[2:10], start=2)},
    "cien": 100, **{w + e: 100 * (i + 1) for i, w in enumerate(_HUNDREDS_ES) for e in (["", "s"] if i == 0 else ["os", "as"])},
}
_WORD_SCALES = {"hundred": 100, "thousand": 1000, "mil": 1000, "million": 10**6, "millon": 10**6, "millones": 10**6}
_NUMBER_WORD = r"\b(?:{})\b".format("|".join(sorted([*_WORD_VALUES, *_WORD_SCALES], key=len, reverse=True)))


def _words_to_digits(text: str) -> str:
    """``text`` with numbers written in words turned into digits ("one thousand" -> "1000", "menos cien" -> "-100")."""
    text = re.sub(r"\ba (hundred|thousand|million)\b", r"one \1", text)
    # "one hundred and twenty" is one number, "one hundred and one thousand" two
    text = re.sub(r"\bhundred and (?=(?:{})\b(?:[ -](?:{})\b)?(?! (?:hundred|thousand|million)\b))".format(
        "|".join(_TENS_EN + _UNITS_EN[1:]), "|".join(_UNITS_EN[1:10])), "hundred ", text)
    # "twenty-five", "treinta y dos": the only joiners kept ("between one hundred and one thousand" is two numbers)
    text = re.sub(r"\b({})-({})\b".format("|".join(_TENS_EN), "|".join(_UNITS_EN[1:10])), r"\1 \2", text)
    text = re.sub(r"\b({}) y (un|una|{})\b".format("|".join(_TENS_ES), "|".join(_UNITS_ES[1:10])), r"\1 \2", text)

    def value(run: re.Match) -> str:
        total = current = 0
        for word in run.group().split():
            if word == "hundred":
                current = (current or 1) * 100
            elif word in _WORD_SCALES:
                total, current = total + (current or 1) * _WORD_SCALES[word], 0
            else:
                current += _WORD_VALUES[word]
        return str(total + current)

    return re.sub(rf"{_NUMBER_WORD}(?:\s+{_NUMBER_WORD})*", value, text)


def _numbers(text: str, signed: bool = False) -> set[float]:
    """Every number in ``text`` (lower case, no accents), in digits or in words, read the English and the Spanish way.

    "1,000", "1 000" (also with a thin or no-break space), "1.000" and "1.000,0" are one thousand; "0,75" is three
    quarters; "one thousand" and "mil" are 1000; "minus one hundred", "menos cien" and "−100" are -100 if ``signed``.
    """
    text = _words_to_digits(re.sub(r"[−–—]", "-", text))
    text = re.sub(r"\b(minus|menos|negative|negativo)\s+(?=\d)", "-", text)
    text = re.sub(r"(?<=\d)[\u2009\u202f\u00a0](?=\d)", " ", text)
    text = re.sub(r"\b(\d{1,3})((?: \d{3})+)\b", lambda m: m.group().replace(" ", ""), text)
    # Spanish thousands and decimals together ("1.000,0" is 1000.0)
    text = re.sub(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+),(\d+)(?![\d.,]\d|\d)",
                  lambda m: m.group(1).replace(".", "") + "." + m.group(2), text)
    number = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:e[+-]?\d+)?"
    pattern = (r"(-\s?)?" if signed else "") + number
    found = {float(re.sub(r"[\s,]", "", m.group())) for m in re.finditer(pattern, text)}
    # A full stop or comma right after the number ends the sentence or the clause ("el máximo es 1.000.").
    spanish = re.sub(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?!\d|[.,]\d)", lambda m: m.group().replace(".", ""), text)
    spanish = re.sub(r"(?<![\d.,])(\d+),(\d+)(?!\d|[.,]\d)", r"\1.\2", spanish)
    if spanish != text:
        found |= {float(re.sub(r"[\s,]", "", m.group())) for m in re.finditer(pattern, spanish)}
    return found


def _clock_durations(text: str) -> set[float]:
    """Durations written as a clock, ``str(timedelta)`` style: "0:02:00" is 120 s (h:mm:ss, seconds may have decimals)."""
    found = set()
    for m in re.finditer(r"(?<![\d:.])(?:(\d+) days?, )?(\d+):([0-5]\d):([0-5]\d(?:\.\d+)?)(?![\d:])", text):
        days, hours, minutes, secs = m.groups()
        found.add(int(days or 0) * 86400 + int(hours) * 3600 + int(minutes) * 60 + float(secs))
    return found


# A wait said negated is no time to retry: "don't wait 2 minutes", "no need to wait 120 s", "retry now, not in 2
# minutes", "no esperes 2 minutos", "no hace falta esperar", "reintenta ya, no dentro de 2 minutos". Not "do not retry
# before 2 minutes", "not until", "no antes de 2 minutos", "no esperes menos de 2 minutos", which say when; nor a
# report of what the function did ("did not wait the requested 120 s").
_DO_NOT_WAIT = [
    r"\b(do not|don't|dont|never|no need to|needn't|need not|there is no need to|you don't have to|you do not have to)"
    r"( \w+)? (wait|waiting|sleep|pause|hold off|delay)\b(?! (less|under|fewer|shorter|at least)\b)[^.;:!?\n]*",
    r"\b(not|no) (in|after|within|dentro de|en|tras|despues de)\b(?! (less|under|fewer|menos)\b)[^.;:!?\n]*",
    r"\b(no|nunca)( (hace|hara|es|sera) (falta|necesario))? (esperes|esperar|espereis|espere|aguardes|aguardar)\b"
    r"(?! (menos|al menos|por lo menos)\b)[^.;:!?\n]*",
]


def says_when_to_retry(message: object, seconds: float) -> bool:
    """The message says when to try again: ``seconds`` as seconds, minutes, hours or milliseconds.

    "try again in 120 s", "retry after 120.0 seconds", "wait 2 minutes", "wait two minutes",
    "try again in 0:02:00" (a ``timedelta``) and "Retry-After: 120000 ms" all say it for 120 s;
    "try again later" alone does not say when. Spanish alike: "inténtalo de nuevo en 2 minutos",
    "reintenta en 120 segundos", "espera dos minutos", "espera 45 s"; "inténtalo más tarde" alone
    does not say when. A wait said negated is no time to retry: "don't wait 2 minutes, retry now", "no need to
    wait 120 s", "not in 2 minutes", "no esperes 2 minutos"; "do not retry before 2 minutes" does say when.

    >>> says_when_to_retry("Busy: wait 45 seconds before the next call.", 45)
    True
    >>> says_when_to_retry("Busy: try again in two minutes.", 120), says_when_to_retry("Try again in 0:02:00.", 120)
    (True, True)
    >>> says_when_to_retry("Busy: try again later.", 45), says_when_to_retry("Ocupado: inténtalo más tarde.", 45)
    (False, False)
    >>> says_when_to_retry("Don't wait 45 s: retry now.", 45), says_when_to_retry("Do not retry before 45 s.", 45)
    (False, True)
    """
    text = re.sub(r"(\d)([a-z])", r"\1 \2", _without(_text(message), _DO_NOT_WAIT))  # "2min" -> "2 min"
    text = re.sub(r"\ban? (?=(?:hour|minute|second)\b)", "1 ", text)  # "in an hour" (Spanish "una hora" reads as words)
    if any(math.isclose(d, seconds, rel_tol=1e-3, abs_tol=1e-6) for d in _clock_durations(text)):
        return True
    numbers = _numbers(text)

    def close(a: float, b: float) -> bool:
        return math.isclose(a, b, rel_tol=1e-3, abs_tol=1e-6)

    if any(close(n, seconds) for n in numbers):
        return True
    if re.search(r"\bmin", text) and any(close(n, seconds / 60) for n in numbers):
        return True
    if re.search(r"\bhours?\b|\bhoras?\b|\bh\b", text) and any(close(n, seconds / 3600) for n in numbers):
        return True
    if re.search(r"\bms\b|millisecond|milisegundo", text) and any(close(n, seconds * 1000) for n in numbers):
        return True
    return False


_FAILED_ES = (r"(fall|no (esta|estan|estaba|estaban) disponible|no disponible|caid|caer|error|inaccesible|inalcanzable|"
              r"no (pud|se pud|pued|respond|contest|funcion|dio|dieron)|sin respuesta|agot|rechaz|me rendi|se rindi|"
              r"sin exito|fracas|excepcion|lanz)")
# English words for a source that did not answer ("failed", "raised an exception", "timed out"...).
_FAILED = (r"(fail|unavailable|down\b|error|unreachable|could ?n[o']t|can't|can ?not|did ?n[o']t|no answer|gave up|broke|"
           r"timed out|refused|raised|threw|thrown|exception|unsuccessful|without success|exhausted)")
# "none of them", "none worked", "nobody answered": no source gave an answer.
_NONE_ANSWERED = (r"\bnone (of\b|(of them |at all )?(worked|answered|responded|replied|succeeded|helped|returned|gave|came back|"
                  r"could|did|was|were|is|are)\b)")
# "No source failed", "none of the sources failed", "answered without error", "ninguna falló": the opposite of
# every source failing. Taken out of a message before the patterns below read it ("None of the sources failed"
# must not pass as "none of the sources ...").
_GAP = r"(?: (?!(?:and|but|so|because|since|as|after|before|all|every|each|both|answered|responded|replied|worked)\b)[\w'()-]+){0,3}?"
_NONE_FAILED = [
    rf"\b(no|none|nothing|nobody|no one|neither|not one|not a single|zero|0)\b( of)?{_GAP} (failed|fail|fails|failing|failures?"
    r"|errored|errors?|raised|threw|thrown|exceptions?|went wrong|broke|crashed|was down|were down|timed out|(was|were|is|are)"
    r" (down|unavailable|unreachable|offline)|had (an? |any )?(errors?|problems?|issues?|failures?|trouble)"
    # "none of the providers reported an error", "no source ran into problems"
    r"|(?!(?:answered|responded|replied|worked|succeeded)\b)[\w-]+( into| of)? (an? |any |one )?(errors?|exceptions?|problems?"
    r"|failures?|issues?))\b",
    r"\bwithout (an |any |a single )?(errors?|failures?|exceptions?|problems?|issues?|fail\w*)\b",
    r"\b(error|failure|exception)[- ]free\b",
    # "it did not fail", "we didn't fail": a failure said negated
    _governed(_NOT, _SMALL, r"(?:fail|fails|failed|error|errored|break|broke|crash|crashed|time out|timed out|go down|went down)\b"),
    # "Not all sources failed", "not every source failed": some answered
    rf"\bnot (all|every|each|both|everything)\b{_reach(60, rest=True)}",
    # "All sources but mirror_api failed", "every source failed except local_cache", "all the others failed": one answered
    r"\b(all|every|each|both|everything)\b( of)?( the)?( (?!(?:failed|fail|errored|raised|crashed|timed|were|are|was|is|did|have|had"
    r"|went)\b)\w+){0,2} (but|except|save|besides|apart from|other than)\b[^.;\n]*",
    r"\b(all|every|each|both|everything)\b[^.;\n]*?\b(except|excepting|save for|apart from|other than|with the exception of)\b"
    r"(?! (to|that|when|if|tell|telling|say|saying|do|doing|report|reporting)\b)[^.;\n]*",
    r"\b(all|every|each|both)( of)?( the)? (other|others|rest|remaining)\b[^.;\n]*",
]
_GAP_ES = r"(?: (?!(?:y|pero|porque|como|tras|antes|todas?|todos?|cada|respondi\w*|contest\w*|funcion\w*)\b)[\w'()-]+){0,3}?"
_NONE_FAILED_ES = [
    rf"\b(ningun[oa]?|nada|nadie|ni una|ni uno|cero|0)\b( de)?{_GAP_ES} (fallo|fallaron|ha fallado|han fallado|dio error|dieron error"
    r"|lanzo|lanzaron|tuvo errores|tuvo error|tuvieron errores|se cayo|se cayeron|(estaba|estuvo|esta|estaban|estuvieron|estan)"
    r" (caid[oa]s?|inaccesibles?|fuera de servicio)"
    # "ninguna dio problemas", "ninguno de los proveedores informó de un error"
    r"|(?!(?:respondi|contest|funcion)\w*\b)\w+( de| en)? (algun |ningun |un |una )?(problemas?|errore?s?|fallos?|excepcion\w*))\b",
    rf"\bno (fallo|fallaron|ha fallado|han fallado|dio error|dieron error|hubo (errores|fallos)|hay (errores|fallos))\b(?:{_GAP_ES} ningun[oa]?\b)?",
    r"\bsin (ningun |ni un )?(errore?s?|fallos?|problemas?|excepcion\w*)\b",
    # "No todas las fuentes fallaron", "no fallaron todas": some answered
    rf"\bno (todas|todos|cada)\b{_reach(60, rest=True)}", r"\bno (fallaron|han fallado|fallo|ha fallado) (todas|todos|ambas|ambos)\b",
    # "Fallaron todas menos mirror", "todas salvo una fallaron", "las demás fallaron", "al menos una respondió"
    r"\b(todas?|todos?|cada|ambas|ambos)\b[^.;\n]*?\b((?<!al )(?<!lo )menos(?! mal)|excepto|salvo|a excepcion de|aparte de"
    r"|exceptuando|quitando)\b(?! (que|decir|avisar|contar)\b)[^.;\n]*",
    r"\b((?<!al )(?<!lo )menos(?! mal)|excepto|salvo|a excepcion de|exceptuando)\b[^.;\n]*?\b(todas?|todos?)\b[^.;\n]*",
    r"\b(todas|todos) (las|los) (demas|otras|otros|restantes)\b[^.;\n]*", r"\b(las|los) (demas|restantes)\b[^.;\n]*",
    r"\bel resto\b[^.;\n]*",
]
_COUNT = r"(\d+|two|three|four|five|six|seven|eight|nine|ten|all)"
_COUNT_ES = r"(\d+|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|todas|todos)"
# Said of the sources, not of an empty result ("no results", "no data"), which an answer that is "" may rightly say.
_ALL_FAILED_SOURCES = [
    rf"\b(all|every|each|both|everything)\b{_SAME_SENTENCE}{_FAILED}",
    # "Tried a, b and c and failed on all of them"; not "it did not fail: all sources answered"
    rf"\b(fail\w*|errored|raised|threw|crashed|timed out|down|unreachable|unavailable){_SAME_SENTENCE}\b(all|every|each|both)\b"
    r"(?!( of them| of the \w+| the \w+| \w+)? (answered|responded|replied|worked|succeeded|returned|good|fine|well|ok|okay)\b)",
    r"\bnone (of (the |these |those |your |our |my )?(\d+ |two |three |four |five )?(them|sources|providers|backends|fallbacks|options"
    r"|alternatives|apis|services|endpoints)\b|(of them |at all )?(worked|answered|responded|replied|succeeded|helped|returned|gave|"
    r"came back|could|did|was|were|is|are)\b)",
    r"\bnobody\b",
    r"\bno (single )?(source|sources|one|provider|providers|backend|backends|fallback)\b",
    r"\bnot (a single|one) (source|of)",
    r"\bnothing (answered|worked|came back|succeeded)\b",
    rf"(\bnot\b|n't\b|\bnever\b|\bunable\b|\bfail)\w*{_SAME_SENTENCE}\bany (of (the|them|these|those)|source|sources|provider|providers"
    r"|backend|backends|fallback|fallbacks|option|options|api|apis|service|services)\b",
    r"\b(fallback chain|chain|fallbacks|sources|options|alternatives)( is| are| was| were| has been| have been| got)?( all)? exhausted\b",
    r"\bran out of (sources|fallbacks|options|alternatives)\b",
    # "The whole fallback chain failed", "the fallback chain failed"
    rf"\b(whole|entire|complete|full) (fallback )?(chain|list|set)( of (sources|fallbacks))?\b{_SAME_SENTENCE}{_FAILED}",
    r"\b(the )?fallback chain (failed|has failed|broke|errored)",
    # "0 of 3 sources answered", "zero out of 3 answered"
    rf"\b(0|zero|none)( out)? of (the )?{_COUNT}( \w+)? (answered|responded|replied|worked|succeeded|gave an answer|returned an answer)",
    # "Neither a nor b answered"
    rf"\bneither\b{_SAME_SENTENCE}\bnor\b{_SAME_SENTENCE}\b(answered|responded|replied|worked|succeeded|gave|returned|came back)\b",
]
_ALL_FAILED = _ALL_FAILED_SOURCES + [
    _NONE_ANSWERED,
    r"\bno (answer|result|data)\b",
    rf"(\bnot\b|n't\b|\bnever\b|\bunable\b|\bfail)\w*{_SAME_SENTENCE}\bany\b",
    # "Could not get an answer from a, b or c"
    r"\b(could ?n[o']t|can't|can ?not|unable to|failed to|did ?n[o']t) (get|obtain|receive|fetch|retrieve) (an? |any )?"
    r"(answer|result|response|reply)\b",
]
_ALL_FAILED_ES_SOURCES = [
    # "todas las fuentes fallaron", "fallaron todas", "ninguna fuente respondió", "se probaron todas sin éxito"...
    rf"\b(todas?|todos?|cada|ambas|ambos)\b{_SAME_SENTENCE}{_FAILED_ES}",
    rf"{_FAILED_ES}{_SAME_SENTENCE}\b(todas?|todos?|cada una|cada uno|ambas|ambos)\b",
    # Not a list that is empty ("Fuentes fallidas: ninguna."), which is a success, nor "ningún resultado" (an empty answer).
    r"(?<!: )\bningun[oa]?\b(?! (aviso|problema|error|fallo|resultado|dato|registro|coincidencia|contenido|texto)s?\b)",
    r": ningun[oa]?\b(?=\s*\w)(?! (resultado|dato|registro|coincidencia|contenido|texto)s?\b)",
    rf"{_FAILED_ES}{_SAME_SENTENCE}\b(las|los) (\d+|dos|tres|cuatro|cinco|seis) (?!primer)",
    rf"\b(las|los) (\d+|dos|tres|cuatro|cinco|seis) (?!primer){_SAME_SENTENCE}{_FAILED_ES}",
    r"\bnada (respondio|funciono|contesto)\b",
    r"\bnadie (respondio|contesto)\b",
    # "0 de 3 fuentes respondieron", "cero de las tres respondieron"
    rf"\b(0|cero|ninguna?|ninguno) de (las |los )?{_COUNT_ES}( \w+)? (respondi|contest|funcion|dio|dieron|devolvi)\w*",
    # "Ni a ni b ni c respondieron"
    rf"\bni\b{_SAME_SENTENCE}\bni\b{_SAME_SENTENCE}\b(respondi|contest|funcion|dio respuesta|dieron respuesta|devolvi)\w*",
]
_ALL_FAILED_ES = _ALL_FAILED_ES_SOURCES + [
    r"\bno (hay|hubo|se obtuvo|obtuve|obtuvimos|tengo|tenemos|se pudo obtener|pude obtener) (ninguna |una )?(respuesta|resultado|dato)",
    r"\bsin (respuesta|resultados?|datos)\b",
]


def says_all_failed(message: object) -> bool:
    """The message says that every source failed (no source gave an answer).

    "None of the sources failed", "all sources answered without error", "not all sources failed", "all sources
    but mirror_api failed", "all the others failed" and their Spanish ("no todas fallaron", "todas menos una")
    say the opposite.

    >>> [says_all_failed(m) for m in ("All sources failed.", "No source could answer.", "mirror_api failed.")]
    [True, True, False]
    >>> [says_all_failed(m) for m in ("Fallaron todas las fuentes.", "Ninguna fuente respondió.", "Falló mirror_api.")]
    [True, True, False]
    >>> says_all_failed("None of the sources failed."), says_all_failed("All sources failed except mirror_api.")
    (False, False)
    >>> says_all_failed("Not a single source answered.")
    True
    """
    return _any(_without(_text(message), _NONE_FAILED + _NONE_FAILED_ES), _ALL_FAILED + _ALL_FAILED_ES)


# What a success's message may rightly say that the patterns above would read as "all failed": "no fallback was
# needed", "did not need any other source", "no se consultó ninguna otra fuente".
_NOT_ABOUT_ALL = [
    r"\bno (other|further|more|second|backup|fallback|fallbacks|alternative|alternatives)\b( \w+){0,3}",
    r"\b(need|needed|needing|use|used|using|try|tried|trying|ask|asked|call|called|consult|consulted|touch|touched)( to)?"
    r"( \w+){0,2} any\b( \w+){0,2}",
    r"\bningun[oa]? (otr[oa]s?|mas|alternativa|respaldo|reserva)\b( \w+){0,2}",
]


def says_no_source_answered(message: object) -> bool:
    """Stricter than :func:`says_all_failed`: the message says, of the sources, that none of them answered.

    For the message of a success, which must not say so. "No results", "no data", "sin resultados",
    "ningún resultado" speak of an empty answer (which is an answer), not of the sources, and do not count;
    nor do the opposites :func:`says_all_failed` rejects ("not all sources failed", "all but one failed").

    >>> [says_no_source_answered(m) for m in ("primary returned nothing: no source could answer.", "Todas fallaron.")]
    [True, True]
    >>> [says_no_source_answered(m) for m in ("Answer from primary: empty (no results, no data).", "Respuesta de primary: sin resultados.")]
    [False, False]
    """
    text = _without(_text(message), _NONE_FAILED + _NONE_FAILED_ES + _NOT_ABOUT_ALL)
    return _any(text, _ALL_FAILED_SOURCES + _ALL_FAILED_ES_SOURCES)


# "may be old", "possibly outdated", "might not be current", "cached": the answer may no longer be true.
_OLD = r"(old|older|obsolete|expired|dated|outdated|stale|out[ -]of[ -]date|earlier|previous|antiquated|superseded)"
# Words about the answer's age: what a warning says.
_STALE_WORDS = [
    r"stale", r"outdated", r"out[ -]of[ -]date",
    rf"\b(may|might|could|can) (well )?(be|have become|get|grow) (an? |the |somewhat |a bit |slightly |quite )?{_OLD}",
    rf"\b(possibly|probably|perhaps|maybe|likely|potentially) (an? |the |somewhat |a bit |slightly )?{_OLD}",
    r"\bold (data|answer|copy|result|information|info|value|version|snapshot|entry|entries)\b",
    # "several hours old", "a few days old"
    r"\b(seconds?|minutes?|hours?|days?|weeks?|months?|years?) old\b",
    r"not (be )?(up[ -]to[ -]date|current|fresh|live|the latest|the newest|the most recent|recent)",
    # "may have changed", "may no longer match the live data"
    r"(may|might|could|can) (have changed|no longer \w+)",
    # "may lag behind the live source"
    r"\b(may|might|could|can|possibly|probably|perhaps|maybe|likely|potentially)( well)? (be )?lag(ging)?( behind)?\b",
    r"\bnot (reflect|include|show|contain|have)( the)? (recent|latest|current|newest|last)",
    r"\bno longer (be )?(current|up[ -]to[ -]date|fresh|valid|accurate|live|true|correct)",
]
# Words that say the answer came from a cache, which is a warning of its own ("served from the cache").
_CACHE_WORDS = [
    r"\bcached\b",
    # Said of where the answer came from, not of a cache the chain fell back from ("falling back from cache"):
    # "served from the cache", "this comes from a cache", "read from cache".
    r"\b(served|read|fetched|retrieved|loaded|pulled|taken)( straight| directly)? (from|out of) (the |a |its |our |your )?"
    r"(local )?cache\b",
    r"\b(comes?|came|coming|is|was|are|were) (straight |directly )?(from|out of) (the|a|its|our|your) (local )?cache\b",
]
_STALE_WORDS_ES = [
    # "puede estar desactualizada", "anticuada", "desfasada", "datos antiguos", "puede que no sea la más reciente"...
    r"desactualizad", r"obsolet", r"caducad", r"anticuad", r"desfasad",
    r"\b(puede|pueden|podria|podrian|quiza|quizas|tal vez)( que)? (estar|ser|este|sea|esten|sean) "
    r"(viej|antigu|desactualiz|obsolet|caducad|anticuad|desfasad)",
    r"\b(datos|dato|respuesta|copia|resultado|informacion|valor|version)e?s? (viej|antigu|anterior)",
    r"\b(quiza|quizas|tal vez|posiblemente|probablemente|seguramente) (ya )?(no )?(sea |este |esten |sean )?"
    r"(viej|antigu|desactualiz|obsolet|caducad|anticuad|desfasad|actual|al dia|reciente)",
    r"\bno (este|sea|esten|sean|es|esta|estar|ser) (actual|reciente|al dia|vigente|lo (mas|ultimo)|(la|el|lo) (mas )?(actual|reciente|nuev|ultim))",
    r"\b(puede|pueden|podria|podrian|pudo|pudieron)( que)? (haber cambiado|haya cambiado|hayan cambiado|ya no (sea|este|sean|esten))",
    r"\bno (refleje|refleja|reflejara|recoja|recoge|incluya|incluye) (los |las |lo )?(cambios |datos )?(mas )?(reciente|ultim|actual|nuev)",
    r"\bya no (es|esta|sea|este|son|estan|sean|esten) (actual|al dia|vigente|valid|correct|ciert)",
]
_CACHE_WORDS_ES = [
    r"\bcachead[oa]s?\b", r"\ben (la |una |su )?cache\b",
    # Where the answer came from ("servida desde la caché", "es un dato de la caché"), not a cache that failed
    # before ("de la caché (falló)", "tras pasar de la caché: falló").
    r"\b(vien\w*|ven\w*|proced\w*|sal\w*|servid[oa]s?|sacad[oa]s?|leid[oa]s?|obtenid[oa]s?|tomad[oa]s?|recuperad[oa]s?"
    r"|guardad[oa]s?|es|son|era|eran|dato|datos|copia|copias|valor|valores|informacion)"
    r" (de|desde) (la |una |su )?cache\b(?!\s*(\(|:|fallo|ha fallado|no respond|tambien fallo))",
]
# Said negated, the same words mean the opposite: "it is not stale", "live data, not cached", "no están
# desactualizados", "no guardados en caché". Taken out of a message before the patterns above read it.
_GAP_STALE = (r"(?: (?!(?:and|but|so|or|may|might|could|can|possibly|probably|perhaps|maybe|likely|because|since|though|although"
              r"|yet)\b)[\w'-]+){0,3}?")
_GAP_STALE_ES = r"(?: (?!(?:y|pero|asi|porque|puede|pueden|podria|podrian|quiza|quizas|tal|aunque)\b)[\w'-]+){0,3}?"
# A negating subject with its noun phrase: "none of this data is stale", "ninguna parte está desactualizada".
_DATA_NOUNS = (r"data|answer|answers|result|results|value|values|figure|figures|information|info|number|numbers|dato|datos"
               r"|respuestas?|resultados?|valor|valores|cifras?|informacion|numeros?")
_NOT_STALE = [
    rf"(?<!\bor may )(?<!\bor might )(\b(not|never|no|none|nothing|without|neither|nor|cannot|cant|can ?not)\b|n't\b"
    rf"|{_subject(_DATA_NOUNS)}){_GAP_STALE} "
    r"(stale\w*|outdated\w*|out[ -]of[ -]date\w*|old|older|obsolete|expired|dated|cached|from (the |a |its |our |your )?(local )?cache)\b",
    rf"(\b(no|nunca|jamas|ni|sin)\b|{_subject(_DATA_NOUNS)}){_GAP_STALE_ES} (desactualizad|obsolet|caducad|anticuad|desfasad|viej|antigu|cachead"
    r"|(en|de|desde) (la |una |su )?cache\b)\w*",
    # "no puede estar desactualizada": it cannot be old
    r"\b(no|nunca) (puede|pueden|podria|podrian) (estar|ser) (desactualizad|obsolet|caducad|anticuad|desfasad|viej|antigu|cachead)\w*",
]


def says_may_be_stale(message: object) -> bool:
    """The message warns that the answer may be stale (old, cached, out of date).

    Naming a cache is not a warning: "after falling back from cache (failed)" says where the chain went,
    not that the answer is old; "served from the cache" does say it. Said negated ("not stale", "not cached",
    "it cannot be outdated", "no están desactualizados", "no puede estar desactualizada"), the words mean the
    opposite and do not count.

    >>> [says_may_be_stale(m) for m in ("This may be outdated.", "Served from cache, may be old.", "Answer from api.")]
    [True, True, False]
    >>> says_may_be_stale("Answer from live_api, after falling back from cache (failed).")
    False
    >>> [says_may_be_stale(m) for m in ("Puede estar desactualizada.", "Copia de la caché.", "Respuesta de api.")]
    [True, True, False]
    >>> says_may_be_stale("Answer from primary (live data, not cached).")
    False
    """
    return _any(_without(_text(message), _NOT_STALE), _STALE_WORDS + _CACHE_WORDS + _STALE_WORDS_ES + _CACHE_WORDS_ES)


def says_data_may_be_old(message: object) -> bool:
    """Stricter than :func:`says_may_be_stale`: the message warns in words about age (stale, outdated, may be old,
    may have changed, desactualizada...), not by naming a cache alone ("cached", "from the cache").

    For the message of an answer from a live source, which must carry no stale warning but may well call a
    cache that failed before it "the cached copy".

    >>> says_data_may_be_old("Answer from live_api; cache (the cached copy) failed first.")
    False
    >>> [says_data_may_be_old(m) for m in ("This may be outdated.", "Puede estar desactualizada.", "It is not stale.")]
    [True, True, False]
    """
    return _any(_without(_text(message), _NOT_STALE), _STALE_WORDS + _STALE_WORDS_ES)


_INTERNAL = [
    r"internal", r"crash", r"\bbug\b", r"\bbroke", r"server[- ]side", r"malfunction",
    r"\b(in|inside|within) (the|this|that) tool\b(?! call)", r"\btool itself\b",
    r"\b(on|at) (its|our|the tool's|the service's|the server's|the provider's|their) (own )?(side|end)\b",
    r"\b(its|the tool's) own (fault|error|problem|failure|bug)\b",
    # "raised an unexpected error", "an unexpected RuntimeError"
    r"\bunexpected(ly)? (internal )?\w*(error|exception|failure|fault|crash|problem)\b",
    # "web_search itself failed", "failed on its own", "a problem of its own", "failed on the server", "a system error"
    r"\bitself (failed|broke|crashed|errored|raised|threw|blew up|went wrong|had (an? )?(error|problem|failure|fault))\b",
    r"\b(fail\w*|broke|crash\w*|error\w*) (all )?(on|by) (its|their) own\b",
    r"\b(problem|error|fault|failure|bug|issue)s? of (its|their) own\b",
    r"\b(fail\w*|broke|crash\w*|error\w*|went wrong) (on|at|in) the (server|service|backend|provider|remote end)\b",
    r"\bsystem (error|failure|fault|crash|problem)s?\b",
]
_INTERNAL_ES = [
    # "error interno", "la herramienta se colgó", "fallo dentro de la herramienta"...
    r"\bintern[oa]s?\b", r"\binternamente\b", r"\bfallo propio\b",
    r"\bse (ha )?(rompio|roto|colgo|colgado|cayo|caido|estrello|estrellado|bloqueo|bloqueado)\b", r"\bpor dentro\b",
    r"\bdel (lado del )?servidor\b",
    r"\b(en|dentro de) (la|esta|esa) (herramienta|tool)\b", r"\b(la )?(propia herramienta|herramienta misma|herramienta en si)\b",
    r"\b(de|por|en) (su|nuestro|nuestra) (propio |propia )?(lado|parte)\b",
    r"\bdel lado de (la herramienta|el servicio|la api)\b", r"\bdel lado del servicio\b",
    r"\b(error|fallo|excepcion|problema)e?s? inesperad[oa]s?\b",
    # "falló por sí misma", "un problema propio", "falló en el servidor", "un error del sistema"
    r"\bpor si (mism[oa]s?|sol[oa]s?)\b", r"\b(error|fallo|problema|excepcion)e?s? propi[oa]s?\b",
    r"\ben el (servidor|servicio|backend|proveedor)\b", r"\b(error|fallo|problema)e?s? (del|de) sistema\b",
]


# Said negated, the same words say the opposite: "this is not an internal error", "the tool did not crash", "no bug
# here", "no es un error interno", "la herramienta no se colgó". Only small words between: "your arguments did not
# cause this internal error" still says it is internal. A negation of a failure denies where it happened too, and a
# negating subject denies its whole clause: "it did not fail internally", "nothing went wrong inside the tool", "no
# part of the tool crashed", "nada falló internamente", "ninguno de los servidores se cayó". Not "nothing you did
# caused it" (the negation governs "you did", not the failure) nor "no data came back because the service crashed".
_FAILED_VERB = (r"fail\w*|break|breaks|broke|broken|errored|erroring|crash\w*|malfunction\w*|blew up|(?:go|goes|went|gone|going)"
                r" (?:\w+ )?wrong|wrong|happen\w*|occur\w*|took place|fall\w*|(?:sali\w*|fue|ido|iba|va) (?:nada |algo )?mal"
                r"|ocurri\w*|sucedi\w*|pas[oa]|pasado|hubo|rompi\w*|roto|colg\w*|cay\w*|caid[oa]")
# A clause after the failure ends at a word about time too: "nothing failed until the server crashed".
_UNTIL = r"until|till|unless|when|whenever|once|after|before|hasta|cuando|despues|antes|tras"
_TOOL_NOUNS = (r"tool|tools|server|servers|service|services|system|backend|api|component|components|code|herramientas?"
               r"|servidor|servidores|servicios?|sistema|componentes?|codigo")
_NOT_INTERNAL = [
    _governed(rf"(?:{_NOT}|{_NO}|{_subject(_TOOL_NOUNS)})",
              _SMALL + r"|error|errors|failure|failures|problem|problems|fault|issue|fallo|fallos|problema"
              r"|problemas|culpa|un|una|el|es|era|esta|estaba|de|del|on|at|in|inside|from|of|caused by|due to|come from|comes from"
              r"|came from|se trata de|viene de|here|aqui|there|ningun|ninguna|nada",
              rf"(?:(?:{_FAILED_VERB})\b{_reach(40, stop=_UNTIL)})?"
              + "(?:" + "|".join(f"(?:{p})" for p in _INTERNAL + _INTERNAL_ES) + ")")
    + _reach(60, stop=_UNTIL, rest=True),
]


def says_internal_failure(message: object) -> bool:
    """The message says the tool failed on its own side (internally, it crashed, a bug).

    Said negated, the words say the opposite: "this is not an internal error", "the tool did not crash", "no es un
    error interno", and so does a negating subject ("nothing failed internally", "no part of the tool crashed", "nada
    falló por dentro"). "Your arguments did not cause this internal error" and "nothing you did caused it: the tool
    crashed" still say it is internal.

    >>> [says_internal_failure(m) for m in ("Internal error in web_search.", "web_search crashed.", "Bad input.")]
    [True, True, False]
    >>> [says_internal_failure(m) for m in ("Error interno en web_search.", "web_search se colgó.", "Entrada no válida.")]
    [True, True, False]
    >>> says_internal_failure("The tool did not crash: your arguments are invalid.")
    False
    >>> [says_internal_failure(m) for m in ("Nothing failed internally.", "Ningún servidor se cayó.", "It did not fail internally.")]
    [False, False, False]
    >>> says_internal_failure("Nothing you did caused it: the tool crashed internally.")
    True
    """
    return _any(_without(_text(message), _NOT_INTERNAL), _INTERNAL + _INTERNAL_ES)


_ARGS = r"\b(argument|arguments|parameter|parameters|input|inputs|args|values)\b"
# From a word about the arguments to what is said of them, within one sentence, but not past a contrast ("not a
# problem with the tool, it is your arguments", "no es culpa de la herramienta sino de los argumentos").
_ON_ARGS = (r"(?:(?!\b(?:but|while|whereas|although|though|however|yet|pero|sino|aunque|mientras)\b"
            r"|, (?:the|this|that|it|its|la|el|esta|este|eso|esa|ese|son|es)\b)[^.;:!?\n]){0,60}?")
# Said of the arguments: they are fine ("were fine", "look valid"), they are not the cause ("not the problem").
# Not "valid" alone: "Invalid arguments: give a valid city" says the opposite.
_ARGS_FINE = (r"(\b(is|are|was|were|look|looks|looked|seem|seems|seemed|appear|appears|appeared)( all| both| perfectly| completely)?"
              r" (fine|ok|okay|correct|valid|right|good|acceptable|in order)"
              r"|(\bnot|n't) (the |a |an )?(problem|issue|cause|reason|culprit|fault)|(\bnot|n't) (to blame|at fault))\b")
# Other arguments will not help: "changing the arguments won't fix it", "other values will not change anything".
_NO_HELP = (r"(won't|will not|would not|wouldn't|does not|doesn't|cannot|can't|is not going to|isn't going to) "
            r"(help|fix|change|solve|cure|make (any |a )?difference|matter)\b")
_OTHER_ARGS = (rf"\b(other|different|new|another set of|alternative|changing|changed|varying|tweaking|altering|adjusting|modifying)"
               rf"\b{_ON_ARGS}{_ARGS}")
# "It is not the arguments the tool expects", "no son los argumentos correctos" say the opposite.
_NOT_SAID_OF_ARGS = (r"(?! ((that|which|que) )?(it |the tool |the api |la herramienta |la api |we |i |you )?"
                     r"(expect|need|want|accept|require|allow|espera|necesita|pide|acepta|admite|requiere)\w*\b"
                     r"| (correct|correctos|correctas|valid|validos|validas|right|expected|required|needed|accepted|allowed|proper"
                     r"|esperados|adecuados|necesarios|apropiados|buenos)\b)")
_NOT_THE_ARGUMENTS = [
    rf"{_ARGS}{_ON_ARGS}{_ARGS_FINE}",
    rf"{_OTHER_ARGS}{_ON_ARGS}{_NO_HELP}",
    rf"(\bnot|n't|\bnever)( be)? (a |an |the |any )?(problem|issue|fault|error|mistake|cause)s? (with|in|of|from|caused by)\b{_ON_ARGS}{_ARGS}",
    rf"(\bnot|n't) (caused by|due to|because of|about|related to|down to)\b{_ON_ARGS}{_ARGS}",
    rf"\b(nothing to do with|no problem with|nothing (is |was )?wrong with|unrelated to|regardless of|whatever the)\b{_ON_ARGS}{_ARGS}",
    # "do not retry with other values", "don't vary the arguments"
    rf"(\bnot|n't|\bnever|\bno need to)( \w+)?( it| this| the call| the tool| again)* (with|using) (other|different|new|changed|another)\b{_ON_ARGS}{_ARGS}",
    rf"(\bnot|n't|\bnever|\bno need to) (change|vary|alter|tweak|modify|adjust|fix)( the| your| its| these| those)? {_ARGS}",
    # "the problem is not the arguments", "the cause is not in the arguments", "it was not your arguments"
    rf"\b(problem|issue|cause|fault|culprit|error|reason|failure)s? (is|was|are|were|lies|lay)( not|n't)( in| with| from)?"
    rf"( the| your| its| these| those)? {_ARGS}{_NOT_SAID_OF_ARGS}",
    rf"\b(it|this|that)( is|'s| was)( not|n't)( the| your| its| these| those)? {_ARGS}{_NOT_SAID_OF_ARGS}",
]
_ARGS_ES = r"\b(argumentos?|parametros?|entradas?|valores|datos de entrada|args)\b"
_ARGS_FINE_ES = (r"((?<!\bno )\b(son|estan|eran|estaban|parecen|es|esta|era|estaba) (correct[oa]s?|valid[oa]s?|bien)\b"
                 r"|\bno (son|es|eran|era|fueron|fue) (el|la|lo) (problema|causa|motivo|que fallo)"
                 r"|\bno tienen? (la )?culpa|\bno (tienen?|tiene) nada que ver"
                 r"|\bno tienen? (nada de malo|nada malo|ningun problema|ningun error|ningun fallo)"
                 r"|\bno (lo |la |le |te |les |os )?(ayudara|ayudaria|servira|serviria|va a (ayudar|servir|cambiar|arreglar|resolver)|cambiara|cambiaria"
                 r"|arreglara|arreglaria|resolvera|resolveria|solucionara|solucionaria)\b"
                 r"|\bda igual\b)")
_NOT_THE_ARGUMENTS_ES = [
    # "no es un problema de tus argumentos", "los argumentos están bien", "no pruebes otros valores"...
    rf"{_ARGS_ES}{_ON_ARGS}{_ARGS_FINE_ES}",
    rf"\b(no (es|son|era|fue|se debe a|viene de|tiene que ver con|esta en|depende de)|nada que ver con|ningun problema con"
    rf"|nada malo (con|en)|independientemente de|sea cual sea|sean cuales sean|sin importar|no importa"
    rf"|no (reintentes|pruebes|intentes|lo intentes|vuelvas a intentarlo|la llames|lo llames|uses|mandes|envies|cambies)( con)? otr[oa]s)"
    rf"\b{_ON_ARGS}{_ARGS_ES}{_NOT_SAID_OF_ARGS}",
    rf"\bno (cambies|modifiques|toques|varies|corrijas|ajustes) (los |tus |sus |estos |esos )?{_ARGS_ES}",
    # "el problema no son los argumentos", "la causa no está en los argumentos", "no fueron tus argumentos"
    rf"\b(problema|causa|culpa|fallo|error|motivo) no (es|son|esta|estaba|era|eran|fue|fueron|reside|viene)( en| de)?"
    rf"( los| tus| sus| estos| esos)? {_ARGS_ES}{_NOT_SAID_OF_ARGS}",
    rf"\bno (fueron|son|eran) (los|tus|sus) {_ARGS_ES}{_NOT_SAID_OF_ARGS}",
]


def says_not_the_arguments(message: object) -> bool:
    """The message says the failure is not a problem with the arguments (so other values will not help).

    A negation that reaches past a contrast to the arguments does not count: "it's not a problem with the tool,
    it's your arguments", "no es culpa de la herramienta sino de los argumentos" blame the arguments.

    >>> says_not_the_arguments("This is not a problem with your arguments."), says_not_the_arguments("Invalid arguments.")
    (True, False)
    >>> says_not_the_arguments("Tus argumentos están bien."), says_not_the_arguments("Argumentos no válidos.")
    (True, False)
    >>> says_not_the_arguments("It's not a problem with the tool, it's your arguments.")
    False
    """
    return _any(_text(message), _NOT_THE_ARGUMENTS + _NOT_THE_ARGUMENTS_ES)


_NO_RESULT = [
    r"\bno (result|results|data|output|content|value|answer|records|matches)\b", r"\bempty\b",
    # "nothing" said of the result ("returned nothing", "nothing found", "(nothing)"), not "nothing went wrong"
    r"\b(returned|returns|return|gave|gives|produced|produces|yielded|yields|found|finds|got|gets|output|printed|sent back"
    r"|came back with|brought back) nothing\b",
    r"\bnothing (was |is |got |came )?(returned|found|came back|to (return|show|report)|back|in it|at all)\b",
    r"(^|[(\[<:])\s*nothing\s*([)\]>.!]|$)", r"\bthere (was|is) nothing\b",
    r"\bno (return|returned) (value|data|result|output)s?\b", r"\breturned (none|null|nil|no)\b",
    r"\bdid ?n[o']t return\b", r"\bwithout (a |any )?(result|output|value|return value)\b",
    # "(blank result)", "(null)": a note in brackets, not the bare value "null" or "None"
    r"\bblank\b", r"[(\[<]\s*(null|none|nil|empty|void|blank)\s*[)\]>]",
]
_NO_RESULT_ES = [
    # "(sin resultado)", "no devolvió nada", "resultado vacío", "no hay registros"...
    r"\bsin (ningun )?(resultados?|datos|salida|contenido|valor|respuesta|registros?|coincidencias)\b",
    r"\bno (hay|hubo|habia|existe|existen|se (encontr|obtuvo|halla)\w*|encontr\w*|devolvio|devuelve|dio|produjo|tiene)\b"
    r"[^.;\n]{0,30}?\b(resultados?|datos?|nada|registros?|coincidencias|salida|valor|contenido|respuesta)\b",
    r"\bvaci[oa]s?\b", r"\ben blanco\b", r"[(\[<]\s*(nulo|nula|ninguno|ninguna)\s*[)\]>]",
    # "nada" said of the result ("no devolvió nada", "nada que mostrar", "(nada)"), not "nada falló"
    r"\b(devolvio|devuelve|dio|produjo|encontro|obtuvo|hay|hubo|salio|retorno|trajo|arrojo) nada\b",
    r"\bnada (que (mostrar|devolver)|devuelto|encontrado)\b", r"(^|[(\[<:])\s*nada\s*([)\]>.!]|$)",
]
# Said negated, the words say the opposite: "the result is not empty", "a non-empty list", "no está vacía".
# A negating subject with its noun phrase: "none of the results came back empty", "ningún campo está vacío".
_RESULT_NOUNS = (r"result|results|answer|answers|field|fields|column|columns|row|rows|list|lists|value|values|output|outputs"
                 r"|string|strings|entry|entries|record|records|response|responses|campos?|resultados?|respuestas?|filas?"
                 r"|listas?|valor|valores|columnas?|registros?|salidas?|cadenas?")
_NOT_EMPTY = [
    _governed(rf"(?:{_NOT}|{_NO}|\bnon|{_subject(_RESULT_NOUNS)})", _SMALL + r"|an?|un|una|el|es|esta|era|estaba|result|answer|output"
              r"|list|string|resultado|respuesta|lista|cadena|come|came|comes|back|return|returns|returned|look|looks|seem|seems"
              r"|turn|turned|out|volvio|vuelve|volver|llego|resulto|salio|parece|quedo|vino|vinieron|volvieron|llegaron|estan"
              r"|estaban|salieron|quedaron|parecen", r"(?:-\s*)?(?:empty|blank|null|none|vaci\w*|nul[oa]s?|en blanco)"),
    r"\bnonempty\b",
]


def says_no_result(message: object) -> bool:
    """The message says, briefly, that the tool returned nothing.

    "The result is not empty", "a non-empty list", "nothing went wrong", "no está vacía", "nada falló" do not.

    >>> [says_no_result(m) for m in ("(no result)", "The tool returned nothing.", "None")]
    [True, True, False]
    >>> [says_no_result(m) for m in ("(sin resultado)", "La herramienta no devolvió nada.", "Ninguno")]
    [True, True, False]
    >>> says_no_result("Nothing went wrong: the result is not empty.")
    False
    """
    return _any(_without(_text(message), _NOT_EMPTY), _NO_RESULT + _NO_RESULT_ES)


# Doing it again, and a negation that governs it: "do not call it again", "it was not retried", "to avoid a
# duplicate", "no la vuelvas a llamar", "no se reintentó". The negation must govern the verb, with only small words
# between (auxiliaries, pronouns, "the call"): "do not wait to retry", "don't hesitate to call it again", "it did not
# work, so try again", "no dudes en reintentar", "no cambies nada y vuelve a llamarla" say the opposite.
_REPEAT = (r"repeat\w*|retr(?:y|ies|ied|ying)\b|re-?(?:send|sent|sending|sends|run|runs|ran|running|try|tried|trying|do|did|done"
           r"|doing)\b|re-?(?:attempt|issu|submit|execut|post)\w*|re-call\w*|duplicat\w*|doubl\w*"
           r"|repet\w*|repit\w*|reintent\w*|reenvi\w*|reejecut\w*|rehic\w*|rehac\w*|rehag\w*|duplic\w*|(?:volv|vuelv|vuelt)\w* a \w+"
           r"|insist\w*")
_ACT = (r"call\w*|use[ds]?|using|run|runs|ran|running|try|tries|tried|trying|sen[dt]s?|sending|make|makes|made|making|do|does"
        r"|did|done|doing|issu\w*|invok\w*|submit\w*|execut\w*|attempt\w*|perform\w*|post|posts|posted|posting|write|writes"
        r"|wrote|written|writing|process\w*|fire[ds]?|firing|place[ds]?|placing|charg\w*|pay|pays|paid|paying|book\w*|push\w*"
        r"|ask\w*|request\w*"
        r"|envi\w*|mand\w*|ejecut\w*|llam\w*|intent\w*|prob\w*|hic\w*|hiz\w*|hag\w*|hac\w*|har[aeé]\w*|lanz\w*|realiz\w*"
        r"|proces\w*|escrib\w*|cobr\w*|pag\w*|ped\w*|pid\w*|us(?:a|e|o|ar|ando|ado)\w*|reserv\w*|invoc\w*|invoq\w*")
_AGAIN = (r"again|once more|one more time|a (?:second|third|fourth|new|further) (?:time|attempt|try|call|send)\b"
          r"|another (?:time|attempt|try|call|send|one)\b|twice|(?:any )?more (?:attempts|tries|calls|times)\b"
          r"|further (?:attempts|tries|calls)\b|anymore|any more|any longer|(?:second|third|new|further) (?:attempt|try|call)s?\b"
          r"|de nuevo|otra vez|nuevamente|una vez mas|una segunda vez|por segunda vez|dos veces|mas veces"
          r"|(?:mas|otros?|nuevos?|segundos?|un segundo|un nuevo|otro) (?:intentos?|envios?|reintentos?|llamadas?)\b")
# From the doing to the "again": one clause, and no new subject ("it did not send; I tried again").
_TO_AGAIN = _reach(40, stop=r"i|we|you|they|he|she|later|after|afterwards|yo|luego|despues")
_NOT_AGAIN = (r"(?:\b(?:avoid\w*|prevent\w*|instead of|rather than|refrain\w* from|declin\w* to|no need to|para no|evit\w*"
              rf"|en vez de|en lugar de)\b|{_NOT}|{_NO})")


def _not_again(negation: str, again: str = _AGAIN) -> list[str]:
    """A ``negation`` that governs doing it again: a verb of repeating ("not retried", "no se repitió"), a verb of
    doing and then ``again`` ("did not send it again", "no la llames otra vez"), or ``again`` itself ("no more
    attempts", "not a second time")."""
    return [_governed(negation, _SMALL, _REPEAT), _governed(negation, _SMALL, rf"(?:{_ACT})\b{_TO_AGAIN}\b(?:{again})"),
            _governed(negation, _SMALL, again)]


# Two negations make a yes: "there is no reason not to retry it", "no hay motivo para no reintentarlo".
_NEGATION_UNDONE = [
    r"\bno (reason|need|cause)( why)?( (you|we|i|it))?( (should|shall|would|must|could))?( not|n't) ",
    r"\bnothing (stops|prevents|keeps) (you|us|me|it) from\b",
    r"\bno (hay|habia|hubo|tiene|tenia|existe|veo) (ningun |ninguna )?(motivo|razon|por que|porque|necesidad) (para |de )?no\b",
    r"\bnada (te |nos |le |me )?impide\b",
]
_STOP = r"(?<!n't )(?<!not )(?<!never )(?<!\bno )\b(?:stop|quit|cease|deja|dejes|dejar)"
_DO_NOT_REPEAT = [
    # "Do not call it again", "never retry this", "no retries", "stop calling it", "don't call it like this"
    *_not_again(rf"(?:{_NOT_AGAIN}|{_STOP})", _AGAIN + r"|like this|this way|that way|with (?:these|those|the same|this|that"
                r"|identical) \w+|(?:the )?same (?:call|way|arguments|args|request|input|inputs|parameters|values)\b"
                r"|this exact call|these arguments|asi\b|de (?:esta|esa) (?:forma|manera)|con (?:estos|esos|estas|esas|los mismos"
                r"|las mismas|este|esta|ese|esa|el mismo|la misma) \w+"),
    rf"{_STOP} (calling|trying|using|retrying|repeating|sending|asking|requesting|running|invoking)\b",
    r"\b(do not|don't|dont|never|no longer) (call|use|run|try|invoke|send|make|issue)\w*\b"
    r"[^.;\n]*?\b(this|these|those|that|same|like this|this way|that way)\b",
    r"(?<!not )(?<!n't )\bblocked\b",
    # "already failed twice with these arguments; try something else"
    r"\balready (failed|been tried|tried)\b[^\n]*?\b(try|do|use|attempt) (something|anything) (else|different)\b",
    r"\bwill not be (run|called|executed|tried)\b",
]
_DO_NOT_REPEAT_ES = [
    # "no la repitas", "no vuelvas a llamarla", "no reintentes", "no insistas", "deja de llamarla", "bloqueada"...
    rf"{_STOP} de (llamar|intentar|probar|usar|insistir|reintentar|pedir|solicitar|enviar|mandar|ejecutar)",
    r"(?<!\bno )(?<!\bno esta )(?<!\bno fue )\bbloquead",
    r"\bya (fallo|ha fallado|se intento)\b[^\n]*?\b(prueba|intenta|usa|haz) (otra cosa|algo (distinto|diferente))\b",
    r"\bno (la |lo )?(llames|uses|ejecutes|invoques|pruebes|intentes|mandes|envies)\b[^.;\n]*?\b(asi|esta|estos|estas|esos|esas|mism[oa]s?)\b",
]


def says_do_not_repeat(message: object) -> bool:
    """The message tells the model not to make the same call again.

    "Call it again" is the opposite: the words "again", "retry", "repeat" count after a negation ("do not",
    "never", "stop") that governs them, with only small words between. "Don't hesitate to retry", "do not wait
    to retry", "it didn't work, so try again", "no dudes en reintentar" say the opposite.

    >>> says_do_not_repeat("Do not call it again with these arguments."), says_do_not_repeat("Unknown city.")
    (True, False)
    >>> says_do_not_repeat("Invalid city: fix it and call it again."), says_do_not_repeat("Don't hesitate to retry.")
    (False, False)
    >>> says_do_not_repeat("No vuelvas a llamarla con estos argumentos."), says_do_not_repeat("Ciudad desconocida.")
    (True, False)
    """
    return _any(_without(_text(message), _NEGATION_UNDONE), _DO_NOT_REPEAT + _DO_NOT_REPEAT_ES)


_CONFIRM = r"(?:confirm|verif|ascertain|double-check)\w*"
# What cancels a negation before "confirm": "no need to confirm", "nothing went wrong and it was confirmed".
# Both languages' words, as every pattern reads both ("no need to confirm" must not pass as Spanish "no ... confirm").
_CONFIRM_REACH = _reach(40, stop=r"need\w*|necessar\w*|hesitat\w*|forg[eo]t\w*|worr\w*|wrong|problems?|issues?|errors?|doubt\w*"
                        r"|hace falta|hizo falta|necesari\w*|dud\w*|olvid\w*|errores|fallos?|preocup\w*")
# Said negated, the words of doubt say the opposite: "there is no uncertainty", "it is not unconfirmed".
_NO_DOUBT = [
    _governed(_NOT, r"is|was|are|were|be|been|any|an|a|the|longer|more|there|left|remains|remained|it|this|that|at all|real",
              r"un(?:certain|confirm|verif|known|clear)\w*|doubt\w*"),
    _governed(_NO, r"hay|habia|hubo|es|era|esta|estaba|queda|quedo|un|una|el|la|lo|existe|cabe|ya|mas|ninguna?|ningun",
              r"incierto|incierta|incertidumbre|duda\w*|desconoc\w*"),
    # "there is no way it could have been sent", "no es posible que se enviara", "no puede haberse enviado"
    r"\bno (way|chance|possibility)\b(?! (to|of knowing|of telling)\b)" + _reach(40, rest=True),
    r"\bno (es|era|fue) posible que\b" + _reach(40, rest=True),
    r"\bno (puede|podia|pudo|podria)( que)? (haber|hayan?)\w*" + _reach(40, rest=True),
]
_NOT_CONFIRMED = [
    # "unconfirmed", "unverified", "uncertain", "it could not be confirmed", "no confirmation came", "unable to verify"
    r"\bun(?:confirm|verif|certain)\w*",
    rf"(?:{_NOT}|\b(?:unable|impossible|failed|fails|fail|lack\w*|pending|awaiting|await|yet to)\b){_CONFIRM_REACH}\b{_CONFIRM}",
    rf"\b{_CONFIRM}\s*(?:is |was |has |had |remains |stays |:\s*)?(?:none|missing|pending|lacking|absent|unavailable|unknown"
    r"|never (?:came|arrived|returned)|did ?n[o']t (?:come|arrive|return)|(?:not|never) (?:received|available|possible|given|returned|sent))\b",
    r"(unknown|unclear|not known|not clear|no idea|not sure|not certain|hard to say|impossible to (say|tell|know)) (whether|if)",
    rf"\b(whether|if) (it|the \w+|\w+)\b{_SAME_SENTENCE}\b(is|was|remains|stays) (unknown|unclear|uncertain|not known|not clear)\b",
    r"\b(outcome|result|status|state|effect)s?( is| was| remains| stays|:)? (unknown|unclear|uncertain|not known|undetermined|indeterminate)\b",
    r"\bunknown (outcome|result|status|state)\b",
    r"(do ?n[o']t|does ?n[o']t|can't|can ?not|could ?n[o']t|no way to|not possible to|unable to) (know|tell|say|be sure|determine)",
    r"\bno (telling|knowing|saying)\b", r"not (be )?(sure|certain)", r"(may|might) or (may|might) not",
    r"(may|might|could) (already )?have (happened|been|gone|went|completed|succeeded|worked|arrived|landed)",
    r"\b(perhaps|maybe|possibly|probably)\b[^.;\n]*?\b(went|was|were|got|has|have|happened|succeeded|completed|arrived)\b",
    # "The e-mail may already be sent", "Nobody knows if it went out"
    r"\b(may|might|could) (well )?(already be|be already)\b",
    r"\b(nobody|no one|no-one|none of us) (knows|can (tell|say|know|be sure)|is sure)\b",
]
# A Spanish negation of "confirmar" ("no se pudo", "sin", "nadie", "pendiente de", "falta"; not "no hace falta").
_NO_ES = (r"(?:\b(?:no|nunca|jamas|ni|sin|nadie|ningun\w*|imposible|pendiente|incapaz de|a la espera de)\b"
          r"|(?<!hace )(?<!hizo )(?<!hacia )\bfaltan?\b)")
_NOT_CONFIRMED_ES = [
    # "no se pudo confirmar", "sin confirmar", "no hay confirmación", "no sé si se envió", "puede que se haya enviado o no"...
    rf"{_NO_ES}{_CONFIRM_REACH}\b(?:confirm|verific|comprob|constat|constanc|asegur)\w*",
    r"incierto", r"incierta", r"incertidumbre", r"\b(se )?desconoce si\b", r"\bno se sabe si\b", r"\bno (esta|queda|es) claro\b",
    r"\bno (lo |la )?(se|sabemos|sabe|puedo|podemos|pude|pudimos|se puede|se pudo|hay (forma|manera) de) (saber|asegurar|decir|estar segur\w*|si)\b",
    r"\bno (estoy|estamos|es|esta) segur", r"\bsin saber si\b",
    r"\b(?<!no )(puede|podria|pudo) (o no )?(haber(se)?|que (ya )?(se )?haya)\b",
    r"\bo no\b(?=\s*(?:[.,;:!?)\]]|$))", r"\bsi\b[^.;\n]*\bo no\b",
    rf"\b(puede que|podria ser que|es posible que|quiza|quizas|tal vez)\b{_SAME_SENTENCE}\b(haya|hayan|llegara|saliera|se enviara)\b",
    rf"\b(quiza|quizas|tal vez|a lo mejor|posiblemente)\b{_SAME_SENTENCE}\b(se (envi|hizo|realiz|complet|ejecut|mand|guard|cobr|proces|hici)"
    r"|llego|salio|ocurrio|paso|fue|funciono)",
    r"\bquizas? no\b", r"(?<!\bno )\bes posible que\b",
    r"\b(resultado|desenlace|estado) (es |queda |sigue )?(desconocido|incierto)\b",
    # "No consta que se completara", "nadie sabe si llegó"
    r"\bno (me |nos |le )?consta\b", r"\bnadie (sabe|puede (saber|decir|asegurar))\b",
]


def says_not_confirmed(message: object) -> bool:
    """The message says the action could not be confirmed (it may or may not have happened).

    "Confirm" and "verify" count negated ("could not be confirmed", "no confirmation", "unverified", "sin
    confirmar"): "the payment was confirmed", "I verified it", "no need to confirm", "se confirmó" say the
    opposite, and so do doubts said negated ("there is no uncertainty", "no es posible que se enviara").

    >>> [says_not_confirmed(m) for m in ("Unconfirmed: check the outbox.", "It may or may not have happened.", "Sent.")]
    [True, True, False]
    >>> [says_not_confirmed(m) for m in ("Sin confirmar: revisa la bandeja.", "No sé si se envió.", "Enviado.")]
    [True, True, False]
    >>> says_not_confirmed("The payment was confirmed."), says_not_confirmed("El pago se confirmó.")
    (False, False)
    """
    return _any(_without(_text(message), _NO_DOUBT), _NOT_CONFIRMED + _NOT_CONFIRMED_ES)


# "tried once, then again", "a single attempt was not enough" say the opposite.
_THEN_MORE = r"(?![^.;\n]{0,20}?\b(more|again|then|twice|retr\w*|not enough|failed|was not)\b)"
# "A retry could send it twice", "otro intento podría duplicarlo": why it was not repeated.
_COULD_DUPLICATE = (r"\b((a|another|one more|any|a second|a new) (retry|re-?try|re-?send|repeat|repetition|attempt|try|call|send)"
                    r"|retrying|resending|repeating|trying again|sending it again|reintentar\w*|reenviar\w*|repetir\w*)\b"
                    r" ?(could|might|would|may|can|risks|podria|puede|pudiera|arriesga)\b[^.;,\n]{0,20}?\b(duplic|double|twice|dos veces)")
_NOT_REPEATED = [
    # "It was not retried", "I did not send it again", "nothing was retried", "to avoid a duplicate", "no further attempts"
    *_not_again(_NOT_AGAIN),
    _COULD_DUPLICATE,
    rf"\b(only|just)\b[^.;,\n]{{0,20}}?\bonce\b(?! more){_THEN_MORE}|\bonce only\b|\b(only|just) (one|1|a single) (attempt|try|call)\b{_THEN_MORE}",
    # "There was a single attempt", "It was attempted once"
    rf"\b((a|one) single (attempt|try|call)|(attempted|tried|called|sent|run|ran|executed|made|invoked) once)\b(?! more){_THEN_MORE}",
]
_NOT_REPEATED_ES = [
    # "no lo repetí", "no se reintentó", "no lo volví a enviar", "para no duplicarlo", "no hice más intentos"...
    r"\b(otro|un segundo|un nuevo) (intento|envio|reintento)\b (podria|puede|pudiera|podra|arriesga|corre el riesgo)\b[^.;,\n]{0,20}?"
    r"\b(duplic|repetir)",
    r"\b(solo|solamente|unicamente)\b[^.;,\n]{0,20}?\b(una vez|un intento)\b(?! mas)|\buna sola vez\b|\bun (solo|unico) intento\b",
]


def says_not_repeated(message: object) -> bool:
    """The message says the action was not repeated (not retried, not sent again).

    The words "retried", "again", "twice" count after a negation ("not", "never", "to avoid") that governs them:
    "it was retried", "sent twice", "since it wasn't confirmed I retried it", "no dudé en reenviarlo" say the
    opposite.

    >>> says_not_repeated("It was not retried."), says_not_repeated("I did not send it a second time."), says_not_repeated("Done.")
    (True, True, False)
    >>> says_not_repeated("It was retried twice."), says_not_repeated("It could not be confirmed so I sent it again.")
    (False, False)
    >>> says_not_repeated("No se reintentó."), says_not_repeated("No lo volví a enviar."), says_not_repeated("Hecho.")
    (True, True, False)
    """
    return _any(_without(_text(message), _NEGATION_UNDONE), _NOT_REPEATED + _NOT_REPEATED_ES)


_LIMIT_WORDS = (r"limit\w*|max(imum)?\b|max_\w+|budget|too many|exhaust\w*|ran out|run out|cap\b|limite\w*|maxim[oa]|presupuesto|demasiad[oa]s"
                r"|agot\w*")
# Said negated, the limit was not reached: "the limit was not reached", "did not hit the iteration limit", "well within
# the limit", "not too many steps", "no se alcanzó el límite", "sin llegar al límite", "dentro del límite".
_LOOP_NOUNS = (r"run|runs|step|steps|iteration|iterations|turn|turns|call|calls|round|rounds|loop|agent|pasos?|iteracion"
               r"|iteraciones|turnos?|llamadas?|bucle|agente|rondas?|vueltas?")
_LIMIT_NOT_REACHED = [
    _governed(rf"(?:{_NOT}|{_NO}|{_subject(_LOOP_NOUNS)})", _SMALL + r"|reach\w*|hit|hitting|exceed\w*|get|getting|go|going|went"
              r"|come|coming|came|comes|close|near|anywhere|over|above|beyond|past"
              r"|to|the|its|an?|iteration|step|turn|call|round|alcanz\w*|lleg\w*|super\w*|acerc\w*|toc\w*|al|el|de|del|a",
              rf"(?:{_LIMIT_WORDS})"),
    r"\b(limit|max\w*|budget|cap|limite|maximo)\b( of \d+( \w+)?)?( (was|is|has|had|were|fue|ha|se ha|se))?( been)? (not|never|no|nunca)"
    r"( se)?( been)? (reached|hit|exceeded|touched|used up|alcanzad\w*|alcanz\w*|super\w*|agot\w*|lleg\w*)\b",
    r"\b(well )?(within|under|below|inside|short of|before (reaching|hitting|getting to)|dentro del?|por debajo del?|antes de "
    r"(llegar|alcanzar)( a)?l?)( the| its| el| la| su)?( \w+)? (limit\w*|max\w*|budget|limite|maximo|presupuesto)\b",
]


# But no answer within the limit is the limit reached: "no answer within the limit of 5 steps", "did not finish
# before hitting the limit", "sin respuesta dentro del límite".
_NOTHING_WITHIN_LIMIT = (rf"(?:{_NOT}|{_NO}|\b(?:unable|failed)\b){_reach(30)}\b(answer\w*|result|solution|reply|finish\w*|complet\w*"
                         r"|done|solv\w*|find|found|respuesta|resultado|solucion|terminar|acabar|resolver|encontr\w*)\b"
                         rf"{_reach(30)}\b(within|in|inside|before|dentro del?|antes de(l)?)"
                         r"( (reaching|hitting|getting to|llegar al?|alcanzar))?( the| its| el| la| su)?( \w+)? (limit\w*|max\w*|budget"
                         r"|limite|maximo|presupuesto)\b")


def says_limit_reached(message: object) -> bool:
    """The message says the loop stopped at its limit of iterations.

    Said negated ("the limit was not reached", "well within the limit", "no se alcanzó el límite"), the words say the
    opposite and do not count.

    >>> says_limit_reached("Stopped: too many steps."), says_limit_reached("The answer is 68.")
    (True, False)
    >>> says_limit_reached("Me detuve: límite de iteraciones."), says_limit_reached("La respuesta es 68.")
    (True, False)
    >>> says_limit_reached("Answer found in 2 steps, well within the limit.")
    False
    """
    text = _text(message)
    if re.search(_NOTHING_WITHIN_LIMIT, text):
        return True
    return _any(_without(text, _LIMIT_NOT_REACHED), [
        r"limit", r"max(imum)?[ _]?(number of )?(iterations|steps|turns|calls|rounds)", r"too many",
        r"ran out of", r"out of (iterations|steps|turns|rounds)", r"exhausted", r"budget",
        r"(gave up|stopped) after \d+", r"after \d+ (iterations|steps|turns|rounds|model calls)",
        # Spanish: "límite de iteraciones", "demasiados pasos", "se agotaron las iteraciones"...
        r"max(imo)?[ _]?(numero )?(de )?(iteraciones|pasos|turnos|llamadas|rondas|vueltas)", r"demasiad[oa]s",
        r"agot", r"se (acabaron|terminaron) (las |los )?(iteraciones|pasos|turnos|rondas|vueltas)", r"presupuesto",
        r"(me detuve|se detuvo|detenid[oa]|parad[oa]|me rendi|se rindio|abandon\w*|pare) (tras|despues de|al cabo de) \d+",
        r"(tras|despues de|al cabo de) \d+ (iteraciones|pasos|turnos|rondas|vueltas|llamadas)",
    ])


_C = r"(?:['\"]?c['\"]?(?![a-z0-9_])|celsius|centigrad\w*)"
_F = r"(?:['\"]?f['\"]?(?![a-z0-9_])|fahrenheit)"
_C_AND_F = rf"(?<![a-z0-9_])(?:{_C}|{_F})\s*(?:and|or|nor|/|y|o|ni|e|u)\s*(?:{_C}|{_F})"
# A negating subject that denies a scale is allowed: its nouns ("no scale", "none of the units", "ninguna escala"),
# the words for allowed it denies ("accepted", "supported", "se admite"), and the words after which the clause says
# what is allowed after all ("no scale other than C or F", "nothing else", "ninguna escala salvo C o F", "no scale is
# valid unless...", and for a number "nada más que un número").
_SCALE_NOUNS = r"scales?|units?|options?|letters?|from_scale|to_scale|escalas?|unidad|unidades|opcion|opciones|letras?"
_ACCEPTED = (r"accept\w*|allow\w*|support\w*|permit\w*|valid|possible|ok|okay|fine|works?|working|admit\w*|acept\w*|soport\w*"
             r"|valid[oa]s?|vale|valen|sirve|sirven|posibles?|funciona\w*|recognized|recognised|known|reconocid[oa]s?")
_OTHER_THAN = (r"other|others|else|more|than|besides|apart|unless|if|except\w*|aside|beyond|outside|instead|otr[oa]s?|mas|aparte"
               r"|distint[oa]s?|diferentes?|fuera|si|salvo|a menos|que no sea|en vez|en lugar")
# C and F refused: "C and F are not allowed", "neither C nor F is supported", "no se admiten C ni F". Not "'K' is not
# C or F", which says what is allowed.
_SCALES_REFUSED = [
    rf"{_C_AND_F}\s*(?:(?:is|are|were|was|son|estan|fueron)\s+)?(?:not|n't|no|never|nunca)\s+(?:\w+\s+)?(?:allowed|accepted|supported"
    r"|valid|permitted|possible|admitid\w*|permitid\w*|aceptad\w*|valid\w*|soportad\w*|admit\w*|acept\w*|permit\w*)",
    rf"\b(?:neither|ni)\s+{_C_AND_F}",
    rf"(?:{_NOT}|{_NO})(?:\s+(?:{_SMALL}|accept\w*|support\w*|allow\w*|take|takes|admit\w*|permit\w*|acept\w*|soport\w*))+"
    rf"\s+(?:(?:the |any |ningun[oa]? )?(?:scales?|escalas?)\s+)?(?:ni\s+)?{_C_AND_F}",
    # A negating subject denies its whole clause: "no scale is accepted", "none of the scales C or F is supported",
    # "ninguna escala C o F se admite", "none is valid", and what follows it says it again: "no scale is accepted, not
    # C nor F", "ninguna escala vale (ni siquiera C o F)". Not "no scale other than C or F is accepted", "no other
    # scale is", "ninguna escala salvo C o F", "no scale is valid if it is not C or F", which say C or F is allowed;
    # nor "no scale (C or F) was given", which asks for one.
    rf"(?:{_NO_SUBJECT}(?:\s+(?:{_NP}|{_SCALE_NOUNS})\b){{0,3}}?\s+(?:{_SCALE_NOUNS})\b"
    rf"(?:\s*[,(]?\s*(?:(?:neither|either|like|such as|ni|como)\s+)?{_C_AND_F}\s*[,)]?)?"
    rf"|\b(?:none|nothing|nada|ningun[oa])\b){_reach(40, stop=_OTHER_THAN)}"
    rf"\b(?:{_ACCEPTED})\b{_reach(60, stop=_OTHER_THAN, rest=True)}"
    rf"(?:\s*[,:(\u2013\u2014-]?\s*(?:(?:nor|neither|ni|not even|ni siquiera|including|incluid[oa]s?|tampoco)\s+"
    rf"(?:(?:the|la|las|scales?|escalas?)\s+)*(?:{_C}|{_F})(?:\s*(?:,|and|or|nor|/|y|o|ni|e|u|not|no)*\s*(?:{_C}|{_F}))?"
    rf"|(?:not|no)\s+(?:{_C}|{_F})\s*(?:,\s*|\s+)(?:nor|ni|not|no|and not|y no)\s+(?:{_C}|{_F})"
    rf"|(?<=[,:])\s*not\s+(?:(?:the|scales?)\s+)*{_C_AND_F}"
    rf"|{_C_AND_F}\s*(?:included|too|either|incluid[oa]s?|tampoco))\s*\)?)?",
]


def says_allowed_scales(message: object) -> bool:
    """The message says the allowed scales are C and F (letters, quoted or not, or the names).

    "C and F are not allowed", "neither C nor F is supported", "no se admiten C ni F" say the opposite, and so does a
    negating subject ("no scale is accepted, not C nor F", "ninguna escala C o F se admite"); "'K' is not C or F",
    "no scale other than C or F is accepted" and "C or F; no other scale is" say what is allowed.

    >>> [says_allowed_scales(m) for m in ("Use 'C' or 'F'.", "scale must be celsius or fahrenheit", "Unknown scale 'CF'.")]
    [True, True, False]
    >>> [says_allowed_scales(m) for m in ("Usa 'C' o 'F'.", "la escala debe ser celsius o fahrenheit", "Escala 'K' desconocida.")]
    [True, True, False]
    >>> says_allowed_scales("sólo convierto desde grados centígrados o Fahrenheit")
    True
    >>> [says_allowed_scales(m) for m in ("No scale is accepted, not C nor F.", "Ninguna escala C o F se admite.")]
    [False, False]
    >>> [says_allowed_scales(m) for m in ("Only C or F are accepted; no other scale is.", "No scale but C or F is valid.")]
    [True, True]
    """
    text = _without(_text(message), _SCALES_REFUSED)
    letter = r"(?<![a-z0-9_]){}(?![a-z0-9_])"
    # "centigrade" / "centígrados": the everyday name of Celsius, in English and Spanish alike
    return (re.search(letter.format("c") + r"|celsius|centigrad", text) is not None
            and re.search(letter.format("f") + "|fahrenheit", text) is not None)


def names_range(message: object, low: float, high: float) -> bool:
    """The message gives both ends of the range (``-100`` and ``1000`` also as "−100", "1,000", "1 000", in words).

    The opposite of a range is another range: "5000 is not between -100 and 1000" gives this one.

    >>> names_range("value must be between −100 and 1,000", -100, 1000), names_range("out of range", -100, 1000)
    (True, False)
    >>> names_range("el valor debe estar entre −100 y 1.000", -100, 1000), names_range("fuera de rango", -100, 1000)
    (True, False)
    >>> names_range("valid range: -100 – 1000 °C", -100, 1000), names_range("from -100-1000", -100, 1000)
    (True, True)
    >>> names_range("from -1000 - 1000", -100, 1000)
    False
    >>> names_range("from minus one hundred to one thousand degrees", -100, 1000), names_range("de -100,0 a 1.000,0", -100, 1000)
    (True, True)
    """
    text = re.sub(r"[−–—]", "-", _text(message))  # _numbers reads the words ("minus one hundred") and signs
    # a dash between two numbers is a range ("-100 – 1000", "-100-1000 °C"), not the second number's sign
    text = re.sub(r"(\d\s*(?:°\s*[cf])?\s*)-(?=\s*-?\d)", r"\1 to ", text)
    found = _numbers(text, signed=True)
    return float(low) in found and float(high) in found


def names_value(message: object, value: float) -> bool:
    """The message names the number ``value`` ("5000", "5000.0", "5,000", "5.000", "five thousand"), or, for nan or
    an infinity, says so ("nan", "inf", "infinity", "not finite", "infinito", "no es finito").

    "5000 is not allowed" names 5000 (another number is the opposite); "not infinite", "is not nan", "no es
    infinito" say the opposite of nan or an infinity.

    >>> names_value("value 5000.0 is out of range", 5000), names_value("Out of range: from -100 to 1000.", 5000)
    (True, False)
    >>> names_value("El valor no es un número finito.", float("nan")), names_value("Fuera de rango.", float("inf"))
    (True, False)
    """
    text = _text(message)
    value = float(value)
    if not math.isfinite(value):
        # "not infinite", "is not nan", "no es infinito" say the opposite
        text = re.sub(_governed(rf"(?:{_NOT}|{_NO})", _SMALL + r"|an?|un|una|es|is|value|valor", r"nan\b|inf\w*|infinit\w*"), " ", text)
        return re.search(r"\bnan\b|\binf|\bnot\b[^.;\n]{0,25}\bfinite|\bnon-?finite|\bno\b[^.;\n]{0,25}\bfinit", text) is not None
    return abs(value) in _numbers(text)


_NUMBER_TERMS = r"numbers?|numeric|numerical|float|floating|decimal|real|numeros?|numeric[oa]s?"
_A_NUMBER = rf"\b({_NUMBER_TERMS})\b"
# A negating subject that denies a number is wanted: its nouns ("no number", "nothing numeric", "none of the
# fields", "ningún valor numérico") and the words for wanted it denies ("needed", "required", "must be", "hace falta").
_NUMBER_NOUNS = (rf"{_NUMBER_TERMS}|value|values|field|fields|argument|arguments|input|inputs|parameter|parameters|digits?"
                 r"|valor|valores|campos?|argumentos?|entradas?|parametros?|cifras?|digitos?")
_WANTED = (r"(?:must|should|has to|have to|needs? to|tiene que|tienen que|debe|deben|deberia|deberian) (?:be|ser)|needs?|needed"
           r"|necessary|require[sd]?|expect(?:s|ed)?|wanted|asked for|requested|accept(?:s|ed)?|allow(?:s|ed)?|permitted|(?:is|are|be|was|were) (?:valid|fine|ok|okay)|hace falta|hacen falta|se necesita\w*|necesit\w*|se requiere\w*|requier\w*"
           r"|requerid[oa]s?|exig\w*|se pide\w*|pide|piden|pedid[oa]s?|se espera\w*|esperad[oa]s?|se admite\w*|admitid[oa]s?"
           r"|se acepta\w*|aceptad[oa]s?|permitid[oa]s?|necesari[oa]s?|(?:es|son|sera|seria) valid[oa]s?")
# A number refused: "must not be a number", "a string, not a number", "no debe ser un número". Not "'hot' is not a
# number", which says a number is expected.
_NO_NUMBER = [
    rf"\b(must|should|need|needs|has to|have to|may|can|do|does)( not|n't)( be| contain| get| receive)?( a| an)?( valid)? {_A_NUMBER}",
    r"\bno (debe|deberia|tiene que|puede|hace falta|necesita)( ser| contener| recibir)?( un| una)?( numero| valor numerico)",
    rf"\b(string|text|str|word|words|letters|texto|cadena|palabras?|letras)\b[^.;\n]{{0,30}}(\bnot\b|\bno\b)( a| an| un| una)?( valid)? {_A_NUMBER}",
    rf"\bno (need for|numbers?|numeros?)\b{_reach(30, rest=True)}",
    # "no hace falta ningún número", "no se necesita ningún valor numérico"
    r"\bno (se )?(debe|deberia|tiene que|puede|hace falta|necesita|requiere|pide|espera|admite|acepta)( ser| contener| recibir)?"
    r" ningun[oa]?( numero| valor numerico)",
    # A negating subject denies its whole clause: "no number is needed", "nothing numeric is required", "none of the
    # fields needs a number", "ningún número hace falta", "ninguno de los campos necesita un número". Not "nothing
    # else is accepted" nor "nada más hace falta que un número" (only a number), nor "no value is valid unless it is
    # a number"; and a number not given stays asked for: "no numeric value was provided", "nothing you sent is a number".
    _governed(_subject(_NUMBER_NOUNS), rf"(?!(?:{_OTHER_THAN})\b)(?:{_SMALL}|es|son|esta|estan|here|there|aqui|really|at all"
              r"|strictly|realmente|en absoluto)", rf"(?:{_WANTED})\b") + _reach(60, stop=_OTHER_THAN, rest=True),
    # ... and said alone, a sentence of its own: "Nada numérico.", "No number, please." (not "got nothing numeric", nor
    # "value 'hot': no numeric value", which says what was wrong)
    rf"(?:^|(?<=[.;!?(\[\n]))\s*{_NO_SUBJECT}(?:\s+(?:{_NP}|{_NUMBER_NOUNS})\b)*?\s+{_A_NUMBER}"
    rf"(?:\s+(?:{_NUMBER_NOUNS}|{_NUMBER_TERMS})\b)*(?:\s+(?:here|there|aqui|at all|please|por favor))?\s*(?=[.;:,!?)\]\n]|$)",
]


def asks_for_a_number(message: object) -> bool:
    """The message says a number is expected ("a number", "numeric", "float", "decimal", "real"; "número", "numérico").

    "'hot' is not a number" says a number is expected; "must not be a number", "a string, not a number", "no debe
    ser un número" say the opposite, and so does a negating subject ("nothing numeric is needed", "none of the fields
    needs a number", "ningún número hace falta", "nada numérico"). "Nothing else is accepted" and "no numeric value was
    given" still ask for one.

    >>> asks_for_a_number("value: Input should be a valid number"), asks_for_a_number("Invalid argument: value.")
    (True, False)
    >>> asks_for_a_number("value debe ser numérico"), asks_for_a_number("value no es válido")
    (True, False)
    >>> [asks_for_a_number(m) for m in ("Nothing numeric is needed.", "Ningún número hace falta.", "Nada numérico.")]
    [False, False, False]
    >>> asks_for_a_number("value must be a number; nothing else is accepted.")
    True
    """
    return re.search(_A_NUMBER, _without(_text(message), _NO_NUMBER)) is not None
