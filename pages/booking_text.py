"""The booking widget's words (static/js/booking.js) in the page's language.

The script writes English; it receives this table, English phrase → translation, in its
configuration and looks each phrase up. {name} marks a value the script fills in.
"""

from datetime import date, timedelta

from django.utils.translation import gettext, gettext_noop, ngettext

from booking.catalog.pricing import Unavailable, Verdict
from booking.catalog.selectors import today
from booking.errors import NotFound
from booking.formatting import format_date
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import get_reservation
from booking.reservations.services.stays import check_stay

PHRASES = [
    gettext_noop(" (incl. {amount} for extra guests)"),
    gettext_noop("Accommodation"),
    gettext_noop("Arrivals are not possible on this day."),
    gettext_noop("Book and pay"),
    gettext_noop("Calculating your price…"),
    gettext_noop("Charged in {currency}: {amount}."),
    gettext_noop("Check-in {date}. Now choose your check-out (at least {nights})."),
    gettext_noop("Check-out {date}: {nights}. Your price is shown under “Your stay”."),
    gettext_noop("Check-out {date}: {nights}. “See the new price” shows what the change costs."),
    gettext_noop("Choose a date"),
    gettext_noop("Choose your check-in date."),
    gettext_noop("City tax"),
    gettext_noop("Cleaning"),
    gettext_noop("Dates cleared. Choose your check-in."),
    gettext_noop("Departures are not possible on this day."),
    gettext_noop("Discount"),
    gettext_noop("Holding your dates…"),
    gettext_noop("Opening secure payment…"),
    gettext_noop("Please check your choice:"),
    gettext_noop("Price breakdown"),
    gettext_noop("Some of these nights have just been booked. Please choose other dates."),
    gettext_noop("Something went wrong on our side; nothing was booked. Please try again in a moment."),
    gettext_noop("Sorry — another guest booked some of these nights a moment ago. The calendar has been refreshed; please choose other dates."),
    gettext_noop("The calendar could not be loaded. Check your connection and try again."),
    gettext_noop("The calendar could not be loaded. Please reload the page, or contact us to book."),
    gettext_noop("At most {guests} guests can stay."),
    gettext_noop("The price could not be calculated just now. Please try again in a moment."),
    gettext_noop("These dates are too far ahead to book yet."),
    gettext_noop("These dates cannot be booked. Please choose others."),
    gettext_noop("This booking could not be completed. Please try again."),
    gettext_noop("This stay is longer than the maximum we accept."),
    gettext_noop("This stay is shorter than the minimum for its arrival day."),
    gettext_noop("Too many booking attempts from your connection. Please try again in {minutes}, or contact us."),
    gettext_noop("Total"),
    gettext_noop("We could not reach the booking service. Check your connection and try again; nothing was booked."),
    gettext_noop("Your dates are held for {minutes} minutes while you pay."),
    gettext_noop("a night in between is already booked"),
    gettext_noop("already booked"),
    gettext_noop("held for you until {time} (see above)"),
    gettext_noop("on hold for another guest until {time}"),
    gettext_noop("available for check-in, {price} a night, minimum {nights}"),
    gettext_noop("before your check-in; clear the dates to start again"),
    gettext_noop("choose as check-out, {nights}"),
    gettext_noop("in the past"),
    gettext_noop("no arrival possible on this day (the minimum stay of {nights} does not fit, or arrivals are closed)"),
    gettext_noop("no departures on {weekday}s"),
    gettext_noop("not open for booking yet"),
    gettext_noop("not possible as check-out"),
    gettext_noop("stays from {date} last at least {nights}"),
    gettext_noop("stays last at most {nights}"),
    gettext_noop("unavailable: {reason}"),
    gettext_noop("your check-in"),
    gettext_noop("your check-in; press to clear"),
    gettext_noop("your check-out, {nights}"),
    gettext_noop("{nights}, night by night"),
    gettext_noop("{nights}, on average {price}"),
    gettext_noop("{n} night"),
    gettext_noop("{n} nights"),
    gettext_noop("{n} minute"),
    gettext_noop("{n} minutes"),
    gettext_noop("Age of child {n}"),
    gettext_noop("Choose"),
    gettext_noop("Choose each child's age to book: it decides the city tax."),
    gettext_noop("{amount} total"),
    gettext_noop("Pay now: {amount}. The balance of {balance} is charged to your card on {date}."),
    gettext_noop(
        "Refundable security deposit (card hold): {amount}, not part of the total. "
        "It is held on your card on {placed} and released by {released}; it is charged only for damage."
    ),
    gettext_noop("{taxed} of {guests} guests taxed"),
    gettext_noop("{taxed} of {guests} guests taxed: children under {age} pay no city tax"),
    gettext_noop("Code {code} applied: you save {amount}."),
    gettext_noop("Checking your code…"),
    gettext_noop("This code cannot be used: {reason}"),
    gettext_noop("Choose your dates: the code is applied to their price."),
    gettext_noop("Promo code"),
    gettext_noop("Early-bird discount"),
    gettext_noop("Last-minute discount"),
    gettext_noop("Gap-night discount"),
    gettext_noop("a gap between two stays is booked whole: check out on {date}"),
    gettext_noop("a gap between two stays, bookable whole at {price} a night"),
    gettext_noop("Please give your email for the reminder, or untick the box."),
]


