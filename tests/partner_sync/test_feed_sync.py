"""Importing the platforms' calendars over HTTP: blocks keyed by UID, the failure rules, the
empty-feed guard, conditional GET, conflicts with direct stays, and the pre-checkout refresh."""

import socket

import pytest
from django.utils import timezone

from booking.reservations.models import DateBlock
from booking.reservations.services.holds import hold_stay
from partner_sync import fetching, services
from partner_sync.models import Conflict, Feed
from tests.partner_sync.conftest import (
    all_day,
    calendar,
    day,
    export,
    stay_booked_before_the_platform_booked,
)

pytestmark = pytest.mark.django_db

AIRBNB_PATH = "/calendar/ical/48151623.ics?s=9f8e7d6c5b4a39281706f5e4d3c2b1a0"


@pytest.fixture
def airbnb(feed_server, demo_property):
    """An Airbnb feed in the admin, served its export."""
    url = feed_server.serve(AIRBNB_PATH, export("airbnb.ics"))
    return Feed.objects.create(name="Airbnb", url=url)


def partner_blocks(feed):
    return list(DateBlock.objects.filter(source="partner", feed_key=feed.block_key).order_by("start").values_list("start", "end", "reason"))


def refreshed(feed) -> Feed:
    """The feed as stored now (a new instance: the old one keeps the values from before)."""
    return Feed.objects.get(pk=feed.pk)


def sync(feed):
    """One sync of this feed, however recently it was attempted (as the admin's "Sync now")."""
    return services.sync_feeds_now([feed.pk])


class TestImport:
    def test_the_feed_becomes_partner_blocks_with_dates_only(self, airbnb):
        [report] = services.sync_all_feeds()
        assert report.outcome == "imported" and report.created == 3
        assert partner_blocks(airbnb) == [
            (day(-2), day(2), "Airbnb: Reserved"),
            (day(30), day(33), "Airbnb: Reserved"),
            (day(45), day(50), "Airbnb: Not available"),
        ]
        feed = refreshed(airbnb)
        assert (feed.event_count, feed.last_status_code, feed.last_error, feed.last_outcome) == (3, 200, "", "imported")
        assert feed.last_success_at is not None and feed.last_attempt_at is not None

    def test_nothing_from_a_description_is_stored(self, airbnb):
        sync(airbnb)
        stored = repr(list(DateBlock.objects.values())) + repr(list(Feed.objects.values()))
        for guest_data in ["HMQ4X7ZKTB", "4821", "0937", "Phone"]:
            assert guest_data not in stored

    def test_the_sync_sends_a_user_agent(self, airbnb, feed_server):
        sync(airbnb)
        assert feed_server.requests_to(AIRBNB_PATH)[0]["User-Agent"].startswith("DirectBooking-CalendarSync/")

    def test_partner_blocks_make_the_nights_unavailable_through_the_api(self, airbnb, api):
        sync(airbnb)
        stay = {"check_in": str(day(31)), "check_out": str(day(34))}
        availability = api.get("/api/v1/availability", **stay).json()
        assert (availability["available"], availability["unavailable_reason"]) == (False, "booked")
        refused = api.post("/api/v1/reservations", stay)
        assert refused.status_code == 409 and refused.json()["code"] == "dates_unavailable"
        # The platform guest's check-out day is free for our next arrival.
        assert api.get("/api/v1/availability", check_in=str(day(33)), check_out=str(day(36))).json()["available"] is True

    def test_a_moved_booking_moves_its_block_and_a_dropped_one_goes(self, airbnb, feed_server):
        sync(airbnb)
        moved = calendar(
            all_day("1418fb94e984-5f7c0b1ad3e2c4b6a8d9e0f1a2b3c4d5@airbnb.com", 35, 38),
            all_day("7f3e4d2c1b0a-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d@airbnb.com", 45, 50, "Airbnb (Not available)"),
        )
        block_id = DateBlock.objects.get(feed_key=airbnb.block_key, start=day(30)).pk
        feed_server.serve(AIRBNB_PATH, moved)
        [report] = sync(airbnb)
        assert (report.created, report.updated, report.deleted) == (0, 1, 1)
        assert partner_blocks(airbnb) == [(day(35), day(38), "Airbnb: Reserved"), (day(45), day(50), "Airbnb: Not available")]
        assert DateBlock.objects.get(pk=block_id).start == day(35)  # the same block, moved

    def test_syncing_the_same_calendar_again_changes_nothing(self, airbnb):
        sync(airbnb)
        before = list(DateBlock.objects.order_by("pk").values_list("pk", "start", "end", "reason"))
        [report] = sync(airbnb)
        assert (report.created, report.updated, report.deleted) == (0, 0, 0)
        assert list(DateBlock.objects.order_by("pk").values_list("pk", "start", "end", "reason")) == before

    def test_feeds_do_not_touch_each_others_blocks_or_staff_blocks(self, airbnb, feed_server, demo_property):
        booking_com = Feed.objects.create(name="Booking.com", url=feed_server.serve("/booking.ics", export("booking_com.ics")))
        staff = DateBlock.objects.create(property=demo_property, start=day(200), end=day(202), reason="painting")
        services.sync_all_feeds()
        assert len(partner_blocks(airbnb)) == 3 and len(partner_blocks(booking_com)) == 2
        feed_server.serve("/booking.ics", calendar(all_day("8d1f0c3a5b7e9d2f4a6c8e0b2d4f6a8c@booking.com", 60, 61)))
        sync(booking_com)
        assert len(partner_blocks(airbnb)) == 3 and partner_blocks(booking_com) == [(day(60), day(61), "Booking.com: Reserved")]
        assert DateBlock.objects.filter(pk=staff.pk).exists()


