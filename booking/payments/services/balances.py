"""The balance of a stay paid with a deposit: what is owed, recorded payments, and the guest paying
early (docs/money.md). The due-date charge to the saved card is booking/payments/services/balance_charges.py.

Every payment is a Payment row keyed by the provider's payment intent, written under the
reservation's lock with amount_paid, so a replayed webhook, a second worker or the command run
beside the beat job records it once.
"""

import logging
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from booking.catalog import payment_schedule as schedules
from booking.errors import BookingError, InvalidTransition
from booking.formatting import site_path
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_soon, email_address, header_safe
from booking.payments.ledger import from_cents, to_cents
from booking.payments.models import GuestCheckout, Payment
from booking.payments.providers import get_provider
from booking.payments.selectors import given_back_for_date_changes
from booking.payments.services import refunds
from booking.payments.services.guest_checkouts import open_checkout_of, settle, start_guest_checkout
from booking.payments.services.receipts import issue_receipt
from booking.reservations.models import Reservation
from booking.reservations.services.audit import flag, record_event, resolve_flags

logger = logging.getLogger(__name__)
Status = Reservation.Status
ZERO = Decimal("0.00")
ACTOR = "balance job"


def schedule_of(reservation: Reservation) -> tuple[schedules.ScheduleEntry, ...]:
    return schedules.stored_schedule(reservation.payment_schedule, reservation.total)


def due_at_checkout(reservation: Reservation) -> Decimal:
    """What the checkout of a hold charges: the immediate part of its schedule (deposit or total)."""
    return schedules.due_now(schedule_of(reservation))


def balance_owed(reservation: Reservation, *, total: Decimal | None = None) -> Decimal:
    """What a confirmed stay still owes: its total (or `total`, a date change's new one) less what
    was paid, plus what date changes gave back (a stay moved to cheaper dates and back owes the
    difference again; other refunds, such as a goodwill refund by staff, are never owed back)."""
    if reservation.status != Status.CONFIRMED:
        return ZERO
    total = reservation.total if total is None else total
    return max(ZERO, total - reservation.amount_paid + given_back_for_date_changes(reservation))


# --- Recording payments (called by the payment event handlers, inside their transaction) -------------


@dataclass(frozen=True)
class Received:
    """What receive_payment did with a payment: recorded for the stay, given back whole (the stay is
    no longer confirmed), or nothing (reported before: recorded once by its provider id)."""

    payment: Payment | None
    given_back: bool = False


def receive_payment(
    locked: Reservation,
    *,
    kind: str,
    amount: Decimal,
    provider: str,
    payment_intent_id: str,
    customer_id: str,
    payment_method_id: str,
    actor: str,
    counted: bool = False,
) -> Received:
    """The one door for money arriving for a stay (a hold's checkout, the balance charged to the saved
    card, the balance page), under the reservation's lock: one Payment row per provider intent, so a
    replay records nothing. For a confirmed stay the payment counts (amount_paid, receipt, the
    guest's email). For a stay no longer confirmed (cancelled while a charge was out, or paid on a
    page opened before it was cancelled) the money goes back whole at once, after the commit, keyed
    by the payment, and the stay is flagged for staff (DESIGN "Reliability, fourth round").
    `counted`: confirm_reservation already counted it (a hold's checkout)."""
    payment, created = Payment.objects.get_or_create(
        provider=provider,
        provider_id=payment_intent_id,
        defaults={
            "reservation": locked,
            "kind": kind,
            "amount": amount,
            "currency": locked.currency,
            "customer_id": customer_id,
            "payment_method_id": payment_method_id,
        },
    )
    if not created:
        return Received(None)
    if locked.status != Status.CONFIRMED:
        return _give_back_whole(locked, payment, actor=actor, counted=counted)
    issue_receipt(payment)
    if counted:
        return Received(payment)
    locked.amount_paid += amount
    resolve_flags(locked, "flag_balance_overdue", by=actor)
    locked.save(update_fields=["amount_paid", "updated_at"])
    params = {"amount": amount, "currency": locked.currency, "payment": payment_intent_id}
    record_event(locked, action="balance", actor=actor, from_status=locked.status, message="balance_paid", params=params)
    queue_guest_notice(locked, OutboundEmail.Kind.PAYMENT_RECEIVED, "emails/guest_payment_received.txt", amount=amount)
    return Received(payment)


