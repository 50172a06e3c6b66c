"""Site-wide template values: the brand, the navigation and the footer's contact details.

Lazy: the property is read only by templates that show it (the admin's pages never do).
"""

from django.conf import settings
from django.db import DatabaseError
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _

from booking.catalog.selectors import get_property
from booking.errors import NotFound
from pages import i18n
from pages.models import PageKey, PageText

# After the property's own page (/{slug}, named by the owner's title for it: main_nav).
MAIN_NAV = [
    ("/availability", _("Prices & dates")),
    ("/location", _("Location")),
    ("/reviews", _("Reviews")),
    ("/blog", _("Journal")),
    ("/faq", _("FAQ")),
    ("/contact", _("Contact")),
]
AGENT_NAV = [  # these pages stay English (docs/contract.md "Languages")
    ("/api", _("Booking API")),
    ("/mcp", _("MCP tool server")),
    ("/agents", _("For AI agents")),
    ("/llms.txt", "llms.txt"),
]


def _site() -> dict:
    try:
        prop = get_property()
    except (NotFound, DatabaseError):  # not set up yet, or the database is down: a plain site name
        return {"name": "Direct booking", "brand": "Direct booking", "summary": "", "property": None}
    return {"name": prop.name, "brand": prop.name.split(" — ")[0].strip() or prop.name, "summary": prop.summary, "property": prop}


def property_page_title() -> str:
    """The heading the owner gave the property's page (in the page's language), else its default."""
    page = PageText.objects.filter(key=PageKey.PROPERTY).first()
    return (page.title if page is not None else "") or str(PageKey.PROPERTY.label)


def main_nav(site: dict, language: str) -> list[tuple[str, str]]:
    nav = [(i18n.lang_path(href, language), label) for href, label in MAIN_NAV]
    prop = site["property"]
    if prop is None:
        return nav
    try:
        title = property_page_title()
    except DatabaseError:
        title = str(PageKey.PROPERTY.label)
    return [(i18n.lang_path(f"/{prop.slug}", language), title), *nav]


def site(request):
    language = i18n.current_language()
    alternates = SimpleLazyObject(lambda: i18n.alternates(request))
    site_values = SimpleLazyObject(_site)
    return {
        "BASE_URL": settings.BASE_URL,
        "SITE": site_values,
        "LANG": language,
        "LANG_PREFIX": i18n.lang_path("/", language).rstrip("/"),
        "OG_LOCALE": i18n.OG_LOCALES.get(language, "en_GB"),
        "LANGUAGE_ALTERNATES": alternates,
        "LANGUAGE_SUGGESTION": SimpleLazyObject(lambda: i18n.suggested_language(request, alternates)),
        "MAIN_NAV": SimpleLazyObject(lambda: main_nav(site_values, language)),
        "AGENT_NAV": AGENT_NAV,
    }
