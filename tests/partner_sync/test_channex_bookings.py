"""Bookings in: a platform's booking reaches the calendar from Channex, by webhook or by the feed,
applied once, in order, acknowledged after it is stored; an overbooking is stored and shouted about.

Driven through the local Channex-compatible server (partner_sync/channex_double.py)."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote

from booking.outbox.models import OutboundEmail
from booking.reservations.models import Reservation, ReservationEvent
from partner_sync.channex import bookings, client
from partner_sync.models import ChannexConnection, ChannexRevision
from tests.attention import attention
from tests.dates import future
from tests.partner_sync.channex_fixtures import WEBHOOK_SECRET, push_now
from tests.partner_sync.conftest import stay_booked_before_the_platform_booked

pytestmark = pytest.mark.django_db
WEBHOOK = "/partner/channex/webhook"


@pytest.fixture
def hooked(synced):
    """Channex with our webhook configured as docs/channex.md says: the secret in a header; the
    first full sync is more than 6 s old (so a booking's availability goes out at once)."""
    ChannexConnection.objects.update(availability_calls=[], restrictions_calls=[])
    synced.webhooks.append(
        {
            "id": "wh-1",
            "callback_url": "https://host.example/partner/channex/webhook",
            "event_mask": "booking",
            "headers": {"X-Channex-Token": WEBHOOK_SECRET},
            "is_active": True,
            "send_data": True,
        }
    )
    return synced


def deliver(client, channex, revision, **header_changes):
    body, headers = channex.webhook_request(revision)
    headers.update(header_changes)
    return client.post(WEBHOOK, json.dumps(body), content_type="application/json", headers=headers)


def owner_alerts():
    return list(OutboundEmail.objects.filter(kind=OutboundEmail.Kind.OWNER_ALERT).values_list("subject", "body"))


def test_a_booking_com_booking_arrives_by_webhook_as_a_confirmed_stay_and_is_acknowledged(client, hooked):
    revision = hooked.book(arrival=future(40), departure=future(43), ota="BDC", code="4705123456", amount=Decimal("720.00"), ages=[7])
    response = deliver(client, hooked, revision)
    assert response.status_code == 200

    stay = Reservation.objects.get(channel_booking_id=revision["attributes"]["booking_id"])
    assert (stay.status, stay.source, stay.channel_code) == ("confirmed", "booking_com", "4705123456")
    assert (stay.check_in, stay.check_out, stay.guests, stay.children_ages) == (future(40), future(43), 3, [7])
    assert (stay.guest_first_name, stay.guest_last_name, stay.guest_email, stay.guest_phone) == (
        "Anna",
        "Bianchi",
        "abianc.123@guest.booking.com",
        "+49 30 1234567",
    )
    assert (stay.guest_country, stay.language, stay.special_requests) == ("DE", "de", "Late arrival")
    assert (stay.total, stay.currency, stay.channel_commission, stay.channel_payment_collect) == (Decimal("720.00"), "EUR", Decimal("108.00"), "ota")
    assert stay.price_breakdown["total"] == 720.0 and stay.price_breakdown["nights"] == 3
    assert hooked.acks == [revision["id"]]
    assert ChannexRevision.objects.get().outcome == "applied"
    # The nights it took are closed on every other channel at once.
    assert [hooked.availability[future(40) + timedelta(days=i)] for i in range(3)] == [0, 0, 0]


@pytest.mark.parametrize(("prefix", "source"), [("ABB", "airbnb"), ("EXP", "expedia"), ("VRB", "vrbo"), ("XYZ", "other")])
def test_the_channel_comes_from_the_unique_id_prefix(hooked, prefix, source):
    hooked.book(arrival=future(40), departure=future(43), ota=prefix)
    bookings.drain_feed()
    assert Reservation.objects.get(channel_booking_id__isnull=False).source == source


def test_with_the_webhook_lost_the_feed_brings_the_booking(hooked):
    revision = hooked.book(arrival=future(40), departure=future(43))
    reports = bookings.drain_feed()
    assert [(r.revision_id, r.outcome, r.acked) for r in reports] == [(revision["id"], "applied", True)]
    assert Reservation.objects.filter(status="confirmed", channel_booking_id=revision["attributes"]["booking_id"]).count() == 1
    assert hooked.unacked() == []
    assert bookings.drain_feed() == []  # nothing left in the feed


def test_the_feed_is_drained_page_by_page(hooked, monkeypatch):
    monkeypatch.setattr(client, "PAGE_LIMIT", 10)
    for i in range(25):
        hooked.book(arrival=future(30 + 4 * i), departure=future(33 + 4 * i))
    reports = bookings.drain_feed()
    assert len(reports) == 25 and all(r.acked for r in reports)
    assert Reservation.objects.filter(channel_booking_id__isnull=False).count() == 25
    assert hooked.unacked() == []


def test_a_modification_moves_the_stay_and_frees_its_old_nights(hooked):
    first = hooked.book(arrival=future(40), departure=future(43))
    bookings.drain_feed()
    hooked.modify(first, arrival=future(50), departure=future(54), occupancy={"adults": 3, "children": 0, "infants": 0}, amount=Decimal("1000.00"))
    push_now()
    bookings.drain_feed()
    push_now()
    stay = Reservation.objects.get(channel_booking_id=first["attributes"]["booking_id"])
    assert (stay.status, stay.check_in, stay.check_out, stay.guests, stay.total) == ("confirmed", future(50), future(54), 3, Decimal("1000.00"))
    assert Reservation.objects.filter(channel_booking_id__isnull=False).count() == 1
    assert hooked.availability[future(40)] == 1 and hooked.availability[future(50)] == 0
    assert ReservationEvent.objects.filter(reservation=stay, message="channel_changed").count() == 1


def test_a_cancellation_cancels_the_stay_without_a_refund_and_reopens_its_nights(hooked):
    first = hooked.book(arrival=future(40), departure=future(43))
    bookings.drain_feed()
    hooked.cancel(first)
    bookings.drain_feed()
    push_now()
    stay = Reservation.objects.get(channel_booking_id=first["attributes"]["booking_id"])
    assert stay.status == "cancelled" and stay.amount_refunded == 0 and stay.refund_pending == 0
    assert hooked.availability[future(40)] == 1
    assert hooked.unacked() == []


def test_a_revision_applied_twice_is_applied_once(client, hooked):
    revision = hooked.book(arrival=future(40), departure=future(43))
    deliver(client, hooked, revision)
    deliver(client, hooked, revision)  # Channex retries a webhook
    revision["acked"] = False  # and the feed serves it again (an ack lost on the way)
    bookings.drain_feed()
    assert Reservation.objects.filter(channel_booking_id__isnull=False).count() == 1
    assert ReservationEvent.objects.filter(message="channel_booked").count() == 1
    assert ChannexRevision.objects.count() == 1
    assert hooked.acks.count(revision["id"]) == 1  # the second time it was already acknowledged here


def test_an_older_revision_arriving_late_changes_nothing(hooked):
    first = hooked.book(arrival=future(40), departure=future(43))
    modified = hooked.modify(first, arrival=future(44), departure=future(47))
    bookings.fetch_revision(modified["id"])  # its webhook came first
    bookings.fetch_revision(first["id"])
    stay = Reservation.objects.get(channel_booking_id=first["attributes"]["booking_id"])
    assert (stay.check_in, stay.check_out) == (future(44), future(47))
    assert ChannexRevision.objects.get(revision_id=first["id"]).outcome == "superseded"
    assert hooked.unacked() == []


def test_a_wrong_webhook_secret_is_refused_and_nothing_is_done(client, hooked):
    revision = hooked.book(arrival=future(40), departure=future(43))
    assert deliver(client, hooked, revision, **{"X-Channex-Token": "guess"}).status_code == 403
    body, _ = hooked.webhook_request(revision)
    assert client.post(WEBHOOK, json.dumps(body), content_type="application/json").status_code == 403
    assert not Reservation.objects.filter(channel_booking_id__isnull=False).exists()
    assert not ChannexRevision.objects.exists()
    assert hooked.calls_to("GET", "/booking_revisions") == []


def test_the_webhook_is_not_there_when_the_connection_is_off(client, db, settings):
    settings.CHANNEX_API_KEY = ""
    assert client.post(WEBHOOK, "{}", content_type="application/json", headers={"X-Channex-Token": "x"}).status_code == 404


@pytest.mark.usefixtures("current_backstop")
def test_an_overbooking_is_stored_acknowledged_flagged_and_emailed_to_the_owner(client, hooked, settings):
    settings.OWNER_EMAIL = "owner@example.com"
    direct = stay_booked_before_the_platform_booked(future(40), future(43))
    revision = hooked.book(arrival=future(42), departure=future(45), ota="ABB", code="HMABCDEF")
    assert deliver(client, hooked, revision).status_code == 200

    stay = Reservation.objects.get(channel_booking_id=revision["attributes"]["booking_id"])
    assert stay.status == "confirmed" and stay.overbooked
    assert attention(stay).startswith("Overbooking")
    assert direct.booking_number in attention(stay)  # the other stay, by the number people search by
    assert ChannexRevision.objects.get().outcome == "overbooking"
    assert hooked.acks == [revision["id"]]
    [(subject, body)] = owner_alerts()
    assert "Overbooking" in subject and "HMABCDEF" in subject
    assert direct.booking_number in body and quote(stay.pk) in body  # the other stay by its number; this one by its quoted link
    assert hooked.availability[future(43)] == 0 and hooked.availability[future(44)] == 0


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"property_id": "another-property"}, "another Channex property"),
        ({"room_type_id": None}, "room is not mapped"),
        ({"rate_plan_id": None}, "rate is not mapped"),
        ({"customer": None}, "no customer"),
    ],
)
def test_bad_input_is_stored_flagged_and_acknowledged_never_a_500(client, hooked, changes, problem):
    revision = hooked.book(arrival=future(40), departure=future(43), **changes)
    assert deliver(client, hooked, revision).status_code == 200
    row = ChannexRevision.objects.get(revision_id=revision["id"])
    assert row.outcome == "rejected" and problem in row.problem
    assert not Reservation.objects.filter(channel_booking_id__isnull=False).exists()
    assert hooked.acks == [revision["id"]]
    assert len(owner_alerts()) == 1


