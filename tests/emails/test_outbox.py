"""Every email goes through the outbox (issue 13): written with the change it reports, delivered
by a Celery task, retried with a growing pause while the mail server is down, never lost, never
sent twice, and never failing the payment or the cancel that queued it."""

import email
import email.policy
import threading
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.utils import timezone

from booking.models import OutboundEmail, Reservation
from booking.notifications import deliver_due_emails, retry_pause
from booking.services.cancellation import cancel_stay
from booking.services.reservations import Payer, confirm_reservation
from booking.services.stays_mail import queue_pre_arrival_emails
from tests.conftest import future
from tests.live import free_port

pytestmark = pytest.mark.django_db


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"


@pytest.fixture
def smtp(settings):
    """Django's SMTP backend pointed at a port; `start()` puts a real SMTP server (aiosmtpd) there."""
    from aiosmtpd.controller import Controller

    port = free_port()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 3
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    inbox.start, inbox.stop = controller.start, controller.stop
    yield inbox
    try:
        controller.stop()
    except Exception:
        pass


def held_stay(demo_property, days_ahead=40, email_address="anna@example.com"):
    from booking.services.holds import GuestDetails, hold_stay

    return hold_stay(check_in=future(days_ahead), check_out=future(days_ahead + 3), guests=2, guest=GuestDetails(email=email_address, first_name="Anna"))


def confirm(reservation):
    return confirm_reservation(reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi"), amount_paid=reservation.total, payment_intent_id="pi_test")


def test_the_confirmation_is_owed_to_the_guest_and_the_owner_from_the_moment_of_payment(demo_property):
    reservation = confirm(held_stay(demo_property))
    rows = OutboundEmail.objects.filter(reservation=reservation)
    assert {(r.kind, r.recipient, r.status) for r in rows} == {("confirmation", "guest", "pending"), ("confirmation", "owner", "pending")}


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


def test_the_pause_grows_to_at_most_an_hour():
    assert [retry_pause(n).total_seconds() for n in (1, 2, 3, 7, 20)] == [60, 120, 240, 3600, 3600]


def test_after_two_days_of_failures_it_gives_up_and_staff_are_told(demo_property, smtp):
    reservation = confirm(held_stay(demo_property))
    with time_machine.travel(timezone.now() + timedelta(days=2, minutes=1)):
        deliver_due_emails()
    assert set(OutboundEmail.objects.filter(reservation=reservation).values_list("status", flat=True)) == {"gave_up"}
    assert "could not be sent" in Reservation.objects.get(pk=reservation.pk).needs_attention


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
    assert "/admin/booking/reservation/" in owner.body


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
