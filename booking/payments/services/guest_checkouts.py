"""Checkout pages for a stay that is already confirmed: the balance (paid early, or after the card
was refused) and the security deposit's authorisation (after the saved card refused the hold).

One path for both: the provider's checkout (Stripe Checkout or the sandbox page), recorded as a
GuestCheckout row so the reconciliation job can ask about it if its webhook is lost. What the
payment does is decided by the payment event handlers (booking/payments/events.py), whoever
reports it first; `settle` marks the row done so the job stops asking.
"""

from datetime import timedelta
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from booking.payments.checkout import CheckoutRequest
from booking.payments.ledger import to_cents
from booking.payments.models import GuestCheckout
from booking.payments.money_lines import checkout_item
from booking.payments.providers import get_provider
from booking.reservations.models import Reservation

Purpose = GuestCheckout.Purpose
OPEN_FOR = timedelta(hours=1)
REUSE_MARGIN = timedelta(minutes=5)  # a page about to close is replaced, not handed to the guest


def start_guest_checkout(
    reservation: Reservation,
    *,
    purpose: str,
    amount: Decimal,
    description: str,
    return_url: str,
    capture_manual: bool = False,
    idempotency_key: str = "",
) -> GuestCheckout:
    """Open a checkout page for `amount` (a card hold when capture_manual) and record it."""
    provider = get_provider(reservation.payment_provider or None)
    # The balance is named with the stay's lines; a card hold is only its own amount.
    item_name, item_description = checkout_item(reservation, amount, purpose=purpose) if purpose == Purpose.BALANCE else ("", "")
    session = provider.create_checkout_session(
        CheckoutRequest(
            reservation_id=reservation.pk,
            amount_cents=to_cents(amount),
            currency=reservation.currency,
            description=description,
            success_url=return_url + "?paid=1",
            cancel_url=return_url,
            expires_at=timezone.now() + OPEN_FOR,
            purpose=purpose,
            capture_manual=capture_manual,
            idempotency_key=idempotency_key,
            item_name=item_name,
            item_description=item_description,
            locale=reservation.language,
        )
    )
    try:
        with transaction.atomic():
            checkout, _ = GuestCheckout.objects.get_or_create(  # the same key answers with the same session
                session_id=session.id,
                defaults={
                    "reservation": reservation,
                    "purpose": purpose,
                    "provider": provider.name,
                    "url": session.url,
                    "amount": amount,
                    "currency": reservation.currency,
                    "expires_at": session.expires_at,
                },
            )
    except IntegrityError:  # two clicks at once with the same key: the other request recorded it
        checkout = GuestCheckout.objects.get(session_id=session.id)
    return checkout


def open_checkout_of(reservation: Reservation, purpose: str) -> GuestCheckout | None:
    """A checkout of this purpose still open with time left (a second click reuses it)."""
    return (
        GuestCheckout.objects.filter(reservation=reservation, purpose=purpose, settled_at=None, expires_at__gt=timezone.now() + REUSE_MARGIN)
        .order_by("-created_at")
        .first()
    )


def settle(session_id: object) -> bool:
    """The checkout was paid (its payment recorded) or closed: the reconciliation job stops asking.
    True when the session is one of ours."""
    if not isinstance(session_id, str) or not session_id:
        return False
    GuestCheckout.objects.filter(session_id=session_id, settled_at=None).update(settled_at=timezone.now())
    return GuestCheckout.objects.filter(session_id=session_id).exists()


def unsettled(provider_name: str, *, since: timedelta) -> list[GuestCheckout]:
    """Checkouts whose outcome was never recorded, opened recently enough to ask about."""
    return list(GuestCheckout.objects.filter(provider=provider_name, settled_at=None, expires_at__gte=timezone.now() - since))