def test_reversed_dates_and_dates_outside_the_window_are_refused(hooked):
    hooked.book(arrival=future(43), departure=future(40))
    hooked.book(arrival=future(600), departure=future(603))
    bookings.drain_feed()
    assert sorted(ChannexRevision.objects.values_list("outcome", flat=True)) == ["rejected", "rejected"]
    assert not Reservation.objects.filter(channel_booking_id__isnull=False).exists()
    assert hooked.unacked() == []


def test_a_revision_that_cannot_be_fetched_waits_for_the_feed(hooked):
    revision = hooked.book(arrival=future(40), departure=future(43))
    hooked.fail_next(500, path="/booking_revisions")
    assert bookings.fetch_revision(revision["id"]) is None
    assert not Reservation.objects.filter(channel_booking_id__isnull=False).exists()
    bookings.drain_feed()
    assert Reservation.objects.filter(channel_booking_id__isnull=False).count() == 1


def test_an_ack_that_fails_is_sent_again_by_the_next_drain(hooked):
    revision = hooked.book(arrival=future(40), departure=future(43))
    hooked.fail_next(503, path=f"/booking_revisions/{revision['id']}/ack")
    [report] = bookings.drain_feed()
    assert report.outcome == "applied" and not report.acked
    assert ChannexRevision.objects.get().acked_at is None
    bookings.drain_feed()
    assert hooked.unacked() == [] and ChannexRevision.objects.get().acked_at is not None
    assert Reservation.objects.filter(channel_booking_id__isnull=False).count() == 1


def test_the_owner_is_told_of_a_new_channel_booking_and_the_guest_is_not_emailed_by_us(hooked, settings, django_capture_on_commit_callbacks):
    from django.core import mail

    settings.OWNER_EMAIL = "owner@example.com"
    with django_capture_on_commit_callbacks(execute=True):
        hooked.book(arrival=future(40), departure=future(43), ota="BDC", code="4705123456", amount=Decimal("720.00"))
        bookings.drain_feed()
    emails = OutboundEmail.objects.filter(reservation__channel_booking_id__isnull=False)
    assert list(emails.values_list("kind", "recipient")) == [("confirmation", "owner")]
    [message] = [m for m in mail.outbox if m.to == ["owner@example.com"]]
    assert "Booking.com 4705123456" in message.body and "commission 108.00 EUR" in message.body and "to Booking.com" in message.body


def test_a_channel_guest_is_not_asked_for_a_review_here(hooked):
    from booking.reservations.services.reviews import queue_review_requests

    hooked.book(arrival=future(40), departure=future(43))
    bookings.drain_feed()
    Reservation.objects.filter(channel_booking_id__isnull=False).update(check_in=future(-3), check_out=future(-1))
    assert queue_review_requests() == 0
