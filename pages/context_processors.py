"""Site-wide template values: the brand, the navigation and the footer's contact details.

Lazy: the property is read only by templates that show it (the admin's pages never do).
"""

from django.conf import settings
from django.db import DatabaseError
from django.utils.functional import SimpleLazyObject

from booking.errors import NotFound
from booking.selectors import get_property

MAIN_NAV = [
    ("/penthouse-florence", "The penthouse"),
    ("/availability", "Prices & dates"),
    ("/location", "Location"),
    ("/reviews", "Reviews"),
    ("/blog", "Journal"),
    ("/faq", "FAQ"),
    ("/contact", "Contact"),
]
AGENT_NAV = [
    ("/api", "Booking API"),
    ("/mcp", "MCP tool server"),
    ("/agents", "For AI agents"),
    ("/llms.txt", "llms.txt"),
]


def _site() -> dict:
    try:
        prop = get_property()
    except (NotFound, DatabaseError):  # not set up yet, or the database is down: a plain site name
        return {"name": "Direct booking", "brand": "Direct booking", "summary": "", "property": None}
    return {"name": prop.name, "brand": prop.name.split(" — ")[0].strip() or prop.name, "summary": prop.summary, "property": prop}


def site(request):
    return {
        "BASE_URL": settings.BASE_URL,
        "SITE": SimpleLazyObject(_site),
        "MAIN_NAV": MAIN_NAV,
        "AGENT_NAV": AGENT_NAV,
    }
