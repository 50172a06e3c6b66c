"""Fixtures for the payment tests: a Stripe-compatible server, signed webhooks, checkout helpers."""

import hashlib
import hmac
import json
import time

import pytest

from booking.payments import providers
from tests.dates import future
from tests.payments.fake_stripe import FakeStripeServer

WEBHOOK_SECRET = "whsec_test_0123456789"


@pytest.fixture
def fake_stripe(settings):
    """Stripe configured (so the service uses it) and pointed at a local fake through the SDK."""
    with FakeStripeServer() as fake:
        settings.STRIPE_SECRET_KEY = "sk_test_fake_key"
        settings.STRIPE_API_BASE = fake.api_base
        settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
        yield fake


@pytest.fixture
def sandbox(settings):
    """No Stripe key: the built-in sandbox provider."""
    settings.STRIPE_SECRET_KEY = ""
    settings.STRIPE_WEBHOOK_SECRET = ""
    assert providers.active_provider_name() == "sandbox"


def stay(offset: int = 40, nights: int = 3, **extra) -> dict:
    return {"check_in": str(future(offset)), "check_out": str(future(offset + nights)), **extra}


def signature(payload: bytes, *, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """Stripe's scheme, written out: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + payload, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def stripe_event(event_type: str, obj: dict, event_id: str | None = None) -> dict:
    return {
        "id": event_id or f"evt_{obj['id']}_{event_type}",
        "object": "event",
        "api_version": providers.STRIPE_API_VERSION,
        "created": int(time.time()),
        "livemode": False,
        "type": event_type,
        "data": {"object": obj},
    }


@pytest.fixture
def webhook(client):
    """POST a signed event to the webhook, exactly as Stripe sends it."""

    def send(
        event: dict | None = None,
        *,
        body: bytes | None = None,
        secret: str = WEBHOOK_SECRET,
        timestamp: int | None = None,
        sign: bytes | None = None,
        header: str | None = None,
    ):
        payload = body if body is not None else json.dumps(event).encode()
        headers = {"Stripe-Signature": header if header is not None else signature(sign if sign is not None else payload, secret=secret, timestamp=timestamp)}
        return client.post("/api/v1/payments/webhook", data=payload, content_type="application/json", headers=headers)

    return send


@pytest.fixture
def demo_property(demo_property):
    """These tests are about a stay paid at once (the checkout, webhooks, refunds): the demo's 30 %
    deposit is switched off. Deposits and balances are tested in tests/money."""
    demo_property.deposit_percent = 0
    demo_property.save()
    return demo_property
