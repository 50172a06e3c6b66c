"""The balance job: on its due date a stay's balance is charged to the card saved at checkout,
without the guest (docs/money.md, "On the due date").

- One try per stay and local day (a BalanceAttempt row per day, unique): two workers, or the
  command run beside the beat job, cannot both charge.
- The request is written on the attempt before it is sent (idempotency key, amount, customer,
  card), and the provider call runs outside the lock. The key names the stay, the schedule entry,
  the amount, the payments recorded and the refused tries (balance_key): a new debt of the same
  amount is a new charge.
- A charge the provider did not answer (a timeout, an outage, a worker that died) is sent again
  exactly as it was before anything else, so the provider answers with the charge it made, if
  any, even when the balance changed in between (a date change). Only while the provider keeps
  the key (24 hours) and only for a stay still confirmed: otherwise staff are asked to look it up.
- A refused card never cancels the stay: the guest is emailed a link to pay, the job tries again
  each day, and after the grace days staff are flagged and the owner emailed.
"""

import logging
from datetime import date, timedelta
from decimal import Decimal

from django.db import IntegrityError
from django.db.models import Q
from django.utils import timezone

from booking.catalog import payment_schedule as schedules
from booking.errors import BookingError
from booking.outbox.models import OutboundEmail
from booking.payments.ledger import from_cents, to_cents
from booking.payments.models import BalanceAttempt, Payment
from booking.payments.saved_cards import saved_cards
from booking.payments.selectors import stays_given_back_for_date_changes
from booking.payments.services import money_alerts, refunds
from booking.payments.services.balances import ACTOR, ZERO, balance_owed, manage_url, queue_guest_notice, record_balance, schedule_of
from booking.reservations.event_messages import english_note, to_params
from booking.reservations.models import Reservation
from booking.reservations.services.audit import flag, has_open_flag, record_event
from booking.reservations.services.locking import reservation_transaction

logger = logging.getLogger(__name__)
Status = Reservation.Status
Outcome = BalanceAttempt.Outcome

# A charge still "charging" this long after it was sent was cut short (the process died): its answer
# is as lost as a timeout's. Longer than the provider client's timeouts and retries together.
CUT_SHORT_AFTER = timedelta(minutes=10)
# Stripe answers a repeated key with the first answer for 24 hours; after that the same key would be
# a new charge. A lost answer older than this is left to staff.
KEY_KEPT_FOR = timedelta(hours=23)
PAID_TWICE = "the balance was paid twice: the card was charged while the guest paid the page"


def charge_due_balances(*, as_of: date | None = None) -> dict[str, int]:
    """The balance job (beat, and `manage.py charge_due_balances [--as-of]`): try every balance due
    on or before `as_of` (the property's local date; default today). Returns counts by outcome."""
    as_of = as_of or timezone.localdate()
    counts: dict[str, int] = {}
    owing = Reservation.objects.filter(status=Status.CONFIRMED, amount_paid__gt=0).exclude(payment_schedule=[]).values_list("pk", "total", "amount_paid")
    owe_again = stays_given_back_for_date_changes()  # paid in full once, then a date change's refund is owed again
    # A charge whose answer was lost is asked about even when nothing seems owed (the stay became
    # cheaper, or the guest paid the page since): the provider may have made it.
    unanswered = set(
        BalanceAttempt.objects.exclude(idempotency_key="").filter(outcome__in=[Outcome.FAILED, Outcome.CHARGING]).values_list("reservation_id", flat=True)
    )
    for reservation_id, total, paid in owing:
        if paid >= total and reservation_id not in owe_again and reservation_id not in unanswered:
            continue
        outcome = charge_balance(reservation_id, as_of=as_of)
        counts[outcome] = counts.get(outcome, 0) + 1
    for reservation_id in Reservation.objects.filter(pk__in=unanswered).exclude(status=Status.CONFIRMED).values_list("pk", flat=True):
        if leave_lost_answer_to_staff(reservation_id):
            counts["left_to_staff"] = counts.get("left_to_staff", 0) + 1
    return counts