class TestFailedFetchesKeepTheLastGoodBlocks:
    @pytest.fixture
    def synced(self, airbnb):
        sync(airbnb)
        return refreshed(airbnb)

    @pytest.mark.parametrize(
        "route, error",
        [
            ({"status": 500, "body": b"oops"}, "HTTP 500"),
            ({"status": 503, "body": b"busy"}, "HTTP 503"),
            ({"status": 404, "body": b"gone"}, "HTTP 404"),
            ({"body": b"<!DOCTYPE html><html><title>Log in</title></html>", "content_type": "text/html"}, "HTML"),
            ({"body": b"\x89PNG\r\n\x1a\ngarbage"}, "does not start with BEGIN:VCALENDAR"),
            ({"body": b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\n"}, "incomplete"),
            ({"body": b"BEGIN:VCALENDAR\r\n" + b"X" * (3 * 1024 * 1024) + b"\r\nEND:VCALENDAR\r\n"}, "larger than 2 MiB"),
            ({"body": b"BEGIN:VCALENDAR\r\n" + b"X" * (3 * 1024 * 1024) + b"\r\nEND:VCALENDAR\r\n", "send_length": False}, "larger than 2 MiB"),
        ],
        ids=["500", "503", "404", "html", "garbage", "truncated", "too-large", "too-large-streamed"],
    )
    def test_a_bad_answer(self, synced, feed_server, route, error):
        blocks = partner_blocks(synced)
        feed_server.serve(AIRBNB_PATH, **route)
        [report] = sync(synced)
        feed = refreshed(synced)
        assert report.outcome == "failed" and error in feed.last_error
        assert partner_blocks(feed) == blocks and feed.event_count == 3
        assert feed.last_success_at == synced.last_success_at and feed.last_attempt_at > synced.last_attempt_at
        assert feed.last_outcome == "failed"

    def test_the_error_names_the_http_status(self, synced, feed_server):
        feed_server.serve(AIRBNB_PATH, status=503, body=b"")
        sync(synced)
        feed = refreshed(synced)
        assert feed.last_error.startswith("HTTP 503") and feed.last_status_code == 503

    def test_a_timeout(self, synced, feed_server, monkeypatch):
        monkeypatch.setattr(fetching, "FETCH_TIMEOUT_SECONDS", 0.5)
        feed_server.serve(AIRBNB_PATH, export("airbnb.ics"), delay_seconds=5)
        started = timezone.now()
        sync(synced)
        feed = refreshed(synced)
        assert (timezone.now() - started).total_seconds() < 4
        assert feed.last_error == "Timed out after 0.5 s." and len(partner_blocks(feed)) == 3

    def test_a_server_that_drips_bytes_cannot_hold_the_sync(self, synced, feed_server, monkeypatch):
        """Each piece arrives within the read timeout; the whole fetch is still bounded."""
        monkeypatch.setattr(fetching, "FETCH_TIMEOUT_SECONDS", 0.5)
        feed_server.serve(AIRBNB_PATH, export("airbnb.ics"), trickle_seconds=0.3)
        started = timezone.now()
        sync(synced)
        feed = refreshed(synced)
        assert (timezone.now() - started).total_seconds() < 2.5
        assert feed.last_error == "Timed out after 0.5 s." and len(partner_blocks(feed)) == 3

    def test_nobody_listening(self, synced):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            closed_port = sock.getsockname()[1]
        Feed.objects.filter(pk=synced.pk).update(url=f"http://127.0.0.1:{closed_port}/calendar.ics?s=secret-token")
        sync(synced)
        feed = refreshed(synced)
        assert feed.last_error == "Could not connect to 127.0.0.1." and "secret-token" not in feed.last_error
        assert len(partner_blocks(feed)) == 3

    def test_after_a_failure_a_good_fetch_clears_the_error(self, synced, feed_server):
        feed_server.serve(AIRBNB_PATH, status=500)
        sync(synced)
        feed_server.serve(AIRBNB_PATH, export("airbnb.ics"))
        sync(synced)
        feed = refreshed(synced)
        assert (feed.last_error, feed.last_outcome, feed.last_status_code) == ("", "imported", 200)


class TestTheEmptyFeedGuard:
    def test_a_feed_that_suddenly_lists_nothing_is_held_back_until_a_second_fetch_confirms(self, airbnb, feed_server):
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, calendar())
        [first] = sync(airbnb)
        assert first.outcome == "held_back" and len(partner_blocks(airbnb)) == 3
        assert "next fetch confirms" in refreshed(airbnb).last_error
        [second] = sync(airbnb)
        assert second.outcome == "imported" and partner_blocks(airbnb) == []
        feed = refreshed(airbnb)
        assert (feed.event_count, feed.last_error, feed.empty_since) == (0, "", None)

    def test_events_coming_back_cancel_the_pending_emptying(self, airbnb, feed_server):
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, calendar())
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, export("airbnb.ics"))
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, calendar())
        [report] = sync(airbnb)
        assert report.outcome == "held_back" and len(partner_blocks(airbnb)) == 3  # a new first empty fetch

    def test_a_failed_fetch_in_between_does_not_count_as_confirmation(self, airbnb, feed_server):
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, calendar())
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, status=502)
        sync(airbnb)
        assert len(partner_blocks(airbnb)) == 3
        feed_server.serve(AIRBNB_PATH, calendar())
        sync(airbnb)
        assert partner_blocks(airbnb) == []

    def test_a_feed_that_never_had_events_may_be_empty(self, feed_server, demo_property):
        feed = Feed.objects.create(name="New listing", url=feed_server.serve("/new.ics", calendar()))
        [report] = sync(feed)
        assert report.outcome == "imported" and refreshed(feed).last_error == ""

    def test_dropping_some_events_is_applied_at_once(self, airbnb, feed_server):
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, calendar(all_day("1418fb94e984-5f7c0b1ad3e2c4b6a8d9e0f1a2b3c4d5@airbnb.com", 30, 33)))
        sync(airbnb)
        assert partner_blocks(airbnb) == [(day(30), day(33), "Airbnb: Reserved")]


