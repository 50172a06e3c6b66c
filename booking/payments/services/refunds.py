"""Refunds: the one path by which money goes back to a guest through the payment provider.

Each refund request is a ProviderRefund row. Under the reservation's lock the service computes
what is refundable from the locked state (paid − refunded − the cancellation refund still pending −
refunds already asked of the provider and not yet answered), writes the request with its own
idempotency key, and commits: a concurrent request then sees this amount as taken. The provider is
called outside any lock (the calendar is never held while it answers). Its answer is recorded
under the lock again, by the provider's refund id: the reservation's refunded total grows by each
refund once, and never from a stale read. A request whose process died before the answer was
recorded is asked again with the same key by the refund job, so it is made once at the provider.

A stay paid in parts (a deposit, then the balance: booking/catalog/payment_schedule.py) is refunded over
its payments, newest first: one request per part, each against its own payment intent with a key
derived from the request's key and the part (the first part keeps the request's key), each
recorded by its own provider refund id.

A cancellation owes the guest `refund_pending`. Every refund recorded after the cancellation (staff
refunds, refunds made in the provider's dashboard) counts toward it, so it is never paid twice;
a refund asked before the cancellation does not. docs/reliability.md lists the guarantees.
"""

import logging
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from booking.catalog.payment_schedule import PaidPart, spread_refund
from booking.catalog.pricing import money
from booking.errors import BookingError
from booking.payments.emails import email_when_whole
from booking.payments.ledger import from_cents, to_cents
from booking.payments.models import Payment, ProviderRefund
from booking.payments.providers import Refund, get_provider
from booking.payments.services import money_alerts
from booking.reservations.models import Reservation
from booking.reservations.services.audit import flag, record_event, resolve_flags
from booking.reservations.services.locking import reservation_transaction

logger = logging.getLogger(__name__)
Status = Reservation.Status
Kind = ProviderRefund.Kind
ZERO = Decimal("0.00")
# A request still unanswered after this long was left by a process that died mid-call (the
# provider's own timeout and retries take about a minute): the refund job asks again, same key.
REDRIVE_AFTER = timedelta(minutes=5)
# Requests whose amount is taken from what is refundable the moment they are written (the
# cancellation's own requests are part of refund_pending instead).
TAKEN_WHEN_ASKED = (Kind.STAFF, Kind.RETURNED)
# Flags a successful refund answers: a failed refund, or a date change whose refund could not be made.
REFUND_FLAGS = ("flag_refund_failed", "flag_date_change_refund_failed")


class RefundNotPossible(BookingError):
    status = 409
    code = "refund_not_possible"
    default_detail = "Nothing is left to refund on this reservation."


@dataclass(frozen=True)
class RefundState:
    """What a reservation's money allows now: read from a locked reservation inside the lock."""

    paid: Decimal
    refunded: Decimal
    pending: Decimal  # owed by the cancellation, not yet refunded
    in_flight: Decimal  # staff refunds asked of the provider, not yet answered
    cancellation_in_flight: bool  # its amount is part of `pending`

    @property
    def refundable(self) -> Decimal:
        return max(self.paid - self.refunded - self.pending - self.in_flight, ZERO)


def refund_state(reservation: Reservation) -> RefundState:
    open_requests = ProviderRefund.objects.filter(reservation_id=reservation.pk, status=ProviderRefund.Status.REQUESTED)
    # A payment given back (Kind.RETURNED) is taken as soon as it is asked, like a staff refund.
    in_flight = open_requests.filter(kind__in=TAKEN_WHEN_ASKED).aggregate(total=Sum("amount"))["total"] or ZERO
    return RefundState(
        paid=reservation.amount_paid,
        refunded=reservation.amount_refunded,
        pending=reservation.refund_pending,
        in_flight=money(in_flight),
        cancellation_in_flight=open_requests.filter(kind=Kind.CANCELLATION).exists(),
    )


def refundable(reservation: Reservation) -> Decimal:
    """What staff may refund now (the admin shows it; the service re-checks it under the lock)."""
    if not reservation.payment_intent_id:
        return ZERO
    return refund_state(reservation).refundable


def new_request_key() -> str:
    """A refund request's idempotency key: the admin's refund page carries one, so sending the same
    page twice is one refund, and two pages (two staff members) are two requests."""
    return f"refund-{uuid.uuid4().hex}"


