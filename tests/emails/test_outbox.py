"""Every email goes through the outbox (issue 13): written with the change it reports, delivered
by a Celery task, retried with a growing pause while the mail server is down, never lost, never
sent twice, and never failing the payment or the cancel that queued it."""

import threading
from datetime import timedelta
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
import time_machine
from django.contrib.admin.utils import quote
from django.core import mail
from django.db import connection
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_due_emails, retry_pause
from booking.payments.services.cancellation import cancel_stay
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from booking.reservations.services.stays_mail import queue_pre_arrival_emails
from tests.attention import attention
from tests.dates import future
from tests.payments.conftest import stay

pytestmark = pytest.mark.django_db


def held_stay(demo_property, days_ahead=40, email_address="anna@example.com"):
    from booking.reservations.services.holds import GuestDetails, hold_stay

    return hold_stay(check_in=future(days_ahead), check_out=future(days_ahead + 3), guests=2, guest=GuestDetails(email=email_address, first_name="Anna"))


def confirm(reservation):
    return confirm_reservation(
        reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi"), amount_paid=reservation.total, payment_intent_id="pi_test"
    )


def test_the_confirmation_is_owed_to_the_guest_and_the_owner_from_the_moment_of_payment(demo_property):
    reservation = confirm(held_stay(demo_property))
    rows = OutboundEmail.objects.filter(reservation=reservation)
    assert {(r.kind, r.recipient, r.status) for r in rows} == {("confirmation", "guest", "pending"), ("confirmation", "owner", "pending")}


def test_the_confirmation_arrives_over_smtp_in_text_and_html_with_the_stay_as_a_calendar_file(
    demo_property, smtp, django_capture_on_commit_callbacks, settings
):
    from icalendar import Calendar

    settings.BASE_URL = "https://stay.example.com"
    smtp.start()
    with django_capture_on_commit_callbacks(execute=True):
        reservation = confirm(held_stay(demo_property))
    reservation.refresh_from_db()
    [guest] = [m for m in smtp.messages if m["To"] == "anna@example.com"]
    [owner] = [m for m in smtp.messages if m["To"] != "anna@example.com"]
    manage_url = f"https://stay.example.com/manage/{reservation.manage_token}"
    text, html = guest.get_body(("plain",)).get_content(), guest.get_body(("html",)).get_content()
    assert manage_url in text and manage_url in html and reservation.booking_number in text and reservation.booking_number in html
    assert f"{reservation.total:.2f} EUR" in text
    assert f"https://stay.example.com/admin/reservations/reservation/{quote(reservation.pk)}/change/" in owner.get_content()

    [attachment] = [part for part in guest.iter_attachments() if part.get_content_type() == "text/calendar"]
    assert attachment.get_filename() == "stay.ics" and attachment.get_param("method") == "PUBLISH"
    ics = attachment.get_content()
    # All-day dates, not midnights in some time zone: the stay is nights, the calendar shows days.
    assert f"DTSTART;VALUE=DATE:{reservation.check_in:%Y%m%d}" in ics and f"DTEND;VALUE=DATE:{reservation.check_out:%Y%m%d}" in ics
    calendar = Calendar.from_ical(ics)
    assert calendar["method"] == "PUBLISH"
    [event] = calendar.walk("VEVENT")
    assert (event.decoded("dtstart"), event.decoded("dtend")) == (reservation.check_in, reservation.check_out)
    assert event["summary"] == f"Stay at {demo_property.name}" and demo_property.street_address in event["location"]
    assert event["uid"] == f"{reservation.pk}@stay.example.com"
    description = str(event["description"])
    assert (
        f"{demo_property.check_in_from:%H:%M}" in description
        and reservation.booking_number in description
        and reservation.pk not in description
        and manage_url in description
    )


