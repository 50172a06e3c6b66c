"""A public page is rendered once and then remembered (pages/caching.py), under every input it
reads: a remembered page costs one query, and changes as soon as anything it shows changes."""

from datetime import timedelta

import pytest
import time_machine
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone

from booking.catalog.models import Season
from booking.italy.models import ItalySettings
from booking.reservations.models import Review
from pages.caching import public_page
from pages.models import BlogPost, FaqEntry, PageKey, PageText

PUBLIC_PAGES = ["/", "/penthouse-florence", "/reviews", "/location", "/faq", "/booking-policies", "/privacy", "/blog", "/blog/three-slow-days-in-florence"]


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_a_public_page_is_rendered_once_then_costs_one_query(client, site, path, django_assert_max_num_queries):
    first = client.get(path)
    assert first.status_code == 200
    with django_assert_max_num_queries(1):  # the property's content version
        again = client.get(path)
    assert again.content == first.content
    assert again["Cache-Control"] == first["Cache-Control"] and "public" in again["Cache-Control"]
    assert again["Content-Language"] == first["Content-Language"]


def test_each_language_and_each_suggestion_is_its_own_page(client, site):
    english, italian = client.get("/faq").content.decode(), client.get("/it/faq").content.decode()
    assert 'lang="en"' in english and 'lang="it"' in italian
    assert client.get("/faq").content.decode() == english and client.get("/it/faq").content.decode() == italian
    suggested = client.get("/faq", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert "language-suggestion" in suggested and "language-suggestion" not in english
    assert "language-suggestion" not in client.get("/faq").content.decode()
    assert "language-suggestion" not in client.get("/faq", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9,de;q=0.5").content.decode()


def test_the_query_string_is_part_of_the_page(client, site):
    for n in range(12):
        BlogPost.objects.create(
            title=f"Article {n}", slug=f"article-{n}", summary="s", body="b", status="published", published_at=timezone.now() - timedelta(days=n + 30)
        )
    first, second = client.get("/blog").content.decode(), client.get("/blog?page=2").content.decode()
    assert first != second
    assert client.get("/blog?page=2").content.decode() == second


def test_an_edit_of_the_page_s_words_shows_at_once(client, site):
    client.get("/")
    client.get("/it/")
    home = PageText.objects.get(key=PageKey.HOME)
    home.title_en, home.title_it = "A brand new heading", "Un titolo nuovo"
    home.save()
    assert "A brand new heading" in client.get("/").content.decode()
    assert "Un titolo nuovo" in client.get("/it/").content.decode()
    FaqEntry.objects.create(question="Is there a lift?", answer="Yes.")
    assert "Is there a lift?" in client.get("/faq").content.decode()
    home.delete()
    assert "A brand new heading" not in client.get("/").content.decode()


def test_an_edit_of_the_property_its_rates_or_reviews_shows_at_once(client, site):
    client.get("/")
    client.get("/reviews")
    site.name = "Attico Nuovo — Penthouse in Florence"
    site.save()
    assert "Attico Nuovo" in client.get("/").content.decode()
    Season.objects.filter(property=site).update(nightly_rate=1)  # no signal: a raw write...
    Season.objects.filter(property=site).first().save()  # ...then a save, as the admin does
    assert "€1" in client.get("/").content.decode()
    Review.objects.create(property=site, author="Marta", rating=5, date=timezone.localdate(), text="A terrace to remember.", source="Direct")
    assert "A terrace to remember." in client.get("/reviews").content.decode()
    settings_row = ItalySettings.read(site)
    settings_row.document_retention_days = 123
    settings_row.save()
    assert "123" in client.get("/privacy").content.decode()


def test_a_scheduled_article_appears_when_its_time_comes(client, site):
    publish_at = timezone.now() + timedelta(hours=2)
    BlogPost.objects.create(title="Autumn in the Oltrarno", slug="autumn", summary="s", body="b", status="published", published_at=publish_at)
    assert "Autumn in the Oltrarno" not in client.get("/blog").content.decode()
    assert "Autumn in the Oltrarno" not in client.get("/").content.decode()
    with time_machine.travel(publish_at + timedelta(minutes=1)):
        assert "Autumn in the Oltrarno" in client.get("/blog").content.decode()
        assert "Autumn in the Oltrarno" in client.get("/").content.decode()


def test_a_personal_page_is_never_remembered(rf, site):
    rendered = []

    def page_with_form(request):
        rendered.append(request.path)
        return HttpResponse(get_token(request))

    view = public_page(page_with_form)
    first, second = view(rf.get("/faq")), view(rf.get("/faq"))
    assert len(rendered) == 2 and first.content != second.content
    assert "private" in second["Cache-Control"]
