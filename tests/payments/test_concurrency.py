"""Stripe delivers the same event more than once, sometimes at the same moment: the change is made
once. Each thread has its own database connection, as separate web processes would."""

import json
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from booking.payments.models import PaymentEvent
from booking.reservations.models import Reservation
from tests.payments.conftest import signature, stay, stripe_event

pytestmark = pytest.mark.timeout(60)
LINK = "/api/v1/payments/checkout-link"


def deliver_at_once(event: dict, times: int) -> list:
    payload = json.dumps(event).encode()
    barrier, answers = threading.Barrier(times), []

    def deliver():
        try:
            barrier.wait(timeout=10)
            response = Client().post(
                "/api/v1/payments/webhook", data=payload, content_type="application/json", headers={"Stripe-Signature": signature(payload)}
            )
            answers.append((response.status_code, response.json().get("outcome", "")))
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def test_simultaneous_deliveries_of_a_payment_confirm_once(transactional_db, demo_property, fake_stripe, api):
    body = api.post(LINK, stay()).json()
    answers = deliver_at_once(stripe_event("checkout.session.completed", fake_stripe.complete(body["session_id"])), 4)
    assert sorted(status for status, _ in answers) == [200] * 4
    assert [outcome for _, outcome in answers].count("confirmed") == 1
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    assert reservation.status == "confirmed" and reservation.events.filter(action="confirm").count() == 1
    assert PaymentEvent.objects.count() == 1


def test_simultaneous_deliveries_of_an_unbookable_payment_refund_once(transactional_db, demo_property, fake_stripe, api):
    body = api.post(LINK, stay()).json()
    Reservation.objects.filter(pk=body["reservation_id"]).update(hold_expires_at=timezone.now() - timedelta(minutes=1))
    api.post(LINK, stay())  # the nights are taken by someone else
    answers = deliver_at_once(stripe_event("checkout.session.completed", fake_stripe.complete(body["session_id"])), 3)
    assert sorted(status for status, _ in answers) == [200] * 3
    assert len(fake_stripe.refunds) == 1
    late = Reservation.objects.get(pk=body["reservation_id"])
    assert late.amount_refunded == late.total and late.events.filter(action="flag").count() == 1