def refund_payment(
    reservation_id: str,
    *,
    actor: str,
    amount: Decimal | None = None,
    reason: str = "",
    request_key: str | None = None,
    refunded_before: Decimal | None = None,
) -> Reservation:
    """Refund all that is refundable (amount=None) or part of it, through the provider that took
    the payment. RefundNotPossible or PaymentProviderError; audited.

    `refunded_before` is what the person refunding saw as refunded (the refund page carries it): if
    the refunded or requested total moved since, someone else refunded in between and nothing is
    done. `request_key` makes a resent request the same refund."""
    key = request_key or new_request_key()
    with reservation_transaction(reservation_id) as locked:
        done = ProviderRefund.objects.filter(idempotency_key=key).first()
        if done is not None:
            return _repeated_request(done, locked)
        state = refund_state(locked)
        if refunded_before is not None and money(refunded_before) != state.refunded + state.in_flight:
            raise RefundNotPossible(
                f"Nothing was refunded now: {state.refunded + state.in_flight} {locked.currency} had been refunded meanwhile "
                f"(the page showed {money(refunded_before)}). Check the reservation before refunding more."
            )
        if state.cancellation_in_flight:
            raise RefundNotPossible("The cancellation refund is being made right now; look again in a minute.")
        left = state.refundable if locked.payment_intent_id else ZERO
        if left <= 0:
            raise RefundNotPossible("Nothing is left to refund: no payment was taken, it was refunded in full, or the rest is owed by the cancellation.")
        try:
            amount = left if amount is None else money(amount)
        except (InvalidOperation, TypeError, ValueError):
            raise RefundNotPossible("The refund amount must be a number.") from None
        if not Decimal("0.01") <= amount <= left:
            raise RefundNotPossible(f"Refund between 0.01 and {left} {locked.currency}.")
        requests = _requests(locked, kind=Kind.STAFF, amount=amount, keys=lambda n: part_key(key, n), actor=actor, reason=reason)
    return make_refunds(requests)


def request_refund_locked(locked: Reservation, *, actor: str, amount: Decimal, reason: str, request_key: str) -> list[ProviderRefund]:
    """Under the caller's reservation lock (a service refunding as part of its own change, such as a
    date change): write the REQUESTED refund rows for `amount` in the caller's transaction, with the
    staff refund's checks and keys, so a process that dies after the commit leaves requests the
    refund job asks again (redrive_stale_requests). The caller passes them to make_refunds after its
    commit. A request key already used answers with nothing new (RefundNotPossible if it failed)."""
    done = ProviderRefund.objects.filter(idempotency_key=request_key).first()
    if done is not None:
        _repeated_request(done, locked)
        return []
    state = refund_state(locked)
    if state.cancellation_in_flight:
        raise RefundNotPossible("The cancellation refund is being made right now; look again in a minute.")
    left = state.refundable if locked.payment_intent_id else ZERO
    amount = money(amount)
    if not Decimal("0.01") <= amount <= left:
        raise RefundNotPossible(f"Refund between 0.01 and {left} {locked.currency}.")
    return _requests(locked, kind=Kind.STAFF, amount=amount, keys=lambda n: part_key(request_key, n), actor=actor, reason=reason)


def return_payment_locked(locked: Reservation, *, payment_intent_id: str, amount: Decimal, actor: str, reason: str) -> ProviderRefund:
    """Under the caller's reservation lock: the request that gives one payment back whole (money that
    arrived for a stay no longer confirmed). Keyed by the payment, so it is asked once however
    often the payment is reported; made after the caller's commit (make_after_commit), and asked
    again by the refund job if the process dies first."""
    key = f"returned-{payment_intent_id}"
    asked = ProviderRefund.objects.filter(idempotency_key=key).first()
    if asked is not None:
        return asked
    return _request(locked, kind=Kind.RETURNED, amount=amount, intent=payment_intent_id, key=key, actor=actor, reason=reason)


def make_after_commit(requests: list[ProviderRefund]) -> None:
    """Ask the provider for these requests once the caller's transaction commits (outside any lock).
    A refusal is flagged for staff and the owner told (make_refund); it never undoes the commit."""
    ids = [request.pk for request in requests]

    def make() -> None:
        for request in ProviderRefund.objects.filter(pk__in=ids, status=ProviderRefund.Status.REQUESTED):
            try:
                make_refund(request)
            except BookingError as error:
                logger.warning("refund %s of %s not made now: %s", request.idempotency_key, request.reservation_id, error.detail)

    if ids:
        transaction.on_commit(make)


