"""Reading a listing platform's iCal export into blocked stays. Pure: bytes in, PartnerEvents out.

What real exports look like (and what this tolerates):
- Airbnb: all-day events (`DTSTART;VALUE=DATE`, exclusive `DTEND`), SUMMARY "Reserved" or
  "Airbnb (Not available)", a DESCRIPTION folded over several lines with the reservation URL and the
  guest's phone digits.
- Booking.com: a backslash-escaped PRODID, "CLOSED - Not available", sometimes LF line endings.
- Others (Vrbo, channel managers): DATE-TIME events with a TZID, UTC or floating times.

Nothing from a feed but dates and the UID is kept: summaries are reduced to a neutral label and
descriptions are never read, because they carry reservation codes and guests' phone numbers.
"""

import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from icalendar import Calendar

from booking.reservations.services.blocks import PartnerEvent

# DateBlock.external_uid holds 500 characters; longer UIDs are replaced by a digest.
MAX_UID_LENGTH = 255
NOT_AVAILABLE = re.compile(r"not available|unavailable|blocked|closed", re.IGNORECASE)


class FeedInvalid(Exception):
    """The body is not a usable calendar. The message is safe to show: it quotes no feed content."""


@dataclass(frozen=True)
class ImportedFeed:
    events: list[PartnerEvent]  # current and future stays, sorted by start
    ignored_past: int
    ignored_cancelled: int
    ignored_own: int = 0


def parse_feed(body: bytes, *, today: date, local_tz: tzinfo, label: str, own_host: str = "") -> ImportedFeed:
    """The stays a feed blocks from `today` on, in the property's local dates.

    `label` (the feed's name) prefixes the neutral summary stored on each block, e.g.
    "Airbnb: Reserved". Events with the UIDs of our own export (stay-…@own_host, block-…@own_host)
    are our stays that a platform or channel manager echoes back: importing them would make every direct stay
    block itself (and outlive a lapsed hold). Raises FeedInvalid for anything that is not a complete iCalendar document,
    and for an event whose dates cannot be read: skipping it would free nights that a real booking
    takes, so the whole fetch fails and the last good blocks stay.
    """
    text = _check_is_calendar(body)
    try:
        calendars = Calendar.from_ical(text, multiple=True)
    except Exception as error:  # the parser raises ValueError, IndexError, … on malformed input
        raise FeedInvalid(f"The calendar could not be parsed ({type(error).__name__}).") from error
    calendars = [c for c in calendars if c.name == "VCALENDAR"]
    if not calendars:
        raise FeedInvalid("The file holds no VCALENDAR.")

    stays: list[tuple[str, date, date, str]] = []
    ignored_past = ignored_cancelled = ignored_own = 0
    own_uid = re.compile(rf"^(stay|block)-[0-9a-z]+@{re.escape(own_host)}$", re.IGNORECASE) if own_host else None
    position = 0
    for calendar in calendars:
        for event in calendar.walk("VEVENT"):
            position += 1
            if str(event.get("STATUS", "")).strip().upper() == "CANCELLED":
                ignored_cancelled += 1
                continue
            start, end = _local_nights(event, position, local_tz)
            if end <= today:  # ended: no night from today on is taken
                ignored_past += 1
                continue
            uid = str(event.get("UID", "")).strip()
            if own_uid and own_uid.match(uid):
                ignored_own += 1
                continue
            stays.append((uid, start, end, f"{label}: {neutral_summary(str(event.get('SUMMARY', '')))}"))

    return ImportedFeed(_keyed_events(stays), ignored_past, ignored_cancelled, ignored_own)


def neutral_summary(summary: str) -> str:
    """ "Reserved" or "Not available": a platform's summary may carry a guest's name."""
    return "Not available" if NOT_AVAILABLE.search(summary) else "Reserved"


def _check_is_calendar(body: bytes) -> str:
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = body.decode("latin-1")  # older exporters; every byte decodes, the parser judges the rest
    stripped = text.strip()
    if stripped[:1] == "<":
        raise FeedInvalid("Not a calendar: the server sent an HTML or XML page.")
    if not stripped.upper().startswith("BEGIN:VCALENDAR"):
        raise FeedInvalid("Not a calendar: the file does not start with BEGIN:VCALENDAR.")
    # A download cut short would silently drop the events after the cut (and free their nights).
    if not stripped.upper().endswith("END:VCALENDAR"):
        raise FeedInvalid("The calendar is incomplete: it does not end with END:VCALENDAR.")
    return text


def _local_nights(event, position: int, local_tz: tzinfo) -> tuple[date, date]:
    """The half-open range of nights [start, end) an event takes, as dates in the property's zone.

    All-day events use their dates (DTEND is exclusive; without DTEND or DURATION, one night).
    Timed events take the local dates of their start and end instants (a stay from 15:00 on the
    10th to 10:00 on the 12th is the nights of the 10th and 11th); floating times and unknown zones
    are read as local time. An event that ends on the day it starts still takes that night.
    """
    try:
        start_value = event.start
    except Exception as error:  # IncompleteComponent, BrokenCalendarProperty, InvalidCalendar
        raise FeedInvalid(f"Event {position} has no readable DTSTART.") from error
    try:
        end_value = event.end
    except Exception as error:
        raise FeedInvalid(f"Event {position} has an unreadable DTEND or DURATION.") from error
    start = _local_date(start_value, local_tz)
    end = _local_date(end_value, local_tz)
    return start, max(end, start + timedelta(days=1))


def _local_date(value: date | datetime, local_tz: tzinfo) -> date:
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(local_tz)
        return value.date()
    return value


def _keyed_events(stays: list[tuple[str, date, date, str]]) -> list[PartnerEvent]:
    """Blocks are keyed by UID so that a moved booking moves its block. Events without a UID get a
    key from their dates (stable across fetches); a UID repeated with other dates (recurrence
    overrides, sloppy exporters) keeps each occurrence apart by adding its dates."""
    ranges_by_uid: dict[str, set[tuple[date, date]]] = defaultdict(set)
    for uid, start, end, _ in stays:
        ranges_by_uid[uid].add((start, end))
    events: dict[str, PartnerEvent] = {}
    for uid, start, end, summary in stays:
        if not uid:
            key = f"no-uid:{start.isoformat()}:{end.isoformat()}"
        elif len(ranges_by_uid[uid]) > 1:
            key = f"{uid}#{start.isoformat()}:{end.isoformat()}"
        else:
            key = uid
        if len(key) > MAX_UID_LENGTH:
            key = "sha256:" + hashlib.sha256(key.encode()).hexdigest()
        events.setdefault(key, PartnerEvent(uid=key, start=start, end=end, summary=summary))
    return sorted(events.values(), key=lambda e: (e.start, e.end, e.uid))
