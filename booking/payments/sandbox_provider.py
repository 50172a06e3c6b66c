"""The sandbox provider: the embedded default when no STRIPE_SECRET_KEY is set (TEST PAYMENT — no
money moves). It keeps test checkout sessions and refunds in the database and answers in Stripe's
shapes; the page where a person pays them is sandbox.py and views.py."""

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from booking.errors import NotFound, PaymentProviderError
from booking.ids import is_sandbox_checkout_id
from booking.payments.checkout import CheckoutRequest, CheckoutSession, Refund
from booking.payments.ledger import from_cents
from booking.payments.models import SandboxCheckout


def session_object(checkout: SandboxCheckout) -> dict[str, Any]:
    """The checkout as a Stripe Checkout Session object: the handlers read nothing else."""
    held = checkout.status == SandboxCheckout.Status.AUTHORISED  # a manual-capture checkout the payer completed
    paid = checkout.status == SandboxCheckout.Status.COMPLETE or held
    manual = checkout.capture_method == "manual"
    return {
        "id": checkout.id,
        "object": "checkout.session",
        "livemode": False,
        "mode": "payment",
        "url": checkout_url(checkout.id) if checkout.status == SandboxCheckout.Status.OPEN else None,
        "status": "complete" if held else checkout.status,
        # Authorised, not captured: no money has moved yet.
        "payment_status": "paid" if paid and not held else "unpaid",
        "amount_total": checkout.amount_cents,
        "currency": checkout.currency.lower(),
        "client_reference_id": checkout.reservation_id,
        "metadata": {"reservation_id": checkout.reservation_id, **({"purpose": "security_deposit"} if manual else {})},
        "expires_at": int(checkout.expires_at.timestamp()),
        "success_url": checkout.success_url,
        "cancel_url": checkout.cancel_url,
        "payment_intent": checkout.payment_intent_id or None,
        "customer_details": {"email": checkout.payer_email, "name": checkout.payer_name, "phone": checkout.payer_phone} if paid else None,
        # The kept test card (Stripe has a Customer and reads the method off the payment intent).
        "customer": f"cus_sandbox_{checkout.reservation_id}" if paid else None,
        "payment_method": (checkout.payment_method or "pm_sandbox_visa") if paid else None,
    }


def checkout_url(session_id: str) -> str:
    return settings.BASE_URL + reverse("payments-sandbox-checkout", args=[session_id])


def _session(checkout: SandboxCheckout) -> CheckoutSession:
    return CheckoutSession.from_object(session_object(checkout))


def _refresh_expiry(checkout: SandboxCheckout, now: datetime | None = None) -> SandboxCheckout:
    """Like Stripe, an open session past its expires_at is expired."""
    now = now or timezone.now()
    if checkout.status == SandboxCheckout.Status.OPEN and checkout.expires_at <= now:
        SandboxCheckout.objects.filter(pk=checkout.pk, status=SandboxCheckout.Status.OPEN).update(status=SandboxCheckout.Status.EXPIRED)
        checkout.refresh_from_db()
    return checkout


def get_checkout(session_id: str) -> SandboxCheckout:
    if not is_sandbox_checkout_id(session_id):  # not one we issued: no query (booking/ids.py)
        raise NotFound("No test checkout with this id.")
    checkout = SandboxCheckout.objects.select_related("reservation__property").filter(pk=session_id).first()
    if checkout is None:
        raise NotFound("No test checkout with this id.")
    return _refresh_expiry(checkout)


class SandboxProvider:
    name = "sandbox"

    def create_checkout_session(self, checkout: CheckoutRequest) -> CheckoutSession:
        session_id = "cs_sandbox_" + secrets.token_urlsafe(24)
        session = SandboxCheckout.objects.create(
            id=session_id,
            reservation_id=checkout.reservation_id,
            amount_cents=checkout.amount_cents,
            currency=checkout.currency.upper(),
            description=checkout.description[:300],
            success_url=checkout.success_url.replace("{CHECKOUT_SESSION_ID}", session_id),  # as Stripe does
            cancel_url=checkout.cancel_url,
            expires_at=checkout.expires_at.replace(microsecond=0),
            capture_method="manual" if checkout.capture_manual else "automatic",
        )
        return _session(session)

    def retrieve_checkout_session(self, session_id: str) -> CheckoutSession:
        return _session(get_checkout(session_id))

    def expire_checkout_session(self, session_id: str) -> CheckoutSession:
        SandboxCheckout.objects.filter(pk=session_id, status=SandboxCheckout.Status.OPEN).update(status=SandboxCheckout.Status.EXPIRED)
        return _session(get_checkout(session_id))

    def refund(self, *, payment_intent_id: str, amount_cents: int, idempotency_key: str) -> Refund:
        with transaction.atomic():
            checkout = SandboxCheckout.objects.select_for_update().filter(payment_intent_id=payment_intent_id).first()
            if checkout is None or not payment_intent_id:
                raise PaymentProviderError("The sandbox has no test payment with this id to refund.")
            # Like Stripe: the same idempotency key answers with the refund it already made.
            made = next((r for r in checkout.refund_keys if r.get("key") == idempotency_key), None)
            if made is not None:
                return Refund(id=made["id"], amount_cents=made["amount_cents"], status="succeeded")
            refundable = checkout.amount_cents - checkout.amount_refunded_cents
            if amount_cents > refundable:
                raise PaymentProviderError(f"Only {from_cents(refundable)} of this test payment is left to refund.")
            refund = Refund(id="re_sandbox_" + secrets.token_urlsafe(12), amount_cents=amount_cents, status="succeeded")
            checkout.amount_refunded_cents += amount_cents
            checkout.refund_keys = [*checkout.refund_keys, {"key": idempotency_key, "id": refund.id, "amount_cents": amount_cents}]
            checkout.save(update_fields=["amount_refunded_cents", "refund_keys"])
        return refund
