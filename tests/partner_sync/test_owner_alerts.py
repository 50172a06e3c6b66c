"""The owner hears about problems by email, at most once per problem per day: a platform booking
overlapping a direct stay at once, a calendar feed failing for more than an hour."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.admin.utils import quote
from django.utils import timezone

from booking.outbox.models import OutboundEmail, OwnerAlert
from booking.reservations.services.owner_alerts import alert_owner
from partner_sync import services
from partner_sync.models import Feed
from tests.partner_sync.conftest import day, export, stay_booked_before_the_platform_booked

pytestmark = pytest.mark.django_db

AIRBNB_PATH = "/calendar/ical/48151623.ics"


def owner_alerts():
    return list(OutboundEmail.objects.filter(kind=OutboundEmail.Kind.OWNER_ALERT).order_by("created_at").values_list("subject", flat=True))


@pytest.fixture
def airbnb(feed_server, demo_property):
    url = feed_server.serve(AIRBNB_PATH, export("airbnb.ics"))
    return Feed.objects.create(name="Airbnb", url=url)


def sync(feed):
    return services.sync_feeds_now([feed.pk])


class TestDoubleBooking:
    def test_an_overlap_with_a_direct_stay_emails_the_owner_at_once_and_only_once(self, demo_property, airbnb, settings):
        settings.OWNER_EMAIL = "owner@example.com"
        stay = stay_booked_before_the_platform_booked(day(31), day(34))
        sync(airbnb)
        sync(airbnb)
        [subject] = owner_alerts()
        assert subject.startswith("Double booking: Airbnb has a booking from ")
        row = OutboundEmail.objects.get(kind=OutboundEmail.Kind.OWNER_ALERT)
        assert row.to_address == "owner@example.com"
        assert quote(stay.pk) in row.body and "/admin/reservations/reservation/" in row.body

    def test_no_overlap_no_email(self, demo_property, airbnb):
        sync(airbnb)
        assert owner_alerts() == []


class TestFailingFeed:
    def test_a_feed_failing_for_under_an_hour_sends_nothing(self, airbnb, feed_server):
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, b"down", status=503)
        with time_machine.travel(timezone.now() + timedelta(minutes=50)):
            sync(airbnb)
        assert owner_alerts() == []

    def test_after_an_hour_the_owner_is_emailed_once_a_day(self, airbnb, feed_server):
        sync(airbnb)
        feed_server.serve(AIRBNB_PATH, b"down", status=503)
        start = timezone.localtime().replace(hour=9, minute=0)
        with time_machine.travel(start + timedelta(minutes=70), tick=False):
            Feed.objects.filter(pk=airbnb.pk).update(last_success_at=start)
            sync(airbnb)
        with time_machine.travel(start + timedelta(hours=5), tick=False):
            sync(airbnb)
        assert owner_alerts() == ["The Airbnb calendar has been failing for over an hour"]
        row = OutboundEmail.objects.get(kind=OutboundEmail.Kind.OWNER_ALERT)
        assert "503" in row.body and "/admin/partner_sync/feed/" in row.body
        with time_machine.travel(start + timedelta(days=1, hours=1), tick=False):
            sync(airbnb)
        assert len(owner_alerts()) == 2

    def test_a_feed_that_never_answered_counts_from_when_it_was_added(self, demo_property, feed_server):
        url = feed_server.serve(AIRBNB_PATH, b"down", status=503)
        feed = Feed.objects.create(name="Airbnb", url=url, created_at=timezone.now() - timedelta(hours=2))
        sync(feed)
        assert owner_alerts() == ["The Airbnb calendar has been failing for over an hour"]


def test_one_problem_one_email_a_day_even_when_two_jobs_see_it(demo_property, settings):
    settings.OWNER_EMAIL = "owner@example.com"
    assert alert_owner(problem="refund-failed:res_1", subject="Refund failed", body="…") is not None
    assert alert_owner(problem="refund-failed:res_1", subject="Refund failed", body="…") is None
    assert alert_owner(problem="refund-failed:res_2", subject="Refund failed", body="…") is not None
    assert OwnerAlert.objects.count() == 2 and len(owner_alerts()) == 2
