"""The admin screens of the other apps (pages, partner_sync, the Italian obligations) show their times
on the property's clock with the zone's abbreviation (booking.admin_display.time_column), in the
reader's language, like the reservations do."""

from datetime import UTC, datetime
from html import unescape

import pytest
from django.contrib.admin.utils import quote
from django.urls import reverse

from booking.italy.models import CheckIn, PoliceRegistration
from pages.models import BlogPost, ContactInquiry
from partner_sync.models import Conflict, Feed, ListingProbe
from tests.italy.conftest import make_stay, own_cache  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
WINTER = datetime(2027, 2, 12, 13, 32, tzinfo=UTC)  # 14:32 in Rome, CET
SUMMER = datetime(2027, 7, 12, 13, 32, tzinfo=UTC)  # 15:32 in Rome, CEST


def page(client, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert response.status_code == 200, url
    return unescape(response.content.decode())


@pytest.fixture
def rows(make_stay):  # noqa: F811 (a fixture)
    stay = make_stay()
    feed = Feed.objects.create(name="Airbnb", url="https://example.com/a.ics", last_attempt_at=WINTER, last_success_at=WINTER)
    return {
        "feed": feed,
        "conflict": Conflict.objects.create(feed=feed, reservation=stay, external_uid="uid-1", start=stay.check_in, end=stay.check_out, first_seen_at=SUMMER),
        "probe": ListingProbe.objects.create(pk=ListingProbe.SINGLETON_PK, url="https://example.com/listing", last_attempt_at=WINTER),
        "inquiry": ContactInquiry.objects.create(name="Ada", email="ada@example.com", message="Hello", created_at=WINTER),
        "post": BlogPost.objects.create(title="Spring", slug="spring", body="…", status="published", published_at=SUMMER),
        "check_in": CheckIn.objects.create(reservation=stay, completed_at=WINTER),
        "police": PoliceRegistration.objects.create(reservation=stay, status="sent", sent_at=SUMMER, next_attempt_at=WINTER, created_at=WINTER),
    }


def admin_urls(rows) -> dict[str, tuple[str, str]]:
    def change(name: str, obj) -> str:
        return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[quote(obj.pk)])

    def changelist(obj) -> str:
        return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_changelist")

    urls = {name: (changelist(obj), change(name, obj)) for name, obj in rows.items()}
    urls["post"] = urls["post"][:1]  # its page edits the publish time: a form field (the property's clock), not a display
    return urls


@pytest.mark.parametrize("language", ["it", "de"])
def test_every_time_shows_the_zone(admin_client, rows, language):
    for name, urls in admin_urls(rows).items():
        for url in urls:
            shown = page(admin_client, url, language)
            assert "14:32 CET" in shown or "15:32 CEST" in shown, (name, url)
            assert "13:32" not in shown, (name, url)  # never UTC
    assert "15:32 CEST" in page(admin_client, reverse("admin:partner_sync_feed_changelist"), language)  # the open conflict, seen since


def test_the_month_is_in_the_readers_language(admin_client, rows):
    url = reverse("admin:pages_contactinquiry_change", args=[rows["inquiry"].pk])
    assert "12 Feb 2027 14:32 CET" in page(admin_client, url, "en")
    assert "12 Feb 2027 14:32 CET" in page(admin_client, url, "de")
    assert "12 Feb 2027 14:32 CET" in page(admin_client, url, "it") or "12 feb 2027 14:32 CET" in page(admin_client, url, "it")