def part_key(request_key: str, part: int) -> str:
    """The idempotency key of one part of a refund request (part 1 is the request's own key)."""
    return request_key if part == 1 else f"{request_key}-part{part}"


def _repeated_request(done: ProviderRefund, locked: Reservation) -> Reservation:
    if done.reservation_id != locked.pk:
        raise RefundNotPossible("This refund request belongs to another reservation.")
    if done.status == ProviderRefund.Status.FAILED:
        raise RefundNotPossible(f"This refund failed ({done.failure}); open the refund page again to try once more.")
    return locked  # made, or being made: either way this request is one refund


def paid_parts(locked: Reservation) -> list[PaidPart]:
    """Under the lock: the payments made, oldest first, each with what is taken of it already (the
    larger of the refunds asked or made against it here and the provider's own refunded total of it).
    Money paid before payments were kept one row per intent is the reservation's own intent."""
    ours: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for intent, amount in (
        ProviderRefund.objects.filter(reservation_id=locked.pk).exclude(status=ProviderRefund.Status.FAILED).values_list("payment_intent_id", "amount")
    ):
        ours[intent] += amount
    rows = list(Payment.objects.filter(reservation_id=locked.pk).order_by("paid_at", "pk"))
    parts = [PaidPart(row.provider_id, row.amount, max(ours[row.provider_id], row.provider_refunded)) for row in rows]
    earlier = locked.amount_paid - sum((row.amount for row in rows), ZERO)
    if earlier > 0 and locked.payment_intent_id and all(row.provider_id != locked.payment_intent_id for row in rows):
        parts.insert(0, PaidPart(locked.payment_intent_id, earlier, ours[locked.payment_intent_id]))
    return parts


def _requests(locked: Reservation, *, kind: str, amount: Decimal, keys: Callable[[int], str], actor: str, reason: str = "") -> list[ProviderRefund]:
    """Under the lock: one request per payment the amount is spread over, newest payment first."""
    try:
        parts = spread_refund(amount, paid_parts(locked))
    except ValueError:
        raise RefundNotPossible(f"The payments made cannot cover a refund of {amount} {locked.currency}.") from None
    return [_request(locked, kind=kind, amount=share, intent=intent, key=keys(n), actor=actor, reason=reason) for n, (intent, share) in enumerate(parts, 1)]


def _request(locked: Reservation, *, kind: str, amount: Decimal, intent: str, key: str, actor: str, reason: str = "") -> ProviderRefund:
    return ProviderRefund.objects.create(
        reservation=locked,
        kind=kind,
        amount=amount,
        currency=locked.currency,
        provider=locked.payment_provider,
        payment_intent_id=intent,
        idempotency_key=key,
        actor=actor[:100],
        reason=reason[:300],
    )


def make_refunds(requests: list[ProviderRefund]) -> Reservation:
    """Ask the provider for each part; every part is tried even when one fails (a failed part frees
    its amount). Raises the first failure after trying them all."""
    failure: BookingError | None = None
    for request in requests:
        try:
            make_refund(request)
        except BookingError as error:
            failure = failure or error
    if failure is not None:
        raise failure
    return Reservation.objects.get(pk=requests[0].reservation_id)


def make_refund(request: ProviderRefund) -> Reservation:
    """Ask the provider for a requested refund (outside any lock) and record its answer. A failure
    marks the request failed, freeing its amount, and raises PaymentProviderError."""
    try:
        answer = get_provider(request.provider or None).refund(
            payment_intent_id=request.payment_intent_id,
            amount_cents=to_cents(request.amount),
            idempotency_key=request.idempotency_key,
        )
    except BookingError as error:
        with reservation_transaction(request.reservation_id) as locked:
            failed = ProviderRefund.objects.filter(pk=request.pk, status=ProviderRefund.Status.REQUESTED).update(
                status=ProviderRefund.Status.FAILED, failure=error.detail[:300], settled_at=timezone.now()
            )
            if failed:  # on the dashboard until a refund succeeds; the owner emailed at most once a day
                params = {"amount": request.amount, "currency": locked.currency, "reason": error.detail}
                flag(locked, actor=request.actor or "refund job", message="flag_refund_failed", params=params)
                money_alerts.alert_refund_failed(locked, amount=request.amount, failure=error.detail)
        raise
    return record_refund(request.pk, answer)