class TestConditionalGet:
    def test_etag_and_last_modified_are_sent_back_and_a_304_is_a_success(self, feed_server, demo_property):
        stamp = "Wed, 21 Oct 2026 07:28:00 GMT"
        url = feed_server.serve("/etag.ics", export("booking_com.ics"), etag='"v1"', last_modified=stamp)
        feed = Feed.objects.create(name="Booking.com", url=url)
        sync(feed)
        first_success = refreshed(feed).last_success_at
        [report] = sync(feed)
        sent = feed_server.requests_to("/etag.ics")[-1]
        assert (sent["If-None-Match"], sent["If-Modified-Since"]) == ('"v1"', stamp)
        feed = refreshed(feed)
        assert report.outcome == "not_modified" and feed.last_status_code == 304 and feed.last_success_at > first_success
        assert len(partner_blocks(feed)) == 2 and feed.event_count == 2

    def test_a_changed_calendar_gets_a_new_etag(self, feed_server, demo_property):
        url = feed_server.serve("/etag.ics", export("booking_com.ics"), etag='"v1"')
        feed = Feed.objects.create(name="Booking.com", url=url)
        sync(feed)
        feed_server.serve("/etag.ics", calendar(all_day("new", 5, 7)), etag='"v2"')
        [report] = sync(feed)
        assert report.outcome == "imported" and refreshed(feed).etag == '"v2"'
        assert partner_blocks(feed) == [(day(5), day(7), "Booking.com: Reserved")]

    def test_an_unsolicited_304_is_an_error(self, feed_server, demo_property):
        feed = Feed.objects.create(name="Odd", url=feed_server.serve("/odd.ics", status=304))
        sync(feed)
        assert refreshed(feed).last_error.startswith("HTTP 304")

    def test_a_held_back_empty_answer_does_not_become_the_cached_version(self, feed_server, demo_property):
        url = feed_server.serve("/etag.ics", export("booking_com.ics"), etag='"full"')
        feed = Feed.objects.create(name="Booking.com", url=url)
        sync(feed)
        feed_server.serve("/etag.ics", calendar(), etag='"empty"')
        sync(feed)
        assert refreshed(feed).etag == '"full"'
        sync(feed)  # the server answers the old validator with the (empty) body: confirmed
        assert partner_blocks(feed) == [] and refreshed(feed).etag == '"empty"'


