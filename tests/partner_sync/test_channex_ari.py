"""ARI out: what can be sold, and its price, reaches Channex coalesced, within seconds.

Driven through the local Channex-compatible server (partner_sync/channex_double.py), as the 6-second job runs."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from booking.catalog.services.rates import set_night_rates
from booking.outbox.models import OutboundEmail
from booking.reservations.models import Reservation
from booking.reservations.services import blocks, reservations
from booking.reservations.services.holds import hold_stay
from partner_sync.channex import push
from partner_sync.models import ChannexConnection, ChannexDirtyNight
from tests.dates import future
from tests.partner_sync.channex_fixtures import push_now

pytestmark = pytest.mark.django_db


def owner_alerts():
    return list(OutboundEmail.objects.filter(kind=OutboundEmail.Kind.OWNER_ALERT).values_list("subject", "to_address"))


def nights(first, last):
    return [first + timedelta(days=i) for i in range((last - first).days)]


def test_the_first_connection_sends_every_night_of_the_window_in_two_calls(channex):
    report = push_now()
    assert report.error == ""
    assert len(channex.calls_to("POST", "/availability")) == 1
    assert len(channex.calls_to("POST", "/restrictions")) == 1
    assert channex.calls_to("POST", "/availability")[0].headers["user-api-key"] == channex.api_key
    assert len(channex.availability) == 500 and set(channex.availability.values()) == {1}
    night = future(40)
    restriction = channex.restrictions[night]
    assert restriction["rate"] > 0 and restriction["min_stay_arrival"] >= 1 and restriction["max_stay"] >= 28
    assert restriction["closed_to_arrival"] is False and restriction["stop_sell"] is False
    assert not ChannexDirtyNight.objects.exists()


def test_a_hold_closes_its_nights_on_channex_and_its_release_reopens_them(synced):
    check_in, check_out = future(30), future(33)
    hold = hold_stay(check_in=check_in, check_out=check_out, guests=2)
    assert ChannexDirtyNight.objects.filter(kind="availability").count() == 3  # marked in the hold's transaction
    report = push_now()
    assert report.availability_nights == 3 and report.restrictions_nights == 0
    assert [synced.availability[n] for n in nights(check_in, check_out)] == [0, 0, 0]
    assert synced.availability[check_out] == 1
    body = synced.calls_to("POST", "/availability")[0].body
    assert body == {
        "values": [
            {"property_id": synced.property_id, "room_type_id": synced.room_type_id, "date_from": str(check_in), "date_to": str(future(32)), "availability": 0}
        ]
    }

    reservations.expire_hold(hold.pk, actor="checkout expired")
    push_now()
    assert [synced.availability[n] for n in nights(check_in, check_out)] == [1, 1, 1]


def test_a_hold_that_lapses_without_any_write_reopens_its_nights(synced):
    hold = hold_stay(check_in=future(30), check_out=future(33), guests=2)
    push_now()
    assert synced.availability[future(30)] == 0
    # The clock runs out between two pushes: no write, no signal.
    ChannexConnection.objects.update(holds_checked_until=timezone.now() - timedelta(seconds=2))
    Reservation.objects.filter(pk=hold.pk).update(hold_expires_at=timezone.now() - timedelta(seconds=1))
    push_now()
    assert synced.availability[future(30)] == 1 and synced.availability[future(31)] == 1


def test_a_staff_block_and_its_removal(synced):
    block = blocks.block_dates(start=future(50), end=future(52), reason="Painting", actor="staff")
    push_now()
    assert synced.availability[future(50)] == 0 and synced.availability[future(51)] == 0
    blocks.unblock_dates(block.pk, actor="staff")
    push_now()
    assert synced.availability[future(50)] == 1


def test_a_rate_edit_sends_the_new_price_raised_by_the_channel_markup(synced):
    ChannexConnection.objects.update(channel_rate_markup_percent=Decimal("15"))
    set_night_rates(future(60), future(61), nightly_rate=Decimal("200"), actor="owner")
    push_now()
    assert synced.restrictions[future(60)]["rate"] == Decimal("230.00")
    values = synced.calls_to("POST", "/restrictions")[-1].body["values"]
    assert all(isinstance(entry.get("rate"), str) for entry in values if "rate" in entry)  # never a JSON float


def test_changes_are_coalesced_and_spaced_six_seconds_apart(synced):
    hold_stay(check_in=future(30), check_out=future(33), guests=2)
    push_now()
    hold_stay(check_in=future(35), check_out=future(38), guests=2)
    assert push.push_pending().availability_nights == 0  # less than 6 s since the last call
    assert len(synced.calls_to("POST", "/availability")) == 1
    ChannexConnection.objects.update(availability_calls=[(timezone.now() - timedelta(seconds=7)).isoformat()])
    assert push.push_pending().availability_nights == 3
    assert synced.availability[future(35)] == 0


def test_never_more_than_ten_calls_a_minute():
    now = timezone.now()
    assert not push._may_call([(now - timedelta(seconds=s)).isoformat() for s in (7, 13, 19, 25, 31, 37, 43, 49, 55, 59)], now)
    assert push._may_call([(now - timedelta(seconds=s)).isoformat() for s in (7, 13, 19, 25, 31, 37, 43, 49, 55, 61)], now)
    assert not push._may_call([(now - timedelta(seconds=3)).isoformat()], now)
    assert push._may_call([(now - timedelta(seconds=6)).isoformat()], now)


def test_a_429_keeps_the_nights_marked_and_backs_off_a_minute(synced):
    hold_stay(check_in=future(30), check_out=future(33), guests=2)
    synced.fail_next(429, path="/availability")
    report = push_now()
    assert "429" in report.error
    assert ChannexDirtyNight.objects.filter(kind="availability").count() == 3
    connection = ChannexConnection.objects.get()
    assert connection.backoff_seconds == 60 and connection.retry_at > timezone.now() + timedelta(seconds=50)
    assert "429" in connection.last_error
    assert push.push_pending().skipped == "backing off"
    push_now()  # a minute later
    assert synced.availability[future(30)] == 0 and not ChannexDirtyNight.objects.exists()
    assert ChannexConnection.objects.get().last_error == ""


def test_a_run_of_500s_doubles_the_back_off_up_to_30_minutes_and_alerts_the_owner_after_an_hour(synced, settings):
    settings.OWNER_EMAIL = "owner@example.com"
    hold_stay(check_in=future(30), check_out=future(33), guests=2)
    synced.fail_next(500, times=8, path="/availability")
    backoffs = []
    for _ in range(7):
        push_now()
        backoffs.append(ChannexConnection.objects.get().backoff_seconds)
    assert backoffs == [60, 120, 240, 480, 960, 1800, 1800]
    assert ChannexDirtyNight.objects.filter(kind="availability").count() == 3
    assert not owner_alerts()
    ChannexConnection.objects.update(failing_since=timezone.now() - timedelta(hours=1, minutes=1))
    push_now()
    push_now()
    assert owner_alerts() == [("The channel manager has not accepted updates for over an hour", "owner@example.com")]  # once a day
    push_now()  # Channex is back
    assert synced.availability[future(30)] == 0
    assert ChannexConnection.objects.get().failing_since is None


def test_a_timeout_is_a_failure_that_keeps_the_nights(synced, monkeypatch):
    from partner_sync.channex import client

    hold_stay(check_in=future(30), check_out=future(33), guests=2)
    synced.delay_seconds = 0.6
    monkeypatch.setattr(push, "client_for", lambda c: client.ChannexClient(api_base=c.api_base, api_key=synced.api_key, timeout=(1, 0.3)))
    report = push_now()
    assert "Timed out" in report.error
    assert ChannexDirtyNight.objects.filter(kind="availability").count() == 3
    synced.delay_seconds = 0


def test_warnings_keep_the_warned_nights_marked(synced):
    set_night_rates(future(70), future(71), nightly_rate=Decimal("150"), actor="owner")
    original = synced._restrictions_entry

    def refuse_one_night(entry):
        if entry.get("date") == str(future(70)) or (entry.get("date_from", "9") <= str(future(70)) <= entry.get("date_to", "0")):
            return {"rate": ["must be greater than 0"]}
        return original(entry)

    synced._restrictions_entry = refuse_one_night
    report = push_now()
    assert "refused" in report.error
    assert list(ChannexDirtyNight.objects.filter(kind="rates").values_list("night", flat=True).distinct()) != []
    assert future(70) in set(ChannexDirtyNight.objects.filter(kind="rates").values_list("night", flat=True))
    synced._restrictions_entry = original
    push_now()
    assert not ChannexDirtyNight.objects.filter(kind="rates").exists()
    assert synced.restrictions[future(70)]["rate"] == Decimal("150.00")


def test_with_no_api_key_nothing_is_marked_or_sent(demo_property, settings):
    settings.CHANNEX_API_KEY = ""
    hold_stay(check_in=future(30), check_out=future(33), guests=2)
    assert not ChannexDirtyNight.objects.exists()
    assert push.push_pending().skipped == "off"
    assert not ChannexConnection.objects.exists()


def test_a_payment_and_a_date_change_are_sent_too(synced):
    from booking.payments.services.date_changes import change_dates
    from booking.reservations.services.reservations import confirm_reservation

    hold = hold_stay(check_in=future(30), check_out=future(33), guests=2)
    confirm_reservation(hold.pk, actor="stripe webhook", amount_paid=hold.total)
    assert ChannexDirtyNight.objects.filter(kind="availability").count() >= 3
    push_now()
    change_dates(hold.pk, future(40), future(43), actor="staff", by_guest=False)
    push_now()
    assert [synced.availability[future(30) + timedelta(days=i)] for i in range(3)] == [1, 1, 1]
    assert [synced.availability[future(40) + timedelta(days=i)] for i in range(3)] == [0, 0, 0]


def test_an_ical_import_is_sent_too(synced, feed_server):
    from partner_sync import services
    from partner_sync.models import Feed
    from tests.partner_sync.conftest import all_day, calendar

    feed = Feed.objects.create(name="Vrbo", url=feed_server.serve("/vrbo.ics", calendar(all_day("vrbo-1", 60, 63))))
    services.sync_feeds_now([feed.pk])
    push_now()
    assert [synced.availability[future(60) + timedelta(days=i)] for i in range(3)] == [0, 0, 0]
