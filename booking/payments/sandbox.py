"""The sandbox checkout page's actions: paying or cancelling a test checkout.

TEST PAYMENT — no money moves. The page is served by this service (views.py). Paying or cancelling
builds the very event Stripe would send (checkout.session.completed or checkout.session.expired,
with the same session object) and hands it to the same handlers as the Stripe webhook
(events.apply_payment_event). Nothing here confirms a reservation by itself. The provider side
(sessions, refunds) is sandbox_provider.py.
"""

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from booking.errors import BookingError, NotFound
from booking.payments import saved_cards
from booking.payments.events import Outcome, apply_payment_event
from booking.payments.models import GuestCheckout, SandboxCheckout
from booking.payments.sandbox_provider import get_checkout, session_object

__all__ = ["SOURCE", "PayerInput", "SandboxCheckoutClosed", "cancel", "get_checkout", "pay", "purpose_of"]

SOURCE = "sandbox checkout"


class SandboxCheckoutClosed(BookingError):
    status = 409
    code = "checkout_closed"
    default_detail = "This test checkout is no longer open."


@dataclass(frozen=True)
class PayerInput:
    email: str
    name: str
    phone: str
    card_number: str = ""


def pay(session_id: str, payer: PayerInput) -> tuple[SandboxCheckout, Outcome]:
    """The person paid (in test): complete the session, then apply checkout.session.completed."""
    with transaction.atomic():
        checkout = SandboxCheckout.objects.select_for_update().filter(pk=session_id).first()
        if checkout is None:
            raise NotFound("No test checkout with this id.")
        if checkout.status != SandboxCheckout.Status.OPEN or checkout.expires_at <= timezone.now():
            raise SandboxCheckoutClosed()
        # A manual-capture checkout (a security deposit) only holds the test card, like Stripe's.
        checkout.status = SandboxCheckout.Status.AUTHORISED if checkout.capture_method == "manual" else SandboxCheckout.Status.COMPLETE
        checkout.payer_email, checkout.payer_name, checkout.payer_phone = payer.email, payer.name, payer.phone
        checkout.payment_intent_id = "pi_sandbox_" + secrets.token_urlsafe(16)
        checkout.payment_method = saved_cards.sandbox_card(payer.card_number)
        checkout.save()
    # As with Stripe, the payment stands even if applying it fails now (e.g. the database is busy):
    # the reconciliation job reads the completed session and applies it later.
    return checkout, apply_payment_event(_event(checkout, "checkout.session.completed"), source=SOURCE)


def purpose_of(checkout: SandboxCheckout) -> str:
    """What the checkout pays: "" (a booking: its dates are held until it closes), "balance" or
    "security_deposit" (a card hold, not a charge) for a stay already confirmed (GuestCheckout)."""
    purpose = GuestCheckout.objects.filter(session_id=checkout.pk).values_list("purpose", flat=True).first()
    if purpose:
        return purpose
    return GuestCheckout.Purpose.SECURITY_DEPOSIT if checkout.capture_method == "manual" else ""


def cancel(session_id: str) -> tuple[SandboxCheckout, Outcome | None]:
    """The person cancelled: the session expires and, through the expired event, the hold is released.

    (Stripe's own page has no cancel event; its session simply runs out. The sandbox frees the dates
    at once because the person said no.)"""
    checkout = get_checkout(session_id)
    if checkout.status in (SandboxCheckout.Status.COMPLETE, SandboxCheckout.Status.AUTHORISED):
        return checkout, None
    SandboxCheckout.objects.filter(pk=session_id, status=SandboxCheckout.Status.OPEN).update(status=SandboxCheckout.Status.EXPIRED)
    checkout.refresh_from_db()
    if checkout.status != SandboxCheckout.Status.EXPIRED:  # paid in another tab a moment ago
        return checkout, None
    return checkout, apply_payment_event(_event(checkout, "checkout.session.expired"), source=SOURCE)


def _event(checkout: SandboxCheckout, event_type: str) -> dict:
    return {
        "id": f"evt_sandbox_{checkout.id}_{event_type.rsplit('.', 1)[-1]}",
        "object": "event",
        "type": event_type,
        "livemode": False,
        "created": int(timezone.now().timestamp()),
        "data": {"object": session_object(checkout)},
    }
