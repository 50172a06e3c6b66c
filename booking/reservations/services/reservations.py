"""State changes of a reservation after its hold: confirm, expire, cancel. Nothing else moves one.

held → confirmed (payment succeeded) | expired (hold time ran out, checkout expired) | cancelled
confirmed → cancelled (staff, with or without refund)

Each function locks the property, re-reads the reservation and returns early when the change was
already made, so a replayed webhook or a retried task is harmless.
"""

import logging
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.utils import timezone

from booking.errors import DatesUnavailable, InvalidTransition, NotFound, NotReleasable
from booking.ids import is_reservation_id
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_emails
from booking.reservations.models import Reservation, new_manage_token
from booking.reservations.services import transitions
from booking.reservations.services.audit import record_event
from booking.reservations.services.holds import expire_lapsed_holds_overlapping, nights_free_for
from booking.reservations.services.locking import reservation_transaction

logger = logging.getLogger(__name__)
Status = Reservation.Status
NOT_AN_ID = "No reservation with this id."


def get_reservation(reservation_id: str) -> Reservation:
    if not is_reservation_id(reservation_id):  # not one we issued: no query (booking/ids.py)
        raise NotFound(NOT_AN_ID)
    try:
        return Reservation.objects.select_related("property").get(pk=reservation_id)
    except Reservation.DoesNotExist:
        raise NotFound(f"No reservation with id {reservation_id!r}.") from None


@dataclass(frozen=True)
class Payer:
    email: str = ""
    name: str = ""
    phone: str = ""


def confirm_reservation(
    reservation_id: str,
    *,
    actor: str,
    payer: Payer | None = None,
    amount_paid: Decimal | None = None,
    payment_intent_id: str = "",
    note: str = "",
) -> Reservation:
    """Confirm after a successful payment and backfill the payer's details.

    A payment for a hold that lapsed (or a checkout that expired) still confirms when the nights
    are free; when they were taken meanwhile it raises DatesUnavailable and the caller refunds.
    """
    with reservation_transaction(reservation_id) as reservation:
        if reservation.status == Status.CONFIRMED:
            _backfill_payer(reservation, payer)
            return reservation
        if reservation.status == Status.CANCELLED:
            raise InvalidTransition("A cancelled reservation cannot be confirmed; refund the payment instead.")
        # A lapsed hold (this one, or someone else's) may still be `held` on these nights: it no
        # longer blocks, but PostgreSQL's exclusion constraint would refuse the confirmation beside
        # it. Expire such holds first, as the expiry job would, whoever confirms.
        if expire_lapsed_holds_overlapping(reservation.property, reservation.check_in, reservation.check_out, timezone.now()):
            reservation.refresh_from_db(fields=["status"])
        if not nights_free_for(reservation):
            raise DatesUnavailable("The nights of this reservation were taken after its hold ended.", "booked")
        previous = reservation.status
        reservation.status = Status.CONFIRMED
        reservation.confirmed_at = timezone.now()
        if not reservation.manage_token:
            reservation.manage_token = new_manage_token()  # the guest's own link to the stay
        if amount_paid is not None:
            reservation.amount_paid = amount_paid
        if payment_intent_id:
            reservation.payment_intent_id = payment_intent_id
        _backfill_payer(reservation, payer, save=False)
        reservation.save()
        late = previous != Status.HELD or (reservation.hold_expires_at and reservation.hold_expires_at <= reservation.confirmed_at)
        record_event(
            reservation, action="confirm", actor=actor, from_status=previous, note=note, message="" if note else "late_payment" if late else "payment_succeeded"
        )
        # Owed with the confirmation itself: delivered after commit, retried while SMTP is down.
        queue_emails(reservation, OutboundEmail.Kind.CONFIRMATION)
    return reservation


def _backfill_payer(reservation: Reservation, payer: Payer | None, save: bool = True) -> None:
    """Fill in what the guest did not give at hold time; never overwrite what they gave."""
    if payer is None:
        return
    changed: list[str] = []
    if payer.email and not reservation.guest_email:
        reservation.guest_email, changed = payer.email[:254], changed + ["guest_email"]
    if payer.phone and not reservation.guest_phone:
        reservation.guest_phone, changed = payer.phone[:40], changed + ["guest_phone"]
    if payer.name and not (reservation.guest_first_name or reservation.guest_last_name):
        first, _, last = payer.name.strip().partition(" ")
        reservation.guest_first_name, reservation.guest_last_name = first[:100], last.strip()[:100]
        changed += ["guest_first_name", "guest_last_name"]
    if changed and save:
        reservation.save(update_fields=[*changed, "updated_at"])