def test_smtp_down_then_up_the_email_arrives_once(demo_property, smtp, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        reservation = confirm(held_stay(demo_property))  # nothing listens on the port: the payment still confirms
    assert Reservation.objects.get(pk=reservation.pk).status == "confirmed"
    guest_row = OutboundEmail.objects.get(reservation=reservation, recipient="guest")
    assert (guest_row.status, guest_row.attempts) == ("pending", 1) and "Connection" in guest_row.last_error
    assert guest_row.next_attempt_at > timezone.now()  # backing off
    smtp.start()
    assert deliver_due_emails() == 0  # not due yet
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        assert deliver_due_emails() == 2
        assert deliver_due_emails() == 0
    assert len(smtp.messages) == 2
    assert set(OutboundEmail.objects.filter(reservation=reservation).values_list("status", flat=True)) == {"sent"}


def test_a_refused_address_is_retried_and_the_error_kept_for_staff_does_not_name_it(demo_property, smtp):
    smtp.refuse.add("anna@example.com")
    smtp.start()
    reservation = confirm(held_stay(demo_property))
    deliver_due_emails()
    guest_row = OutboundEmail.objects.get(reservation=reservation, recipient="guest")
    assert (guest_row.status, guest_row.attempts) == ("pending", 1)
    assert "SMTPRecipientsRefused" in guest_row.last_error and "550" in guest_row.last_error
    assert "anna@example.com" not in guest_row.last_error
    assert OutboundEmail.objects.get(reservation=reservation, recipient="owner").status == "sent"


def test_a_confirmation_still_owed_when_the_stay_is_cancelled_is_dropped_not_sent(demo_property, smtp):
    reservation = confirm(held_stay(demo_property))  # the mail server is down: the confirmation waits
    cancel_stay(reservation.pk, actor="staff anna", refund=Decimal("0"))
    smtp.start()
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        assert deliver_due_emails() == 2
    assert [str(m["Subject"]).strip() for m in smtp.messages if m["To"] == "anna@example.com"] == [
        f"Your stay at {demo_property.name} is cancelled: {reservation.check_in:%d %b %Y} to {reservation.check_out:%d %b %Y} · {reservation.booking_number}"
    ]
    confirmations = OutboundEmail.objects.filter(reservation=reservation, kind="confirmation")
    assert {(row.status, row.last_error) for row in confirmations} == {("gave_up", "not sent: the stay is cancelled")}
    assert attention(Reservation.objects.get(pk=reservation.pk)) == ""  # nothing is missing


def test_the_pause_grows_to_at_most_an_hour():
    assert [retry_pause(n).total_seconds() for n in (1, 2, 3, 7, 20)] == [60, 120, 240, 3600, 3600]


def test_after_two_days_of_failures_it_gives_up_and_staff_are_told(demo_property, smtp):
    reservation = confirm(held_stay(demo_property))
    with time_machine.travel(timezone.now() + timedelta(days=2, minutes=1)):
        deliver_due_emails()
    assert set(OutboundEmail.objects.filter(reservation=reservation).values_list("status", flat=True)) == {"gave_up"}
    assert "could not be sent" in attention(Reservation.objects.get(pk=reservation.pk))


@pytest.mark.skipif("connection.vendor == 'sqlite'", reason="threads need a database that takes concurrent connections well")
def test_two_workers_at_once_send_each_email_once(transactional_db, demo_property):
    confirm(held_stay(demo_property))
    # The commit already delivered them (eagerly, in this process): owe them again, to race for.
    OutboundEmail.objects.update(status="pending", sent_at=None, attempts=0, next_attempt_at=timezone.now())
    mail.outbox.clear()
    barrier = threading.Barrier(2)
    counts = []

    def worker():
        barrier.wait()
        counts.append(deliver_due_emails())
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(counts) == 2 and len(mail.outbox) == 2


def test_the_cancellation_email_says_the_refund(demo_property, django_capture_on_commit_callbacks):
    reservation = confirm(held_stay(demo_property))
    deliver_due_emails()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        cancel_stay(reservation.pk, actor="staff anna", refund=Decimal("0"))
    guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
    assert "cancelled" in guest.subject and "none was due" in guest.body
    owner = next(m for m in mail.outbox if m.to != ["anna@example.com"])
    assert "/admin/reservations/reservation/" in owner.body


def test_the_cancellation_email_says_the_refund_by_the_policy(demo_property, client, settings, django_capture_on_commit_callbacks):
    settings.STRIPE_SECRET_KEY = ""  # the sandbox provider: paid and refunded for real, in test money
    demo_property.deposit_percent = 0  # paid in full (deposits: tests/money)
    demo_property.save()
    link = client.post("/api/v1/payments/checkout-link", stay(offset=40, guests=2), content_type="application/json").json()
    paid = client.post(urlsplit(link["checkout_url"]).path, {"email": "lucia@example.com", "name": "Lucia Verdi", "phone": "+39 347 1112233", "action": "pay"})
    assert paid.status_code == 303
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        cancelled = cancel_stay(link["reservation_id"], actor="staff x")  # 40 days before: all of it back
    assert cancelled.amount_refunded == cancelled.total > 0 and cancelled.refund_pending == 0
    guest = next(m for m in mail.outbox if m.to == ["lucia@example.com"])
    assert f"Refunded:    {cancelled.total:.2f} EUR" in guest.body and f"/manage/{cancelled.manage_token}" in guest.body


class TestThePreArrivalEmail:
    def test_goes_out_once_n_days_before_with_the_owners_instructions(self, demo_property, django_capture_on_commit_callbacks):
        demo_property.pre_arrival_message = "The door code is 4711.\n\nParking: Garage Sant'Ambrogio."
        demo_property.save()
        soon = confirm(held_stay(demo_property, days_ahead=3))
        later = confirm(held_stay(demo_property, days_ahead=20))
        deliver_due_emails()
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            assert queue_pre_arrival_emails() == 1
        with django_capture_on_commit_callbacks(execute=True):
            assert queue_pre_arrival_emails() == 0  # once
        guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
        assert "The door code is 4711." in guest.body and demo_property.contact_phone in guest.body
        assert f"/manage/{Reservation.objects.get(pk=soon.pk).manage_token}" in guest.body
        assert Reservation.objects.get(pk=later.pk).pre_arrival_sent_at is None

    def test_not_for_a_cancelled_stay(self, demo_property):
        stay = confirm(held_stay(demo_property, days_ahead=2))
        cancel_stay(stay.pk, actor="staff", refund=Decimal("0"))
        assert queue_pre_arrival_emails() == 0