def _give_back_whole(locked: Reservation, payment: Payment, *, actor: str, counted: bool) -> Received:
    """The money trail is kept (the payment counts as paid, its refund as refunded: revenue stays
    paid − refunded) and the refund is asked once, by the payment's id, after the commit."""
    if not counted:
        locked.amount_paid += payment.amount
        locked.save(update_fields=["amount_paid", "updated_at"])
    request = refunds.return_payment_locked(locked, payment_intent_id=payment.provider_id, amount=payment.amount, actor=actor, reason=NOT_CONFIRMED)
    params = {"amount": payment.amount, "currency": locked.currency, "payment": payment.provider_id}
    flag(locked, actor=actor, message="flag_payment_returned", params=params)
    refunds.make_after_commit([request])
    return Received(payment, given_back=True)


NOT_CONFIRMED = "paid for a stay that is no longer confirmed"  # the refund's reason (event_messages: paid_not_confirmed)


def record_checkout_payment(reservation: Reservation, session: dict[str, Any], *, amount: Decimal, payment_intent_id: str) -> Payment | None:
    """The payment that confirmed a hold (confirm_reservation counted it): the deposit, or the whole.
    Replays change nothing."""
    if not payment_intent_id:
        return None
    return receive_payment(
        reservation,
        kind=Payment.Kind.FULL if amount >= reservation.total else Payment.Kind.DEPOSIT,
        amount=amount,
        provider=reservation.payment_provider or "stripe",
        payment_intent_id=payment_intent_id,
        customer_id=_text(session.get("customer")),
        payment_method_id=_text(session.get("payment_method")),
        actor="payment",
        counted=True,
    ).payment


def balance_checkout_paid(locked: Reservation, session: dict[str, Any], *, amount_cents: int, payment_intent_id: str, actor: str) -> str | None:
    """A checkout paid for the balance: for a confirmed stay that owes exactly this much, the guest
    paid the balance (early from the manage page, or after the card was refused); for a stay no
    longer confirmed, the balance page's money goes back whole. Returns what was done, or None when
    this payment is not a balance payment (the caller then treats it as a second payment)."""
    if not payment_intent_id:
        return None
    if Payment.objects.filter(provider_id=payment_intent_id, reservation=locked).exists():
        return "already recorded"
    currency_matches = (_text(session.get("currency")).upper() or locked.currency) == locked.currency

    def receive(amount: Decimal) -> Received:
        return record_balance(
            locked,
            amount=amount,
            provider=locked.payment_provider or "stripe",
            payment_intent_id=payment_intent_id,
            customer_id=_text(session.get("customer")),
            payment_method_id=_text(session.get("payment_method")),
            actor=actor,
        )

    if locked.status != Status.CONFIRMED:
        if not is_balance_checkout(session) or not currency_matches:
            return None
        paid = from_cents(amount_cents)
        receive(paid)
        return f"balance of {paid} {locked.currency} paid for a stay that is {locked.status}: refunded in full"
    owed = balance_owed(locked)
    if owed <= 0 or amount_cents != to_cents(owed) or not currency_matches:
        return None
    receive(owed)
    return f"balance of {owed} {locked.currency} paid"


def is_balance_checkout(session: dict[str, Any]) -> bool:
    """A balance page's session (its metadata says so, or our record of the page does)."""
    metadata = session.get("metadata")
    if isinstance(metadata, dict) and metadata.get("purpose") == GuestCheckout.Purpose.BALANCE:
        return True
    session_id = session.get("id")
    return isinstance(session_id, str) and GuestCheckout.objects.filter(session_id=session_id, purpose=GuestCheckout.Purpose.BALANCE).exists()


