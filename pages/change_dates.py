"""The guest changes their stay's dates from the manage page: {link}/change-dates.

GET shows the dates form and, once dates are chosen, the new price, the difference and what it
means for the money (booking.payments.services.date_changes.quote_change). POST with the confirmation box
ticked makes the change (change_dates, carrying the total the guest saw: a price that moved since is
refused), then back to the booking page, where a balance left to pay has its "pay now" button.
The rules the guest meets are the service's (docs/date-changes.md).
"""

from datetime import date
from decimal import Decimal, InvalidOperation

from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from booking.catalog import pricing
from booking.catalog.pricing import money
from booking.catalog.selectors import today
from booking.errors import BookingError, DatesUnavailable
from booking.payments.services.date_changes import DateChangeNotAllowed, change_dates, full_refund_days, guest_change_refusal, quote_change
from booking.reservations.models import Reservation
from pages.change_dates_calendar import free_nights_calendar
from pages.i18n import lang_path
from pages.manage import context_for, manage_page, with_a_form


def refusal_text(error: BookingError) -> str:
    """What the guest reads, in the page's language, for the reason a change is refused."""
    reason = getattr(error, "reason", None)
    texts = {
        pricing.Unavailable.BOOKED: _("Some of these nights are already taken. Choose other dates."),
        pricing.Unavailable.ON_HOLD: _("Some of these nights are already taken. Choose other dates."),
        pricing.Unavailable.MIN_STAY: _("The stay is shorter than the minimum for these dates."),
        pricing.Unavailable.MAX_STAY: _("The stay is longer than the maximum."),
        pricing.Unavailable.CLOSED_TO_ARRIVAL: _("Arrivals are not possible on that day."),
        pricing.Unavailable.CLOSED_TO_DEPARTURE: _("Departures are not possible on that day."),
        pricing.Unavailable.BEYOND_BOOKING_WINDOW: _("These dates are too far ahead to book yet."),
        pricing.Unavailable.TOO_MANY_GUESTS: _("The property cannot take this many guests."),
        DateChangeNotAllowed.TOO_LATE: _(
            "The dates can be changed online only while the stay can still be cancelled with a full refund. Please contact us to change them."
        ),
        DateChangeNotAllowed.NOT_CONFIRMED: _("Only a confirmed stay's dates can be changed."),
        DateChangeNotAllowed.SAME_DATES: _("These are your dates already."),
        DateChangeNotAllowed.IN_THE_PAST: _("The new check-in cannot be in the past."),
        DateChangeNotAllowed.PRICE_CHANGED: _("The price of these dates has just changed. Look at the new price and confirm again."),
    }
    return texts.get(reason or "", _("These dates cannot be chosen. Choose other dates."))


def _dates(data) -> tuple[date, date] | None:
    try:
        check_in, check_out = date.fromisoformat(data.get("check_in", "")), date.fromisoformat(data.get("check_out", ""))
    except ValueError:
        return None
    return (check_in, check_out) if check_out > check_in else None


def _total(data) -> Decimal:
    """The total the guest saw and confirmed; anything unreadable is no total (the change is refused)."""
    try:
        return money(data.get("total", ""))
    except (InvalidOperation, ValueError):
        return Decimal("-1")


@require_http_methods(["GET", "HEAD", "POST"])
@manage_page
def change_dates_page(request, reservation: Reservation):
    context = context_for(request, reservation)
    refusal = guest_change_refusal(reservation)
    data = request.POST if request.method == "POST" else request.GET
    chosen = _dates(data)
    context.update(
        refusal=refusal_text(refusal) if refusal else "",
        full_refund_days=full_refund_days(reservation),
        today=today(),
        check_in=chosen[0] if chosen else reservation.check_in,
        check_out=chosen[1] if chosen else reservation.check_out,
    )
    if refusal is None:
        context.update(free_nights_calendar(request, reservation, chosen))
    status = 409 if refusal is not None and request.method == "POST" else 200
    if refusal is None and ("check_in" in data or "check_out" in data):
        if chosen is None:
            context["error"], status = _("Choose a check-in date and a later check-out date."), 400
        else:
            if request.method == "POST" and data.get("confirm") == "yes":
                try:
                    change_dates(reservation.pk, *chosen, actor="guest (manage page)", by_guest=True, expected_total=_total(data))
                except BookingError as error:
                    context["error"], status = refusal_text(error), 409
                else:
                    return HttpResponseRedirect(lang_path(f"/manage/{reservation.manage_token}") + "?dates_changed=1", status=303)
            elif request.method == "POST":
                context["error"], status = _("Tick the box to confirm the new dates."), 400
            try:  # the price of the dates chosen (again, after a refusal: it may have moved)
                context["change"] = quote_change(reservation.pk, *chosen, by_guest=True)
            except (DatesUnavailable, DateChangeNotAllowed) as error:
                context["error"], status = refusal_text(error), 409
    return with_a_form(render(request, "pages/manage_change_dates.html", context, status=status))
