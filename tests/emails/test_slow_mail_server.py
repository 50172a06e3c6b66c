"""A mail server that takes the message but answers after EMAIL_TIMEOUT (issue 28, item 5).

Once the server has the whole message, a missing 250 leaves the outcome unknown: it may have been
delivered. The email is then recorded as sent, unconfirmed, and never sent again (before the fix,
each timeout was "not sent" and the guest got a copy per retry for two days). A server slow before
it has the message (at RCPT) has not got it: that email is retried as before. Every attempt at one
email carries the same Message-ID, so even a copy that does arrive twice shows as one."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_due_emails, message_id
from tests.emails.test_outbox import confirm, held_stay

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(60)]


@pytest.fixture
def slow_server(smtp, settings):
    settings.EMAIL_TIMEOUT = 1
    smtp.start()
    return smtp


def test_a_timeout_after_the_message_was_handed_over_is_sent_unconfirmed_and_never_resent(demo_property, slow_server):
    slow_server.data_delay = 2
    reservation = confirm(held_stay(demo_property))
    assert deliver_due_emails() == 2
    rows = OutboundEmail.objects.filter(reservation=reservation)
    assert {(row.recipient, row.status) for row in rows} == {("guest", "unconfirmed"), ("owner", "unconfirmed")}
    assert all("did not confirm" in row.last_error for row in rows)
    with time_machine.travel(timezone.now() + timedelta(hours=6)):
        assert deliver_due_emails() == 0
    assert len(slow_server.messages) == 2  # one copy each, however long the outbox runs
    history = reservation.events.filter(action="email").values_list("note", flat=True)
    assert any("unconfirmed (not resent)" in note for note in history)


def test_a_timeout_before_the_server_has_the_message_is_retried(demo_property, slow_server):
    slow_server.rcpt_delay = 2
    reservation = confirm(held_stay(demo_property))
    assert deliver_due_emails() == 0
    assert set(OutboundEmail.objects.filter(reservation=reservation).values_list("status", flat=True)) == {"pending"}
    slow_server.rcpt_delay = 0
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        assert deliver_due_emails() == 2
    assert set(OutboundEmail.objects.filter(reservation=reservation).values_list("status", flat=True)) == {"sent"}


def test_every_attempt_at_one_email_carries_the_same_message_id(demo_property, slow_server):
    slow_server.rcpt_delay = 2
    reservation = confirm(held_stay(demo_property))
    deliver_due_emails()
    slow_server.rcpt_delay = 0
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        deliver_due_emails()
    guest_row = OutboundEmail.objects.get(reservation=reservation, recipient="guest")
    [received] = [m for m in slow_server.messages if m["To"] == "anna@example.com"]
    assert received["Message-ID"] == message_id(guest_row) and message_id(guest_row).startswith(f"<outbox-{guest_row.pk}.")
