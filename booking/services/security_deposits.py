"""The refundable security deposit: a card authorisation (manual capture) on the guest's saved card,
placed shortly before arrival, renewed before it lapses, released after check-out unless staff
claim from it (docs/money.md).

Each step runs its provider call outside the reservation's lock with an idempotency key of the
reservation and the local date, and records the outcome under the lock; one row per stay and day
(unique) and one open hold per stay (unique) mean two workers, or the command beside the beat
job, never hold the card twice. A refused authorisation never touches the stay: it is flagged for
staff, the guest is emailed a link to authorise the deposit on a checkout page (manual capture), and
the owner is told (at most once a day). That authorisation is then held, renewed, released or
claimed like any other.
"""

import logging
from datetime import date, timedelta
from decimal import Decimal
from typing import NamedTuple

from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking import accepted_terms
from booking.errors import BookingError, InvalidTransition
from booking.models import OutboundEmail, Reservation
from booking.notifications import deliver_soon, email_address, header_safe
from booking.payments.ledger import to_cents
from booking.payments.payment_models import GuestCheckout, SecurityDeposit
from booking.payments.saved_cards import saved_cards
from booking.pricing import money
from booking.services import money_alerts
from booking.services.audit import flag, record_event
from booking.services.balances import manage_url, queue_guest_notice
from booking.services.guest_checkouts import open_checkout_of, start_guest_checkout
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
        card = _card_to_hold(locked)
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


class Card(NamedTuple):
    provider: str
    provider_id: str  # a payment intent made with the card (to read its payment method from)
    customer_id: str
    payment_method_id: str


def _card_to_hold(locked: Reservation) -> Card | None:
    """The card the guest authorised on the checkout page (after the saved one was refused), else
    the card saved at the last payment."""
    authorised = locked.security_deposits.exclude(customer_id="").order_by("-created_at", "-pk").first()
    if authorised is not None:
        return Card(authorised.provider, authorised.provider_id, authorised.customer_id, authorised.payment_method_id)
    paid = locked.payments.exclude(customer_id="").order_by("-paid_at", "-pk").first()
    return Card(paid.provider, paid.provider_id, paid.customer_id, paid.payment_method_id) if paid is not None else None


FLAG = "Security deposit not held"


def _refused(reservation_id: str, as_of: date, amount: Decimal, reason: str) -> str:
    """The card refused the hold: the stay stands. Staff are flagged, the guest is emailed a link to
    authorise it on a checkout page (once per refusal since the last hold) and the owner at most
    once a day."""
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
            params = {"amount": amount, "currency": locked.currency, "reason": reason}
            flag(locked, actor=ACTOR, message="flag_deposit_not_held", params=params)
            _email_guest_the_link(locked, amount)
            money_alerts.alert_deposit_refused(locked, amount=amount, reason=reason, manage_url=manage_url(locked))
    except IntegrityError:
        return "done_today"
    return "failed"


def _email_guest_the_link(locked: Reservation, amount: Decimal) -> None:
    last_hold = locked.security_deposits.exclude(status=Held.FAILED).order_by("-created_at").first()
    sent = OutboundEmail.objects.filter(reservation=locked, kind=OutboundEmail.Kind.DEPOSIT_AUTHORISATION_NEEDED)
    if last_hold is not None:
        sent = sent.filter(created_at__gt=last_hold.created_at)
    if sent.exists():
        return
    _, release_on = hold_window(locked)
    queue_guest_notice(
        locked,
        OutboundEmail.Kind.DEPOSIT_AUTHORISATION_NEEDED,
        "emails/guest_deposit_authorise.txt",
        amount=amount,
        release_on=release_on,
        authorise_url=manage_url(locked) + AUTHORISE_PATH,
    )


# --- The guest authorises the deposit on a checkout page ------------------------------------------

AUTHORISE_PATH = "/authorise-deposit"