def record_refund(request_id: int, answer: Refund) -> Reservation:
    """Record the provider's answer to a request: once, by the provider's refund id."""
    request = ProviderRefund.objects.get(pk=request_id)
    with reservation_transaction(request.reservation_id) as locked:
        request = ProviderRefund.objects.select_for_update().get(pk=request_id)
        if request.status == ProviderRefund.Status.SUCCEEDED:
            return locked
        request.status = ProviderRefund.Status.SUCCEEDED
        request.provider_refund_id = answer.id
        request.amount = from_cents(answer.amount_cents)
        request.settled_at = timezone.now()
        request.save(update_fields=["status", "provider_refund_id", "amount", "settled_at"])
        resolve_flags(locked, *REFUND_FLAGS, by=request.actor or "refund job")
        # A payment given back whole (it arrived after the stay ended) never pays what the cancellation owes.
        counts_toward_cancellation = request.kind == Kind.CANCELLATION or (
            request.kind == Kind.STAFF and locked.cancelled_at is not None and request.requested_at >= locked.cancelled_at
        )
        params = {"kind": request.kind, "refund": answer.id, "amount": request.amount, "who": request.actor, "reason": request.reason}
        _raise_refunded_total(
            locked,
            _refunds_recorded(locked),
            actor=request.actor,
            message="refund_recorded_because" if request.reason else "refund_recorded",
            params=params,
            counts_toward_cancellation=counts_toward_cancellation,
        )
        if request.kind == Kind.STAFF:
            email_when_whole(locked, request)  # the guest hears of each staff refund
        return locked


def _refunds_recorded(reservation: Reservation) -> Decimal:
    """Per payment, the larger of our refunds of it (by provider refund id) and the provider's own
    refunded total of it; summed over the payments. Neither counts a refund twice."""
    per_intent: dict[str, Decimal] = defaultdict(lambda: ZERO)
    succeeded = ProviderRefund.objects.filter(reservation_id=reservation.pk, status=ProviderRefund.Status.SUCCEEDED)
    for intent, amount in succeeded.values_list("payment_intent_id", "amount"):
        per_intent[intent] += amount
    for intent, provider_total in Payment.objects.filter(reservation_id=reservation.pk).values_list("provider_id", "provider_refunded"):
        per_intent[intent] = max(per_intent[intent], provider_total)
    return money(sum(per_intent.values(), ZERO))


def reservation_of_payment(payment_intent_id: str) -> Reservation | None:
    """The stay a provider payment intent paid for: its first payment, or a later one (the balance)."""
    reservation = Reservation.objects.filter(payment_intent_id=payment_intent_id).first()
    if reservation is None:
        payment = Payment.objects.filter(provider_id=payment_intent_id).first()
        reservation = payment.reservation if payment is not None else None
    return reservation


def record_provider_total(reservation_id: str, *, payment_intent_id: str, refunded_total: Decimal, actor: str, note: str) -> Reservation:
    """The provider's running refunded total of ONE payment (charge.refunded): it includes refunds
    made in its dashboard. Kept on that payment (never lower); the stay's refunded total is then the
    sum over its payments, so two payments' totals are never taken for the stay's."""
    with reservation_transaction(reservation_id) as locked:
        payment = Payment.objects.select_for_update().filter(reservation_id=locked.pk, provider_id=payment_intent_id).first()
        if payment is None and payment_intent_id and payment_intent_id == locked.payment_intent_id and locked.amount_paid > 0:
            # Paid before payments were kept one row per intent: its row is made now (no receipt).
            others = Payment.objects.filter(reservation_id=locked.pk).aggregate(total=Sum("amount"))["total"] or ZERO
            payment = Payment.objects.create(
                reservation=locked,
                kind=Payment.Kind.FULL if others == 0 and locked.amount_paid >= locked.total else Payment.Kind.DEPOSIT,
                amount=locked.amount_paid - others,
                currency=locked.currency,
                provider=locked.payment_provider or "stripe",
                provider_id=payment_intent_id,
                paid_at=locked.confirmed_at or timezone.now(),
            )
        if payment is None:
            _raise_refunded_total(locked, money(refunded_total), actor=actor, note=note, counts_toward_cancellation=True)
            return locked
        if money(refunded_total) > payment.provider_refunded:
            payment.provider_refunded = min(money(refunded_total), payment.amount)
            payment.save(update_fields=["provider_refunded"])
        # A payment being given back whole is refunded for itself, never toward what the cancellation owes.
        returned = ProviderRefund.objects.filter(reservation_id=locked.pk, payment_intent_id=payment_intent_id, kind=Kind.RETURNED)
        counts = not returned.exclude(status=ProviderRefund.Status.FAILED).exists()
        _raise_refunded_total(locked, _refunds_recorded(locked), actor=actor, note=f"{note} ({payment_intent_id})", counts_toward_cancellation=counts)
        return locked


