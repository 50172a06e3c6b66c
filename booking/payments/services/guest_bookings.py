"""A confirmed stay managed by its guest with the manage token, from any interface.

The token (in the confirmation email) is the guest's capability. The manage page (pages/manage.py),
`/api/v1/bookings/{manage_token}…` (booking/api/bookings.py) and the MCP tools and A2A skills
`get_booking`, `cancel_booking` and `change_booking_dates` (discovery/operations.py) all resolve it
here, under one limit on unknown tokens per client, and act through the services the manage page
uses: the guest's cancellation (services/cancellation.py) and date change (services/date_changes.py).
"""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from booking.catalog.selectors import today
from booking.errors import InvalidTransition, NotFound, RateLimited
from booking.payments.selectors import refund_if_cancelled
from booking.payments.services.balances import balance_owed, manage_url
from booking.payments.services.cancellation import cancel_by_guest, reservation_for_manage_token
from booking.payments.services.date_changes import DateChange, DateChangeQuote, change_dates, full_refund_days, guest_change_refusal, quote_change
from booking.reservations.models import Reservation
from booking.reservations.services.limits import count_in_window

# Unknown tokens per client before it is refused for a while: a guest mistyping a link a few times
# never meets it; a guesser (2^256 tokens) gains nothing from the attempts it gets.
GUESS_LIMIT, GUESS_WINDOW_SECONDS = 20, 600


def booking_for_token(token: str, *, client_ip: str | None) -> Reservation:
    """The stay behind a manage token; NotFound for an unknown one, RateLimited once a client has
    tried too many unknown ones. Only unknown tokens count, and a known one always opens: behind a
    proxy many guests share an address, and a scanner there must not lock a guest out of their stay."""
    try:
        return reservation_for_manage_token(token)
    except NotFound:
        if count_in_window(f"manage-guesses:{client_ip or 'unknown'}", GUESS_WINDOW_SECONDS) > GUESS_LIMIT:
            raise RateLimited("Too many unknown booking links from this address; try again later.", retry_after=GUESS_WINDOW_SECONDS) from None
        raise


@dataclass(frozen=True)
class GuestBooking:
    """A stay as its guest may act on it now."""

    reservation: Reservation
    can_cancel: bool
    refund_if_cancelled_now: Decimal
    can_change_dates: bool
    change_dates_refusal: str | None  # DateChangeNotAllowed's reason while the dates cannot be changed
    full_refund_days: int | None
    balance_owed: Decimal

    @property
    def manage_url(self) -> str:
        return manage_url(self.reservation)  # in the guest's language

    @property
    def pay_balance_url(self) -> str | None:
        return f"{self.manage_url}/pay-balance" if self.balance_owed > 0 else None


def guest_booking(reservation: Reservation) -> GuestBooking:
    confirmed = reservation.status == Reservation.Status.CONFIRMED
    refusal = guest_change_refusal(reservation)
    return GuestBooking(
        reservation=reservation,
        can_cancel=confirmed and reservation.check_in >= today() and not reservation.channel_booking_id,
        refund_if_cancelled_now=refund_if_cancelled(reservation).amount if confirmed else Decimal("0.00"),
        can_change_dates=refusal is None,
        change_dates_refusal=refusal.reason if refusal else None,
        full_refund_days=full_refund_days(reservation),
        balance_owed=balance_owed(reservation),
    )


@dataclass(frozen=True)
class Cancellation:
    booking: GuestBooking
    cancelled: bool  # False: a preview of what cancelling now would refund
    refund: Decimal  # what goes back (or would) by the accepted policy


def cancel_booking(token: str, *, client_ip: str | None, confirm: bool) -> Cancellation:
    """Preview (confirm False) or cancel by the accepted policy, as the manage page's button does.
    A second cancel changes nothing and refunds nothing (it answers the stay as it is)."""
    reservation = booking_for_token(token, client_ip=client_ip)
    if not confirm:
        preview = guest_booking(reservation)
        if reservation.status == Reservation.Status.CONFIRMED and not preview.can_cancel:
            raise InvalidTransition("The stay has begun; to change it, contact the host.")
        return Cancellation(preview, False, preview.refund_if_cancelled_now)
    already = reservation.status == Reservation.Status.CANCELLED
    cancelled = cancel_by_guest(token)
    # What this cancellation gives back, made or still pending at the provider (never more than
    # what is refundable, which the policy's figure may exceed after a staff refund).
    refund = Decimal("0.00") if already else given_back(cancelled) - given_back(reservation)
    return Cancellation(guest_booking(cancelled), not already, refund)


def given_back(reservation: Reservation) -> Decimal:
    return reservation.amount_refunded + reservation.refund_pending


@dataclass(frozen=True)
class DateChangeAnswer:
    booking: GuestBooking
    quote: DateChangeQuote
    changed: bool  # False: a preview of the new price and what it means for the money


def change_booking_dates(
    token: str, check_in: date, check_out: date, *, client_ip: str | None, confirm: bool, expected_total: Decimal | None = None
) -> DateChangeAnswer:
    """Preview (confirm False) or make the guest's date change, with the manage page's rules: the
    same re-pricing, the balance left to pay on the manage link or the refund of the difference.
    `expected_total` (the total the guest was shown) refuses a price that moved since."""
    reservation = booking_for_token(token, client_ip=client_ip)
    if not confirm:
        return DateChangeAnswer(guest_booking(reservation), quote_change(reservation.pk, check_in, check_out, by_guest=True), False)
    change: DateChange = change_dates(reservation.pk, check_in, check_out, actor="guest (manage link)", by_guest=True, expected_total=expected_total)
    return DateChangeAnswer(guest_booking(change.reservation), change.quote, True)
