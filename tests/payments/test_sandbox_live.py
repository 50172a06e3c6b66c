"""The embedded default end to end over HTTP, against the real server processes (granian and a Celery
worker): an agent asks for a checkout link, a person opens the sandbox page and pays, the
reservation is confirmed with the payer's details and the guest receives the confirmation email
over SMTP, with the manage link and the stay as a calendar file."""

import email
import email.policy
import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from booking.reservations.models import Reservation
from tests.live import free_port, live_server
from tests.payments.conftest import stay

pytestmark = [pytest.mark.live, pytest.mark.timeout(120)]
TIMEOUT = 15


class Inbox:
    """A real SMTP server (aiosmtpd) on a free port; what it receives, parsed."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"

    def wait_for(self, count: int, timeout: float = 30) -> list[email.message.EmailMessage]:
        deadline = time.monotonic() + timeout
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.2)
        return list(self.messages)


@pytest.fixture
def smtp_inbox():
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.port = controller.port
    yield inbox
    controller.stop()


def test_checkout_link_then_sandbox_payment_confirms_and_emails_the_guest(transactional_db, demo_property, smtp_inbox):
    """Over real SMTP (EMAIL_URL), delivered by a Celery worker from the outbox, as under make run."""
    env = {
        "STRIPE_SECRET_KEY": "",
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_inbox.port}",
        "OWNER_EMAIL": "owner@example.com",
    }
    with live_server(env=env, jobs=True) as base_url:
        link = requests.post(f"{base_url}/api/v1/payments/checkout-link", json=stay(guests=2, agent_name="e2e-agent"), timeout=TIMEOUT)
        assert link.status_code == 200, link.text
        body = link.json()
        assert body["provider"] == "sandbox" and body["checkout_url"].startswith(base_url + "/api/v1/payments/sandbox/")

        browser = requests.Session()
        page = browser.get(body["checkout_url"], timeout=TIMEOUT)
        assert page.status_code == 200 and "TEST PAYMENT — no money moves" in page.text
        assert 'id="pay-button"' in page.text and 'id="cancel-button"' in page.text
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]

        paid = browser.post(
            body["checkout_url"],
            data={"csrfmiddlewaretoken": token, "email": "giulia@example.com", "name": "Giulia Neri", "phone": "+39 320 5556677", "action": "pay"},
            headers={"Referer": body["checkout_url"]},
            allow_redirects=False,
            timeout=TIMEOUT,
        )
        assert paid.status_code == 303, paid.text
        target = urlsplit(paid.headers["Location"])
        assert (f"{target.scheme}://{target.netloc}", target.path) == (base_url, "/thank-you")
        assert parse_qs(target.query)["reservation_id"] == [body["reservation_id"]]

        status = requests.get(f"{base_url}/api/v1/reservations/{body['reservation_id']}", timeout=TIMEOUT).json()
        assert status["status"] == "confirmed" and status["payment"]["status"] == "paid"
        assert status["guest"]["email"] == "g***@example.com" and status["guest"]["phone"] == "***6677"
        messages = smtp_inbox.wait_for(2)  # the worker delivers the outbox after the payment commits

    reservation = Reservation.objects.get(pk=body["reservation_id"])
    assert (reservation.guest_first_name, reservation.guest_last_name, reservation.guest_email) == ("Giulia", "Neri", "giulia@example.com")
    assert reservation.amount_paid == reservation.total and reservation.payment_provider == "sandbox"

    assert any(m["To"] == "giulia@example.com" for m in messages), [(m["To"], m["Subject"]) for m in messages]
    guest = next(m for m in messages if m["To"] == "giulia@example.com")
    owner = next(m for m in messages if m["To"] == "owner@example.com")
    subject = str(guest["Subject"]).strip()
    assert subject.startswith("[TEST] Your stay at") and "is confirmed" in subject
    text, html = guest.get_body(("plain",)).get_content(), guest.get_body(("html",)).get_content()
    assert "TEST PAYMENT — no money moves" in text and "TEST PAYMENT — no money moves" in html
    assert reservation.booking_number in text and reservation.booking_number in html
    assert "Giulia Neri" in owner.get_body(("plain",)).get_content()
    assert f"/manage/{reservation.manage_token}" in text and f"/manage/{reservation.manage_token}" in html
    # The stay as an all-day calendar event: DTSTART = check-in, DTEND = check-out.
    [attachment] = [part for part in guest.iter_attachments() if part.get_content_type() == "text/calendar"]
    from icalendar import Calendar

    [event] = Calendar.from_ical(attachment.get_content()).walk("VEVENT")
    assert (event.decoded("dtstart"), event.decoded("dtend")) == (reservation.check_in, reservation.check_out)
    assert len(smtp_inbox.messages) == 2  # once each
