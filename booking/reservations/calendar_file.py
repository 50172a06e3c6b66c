"""The guest's stay as an iCalendar file: one all-day event from check-in to check-out, for the
confirmation email's attachment and the manage page's "add to calendar" download. Written in the
active language (the email's is the guest's, the page's its path's), its link to the manage page
in that language too (/it/manage/…)."""

from urllib.parse import urlsplit

from babel import Locale
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from icalendar import Calendar, Event

from booking.formatting import LOCALES, active_language, site_path
from booking.reservations.models import Reservation

DATES_CHANGED_ACTION = "change_dates"  # the audit action of a date change (services/date_changes.py)


def manage_url(reservation: Reservation) -> str:
    return f"{settings.BASE_URL}{site_path('/manage/' + reservation.manage_token)}" if reservation.manage_token else ""


def stay_calendar(reservation: Reservation) -> bytes:
    """DTSTART;VALUE=DATE = check-in, DTEND;VALUE=DATE = check-out (all-day events end exclusive,
    like a stay), the address as LOCATION and the check-in window in the description."""
    prop = reservation.property
    language = active_language()
    words = {"language": language}  # LANGUAGE= on the texts, so calendar apps know what they read
    calendar = Calendar()
    calendar.add("prodid", f"-//Direct booking//Stay//{language.upper()}")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    event = Event()
    event.add("uid", f"{reservation.pk}@{urlsplit(settings.BASE_URL).hostname or 'localhost'}")
    # Each date change (services/date_changes.py) is a new version of the same event: the same UID,
    # a higher SEQUENCE and the change's time as DTSTAMP, so calendar apps replace the old dates.
    changes = list(reservation.events.filter(action=DATES_CHANGED_ACTION).values_list("at", flat=True)) if reservation.pk else []
    event.add("dtstamp", changes[-1] if changes else reservation.confirmed_at or timezone.now())
    if changes:
        event.add("sequence", len(changes))
    event.add("dtstart", reservation.check_in)
    event.add("dtend", reservation.check_out)
    event.add("summary", gettext("Stay at %(name)s") % {"name": prop.name}, parameters=words)
    country = Locale.parse(LOCALES[language]).territories.get(prop.country_code.upper(), prop.country_code) if prop.country_code else ""
    address = ", ".join(part for part in [prop.street_address, " ".join(p for p in [prop.postal_code, prop.city] if p), country] if part)
    event.add("location", address)
    times = {"start": f"{prop.check_in_from:%H:%M}", "end": f"{prop.check_in_until:%H:%M}", "checkout": f"{prop.check_out_until:%H:%M}"}
    lines = [
        gettext("Check-in from %(start)s to %(end)s; check-out by %(checkout)s.") % times,
        ngettext("%(count)s guest. Reservation %(reservation)s.", "%(count)s guests. Reservation %(reservation)s.", reservation.guests)
        % {"count": reservation.guests, "reservation": reservation.reference},
    ]
    if prop.contact_phone:
        lines.append(gettext("Host: %(host)s, %(phone)s.") % {"host": prop.host_name or prop.name, "phone": prop.contact_phone})
    if link := manage_url(reservation):
        lines.append(gettext("Your booking: %(link)s") % {"link": link})
        event.add("url", link)
    event.add("description", "\n".join(lines), parameters=words)
    event.add("status", "CANCELLED" if reservation.status == Reservation.Status.CANCELLED else "CONFIRMED")
    event.add("transp", "TRANSPARENT")
    calendar.add_component(event)
    return calendar.to_ical()
