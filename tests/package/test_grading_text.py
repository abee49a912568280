"""toolfaults.grading_text: every common phrasing of a meaning passes, other messages do not.

The exercises' tests judge messages with these matchers (COURSE_SPEC §5: tests check
meaning, not one wording), so each matcher is proved here on the phrasings a learner
writes and on the messages of the catalogued wrong answers.
"""

from __future__ import annotations

import pytest

from toolfaults import grading_text as gt


def check(matcher, accepted, rejected, *args):
    wrongly_rejected = [m for m in accepted if not matcher(m, *args)]
    wrongly_accepted = [m for m in rejected if matcher(m, *args)]
    assert not wrongly_rejected, f"{matcher.__name__} rejects: {wrongly_rejected}"
    assert not wrongly_accepted, f"{matcher.__name__} accepts: {wrongly_accepted}"


def test_all_failed():
    check(gt.says_all_failed, [
        "All 3 sources failed: primary_api (ConnectionError), mirror_api, local_cache.",
        "all sources failed",
        "every source failed",
        "Every source failed (primary_api, mirror_api, local_cache)",
        "none of the sources answered",
        "no source could answer",
        "We can't reach any of the sources.",
        "No answer: primary_api, mirror_api and local_cache are down.",
        "Could not get an answer from any source (primary_api, mirror_api, local_cache).",
        "Each of primary_api, mirror_api and local_cache raised an error.",
        "Tried primary_api, mirror_api, local_cache: all of them failed.",
    ], [
        "Answer from backup_api. Tried before it and failed: primary_api, mirror_api.",
        "primary_api, mirror_api, local_cache",
        "Sources tried: primary_api, mirror_api, local_cache.",
    ])


def test_may_be_stale():
    check(gt.says_may_be_stale, [
        "local_cache is a cache: this answer may be stale.",
        "This may be outdated.",
        "Data from local_cache might be out of date.",
        "Served from the cache; it may be old.",
        "Cached answer, check before relying on it.",
        "The answer may not be up to date.",
        "This result could have changed since it was stored.",
    ], [
        "Answer from primary.",
        "Answer from live_api. Tried before it and failed: cache (ConnectionError).",
        "Answer from live_api; the cache failed first.",
    ])


def test_all_failed_other_words():
    """Raised exceptions, "none worked", "nobody answered", "chain exhausted" all say that every source failed."""
    check(gt.says_all_failed, [
        "All sources raised exceptions: primary_api, mirror_api, local_cache.",
        "Tried every source; none worked: primary_api, mirror_api, local_cache.",
        "None answered: primary_api, mirror_api.", "None of them responded (alpha, beta).", "none succeeded: alpha, beta",
        "Fallback chain exhausted, nobody answered: primary_api, mirror_api, local_cache.",
        "Every source errored: alpha, beta.", "All sources threw an exception (alpha, beta).",
        "Each source raised an error: alpha, beta.", "Ran out of sources: alpha and beta.",
        "Se probaron todas las fuentes sin éxito: primary_api, mirror_api, local_cache.",
    ], [
        # a success that names the sources that raised before it
        "Answer from backup_api after primary_api raised an exception.",
        "backup_api answered; primary_api raised ConnectionError and mirror_api raised TimeoutError.",
        "Answer from primary_api. Failed sources: none.",
        "Respuesta de primary_api. Fuentes fallidas: ninguna.",
        "Respuesta de backup_api; antes primary_api lanzó una excepción.",
    ])


def test_may_be_stale_other_words_and_a_cache_that_failed():
    """A warning in other words passes; naming a cache the chain fell back from is no warning."""
    check(gt.says_may_be_stale, [
        "local_cache is a cache, so the answer is possibly old.",
        "Answer from local_cache: this could be an older copy that may not reflect recent changes.",
        "This may be out of date.", "It might not be current.", "Probably stale.", "Possibly outdated.",
        "It may not reflect the latest data.", "Served from cache.", "This comes from a cache and may be old.",
        "Respuesta de local_cache: puede que la respuesta no sea la más reciente.",
    ], [
        "Answer from live_api, after falling back from cache (failed).",
        "Answer from live_api; fell back from the cache, which failed.",
        "Answer from cache.", "Answer from the cache.", "Answer from live_api, which is current.",
    ])


@pytest.mark.parametrize(("message", "seconds"), [
    ("try again in 120 s", 120), ("Retry after 120.0 seconds.", 120), ("wait 2 minutes", 120),
    ("Rate limited: retry in 2min.", 120), ("Retry-After is 120000 ms.", 120), ("wait 11 seconds", 11),
    ("The service asked to wait 45 s (more than max_delay 2.5 s): try again in 45 seconds.", 45),
    ("try again in 0.75 minutes", 45), ("Retry after 1,200 seconds", 1200),
])
def test_when_to_retry_accepts(message, seconds):
    assert gt.says_when_to_retry(message, seconds)


@pytest.mark.parametrize(("message", "seconds"), [
    ("try again later", 120), ("Too many requests (max_delay is 30 s).", 120), ("wait 1200 s", 120),
    ("wait 12 s", 120), ("retry after 2 seconds", 120),
])
def test_when_to_retry_rejects(message, seconds):
    assert not gt.says_when_to_retry(message, seconds)


