"""Names of languages in the reader's language, from the locale data (CLDR through Babel), never a
typed list: "en" or "English" → "inglese" (it), "Englisch" (de), "anglais" (fr). The owner types the
languages they speak as codes or names in any of the site's languages; a name the locale data does
not know is shown as typed."""

from functools import cache

from babel import Locale

from booking.formatting import LOCALES, active_language


@cache
def _names(language: str) -> dict[str, str]:
    return dict(Locale.parse(LOCALES.get(language, LOCALES["en"])).languages)


@cache
def territory_names(language: str) -> dict[str, str]:
    """ISO 3166-1 code → the country's name in `language` ("DE" → "Germania" in it)."""
    return dict(Locale.parse(LOCALES.get(language, LOCALES["en"])).territories)


@cache
def _codes_by_name() -> dict[str, str]:
    """Every language's name in every site language (lowercase) → its code."""
    known: dict[str, str] = {}
    for language in LOCALES:
        for code, name in _names(language).items():
            if "_" not in code:
                known.setdefault(name.lower(), code)
    return known


def language_code(typed: str) -> str | None:
    """ "English", "inglese", "EN", "en" → "en"; None for what the locale data does not name."""
    text = typed.strip()
    if text.lower() in _names("en") and "_" not in text:
        return text.lower()
    return _codes_by_name().get(text.lower())


def language_name(code: str, language: str | None = None) -> str:
    """ "en" → "English" (en), "inglese" (it), "Englisch" (de), "anglais" (fr)."""
    return _names(language or active_language()).get(code, code)


def spoken_languages(typed: list[str], language: str | None = None) -> list[str]:
    """The host's languages as the owner typed them ("Italian", "en", "Français"), named in the
    reader's language; what the locale data does not know stays as typed."""
    names = []
    for entry in typed:
        code = language_code(entry)
        names.append(language_name(code, language) if code else entry)
    return names
