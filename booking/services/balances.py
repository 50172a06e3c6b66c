"""The balance of a stay paid with a deposit: recorded payments, the due-date charge to the saved
card, and the guest paying early (docs/money.md).

Every payment is a Payment row keyed by the provider's payment intent, written under the
reservation's lock with amount_paid, so a replayed webhook, a second worker or the command run
beside the beat job records it once. The job tries each due balance at most once per local day
(a BalanceAttempt row per day, unique); the provider call runs outside the lock with an
idempotency key of the reservation, the schedule entry, the amount, the payments recorded and the
number of refused tries (balance_key), so a crash after the provider charged is answered, next
time, with that same charge, and a new debt of the same amount is a new charge. The key and amount
are stored on the attempt before the call: one the provider did not answer is sent again exactly as
it was before anything else, so a balance that changed in between (a date change) is never a
second charge.
A refused card never cancels the stay: the guest is emailed a link to pay, the job tries again
each day, and after the grace days staff are flagged and the owner emailed.
"""

import logging
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking import payment_schedule as schedules
from booking.errors import BookingError, InvalidTransition
from booking.event_messages import english_note, to_params
from booking.formatting import site_path
from booking.models import OutboundEmail, Reservation
from booking.notifications import deliver_soon, email_address, header_safe
from booking.payments.ledger import from_cents, to_cents
from booking.payments.payment_models import BalanceAttempt, GuestCheckout, Payment
from booking.payments.providers import get_provider
from booking.payments.saved_cards import saved_cards
from booking.selectors import given_back_for_date_changes, stays_given_back_for_date_changes
from booking.services import money_alerts, refunds
from booking.services.audit import flag, record_event
from booking.services.guest_checkouts import open_checkout_of, settle, start_guest_checkout
from booking.services.locking import reservation_transaction
from booking.services.receipts import issue_receipt

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


def record_checkout_payment(reservation: Reservation, session: dict[str, Any], *, amount: Decimal, payment_intent_id: str) -> Payment | None:
    """The payment that confirmed a hold: the deposit, or the whole. Replays change nothing."""
    if not payment_intent_id:
        return None
    kind = Payment.Kind.FULL if amount >= reservation.total else Payment.Kind.DEPOSIT
    payment, created = Payment.objects.get_or_create(
        provider=reservation.payment_provider or "stripe",
        provider_id=payment_intent_id,
        defaults={
            "reservation": reservation,
            "kind": kind,
            "amount": amount,
            "currency": reservation.currency,
            "customer_id": _text(session.get("customer")),
            "payment_method_id": _text(session.get("payment_method")),
        },
    )
    if created:
        issue_receipt(payment)  # attached to the confirmation email
    return payment


def balance_checkout_paid(locked: Reservation, session: dict[str, Any], *, amount_cents: int, payment_intent_id: str, actor: str) -> str | None:
    """A checkout paid for a confirmed stay that owes exactly this much: the guest paid the balance
    (early from the manage page, or after the card was refused). Returns what was done, or None
    when this payment is not a balance payment (the caller then treats it as a second payment)."""
    if locked.status != Status.CONFIRMED or not payment_intent_id:
        return None
    if Payment.objects.filter(provider_id=payment_intent_id, reservation=locked).exists():
        return "already recorded"
    owed = balance_owed(locked)
    if owed <= 0 or amount_cents != to_cents(owed) or (_text(session.get("currency")).upper() or locked.currency) != locked.currency:
        return None
    _record_balance(
        locked,
        amount=owed,
        provider=locked.payment_provider or "stripe",
        payment_intent_id=payment_intent_id,
        customer_id=_text(session.get("customer")),
        payment_method_id=_text(session.get("payment_method")),
        actor=actor,
    )
    return f"balance of {owed} {locked.currency} paid"


