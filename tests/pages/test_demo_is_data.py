"""The demo is data, not code: a property loaded from other data is served in its own words, at its
own slug, and nothing the site, the API or the agents' files say names the demo's penthouse, its
city, its slug or its offers. The demo, loaded by `load_demo`, keeps the spec's /penthouse-florence
because that is its slug."""

import json
import re
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from booking.catalog.models import Amenity, CancellationTier, Extra, PromoCode, Property
from booking.reservations.models import Review
from config.caches import forget_process_caches

# Words of the demo (booking/catalog/demo.py, pages/demo.py): its type, its city, its neighbourhood and
# name, its host, its promo code and an extra's code.
DEMO_WORDS = ["penthouse", "florence", "firenze", "santa croce", "attico", "giulia", "duomo", "welcome10", "airport_transfer"]

OTHER_SLUG = "casa-lido"
SITE_PATHS = [
    "/",
    f"/{OTHER_SLUG}",
    "/availability",
    "/reviews",
    "/location",
    "/faq",
    "/booking-policies",
    "/book",
    "/contact",
    "/thank-you",
    "/privacy",
    "/blog",
]
AGENT_PATHS = [
    "/llms.txt",
    "/api/v1/property",
    "/.well-known/openapi.json",
    "/api",
    "/mcp",
    "/agents",
    "/.well-known/agent-card.json",
    "/.well-known/ai-plugin.json",
    "/.well-known/ucp",
    "/sitemap.xml",
    "/robots.txt",
]


@pytest.fixture
def other_property(db):
    """A seaside flat set up by its owner: no demo loaded, no page texts written."""
    forget_process_caches()
    prop = Property.objects.create(
        name="Casa Lido — Flat by the sea",
        slug=OTHER_SLUG,
        headline="Two bedrooms and a balcony over the harbour, for up to 5 guests.",
        summary="A flat for up to 5 guests above the harbour of Sorrento.",
        description="A bright flat on the second floor.\n\nThe balcony looks over the fishing boats.",
        property_type="Flat",
        street_address="Via Marina Grande 3",
        city="Sorrento",
        postal_code="80067",
        region="Campania",
        latitude=Decimal("40.628900"),
        longitude=Decimal("14.371100"),
        neighbourhood="Marina Grande",
        max_guests=5,
        bedrooms=2,
        beds=3,
        bathrooms=Decimal("1"),
        host_name="Marco",
        contact_email="marco@casalido.example",
        languages="Italian, English",
        base_nightly_rate=Decimal("150.00"),
        cleaning_fee=Decimal("60.00"),
    )
    Amenity.objects.create(property=prop, name="Balcony with a sea view", category="Outdoor")
    Review.objects.create(property=prop, author="Ines", rating=5, date=date(2026, 6, 1), text="Waking up to the boats was perfect.", source="Direct")
    CancellationTier.objects.create(property=prop, days_before_arrival=14, refund_percent=100)
    PromoCode.objects.create(property=prop, code="LIDO5", percent=Decimal("5"))
    Extra.objects.create(property=prop, code="beach_towels", name="Beach towels", price=Decimal("10.00"))
    return prop


def demo_words_in(text: str) -> list[str]:
    lowered = text.lower()
    return [word for word in DEMO_WORDS if word in lowered]


def test_a_property_from_other_data_is_served_at_its_own_slug(client, other_property):
    page = client.get(f"/{OTHER_SLUG}")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Casa Lido — Flat by the sea" in html and "Balcony with a sea view" in html
    assert f'href="/{OTHER_SLUG}"' in html  # the navigation leads to it
    assert f'hreflang="it" href="{settings.BASE_URL}/it/{OTHER_SLUG}"' in html
    for prefix in ("/it", "/de", "/fr"):
        assert client.get(f"{prefix}/{OTHER_SLUG}").status_code == 200
    slashed = client.get(f"/{OTHER_SLUG}/")
    assert slashed.status_code == 301 and slashed["Location"] == f"/{OTHER_SLUG}"
    assert client.get("/it/casa-lido/")["Location"] == "/it/casa-lido"


def test_another_slug_is_the_site_s_404_page(client, other_property):
    for path in ["/penthouse-florence", "/penthouse-florence/", "/it/penthouse-florence", "/no-such-page"]:
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert "Page not found" in answer.content.decode() or path.startswith("/it/"), path
    assert client.post("/no-such-page").status_code == 404 and client.post(f"/{OTHER_SLUG}").status_code == 405
    # A page that lives under a slash keeps being found without it (APPEND_SLASH's redirect).
    admin = client.get("/" + settings.ADMIN_PATH.rstrip("/"))
    assert admin.status_code == 301 and admin["Location"] == "/" + settings.ADMIN_PATH


