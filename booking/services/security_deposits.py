"""The refundable security deposit: a card authorisation (manual capture) on the guest's saved card,
placed shortly before arrival, renewed before it lapses, released after check-out unless staff
claim from it (docs/money.md).

Each step runs its provider call outside the reservation's lock with an idempotency key of the
reservation and the local date, and records the outcome under the lock; one row per stay and day
(unique) and one open hold per stay (unique) mean two workers, or the command beside the beat
job, never hold the card twice. A refused authorisation never touches the stay: it is flagged for
staff.
"""

import logging
from datetime import date, timedelta
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking import accepted_terms
from booking.errors import BookingError, InvalidTransition
from booking.models import OutboundEmail, Reservation
from booking.notifications import deliver_soon, email_address, header_safe
from booking.payments.ledger import to_cents
from booking.payments.payment_models import SecurityDeposit
from booking.payments.saved_cards import saved_cards
from booking.pricing import money
from booking.services.audit import flag_for_staff, record_event
from booking.services.balances import manage_url
from booking.services.locking import reservation_transaction

logger = logging.getLogger(__name__)
Status = Reservation.Status
Held = SecurityDeposit.Status
ACTOR = "security deposit job"
RENEW_AFTER_DAYS = SecurityDeposit.LAPSES_AFTER_DAYS - 1  # a day's margin before Stripe cancels it


def hold_window(reservation: Reservation) -> tuple[date, date]:
    """[place_on, release_on): the local dates the card is held (the owner's settings)."""
    prop = reservation.property
    return (
        reservation.check_in - timedelta(days=prop.security_deposit_days_before),
        reservation.check_out + timedelta(days=prop.security_deposit_release_days),
    )


def deposit_amount(reservation: Reservation) -> Decimal:
    """The amount the guest accepted when booking (0: none)."""
    return accepted_terms.security_deposit(reservation.accepted_terms)


def place_security_deposits(*, as_of: date | None = None) -> dict[str, int]:
    """The placing job (beat, and `manage.py place_security_deposits [--as-of]`): authorise the
    deposit of each stay whose hold window has begun, and renew holds about to lapse."""
    as_of = as_of or timezone.localdate()
    counts: dict[str, int] = {}
    near = Reservation.objects.filter(status=Status.CONFIRMED, check_in__lte=as_of + timedelta(days=30), check_out__gte=as_of - timedelta(days=30))
    for reservation_id in near.values_list("pk", flat=True):
        outcome = place_or_renew(reservation_id, as_of=as_of)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def place_or_renew(reservation_id: str, *, as_of: date) -> str:
    with reservation_transaction(reservation_id) as locked:
        place_on, release_on = hold_window(locked)
        amount = deposit_amount(locked)
        if locked.status != Status.CONFIRMED or amount <= 0 or not place_on <= as_of < release_on:
            return "not_due"
        if locked.security_deposits.filter(placed_on=as_of).exists():
            return "done_today"
        current = locked.security_deposits.filter(status=Held.HELD).first()
        if current is not None and as_of < current.placed_on + timedelta(days=RENEW_AFTER_DAYS):
            return "held"
        card = locked.payments.exclude(customer_id="").order_by("-paid_at", "-pk").first()
        currency = locked.currency
    if card is None:
        return _refused(reservation_id, as_of, amount, "No saved card to hold the deposit on.")
    try:
        cards = saved_cards(card.provider)
        method = card.payment_method_id or cards.payment_method_of(card.provider_id)
        hold = cards.charge(
            customer_id=card.customer_id,
            payment_method_id=method,
            amount_cents=to_cents(amount),
            currency=currency,
            idempotency_key=f"security-deposit-{reservation_id}-{as_of.isoformat()}",
            metadata={"reservation_id": reservation_id, "purpose": "security deposit"},
            hold=True,
        )
    except BookingError as error:
        logger.warning("security deposit of %s not placed now: %s", reservation_id, error.detail)
        return "provider_unavailable"
    if hold.declined:
        return _refused(reservation_id, as_of, amount, hold.decline)
    try:
        with reservation_transaction(reservation_id) as locked:
            replaced = list(locked.security_deposits.filter(status=Held.HELD))
            locked.security_deposits.filter(status=Held.HELD).update(status=Held.RENEWED, closed_at=timezone.now())
            SecurityDeposit.objects.create(reservation=locked, amount=amount, currency=currency, provider=card.provider, provider_id=hold.id, placed_on=as_of)
            what = "renewed" if replaced else "placed"
            record_event(
                locked,
                action="security_deposit",
                actor=ACTOR,
                from_status=locked.status,
                message=f"deposit_{what}",
                params={"amount": amount, "currency": currency, "hold": hold.id},
            )
    except IntegrityError:  # another worker recorded the same hold (same key: the same intent)
        return "done_today"
    for old in replaced:
        _release_at_provider(old)
    return what