def _record_balance(
    locked: Reservation, *, amount: Decimal, provider: str, payment_intent_id: str, customer_id: str, payment_method_id: str, actor: str
) -> Payment | None:
    """Under the reservation's lock: one Payment row per intent, and amount_paid with it."""
    payment, created = Payment.objects.get_or_create(
        provider=provider,
        provider_id=payment_intent_id,
        defaults={
            "reservation": locked,
            "kind": Payment.Kind.BALANCE,
            "amount": amount,
            "currency": locked.currency,
            "customer_id": customer_id,
            "payment_method_id": payment_method_id,
        },
    )
    if not created:
        return None
    issue_receipt(payment)
    locked.amount_paid += amount
    if locked.needs_attention.startswith(OVERDUE_FLAG):
        locked.needs_attention = ""
    locked.save(update_fields=["amount_paid", "needs_attention", "updated_at"])
    record_event(
        locked,
        action="balance",
        actor=actor,
        from_status=locked.status,
        message="balance_paid",
        params={"amount": amount, "currency": locked.currency, "payment": payment_intent_id},
    )
    queue_guest_notice(locked, OutboundEmail.Kind.PAYMENT_RECEIVED, "emails/guest_payment_received.txt", amount=amount)
    return payment


# --- The due-date charge ---------------------------------------------------------------------------


def charge_due_balances(*, as_of: date | None = None) -> dict[str, int]:
    """The balance job (beat, and `manage.py charge_due_balances [--as-of]`): try every balance due
    on or before `as_of` (the property's local date; default today). Returns counts by outcome."""
    as_of = as_of or timezone.localdate()
    counts: dict[str, int] = {}
    owing = Reservation.objects.filter(status=Status.CONFIRMED, amount_paid__gt=0).exclude(payment_schedule=[]).values_list("pk", "total", "amount_paid")
    owe_again = stays_given_back_for_date_changes()  # paid in full once, then a date change's refund is owed again
    # A charge whose answer was lost is asked again even when nothing seems owed (the stay became
    # cheaper, or the guest paid the page since): the provider may have made it.
    unanswered = set(
        BalanceAttempt.objects.exclude(idempotency_key="")
        .filter(outcome__in=[BalanceAttempt.Outcome.FAILED, BalanceAttempt.Outcome.CHARGING])
        .values_list("reservation_id", flat=True)
    )
    for reservation_id, total, paid in owing:
        if paid >= total and reservation_id not in owe_again and reservation_id not in unanswered:
            continue
        outcome = charge_balance(reservation_id, as_of=as_of)
        counts[outcome] = counts.get(outcome, 0) + 1
    ended = Reservation.objects.filter(pk__in=unanswered).exclude(status=Status.CONFIRMED).values_list("pk", flat=True)
    for reservation_id in ended:
        if leave_lost_answer_to_staff(reservation_id):
            counts["left_to_staff"] = counts.get("left_to_staff", 0) + 1
    return counts


OVERDUE_FLAG = "Balance overdue"