def charge_balance(reservation_id: str, *, as_of: date) -> str:
    """Charge one stay's balance to its saved card if it is due and not yet tried on `as_of`. A
    charge the provider did not answer is sent again first, exactly as it was."""
    claimed = _attempt_to_send(reservation_id, as_of)
    if isinstance(claimed, str):
        return claimed
    attempt, card, currency = claimed
    if card is None:
        return _refused(attempt, charge_id="", reason="No saved card to charge.")
    try:
        cards = saved_cards(card.provider)
        method = attempt.payment_method_id
        if not method:  # written before the charge is sent, so a second sending uses the same card
            method = cards.payment_method_of(card.provider_id)
            BalanceAttempt.objects.filter(pk=attempt.pk).update(payment_method_id=method)
        charge = cards.charge(
            customer_id=attempt.customer_id,
            payment_method_id=method,
            amount_cents=to_cents(attempt.amount or ZERO),
            currency=currency,
            idempotency_key=attempt.idempotency_key,
            metadata={"reservation_id": reservation_id, "purpose": "balance", "due_date": attempt.due_date.isoformat()},
        )
    except BookingError as error:
        # No answer: the attempt keeps its request, and the next run (within the hour) sends it again:
        # if the charge was made after all, the provider answers with it.
        BalanceAttempt.objects.filter(pk=attempt.pk).update(outcome=Outcome.FAILED, error=str(error.detail)[:300])
        logger.warning("balance of %s not charged now: %s", reservation_id, error.detail)
        return "provider_unavailable"
    if charge.declined:
        return _refused(attempt, charge_id=charge.id, reason=charge.decline)
    with reservation_transaction(reservation_id) as locked:
        BalanceAttempt.objects.filter(pk=attempt.pk).update(outcome=Outcome.SUCCEEDED, provider_id=charge.id, error="")
        # The stay may have been cancelled while the charge was out: then receive_payment gives the
        # charge back whole (after this commit) and flags the stay; there is no surplus to weigh.
        received = record_balance(
            locked,
            amount=from_cents(charge.amount_cents),
            provider=card.provider,
            payment_intent_id=charge.id,
            customer_id=attempt.customer_id,
            payment_method_id=method,
            actor=ACTOR,
        )
        surplus = locked.amount_paid - locked.amount_refunded - locked.total if locked.status == Status.CONFIRMED else ZERO
    if received.given_back:
        return "given_back"
    if surplus > 0:
        _give_back(reservation_id, min(surplus, from_cents(charge.amount_cents)), request_key=f"{attempt.idempotency_key}-surplus")
    return "charged"


def _attempt_to_send(reservation_id: str, as_of: date) -> tuple[BalanceAttempt, Payment | None, str] | str:
    """Under the lock: the attempt to send now (a lost one again, or today's new one), the saved card
    it charges and the currency; or why nothing is sent."""
    try:
        with reservation_transaction(reservation_id) as locked:
            unanswered = unanswered_attempt(locked)
            if unanswered is not None and not _may_send_again(locked, unanswered):
                _leave_to_staff(locked, unanswered)
                return "left_to_staff"
            if unanswered is not None:  # sent again today, as it was
                unanswered.outcome, unanswered.created_at, unanswered.attempted_on = Outcome.CHARGING, timezone.now(), as_of
                unanswered.save(update_fields=["outcome", "created_at", "attempted_on"])
            attempt = unanswered or _new_attempt(locked, as_of)
            if isinstance(attempt, str):
                return attempt
            card = locked.payments.filter(customer_id=attempt.customer_id).exclude(customer_id="").order_by("-paid_at", "-pk").first()
            return attempt, card, locked.currency
    except IntegrityError:  # another worker created today's attempt a moment ago
        return "tried_today"


def _give_back(reservation_id: str, amount: Decimal, *, request_key: str) -> None:
    """The guest paid the balance's page while the card was being charged, or the stay became cheaper
    while a charge's answer was lost: both payments are recorded (the money trail), and what now
    exceeds the total goes back at once."""
    try:
        refunds.refund_payment(reservation_id, actor=ACTOR, amount=amount, reason=PAID_TWICE, request_key=request_key)
    except BookingError as error:  # a refused refund is flagged and the owner told by the refund service
        logger.warning("balance of %s paid twice; surplus not refunded now: %s", reservation_id, error.detail)


def balance_key(reservation_id: str, due: date, owed: Decimal, *, payments_before: int, refused_before: int) -> str:
    """The provider idempotency key of a balance charge: the stay, the due date, the amount, the
    number of payments recorded before it (a new debt after a charge is a new key) and of refused
    tries of this due date (each daily retry after a refusal is a new charge)."""
    return f"balance-{reservation_id}-{due.isoformat()}-{to_cents(owed)}-p{payments_before}-try{refused_before + 1}"


