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

MAIN_NAV = [
    ("/penthouse-florence", _("The penthouse")),
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


def site(request):
    language = i18n.current_language()
    alternates = SimpleLazyObject(lambda: i18n.alternates(request))
    return {
        "BASE_URL": settings.BASE_URL,
        "SITE": SimpleLazyObject(_site),
        "LANG": language,
        "LANG_PREFIX": i18n.lang_path("/", language).rstrip("/"),
        "OG_LOCALE": i18n.OG_LOCALES.get(language, "en_GB"),
        "LANGUAGE_ALTERNATES": alternates,
        "LANGUAGE_SUGGESTION": SimpleLazyObject(lambda: i18n.suggested_language(request, alternates)),
        "MAIN_NAV": [(i18n.lang_path(href, language), label) for href, label in MAIN_NAV],
        "AGENT_NAV": AGENT_NAV,
    }
