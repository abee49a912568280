# cell: lookup_country_answer
# mistake: none: answers with JSON, matches names with casefold() in a generator, handler set after the decorator
import json


def friendly_error_handler(error: ToolException) -> str:
    """Turn a ToolException into a message the model can act on."""
    return "\n".join([str(error), "Next step: retry with one of the countries above, or tell the user."])


@tool
def lookup_country(country: str) -> str:
    """Look up the capital, population and main language of a country."""
    match = next((name for name in COUNTRIES if name.casefold() == country.strip().casefold()), None)
    if match is None:
        raise ToolException(f"{country!r} is not in the data. Try: {sorted(COUNTRIES)}")
    return json.dumps({"country": match, **COUNTRIES[match]}, ensure_ascii=False)


lookup_country.handle_tool_error = friendly_error_handler