def _new_attempt(locked: Reservation, as_of: date) -> BalanceAttempt | str:
    """Under the lock: today's attempt at the balance owed now, with the request it will send; or
    why there is none ("not_due", "tried_today", "charging")."""
    owed, entry = balance_owed(locked), schedules.balance_entry(schedule_of(locked))
    if owed <= 0 or entry is None or entry.due_date is None or entry.due_date > as_of:
        return "not_due"
    if BalanceAttempt.objects.filter(reservation=locked, attempted_on=as_of).exists():
        return "tried_today"
    if has_open_flag(locked, "flag_balance_answer_lost"):
        return "waiting_for_staff"  # a charge left to staff may have been taken: they resolve the flag once they looked
    if BalanceAttempt.objects.filter(reservation=locked, outcome=Outcome.CHARGING).exclude(idempotency_key="").exists():
        return "charging"  # another worker's charge is still waiting for its answer
    refused_before = BalanceAttempt.objects.filter(reservation=locked, due_date=entry.due_date, outcome=Outcome.DECLINED).count()
    card = locked.payments.exclude(customer_id="").order_by("-paid_at", "-pk").first()
    return BalanceAttempt.objects.create(
        reservation=locked,
        due_date=entry.due_date,
        attempted_on=as_of,
        idempotency_key=balance_key(locked.pk, entry.due_date, owed, payments_before=locked.payments.count(), refused_before=refused_before),
        amount=owed,
        customer_id=card.customer_id if card else "",
        payment_method_id=card.payment_method_id if card else "",
        sent_at=timezone.now(),
    )


# --- A charge the provider did not answer -----------------------------------------------------------


def unanswered_attempt(locked: Reservation) -> BalanceAttempt | None:
    """The stay's charge that the provider has not answered (a timeout, an outage, a crash), if any."""
    return (
        BalanceAttempt.objects.filter(reservation=locked)
        .exclude(idempotency_key="")
        .filter(Q(outcome=Outcome.FAILED) | Q(outcome=Outcome.CHARGING, created_at__lt=timezone.now() - CUT_SHORT_AFTER))
        .order_by("created_at")
        .first()
    )


def _may_send_again(locked: Reservation, attempt: BalanceAttempt) -> bool:
    """Only a stay still confirmed (a stay that is over is never charged) and only while the provider
    keeps the key (after that the same key would be a second charge)."""
    return locked.status == Status.CONFIRMED and attempt.sent_at is not None and attempt.sent_at > timezone.now() - KEY_KEPT_FOR


def leave_lost_answer_to_staff(reservation_id: str) -> bool:
    """A stay cancelled while its balance charge's answer was lost: flagged for staff once."""
    with reservation_transaction(reservation_id) as locked:
        attempt = unanswered_attempt(locked)
        if attempt is None or _may_send_again(locked, attempt):
            return False
        _leave_to_staff(locked, attempt)
    return True


def _leave_to_staff(locked: Reservation, attempt: BalanceAttempt) -> None:
    """Staff are asked to look the charge up in the provider's dashboard by its key. Until they clear
    the flag, the job charges nothing more on this stay."""
    attempt.outcome = Outcome.LEFT_TO_STAFF
    attempt.save(update_fields=["outcome"])
    params = {"amount": attempt.amount or ZERO, "currency": locked.currency, "key": attempt.idempotency_key}
    flag(locked, actor=ACTOR, message="flag_balance_answer_lost", params=params)


# --- A refused card ---------------------------------------------------------------------------------


def _refused(attempt: BalanceAttempt, *, charge_id: str, reason: str) -> str:
    """The card was refused: the stay stands. While a balance is still owed, the guest is emailed a
    link to pay (once per balance); after the grace days staff are flagged (once) and the owner
    emailed (at most once a day)."""
    as_of, due = attempt.attempted_on, attempt.due_date
    with reservation_transaction(attempt.reservation_id) as locked:
        BalanceAttempt.objects.filter(pk=attempt.pk).update(outcome=Outcome.DECLINED, provider_id=charge_id, error=reason[:300])
        params = {"amount": attempt.amount or ZERO, "currency": locked.currency, "reason": reason}
        record_event(locked, action="balance_declined", actor=ACTOR, from_status=locked.status, message="balance_refused", params=params)
        owed = balance_owed(locked)
        if owed <= 0:  # a charge sent again after the guest paid the page: nothing to ask of them
            return "declined"
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
            overdue = {"amount": owed, "currency": locked.currency, "due": due, "days": grace, "reason": reason}
            note = english_note("flag_balance_overdue", to_params(overdue))
            if not has_open_flag(locked, "flag_balance_overdue"):
                flag(locked, actor=ACTOR, message="flag_balance_overdue", params=overdue)
            # Each refused try past the grace days reminds the owner, at most once a day.
            money_alerts.alert_balance_overdue(locked, note=note, reason=reason, manage_url=manage_url(locked))
    return "declined"