def _refused(reservation_id: str, as_of: date, amount: Decimal, reason: str) -> str:
    try:
        with reservation_transaction(reservation_id) as locked:
            SecurityDeposit.objects.create(
                reservation=locked,
                amount=amount,
                currency=locked.currency,
                provider=locked.payment_provider or "",
                status=Held.FAILED,
                placed_on=as_of,
                error=reason[:300],
            )
            flag_for_staff(reservation_id, actor=ACTOR, note=f"Security deposit of {amount} {locked.currency} could not be held on the card: {reason}")
    except IntegrityError:
        return "done_today"
    return "failed"


def release_security_deposits(*, as_of: date | None = None) -> dict[str, int]:
    """The releasing job: let go of every hold whose stay ended `release_days` ago, or was cancelled."""
    as_of = as_of or timezone.localdate()
    counts: dict[str, int] = {}
    for deposit in SecurityDeposit.objects.filter(status=Held.HELD).select_related("reservation__property"):
        _, release_on = hold_window(deposit.reservation)
        if deposit.reservation.status == Status.CONFIRMED and as_of < release_on:
            continue
        outcome = "released" if _release_at_provider(deposit) else "provider_unavailable"
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def _release_at_provider(deposit: SecurityDeposit) -> bool:
    try:
        saved_cards(deposit.provider).cancel(deposit.provider_id)
    except BookingError as error:
        logger.warning("security deposit %s not released now: %s", deposit.provider_id, error.detail)
        return False
    with transaction.atomic():
        # A hold replaced by a renewal is already marked so; only an open one becomes released.
        closed = SecurityDeposit.objects.filter(pk=deposit.pk, status=Held.HELD).update(status=Held.RELEASED, closed_at=timezone.now())
        if closed:
            record_event(
                deposit.reservation,
                action="security_deposit",
                actor=ACTOR,
                message="deposit_released",
                params={"amount": deposit.amount, "currency": deposit.currency},
            )
    return True


def claim_security_deposit(deposit_id: int, *, amount: Decimal, reason: str, actor: str) -> SecurityDeposit:
    """Staff keep part or all of the held deposit (damage), with a reason the guest is emailed."""
    deposit = SecurityDeposit.objects.select_related("reservation__property").get(pk=deposit_id)
    amount, reason = money(amount), reason.strip()
    if deposit.status != Held.HELD:
        raise InvalidTransition("Only a deposit still held on the card can be claimed.")
    if not Decimal("0.01") <= amount <= deposit.amount:
        raise InvalidTransition(f"The claim must be between 0.01 and {deposit.amount} {deposit.currency}.")
    if not reason:
        raise InvalidTransition("Say why: the guest is emailed the reason.")
    saved_cards(deposit.provider).capture(deposit.provider_id, amount_cents=to_cents(amount), idempotency_key=f"security-claim-{deposit.pk}-{to_cents(amount)}")
    with reservation_transaction(deposit.reservation_id) as locked:
        SecurityDeposit.objects.filter(pk=deposit.pk).update(status=Held.CLAIMED, claimed_amount=amount, claim_reason=reason, closed_at=timezone.now())
        record_event(
            locked,
            action="security_deposit",
            actor=actor,
            from_status=locked.status,
            message="deposit_claimed",
            params={"amount": amount, "currency": deposit.currency, "reason": reason},
        )
        _queue_claim_email(locked, amount, reason)
    deposit.refresh_from_db()
    return deposit


def _queue_claim_email(reservation: Reservation, amount: Decimal, reason: str) -> None:
    to = email_address(reservation.guest_email)
    if not to:
        return
    with translation.override(reservation.language or "en"):
        subject = _("Security deposit for your stay at %(name)s") % {"name": reservation.property.name}
        body = render_to_string(
            "emails/guest_deposit_claimed.txt",
            {"reservation": reservation, "property": reservation.property, "amount": amount, "reason": reason, "manage_url": manage_url(reservation)},
        )
    OutboundEmail.objects.create(
        reservation=reservation,
        kind=OutboundEmail.Kind.DEPOSIT_CLAIMED,
        recipient=OutboundEmail.Recipient.GUEST,
        subject=header_safe(subject)[:300],
        body=body,
        to_address=to,
    )
    transaction.on_commit(deliver_soon)