class TestConflictsWithDirectStays:
    @pytest.fixture
    def confirmed_stay(self, demo_property):
        return stay_booked_before_the_platform_booked(day(31), day(34))

    def test_an_overlap_is_stored_as_a_block_and_recorded_as_a_conflict(self, confirmed_stay, airbnb):
        [report] = sync(airbnb)
        assert report.conflicts == 1
        conflict = Conflict.objects.get()
        assert (conflict.feed_id, conflict.reservation_id, conflict.start, conflict.end, conflict.resolved_at) == (
            airbnb.pk,
            confirmed_stay.pk,
            day(30),
            day(33),
            None,
        )
        assert (day(30), day(33), "Airbnb: Reserved") in partner_blocks(airbnb)

    def test_a_repeated_sync_keeps_one_conflict(self, confirmed_stay, airbnb):
        sync(airbnb)
        sync(airbnb)
        assert Conflict.objects.count() == 1

    def test_the_conflict_resolves_when_the_platform_moves_its_booking(self, confirmed_stay, airbnb, feed_server):
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, calendar(all_day("1418fb94e984-5f7c0b1ad3e2c4b6a8d9e0f1a2b3c4d5@airbnb.com", 40, 43)))
        sync(airbnb)
        assert Conflict.objects.get().resolved_at is not None

    def test_a_hold_is_not_a_conflict(self, demo_property, airbnb, monkeypatch):
        from booking.reservations.services import holds

        monkeypatch.setattr(holds, "_before_hold", [])  # held before the platform's booking appeared in its feed
        hold_stay(check_in=day(31), check_out=day(34), guests=2)
        [report] = sync(airbnb)
        assert report.conflicts == 0 and not Conflict.objects.exists()


