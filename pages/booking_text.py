"""The booking widget's words (static/js/booking.js) in the page's language.

The script writes English; it receives this table, English phrase → translation, in its
configuration and looks each phrase up. {name} marks a value the script fills in.
"""

from django.utils.translation import gettext, gettext_noop

PHRASES = [
    gettext_noop(" (incl. {amount} for extra guests)"),
    gettext_noop("Accommodation"),
    gettext_noop("Arrivals are not possible on this day."),
    gettext_noop("Book and pay"),
    gettext_noop("Calculating your price…"),
    gettext_noop("Charged in {currency}: {amount}."),
    gettext_noop("Check-in {date}. Now choose your check-out (at least {nights})."),
    gettext_noop("Check-out {date}: {nights}. Your price is shown under “Your stay”."),
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
    gettext_noop("The penthouse sleeps at most {guests} guests."),
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
]


def booking_text() -> dict[str, str]:
    """Only the phrases that read differently in the active language (none in English)."""
    return {phrase: translated for phrase in PHRASES if (translated := gettext(phrase)) != phrase}
