"""The sandbox provider (no STRIPE_SECRET_KEY): a test checkout page served by the service itself.
Paying or cancelling there goes through the same event handlers as a Stripe webhook, and the page
says everywhere that no money moves."""

import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from booking.errors import ServiceUnavailable
from booking.payments import events
from booking.payments.models import PaymentEvent, SandboxCheckout
from booking.payments.services.checkouts import reconcile_open_checkouts
from booking.reservations.models import Reservation
from tests.payments.conftest import stay

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"
PAYER = {"email": "lucia@example.com", "name": "Lucia Verdi", "phone": "+39 347 1112233"}


@pytest.fixture
def link(api, demo_property, sandbox, settings):
    settings.TRUSTED_RETURN_HOSTS = ["agent.example"]  # followed as given (tests/payments/test_return_hosts.py)
    response = api.post(LINK, stay(success_url="https://agent.example/done"))
    assert response.status_code == 200, response.content
    return response.json()


def page_path(link) -> str:
    return urlsplit(link["checkout_url"]).path


class TestTheSandboxCheckout:
    def test_checkout_link_points_at_the_sandbox_page_and_says_it_is_a_test(self, link, settings):
        assert (link["provider"], link["test_mode"], link["status"]) == ("sandbox", True, "held")
        assert link["session_id"].startswith("cs_sandbox_")
        assert link["checkout_url"] == f"{settings.BASE_URL}/api/v1/payments/sandbox/{link['session_id']}"

    def test_the_page_shows_the_stay_a_labelled_form_and_the_test_marking(self, client, link):
        response = client.get(page_path(link))
        html = response.content.decode()
        assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
        assert html.count("TEST PAYMENT — no money moves") >= 2
        for field in ("email", "name", "phone"):
            assert re.search(rf'<label for="{field}">', html) and re.search(rf'<input id="{field}" name="{field}"', html)
        amount = f"€{link['amount']:,.2f}"
        assert re.search(rf'<button[^>]*id="pay-button"[^>]*>Pay {re.escape(amount)} \(test\)</button>', html)
        assert 'id="cancel-button"' in html and "csrfmiddlewaretoken" in html
        breakdown = link["price_breakdown"]
        for label in ("accommodation", "cleaning_fee", "city_tax"):
            assert f"€{breakdown[label]:,.2f}" in html
        assert 'name="viewport"' in html  # usable on a phone
        assert response["Cache-Control"].startswith("max-age=0")

    def test_paying_confirms_backfills_the_payer_and_returns_to_the_success_url(self, client, link, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(page_path(link), {**PAYER, "action": "pay"})
        assert response.status_code == 303
        target = urlsplit(response["Location"])
        assert (target.netloc, target.path) == ("agent.example", "/done")
        assert parse_qs(target.query) == {"reservation_id": [link["reservation_id"]]}
        paid = Reservation.objects.get(pk=link["reservation_id"])
        assert paid.status == "confirmed" and paid.amount_paid == paid.total
        assert (paid.guest_email, paid.guest_first_name, paid.guest_last_name, paid.guest_phone) == ("lucia@example.com", "Lucia", "Verdi", "+39 347 1112233")
        # The same path as a Stripe webhook: a checkout.session.completed event, applied once.
        [event] = PaymentEvent.objects.all()
        assert (event.event_type, event.source, event.reservation_id) == ("checkout.session.completed", "sandbox checkout", paid.pk)
        assert paid.events.get(action="confirm").actor == "sandbox checkout"
        guest_mail = next(m for m in mail.outbox if m.to == ["lucia@example.com"])
        assert "TEST PAYMENT" in guest_mail.body and guest_mail.subject.startswith("[TEST]")

    def test_paying_again_changes_nothing(self, client, link):
        client.post(page_path(link), {**PAYER, "action": "pay"})
        again = client.post(page_path(link), {**PAYER, "email": "other@example.com", "action": "pay"})
        assert again.status_code == 409 and "test payment is complete" in again.content.decode()
        paid = Reservation.objects.get(pk=link["reservation_id"])
        assert paid.guest_email == "lucia@example.com" and paid.events.filter(action="confirm").count() == 1

    @pytest.mark.parametrize("bad", [{"email": "not-an-email"}, {"name": ""}, {"phone": ""}, {"phone": "1" * 41}])
    def test_invalid_payer_details_are_shown_again_and_nothing_is_paid(self, client, link, bad):
        response = client.post(page_path(link), {**PAYER, **bad, "action": "pay"})
        assert response.status_code == 400 and 'class="error"' in response.content.decode()
        assert Reservation.objects.get(pk=link["reservation_id"]).status == "held"
        assert SandboxCheckout.objects.get().status == "open"

    def test_line_breaks_in_payer_details_are_flattened(self, client, link):
        client.post(page_path(link), {**PAYER, "name": "Lucia\r\nBcc: x@evil.example", "action": "pay"})
        paid = Reservation.objects.get(pk=link["reservation_id"])
        assert "\n" not in paid.guest_name and "\r" not in paid.guest_name

    def test_cancelling_releases_the_hold_and_returns_to_the_cancel_url(self, api, client, link, settings):
        response = client.post(page_path(link), {"action": "cancel"})
        assert response.status_code == 303
        assert response["Location"] == f"{settings.BASE_URL}/book?reservation_id={link['reservation_id']}"
        assert Reservation.objects.get(pk=link["reservation_id"]).status == "expired"
        assert PaymentEvent.objects.get().event_type == "checkout.session.expired"
        assert api.get("/api/v1/availability", check_in=stay()["check_in"], check_out=stay()["check_out"]).json()["available"] is True
        assert client.post(page_path(link), {**PAYER, "action": "pay"}).status_code == 409

    def test_an_expired_session_cannot_be_paid_and_reconciliation_releases_its_hold(self, client, link):
        SandboxCheckout.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
        page = client.get(page_path(link))
        assert "has expired" in page.content.decode() and 'id="pay-button"' not in page.content.decode()
        assert client.post(page_path(link), {**PAYER, "action": "pay"}).status_code == 409
        assert reconcile_open_checkouts() == 1
        assert Reservation.objects.get(pk=link["reservation_id"]).status == "expired"

    def test_a_payment_whose_confirmation_failed_is_picked_up_by_reconciliation(self, client, link, monkeypatch):
        def busy(*args, **kwargs):
            raise ServiceUnavailable()

        monkeypatch.setattr("booking.payments.sandbox.apply_payment_event", busy)
        response = client.post(page_path(link), {**PAYER, "action": "pay"})
        assert response.status_code == 202 and "Test payment received" in response.content.decode()
        assert Reservation.objects.get(pk=link["reservation_id"]).status == "held"
        monkeypatch.undo()
        assert reconcile_open_checkouts() == 1
        assert Reservation.objects.get(pk=link["reservation_id"]).status == "confirmed"

    def test_an_unknown_session_is_a_404_page(self, client, sandbox, demo_property):
        response = client.get("/api/v1/payments/sandbox/cs_sandbox_nope")
        assert response.status_code == 404 and "Checkout not found" in response.content.decode()
        assert client.post("/api/v1/payments/sandbox/cs_sandbox_nope", PAYER).status_code == 404

    def test_with_stripe_configured_the_sandbox_takes_no_payment(self, client, link, settings):
        settings.STRIPE_SECRET_KEY = "sk_live_whatever"
        assert client.get(page_path(link)).status_code == 404
        assert client.post(page_path(link), {**PAYER, "action": "pay"}).status_code == 404
        assert Reservation.objects.get(pk=link["reservation_id"]).status == "held"

    def test_the_form_is_csrf_protected(self, link):
        strict = Client(enforce_csrf_checks=True)
        assert strict.post(page_path(link), {**PAYER, "action": "pay"}).status_code == 403
        assert Reservation.objects.get(pk=link["reservation_id"]).status == "held"

    def test_the_sandbox_never_confirms_without_a_payment_event(self, client, link, monkeypatch):
        applied = []
        monkeypatch.setitem(events.HANDLERS, "checkout.session.completed", lambda session, actor: applied.append(session) or events.Outcome(None, "swallowed"))
        client.post(page_path(link), {**PAYER, "action": "pay"})
        assert applied and applied[0]["payment_status"] == "paid" and applied[0]["customer_details"]["email"] == PAYER["email"]
        assert Reservation.objects.get(pk=link["reservation_id"]).status == "held"
