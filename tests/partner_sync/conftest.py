"""Fixtures for the partner sync: real-format platform exports served by a local HTTP server."""

import re
from datetime import date
from pathlib import Path

import pytest

from tests.dates import future
from tests.partner_sync.feed_server import FeedServer

FEEDS = Path(__file__).parent / "feeds"


def day(offset: int) -> date:
    """A date relative to today in the property's time zone (the sync's notion of today)."""
    return future(offset)


def export(name: str) -> bytes:
    """A platform export from tests/partner_sync/feeds, its {{+N}} placeholders turned into the
    date N days from today (YYYYMMDD), so the fixtures stay in the future."""
    text = (FEEDS / name).read_bytes().decode()
    return re.sub(r"\{\{([+-]\d+)\}\}", lambda m: day(int(m.group(1))).strftime("%Y%m%d"), text).encode()


def calendar(*events: str, line_end: str = "\r\n") -> bytes:
    """A minimal calendar around VEVENT bodies written as lines joined by newlines."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN"]
    for event in events:
        lines += ["BEGIN:VEVENT", *event.strip().splitlines(), "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return (line_end.join(lines) + line_end).encode()


def all_day(uid: str, start: int, end: int, summary: str = "Reserved") -> str:
    return f"UID:{uid}\nDTSTART;VALUE=DATE:{day(start):%Y%m%d}\nDTEND;VALUE=DATE:{day(end):%Y%m%d}\nSUMMARY:{summary}"


@pytest.fixture
def feed_server():
    with FeedServer() as server:
        yield server


def stay_booked_before_the_platform_booked(check_in, check_out, guests: int = 2):
    """A direct stay confirmed before the platform's booking of the same nights reached its feed
    (the way a conflict arises): held without the feed refresh every hold does first, which would
    see the platform's booking and refuse."""
    from booking.reservations.models import Reservation
    from booking.reservations.services import holds

    saved = holds._before_hold[:]
    holds._before_hold.clear()
    try:
        stay = holds.hold_stay(check_in=check_in, check_out=check_out, guests=guests)
    finally:
        holds._before_hold[:] = saved
    Reservation.objects.filter(pk=stay.pk).update(status=Reservation.Status.CONFIRMED)
    return stay


# The channel manager's tests: the local Channex-compatible server, connected (channex_fixtures.py).
from tests.partner_sync.channex_fixtures import channex, current_backstop, synced  # noqa: E402, F401