def charge_balance(reservation_id: str, *, as_of: date) -> str:
    """Charge one stay's balance to its saved card if it is due and not yet tried on `as_of`. A
    charge the provider did not answer is asked again first, exactly as it was sent."""
    try:
        with reservation_transaction(reservation_id) as locked:
            unanswered = unanswered_attempt(locked)
            if unanswered is not None:  # asked again today, as it was sent
                unanswered.outcome, unanswered.created_at, unanswered.attempted_on = BalanceAttempt.Outcome.CHARGING, timezone.now(), as_of
                unanswered.save(update_fields=["outcome", "created_at", "attempted_on"])
            attempt = unanswered or _new_attempt(locked, as_of)
            if isinstance(attempt, str):
                return attempt
            card = locked.payments.exclude(customer_id="").order_by("-paid_at", "-pk").first()
            currency = locked.currency
    except IntegrityError:  # another worker created today's attempt a moment ago
        return "tried_today"
    due, owed, key = attempt.due_date, attempt.amount or ZERO, attempt.idempotency_key
    if card is None:
        return _refused(attempt, owed, charge_id="", reason="No saved card to charge.")
    try:
        cards = saved_cards(card.provider)
        method = card.payment_method_id or cards.payment_method_of(card.provider_id)
        charge = cards.charge(
            customer_id=card.customer_id,
            payment_method_id=method,
            amount_cents=to_cents(owed),
            currency=currency,
            idempotency_key=key,
            metadata={"reservation_id": reservation_id, "purpose": "balance", "due_date": due.isoformat()},
        )
    except BookingError as error:
        # The provider did not answer: the attempt keeps its key and amount, and the next run (within
        # the hour) asks again with them: if the charge was made after all, the provider answers with it.
        BalanceAttempt.objects.filter(pk=attempt.pk).update(outcome=BalanceAttempt.Outcome.FAILED, error=str(error.detail)[:300])
        logger.warning("balance of %s not charged now: %s", reservation_id, error.detail)
        return "provider_unavailable"
    if charge.declined:
        return _refused(attempt, owed, charge_id=charge.id, reason=charge.decline)
    with reservation_transaction(reservation_id) as locked:
        BalanceAttempt.objects.filter(pk=attempt.pk).update(outcome=BalanceAttempt.Outcome.SUCCEEDED, provider_id=charge.id, error="")
        _record_balance(
            locked,
            amount=from_cents(charge.amount_cents),
            provider=card.provider,
            payment_intent_id=charge.id,
            customer_id=card.customer_id,
            payment_method_id=method,
            actor=ACTOR,
        )
        surplus = locked.amount_paid - locked.amount_refunded - locked.total
    if surplus > 0:
        # The guest paid the balance's page while the card was being charged, or the stay became
        # cheaper while a charge's answer was lost: both payments are recorded (the money trail), and
        # what now exceeds the total goes back at once.
        try:
            refunds.refund_payment(
                reservation_id, actor=ACTOR, amount=min(surplus, from_cents(charge.amount_cents)), reason=PAID_TWICE, request_key=f"{key}-surplus"
            )
        except BookingError as error:  # a refused refund is flagged and the owner told by the refund service
            logger.warning("balance of %s paid twice; surplus not refunded now: %s", reservation_id, error.detail)
    return "charged"


# A charge still "charging" this long after it was sent was cut short (the process died): its answer
# is as lost as a timeout's. Longer than the provider client's timeouts and retries together.
CUT_SHORT_AFTER = timedelta(minutes=10)


def unanswered_attempt(locked: Reservation) -> BalanceAttempt | None:
    """The stay's charge that the provider has not answered (a timeout, an outage, a crash), if any."""
    return (
        BalanceAttempt.objects.filter(reservation=locked)
        .exclude(idempotency_key="")
        .filter(Q(outcome=BalanceAttempt.Outcome.FAILED) | Q(outcome=BalanceAttempt.Outcome.CHARGING, created_at__lt=timezone.now() - CUT_SHORT_AFTER))
        .order_by("created_at")
        .first()
    )


def leave_lost_answer_to_staff(reservation_id: str) -> bool:
    """A stay cancelled while its balance charge's answer was lost: asking again could charge a stay
    that is over, so staff are asked (once) to look the charge up in the provider's dashboard."""
    with reservation_transaction(reservation_id) as locked:
        attempt = unanswered_attempt(locked)
        if locked.status == Status.CONFIRMED or attempt is None:
            return False
        attempt.outcome = BalanceAttempt.Outcome.LEFT_TO_STAFF
        attempt.save(update_fields=["outcome"])
        params = {"amount": attempt.amount or ZERO, "currency": locked.currency, "key": attempt.idempotency_key}
        flag(locked, actor=ACTOR, message="flag_balance_answer_lost", params=params)
    return True