class TestFeedsTheOwnerEdits:
    def test_feeds_are_seeded_from_the_environment_once(self, settings, feed_server, demo_property):
        settings.PARTNER_ICAL_URLS = [
            "https://www.airbnb.com/calendar/ical/1.ics?s=tok",
            " https://admin.booking.com/hotel/hoteladmin/ical.html?t=tok2 ",
            "not a url",
            "https://www.airbnb.com/calendar/ical/1.ics?s=tok",
        ]
        services.ensure_configured_feeds()
        services.ensure_configured_feeds()
        assert list(Feed.objects.order_by("pk").values_list("name", "url", "environment_url")) == [
            ("Airbnb", "https://www.airbnb.com/calendar/ical/1.ics?s=tok", "https://www.airbnb.com/calendar/ical/1.ics?s=tok"),
            ("Booking.com", "https://admin.booking.com/hotel/hoteladmin/ical.html?t=tok2", "https://admin.booking.com/hotel/hoteladmin/ical.html?t=tok2"),
        ]

    def test_the_owners_edits_of_a_seeded_feed_stick(self, settings):
        settings.PARTNER_ICAL_URLS = ["https://www.airbnb.com/calendar/ical/1.ics?s=tok"]
        services.ensure_configured_feeds()
        Feed.objects.update(name="Airbnb (penthouse)", url="https://www.airbnb.com/calendar/ical/1.ics?s=new", enabled=False)
        services.ensure_configured_feeds()
        assert list(Feed.objects.values_list("name", "url", "enabled")) == [("Airbnb (penthouse)", "https://www.airbnb.com/calendar/ical/1.ics?s=new", False)]

    def test_disabling_a_feed_frees_its_nights_and_reenabling_fetches_in_full(self, feed_server, demo_property):
        url = feed_server.serve("/etag.ics", export("booking_com.ics"), etag='"v1"')
        feed = Feed.objects.create(name="Booking.com", url=url)
        sync(feed)
        feed.enabled = False
        feed.save()
        services.feed_settings_changed(feed, changed={"enabled"})
        assert partner_blocks(feed) == [] and refreshed(feed).etag == ""
        feed.enabled = True
        feed.save()
        services.feed_settings_changed(feed, changed={"enabled"})
        services.sync_all_feeds()
        assert "If-None-Match" not in feed_server.requests_to("/etag.ics")[-1]
        assert len(partner_blocks(feed)) == 2

    def test_the_periodic_job_clears_a_feed_disabled_any_other_way(self, airbnb):
        sync(airbnb)
        Feed.objects.filter(pk=airbnb.pk).update(enabled=False)
        assert services.sync_all_feeds() == []
        assert partner_blocks(airbnb) == [] and refreshed(airbnb).event_count == 0

    def test_deleting_a_feed_deletes_its_blocks(self, airbnb):
        sync(airbnb)
        services.delete_feed(airbnb)
        assert not DateBlock.objects.filter(source="partner").exists()

    def test_a_new_url_is_fetched_without_the_old_validators(self, feed_server, demo_property):
        feed = Feed.objects.create(name="Booking.com", url=feed_server.serve("/a.ics", export("booking_com.ics"), etag='"a"'))
        sync(feed)
        feed.url = feed_server.serve("/b.ics", export("booking_com.ics"), etag='"b"')
        feed.save()
        services.feed_settings_changed(feed, changed={"url"})
        sync(feed)
        assert "If-None-Match" not in feed_server.requests_to("/b.ics")[0]


