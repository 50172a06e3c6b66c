"""Country names in the reader's language, from the locale data (CLDR through Babel), never a typed
list: the check-in offers countries by name and stores their ISO 3166-1 alpha-2 code, the code the
police tables (booking/italy/tables.py) map to their own. A country the locale data does not name
keeps the police table's (Italian) name."""

from booking.formatting import active_language
from booking.italy.tables import fold, tables
from booking.language_names import territory_names


def country_name(code: str, language: str | None = None) -> str:
    """ "CH" -> "Schweiz" (de), "Svizzera" (it), "Suisse" (fr), "Switzerland" (en)."""
    code = code.upper()
    name = territory_names(language or active_language()).get(code)
    if name:
        return name
    state = tables().state_for_iso(code)
    return state.name.title() if state else code


def country_choices(language: str | None = None) -> list[tuple[str, str]]:
    """(code, name) of every country the police tables know today, in the reader's alphabetical
    order (accents folded: "Österreich" among the O)."""
    language = language or active_language()
    named = [(state.iso_alpha2, country_name(state.iso_alpha2, language)) for state in tables().countries()]
    return sorted(named, key=lambda choice: fold(choice[1]))


def country_code_named(name: str, language: str | None = None) -> str | None:
    """The code of the country with this name in the reader's language ("schweiz" -> "CH"), else None."""
    wanted = fold(name)
    matches = [code for code, country in country_choices(language) if fold(country) == wanted]
    return matches[0] if len(matches) == 1 else None