def test_names_a_field_anywhere():
    check(gt.names, ["value: Input should be a valid number", "Value must be a number.",
                     "The argument 'value' is missing.", "bad input for value"],
          ["Tool input validation error", "Invalid arguments: expected a number from -100 to 1000."], "value")
    check(gt.names, ["from_scale must be C or F", "From scale: use C or F", "from-scale is missing"],
          ["scale must be C or F"], "from_scale")


def test_names_error():
    check(gt.names_error, ["ConnectionError: search API unreachable", "connection error after 3 attempts",
                           "the search API unreachable, 3 attempts"],
          ["web_search failed after 3 attempts.", "a network problem"], ConnectionError("search API unreachable"))
    check(gt.names_error, ["KeyError 'temp_c'", "missing key temp_c"], ["the tool failed"], KeyError("temp_c"))
    # the kind in plain English, as the Spanish table already allowed ("conexión fallida")
    check(gt.names_error, ["web_search: the connection failed, 3 attempts in a row.", "could not connect to the API",
                           "Connection lost after 3 attempts."],
          ["web_search failed after 3 attempts.", "the tool timed out"], ConnectionError("reset by peer"))
    check(gt.names_error, ["the search timed out", "web_search took too long to answer"], ["the search failed"],
          TimeoutError("no answer in 5 s"))
    check(gt.names_error, ["permission denied", "access denied by the server"], ["the file could not be read"],
          PermissionError("/etc/shadow"))


def test_says_number():
    check(gt.says_number, ["after 3 attempts", "tried three times", "Three attempts failed", "(3/3)"],
          ["after 13 attempts", "after 2 attempts", "3.5 s", "no attempts"], 3)


def test_internal_and_not_the_arguments():
    check(gt.says_internal_failure, [
        "web_search failed internally (RuntimeError).", "Internal error in the tool.", "The tool crashed.",
        "Something went wrong inside the tool.", "A bug in web_search stopped it.", "The failure is on the tool's side.",
    ], ["Invalid arguments in the tool call.", "web_search failed: RuntimeError", "Unknown tool."])
    check(gt.says_not_the_arguments, [
        "This is not a problem with the arguments.", "Your arguments were fine.", "The input is valid; the tool broke.",
        "It has nothing to do with the parameters you sent.", "Do not retry with other arguments.",
        "Changing the arguments won't help.",
    ], ["Invalid arguments for web_search: fix them and call it again.", "web_search failed (RuntimeError).",
        "The arguments are invalid."])
    check(gt.says_internal_failure, [
        "web_search failed on its end (RuntimeError).", "The tool itself broke.", "The failure is on their end.",
        "An unexpected error happened in web_search.",
    ], ["web_search failed (RuntimeError).", "Unexpected argument 'foo'.", "Invalid arguments in the tool call."])
    check(gt.says_not_the_arguments, [
        "Calling it with other arguments will not fix it.", "Your input was fine.", "Other values won't help.",
        "Different arguments would not make a difference.", "Do not vary the arguments.", "Don't change your arguments.",
        "The arguments weren't the issue.", "The arguments are not at fault.", "Nothing is wrong with your arguments.",
    ], [
        # the arguments ARE the problem
        "The arguments are not valid.", "The tool did not accept the arguments.", "Invalid arguments: give a valid city.",
        "Invalid arguments for web_search: query must be a valid string.",
        "Retrying with the same arguments will not fix it: correct the 'city' field.",
        "Could not run web_search with these arguments.",
    ])


def test_no_result_and_do_not_repeat():
    check(gt.says_no_result, ["(no result)", "The tool returned nothing.", "Empty result.", "No data.",
                              "The tool ran but did not return anything.", "[no output]"],
          ["None", "null", "''", "Done."])
    check(gt.says_do_not_repeat, ["Do not repeat this call.", "Don't call it again.", "Stop calling get_weather.",
                                  "Blocked: this exact call already failed twice.", "Do not retry: it failed twice."],
          ["Unknown city 'Atlantis'. Known cities: Madrid, Tokyo.", "get_weather failed."])
    check(gt.says_no_result, ["(no return value)", "Nothing returned.", "The tool returned no data.", "empty result"],
          ["None", "null", "Done."])
    check(gt.says_do_not_repeat, [
        "Do not call it like this any more.", "Don't try this call again.", "Never call it with these arguments.",
        "It will not be run again with them.", "No retries: it failed twice.", "Please do not repeat it.",
    ], [
        # the opposite: call it again
        "Invalid city: fix it and call it again.", "get_weather failed; try again later.",
        "Could not find Atlantis, please retry.",
    ])