class TestRefreshBeforeCheckout:
    def test_only_feeds_not_attempted_recently_are_fetched(self, airbnb, feed_server):
        sync(airbnb)
        services.refresh_stale_feeds(max_age_seconds=300)
        assert len(feed_server.requests_to(AIRBNB_PATH)) == 1
        services.refresh_stale_feeds(max_age_seconds=0)
        assert len(feed_server.requests_to(AIRBNB_PATH)) == 2

    def test_a_new_platform_booking_is_seen_before_checkout(self, airbnb, feed_server, api):
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, calendar(all_day("fresh-booking@airbnb.com", 60, 63)))
        Feed.objects.filter(pk=airbnb.pk).update(last_attempt_at=timezone.now() - timezone.timedelta(minutes=10))
        services.refresh_stale_feeds()
        assert api.get("/api/v1/availability", check_in=str(day(60)), check_out=str(day(63))).json()["unavailable_reason"] == "booked"

    @pytest.mark.parametrize("path", ["/api/v1/reservations", "/api/v1/payments/checkout-link"])
    def test_a_booking_made_on_the_platform_minutes_ago_is_refused_by_every_hold_path(self, airbnb, feed_server, api, path):
        # The hold itself refreshes the stale feed first (booking.reservations.services.holds: before every hold):
        # REST reservations, MCP and A2A used not to, and sold a night the checkout link refused.
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, calendar(all_day("fresh-booking@airbnb.com", 60, 63)))
        Feed.objects.filter(pk=airbnb.pk).update(last_attempt_at=timezone.now() - timezone.timedelta(minutes=10))
        refused = api.post(path, {"check_in": str(day(60)), "check_out": str(day(63)), "guests": 2})
        assert refused.status_code == 409 and refused.json()["code"] == "dates_unavailable"

    def test_a_slow_platform_costs_at_most_the_short_timeout(self, airbnb, feed_server, monkeypatch):
        monkeypatch.setattr(services, "REFRESH_TIMEOUT_SECONDS", 0.5)
        feed_server.serve(AIRBNB_PATH, export("airbnb.ics"), delay_seconds=5)
        started = timezone.now()
        services.refresh_stale_feeds(max_age_seconds=0)
        assert (timezone.now() - started).total_seconds() < 4
        assert refreshed(airbnb).last_error == "Timed out after 0.5 s."

    def test_it_never_raises(self, airbnb, monkeypatch):
        def broken(*args, **kwargs):
            raise RuntimeError("the network stack is on fire")

        monkeypatch.setattr(fetching, "fetch_feed", broken)
        services.refresh_stale_feeds(max_age_seconds=0)  # logged, not raised
        monkeypatch.setattr(services, "ensure_configured_feeds", broken)
        services.refresh_stale_feeds(max_age_seconds=0)

    def test_a_feed_being_synced_elsewhere_is_not_fetched_twice(self, airbnb, feed_server):
        Feed.objects.filter(pk=airbnb.pk).update(claimed_until=timezone.now() + timezone.timedelta(seconds=30))
        services.refresh_stale_feeds(max_age_seconds=0)
        assert feed_server.requests_to(AIRBNB_PATH) == []

    def test_the_feeds_due_are_the_enabled_ones_neither_recent_nor_claimed(self, demo_property):
        now = timezone.now()
        minutes = timezone.timedelta(minutes=1)
        states = {
            "never attempted": {},
            "attempted long ago": {"last_attempt_at": now - 10 * minutes},
            "attempted just now": {"last_attempt_at": now - minutes},
            "disabled": {"enabled": False},
            "claimed by a sync under way": {"claimed_until": now + minutes},
            "claim of a crashed sync": {"claimed_until": now - minutes},
        }
        feeds = {name: Feed.objects.create(name=name, url=f"https://example.com/{i}.ics", **fields) for i, (name, fields) in enumerate(states.items())}
        due = {name for name, feed in feeds.items() if feed.pk in services.feeds_due(now - 5 * minutes, now)}
        assert due == {"never attempted", "attempted long ago", "claim of a crashed sync"}

    def test_a_crashed_syncs_lease_lapses(self, airbnb, feed_server):
        Feed.objects.filter(pk=airbnb.pk).update(claimed_until=timezone.now() - timezone.timedelta(seconds=1))
        services.refresh_stale_feeds(max_age_seconds=0)
        assert len(feed_server.requests_to(AIRBNB_PATH)) == 1 and refreshed(airbnb).claimed_until is None
