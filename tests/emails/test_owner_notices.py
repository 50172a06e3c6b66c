"""The owner's one-off notices (a website inquiry, a payment refunded because it could not become a
stay) leave the request through the outbox, like the stay's emails: written with what they report,
sent by the Celery task after commit, retried while the mail server is down. An SMTP outage delays
them; it never loses one and never fails the contact form or the payment webhook."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_due_emails
from booking.reservations.models import Reservation
from pages.models import ContactInquiry
from tests.payments.conftest import fake_stripe, stay, stripe_event, webhook  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

INQUIRY = {"name": "Ada Lovelace", "email": "ada@example.com", "message": "Is the terrace shaded in the afternoon in May?"}


def post_inquiry(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return client.post("/contact", INQUIRY)


class TestAWebsiteInquiry:
    def test_is_emailed_to_the_owner_after_commit(self, client, demo_property, django_capture_on_commit_callbacks):
        assert post_inquiry(client, django_capture_on_commit_callbacks).status_code == 302
        inquiry = ContactInquiry.objects.get()
        assert inquiry.emailed and inquiry.outbound_email.status == "sent"
        [message] = mail.outbox
        assert message.to == [demo_property.contact_email] and message.reply_to == ["ada@example.com"]
        assert message.subject == "Website inquiry from Ada Lovelace" and "Is the terrace shaded" in message.body

    def test_is_owed_in_the_request_and_sent_only_after_commit(self, client, demo_property):
        # The test's transaction never commits: the email is owed, and nothing was sent inline.
        assert client.post("/contact", INQUIRY).status_code == 302
        assert mail.outbox == [] and OutboundEmail.objects.get(kind="inquiry").status == "pending"

    def test_smtp_down_the_guest_is_thanked_and_the_email_goes_out_on_a_retry(self, client, demo_property, smtp, django_capture_on_commit_callbacks):
        answer = post_inquiry(client, django_capture_on_commit_callbacks)  # nothing listens on the port
        assert answer.status_code == 302 and answer["Location"] == "/contact?sent=1"
        inquiry = ContactInquiry.objects.get()
        row = inquiry.outbound_email
        assert (inquiry.emailed, row.status, row.attempts) == (False, "pending", 1)
        assert "Connection" in row.last_error and demo_property.contact_email not in row.last_error
        smtp.start()
        with time_machine.travel(timezone.now() + timedelta(minutes=2)):
            assert deliver_due_emails() == 1
            assert deliver_due_emails() == 0  # once
        [message] = smtp.messages
        assert message["To"] == demo_property.contact_email and message["Reply-To"] == "ada@example.com"
        assert ContactInquiry.objects.get().emailed is True

    def test_after_two_days_of_failures_it_is_given_up_and_stays_in_the_admin_as_not_emailed(
        self, client, demo_property, smtp, django_capture_on_commit_callbacks
    ):
        post_inquiry(client, django_capture_on_commit_callbacks)
        with time_machine.travel(timezone.now() + timedelta(days=2, minutes=1)):
            deliver_due_emails()
        assert OutboundEmail.objects.get(kind="inquiry").status == "gave_up"
        assert ContactInquiry.objects.get().emailed is False


@pytest.fixture
def refunded_payment(api, demo_property, fake_stripe, webhook):  # noqa: F811
    """Deliver a payment for nights someone else holds meanwhile: it is refunded. Returns the
    webhook's response, the late reservation's id and a function that delivers the event again."""

    def deliver():
        return webhook(stripe_event("checkout.session.completed", session))

    link = api.post("/api/v1/payments/checkout-link", stay()).json()
    Reservation.objects.filter(pk=link["reservation_id"]).update(hold_expires_at=timezone.now() - timedelta(minutes=1))
    api.post("/api/v1/payments/checkout-link", stay())  # someone else holds the same nights
    session = fake_stripe.complete(link["session_id"])
    return deliver, link["reservation_id"]


class TestTheOwnerIsToldOfARefundedPayment:
    def test_after_commit_through_the_outbox(self, refunded_payment, demo_property, django_capture_on_commit_callbacks):
        deliver, reservation_id = refunded_payment
        with django_capture_on_commit_callbacks(execute=True):
            assert deliver().json()["outcome"].startswith("refunded")
        [notice] = [m for m in mail.outbox if "needs attention" in m.subject]
        number = Reservation.objects.get(pk=reservation_id).booking_number  # the number people search by
        assert notice.subject == f"Payment refunded, needs attention: {number}" and notice.to == [demo_property.contact_email]
        assert "Refunded:" in notice.body and "/admin/reservations/reservation/" in notice.body
        row = OutboundEmail.objects.get(reservation_id=reservation_id, kind="refunded_payment")
        assert row.status == "sent"
        assert Reservation.objects.get(pk=reservation_id).events.filter(action="email", note__contains="payment refunded").exists()

    def test_smtp_down_the_webhook_still_succeeds_and_the_notice_goes_out_on_a_retry(self, refunded_payment, smtp, django_capture_on_commit_callbacks):
        deliver, reservation_id = refunded_payment
        with django_capture_on_commit_callbacks(execute=True):
            response = deliver()  # nothing listens on the port
        assert response.status_code == 200 and response.json()["outcome"].startswith("refunded")
        row = OutboundEmail.objects.get(reservation_id=reservation_id, kind="refunded_payment")
        assert (row.status, row.attempts) == ("pending", 1) and "Connection" in row.last_error
        smtp.start()
        with time_machine.travel(timezone.now() + timedelta(minutes=2)):
            deliver_due_emails()
        [notice] = [m for m in smtp.messages if "needs attention" in str(m["Subject"])]
        assert Reservation.objects.get(pk=reservation_id).booking_number in str(notice["Subject"])
        assert OutboundEmail.objects.get(pk=row.pk).status == "sent"

    def test_a_repeated_delivery_of_the_event_owes_no_second_notice(self, refunded_payment, django_capture_on_commit_callbacks):
        deliver, reservation_id = refunded_payment
        with django_capture_on_commit_callbacks(execute=True):
            deliver()
            assert deliver().json()["outcome"].startswith("duplicate")
        assert OutboundEmail.objects.filter(reservation_id=reservation_id, kind="refunded_payment").count() == 1
        assert len([m for m in mail.outbox if "needs attention" in m.subject]) == 1