def test_uncertain_write():
    check(gt.says_not_confirmed, [
        "The action could not be confirmed.", "send_email is unconfirmed.", "I can't tell whether it went through.", "I cannot tell whether the e-mail went out.",
        "It may or may not have happened.", "We could not verify that it was sent.", "Its outcome is uncertain.",
    ], ["The e-mail was sent.", "send_email failed: mailbox full."])
    check(gt.says_not_repeated, [
        "It was not repeated.", "I did not retry it.", "I did not send it again.", "Not re-sent, to avoid a duplicate.",
        "It was not tried a second time.", "I will not do it twice.",
    ], ["The e-mail was sent.", "send_email timed out."])
    check(gt.says_not_confirmed, [
        "send_email timed out, so whether it went through is unknown.", "Its outcome is unknown.",
        "It might have gone through.", "Perhaps it was sent.", "I have no idea whether it was sent.",
    ], ["The e-mail was sent.", "Unknown tool 'send_mail'."])
    check(gt.says_not_repeated, [
        "No further attempts were made.", "It was not retried.", "I did not resend it.", "I only tried once.",
        "Nothing was retried, to avoid a duplicate.", "To avoid doing it twice, it was not repeated.", "No retry was made.",
        "It is unconfirmed: another attempt could duplicate it.",
    ], [
        # the opposite: it was repeated
        "It was retried twice.", "I sent it again.", "Retry later.", "It could not be confirmed, so I retried it.",
    ])


def test_limit_reached():
    check(gt.says_limit_reached, [
        "Stopped: the iteration limit (5) was reached.", "Reached max_iterations without an answer.",
        "Too many steps.", "Ran out of iterations.", "Gave up after 2 iterations.", "Maximum number of iterations hit.",
    ], ["7 × 8 + 3 × 4 = 68", "No answer."])


def test_allowed_scales_and_range():
    check(gt.says_allowed_scales, [
        "Use 'C' or 'F'.", "from_scale must be C or F", "Scale must be celsius or fahrenheit.",
        "expected one of ['C', 'F']", "use c or f (any case)", "Allowed: C/F",
    ], ["Unknown scale 'K'.", "Unknown from_scale 'CF'.", "Invalid scale: Kelvin", "from_scale is wrong"])
    check(gt.names_range, [
        "give a temperature from -100 to 1000", "between −100 and 1,000", "range [-100, 1000]",
        "-100.0 ≤ value ≤ 1000.0", "from minus 100 to 1 000", "must lie in -100..1000",
        "the valid range is -100 – 1000 °C", "-100–1000", "-100 °C - 1000 °C", "-100 — 1000",
    ], ["out of range", "from 100 to 1000", "from -100 to 100", "-1001000", "from -1000 - 1000"], -100, 1000)


