"""DELETE /api/v1/reservations/{id}: an agent lets go of an unpaid hold at once (DESIGN.md
"Party, strict input, releasing holds"). The checkout is closed at the provider first, so nobody
pays a released hold; anything but a live, unpaid hold is 409 `not_releasable`."""

from datetime import timedelta

import pytest
from django.utils import timezone

from booking.reservations.models import Reservation
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"


def release(client, reservation_id):
    return client.delete(f"/api/v1/reservations/{reservation_id}")


def test_a_hold_is_released_its_checkout_closed_and_the_dates_free(client, api, demo_property, fake_stripe):
    link = api.post(LINK, stay()).json()
    response = release(client, link["reservation_id"])
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "cancelled" and body["hold_expires_at"] is None and body["payment"]["checkout_url"] is None
    assert fake_stripe.sessions[link["session_id"]]["status"] == "expired"
    assert api.get("/api/v1/availability", **stay()).json()["available"] is True
    assert Reservation.objects.get(pk=link["reservation_id"]).events.get(action="release").actor == "api"


def test_a_hold_without_a_checkout_is_released_too(client, api, demo_property, sandbox):
    reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
    assert release(client, reservation_id).json()["status"] == "cancelled"


def test_releasing_twice_is_409_not_releasable(client, api, demo_property, sandbox):
    reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
    release(client, reservation_id)
    again = release(client, reservation_id)
    assert again.status_code == 409 and again.json()["code"] == "not_releasable"


def test_a_paid_stay_is_not_releasable(client, api, demo_property, fake_stripe, webhook):
    link = api.post(LINK, stay()).json()
    webhook(stripe_event("checkout.session.completed", fake_stripe.complete(link["session_id"])))
    response = release(client, link["reservation_id"])
    assert response.status_code == 409 and response.json()["code"] == "not_releasable"
    assert Reservation.objects.get(pk=link["reservation_id"]).status == "confirmed"


def test_a_hold_paid_whose_webhook_has_not_arrived_is_not_released(client, api, demo_property, fake_stripe):
    link = api.post(LINK, stay()).json()
    fake_stripe.complete(link["session_id"])
    response = release(client, link["reservation_id"])
    assert response.status_code == 409 and "paid" in response.json()["detail"]
    assert Reservation.objects.get(pk=link["reservation_id"]).status == "held"


def test_a_lapsed_hold_is_not_releasable(client, api, demo_property, sandbox):
    reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
    Reservation.objects.filter(pk=reservation_id).update(hold_expires_at=timezone.now() - timedelta(seconds=1))
    response = release(client, reservation_id)
    assert response.status_code == 409 and "expired" in response.json()["detail"]


def test_with_the_provider_down_the_hold_is_still_released(client, api, demo_property, fake_stripe):
    link = api.post(LINK, stay()).json()
    fake_stripe.fail_with = 500
    assert release(client, link["reservation_id"]).json()["status"] == "cancelled"


def test_a_payment_arriving_after_the_release_is_refunded(client, api, demo_property, fake_stripe, webhook):
    link = api.post(LINK, stay()).json()
    fake_stripe.fail_with = 500  # the session could not be closed
    release(client, link["reservation_id"])
    fake_stripe.fail_with = None
    fake_stripe.sessions[link["session_id"]]["status"] = "open"
    outcome = webhook(stripe_event("checkout.session.completed", fake_stripe.complete(link["session_id"]))).json()["outcome"]
    assert outcome.startswith("refunded") and len(fake_stripe.refunds) == 1


@pytest.mark.parametrize(("reservation_id", "status"), [("res_unknown", 404), ("x" * 201, 422)])
def test_unknown_and_absurd_ids(client, demo_property, sandbox, reservation_id, status):
    assert release(client, reservation_id).status_code == status
