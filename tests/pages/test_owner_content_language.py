"""The owner's content on translated pages (DESIGN.md, fourth round, Languages): the demo's seasons,
discounts, address and host languages in the reader's language; an article with no translation
served with `lang` and a line saying so, and claimed by no hreflang alternate; guest reviews in
their original language, marked as such. The demo loader brings an existing demo database up to it."""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from booking import demo
from booking.catalog.models import Season
from pages import demo as pages_demo
from pages.models import BlogPost

pytestmark = pytest.mark.django_db


def hreflangs(html: str) -> set[str]:
    return set(re.findall(r'<link rel="alternate" hreflang="([^"]+)"', html))


def test_an_untranslated_article_says_so_and_claims_no_translation(client, site):
    post = BlogPost.objects.create(
        slug="our-terrace",
        title_en="Our terrace in spring",
        summary_en="What grows up here.",
        body_en="The jasmine flowers in May.",
        status=BlogPost.Status.PUBLISHED,
        published_at=timezone.now(),
    )
    html = client.get("/de/blog/our-terrace").content.decode()
    assert '<h1 lang="en">Our terrace in spring</h1>' in html
    assert '<div class="narrow prose" lang="en">' in html and "Nur auf Englisch verfügbar." in html
    assert hreflangs(html) == {"en", "x-default"}
    translated = client.get("/de/blog/three-slow-days-in-florence").content.decode()
    assert hreflangs(translated) == {"en", "it", "de", "fr", "x-default"} and "Nur auf" not in translated.split("<aside")[0]
    sitemap = client.get("/sitemap.xml").content.decode()
    assert "/blog/our-terrace" in sitemap and "/de/blog/our-terrace" not in sitemap and "/de/blog/three-slow-days-in-florence" in sitemap
    card = client.get("/it/blog").content.decode().split('href="/it/blog/our-terrace"')[0].rsplit("<article", 1)[1]
    assert 'lang="en"' in card
    post.title_de, post.body_de = "Unsere Terrasse im Frühling", "Der Jasmin blüht im Mai."
    post.save()
    assert "de" in hreflangs(client.get("/de/blog/our-terrace").content.decode())


def test_reviews_keep_their_language_and_say_which(client, site):
    html = client.get("/de/reviews").content.decode()
    assert html.count('<blockquote lang="en">') == 5 and html.count("Original auf Englisch") == 5
    assert "Originale in inglese" in client.get("/it/").content.decode()
    english = client.get("/reviews").content.decode()
    assert "<blockquote lang" not in english and "Original in" not in english


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("it", ["Bassa stagione", "7 gen – 14 mar", "Sconto settimanale", "Firenze, Toscana", "italiano, inglese, francese"]),
        ("de", ["Nebensaison", "7. Jan. – 14. März", "Wochenrabatt", "Florenz, Toskana", "Italienisch, Englisch, Französisch"]),
        ("fr", ["Basse saison", "7 janv. – 14 mars", "Réduction à la semaine", "Florence, Toscane", "italien, anglais, français"]),
    ],
)
def test_seasons_discounts_address_and_host_languages_in_the_reader_language(client, site, language, words):
    season, dates, discount, region, spoken = words
    availability = client.get(f"/{language}/availability").content.decode()
    assert season in availability and dates in availability and discount in availability and region in availability
    assert discount in client.get(f"/{language}/booking-policies").content.decode()
    assert spoken in client.get(f"/{language}/contact").content.decode()


def test_a_season_of_one_year_only_says_so_in_the_reader_language(client, site):
    Season.objects.create(
        property=site,
        name="Marathon weekend",
        name_de="Marathon-Wochenende",
        start_date=date(2027, 11, 26),
        end_date=date(2027, 11, 28),
        recurring=False,
        nightly_rate=Decimal("400"),
        min_nights=2,
    )
    html = client.get("/de/availability").content.decode()
    assert "Marathon-Wochenende" in html and "26. Nov. 2027 – 28. Nov. 2027 (nur dieses Mal)" in html


def test_the_demo_loader_brings_an_existing_demo_database_up_to_date(site):
    """A database loaded before the translations existed: the loader fills them, once, and leaves an
    owner's own wording alone."""
    site.seasons.update(name_it=None, name_de=None, name_fr=None)
    site.seasons.filter(name_en="Summer").update(name_en="Our summer")  # the owner's own season
    type(site).objects.filter(pk=site.pk).update(city_de=None, region_de=None)
    site.reviews.update(language="")
    BlogPost.objects.filter(slug="arriving-in-florence").update(title_fr="", body_fr="", summary_fr="", cover_alt_fr="")
    assert demo.load() is True and pages_demo.load() is True
    site.refresh_from_db()
    assert (site.city_de, site.region_de) == ("Florenz", "Toskana")
    assert Season.objects.get(property=site, name_en="Low season").name_de == "Nebensaison"
    assert not Season.objects.get(property=site, name_en="Our summer").name_de
    assert set(site.reviews.values_list("language", flat=True)) == {"en"}
    assert BlogPost.objects.get(slug="arriving-in-florence").title_fr.startswith("Arriver à Florence")
    assert demo.load() is False and pages_demo.load() is False


def test_a_page_text_with_no_translation_is_marked(client, site):
    from pages.models import PageKey, PageText

    PageText.objects.filter(key=PageKey.LOCATION).update(intro_fr="", body_fr="", title_fr="")
    html = client.get("/fr/location").content.decode()
    assert '<h1 lang="en">Location</h1>' in html and '<p class="lead" lang="en">' in html
    assert '<div class="prose" lang="en">' in html and "Disponible uniquement en anglais." in html
    assert "Disponible uniquement" not in client.get("/it/location").content.decode()


def test_the_property_texts_with_no_translation_are_marked(client, site):
    type(site).objects.filter(pk=site.pk).update(description_de="", house_rules_de="")
    html = client.get(f"/de/{site.slug}").content.decode()
    assert '<div lang="en"><p>Attico Santa Croce is a light-filled penthouse' in html
    assert '<ul class="checklist" lang="en"><li>No smoking inside' in html
    assert 'lang="en"' not in client.get(f"/it/{site.slug}").content.decode().split("<main")[1].split("<footer")[0]
