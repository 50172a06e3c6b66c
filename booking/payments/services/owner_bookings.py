"""Bookings made by the owner for a guest who phoned (docs/owner-bookings.md).

The owner gives the stay, the party, the guest's name, email and language, how long to hold the
nights and, optionally, a special price. The hold is made by holds.hold_stay, under the same lock
and with the same rules as every other hold (the party is validated by the same schema as the
API's); only its length and, with a special price, its breakdown differ. The guest is then emailed
a link to the ordinary payment page ({BASE_URL}/pay/<id>), which works for as long as the hold
does. If the email cannot be queued the hold is released: nothing is left behind. While the hold
lives, staff may send the same email again (`resend_payment_link`), at most once a minute.
"""

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking.callers import Caller
from booking.catalog.breakdown_words import email_money, read_breakdown
from booking.catalog.payment_schedule import DEFERRED, due_now
from booking.errors import BookingError, InvalidInput, Problem
from booking.formatting import format_date, site_languages, time_with_date
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_soon, email_address, header_safe
from booking.payments import guest_prefill
from booking.payments.checkout import pay_page_url
from booking.payments.providers import active_provider_name
from booking.payments.services.balances import schedule_of
from booking.reservations.emails import stay_dates, test_payment_notice
from booking.reservations.models import Reservation
from booking.reservations.services.audit import record_event
from booking.reservations.services.holds import GuestDetails, hold_stay
from booking.reservations.services.locking import reservation_transaction
from booking.reservations.services.reservations import release_hold_after_failure

# A phone booking needs longer than HOLD_MINUTES: the guest pays when they read the email. A Stripe
# Checkout Session lives at most 24 hours, so the hold does too.
HOLD_HOURS_MIN, HOLD_HOURS_MAX, HOLD_HOURS_DEFAULT = 1, 24, 24
# A second "send the link again" within this time is refused: a double click sends one email.
RESEND_INTERVAL = timedelta(minutes=1)


class PaymentLinkNotResent(BookingError):
    """The payment link was not emailed again (see `reason`)."""

    status = 409
    code = "payment_link_not_resent"
    default_detail = "The payment link was not sent again."

    # Reasons, for the back office to say in the reader's language.
    NOT_OWNER_BOOKING = "not_owner_booking"  # only a hold made in the back office has an emailed link
    PAID = "paid"  # the stay is paid (confirmed): nothing left to pay by link
    ENDED = "ended"  # the hold lapsed, expired or was cancelled: the link leads nowhere
    TOO_SOON = "too_soon"  # the link was emailed less than RESEND_INTERVAL ago

    def __init__(self, detail: str, reason: str):
        super().__init__(detail)
        self.reason = reason


@dataclass(frozen=True)
class Party:
    adults: int
    children_ages: tuple[int, ...] = ()

    @property
    def guests(self) -> int:
        return self.adults + len(self.children_ages)


def payment_link(reservation: Reservation) -> str:
    """The guest's way to the payment page (the same page every interface gives for a hold), with
    the signed token that fills in the guest's details there (booking/payments/guest_prefill.py)."""
    return f"{pay_page_url(reservation.pk)}?{guest_prefill.QUERY}={guest_prefill.prefill_token(reservation.pk)}"


def book_for_guest(
    *,
    check_in: date,
    check_out: date,
    party: Party,
    guest: GuestDetails,
    language: str,
    staff: str,
    hold_hours: int = HOLD_HOURS_DEFAULT,
    special_price: Decimal | None = None,
    special_requests: str = "",
    staff_note: str = "",
) -> Reservation:
    """Hold the stay for `hold_hours` and email the guest the payment link; return the hold.

    InvalidInput naming the fields (hold_hours, language, guest.email, adults, special_price, and
    those of hold_stay) for bad input, DatesUnavailable when the rules or the
    calendar refuse the stay: in either case nothing is written. `staff` is the user's name, kept
    as who made the hold in its history."""
    problems = []
    if not HOLD_HOURS_MIN <= hold_hours <= HOLD_HOURS_MAX:
        problems.append(Problem(("hold_hours",), f"Between {HOLD_HOURS_MIN} and {HOLD_HOURS_MAX} hours.", "hold_hours_range"))
    if language not in site_languages():
        problems.append(Problem(("language",), f"One of {', '.join(site_languages())}.", "enum"))
    if not guest.email:
        problems.append(Problem(("guest", "email"), "The guest's email is needed: the payment link is emailed.", "missing"))
    if party.adults < 1:
        problems.append(Problem(("adults",), "At least one adult.", "greater_than_equal"))
    if special_price is not None and special_price <= 0:
        problems.append(Problem(("special_price",), "The special price must be more than zero.", "special_price_not_positive"))
    if problems:
        raise InvalidInput(problems)
    caller = Caller(Reservation.Source.OWNER, actor_prefix=f"staff {staff}")
    reservation = hold_stay(
        check_in=check_in,
        check_out=check_out,
        guests=party.guests,
        children_ages=list(party.children_ages),
        guest=guest,
        special_requests=special_requests,
        staff_note=staff_note,
        caller=caller,
        language=language,
        hold_minutes=hold_hours * 60,
        host_price=special_price,
    )
    try:
        with reservation_transaction(reservation.pk) as locked:
            record_event(
                locked,
                action="owner_booking",
                actor=caller.actor(),
                from_status=locked.status,
                message="booked_for_guest" if special_price is None else "booked_for_guest_special_price",
                params={"hours": hold_hours, "price": special_price, "currency": locked.currency} if special_price is not None else {"hours": hold_hours},
            )
            queue_payment_link_email(locked)
    except BaseException:
        release_hold_after_failure(reservation.pk, actor=caller.actor(), reason="the payment link could not be emailed")
        raise
    return locked


