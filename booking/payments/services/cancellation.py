"""Cancelling a confirmed stay, by the guest from their manage page or by staff in the back office.

One path for both. Under the reservation's lock the stay becomes `cancelled` (its nights are free at
once), the refund it is owed is recorded as pending, and the emails are queued, all in one
transaction. Then, outside the lock, the payment provider is asked for the refund with an
idempotency key derived from the reservation: a retried cancel, a second click, or the refund job
retrying after a provider outage can never refund twice. A provider failure leaves the stay
cancelled with the refund pending and flagged for staff; `retry_pending_refunds` (a beat job)
tries again until the provider answers.

A second cancel changes nothing and refunds nothing.
"""

import logging
from decimal import Decimal

from django.utils import timezone

from booking.catalog.pricing import money
from booking.errors import BookingError, InvalidTransition, NotFound
from booking.ids import is_manage_token
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_emails
from booking.payments.selectors import refund_if_cancelled
from booking.payments.services import balances, refunds
from booking.payments.services import checkouts as payments
from booking.reservations.models import Reservation, new_manage_token
from booking.reservations.services import transitions
from booking.reservations.services.audit import flag_for_staff, resolve_flags
from booking.reservations.services.locking import reservation_transaction
from booking.reservations.services.reservations import get_reservation

logger = logging.getLogger(__name__)
Status = Reservation.Status
ZERO = Decimal("0.00")


def ensure_manage_token(reservation: Reservation) -> str:
    """Give a confirmed stay its manage link token (call under the reservation's lock)."""
    if not reservation.manage_token:
        reservation.manage_token = new_manage_token()
    return reservation.manage_token


def reservation_for_manage_token(token: str) -> Reservation:
    """The stay behind a manage link, or NotFound (also for anything that is not a token we issued)."""
    if not is_manage_token(token):  # not one we issued: no query (booking/ids.py)
        raise NotFound("No booking with this link.")
    reservation = Reservation.objects.select_related("property").filter(manage_token=token).first()
    if reservation is None:
        raise NotFound("No booking with this link.")
    return reservation


def cancel_stay(reservation_id: str, *, actor: str, refund: Decimal | None = None, reason: str = "", by_guest: bool = False) -> Reservation:
    """Cancel a confirmed stay and refund it: by the policy (refund=None) or the amount staff chose.

    A held reservation is simply released (nothing was paid). Cancelling a cancelled stay returns it
    unchanged. The provider is called after the cancellation commits; see the module docstring.
    A hold's checkout is closed at the provider first, as DELETE /api/v1/reservations/{id} does.
    """
    before = get_reservation(reservation_id)
    if before.status == Status.HELD:
        payments.close_checkout(before)
    with reservation_transaction(reservation_id) as reservation:
        if reservation.status == Status.CANCELLED:
            return reservation
        if reservation.status not in (Status.HELD, Status.CONFIRMED):
            raise InvalidTransition(f"A reservation that is {reservation.status} cannot be cancelled.")
        previous = reservation.status
        owed = ZERO
        if previous == Status.CONFIRMED:
            if refund is not None and refund < 0:
                raise InvalidTransition("A refund cannot be negative.")
            # Staff refunds still at the provider are taken already (booking/payments/services/refunds.py).
            refundable = refunds.refund_state(reservation).refundable
            owed = min(refund_if_cancelled(reservation).amount if refund is None else money(refund), refundable)
        who = "the guest" if by_guest else actor
        said = {"who": who, "owed": owed, "currency": reservation.currency, "reason": reason}
        transitions.cancel(reservation, actor=actor, owed=owed, message="cancelled_because" if reason else "cancelled", params=said)
    if previous == Status.CONFIRMED:
        # Its balance pages close at the provider: nobody pays a stay that is over. One paid a moment
        # before is given back whole by its payment event (balances.receive_payment).
        balances.close_stale_balance_checkouts(reservation_id)
    if owed > 0:
        try:
            return issue_pending_refund(reservation_id, actor=actor)
        except BookingError as error:
            logger.warning("refund for cancelled %s is pending: %s", reservation_id, error.detail)
    return get_reservation(reservation_id)


def cancel_by_guest(token: str) -> Reservation:
    """The guest's cancel button on the manage page."""
    reservation = reservation_for_manage_token(token)
    if reservation.status == Status.CANCELLED:
        return reservation
    if reservation.status != Status.CONFIRMED:
        raise InvalidTransition("Only a confirmed stay can be cancelled here.")
    if reservation.channel_booking_id:  # the platform owns the booking and its money
        raise InvalidTransition("This stay was booked on a listing platform: cancel it there.")
    if reservation.check_in < timezone.localdate():
        raise InvalidTransition("The stay has begun; to change it, contact the host.")
    return cancel_stay(reservation.pk, actor="guest (manage link)", by_guest=True)


def issue_pending_refund(reservation_id: str, *, actor: str) -> Reservation:
    """Ask the provider for what the cancellation still owes (refunds made since the cancel count
    toward it: booking/payments/services/refunds.py); record it, or flag it for staff and raise."""
    with reservation_transaction(reservation_id) as locked:
        if locked.refund_pending <= 0:
            return locked
        requests = refunds.cancellation_requests(locked, actor=actor) if locked.payment_intent_id else []
    if not locked.payment_intent_id:
        params = {"amount": locked.refund_pending, "currency": locked.currency}
        flag_for_staff(reservation_id, actor=actor, message="flag_refund_no_payment_id", params=params)
        raise RefundPending("No payment id to refund against.")
    if not requests:
        return get_reservation(reservation_id)  # nothing to ask now, or already being asked
    try:
        refunds.make_refunds(requests)
    except BookingError as error:
        asked = sum((request.amount for request in requests), ZERO)
        params = {"amount": asked, "currency": locked.currency, "reason": error.detail}
        flag_for_staff(reservation_id, actor=actor, message="flag_refund_pending", params=params)
        raise RefundPending(error.detail) from error
    with reservation_transaction(reservation_id) as locked:
        if locked.refund_pending == 0 and resolve_flags(locked, "flag_refund_pending", "flag_refund_no_payment_id", by=actor):
            # The guest was told the refund was on its way; now tell them it was made.
            queue_emails(locked, OutboundEmail.Kind.REFUND)
    return get_reservation(reservation_id)


class RefundPending(BookingError):
    status = 502
    code = "payment_provider_error"
    default_detail = "The refund could not be made now; it is retried automatically."


def retry_pending_refunds() -> int:
    """The refund job: try every pending cancellation refund again, and ask again for staff refunds a
    dead process left unanswered. Returns how many went through."""
    done = refunds.redrive_stale_requests()
    owed = Reservation.objects.filter(status=Status.CANCELLED, refund_pending__gt=0).values_list("pk", "refund_pending")
    for reservation_id, pending in owed:
        try:
            after = issue_pending_refund(reservation_id, actor="refund job")
        except BookingError:
            continue
        done += after.refund_pending < pending  # nothing asked (another worker is asking) is not counted
    return done
