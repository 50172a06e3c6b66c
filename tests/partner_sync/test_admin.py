"""The back office for the partner sync: feeds with their sync state, conflicts, the probe."""

import pytest
from django.contrib.admin.utils import quote
from django.urls import reverse

from booking.reservations.models import DateBlock
from partner_sync import services
from partner_sync.models import Feed, ListingProbe
from tests.partner_sync.conftest import (
    day,
    export,
    stay_booked_before_the_platform_booked,
)

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:partner_sync_feed_changelist"


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    return client


@pytest.fixture
def airbnb(feed_server, demo_property):
    return Feed.objects.create(name="Airbnb", url=feed_server.serve("/ical/1.ics?s=secret-token", export("airbnb.ics")))


def test_the_feed_list_shows_each_feeds_state_and_the_probe(staff_client, airbnb, feed_server, settings):
    settings.PARTNER_ICAL_URLS = [feed_server.serve("/booking.ics", status=503)]
    settings.PARTNER_LISTING_URL = feed_server.serve("/rooms/1", b"ok", content_type="text/html")
    services.sync_all_feeds()
    services.probe_listing()
    page = staff_client.get(reverse(CHANGELIST)).content.decode()
    assert "Airbnb" in page and "HTTP 503" in page and "PARTNER_ICAL_URLS" in page
    assert "secret-token" not in page  # the list shows scheme://host/path
    assert "Calendar import:" in page and "Listing probe:" in page and "last answer 200" in page
    assert "/api/v1/calendar.ics" in page


def test_conflicts_are_shown_to_staff_with_a_link_to_the_stay(staff_client, airbnb):
    stay = stay_booked_before_the_platform_booked(day(31), day(34))
    services.sync_feeds_now([airbnb.pk])
    page = staff_client.get(reverse(CHANGELIST)).content.decode()
    assert "Conflicts: platform bookings overlapping confirmed direct stays" in page
    assert reverse("admin:reservations_reservation_change", args=[quote(stay.pk)]) in page
    conflicts = staff_client.get(reverse("admin:partner_sync_conflict_changelist")).content.decode()
    assert stay.pk in conflicts and "Airbnb" in conflicts


def test_the_owner_disables_a_feed_and_its_nights_open_up(staff_client, airbnb):
    services.sync_feeds_now([airbnb.pk])
    assert DateBlock.objects.filter(source="partner").count() == 3
    response = staff_client.post(
        reverse("admin:partner_sync_feed_change", args=[airbnb.pk]),
        {"name": "Airbnb", "url": airbnb.url, "enabled": ""},
        follow=True,
    )
    assert response.status_code == 200 and "its blocks were removed" in response.content.decode()
    assert not DateBlock.objects.filter(source="partner").exists()


def test_the_owner_adds_a_feed_and_syncs_it_now(staff_client, feed_server, demo_property):
    url = feed_server.serve("/booking.ics", export("booking_com.ics"))
    staff_client.post(reverse("admin:partner_sync_feed_add"), {"name": "Booking.com", "url": url, "enabled": "on"})
    feed = Feed.objects.get(name="Booking.com")
    response = staff_client.post(reverse(CHANGELIST), {"action": "sync_now", "_selected_action": [feed.pk]}, follow=True)
    assert "Booking.com: imported" in response.content.decode()
    assert DateBlock.objects.filter(feed_key=feed.block_key).count() == 2


def test_a_feed_url_must_be_http(staff_client, demo_property):
    response = staff_client.post(reverse("admin:partner_sync_feed_add"), {"name": "Local", "url": "file:///etc/passwd", "enabled": "on"})
    assert response.status_code == 200 and not Feed.objects.exists()


def test_deleting_a_feed_deletes_its_blocks_but_environment_feeds_are_only_disabled(staff_client, airbnb, settings, feed_server):
    services.sync_feeds_now([airbnb.pk])
    staff_client.post(reverse("admin:partner_sync_feed_delete", args=[airbnb.pk]), {"post": "yes"})
    assert not Feed.objects.filter(pk=airbnb.pk).exists() and not DateBlock.objects.filter(source="partner").exists()
    settings.PARTNER_ICAL_URLS = [feed_server.serve("/env.ics", export("airbnb.ics"))]
    services.ensure_configured_feeds()
    env_feed = Feed.objects.get()
    assert staff_client.get(reverse("admin:partner_sync_feed_delete", args=[env_feed.pk])).status_code == 403


def test_the_listing_probe_is_edited_and_run_from_the_admin(staff_client, feed_server, db, settings):
    settings.PARTNER_LISTING_URL = ""
    url = feed_server.serve("/rooms/9", b"listing", content_type="text/html")
    staff_client.post(reverse("admin:partner_sync_listingprobe_add"), {"url": url, "enabled": "on"})
    probe = ListingProbe.objects.get()
    assert probe.pk == ListingProbe.SINGLETON_PK
    response = staff_client.post(reverse("admin:partner_sync_listingprobe_changelist"), {"action": "probe_now", "_selected_action": [probe.pk]}, follow=True)
    assert "The listing answered 200" in response.content.decode()
    assert staff_client.get(reverse("admin:partner_sync_listingprobe_add")).status_code == 403  # one row only
