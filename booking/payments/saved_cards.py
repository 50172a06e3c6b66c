"""Charging the card a guest saved at checkout, later and without them: the balance on its due date
(and the security deposit's hold, captured or released). Stripe through the official SDK, or the
sandbox. A refused card is an answer (Charge.declined), not an error; a provider that does not
answer is PaymentProviderError, and the job tries again.

Stripe calls: PaymentIntent create (off_session=true, confirm=true; capture_method=manual for a
hold), retrieve, capture and cancel.
"""

import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from booking.errors import PaymentProviderError
from booking.payments.models import SandboxCheckout
from booking.payments.providers import StripeProvider

logger = logging.getLogger(__name__)

SANDBOX_CARD = "pm_sandbox_visa"
SANDBOX_CARD_DECLINES_LATER = "pm_sandbox_declines_later"  # like Stripe's 4000 0000 0000 0341
DECLINES_LATER_NUMBER = "4000000000000341"
# A sandbox hold: an off-session authorisation is kept open; one made on the checkout page is authorised.
HELD = (SandboxCheckout.Status.OPEN, SandboxCheckout.Status.AUTHORISED)


def sandbox_card(number: str) -> str:
    """The test card a payer typed on the sandbox page: 4000 0000 0000 0341 is saved but refused later."""
    return SANDBOX_CARD_DECLINES_LATER if "".join(number.split()) == DECLINES_LATER_NUMBER else SANDBOX_CARD


@dataclass(frozen=True)
class Charge:
    id: str  # the payment intent (also when refused, if the provider made one)
    status: str  # succeeded | requires_capture | canceled | requires_payment_method | requires_action
    amount_cents: int
    decline: str = ""  # why the card was refused, in the provider's words
    amount_received_cents: int = 0  # what the provider took (a captured hold: what was claimed)

    @property
    def declined(self) -> bool:
        return self.status in ("requires_payment_method", "requires_action")


class StripeSavedCards:
    name = "stripe"

    def payment_method_of(self, payment_intent_id: str) -> str:
        intent = self._call("read a payment", lambda client: client.v1.payment_intents.retrieve(payment_intent_id))
        method = intent.get("payment_method")
        return method if isinstance(method, str) else (method or {}).get("id", "")

    def charge(
        self, *, customer_id: str, payment_method_id: str, amount_cents: int, currency: str, idempotency_key: str, metadata: dict, hold: bool = False
    ) -> Charge:
        import stripe

        params = {
            "amount": amount_cents,
            "currency": currency.lower(),
            "customer": customer_id,
            "payment_method": payment_method_id,
            "off_session": True,
            "confirm": True,
            "metadata": metadata,
            "description": metadata.get("purpose", ""),
        }
        if hold:
            params["capture_method"] = "manual"
        try:
            intent = self._client().v1.payment_intents.create(params, {"idempotency_key": idempotency_key})
        except stripe.CardError as error:  # declined, or the bank wants the guest present (authentication_required)
            intent = getattr(error.error, "payment_intent", None) if error.error else None
            refused = intent.to_dict() if intent is not None and hasattr(intent, "to_dict") else {}
            return Charge(
                refused.get("id", ""), refused.get("status") or "requires_payment_method", amount_cents, error.user_message or str(error.code or "declined")
            )
        except stripe.StripeError as error:
            logger.warning("stripe: off-session payment failed: %s", error)
            raise PaymentProviderError() from error
        return Charge(intent.id, intent.status, int(intent.amount))

    def capture(self, payment_intent_id: str, *, amount_cents: int, idempotency_key: str) -> Charge:
        intent = self._call(
            "capture a hold",
            lambda client: client.v1.payment_intents.capture(payment_intent_id, {"amount_to_capture": amount_cents}, {"idempotency_key": idempotency_key}),
        )
        received = int(intent.get("amount_received") or amount_cents)
        return Charge(intent["id"], intent["status"], received, amount_received_cents=received)

    def cancel(self, payment_intent_id: str, *, idempotency_key: str | None = None) -> Charge:
        options = {"idempotency_key": idempotency_key} if idempotency_key else {}
        intent = self._call("release a hold", lambda client: client.v1.payment_intents.cancel(payment_intent_id, None, options))
        return Charge(intent["id"], intent["status"], int(intent.get("amount") or 0))

    def retrieve(self, payment_intent_id: str) -> Charge:
        """The payment intent as the provider has it now: how a lost or refused answer is settled."""
        intent = self._call("read a hold", lambda client: client.v1.payment_intents.retrieve(payment_intent_id))
        return Charge(intent["id"], intent["status"], int(intent.get("amount") or 0), amount_received_cents=int(intent.get("amount_received") or 0))

    def _client(self):
        return StripeProvider().client()

    def _call(self, what: str, request) -> dict:
        import stripe

        try:
            return request(self._client()).to_dict()
        except stripe.StripeError as error:
            logger.warning("stripe: could not %s: %s", what, error)
            raise PaymentProviderError() from error