def _new_attempt(locked: Reservation, as_of: date) -> BalanceAttempt | str:
    """Under the lock: today's attempt at the balance owed now, with the request it will send; or
    why there is none ("not_due", "tried_today")."""
    owed, entry = balance_owed(locked), schedules.balance_entry(schedule_of(locked))
    if owed <= 0 or entry is None or entry.due_date is None or entry.due_date > as_of:
        return "not_due"
    if BalanceAttempt.objects.filter(reservation=locked, attempted_on=as_of).exists():
        return "tried_today"
    if BalanceAttempt.objects.filter(reservation=locked, outcome=BalanceAttempt.Outcome.CHARGING).exists():
        return "charging"  # another worker's charge is still waiting for its answer
    refused_before = BalanceAttempt.objects.filter(reservation=locked, due_date=entry.due_date, outcome=BalanceAttempt.Outcome.DECLINED).count()
    # One key per debt: a retry after a crash (no payment recorded since) asks again with the same key,
    # while the same amount owed again on the same date (a date change after a charge) gets a new one.
    key = balance_key(locked.pk, entry.due_date, owed, payments_before=locked.payments.count(), refused_before=refused_before)
    return BalanceAttempt.objects.create(reservation=locked, due_date=entry.due_date, attempted_on=as_of, idempotency_key=key, amount=owed)


PAID_TWICE = "the balance was paid twice: the card was charged while the guest paid the page"


def balance_key(reservation_id: str, due: date, owed: Decimal, *, payments_before: int, refused_before: int) -> str:
    """The provider idempotency key of a balance charge: the stay, the due date, the amount, the
    number of payments recorded before it (a new debt after a charge is a new key) and of refused
    tries of this due date (each daily retry after a refusal is a new charge)."""
    return f"balance-{reservation_id}-{due.isoformat()}-{to_cents(owed)}-p{payments_before}-try{refused_before + 1}"


def _refused(attempt: BalanceAttempt, owed: Decimal, *, charge_id: str, reason: str) -> str:
    """The card was refused: the stay stands. The guest is emailed a link to pay (once per balance);
    after the grace days staff are flagged (once) and the owner emailed (at most once a day)."""
    reservation_id, as_of, due = attempt.reservation_id, attempt.attempted_on, attempt.due_date
    with reservation_transaction(reservation_id) as locked:
        BalanceAttempt.objects.filter(pk=attempt.pk).update(outcome=BalanceAttempt.Outcome.DECLINED, provider_id=charge_id, error=reason[:300])
        record_event(
            locked,
            action="balance_declined",
            actor=ACTOR,
            from_status=locked.status,
            message="balance_refused",
            params={"amount": owed, "currency": locked.currency, "reason": reason},
        )
        if not OutboundEmail.objects.filter(reservation=locked, kind=OutboundEmail.Kind.BALANCE_DECLINED).exists():
            queue_guest_notice(
                locked,
                OutboundEmail.Kind.BALANCE_DECLINED,
                "emails/guest_balance_declined.txt",
                amount=owed,
                due_date=due,
                pay_url=manage_url(locked) + "/pay-balance",
            )
        grace = locked.property.balance_grace_days
        if (as_of - due).days >= grace:
            params = {"amount": owed, "currency": locked.currency, "due": due, "days": grace, "reason": reason}
            note = english_note("flag_balance_overdue", to_params(params))
            if not locked.needs_attention.startswith(OVERDUE_FLAG):
                flag(locked, actor=ACTOR, message="flag_balance_overdue", params=params)
            # Each refused try past the grace days reminds the owner, at most once a day.
            money_alerts.alert_balance_overdue(locked, note=note, reason=reason, manage_url=manage_url(locked))
    return "declined"


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
    """After the balance changed (a date change): close, at the provider, the balance pages still
    open for another amount, so nobody pays an old amount (it would not match the balance and be
    refunded whole). Outside any lock. A page the provider closed is settled (the reconciliation job
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