def test_docstring_examples_pass():
    import doctest

    result = doctest.testmod(gt, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 10, result


def test_safe_agent_loop_wordings_a_red_team_found():
    """Right answers of exercise 07 worded otherwise (they must pass), and near misses that say the opposite."""
    check(gt.says_internal_failure, [
        "web_search itself failed (RuntimeError).", "web_search raised an unexpected RuntimeError.",
        "web_search failed on the server.", "It was a system error.", "web_search failed on its own.",
        "web_search failed at its end.", "The tool had a problem of its own.", "The tool itself crashed.",
    ], [
        "web_search failed (RuntimeError).", "Unexpected argument 'foo'.", "Unexpected keyword argument 'town'.",
        "The arguments themselves are invalid.", "The query itself is empty: give one.", "Invalid arguments in the tool call.",
        "The server rejected the arguments.",
    ])
    check(gt.says_not_the_arguments, [
        "The problem is not the arguments.", "It was not your arguments.", "The cause is not in the arguments.",
        "The issue isn't your input.", "It's not the arguments: the tool broke.",
    ], [
        "The problem is the arguments.", "The problem is in the arguments: fix 'city'.",
        "It is not the arguments the tool expects.", "These are not the right arguments.",
        "It was not valid arguments.", "The cause is invalid arguments.",
    ])
    check(gt.says_not_repeated, [
        "I did not make a second attempt.", "A retry could send it twice, so I stopped.", "There was a single attempt.",
        "It was attempted once.", "I did not make another attempt.",
    ], [
        "It was retried twice.", "It was attempted once more.", "I tried once, then again.", "I made a second attempt.",
        "It was retried: a single attempt was not enough.", "I sent it again.",
    ])
    check(gt.says_not_confirmed, [
        "The e-mail may already be sent.", "Nobody knows if it went out.", "No one can tell whether it was sent.",
    ], ["The e-mail was sent.", "The e-mail may be sent later.", "Everybody knows it was sent."])
    check(gt.says_do_not_repeat, [
        "get_weather already failed twice with exactly these arguments; stop asking for it.",
        "Not run: this exact call already failed twice. Do not send it a third time.",
        "Already failed twice with these arguments; try something else.",
    ], [
        "Unknown city; try something else.", "Send it a third time.", "It failed; try again.",
        "Try something else or call it again.",
    ])
    check(gt.says_no_result, ["(blank result)", "(null)", "[none]", "The tool returned a blank answer."],
          ["null", "None", "Done.", "The value is null-safe"])


def test_names_error_other_plain_words_05():
    check(gt.names_error, ["web_search still failing after 3 attempts (the connection to the service failed).",
                           "the connection was lost", "The connection with the API was interrupted."],
          ["web_search failed after 3 attempts.", "the connection to the service was fine; the tool failed"],
          ConnectionError("search API unreachable"))
    check(gt.names_error, ["the call hit a time-out", "Timeout after 3 attempts"], ["the search failed"],
          TimeoutError("the weather API did not answer in time"))
    check(gt.names_error, ["web_search: the tool is not authorized to do that.", "Unauthorized."],
          ["the file could not be read"], PermissionError("access denied"))


def test_says_number_as_an_ordinal_attempt():
    check(gt.says_number, ["it failed again on the third and last attempt", "failed for the third time"],
          ["on the first attempt", "third", "the third source", "after 13 attempts"], 3)


@pytest.mark.parametrize(("message", "seconds"), [
    ("try again in two minutes", 120), ("wait forty-five seconds", 45), ("wait eleven seconds", 11),
    ("retry in a hundred and twenty seconds", 120), ("try again in 0:02:00 (h:mm:ss)", 120),
    ("try again in 0:00:45", 45), ("try again in 2 hours", 7200), ("retry in an hour", 3600),
])
def test_when_to_retry_accepts_words_clock_and_hours(message, seconds):
    assert gt.says_when_to_retry(message, seconds)


@pytest.mark.parametrize(("message", "seconds"), [
    ("try again in two seconds", 120), ("one more try later", 120), ("try again in 0:00:30", 120),
    ("try again in two hours", 120),
])
def test_when_to_retry_rejects_other_words_and_clocks(message, seconds):
    assert not gt.says_when_to_retry(message, seconds)


def test_all_failed_wordings_a_red_team_found():
    """Exercise 06's right answers: "both", "everything", "0 of 3", "could not get an answer", "the whole chain"."""
    check(gt.says_all_failed, [
        "Both sources failed: alpha (RuntimeError) and beta (ValueError).",
        "Everything failed: primary_api (ConnectionError), mirror_api (TimeoutError). Tell the user.",
        "0 of 3 sources answered: primary_api, mirror_api, local_cache.",
        "Could not get an answer from primary_api, mirror_api or local_cache.",
        "The whole fallback chain failed: primary_api, mirror_api, local_cache.",
        "Neither alpha nor beta answered.", "None of primary_api or mirror_api answered.",
    ], [
        # the opposite: nothing failed
        "None of the sources failed: primary_api (ConnectionError), mirror_api (TimeoutError), local_cache (KeyError).",
        "All sources answered without error: primary_api, mirror_api, local_cache.",
        "No source failed.", "Answer from primary; no source failed.", "0 sources failed.", "Neither alpha nor beta failed.",
        "Answer from primary. Failed sources: none.",
    ])


def test_no_source_answered_is_said_of_the_sources():
    """The stricter matcher for a success's message: an empty result ("no results", "no data") is no claim about the sources."""
    check(gt.says_no_source_answered, [
        "primary returned nothing: no source could answer.", "All sources failed.", "Every source failed: a, b.",
        "None of the sources answered.", "Both sources failed.", "Everything failed.", "0 of 3 sources answered.",
    ], [
        "Answer from primary: an empty result (no results, no data).",
        "primary answered with an empty string; it did not return any text.",
        "Answer from primary. No source failed.", "None of the sources failed.",
        "All sources answered without error: a, b.",
        "Answer from primary (no fallback needed).", "Answer from primary; I didn't need any fallback.",
        "Answer from primary. No other source was asked.", "Answer from primary (empty answer; nothing found).",
    ])


def test_may_be_stale_wordings_a_red_team_found():
    """Other words for age pass; said negated ("not stale", "not cached", "fresh") they do not."""
    accepted = [
        "local_cache is a cache: this answer may be several hours old.",
        "local_cache is a cache: its copy may lag behind the live source.",
        "local_cache is a cache: a saved copy that may no longer match the live data.",
        "local_cache is a cache: cache entries can be old, so tell the user.",
        "It may or may not be stale.",
    ]
    rejected = [
        "local_cache is a cache with fresh data: it is not stale.",
        "Answer from primary (live data, not cached).", "The data is fresh.", "This answer isn't stale.",
        "It does not come from a cache.", "Answer from primary (no staleness warning needed).",
        "Answer from primary: live, so not outdated.",
    ]
    check(gt.says_may_be_stale, accepted, rejected)
    check(gt.says_data_may_be_old, accepted, rejected)


def test_data_may_be_old_needs_words_about_age():
    """Naming a cache ("the cached copy", "served from cache") is no warning of age: a live answer may say it."""
    check(gt.says_data_may_be_old, [
        "local_cache is a cache: this answer may be stale.", "This may be outdated.", "It might not be current.",
        "Possibly old data.", "This result could have changed since it was stored.",
    ], [
        "Answer from live_api. Tried before it and failed: cache (ConnectionError, the cached copy).",
        "Answer from live_api; the cached copy failed first.", "Served from cache.", "Answer from primary.",
    ])


def test_range_in_words_and_typography():
    check(gt.names_range, [
        "from minus one hundred to one thousand degrees", "between minus 100 and a thousand", "−100 to 1\u2009000",
        "from -100 to 1\u202f000 °C", "from \u2212100 to 1\u00a0000", "negative one hundred to one thousand",
    ], ["from one hundred to one thousand", "between one hundred and one thousand", "from minus ten to one thousand",
        "from -100 to 1\u2009001"], -100, 1000)
    check(gt.says_allowed_scales, ["use centigrade (C) or fahrenheit (F)", "centigrade or fahrenheit"],
          ["use centigrade", "Unknown scale 'K'."])


def test_names_value():
    check(gt.names_value, ["value 5000 is out of range", "value 5000.0 is too high", "5,000 is too hot",
                           "value 5 000 is not allowed", "five thousand degrees is too much"],
          ["Out of range: from -100 to 1000.", "value 500 is out of range", "value 50000 is out of range"], 5000)
    check(gt.names_value, ["value nan is not a number", "value inf is not finite", "infinity is not a temperature",
                           "the value is not a finite number", "non-finite value"],
          ["Out of range: from -100 to 1000.", "value out of range"], float("inf"))


def test_asks_for_a_number():
    check(gt.asks_for_a_number, [
        "value: Input should be a valid number, unable to parse string as a number", "value must be numeric",
        "value must be a float", "value: give a decimal temperature", "value must be a real number",
    ], ["Invalid argument: value.", "value is invalid", "Please fix value and try again."])


# Every matcher, said the opposite way. A matcher reads a meaning, so a sentence that says the opposite must fail
# ("The payment was confirmed" is no "not confirmed", "not all sources failed" no "all failed", "the tool did not
# crash" no internal failure), and the right meaning must pass however it is worded, negations included ("not a
# single source answered" says that all failed, "your arguments did not cause this internal error" that it is
# internal). The Spanish table is in test_grading_text_es.py.
OPPOSITES = {
    "says_all_failed": ([
        "All sources failed.", "Every source failed: alpha, beta.", "None of the sources answered.", "No source could answer.",
        "Not a single source answered.", "Nobody answered: alpha, beta.", "All sources failed, but do not guess an answer.",
        "Each source raised an error.", "Could not get an answer from any source.", "Tried alpha, beta and gamma: all of them failed.",
    ], [
        "Not all sources failed: mirror_api answered.", "Not every source failed.", "All sources but mirror_api failed.",
        "All sources failed except mirror_api.", "Every source except local_cache failed.",
        "All the others failed; mirror_api answered.", "Every other source failed; mirror_api answered.", "Nobody failed.",
        "No source was unavailable.", "It did not fail: all sources answered.", "None of the sources had an error.",
        "None of the sources failed.", "All sources answered without error.",
    ]),
    "says_no_source_answered": ([
        "All sources failed.", "None of the sources answered.", "No source could answer.", "Not a single source answered.",
    ], [
        "Not all sources failed: mirror_api answered.", "All sources but mirror_api failed.", "Nobody failed.",
        "None of the sources had an error.", "Answer from primary (no fallback needed).",
    ]),
    "says_may_be_stale": ([
        "This may be outdated.", "It might not be current.", "It is no longer current.", "Possibly out of date.",
        "Served from the cache.", "It may or may not be stale.",
    ], [
        "This cannot be outdated.", "It is up to date.", "Not stale at all.", "It can't be stale: live data.",
        "Live, so it isn't out of date.", "It is never outdated.", "It is not from a cache.",
    ]),
    "says_data_may_be_old": ([
        "This may be outdated.", "It is no longer current.", "Possibly old data.",
    ], [
        "This cannot be outdated.", "It is up to date.", "It can't be stale: live data.", "Served from the cache.",
    ]),
    "says_internal_failure": ([
        "Internal error in web_search.", "The tool crashed.", "Not your arguments: an internal error.",
        "Your arguments did not cause this internal error.", "It is not your fault; the tool itself broke.",
    ], [
        "This is not an internal error: your arguments were invalid.", "The tool did not crash; your input was wrong.",
        "The tool is not broken; fix the city.", "No bug here: the argument is wrong.", "Nothing broke; the city is unknown.",
        "Not a server-side problem: check your arguments.",
        "The failure is not on the tool's side: your arguments are wrong.",
    ]),
    "says_not_the_arguments": ([
        "Not a problem with your arguments.", "Your arguments were fine.", "It's not your arguments, it's the tool.",
        "Other arguments will not help.",
    ], [
        "It's not a problem with the tool, it's your arguments.", "Not caused by the tool: your arguments are wrong.",
        "The arguments are the problem.", "The problem is not the tool but your arguments.",
        "Your arguments are wrong, the tool is fine.", "Other arguments will help.",
    ]),
    "says_no_result": ([
        "(no result)", "The tool returned nothing.", "Empty result.", "Nothing found.", "The result is empty, not an error.",
    ], [
        "The result is not empty: 3 rows.", "Nothing went wrong: 42.", "It returned a non-empty list.", "Not blank: 42",
        "The tool returned data.",
    ]),
    "says_do_not_repeat": ([
        "Do not call it again.", "Never retry this call.", "Stop calling it with these arguments.",
        "No retries: it failed twice.", "Don't try this call again.", "Do not repeat it; try something else.",
    ], [
        "Call it again with the same arguments.", "Retry with the same arguments.", "Don't hesitate to retry.",
        "Do not wait to retry.", "It didn't work so try again.", "Nothing wrong with retrying.",
        "Do not change anything and call it again.", "Don't stop retrying.",
    ]),
    "says_not_confirmed": ([
        "It could not be confirmed.", "Unconfirmed.", "No confirmation came back.", "We could not verify it.",
        "Whether it was sent is unknown.", "It is not yet confirmed.", "It may or may not have been sent.",
    ], [
        "The payment was confirmed.", "Confirmed: the e-mail was sent.", "I verified that it was sent.",
        "It went through, I can confirm it.", "Confirmation received.", "There is no uncertainty: it was sent.",
        "No need to confirm: it was sent.", "Nothing went wrong and it was confirmed.", "No error: the send was confirmed.",
    ]),
    "says_not_repeated": ([
        "It was not retried.", "I did not send it again.", "Nothing was retried.", "I decided not to retry.",
        "To avoid a duplicate, I did not resend it.", "I only tried once.",
    ], [
        "It was retried.", "Since it wasn't confirmed I retried it.", "It could not be confirmed so I sent it again.",
        "I did not wait and retried.", "I didn't hesitate to retry it.", "A second attempt was made and caused a duplicate.",
        "I only tried once more.",
    ]),
    "says_limit_reached": ([
        "Stopped: iteration limit reached.", "No answer within the limit of 5 iterations.", "Too many steps.",
        "Did not find an answer before hitting the limit.",
    ], [
        "The limit was not reached.", "Answer found in 2 steps, well within the limit.", "Did not hit the iteration limit.",
        "Not too many steps: 2.", "Under the limit: 2 of 5 iterations.",
    ]),
    "says_allowed_scales": ([
        "Use C or F, not K.", "'K' is not C or F: use one of them.", "Only C or F are accepted.",
    ], [
        "C and F are not allowed.", "Neither C nor F is supported.", "The tool does not accept C or F.",
    ]),
    "asks_for_a_number": ([
        "'hot' is not a number.", "value must be a number, not a string.",
    ], [
        "value must not be a number.", "value must be a string, not a number.", "No number needed.",
    ]),
}
# The matchers whose meaning has arguments: the opposite of a number, a range or an error is another one; for a
# wait it is "do not wait"; a field's name anywhere passes (COURSE_SPEC §5), so naming has no opposite but absence.
OPPOSITES_WITH_ARGS = {
    "names": [(("value",), ["value is fine", "The value field is not the problem."], ["the temperature is wrong"])],
    "names_error": [
        ((ConnectionError("x"),), ["Connection error after 3 attempts.", "Could not connect to the API.",
                                   "Not a timeout: the connection failed.", "No connection to the server."],
         ["Not a connection error: the tool timed out.", "No connection error; it timed out.", "It was not a ConnectionError.",
          "The connection was not lost."]),
        ((TimeoutError("y"),), ["The call timed out.", "It did not answer in time."],
         ["It did not time out; the connection failed.", "The request never timed out."]),
    ],
    "says_number": [((3,), ["after 3 attempts", "not after 2 but after 3 attempts"], ["after 2 attempts", "after 13 attempts"])],
    "says_when_to_retry": [((120,), [
        "Try again in 2 minutes.", "Do not retry before 2 minutes.", "Not before 120 seconds.", "Don't wait less than 2 minutes.",
        "Wait 120 s; do not retry sooner.",
    ], [
        "Don't wait 2 minutes: retry now.", "No need to wait 120 seconds.", "Retry now, not in 2 minutes.", "Try again later.",
    ])],
    "names_range": [((-100, 1000), ["5000 is not between -100 and 1000."], ["5000 is not between 100 and 1000."])],
    "names_value": [
        ((5000,), ["5000 is not allowed."], ["500 is not allowed."]),
        ((float("inf"),), ["The value is not finite.", "value inf is not a temperature"],
         ["The value is not infinite.", "The value is finite."]),
    ],
}


def test_every_matcher_has_opposites():
    """Each matcher of toolfaults.grading_text is proved on opposites here (and in Spanish in test_grading_text_es.py)."""
    missing = set(gt.__all__) - set(OPPOSITES) - set(OPPOSITES_WITH_ARGS)
    assert not missing, f"no opposites for {sorted(missing)}"


# Phrasings written after the matchers above were tuned, and run once as a held-out check (issue 45): 20 right and
# 20 opposite sentences per language. English: 20/20 right ones passed and 16/20 opposites were rejected on that
# run; the four misses were "None of the providers reported an error" (any verb before "an error" now counts),
# "There is no reason not to retry it" (a double negation), "The search did not come back empty" (a linking verb
# between the negation and "empty"), and a names_error case that only passed because the check used an exception
# whose text was one letter ("t" is in any message). Kept here so they stay right.
HELD_OUT = [
    ("says_not_confirmed", "send_email timed out before replying, so we cannot be certain the message left the outbox.", True),
    ("says_not_confirmed", "No acknowledgement arrived, and there is no confirmation that the transfer happened.", True),
    ("says_not_confirmed", "The booking may have been created; the server never confirmed it.", True),
    ("says_not_repeated", "I left it at one attempt so the customer is not charged twice.", True),
    ("says_not_repeated", "The payment was not submitted a second time.", True),
    ("says_all_failed", "Every one of the three providers returned an error.", True),
    ("says_all_failed", "None of primary, mirror or cache could produce an answer.", True),
    ("says_all_failed", "The lookup failed everywhere: primary, mirror and cache all raised.", True),
    ("says_may_be_stale", "Heads-up: this figure was read from a saved copy and might be out of date.", True),
    ("says_may_be_stale", "The cached value may have changed since it was stored.", True),
    ("says_internal_failure", "The calculator tool hit a bug of its own and stopped.", True),
    ("says_not_the_arguments", "Nothing about your input caused this; sending different values won't fix it.", True),
    ("says_do_not_repeat", "Please don't send this exact request again.", True),
    ("says_do_not_repeat", "Do not retry get_weather for Atlantis.", True),
    ("says_no_result", "The lookup came back empty.", True),
    ("says_limit_reached", "I stopped because the maximum number of steps was used up.", True),
    ("names_error", "The weather service took too long and the call was abandoned.", True, TimeoutError("read timed out")),
    ("names_error", "We lost the connection to the search API three times.", True, ConnectionError("search API unreachable")),
    ("says_when_to_retry", "Rate limited: please wait 90 seconds before calling again.", True, 90),
    ("asks_for_a_number", "temperature has to be numeric, e.g. 21.5", True),
    ("says_not_confirmed", "The bank confirmed the transfer a moment ago.", False),
    ("says_not_confirmed", "We have verified delivery: the message is in the recipient's inbox.", False),
    ("says_not_confirmed", "There is no doubt the booking was created.", False),
    ("says_not_repeated", "After the timeout I resent the e-mail to be safe.", False),
    ("says_not_repeated", "Because nothing came back, the request was submitted again.", False),
    ("says_all_failed", "Not every provider failed: the cache still answered.", False),
    ("says_all_failed", "Every provider except the mirror raised an error; the mirror answered.", False),
    ("says_all_failed", "None of the providers reported an error.", False),
    ("says_may_be_stale", "This value is fresh from the live API, not a stale copy.", False),
    ("says_may_be_stale", "The data can't be out of date: it was fetched a second ago.", False),
    ("says_internal_failure", "The tool is working correctly; the city you gave does not exist.", False),
    ("says_internal_failure", "There was no crash: the date you passed is in the past.", False),
    ("says_not_the_arguments", "The tool is fine, but your arguments are not.", False),
    ("says_do_not_repeat", "Don't give up: call it once more with the corrected city.", False),
    ("says_do_not_repeat", "There is no reason not to retry it.", False),
    ("says_no_result", "The search did not come back empty: 12 hits.", False),
    ("says_limit_reached", "Done in three steps, far below the iteration limit.", False),
    ("names_error", "The service answered in time; the error was a refused connection.", False, TimeoutError("read timed out")),
    ("says_when_to_retry", "There's no need to wait 90 seconds; you may call again immediately.", False, 90),
    ("asks_for_a_number", "temperature should be a word like 'warm', not a number.", False),
]


def test_held_out_phrasings():
    wrong = [(matcher, message) for matcher, message, means, *args in HELD_OUT
             if getattr(gt, matcher)(message, *args) != means]
    assert not wrong, f"judged the wrong way: {wrong}"


# A negating subject or determiner ("nothing", "none of", "no part of", "never") denies its whole clause, verb and
# all, as "not" denies what follows it: "nothing failed internally" is no internal failure, nor is "it did not fail
# internally". But the negation governs its own clause only: "nothing you did caused it: the tool crashed internally"
# and "no data came back because the service crashed" still say the tool failed. Each matcher that reads negation
# is proved both ways; the Spanish table is in test_grading_text_es.py.
NEGATING_SUBJECTS = {
    "says_internal_failure": ([
        "Internal error in web_search.", "web_search crashed.", "Your arguments did not cause this internal error.",
        "Nothing you did caused it: the tool crashed internally.", "No data came back because the service crashed.",
        "Nothing you did caused this; it is an internal error.", "Nothing you did broke it; the tool crashed internally.",
        "Nothing failed until the server crashed internally.", "It did not fail because of your input; it failed internally.",
        "The call did not fail on your side, it crashed on the server.", "No results due to an internal error.",
        "Nothing from the server due to an internal error.", "None of your arguments caused this crash.",
        "Nothing is wrong with your request but the tool crashed.", "No argument was wrong; something failed inside the tool.",
        "It did not fail on the first call but it crashed internally on the second.",
        "None of your arguments are at fault: internal error.", "The tool crashed; nothing you can fix.",
        "It's nobody's fault: the server crashed internally.", "Nobody's fault: internal error.",
        "Nobody's arguments caused this; the tool crashed internally.", "Nobody's input was wrong; the server crashed.",
        "Nobody's request was at fault: internal error.", "No one's arguments caused it: the tool crashed.",
    ], [
        "Nothing failed internally; your arguments are invalid.", "Nothing went wrong inside the tool: check the city name.",
        "No internal error occurred; your city name is invalid.", "None of this is an internal error.",
        "Nothing broke on our side; the date format is wrong.", "No part of the tool crashed: the city is unknown.",
        "None of the servers crashed; your query is empty.", "There was nothing wrong inside the tool.",
        "Never was there an internal error: fix the date.", "The tool did not fail internally: your input was wrong.",
        "It did not go wrong inside the tool; the city is misspelt.", "It never failed internally; the argument is out of range.",
        "No internal error occurred inside the tool: fix the argument.", "Nothing is wrong inside the tool; your arguments are invalid.",
        "No error happened internally: the city does not exist.", "None of the tool components failed internally.",
        "Nobody's server crashed.", "Nobody's server crashed: the city is unknown.", "No one's tool failed internally; fix the date.",
        "Nobody's code crashed inside the tool.", "Nobody's service went wrong internally.", "Nobody's system broke internally.",
    ]),
    # "Nothing numeric is needed" asks for no number; "nothing else is accepted", "nothing but a number" and "no
    # numeric value was provided" still ask for one.
    "asks_for_a_number": ([
        "Give the temperature as a number, for example 21.5", "value must be a number; nothing else is accepted.",
        "Nothing was converted: value must be a number.", "No numeric value was provided for value.",
        "Nothing but a number is accepted.", "Nothing other than a number is accepted.", "No value is valid unless it is a number.",
        "value: expected a number, got nothing numeric", "None of the values you gave is a number.",
        "Nothing else will do: value must be a float.", "No value is accepted except a number.", "value 'hot': no numeric value",
    ], [
        "Nothing numeric is needed.", "No numeric value is needed.", "None of the fields needs a number.",
        "Nothing here needs to be a number.", "No decimal is required for value.", "None of the arguments has to be numeric.",
        "Nothing numeric is accepted here.", "Nothing numeric, please.", "No float is expected: write a word.",
        "None of the values must be numeric.",
    ]),
    # "No scale is accepted, not C nor F" allows none; "no scale other than C or F is accepted", "C or F; no other scale
    # is" and "no scale (C or F) was given" still say C or F.
    "says_allowed_scales": ([
        "Only C or F are accepted; no other scale is.", "Scale must be C or F (no K).", "No scale other than C or F is accepted.",
        "No scale except C and F is allowed.", "No scale is valid if it is not C or F.", "No scale (C or F) was given.",
        "No scale given: use C or F.", "No scale but C or F works.", "No scale is accepted unless it is C or F.",
        "Nothing else is accepted: use C or F.", "Use C or F; no other scale is accepted.", "No scale is supported besides C and F.",
    ], [
        "No scale is accepted, not C nor F.", "No scale, C or F, is accepted.", "None of the scales C or F is supported.",
        "No scale is valid, C and F included.", "None is accepted: not C, not F.", "No unit, C or F, is supported here.",
        "No scale works, not C nor F.", "Nothing is accepted, not C nor F.", "No scale is accepted, not C or F.",
    ]),
    "says_may_be_stale": ([
        "No live source answered, so this cached copy may be stale.", "None of the live sources answered: it comes from the cache.",
        "Nothing fresh was available; this may be outdated.", "This may be outdated.",
    ], [
        "None of this data is stale.", "None of it was served from a cache.", "No part of it is cached.",
        "Nothing in this answer is old.",
    ]),
    "says_data_may_be_old": (["Nothing fresh was available; this may be outdated."], ["None of this data is stale."]),
    "says_no_result": ([
        "(no result)", "No results: the list is empty.", "No data came back; the result is empty.",
        "No rows came back, the output is empty.", "Nothing found.",
    ], [
        "None of the results came back empty: 42.", "No field is empty: 42.", "None of the rows is empty.",
    ]),
    "says_limit_reached": ([
        "No answer within the limit of 5 iterations.", "No steps left: the limit was reached.",
        "None of the steps found it; limit reached.", "Nothing found after 5 iterations: limit reached.",
    ], [
        "Nothing came close to the limit.", "None of the runs reached the iteration limit.", "No step went over the limit.",
    ]),
}
NEGATING_SUBJECTS_WITH_ARGS = {
    "names_error": [
        ((TimeoutError("y"),), [
            "No answer: all 3 calls timed out.", "None of the calls succeeded; they timed out.",
            "No call got an answer before the timeout.", "Nothing came back because the request timed out.",
        ], [
            "None of the calls timed out.", "Nothing ran into a timeout.", "No request ever hit a timeout.",
            "None of the attempts raised a TimeoutError.",
        ]),
        ((ConnectionError("x"),), [
            "No source answered: connection error.", "None of the calls got through: connection failed.",
        ], [
            "None of the requests had a connection error; it timed out.", "No call ran into a connection error.",
        ]),
    ],
}


#: Each table of cases, by what it proves: ``{matcher: (accepted, rejected)}`` and ``{matcher: [(args, accepted, rejected)]}``.
TABLES = {"opposite": (OPPOSITES, OPPOSITES_WITH_ARGS), "negating-subject": (NEGATING_SUBJECTS, NEGATING_SUBJECTS_WITH_ARGS)}


@pytest.mark.parametrize(("table", "matcher"), [(name, m) for name, (plain, with_args) in TABLES.items()
                                                for m in sorted({*plain, *with_args})])
def test_every_matcher_rejects_the_opposite_and_a_negated_subject(table, matcher):
    """Each matcher accepts what says it and rejects what says the opposite, a clause denied by "nothing", "none of",
    "nada", "ningún"... included ("Nothing failed internally" is no internal failure)."""
    plain, with_args = TABLES[table]
    cases = ([((), *plain[matcher])] if matcher in plain else []) + list(with_args.get(matcher, []))
    for args, accepted, rejected in cases:
        check(getattr(gt, matcher), accepted, rejected, *args)
