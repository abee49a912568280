# cell: lookup_country_answer
# mistake: writes the handler but never attaches it, so the ToolException escapes
# expect: lookup_country.handle_tool_error = friendly_error_handler
# expect-es: lookup_country.handle_tool_error = friendly_error_handler
def friendly_error_handler(error: ToolException) -> str:
    """Turn a ToolException into a message the model can act on."""
    return f"Country lookup failed: {error} Ask about one of those countries, or tell the user there is no data."


@tool
def lookup_country(country: str) -> str:
    """Look up the capital, population and main language of a country."""
    wanted = country.strip().casefold()
    for name, info in COUNTRIES.items():
        if name.casefold() == wanted:
            return f"{name}: capital {info['capital']}, population {info['population']}, language {info['language']}."
    raise ToolException(f"Unknown country {country!r}. Available countries: {', '.join(sorted(COUNTRIES))}.")
