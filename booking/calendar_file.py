"""The guest's stay as an iCalendar file: one all-day event from check-in to check-out, for the
confirmation email's attachment and the manage page's "add to calendar" download."""

from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone
from icalendar import Calendar, Event

from booking.models import Reservation


def manage_url(reservation: Reservation) -> str:
    return f"{settings.BASE_URL}/manage/{reservation.manage_token}" if reservation.manage_token else ""


def stay_calendar(reservation: Reservation) -> bytes:
    """DTSTART;VALUE=DATE = check-in, DTEND;VALUE=DATE = check-out (all-day events end exclusive,
    like a stay), the address as LOCATION and the check-in window in the description."""
    prop = reservation.property
    calendar = Calendar()
    calendar.add("prodid", "-//Direct booking//Stay//EN")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    event = Event()
    event.add("uid", f"{reservation.pk}@{urlsplit(settings.BASE_URL).hostname or 'localhost'}")
    event.add("dtstamp", reservation.confirmed_at or timezone.now())
    event.add("dtstart", reservation.check_in)
    event.add("dtend", reservation.check_out)
    event.add("summary", f"Stay at {prop.name}")
    address = ", ".join(part for part in [prop.street_address, " ".join(p for p in [prop.postal_code, prop.city] if p), prop.country_code] if part)
    event.add("location", address)
    lines = [
        f"Check-in from {prop.check_in_from:%H:%M} to {prop.check_in_until:%H:%M}; check-out by {prop.check_out_until:%H:%M}.",
        f"{reservation.guests} guest{'s' if reservation.guests != 1 else ''}. Reservation {reservation.pk}.",
    ]
    if prop.contact_phone:
        lines.append(f"Host: {prop.host_name or prop.name}, {prop.contact_phone}.")
    if link := manage_url(reservation):
        lines.append(f"Your booking: {link}")
        event.add("url", link)
    event.add("description", "\n".join(lines))
    event.add("status", "CANCELLED" if reservation.status == Reservation.Status.CANCELLED else "CONFIRMED")
    event.add("transp", "TRANSPARENT")
    calendar.add_component(event)
    return calendar.to_ical()
