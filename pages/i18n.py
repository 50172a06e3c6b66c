"""The site's languages: English at the unprefixed paths, the others under /it/, /de/, /fr/.

The path alone decides a page's language (LocaleMiddleware with prefix_default_language=False), so
crawlers and shared links always get the page they asked for. A browser whose Accept-Language
prefers another of our languages is only offered a link to it, never redirected.
"""

from django.conf import settings
from django.urls import translate_url
from django.utils import translation
from django.utils.translation import gettext as _

from booking.formatting import LOCALES, site_path  # noqa: F401  (LOCALES: Babel's and the browser's locale per language)

OG_LOCALES = {"en": "en_GB", "it": "it_IT", "de": "de_DE", "fr": "fr_FR"}


def language_codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def current_language() -> str:
    code = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return code if code in language_codes() else settings.LANGUAGE_CODE


def lang_path(path: str, language: str | None = None) -> str:
    """A site path in a language: ("/book", "it") → "/it/book"; English keeps the path as it is."""
    return site_path(path, language or current_language())


def language_of_path(path: str) -> str:
    """ "/it/book" → "it"; an unprefixed path is English."""
    first = path.lstrip("/").split("/", 1)[0]
    return first if first in language_codes() and first != settings.LANGUAGE_CODE else settings.LANGUAGE_CODE


def alternates(request) -> list[dict]:
    """This page in every language: code, name, the absolute URL (for hreflang, no query) and the
    relative link with the query kept (for the switcher). One entry when the page has no
    translations (the pages for agents, which stay English)."""
    current = current_language()
    translated = getattr(request, "translated_languages", None)  # set by a page of owner content
    entries = []
    for code, name in settings.LANGUAGES:
        path = translate_url(request.path, code) if code != current else request.path
        entries.append(
            {
                "code": code,
                "name": name,
                "url": settings.BASE_URL + path,
                "href": path + (("?" + request.META["QUERY_STRING"]) if request.META.get("QUERY_STRING") else ""),
                "current": code == current,
                # An hreflang alternate claims a translation: none for a language the content lacks.
                "translated": translated is None or code in translated,
            }
        )
    if len({entry["url"] for entry in entries}) == 1:  # not a translated page
        return [entry for entry in entries if entry["code"] == settings.LANGUAGE_CODE]
    return entries


def preferred_language(request) -> str | None:
    """The first of the site's languages the browser's Accept-Language names: all that
    suggested_language() takes from the request (pages/caching.py keys remembered pages by it)."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    if not header:
        return None
    from django.utils.translation.trans_real import parse_accept_lang_header

    languages = {code for code, _name in settings.LANGUAGES}
    for accepted, _quality in parse_accept_lang_header(header):
        code = accepted.split("-")[0].lower()
        if code in languages:
            return code
    return None


def suggested_language(request, entries: list[dict]) -> dict | None:
    """Another language this page exists in that the browser prefers, to offer with a link."""
    if len(entries) < 2:
        return None
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    if not header:
        return None
    from django.utils.translation.trans_real import parse_accept_lang_header

    current = current_language()
    for accepted, _quality in parse_accept_lang_header(header):
        code = accepted.split("-")[0].lower()
        if code == current:
            return None  # the page is already in a language the reader asked for
        for entry in entries:
            if entry["code"] == code:
                with translation.override(code):
                    return {**entry, "text": _("This page is also available in English."), "link": _("Read it in English")}
    return None