def expire_hold(reservation_id: str, *, actor: str, note: str = "") -> Reservation:
    """Release a hold (its time ran out, or its checkout session expired or failed)."""
    with reservation_transaction(reservation_id) as reservation:
        # Already decided (an `expired` after `completed`) changes nothing: transitions.expire says so.
        transitions.expire(reservation, actor=actor, note=note)
    return reservation


def expire_lapsed_holds(*, now: datetime | None = None, actor: str = "expiry job") -> int:
    """Housekeeping: mark every hold past its expiry as expired. Correctness never waits for it."""
    now = now or timezone.now()
    ids = list(Reservation.objects.filter(status=Status.HELD, hold_expires_at__lte=now).values_list("pk", flat=True))
    expired = 0
    for reservation_id in ids:
        with reservation_transaction(reservation_id) as reservation:
            if reservation.status == Status.HELD and reservation.hold_expires_at is not None and reservation.hold_expires_at <= now:
                expired += transitions.expire(reservation, actor=actor)
    return expired


def cancel_reservation(reservation_id: str, *, actor: str, reason: str = "") -> Reservation:
    """Cancel a hold (a failed payment, a hold released because its next step failed). A confirmed
    stay is refused: it is cancelled with its refund and emails, by cancellation.cancel_stay
    (booking/payments), never here without them."""
    with reservation_transaction(reservation_id) as reservation:
        if reservation.status == Status.CANCELLED:
            return reservation
        if reservation.status == Status.CONFIRMED:
            raise InvalidTransition("A confirmed stay is cancelled with its refund (cancel_stay), not by releasing it.")
        transitions.cancel(reservation, actor=actor, note=reason)
    return reservation


def release_hold_after_failure(reservation_id: str, *, actor: str, reason: str) -> None:
    """The next step after a hold failed (its checkout could not be opened, its payment link not
    emailed): let the nights go at once. Called while that failure propagates, so a failure here is
    logged, not raised: the original error is the one to report, and the hold lapses on its own."""
    try:
        cancel_reservation(reservation_id, actor=actor, reason=f"hold released: {reason}")
    except Exception:
        logger.exception("could not release hold %s after a failed step (%s); it lapses on its own", reservation_id, reason)


def release_live_hold(reservation_id: str, *, actor: str, reason: str) -> Reservation:
    """Cancel a hold that is still live and unpaid, and nothing else (NotReleasable): a payment
    confirming it a moment earlier wins."""
    with reservation_transaction(reservation_id) as reservation:
        if reservation.status != Status.HELD or not reservation.is_blocking():
            status = reservation.status if reservation.status != Status.HELD else Status.EXPIRED
            raise NotReleasable(f"This reservation is {status}; only an unpaid hold can be released.")
        transitions.cancel(reservation, actor=actor, action="release", note=reason)
    return reservation


def extend_hold(reservation_id: str, *, until: datetime, actor: str) -> Reservation:
    """Push a hold's expiry later (a payment session may outlive it: Stripe's 30-minute floor)."""
    with reservation_transaction(reservation_id) as reservation:
        if reservation.status == Status.HELD and reservation.hold_expires_at and until > reservation.hold_expires_at:
            reservation.hold_expires_at = until
            reservation.save(update_fields=["hold_expires_at", "updated_at"])
            record_event(reservation, action="extend_hold", actor=actor, from_status=Status.HELD, message="held_until", params={"until": until})
    return reservation


# What staff may change on a reservation's page; status, dates and money change only through the
# services that own them (confirm, cancel, refund), never by editing a form.
STAFF_EDITABLE = frozenset({"agent_name", "guest_first_name", "guest_last_name", "guest_email", "guest_phone", "special_requests", "staff_note"})


def edit_by_staff(reservation_id: str, *, changes: dict[str, object], actor: str) -> Reservation:
    """Write the fields staff changed in the back office, and only those, under the reservation's
    lock: a webhook that confirmed the stay while the form was open keeps its status and amounts."""
    refused = set(changes) - STAFF_EDITABLE
    if refused:
        raise InvalidTransition(f"These fields are not edited by hand: {', '.join(sorted(refused))}.")
    with reservation_transaction(reservation_id) as reservation:
        if not changes:
            return reservation
        for name, value in changes.items():
            setattr(reservation, name, value)
        reservation.save(update_fields=[*changes, "updated_at"])
        record_event(reservation, action="edit", actor=actor, from_status=reservation.status, message="edited", params={"fields": list(changes)})
        return reservation
