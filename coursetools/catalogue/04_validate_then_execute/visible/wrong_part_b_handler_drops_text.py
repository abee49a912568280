# cell: lookup_country_answer
# mistake: the handler replaces the error's text with advice, so the model never learns which countries exist
# expect: keeps the error's text
# expect-es: conserve el del error
def friendly_error_handler(error: ToolException) -> str:
    """Turn a ToolException into a message the model can act on."""
    return "Country lookup failed. Ask about another country, or tell the user there is no data."


@tool
def lookup_country(country: str) -> str:
    """Look up the capital, population and main language of a country."""
    wanted = country.strip().casefold()
    for name, info in COUNTRIES.items():
        if name.casefold() == wanted:
            return f"{name}: capital {info['capital']}, population {info['population']}, language {info['language']}."
    raise ToolException(f"Unknown country {country!r}. Available countries: {', '.join(sorted(COUNTRIES))}.")


lookup_country.handle_tool_error = friendly_error_handler
