"""Payment events → reservation changes. One table of handlers serves the Stripe webhook (after its
signature is verified), the sandbox checkout page and the reconciliation job, which all hand in
Stripe-shaped event dicts (saleor's style: verify, then dispatch by event type).

Each event is applied once: its id is recorded in the same transaction as the change it makes, so
a replay, or two deliveries racing, change nothing twice. Handlers check the reservation's state
first, so events arriving out of order are harmless (an `expired` after `completed` does nothing).

A payment that cannot become a stay (its nights were taken after the hold lapsed, the reservation
was cancelled, or it was paid twice) is refunded through the provider and shown to staff. The
refund is made outside any database transaction, with an idempotency key, so no lock is held
while the provider is called and a retried event never refunds twice.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

from django.db import IntegrityError, transaction

from booking.errors import DatesUnavailable, InvalidTransition
from booking.ids import is_reservation_id
from booking.payments.emails import queue_refunded_payment_notice
from booking.payments.ledger import from_cents, record_unbookable_payment, to_cents
from booking.payments.models import PaymentEvent
from booking.payments.providers import get_provider
from booking.payments.services import balances, guest_checkouts, refunds, security_deposits
from booking.reservations.event_messages import english_note, to_params
from booking.reservations.models import Reservation, ReservationEvent
from booking.reservations.services.locking import lock_reservation, writer_transaction
from booking.reservations.services.reservations import Payer, cancel_reservation, confirm_reservation, expire_hold

logger = logging.getLogger(__name__)
Status = Reservation.Status


REFUNDED_PREFIX = "refunded: "
SECURITY_DEPOSIT = "security_deposit"  # metadata.purpose of a deposit's authorisation checkout


class MalformedEvent(ValueError):
    """A verified event without the fields its type must have."""


@dataclass(frozen=True)
class Outcome:
    reservation_id: str | None
    summary: str


class OwedPayment(TypedDict):
    """Who would be refunded, if the payment cannot become a stay (RefundOwed's fields but the reason)."""

    reservation_id: str
    payment_intent_id: str
    amount_cents: int
    session_id: str


class RefundOwed(Exception):
    """Raised inside a handler's transaction to roll it back; the payment is then refunded."""

    def __init__(self, *, reservation_id: str, payment_intent_id: str, amount_cents: int, session_id: str, reason: str):
        super().__init__(reason)
        self.reservation_id, self.payment_intent_id = reservation_id, payment_intent_id
        self.amount_cents, self.session_id, self.reason = amount_cents, session_id, reason


def apply_payment_event(event: dict, *, source: str) -> Outcome:
    """Apply a Stripe-shaped event once and say what it did. Unknown types are ignored."""
    event_id, event_type = event.get("id"), event.get("type")
    if not isinstance(event_type, str):
        return Outcome(None, "ignored: not an event this service acts on")
    handler = HANDLERS.get(event_type)
    if handler is None:
        return Outcome(None, "ignored: not an event this service acts on")
    payload = (event.get("data") or {}).get("object") if isinstance(event.get("data"), dict) else None
    if not isinstance(event_id, str) or not 0 < len(event_id) <= 255 or not isinstance(payload, dict):
        raise MalformedEvent("The event has no id (of at most 255 characters) or no data.object.")
    if PaymentEvent.objects.filter(event_id=event_id).exists():
        return Outcome(None, "duplicate: already applied")
    try:
        with writer_transaction():
            if not _claim(event_id, event_type, source):
                return Outcome(None, "duplicate: already applied")
            outcome = handler(payload, actor=source)
            PaymentEvent.objects.filter(event_id=event_id).update(reservation_id=outcome.reservation_id, outcome=outcome.summary[:300])
    except RefundOwed as owed:
        return _refund_unbookable_payment(owed, event_id=event_id, event_type=event_type, source=source)
    logger.info("payment event %s (%s) from %s: %s", event_id, event_type, source, outcome.summary)
    return outcome


def _claim(event_id: str, event_type: str, source: str, reservation_id: str | None = None, outcome: str = "") -> bool:
    """Record the event id; False when another delivery already recorded it."""
    try:
        with transaction.atomic():
            PaymentEvent.objects.create(event_id=event_id, event_type=event_type, source=source[:30], reservation_id=reservation_id, outcome=outcome[:300])
    except IntegrityError:
        return False
    return True


# --- Handlers: one per event type -----------------------------------------------------------------


def _reservation_of(session: dict) -> Reservation | None:
    metadata = session.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise MalformedEvent("metadata is not an object.")
    reservation_id = (metadata or {}).get("reservation_id") or session.get("client_reference_id")
    if not is_reservation_id(reservation_id):  # not one of ours: no query (booking/ids.py)
        return None
    return Reservation.objects.filter(pk=reservation_id).first()


def _cents(value, field: str) -> int:
    """A Stripe amount: a non-negative whole number of cents. Anything else is a malformed event
    (permanent: answered 400, so Stripe stops retrying), never a 503 and never stored."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedEvent(f"{field} is not a non-negative whole number of cents.")
    return value


def _payer(session: dict) -> Payer:
    details = session.get("customer_details") or {}

    def text(value) -> str:
        return " ".join(str(value).split()) if value else ""  # no line breaks or control spacing

    return Payer(email=text(details.get("email") or session.get("customer_email")), name=text(details.get("name")), phone=text(details.get("phone")))


def checkout_paid(session: dict, *, actor: str) -> Outcome:
    """checkout.session.completed (when paid) and async_payment_succeeded: confirm and backfill."""
    reservation = _reservation_of(session)
    if reservation is None:
        return Outcome(None, "ignored: no reservation of ours in this session")
    if (session.get("metadata") or {}).get("purpose") == SECURITY_DEPOSIT:
        return deposit_authorised(reservation, session, actor=actor)
    if session.get("payment_status") != "paid":
        # Delayed methods complete unpaid; async_payment_succeeded follows. Never confirm unpaid.
        return Outcome(reservation.pk, f"waiting: payment_status is {session.get('payment_status')!r}")
    amount_cents = _cents(session.get("amount_total"), "amount_total")
    currency = session.get("currency")
    if currency is not None and not isinstance(currency, str):
        raise MalformedEvent("currency is not a string.")
    payment_intent_id = str(session.get("payment_intent") or "")
    owed = OwedPayment(reservation_id=reservation.pk, payment_intent_id=payment_intent_id, amount_cents=amount_cents, session_id=str(session.get("id") or ""))
    locked = lock_reservation(reservation.pk)
    # First the balance page: paid for a confirmed stay it is recorded; for a stay no longer
    # confirmed it is given back whole (balances.receive_payment), whatever came before it.
    if (
        paid_balance := balances.balance_checkout_paid(locked, session, amount_cents=amount_cents, payment_intent_id=payment_intent_id, actor=actor)
    ) is not None:
        guest_checkouts.settle(session.get("id"))
        return Outcome(locked.pk, paid_balance)
    if was_refunded_as_unbookable(locked, payment_intent_id):
        # A webhook retry or the reconciliation job must never turn a refunded payment into a stay.
        return Outcome(locked.pk, "ignored: this payment was refunded because it could not become a stay")
    _refuse_a_payment_that_is_not_this_stays(locked, owed, currency)
    try:
        confirmed = confirm_reservation(
            reservation.pk,
            actor=actor,
            payer=_payer(session),
            amount_paid=from_cents(amount_cents),
            payment_intent_id=payment_intent_id,
        )
    except DatesUnavailable:
        raise RefundOwed(**owed, reason="paid after the hold lapsed, and the nights were taken meanwhile") from None
    except InvalidTransition:
        raise RefundOwed(**owed, reason=f"paid for a reservation that is {locked.status}") from None
    balances.record_checkout_payment(confirmed, session, amount=from_cents(amount_cents), payment_intent_id=payment_intent_id)
    return Outcome(confirmed.pk, "confirmed" if locked.status != Status.CONFIRMED else "already confirmed; payer details backfilled")


def deposit_authorised(reservation: Reservation, session: dict, *, actor: str) -> Outcome:
    """A security deposit authorised on a checkout page (capture_method=manual): nothing is paid, the
    card is held. Stripe completes such a session with payment_status "unpaid" or "paid" depending
    on the payment method; what matters is that it is complete and names its payment intent."""
    payment_intent_id = session.get("payment_intent")
    if session.get("status") != "complete" or not isinstance(payment_intent_id, str) or not payment_intent_id:
        return Outcome(reservation.pk, "waiting: the security deposit's checkout is not complete")
    currency = session.get("currency")
    if currency is not None and not isinstance(currency, str):
        raise MalformedEvent("currency is not a string.")
    summary = security_deposits.record_authorisation(
        reservation.pk,
        payment_intent_id=payment_intent_id,
        amount=from_cents(_cents(session.get("amount_total"), "amount_total")),
        currency=currency or reservation.currency,
        provider=reservation.payment_provider or "stripe",
        customer_id=_text(session.get("customer")),
        payment_method_id=_text(session.get("payment_method")),
        actor=actor,
    )
    guest_checkouts.settle(session.get("id"))
    return Outcome(reservation.pk, summary)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _refuse_a_payment_that_is_not_this_stays(locked: Reservation, owed: OwedPayment, currency: str | None) -> None:
    """Raise RefundOwed for a second payment of a paid stay, or one that is not what was due."""
    payment_intent_id, amount_cents = owed["payment_intent_id"], owed["amount_cents"]
    if locked.status == Status.CONFIRMED and locked.payment_intent_id and payment_intent_id and locked.payment_intent_id != payment_intent_id:
        raise RefundOwed(**owed, reason="a second payment for a reservation already paid")
    if locked.status != Status.CONFIRMED:
        paid_label = f"{from_cents(amount_cents)} {(currency or '?').upper()}"
        if amount_cents != to_cents(balances.due_at_checkout(locked)) or (currency or "").upper() != locked.currency:
            # Underpaid, overpaid or another currency: not this reservation's price, so no stay.
            raise RefundOwed(**owed, reason=f"paid {paid_label} but the total is {locked.total} {locked.currency}")


def was_refunded_as_unbookable(reservation: Reservation, payment_intent_id: str) -> bool:
    """True when this payment was already refunded because it could not become this stay.

    record_unbookable_payment stores the refunded payment on a reservation it leaves unconfirmed,
    and the refunding event's row says so; either is enough to refuse the payment for good.
    """
    if reservation.status == Status.CONFIRMED:
        return False
    if payment_intent_id and reservation.payment_intent_id == payment_intent_id and reservation.amount_refunded > 0:
        return True
    return PaymentEvent.objects.filter(reservation_id=reservation.pk, outcome__startswith=REFUNDED_PREFIX).exists()


def checkout_expired(session: dict, *, actor: str) -> Outcome:
    """checkout.session.expired: release the hold, unless this is not the hold's current checkout."""
    reservation = _reservation_of(session)
    if reservation is None:
        return Outcome(None, "ignored: no reservation of ours in this session")
    if guest_checkouts.settle(session.get("id")):
        return Outcome(reservation.pk, "closed: a checkout for the balance or the security deposit; nothing changes")
    if reservation.checkout_session_id and reservation.checkout_session_id != session.get("id"):
        return Outcome(reservation.pk, "ignored: an older checkout of this reservation; a newer one is open")
    released = expire_hold(reservation.pk, actor=actor, note="checkout session expired")
    return Outcome(
        reservation.pk,
        "hold released" if reservation.status == Status.HELD and released.status == Status.EXPIRED else f"no change: reservation is {released.status}",
    )


def checkout_payment_failed(session: dict, *, actor: str) -> Outcome:
    """checkout.session.async_payment_failed: the payment failed, so the hold is cancelled."""
    reservation = _reservation_of(session)
    if reservation is None:
        return Outcome(None, "ignored: no reservation of ours in this session")
    locked = lock_reservation(reservation.pk)
    if locked.status != Status.HELD:
        return Outcome(locked.pk, f"no change: reservation is {locked.status}")
    cancel_reservation(locked.pk, actor=actor, reason="the payment failed")
    return Outcome(locked.pk, "hold released: payment failed")


def charge_refunded(charge: dict, *, actor: str) -> Outcome:
    """charge.refunded: record the charge's refunded total (refunds made here or in the provider's
    dashboard) on ITS payment: a stay paid in two payments has two charges, each with its own total."""
    payment_intent_id = charge.get("payment_intent")
    reservation = None
    if isinstance(payment_intent_id, str) and payment_intent_id:
        reservation = refunds.reservation_of_payment(payment_intent_id)
    reservation = reservation or _reservation_of(charge)
    if reservation is None:
        return Outcome(None, "ignored: no reservation of ours for this charge")
    intent = payment_intent_id if isinstance(payment_intent_id, str) and payment_intent_id else reservation.payment_intent_id
    if not reservation.payments.filter(provider_id=intent).exists() and reservation.payment_intent_id != intent:
        return Outcome(reservation.pk, "ignored: a refund of another payment (already handled)")
    refunded_cents = _cents(charge.get("amount_refunded"), "amount_refunded")
    refunded = refunds.record_provider_total(
        reservation.pk, payment_intent_id=intent, refunded_total=from_cents(refunded_cents), actor=actor, note="charge refunded"
    )
    return Outcome(reservation.pk, f"refunded total {refunded.amount_refunded} {refunded.currency}")


HANDLERS: dict[str, Callable[..., Outcome]] = {
    "checkout.session.completed": checkout_paid,
    "checkout.session.async_payment_succeeded": checkout_paid,
    "checkout.session.expired": checkout_expired,
    "checkout.session.async_payment_failed": checkout_payment_failed,
    "charge.refunded": charge_refunded,
}


def _refund_unbookable_payment(owed: RefundOwed, *, event_id: str, event_type: str, source: str) -> Outcome:
    reservation = Reservation.objects.get(pk=owed.reservation_id)
    message = "flag_payment_refunded_nothing"
    params: dict[str, object] = {"reason": owed.reason}
    refunded_cents = 0
    if owed.payment_intent_id and owed.amount_cents > 0:
        # Raises PaymentProviderError when the provider fails: nothing is recorded, the event is retried.
        refund = get_provider(reservation.payment_provider or None).refund(
            payment_intent_id=owed.payment_intent_id,
            amount_cents=owed.amount_cents,
            idempotency_key=f"unbookable-{owed.reservation_id}-{owed.payment_intent_id}",
        )
        refunded_cents = refund.amount_cents
        message = "flag_payment_refunded"
        params = {"amount": from_cents(owed.amount_cents), "currency": reservation.currency, "refund": refund.id, "reason": owed.reason}
    else:
        message = "flag_payment_not_refunded"
    note = english_note(message, to_params(params))
    with writer_transaction():
        if not _claim(event_id, event_type, source, owed.reservation_id, REFUNDED_PREFIX + owed.reason):
            return Outcome(owed.reservation_id, "duplicate: already applied")
        if (
            "refund" in params
            and ReservationEvent.objects.filter(reservation_id=owed.reservation_id, action="refund", params__refund=params["refund"]).exists()
        ):
            # The same payment reported twice (its webhook and the reconciliation job, in either
            # order): the refund's key made it once; it is recorded, and the owner told, once.
            guest_checkouts.settle(owed.session_id)
            return Outcome(owed.reservation_id, "duplicate: this payment was already refunded")
        record_unbookable_payment(
            owed.reservation_id,
            amount_paid=from_cents(owed.amount_cents),
            amount_refunded=from_cents(refunded_cents),
            payment_intent_id=owed.payment_intent_id,
            actor=source,
            note=note,
            message=message,
            params=params,
        )
        # Owed with the refund's record, delivered after commit by the outbox's task (retried).
        queue_refunded_payment_notice(owed.reservation_id, note)
        # Its checkout's outcome is recorded: the reconciliation job must not apply it again.
        guest_checkouts.settle(owed.session_id)
    logger.warning("payment event %s for %s: %s", event_id, owed.reservation_id, note)
    return Outcome(owed.reservation_id, REFUNDED_PREFIX + owed.reason)
