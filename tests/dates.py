"""Dates for tests, in the property's time zone (settings.TIME_ZONE) as the service counts them.

The machine's `date.today()` is another day for an hour or two around midnight, so a stay "tomorrow"
could be "today" to the service; every test asks these instead."""

from datetime import date, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone


def today() -> date:
    return timezone.localdate()


def future(days: int) -> date:
    """A date `days` from today (negative: in the past), far enough ahead to be free of seasons'
    surprises in most tests."""
    return today() + timedelta(days=days)


def property_time_zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE)