class SandboxSavedCards:
    """TEST PAYMENT: no money moves. A charge is a completed sandbox checkout (so refunds work on it
    as on any test payment), its id derived from the idempotency key, so a retry returns it."""

    name = "sandbox"

    def payment_method_of(self, payment_intent_id: str) -> str:
        checkout = SandboxCheckout.objects.filter(payment_intent_id=payment_intent_id).first()
        return (checkout.payment_method or SANDBOX_CARD) if checkout else ""

    def charge(
        self, *, customer_id: str, payment_method_id: str, amount_cents: int, currency: str, idempotency_key: str, metadata: dict, hold: bool = False
    ) -> Charge:
        key = hashlib.sha256(idempotency_key.encode()).hexdigest()[:40]
        if payment_method_id == SANDBOX_CARD_DECLINES_LATER:
            return Charge(f"pi_sandbox_declined_{key[:16]}", "requires_payment_method", amount_cents, "Your card was declined (test card that declines later).")
        with transaction.atomic():
            checkout, _ = SandboxCheckout.objects.get_or_create(
                id=f"cs_sandbox_saved_{key}",
                defaults={
                    "reservation_id": metadata["reservation_id"],
                    "amount_cents": amount_cents,
                    "currency": currency.upper(),
                    "description": metadata.get("purpose", "")[:300],
                    "success_url": settings.BASE_URL,
                    "cancel_url": settings.BASE_URL,
                    "expires_at": timezone.now() + timedelta(days=1),
                    "status": SandboxCheckout.Status.OPEN if hold else SandboxCheckout.Status.COMPLETE,
                    "payment_intent_id": "pi_sandbox_" + secrets.token_urlsafe(16),
                    "payment_method": payment_method_id,
                },
            )
        status = "requires_capture" if checkout.status == SandboxCheckout.Status.OPEN else "succeeded"
        return Charge(checkout.payment_intent_id, status, checkout.amount_cents)

    def capture(self, payment_intent_id: str, *, amount_cents: int, idempotency_key: str) -> Charge:
        with transaction.atomic():
            checkout = SandboxCheckout.objects.select_for_update().get(payment_intent_id=payment_intent_id)
            if checkout.status in HELD:
                checkout.status, checkout.amount_cents = SandboxCheckout.Status.COMPLETE, min(amount_cents, checkout.amount_cents)
                checkout.save(update_fields=["status", "amount_cents"])
        return Charge(payment_intent_id, "succeeded", checkout.amount_cents, amount_received_cents=checkout.amount_cents)

    def cancel(self, payment_intent_id: str, *, idempotency_key: str | None = None) -> Charge:
        SandboxCheckout.objects.filter(payment_intent_id=payment_intent_id, status__in=HELD).update(status=SandboxCheckout.Status.EXPIRED)
        return Charge(payment_intent_id, "canceled", 0)

    def retrieve(self, payment_intent_id: str) -> Charge:
        checkout = SandboxCheckout.objects.filter(payment_intent_id=payment_intent_id).first()
        if checkout is None or checkout.status == SandboxCheckout.Status.EXPIRED:
            return Charge(payment_intent_id, "canceled", 0)
        if checkout.status in HELD:
            return Charge(payment_intent_id, "requires_capture", checkout.amount_cents)
        return Charge(payment_intent_id, "succeeded", checkout.amount_cents, amount_received_cents=checkout.amount_cents)


def saved_cards(provider: str) -> StripeSavedCards | SandboxSavedCards:
    """The provider that took the first payment keeps the card: later charges go through it."""
    if provider == "stripe":
        if not settings.STRIPE_SECRET_KEY:
            raise PaymentProviderError("This card was saved with Stripe, but STRIPE_SECRET_KEY is not set.")
        return StripeSavedCards()
    if provider == "sandbox":
        return SandboxSavedCards()
    raise PaymentProviderError(f"Unknown payment provider {provider!r}.")
