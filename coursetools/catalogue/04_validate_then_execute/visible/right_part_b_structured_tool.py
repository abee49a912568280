# cell: lookup_country_answer
# mistake: none: a dict keyed by lower-case name, StructuredTool.from_function with the handler given at construction
from langchain_core.tools import StructuredTool


def friendly_error_handler(error: ToolException) -> str:
    """Turn a ToolException into a message the model can act on."""
    return "%s -- please pick a country from that list, or say that no data is available." % error


_BY_KEY = {name.lower(): name for name in COUNTRIES}


def _lookup(country: str) -> str:
    """Look up the capital, population and main language of a country."""
    name = _BY_KEY.get(country.strip().lower())
    if name is None:
        raise ToolException("No data for %r; known countries: %s" % (country, ", ".join(COUNTRIES)))
    facts = COUNTRIES[name]
    return "%s | capital: %s | population: %s | language: %s" % (name, facts["capital"], facts["population"], facts["language"])


lookup_country = StructuredTool.from_function(func=_lookup, name="lookup_country", handle_tool_error=friendly_error_handler)
