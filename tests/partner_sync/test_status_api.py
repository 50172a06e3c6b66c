"""GET /api/v1/partner/status: the runtime status of the iCal sync and of the listing probe, with
exactly two top-level keys (DESIGN.md "Partner (listing platform) sync")."""

import socket
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from booking.reservations.models import Reservation
from partner_sync import services
from partner_sync.models import Feed
from partner_sync.selectors import mask_url
from tests.partner_sync.conftest import (
    calendar,
    day,
    export,
    stay_booked_before_the_platform_booked,
)

pytestmark = pytest.mark.django_db

URL = "/api/v1/partner/status"
FEED_KEYS = {
    "name",
    "url",
    "source",
    "configured",
    "enabled",
    "state",
    "last_attempt_at",
    "last_success_at",
    "last_error",
    "last_status_code",
    "events",
    "conflicts",
    "stale",
}
PROBE_KEYS = {"configured", "enabled", "url", "last_attempt_at", "last_success_at", "last_error", "last_status_code", "latency_ms", "stale"}


def status(api) -> dict:
    response = api.get(URL)
    assert response.status_code == 200, response.content
    return response.json()


class TestNothingConfigured:
    def test_the_shape_when_nothing_is_set_up(self, api, db, settings):
        settings.PARTNER_ICAL_URLS, settings.PARTNER_LISTING_URL = [], ""
        assert status(api) == {
            "ical": {"state": "not_configured", "interval_seconds": settings.PARTNER_SYNC_SECONDS, "feeds": []},
            "listing_probe": {
                "configured": False,
                "enabled": False,
                "url": None,
                "last_attempt_at": None,
                "last_success_at": None,
                "last_error": None,
                "last_status_code": None,
                "latency_ms": None,
                "stale": False,
            },
            "channel_manager": None,
        }


class TestFeeds:
    @pytest.fixture
    def configured(self, settings, feed_server, demo_property):
        settings.PARTNER_ICAL_URLS = [feed_server.serve("/calendar/ical/4815.ics?s=top-secret-token", export("airbnb.ics"))]
        settings.PARTNER_LISTING_URL = ""
        return feed_server

    def test_environment_feeds_appear_before_their_first_sync(self, api, configured):
        body = status(api)
        assert set(body) == {"ical", "listing_probe", "channel_manager"}
        assert body["channel_manager"] is None  # no CHANNEX_API_KEY
        assert body["ical"]["state"] == "never_synced"
        [feed] = body["ical"]["feeds"]
        assert set(feed) == FEED_KEYS
        assert feed["url"] == f"{configured.base_url}/calendar/ical/4815.ics"
        assert (feed["source"], feed["configured"], feed["enabled"], feed["stale"]) == ("environment", True, True, False)
        assert feed["last_attempt_at"] is None and feed["events"] == 0

    def test_after_a_good_sync(self, api, configured):
        services.sync_all_feeds()
        body = status(api)
        [feed] = body["ical"]["feeds"]
        assert body["ical"]["state"] == "ok"
        assert (feed["state"], feed["last_error"], feed["last_status_code"], feed["events"], feed["conflicts"]) == ("ok", None, 200, 3, 0)
        assert feed["last_success_at"] is not None and feed["last_attempt_at"] is not None

    def test_after_a_failed_sync_the_error_names_the_http_status(self, api, configured):
        services.sync_all_feeds()
        configured.serve("/calendar/ical/4815.ics?s=top-secret-token", status=503)
        Feed.objects.update(last_attempt_at=None)
        services.sync_all_feeds()
        body = status(api)
        [feed] = body["ical"]["feeds"]
        assert body["ical"]["state"] == "error" and feed["state"] == "error"
        assert feed["last_error"].startswith("HTTP 503") and feed["last_status_code"] == 503 and feed["events"] == 3

    def test_a_held_back_empty_feed_is_visible(self, api, configured):
        services.sync_all_feeds()
        configured.serve("/calendar/ical/4815.ics?s=top-secret-token", calendar())
        Feed.objects.update(last_attempt_at=None)
        services.sync_all_feeds()
        assert status(api)["ical"]["state"] == "held_back"

    def test_no_success_for_three_intervals_is_stale(self, api, configured, settings):
        services.sync_all_feeds()
        interval = settings.PARTNER_SYNC_SECONDS
        with time_machine.travel(timezone.now() + timedelta(seconds=3 * interval - 5)):
            assert status(api)["ical"]["feeds"][0]["stale"] is False
        with time_machine.travel(timezone.now() + timedelta(seconds=3 * interval + 5)):
            body = status(api)
            assert body["ical"]["state"] == "stale" and body["ical"]["feeds"][0]["stale"] is True

    def test_a_feed_that_never_succeeds_goes_stale_too(self, api, configured, settings):
        configured.serve("/calendar/ical/4815.ics?s=top-secret-token", status=500)
        services.sync_all_feeds()
        with time_machine.travel(timezone.now() + timedelta(seconds=3 * settings.PARTNER_SYNC_SECONDS + 5)):
            assert status(api)["ical"]["feeds"][0]["stale"] is True

    def test_secrets_in_urls_never_show(self, api, configured):
        Feed.objects.create(name="Other", url="https://owner:hunter2@cal.example.com:8443/export.ics?token=abc123#frag")
        text = api.get(URL).content.decode()
        assert "top-secret-token" not in text and "hunter2" not in text and "abc123" not in text
        assert "https://cal.example.com:8443/export.ics" in text

    def test_conflicts_are_counted_without_naming_the_reservation(self, api, configured):
        stay = stay_booked_before_the_platform_booked(day(31), day(34))
        services.sync_all_feeds()
        response = api.get(URL)
        assert response.json()["ical"]["feeds"][0]["conflicts"] == 1
        assert stay.pk not in response.content.decode()
        # Cancelling the direct stay ends the conflict.
        Reservation.objects.filter(pk=stay.pk).update(status=Reservation.Status.CANCELLED)
        assert status(api)["ical"]["feeds"][0]["conflicts"] == 0

    def test_disabled_and_withdrawn_feeds(self, api, configured, settings):
        services.ensure_configured_feeds()
        Feed.objects.update(enabled=False)
        body = status(api)
        assert body["ical"]["state"] == "disabled" and body["ical"]["feeds"][0]["state"] == "disabled"
        settings.PARTNER_ICAL_URLS = []
        assert status(api)["ical"]["feeds"][0]["configured"] is False  # removed from the environment since

    def test_the_worst_enabled_feed_sets_the_overall_state(self, api, configured, feed_server):
        Feed.objects.create(name="Broken", url=feed_server.serve("/broken.ics", status=500))
        services.sync_all_feeds()
        body = status(api)
        assert sorted(f["state"] for f in body["ical"]["feeds"]) == ["error", "ok"] and body["ical"]["state"] == "error"