def test_the_property_page_follows_a_new_slug(client, other_property):
    assert client.get(f"/{OTHER_SLUG}").status_code == 200  # remembered (pages/caching.py)
    other_property.slug = "casa-lido-sorrento"
    other_property.save()
    assert client.get(f"/{OTHER_SLUG}").status_code == 404
    page = client.get("/casa-lido-sorrento")
    assert page.status_code == 200 and 'href="/casa-lido-sorrento"' in page.content.decode()
    assert client.get("/api/v1/property").json()["url"] == f"{settings.BASE_URL}/casa-lido-sorrento"
    sitemap = client.get("/sitemap.xml").content.decode()
    assert f"{settings.BASE_URL}/casa-lido-sorrento</loc>" in sitemap and f"{settings.BASE_URL}/it/casa-lido-sorrento" in sitemap


def test_the_site_names_nothing_of_the_demo(client, other_property):
    found = {}
    for path in SITE_PATHS:
        for prefix in ("", "/it", "/de", "/fr"):
            answer = client.get(prefix + path)
            assert answer.status_code == 200, prefix + path
            if words := demo_words_in(answer.content.decode()):
                found[prefix + path] = words
    assert not found


def test_what_agents_read_names_nothing_of_the_demo(client, other_property):
    found = {}
    for path in AGENT_PATHS:
        answer = client.get(path)
        assert answer.status_code == 200, path
        if words := demo_words_in(answer.content.decode()):
            found[path] = words
    assert not found
    assert client.get("/api/v1/property").json()["url"] == f"{settings.BASE_URL}/{OTHER_SLUG}"


def test_the_mcp_tools_name_no_promo_code_or_extra_of_the_demo(other_property):
    from discovery.mcp_server import INSTRUCTIONS, tools

    listed = json.dumps([tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools()], ensure_ascii=False)
    assert not demo_words_in(listed) and not demo_words_in(INSTRUCTIONS)


def test_the_demo_keeps_its_path(client, db):
    forget_process_caches()
    call_command("load_demo", verbosity=0)
    page = client.get("/penthouse-florence")
    assert page.status_code == 200
    assert client.get("/it/penthouse-florence").status_code == 200
    assert 'href="/penthouse-florence"' in client.get("/").content.decode()
    assert client.get("/api/v1/property").json()["url"] == f"{settings.BASE_URL}/penthouse-florence"
    # Its words are its data: the highlights, the nav's name of the page, the sketch map in its text.
    home = client.get("/").content.decode()
    assert "Penthouse apartment" in home and "Santa Croce" in home and ">The penthouse</a>" in home
    assert 'src="/static/img/map-santa-croce.svg"' in client.get("/location").content.decode()
    assert "mappa schematica" in client.get("/it/location").content.decode().lower()


# --- The rule keeps holding: no source file outside the demo loader names the demo -------------

ROOT = Path(__file__).resolve().parents[2]
DEMO_LOADER = {
    "booking/demo.py",
    "booking/demo_translations.py",
    "pages/demo.py",
    "pages/demo_translations.py",
    "pages/demo_article_three_days.py",
    "pages/demo_article_arrival.py",
}
SOURCE_DIRECTORIES = ["booking", "config", "discovery", "pages", "partner_sync", "templates", "static"]
SOURCE_SUFFIXES = {".py", ".html", ".txt", ".js", ".css", ".json", ".xml"}
# Words that only the demo uses (an Italian comune such as Firenze may still illustrate a format).
DEMO_ONLY = re.compile(r"penthouse|florence|santa croce|attico|welcome10|airport_transfer", re.IGNORECASE)


def source_files():
    """Code, templates and static text outside tests, migrations (history) and the demo loader."""
    for directory in SOURCE_DIRECTORIES:
        for path in sorted((ROOT / directory).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix in SOURCE_SUFFIXES and "migrations" not in path.parts and relative not in DEMO_LOADER and path.is_file():
                yield relative, path


def test_no_source_outside_the_demo_loader_names_the_demo():
    found = {}
    for name, path in source_files():
        words = sorted({match.lower() for match in DEMO_ONLY.findall(path.read_text(encoding="utf-8", errors="replace"))})
        if words:
            found[name] = words
    assert not found
