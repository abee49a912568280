# cell: lookup_country_answer
# mistake: looks the name up exactly as typed, so "japan" and " MEXICO " are unknown
# expect: lookup_country('japan') must mention Japan
# expect-es: debe mencionar estos datos de Japón
def friendly_error_handler(error: ToolException) -> str:
    """Turn a ToolException into a message the model can act on."""
    return f"Country lookup failed: {error} Ask about one of those countries, or tell the user there is no data."


@tool
def lookup_country(country: str) -> str:
    """Look up the capital, population and main language of a country."""
    if country not in COUNTRIES:
        raise ToolException(f"Unknown country {country!r}. Available countries: {', '.join(sorted(COUNTRIES))}.")
    info = COUNTRIES[country]
    return f"{country}: capital {info['capital']}, population {info['population']}, language {info['language']}."


lookup_country.handle_tool_error = friendly_error_handler