def _raise_refunded_total(
    locked: Reservation,
    at_least: Decimal,
    *,
    actor: str,
    counts_toward_cancellation: bool,
    note: str = "",
    message: str = "refunded_so_far",
    params: dict[str, Any] | None = None,
) -> None:
    """Under the lock: refunded = max(refunded, at_least), capped at what was paid. Each of our refunds
    is in `at_least` (the sum by provider id), the provider's own total too, so nothing counts twice."""
    ceiling = locked.amount_paid if locked.amount_paid > 0 else at_least
    new_total = min(max(locked.amount_refunded, at_least), ceiling)
    increase = new_total - locked.amount_refunded
    if increase <= 0:
        return
    locked.amount_refunded = new_total
    fields = ["amount_refunded", "updated_at"]
    if counts_toward_cancellation and locked.refund_pending > 0:
        locked.refund_pending = max(locked.refund_pending - increase, ZERO)
        fields.append("refund_pending")
    locked.save(update_fields=fields)
    record_event(
        locked,
        action="refund",
        actor=actor,
        from_status=locked.status,
        message=message,
        params={**(params or {"detail": note}), "refunded_so_far": new_total, "currency": locked.currency},
    )


def cancellation_requests(locked: Reservation, *, actor: str) -> list[ProviderRefund]:
    """Under the lock: the requests that pay what the cancellation still owes, one per payment it is
    spread over (newest first); none when nothing is to be asked now (nothing owed, or requests for
    it are already at the provider). A part whose last request failed is asked again with its key
    while the amount is the same, so a refund whose answer was lost is found, not made twice."""
    if locked.refund_pending <= 0:
        return []
    open_requests = ProviderRefund.objects.filter(reservation_id=locked.pk, status=ProviderRefund.Status.REQUESTED)
    stale = timezone.now() - REDRIVE_AFTER
    open_cancellation = list(open_requests.filter(kind=Kind.CANCELLATION))
    if open_cancellation:
        return [request for request in open_cancellation if request.requested_at < stale]
    # Staff refunds asked since the cancellation count toward it (they settle it when recorded).
    since_cancel = open_requests.filter(kind=Kind.STAFF, requested_at__gte=locked.cancelled_at) if locked.cancelled_at else open_requests.none()
    owed = locked.refund_pending - money(since_cancel.aggregate(total=Sum("amount"))["total"] or ZERO)
    state = refund_state(locked)
    amount = min(owed, state.paid - state.refunded - state.in_flight)
    if amount <= 0:
        return []
    try:
        parts = spread_refund(amount, paid_parts(locked))
    except ValueError:
        return []  # the payments recorded cannot cover it: left pending (flagged) for staff
    earlier = ProviderRefund.objects.filter(reservation_id=locked.pk, kind=Kind.CANCELLATION).order_by("-requested_at")
    made = earlier.count()
    requests = []
    for intent, share in parts:
        last = earlier.filter(payment_intent_id=intent).first()
        if last is not None and last.status == ProviderRefund.Status.FAILED and last.amount == share:
            last.status, last.requested_at, last.failure, last.settled_at = ProviderRefund.Status.REQUESTED, timezone.now(), "", None
            last.save(update_fields=["status", "requested_at", "failure", "settled_at"])
            requests.append(last)
            continue
        made += 1
        requests.append(_request(locked, kind=Kind.CANCELLATION, amount=share, intent=intent, key=f"cancellation-{locked.pk}-{made}", actor=actor))
    return requests


def redrive_stale_requests() -> int:
    """The refund job: ask again (same key) for staff refunds and payments given back left unanswered
    by a dead process."""
    done = 0
    stale = ProviderRefund.objects.filter(status=ProviderRefund.Status.REQUESTED, kind__in=TAKEN_WHEN_ASKED, requested_at__lt=timezone.now() - REDRIVE_AFTER)
    for request in stale:
        try:
            make_refund(request)
        except BookingError:
            continue
        done += 1
    return done
