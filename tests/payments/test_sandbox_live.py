"""The embedded default end to end over HTTP, against the real server process (uvicorn): an agent
asks for a checkout link, a person opens the sandbox page and pays, the reservation is confirmed
with the payer's details and the guest receives the confirmation email."""

import email
import email.policy
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from booking.models import Reservation
from tests.live import live_server
from tests.payments.conftest import stay

pytestmark = [pytest.mark.live, pytest.mark.timeout(120)]
TIMEOUT = 15


def read_emails(folder: Path) -> list[email.message.EmailMessage]:
    messages = []
    for path in sorted(folder.glob("*.log")):
        # The file backend writes each message followed by a line of dashes.
        for chunk in path.read_bytes().split(b"-" * 79):
            if chunk.strip():
                messages.append(email.message_from_bytes(chunk.strip(), policy=email.policy.default))
    return messages


def test_checkout_link_then_sandbox_payment_confirms_and_emails_the_guest(transactional_db, demo_property, tmp_path):
    mail_dir = tmp_path / "mail"
    env = {
        "STRIPE_SECRET_KEY": "",
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(mail_dir),
        "OWNER_EMAIL": "owner@example.com",
    }
    with live_server(env=env) as base_url:
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

    reservation = Reservation.objects.get(pk=body["reservation_id"])
    assert (reservation.guest_first_name, reservation.guest_last_name, reservation.guest_email) == ("Giulia", "Neri", "giulia@example.com")
    assert reservation.amount_paid == reservation.total and reservation.payment_provider == "sandbox"

    messages = read_emails(mail_dir)
    guest = next(m for m in messages if m["To"] == "giulia@example.com")
    owner = next(m for m in messages if m["To"] == "owner@example.com")
    subject = str(guest["Subject"]).strip()
    assert subject.startswith("[TEST] Your stay at") and "is confirmed" in subject
    text, html = guest.get_body(("plain",)).get_content(), guest.get_body(("html",)).get_content()
    assert "TEST PAYMENT — no money moves" in text and "TEST PAYMENT — no money moves" in html
    assert body["reservation_id"] in text and body["reservation_id"] in html
    assert "Giulia Neri" in owner.get_body(("plain",)).get_content()