def link_is_live(reservation: Reservation, now: datetime | None = None) -> bool:
    """Whether this stay has an emailed payment link that still works: a hold made in the back
    office, unpaid, and not lapsed."""
    return (
        reservation.source == Reservation.Source.OWNER
        and reservation.status == Reservation.Status.HELD
        and reservation.hold_expires_at is not None
        and reservation.hold_expires_at > (now or timezone.now())
    )


def resend_payment_link(reservation_id: str, *, staff: str) -> OutboundEmail:
    """Email the guest the payment link again (the same email, written now, through
    `queue_payment_link_email`) while the hold lives. Refused (PaymentLinkNotResent) for a stay
    paid, a hold ended, a hold not made in the back office, or when the link was emailed less than
    a minute ago: under the reservation's lock, so two clicks at once send one email."""
    with reservation_transaction(reservation_id) as locked:
        now = timezone.now()
        if locked.source != Reservation.Source.OWNER:
            raise PaymentLinkNotResent("Only a stay booked in the back office has an emailed payment link.", PaymentLinkNotResent.NOT_OWNER_BOOKING)
        if locked.status == Reservation.Status.CONFIRMED or locked.amount_paid > 0:
            raise PaymentLinkNotResent("The stay is paid: there is no link to send.", PaymentLinkNotResent.PAID)
        if not link_is_live(locked, now):
            raise PaymentLinkNotResent("The hold has ended: the link no longer works.", PaymentLinkNotResent.ENDED)
        last = locked.emails.filter(kind=OutboundEmail.Kind.PAYMENT_LINK).order_by("-created_at").values_list("created_at", flat=True).first()
        if last is not None and now - last < RESEND_INTERVAL:
            raise PaymentLinkNotResent("The link was emailed less than a minute ago.", PaymentLinkNotResent.TOO_SOON)
        record_event(
            locked,
            action="resend_payment_link",
            actor=f"staff {staff}",
            from_status=locked.status,
            message="payment_link_resent",
            params={"until": locked.hold_expires_at},
        )
        return queue_payment_link_email(locked)


def queue_payment_link_email(reservation: Reservation) -> OutboundEmail:
    """Owe the guest the payment link, written now in their language: the stay, the party, the
    price line by line, what is due now and later, the link and when it stops working. Call
    inside the transaction that records the booking."""
    to = email_address(reservation.guest_email)
    if not to:
        raise InvalidInput.field("guest.email", "Not an address an email can be sent to.", "value_error")
    test = active_provider_name() == "sandbox"
    with translation.override(reservation.language or "en"):
        context = payment_link_context(reservation) | {"test_payment": test, "test_notice": test_payment_notice()}
        subject = _("Your stay at %(name)s: pay by %(deadline)s to confirm it") % {"name": reservation.property.name, "deadline": context["expires"]}
        body = render_to_string("emails/guest_payment_link.txt", context)
    row = OutboundEmail.objects.create(
        reservation=reservation,
        kind=OutboundEmail.Kind.PAYMENT_LINK,
        recipient=OutboundEmail.Recipient.GUEST,
        subject=header_safe(("[TEST] " if test else "") + subject)[:300],
        body=body,
        to_address=to,
        reply_to=email_address(reservation.property.contact_email) or "",
    )
    transaction.on_commit(deliver_soon)
    return row


def payment_link_context(reservation: Reservation) -> dict[str, Any]:
    """What the payment-link email shows, in the active language."""
    prop = reservation.property
    schedule = schedule_of(reservation)
    return {
        "reservation": reservation,
        "property": prop,
        "dates": stay_dates(reservation),
        "adults": reservation.guests - len(reservation.children_ages or []),
        "children_ages": ", ".join(str(age) for age in reservation.children_ages or []),
        "children": len(reservation.children_ages or []),
        "breakdown": read_breakdown(reservation.price_breakdown or {}, prop, email_money),
        "due_now": due_now(schedule),
        "later": [{"amount": entry.amount, "due_date": format_date(entry.due_date)} for entry in schedule if entry.type == DEFERRED],
        "pay_url": payment_link(reservation),
        "expires": time_with_date(reservation.hold_expires_at, zone=True),
    }