def needs_authorisation(reservation: Reservation, *, today: date | None = None) -> bool:
    """The card refused the hold and nothing is held now, while the hold window lasts: the guest may
    authorise it on a checkout page (the manage page shows the link)."""
    if reservation.status != Status.CONFIRMED or deposit_amount(reservation) <= 0:
        return False
    _, release_on = hold_window(reservation)
    if (today or timezone.localdate()) >= release_on:
        return False
    last = reservation.security_deposits.order_by("-placed_on", "-pk").first()
    return last is not None and last.status == Held.FAILED


def start_authorisation(reservation: Reservation, *, return_url: str) -> str:
    """A checkout page (mode=payment, capture_method=manual) for exactly the deposit; returns its
    URL. A page still open is reused; each new one has its own idempotency key. The authorisation
    is recorded by the payment event handlers (record_authorisation)."""
    if not needs_authorisation(reservation):
        raise InvalidTransition("The security deposit needs no authorisation now.")
    purpose = GuestCheckout.Purpose.SECURITY_DEPOSIT
    if (still_open := open_checkout_of(reservation, purpose)) is not None:
        return still_open.url
    attempt = reservation.guest_checkouts.filter(purpose=purpose).count() + 1
    checkout = start_guest_checkout(
        reservation,
        purpose=purpose,
        amount=deposit_amount(reservation),
        description=(
            f"{reservation.property.name}: refundable security deposit (card hold), {reservation.check_in:%d %b %Y} to {reservation.check_out:%d %b %Y}"
        ),
        return_url=return_url,
        capture_manual=True,
        idempotency_key=f"security-deposit-authorise-{reservation.pk}-{attempt}",
    )
    return checkout.url


def record_authorisation(
    reservation_id: str, *, payment_intent_id: str, amount: Decimal, currency: str, provider: str, customer_id: str, payment_method_id: str, actor: str
) -> str:
    """The guest authorised the deposit on the checkout page (webhook, sandbox page or
    reconciliation job): record the hold once, by its payment intent, and clear the flag. A hold
    nobody needs any more (one is already held, the stay is over or cancelled, the amount is not the
    deposit) is released at the provider after commit."""
    with reservation_transaction(reservation_id) as locked:
        if locked.security_deposits.filter(provider_id=payment_intent_id).exists():
            return "already recorded"
        today = timezone.localdate()
        same_day = locked.security_deposits.filter(placed_on=today).first()
        wanted = (
            locked.status == Status.CONFIRMED
            and amount == deposit_amount(locked)
            and currency.upper() == locked.currency
            and not locked.security_deposits.filter(status=Held.HELD).exists()
            and (same_day is None or same_day.status == Held.FAILED)
            and today < hold_window(locked)[1]
        )
        if not wanted:
            record_event(
                locked,
                action="security_deposit",
                actor=actor,
                from_status=locked.status,
                message="deposit_surplus_released",
                params={"hold": payment_intent_id},
            )
            transaction.on_commit(lambda: _release_quietly(provider, payment_intent_id))
            return "released: no security deposit is to be held with this authorisation"
        fields = {
            "status": Held.HELD,
            "provider": provider,
            "provider_id": payment_intent_id,
            "error": "",
            "customer_id": customer_id,
            "payment_method_id": payment_method_id,
            "amount": amount,
            "currency": locked.currency,
        }
        if same_day is not None:
            SecurityDeposit.objects.filter(pk=same_day.pk).update(**fields)
        else:
            SecurityDeposit.objects.create(reservation=locked, placed_on=today, **fields)
        if locked.needs_attention.startswith(FLAG):
            locked.needs_attention = ""
            locked.save(update_fields=["needs_attention", "updated_at"])
        record_event(
            locked,
            action="security_deposit",
            actor=actor,
            from_status=locked.status,
            message="deposit_authorised_by_guest",
            params={"amount": amount, "currency": locked.currency, "hold": payment_intent_id},
        )
    return f"security deposit of {amount} {currency.upper()} authorised"


def _release_quietly(provider: str, payment_intent_id: str) -> None:
    try:
        saved_cards(provider).cancel(payment_intent_id)
    except BookingError as error:  # it lapses at the provider within 7 days anyway
        logger.warning("surplus security deposit authorisation %s not released: %s", payment_intent_id, error.detail)


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