def booking_text() -> dict[str, str]:
    """Only the phrases that read differently in the active language (none in English)."""
    return {phrase: translated for phrase in PHRASES if (translated := gettext(phrase)) != phrase}


# --- Words the booking page says before the script runs ----------------------------------------
# A shared /book link (or the way back from the payment page) carries the stay in its query string;
# the page says in words what it could not keep, instead of quietly dropping it.


def _day(value: date) -> str:
    return format_date(value, "D j M Y")


def explain_stay_link(query, *, max_guests: int, max_nights: int, booking_window_days: int) -> str:
    """Why the stay in a /book?check_in=…&check_out=… link cannot be booked, in the page's
    language; "" when there is no stay in the link or it can be booked."""
    raw_in, raw_out = query.get("check_in", "").strip(), query.get("check_out", "").strip()
    if not raw_in and not raw_out:
        return ""
    try:
        check_in, check_out = date.fromisoformat(raw_in[:10]), date.fromisoformat(raw_out[:10])
    except ValueError:
        return gettext("The dates in this link could not be read. Please choose your dates in the calendar.")
    if check_out <= check_in:
        return gettext("In this link the check-out (%(check_out)s) is not after the check-in (%(check_in)s). Please choose your dates again.") % {
            "check_in": _day(check_in),
            "check_out": _day(check_out),
        }
    if check_in < today():
        return gettext("The dates in this link (from %(check_in)s) are in the past. Please choose new dates.") % {"check_in": _day(check_in)}
    try:
        guests = int(query.get("guests", "2"))
    except ValueError:
        guests = 2
    guests = min(max(guests, 1), max_guests)
    nights = (check_out - check_in).days
    # Too long or too far ahead is said without pricing it: a link must not make the page price
    # a stay of thousands of nights.
    if nights > max_nights:
        verdict = Verdict(available=False, reason=Unavailable.MAX_STAY)
    elif check_in > today() + timedelta(days=booking_window_days):
        verdict = Verdict(available=False, reason=Unavailable.BEYOND_BOOKING_WINDOW)
    else:
        verdict = check_stay(check_in=check_in, check_out=check_out, guests=guests).verdict
    if verdict.available:
        return ""
    dates = {"check_in": _day(check_in), "check_out": _day(check_out)}
    if verdict.reason == Unavailable.MIN_STAY:
        minimum = verdict.min_nights or 1
        return ngettext(
            "Stays arriving on %(check_in)s last at least %(minimum)s night; this link asks for %(nights)s. Please choose a later check-out.",
            "Stays arriving on %(check_in)s last at least %(minimum)s nights; this link asks for %(nights)s. Please choose a later check-out.",
            minimum,
        ) % {**dates, "minimum": minimum, "nights": nights}
    if verdict.reason == Unavailable.MAX_STAY:
        return ngettext(
            "Stays last at most %(maximum)s night; this link asks for %(nights)s. Please choose shorter dates.",
            "Stays last at most %(maximum)s nights; this link asks for %(nights)s. Please choose shorter dates.",
            max_nights,
        ) % {"maximum": max_nights, "nights": nights}
    messages = {
        Unavailable.BOOKED: gettext("Some nights from %(check_in)s to %(check_out)s are already booked. Please choose other dates."),
        Unavailable.ON_HOLD: gettext(
            "Some nights from %(check_in)s to %(check_out)s are held by another guest who is paying right now. Please choose other dates, or try again later."
        ),
        Unavailable.CLOSED_TO_ARRIVAL: gettext("Arrivals are not possible on %(check_in)s. Please choose another check-in."),
        Unavailable.CLOSED_TO_DEPARTURE: gettext("Departures are not possible on %(check_out)s. Please choose another check-out."),
        Unavailable.BEYOND_BOOKING_WINDOW: gettext("The dates in this link (from %(check_in)s) are too far ahead to book yet."),
        Unavailable.TOO_MANY_GUESTS: gettext("At most %(guests)s guests can stay."),
    }
    message = messages.get(verdict.reason or "", gettext("The dates in this link (%(check_in)s to %(check_out)s) cannot be booked. Please choose others."))
    return message % {**dates, "guests": max_guests}


def cancelled_checkout(query) -> Reservation | None:
    """The unpaid stay a guest came back from the payment page without paying (the payment
    provider's cancel_url is /book?…&reservation_id=…); None for a paid or unknown one."""
    reservation_id = query.get("reservation_id", "").strip()
    try:  # get_reservation refuses what is not an id before any query (booking/ids.py)
        reservation = get_reservation(reservation_id)
    except NotFound:
        return None
    if reservation.status == Reservation.Status.CONFIRMED or reservation.amount_paid:
        return None
    return reservation