def record_balance(
    locked: Reservation, *, amount: Decimal, provider: str, payment_intent_id: str, customer_id: str, payment_method_id: str, actor: str
) -> Received:
    """Under the reservation's lock: a balance payment through receive_payment."""
    return receive_payment(
        locked,
        kind=Payment.Kind.BALANCE,
        amount=amount,
        provider=provider,
        payment_intent_id=payment_intent_id,
        customer_id=customer_id,
        payment_method_id=payment_method_id,
        actor=actor,
    )


# --- The guest pays the balance now (manage page) --------------------------------------------------


def start_balance_checkout(reservation: Reservation, *, return_url: str) -> str:
    """A checkout page for the balance owed; returns its URL. A page still open for exactly this
    amount is reused. The payment is recorded by the same event handlers as any checkout
    (balance_checkout_paid)."""

    owed = balance_owed(reservation)
    if owed <= 0:
        raise InvalidTransition("Nothing is left to pay for this stay.")
    still_open = open_checkout_of(reservation, GuestCheckout.Purpose.BALANCE)
    if still_open is not None and still_open.amount == owed and still_open.currency == reservation.currency:
        return still_open.url  # a second click, or the link in an email: the page already open
    checkout = start_guest_checkout(
        reservation,
        purpose=GuestCheckout.Purpose.BALANCE,
        amount=owed,
        description=f"{reservation.property.name}: balance, {reservation.check_in:%d %b %Y} to {reservation.check_out:%d %b %Y}",
        return_url=return_url,
    )
    return checkout.url


def close_stale_balance_checkouts(reservation_id: str) -> int:
    """After the balance changed (a date change, a cancellation: nothing is owed then): close, at the
    provider, the balance pages still open for another amount, so nobody pays an old amount (it
    would not match the balance and be refunded whole). Outside any lock. A page the provider closed is settled (the reconciliation job
    stops asking); one it could not close stays for the job, and its expiry settles it."""
    owed = balance_owed(Reservation.objects.get(pk=reservation_id))
    stale = GuestCheckout.objects.filter(reservation_id=reservation_id, purpose=GuestCheckout.Purpose.BALANCE, settled_at=None).exclude(amount=owed)
    closed = 0
    for checkout in stale:
        try:
            session = get_provider(checkout.provider).expire_checkout_session(checkout.session_id)
        except BookingError as error:
            logger.info("balance checkout %s of %s not closed: %s", checkout.session_id, reservation_id, error.detail)
            continue
        if session.status != "complete":  # paid a moment ago: its payment event records it (or refunds it)
            settle(checkout.session_id)
            closed += 1
    return closed


# --- Emails -----------------------------------------------------------------------------------------


def manage_url(reservation: Reservation) -> str:
    return f"{settings.BASE_URL}{site_path('/manage/' + reservation.manage_token)}" if reservation.manage_token else settings.BASE_URL


def queue_guest_notice(reservation: Reservation, kind: str, template: str, **context: Any) -> OutboundEmail | None:
    """An email to the guest written now in their language (same outbox and retries as the others).
    Call inside the transaction that records what it reports."""
    to = email_address(reservation.guest_email)
    if not to:
        return None
    with translation.override(reservation.language or "en"):
        context = {"reservation": reservation, "property": reservation.property, "manage_url": manage_url(reservation), **context}
        subjects: dict[str, str] = {
            OutboundEmail.Kind.PAYMENT_RECEIVED: _("Payment received for your stay at %(name)s"),
            OutboundEmail.Kind.BALANCE_DECLINED: _("Your card was refused for the balance of your stay at %(name)s"),
            OutboundEmail.Kind.DATES_CHANGED: _("The dates of your stay at %(name)s have changed"),
            OutboundEmail.Kind.DEPOSIT_AUTHORISATION_NEEDED: _("Please authorise the security deposit for your stay at %(name)s"),
        }
        subject = subjects[kind] % {"name": reservation.property.name}
        body = render_to_string(template, context)
    row = OutboundEmail.objects.create(
        reservation=reservation,
        kind=kind,
        recipient=OutboundEmail.Recipient.GUEST,
        subject=header_safe(("[TEST] " if reservation.payment_provider == "sandbox" else "") + subject)[:300],
        body=body,
        to_address=to,
    )
    transaction.on_commit(deliver_soon)
    return row


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
