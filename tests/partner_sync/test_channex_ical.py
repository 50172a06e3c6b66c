"""One stay seen twice, through the platform's iCal feed and through the channel manager, counts once."""

import pytest

from booking.reservations.models import Reservation
from partner_sync import services
from partner_sync.channex import bookings
from partner_sync.models import ChannexRevision, Conflict, Feed
from tests.attention import attention
from tests.partner_sync.conftest import all_day, calendar, day

pytestmark = pytest.mark.django_db


def test_an_ical_event_with_the_nights_of_a_booking_from_the_same_platform_is_not_a_conflict(channex, feed_server):
    revision = channex.book(arrival=day(40), departure=day(43), ota="ABB")
    bookings.drain_feed()
    feed = Feed.objects.create(name="Airbnb", url=feed_server.serve("/airbnb.ics", calendar(all_day("HMX@airbnb.com", 40, 43))))
    services.sync_feeds_now([feed.pk])
    assert not Conflict.objects.exists()
    assert attention(Reservation.objects.get(channel_booking_id=revision["attributes"]["booking_id"])) == ""


def test_another_platforms_event_on_those_nights_is_still_a_conflict(channex, feed_server):
    channex.book(arrival=day(40), departure=day(43), ota="ABB")
    bookings.drain_feed()
    feed = Feed.objects.create(name="Vrbo", url=feed_server.serve("/vrbo.ics", calendar(all_day("vrbo-1", 40, 43))))
    services.sync_feeds_now([feed.pk])
    assert Conflict.objects.count() == 1


def test_a_channel_booking_over_its_own_ical_block_is_not_an_overbooking(channex, feed_server):
    feed = Feed.objects.create(name="Airbnb", url=feed_server.serve("/airbnb.ics", calendar(all_day("HMX@airbnb.com", 40, 43))))
    services.sync_feeds_now([feed.pk])
    channex.book(arrival=day(40), departure=day(43), ota="ABB")
    bookings.drain_feed()
    assert ChannexRevision.objects.get().outcome == "applied"
    assert not Reservation.objects.get(channel_booking_id__isnull=False).overbooked
