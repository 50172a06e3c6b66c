"""Going to production: the demo is loaded only into an empty database and only when DEMO is on,
`make run` says how to create the first owner, and the back office carries the property's name."""

import re
from html import unescape
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from booking.catalog.models import Property
from pages.models import BlogPost

pytestmark = pytest.mark.django_db


def run(command: str) -> str:
    out = StringIO()
    call_command(command, stdout=out)
    return out.getvalue()


def test_with_demo_off_an_empty_database_stays_empty(settings):
    settings.DEMO = False
    assert "DEMO is off" in run("load_demo")
    assert not Property.objects.exists() and not BlogPost.objects.exists()


def test_with_demo_on_an_empty_database_gets_the_demo(settings):
    settings.DEMO = True
    run("load_demo")
    assert Property.objects.count() == 1 and BlogPost.objects.exists()


def test_a_database_with_the_owners_own_property_gets_no_demo(settings, demo_property):
    settings.DEMO = True
    Property.objects.update(slug="villa-fiesole", name="Villa Fiesole")
    assert "a property of its own" in run("load_demo")
    assert list(Property.objects.values_list("slug", flat=True)) == ["villa-fiesole"]


def test_setup_roles_says_how_to_create_the_first_owner_until_there_is_one():
    assert "make createsuperuser" in run("setup_roles")  # the same environment as make run (DATA_DIR spelled out)
    get_user_model().objects.create_superuser("owner", "owner@example.com", "a long passphrase 42")
    assert "createsuperuser" not in run("setup_roles")


def test_the_back_office_header_is_the_property_not_django(admin_client, demo_property):
    page = admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    header = page.split("<body")[1].split("</header>")[0]
    assert "Django" not in header and f"{demo_property.name} · Gestione" in header


def test_a_new_article_saved_as_draft_says_it_is_not_on_the_site(admin_client, demo_property):
    response = admin_client.post(
        "/admin/pages/blogpost/add/",
        {"title_en": "Spring in Florence", "slug": "spring", "summary_en": "s", "body_en": "b", "status": "draft"},
        follow=True,
    )
    assert response.status_code == 200
    assert "is saved as a draft: it is not on the site" in response.content.decode()


@pytest.mark.parametrize(("language", "words"), [("en", "On the property's clock: Europe/Rome, "), ("it", "Sull'orologio della struttura: Europe/Rome, ")])
def test_an_articles_publish_time_says_whose_clock_it_is(admin_client, demo_property, language, words):
    page = unescape(admin_client.get("/admin/pages/blogpost/add/", HTTP_ACCEPT_LANGUAGE=language).content.decode())
    assert re.search(re.escape(words) + r"CES?T\.", page), "the zone beside the editable publish time"
