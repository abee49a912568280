# cell: resilient_invoke_answer
# A correct alternative worded in plain words: "the connection was lost" for ConnectionError, a long Retry-After
# as number words ("try again in two minutes", "in forty-five seconds"), the attempts in digits. Full marks in
# both editions.
import random
import time

CODES = {408, 429, 500, 502, 503, 504, 529}
SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}


def in_words(n):
    if n < 20:
        return SMALL[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else "-" + SMALL[n % 10])
    return str(n)


def how_long(seconds):
    whole = int(seconds)
    if whole != seconds:
        return f"{seconds:g} seconds"
    if whole % 60 == 0:
        minutes = whole // 60
        return f"{in_words(minutes)} minute{'s' if minutes != 1 else ''}"
    return f"{in_words(whole)} second{'s' if whole != 1 else ''}"


def describe(err):
    if type(err) is ConnectionError:
        return "the connection was lost"
    return f"{type(err).__name__}: {err}"


def resilient_invoke(tool, args: dict, max_attempts: int = 3, base_delay: float = 1.0,
                     *, max_delay: float = 30.0, sleep=time.sleep) -> dict:
    start = time.perf_counter()

    def done(ok, res, n):
        return {"success": ok, "result": res, "attempts": n, "elapsed_ms": (time.perf_counter() - start) * 1000.0}

    for n in range(max_attempts):
        try:
            return done(True, tool.invoke(args), n + 1)
        except Exception as exc:
            err = exc
        transient = isinstance(err, (ConnectionError, TimeoutError)) or getattr(err, "status_code", None) in CODES
        if not transient:
            return done(False, f"{tool.name}: {describe(err)}. Permanent error, not retried.", n + 1)
        if n + 1 == max_attempts:
            break
        ra = getattr(err, "retry_after", None)
        if isinstance(ra, (int, float)) and not isinstance(ra, bool):
            if ra > max_delay:
                return done(False, f"{tool.name} is rate limited; try again in {how_long(ra)}.", n + 1)
            sleep(ra)
        else:
            e = min(max_delay, base_delay * 2 ** n)
            sleep(random.uniform(e / 2, e))
    return done(False, f"{tool.name}: {describe(err)}, {max_attempts} attempts made.", max_attempts)