class TestListingProbe:
    def test_a_listing_that_answers(self, api, settings, feed_server, db):
        settings.PARTNER_LISTING_URL = feed_server.serve("/rooms/48151623?check_in=x&s=tracking", b"<html>listing</html>", content_type="text/html")
        services.probe_listing()
        probe = status(api)["listing_probe"]
        assert set(probe) == PROBE_KEYS
        assert (probe["configured"], probe["enabled"], probe["last_status_code"], probe["last_error"], probe["stale"]) == (True, True, 200, None, False)
        assert isinstance(probe["latency_ms"], int) and probe["latency_ms"] >= 0
        assert probe["url"] == f"{feed_server.base_url}/rooms/48151623" and probe["last_success_at"] == probe["last_attempt_at"]

    def test_a_listing_that_is_gone(self, api, settings, feed_server, db):
        settings.PARTNER_LISTING_URL = feed_server.serve("/rooms/1", status=410, content_type="text/html")
        services.probe_listing()
        probe = status(api)["listing_probe"]
        assert probe["last_error"].startswith("HTTP 410") and probe["last_status_code"] == 410 and probe["last_success_at"] is None

    def test_an_unreachable_listing(self, api, settings, db):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        settings.PARTNER_LISTING_URL = f"http://127.0.0.1:{port}/rooms/1"
        services.probe_listing()
        probe = status(api)["listing_probe"]
        assert probe["last_error"] == "Could not connect to 127.0.0.1." and probe["last_status_code"] is None and probe["latency_ms"] is None

    def test_a_probe_without_success_for_three_intervals_is_stale(self, api, settings, feed_server, db):
        settings.PARTNER_LISTING_URL = feed_server.serve("/rooms/2", b"ok", content_type="text/html")
        services.probe_listing()
        with time_machine.travel(timezone.now() + timedelta(seconds=3 * settings.PARTNER_SYNC_SECONDS + 5)):
            assert status(api)["listing_probe"]["stale"] is True

    def test_a_changed_environment_url_is_followed_unless_the_owner_edited_it(self, settings, db):
        settings.PARTNER_LISTING_URL = "https://www.airbnb.com/rooms/1"
        assert services.ensure_listing_probe().url == "https://www.airbnb.com/rooms/1"
        settings.PARTNER_LISTING_URL = "https://www.airbnb.com/rooms/2"
        assert services.ensure_listing_probe().url == "https://www.airbnb.com/rooms/2"
        from partner_sync.models import ListingProbe

        ListingProbe.objects.update(url="https://www.airbnb.com/rooms/owner")
        settings.PARTNER_LISTING_URL = "https://www.airbnb.com/rooms/3"
        assert services.ensure_listing_probe().url == "https://www.airbnb.com/rooms/owner"


@pytest.mark.parametrize(
    "url, shown",
    [
        ("https://www.airbnb.com/calendar/ical/1.ics?s=secret", "https://www.airbnb.com/calendar/ical/1.ics"),
        ("https://user:pw@host.example/a?b=c#d", "https://host.example/a"),
        ("http://[::1]:8080/x.ics?t=1", "http://[::1]:8080/x.ics"),
        ("http://host:99999/x", ""),
        ("not a url", ""),
    ],
)
def test_urls_are_shown_without_query_strings_or_credentials(url, shown):
    assert mask_url(url) == shown


def test_the_openapi_document_describes_both_endpoints(api, db):
    paths = api.get("/api/openapi.json").json()["paths"]
    assert "200" in paths["/api/v1/partner/status"]["get"]["responses"]
    assert "text/calendar" in paths["/api/v1/calendar.ics"]["get"]["responses"]["200"]["content"]
