"""Stripe Checkout through the real SDK (against a local Stripe-compatible server): what the session
carries, how long it and the hold last, reuse, idempotency, and what a provider failure leaves behind."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit

import pytest
from django.utils import timezone

from booking.payments.providers import STRIPE_API_VERSION
from booking.reservations.models import IdempotencyRecord, Reservation
from tests.payments.conftest import stay

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"
SESSION = "/api/v1/payments/checkout-session"
CHECKOUT_FIELDS = {"reservation_id", "checkout_url", "session_id", "expires_at", "amount", "currency", "provider", "status"}


def query_of(url: str) -> dict:
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}


class TestTheCheckoutSessionSentToStripe:
    def test_checkout_link_holds_the_stay_and_answers_with_the_stripe_checkout(self, api, demo_property, fake_stripe):
        response = api.post(LINK, stay(guests=3, agent_name="trip-planner"))
        assert response.status_code == 200, response.content
        body = response.json()
        assert CHECKOUT_FIELDS <= set(body)
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        assert (body["status"], body["provider"], body["currency"], body["test_mode"]) == ("held", "stripe", "EUR", False)
        assert body["amount"] == float(reservation.total) == reservation.price_breakdown["total"]
        assert body["session_id"].startswith("cs_test_") and body["checkout_url"] == f"https://checkout.stripe.test/c/pay/{body['session_id']}"
        assert (reservation.checkout_session_id, reservation.checkout_url, reservation.payment_provider) == (body["session_id"], body["checkout_url"], "stripe")
        assert reservation.agent_name == "trip-planner" and reservation.source == "api"

    def test_the_session_is_one_eur_line_item_of_the_frozen_total_tied_to_the_reservation(self, api, demo_property, fake_stripe):
        body = api.post(LINK, stay()).json()
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        [create] = fake_stripe.calls_to("POST", "/v1/checkout/sessions")
        form = create.form
        assert form["mode"] == "payment"
        assert form["line_items[0][quantity]"] == "1"
        assert form["line_items[0][price_data][currency]"] == "eur"
        assert int(form["line_items[0][price_data][unit_amount]"]) == int(reservation.total * 100)
        assert form["line_items[0][price_data][product_data][name]"] == f"Paid in full now: {reservation.total:.2f} EUR"
        assert "3 nights" in form["line_items[0][price_data][product_data][description]"]
        assert form["client_reference_id"] == reservation.pk
        assert form["metadata[reservation_id]"] == reservation.pk
        assert form["payment_intent_data[metadata][reservation_id]"] == reservation.pk
        assert form["phone_number_collection[enabled]"] == "true"
        assert "customer_email" not in form  # no guest details before payment: Checkout asks for the email
        assert create.headers["stripe-version"] == STRIPE_API_VERSION
        assert create.headers["authorization"] == "Bearer sk_test_fake_key"

    def test_return_urls_default_to_the_site_and_always_carry_the_reservation_id(self, api, demo_property, fake_stripe, settings):
        body = api.post(LINK, stay()).json()
        form = fake_stripe.calls_to("POST", "/v1/checkout/sessions")[0].form
        # Stripe puts the session id in place of {CHECKOUT_SESSION_ID}: the thank-you page shows the
        # manage link only to the browser that comes back with it.
        assert form["success_url"] == f"{settings.BASE_URL}/thank-you?reservation_id={body['reservation_id']}&session_id={{CHECKOUT_SESSION_ID}}"
        assert form["cancel_url"] == f"{settings.BASE_URL}/book?reservation_id={body['reservation_id']}"

    def test_given_return_urls_keep_their_query_and_gain_the_reservation_id(self, api, demo_property, fake_stripe, settings):
        settings.TRUSTED_RETURN_HOSTS = ["agent.example", "localhost"]  # followed as given (test_return_hosts.py)
        body = api.post(LINK, stay(success_url="https://agent.example/done?trip=42", cancel_url="http://localhost:3000/back")).json()
        form = fake_stripe.calls_to("POST", "/v1/checkout/sessions")[0].form
        assert form["success_url"].startswith("https://agent.example/done?")
        assert query_of(form["success_url"]) == {"trip": "42", "reservation_id": body["reservation_id"]}

    def test_an_agents_checkout_session_id_placeholder_reaches_stripe_literally(self, api, demo_property, fake_stripe, settings):
        settings.TRUSTED_RETURN_HOSTS = ["agent.example", "localhost"]  # followed as given (test_return_hosts.py)
        # Stripe replaces the literal {CHECKOUT_SESSION_ID} in success_url; percent-encoded, it never does.
        body = api.post(LINK, stay(success_url="https://agent.example/done?session={CHECKOUT_SESSION_ID}")).json()
        form = fake_stripe.calls_to("POST", "/v1/checkout/sessions")[-1].form
        assert form["success_url"] == f"https://agent.example/done?session={{CHECKOUT_SESSION_ID}}&reservation_id={body['reservation_id']}"
        assert query_of(form["cancel_url"]) == {"reservation_id": body["reservation_id"]}

    @pytest.mark.parametrize("url", ["http://agent.example/done", "ftp://localhost/x", "/thank-you", "https://a.example/x y"])
    def test_unsafe_return_urls_are_422_and_hold_nothing(self, api, demo_property, fake_stripe, url):
        response = api.post(LINK, stay(success_url=url))
        assert response.status_code == 422
        assert response.json()["detail"][0]["loc"] == ["body", "success_url"]
        assert not Reservation.objects.exists() and not fake_stripe.calls


class TestHowLongTheCheckoutAndTheHoldLast:
    def test_a_30_minute_hold_is_extended_to_stripes_31_minute_session(self, api, demo_property, fake_stripe, settings):
        settings.HOLD_MINUTES = 30
        before = timezone.now()
        body = api.post(LINK, stay()).json()
        expires_at = int(fake_stripe.calls_to("POST", "/v1/checkout/sessions")[0].form["expires_at"])
        assert expires_at >= (before + timedelta(minutes=31)).timestamp() - 1
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        assert reservation.hold_expires_at == datetime.fromtimestamp(expires_at, tz=UTC) == reservation.checkout_expires_at
        assert datetime.fromisoformat(body["expires_at"]) == reservation.checkout_expires_at
        assert reservation.events.filter(action="extend_hold").count() == 1

    def test_a_longer_hold_sets_the_session_expiry_and_is_not_changed(self, api, demo_property, fake_stripe, settings):
        settings.HOLD_MINUTES = 90
        body = api.post(LINK, stay()).json()
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        expires_at = int(fake_stripe.calls_to("POST", "/v1/checkout/sessions")[0].form["expires_at"])
        assert expires_at == int(reservation.hold_expires_at.timestamp())
        assert not reservation.events.filter(action="extend_hold").exists()


class TestProviderFailure:
    @pytest.mark.parametrize("status", [500, 402])
    def test_a_failing_provider_is_502_and_the_dates_are_free_again(self, api, demo_property, fake_stripe, status):
        fake_stripe.fail_with = status
        response = api.post(LINK, stay(), **{"Idempotency-Key": "retry-me"})
        assert response.status_code == 502
        assert response.json()["code"] == "payment_provider_error"
        [reservation] = Reservation.objects.all()
        assert reservation.status == "cancelled" and not reservation.is_blocking()
        availability = api.get("/api/v1/availability", check_in=stay()["check_in"], check_out=stay()["check_out"]).json()
        assert availability["available"] is True
        assert not IdempotencyRecord.objects.exists()  # the key was released: a retry may succeed
        fake_stripe.fail_with = None
        retry = api.post(LINK, stay(), **{"Idempotency-Key": "retry-me"})
        assert retry.status_code == 200 and retry.json()["status"] == "held"

    def test_an_unreachable_provider_is_502_too(self, api, demo_property, fake_stripe, settings):
        settings.STRIPE_API_BASE = "http://127.0.0.1:9"  # discard port: connection refused
        response = api.post(LINK, stay())
        assert response.status_code == 502 and response.json()["code"] == "payment_provider_error"
        assert not Reservation.objects.get().is_blocking()


class TestIdempotency:
    def test_the_same_key_and_body_return_the_first_answer_and_create_nothing(self, api, demo_property, fake_stripe):
        first = api.post(LINK, stay(), **{"Idempotency-Key": "k-1"})
        again = api.post(LINK, stay(), **{"Idempotency-Key": "k-1"})
        assert first.status_code == again.status_code == 200 and first.json() == again.json()
        assert Reservation.objects.count() == 1 and len(fake_stripe.calls_to("POST", "/v1/checkout/sessions")) == 1

    def test_the_same_key_with_another_body_is_409(self, api, demo_property, fake_stripe):
        api.post(LINK, stay(), **{"Idempotency-Key": "k-2"})
        response = api.post(LINK, stay(offset=60), **{"Idempotency-Key": "k-2"})
        assert response.status_code == 409 and response.json()["code"] == "idempotency_key_reused"

    def test_checkout_session_supports_the_key_too(self, api, demo_property, fake_stripe):
        reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
        first = api.post(SESSION, {"reservation_id": reservation_id}, **{"Idempotency-Key": "s-1"})
        again = api.post(SESSION, {"reservation_id": reservation_id}, **{"Idempotency-Key": "s-1"})
        assert first.json() == again.json()
        other = api.post(SESSION, {"reservation_id": reservation_id, "success_url": "https://x.example/"}, **{"Idempotency-Key": "s-1"})
        assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"


class TestCheckoutSessionForAnExistingHold:
    def test_a_held_reservation_gets_a_checkout_that_does_not_reveal_the_guests_email(self, api, demo_property, fake_stripe):
        """The reservation id is enough to open the payment page, so the page must not show the
        address given at hold time (issue 12, item 6): Checkout asks for it instead."""
        reservation_id = api.post("/api/v1/reservations", stay(guest={"email": "anna@example.com"})).json()["id"]
        response = api.post(SESSION, {"reservation_id": reservation_id})
        assert response.status_code == 200, response.content
        assert response.json()["reservation_id"] == reservation_id
        assert "customer_email" not in fake_stripe.calls_to("POST", "/v1/checkout/sessions")[0].form

    def test_an_open_session_is_reused_not_duplicated(self, api, demo_property, fake_stripe):
        link = api.post(LINK, stay()).json()
        again = api.post(SESSION, {"reservation_id": link["reservation_id"]}).json()
        assert (again["session_id"], again["checkout_url"]) == (link["session_id"], link["checkout_url"])
        assert len(fake_stripe.calls_to("POST", "/v1/checkout/sessions")) == 1

    def test_a_session_about_to_close_is_replaced_and_the_old_one_expired(self, api, demo_property, fake_stripe):
        link = api.post(LINK, stay()).json()
        Reservation.objects.filter(pk=link["reservation_id"]).update(checkout_expires_at=timezone.now() + timedelta(seconds=30))
        again = api.post(SESSION, {"reservation_id": link["reservation_id"]}).json()
        assert again["session_id"] != link["session_id"]
        assert fake_stripe.sessions[link["session_id"]]["status"] == "expired"
        assert Reservation.objects.get(pk=link["reservation_id"]).checkout_session_id == again["session_id"]

    def test_an_unknown_reservation_is_404(self, api, demo_property, fake_stripe):
        response = api.post(SESSION, {"reservation_id": "res_doesnotexist"})
        assert response.status_code == 404 and response.json()["code"] == "not_found"

    def test_a_missing_reservation_id_is_422(self, api, demo_property, fake_stripe):
        response = api.post(SESSION, {})
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "reservation_id"]

    @pytest.mark.parametrize("status", ["confirmed", "expired", "cancelled"])
    def test_a_reservation_that_is_not_held_is_not_payable(self, api, demo_property, fake_stripe, status):
        reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
        Reservation.objects.filter(pk=reservation_id).update(status=status)
        response = api.post(SESSION, {"reservation_id": reservation_id})
        assert response.status_code == 409 and response.json()["code"] == "reservation_not_payable"
        assert not fake_stripe.calls

    def test_a_hold_that_lapsed_is_not_payable_even_before_the_expiry_job_ran(self, api, demo_property, fake_stripe):
        reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
        Reservation.objects.filter(pk=reservation_id).update(hold_expires_at=timezone.now() - timedelta(seconds=1))
        response = api.post(SESSION, {"reservation_id": reservation_id})
        assert response.status_code == 409 and response.json()["code"] == "reservation_not_payable"

    def test_the_amount_is_the_frozen_total_even_if_rates_change_later(self, api, demo_property, fake_stripe):
        reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
        frozen = Reservation.objects.get(pk=reservation_id).total
        demo_property.base_nightly_rate += Decimal("100")
        demo_property.save()
        body = api.post(SESSION, {"reservation_id": reservation_id}).json()
        assert body["amount"] == float(frozen)
        assert int(fake_stripe.calls_to("POST", "/v1/checkout/sessions")[0].form["line_items[0][price_data][unit_amount]"]) == int(frozen * 100)
