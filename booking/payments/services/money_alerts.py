"""The owner's emails about money that needs them (docs/money.md): a balance still refused after the
grace days, a security deposit the card refused, a refund the provider refused. Each goes through
owner_alerts.alert_owner, so the owner gets at most one email per problem per day however often a
job sees it, written in the back office's language; the dashboard's attention list shows the
problem for as long as it lasts (the stay's "needs attention" flag, or the failed refund)."""

from decimal import Decimal

from django.conf import settings
from django.contrib.admin.utils import quote
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from booking.formatting import format_date, format_money
from booking.reservations.booking_numbers import with_booking_number
from booking.reservations.models import Reservation
from booking.reservations.services.owner_alerts import alert_owner, in_owner_language


def admin_link(reservation_id: str) -> str:
    return str(settings.BASE_URL) + reverse("admin:reservations_reservation_change", args=[quote(reservation_id)])


def _stay(reservation: Reservation) -> dict[str, str]:
    return {
        "guest": reservation.guest_name or reservation.guest_email or reservation.reference,
        "check_in": format_date(reservation.check_in, "j M Y"),
        "check_out": format_date(reservation.check_out, "j M Y"),
        "reservation": reservation.reference,
    }


def alert_balance_overdue(reservation: Reservation, *, note: str, reason: str, manage_url: str) -> None:
    with in_owner_language():
        subject = _("Balance overdue: %(guest)s, arriving %(check_in)s") % _stay(reservation)
        body = render_to_string(
            "emails/owner_balance_overdue.txt",
            {"reservation": reservation, "note": note, "reason": reason, "manage_url": manage_url, "admin_url": admin_link(reservation.pk)},
        )
    alert_owner(problem=f"balance-overdue:{reservation.pk}", subject=with_booking_number(subject, reservation.booking_number), body=body)


def alert_deposit_refused(reservation: Reservation, *, amount: Decimal, reason: str, manage_url: str) -> None:
    with in_owner_language():
        values = {**_stay(reservation), "amount": format_money(amount, reservation.currency), "reason": reason}
        subject = _("Security deposit not held: %(guest)s, arriving %(check_in)s") % values
        body = "\n\n".join(
            [
                _(
                    "The card of %(guest)s (stay %(check_in)s to %(check_out)s, reservation %(reservation)s) refused the hold "
                    "of the refundable security deposit, %(amount)s. The card's answer: %(reason)s"
                )
                % values,
                _("The booking stands. The guest was emailed a link to authorise the deposit on a payment page: %(link)s") % {"link": manage_url},
                admin_link(reservation.pk),
            ]
        )
    alert_owner(problem=f"security-deposit-refused:{reservation.pk}", subject=with_booking_number(subject, reservation.booking_number), body=body)


def alert_refund_failed(reservation: Reservation, *, amount: Decimal, failure: str) -> None:
    with in_owner_language():
        values = {**_stay(reservation), "amount": format_money(amount, reservation.currency), "failure": failure}
        subject = _("Refund failed: %(amount)s to %(guest)s") % values
        body = "\n\n".join(
            [
                _("The payment provider did not make the refund of %(amount)s to %(guest)s (reservation %(reservation)s): %(failure)s") % values,
                _("Nothing was refunded. Open the reservation in the back office and refund it again, or refund it in the provider's dashboard."),
                admin_link(reservation.pk),
            ]
        )
    alert_owner(problem=f"refund-failed:{reservation.pk}", subject=with_booking_number(subject, reservation.booking_number), body=body)
