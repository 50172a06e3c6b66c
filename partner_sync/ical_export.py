"""The calendar we publish for the listing platforms to import (GET /api/v1/calendar.ics).

Pure: stays in, iCalendar bytes out. Each event carries only its dates, a stable UID and "Booked"
or "Blocked": no names, no reservation ids (an id is the only credential for a reservation).
"""

import hashlib
from dataclasses import dataclass
from datetime import date, datetime

from icalendar import Calendar, Event

PRODID = "-//Direct Booking//Calendar export 1.0//EN"


@dataclass(frozen=True)
class ExportedStay:
    uid: str
    start: date
    end: date  # exclusive, the check-out day
    summary: str


def fingerprint(stays: list[ExportedStay], description: str = "") -> str:
    """Changes exactly when an event's dates, UID or summary change, or the calendar's
    description (the CIN): the ETag of the export."""
    digest = hashlib.sha256(PRODID.encode() + (f"\n{description}".encode() if description else b""))
    for stay in sorted(stays, key=lambda s: (s.start, s.end, s.uid)):
        digest.update(f"\n{stay.uid}|{stay.start.isoformat()}|{stay.end.isoformat()}|{stay.summary}".encode())
    return digest.hexdigest()


def render_calendar(stays: list[ExportedStay], *, name: str, stamped_at: datetime, description: str = "") -> bytes:
    """A PUBLISH calendar of all-day events (VALUE=DATE, exclusive DTEND); `description` (the
    rental's CIN, which Italian law asks on every advertisement) goes in X-WR-CALDESC.

    DTSTAMP is when the calendar's content last changed, so the same content renders to the same
    bytes and a platform polling with If-None-Match gets its 304.
    """
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    if description:
        calendar.add("x-wr-caldesc", description)
    for stay in sorted(stays, key=lambda s: (s.start, s.end, s.uid)):
        event = Event()
        event.add("uid", stay.uid)
        event.add("dtstamp", stamped_at)
        event.add("dtstart", stay.start)
        event.add("dtend", stay.end)
        event.add("summary", stay.summary)
        event.add("transp", "OPAQUE")
        calendar.add_component(event)
    return calendar.to_ical()
