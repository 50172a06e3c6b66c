"""ARI out: nights marked when what can be sold or its price changes, sent to Channex coalesced.

Marking: booking.reservations.calendar_changes tells `mark` of every change, inside the transaction that made
it, and `mark` writes one ChannexDirtyNight row per night (nothing at all when the connection is
off). Two more sources are checked by the push itself: an edit of the rules (the property's
rules_version moved: every night's rates) and a hold that lapsed without a write (its nights).

Pushing (`push_pending`, every 6 s from the beat, and at once after a booking arrives): one
process at a time (a lease on the connection row), at most one POST /availability and one POST
/restrictions per 6 s and ten of each a minute; it reads the marked rows, sends the current value
of their nights, and deletes exactly the rows it read, so a night marked meanwhile is sent again.
A 429, a 5xx, a timeout or `meta.warnings` keeps the (warned) nights marked and backs off: 1
minute, doubling up to 30. After an hour of failures the owner is emailed (once a day).

A full sync (every night of the 500-day window) is queued when the connection is first made, when
the owner asks, and at most once a day at night (`nightly_full_sync`).
"""

import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from booking.catalog import pricing
from booking.catalog.rules import rules_for_version
from booking.catalog.selectors import get_property_version, today
from booking.reservations.models import Reservation
from booking.reservations.selectors import taken_ranges
from partner_sync import alerts
from partner_sync.channex import ari
from partner_sync.channex.client import ChannexError
from partner_sync.channex.connection import client_for, ensure_connection, is_on, mapping_of
from partner_sync.models import ChannexConnection, ChannexDirtyNight

logger = logging.getLogger("partner_sync.channex")

Kind = ChannexDirtyNight.Kind
MIN_SPACING = timedelta(seconds=6)
PER_MINUTE = 10
FIRST_BACKOFF = 60
LONGEST_BACKOFF = 30 * 60
ALERT_AFTER = timedelta(hours=1)
LEASE = timedelta(seconds=90)  # outlives two calls' timeouts; a crashed worker's lease lapses
NIGHTLY_AFTER = timedelta(hours=20)


# --- Marking ----------------------------------------------------------------------------------------


def mark(kind: str, property_id: int, start: date | None, end: date | None) -> None:
    """The booking.reservations.calendar_changes listener: mark [start, end) (None: the whole window) of `kind`
    ("availability" or "rates"), in the caller's transaction. Nothing when the connection is off."""
    if not is_on():
        return
    first, last = ari.window(today())
    start = max(start or first, first)
    end = min(end or last, last)
    if start >= end:
        return
    now = timezone.now()
    ChannexDirtyNight.objects.bulk_create([ChannexDirtyNight(kind=kind, night=start + timedelta(days=i), marked_at=now) for i in range((end - start).days)])


def queue_full_sync() -> None:
    """Every night of the window, both kinds: sent by the next pushes (the first connection, the
    owner's "send everything again", the nightly repair)."""
    connection = ensure_connection()
    if connection is None:
        return
    with transaction.atomic():
        first, last = ari.window(today())
        for kind in Kind.values:
            mark(kind, 0, first, last)
        ChannexConnection.objects.filter(pk=connection.pk).update(last_full_sync_at=timezone.now(), retry_at=None, backoff_seconds=0)


def nightly_full_sync() -> bool:
    """The nightly repair: a full sync unless one was queued in the last 20 hours."""
    connection = ensure_connection()
    if connection is None or (connection.last_full_sync_at and timezone.now() - connection.last_full_sync_at < NIGHTLY_AFTER):
        return False
    queue_full_sync()
    return True


def first_connection() -> ChannexConnection | None:
    """The connection row; the first time it exists, everything is queued (a full sync)."""
    connection = ensure_connection()
    if connection is not None and connection.last_full_sync_at is None:
        queue_full_sync()
        connection.refresh_from_db()
    return connection


# --- Pushing ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PushReport:
    availability_nights: int = 0
    restrictions_nights: int = 0
    error: str = ""
    skipped: str = ""  # why nothing was attempted: "off", "backing off", "busy", "nothing to send", …


def push_pending(*, now: datetime | None = None) -> PushReport:
    """Send the marked nights (the periodic job, every 6 s). Never raises."""
    try:
        return _push(now or timezone.now())
    except Exception:
        logger.exception("pushing ARI to Channex failed unexpectedly")
        return PushReport(error="internal error")


def _push(now: datetime) -> PushReport:
    connection = first_connection()
    if connection is None:
        return PushReport(skipped="off")
    mapping = mapping_of(connection)
    if not mapping.complete:
        _record(connection, now, error="Set the Channex property, room type and rate plan ids in the back office.", backoff=False)
        return PushReport(skipped="not configured")
    if connection.retry_at and now < connection.retry_at:
        return PushReport(skipped="backing off")
    if not _claim(connection, now):
        return PushReport(skipped="busy")
    try:
        return _push_claimed(connection, mapping, now)
    finally:
        ChannexConnection.objects.filter(pk=connection.pk).update(push_claimed_until=None)


def _push_claimed(connection: ChannexConnection, mapping, now: datetime) -> PushReport:
    _mark_what_changed_without_a_write(connection, now)
    connection.refresh_from_db()
    send_availability = _may_call(connection.availability_calls, now)
    send_restrictions = _may_call(connection.restrictions_calls, now)
    report_parts: dict[str, int] = {}
    errors: list[str] = []
    client = client_for(connection)
    for kind, allowed in ((Kind.AVAILABILITY, send_availability), (Kind.RATES, send_restrictions)):
        if allowed:
            sent, error = _send(kind, connection, mapping, client, now)
            if sent is not None:
                report_parts[kind] = sent
            if error:
                errors.append(error)
    if errors:
        _record(connection, now, error="; ".join(errors), backoff=True)
    elif report_parts:
        _record(connection, now, error="", backoff=False, pushed=True)
    return PushReport(
        availability_nights=report_parts.get(Kind.AVAILABILITY, 0),
        restrictions_nights=report_parts.get(Kind.RATES, 0),
        error="; ".join(errors),
        skipped="" if report_parts or errors else "nothing to send",
    )


def _send(kind: str, connection: ChannexConnection, mapping, client, now: datetime) -> tuple[int | None, str]:
    """One call for the marked nights of `kind`: (nights accepted or None when none were marked, error)."""
    first, last = ari.window(today())
    rows = list(ChannexDirtyNight.objects.filter(kind=kind).values_list("pk", "night"))
    outside = [pk for pk, night in rows if not first <= night < last]
    rows = [(pk, night) for pk, night in rows if first <= night < last]
    if outside:
        ChannexDirtyNight.objects.filter(pk__in=outside).delete()  # past, or beyond the window: nothing to send
    if not rows:
        return None, ""
    nights = sorted({night for _, night in rows})
    values = _values(kind, nights, connection, mapping)
    _note_call(connection, kind, now)
    try:
        answer = client.post_availability(values) if kind == Kind.AVAILABILITY else client.post_restrictions(values)
    except ChannexError as error:
        return 0, f"{_label(kind)}: {error}"
    warnings = (answer.get("meta") or {}).get("warnings") or []
    warned = ari.warned_nights(warnings, nights) if warnings else set()
    data = answer.get("data")
    task = data[0].get("id") if isinstance(data, list) and data and isinstance(data[0], dict) else None
    logger.info("Channex %s: %d night(s) sent%s", kind, len(nights), f" (task {task})" if task else "")
    ChannexDirtyNight.objects.filter(pk__in=[pk for pk, night in rows if night not in warned]).delete()
    if warned:
        logger.warning("Channex warnings on %s: %s", kind, warnings)
        return len(nights) - len(warned), f"{_label(kind)}: Channex refused {len(warned)} night(s), e.g. {_first_warning(warnings)}"
    return len(nights), ""


def _values(kind: str, nights: list[date], connection: ChannexConnection, mapping) -> list[dict]:
    property_id, version = get_property_version()
    if kind == Kind.AVAILABILITY:
        end = nights[-1] + timedelta(days=1)
        taken = pricing.taken_nights_from_ranges(taken_ranges(property_id, nights[0], end), nights[0], end)
        return ari.availability_values(nights, taken, property_id=mapping.property_id, room_type_id=mapping.room_type_id)
    rules = rules_for_version(property_id, version)
    markup = Decimal(connection.channel_rate_markup_percent or 0)
    return ari.restrictions_values(nights, rules, markup_percent=markup, today=today(), property_id=mapping.property_id, rate_plan_id=mapping.rate_plan_id)


def _mark_what_changed_without_a_write(connection: ChannexConnection, now: datetime) -> None:
    """Rules edited by bulk writes (the rate calendar) and holds that simply lapsed leave no row
    behind: the rules' version and the lapse instants are checked here."""
    property_id, version = get_property_version()
    since = connection.holds_checked_until or now - timedelta(hours=1)
    lapsed = Reservation.objects.filter(status=Reservation.Status.HELD, hold_expires_at__gt=since, hold_expires_at__lte=now).values_list(
        "check_in", "check_out"
    )
    with transaction.atomic():
        if connection.rules_version_pushed != version:
            mark(Kind.RATES, property_id, None, None)
        for check_in, check_out in lapsed:
            mark(Kind.AVAILABILITY, property_id, check_in, check_out)
        ChannexConnection.objects.filter(pk=connection.pk).update(rules_version_pushed=version, holds_checked_until=now)


def _claim(connection: ChannexConnection, now: datetime) -> bool:
    with transaction.atomic():
        return (
            ChannexConnection.objects.filter(Q(push_claimed_until__isnull=True) | Q(push_claimed_until__lt=now), pk=connection.pk).update(
                push_claimed_until=now + LEASE
            )
            == 1
        )


def _may_call(calls: list[str], now: datetime) -> bool:
    recent = [moment for moment in (parse_datetime(c) for c in calls or []) if moment and now - moment < timedelta(minutes=1)]
    return len(recent) < PER_MINUTE and all(now - moment >= MIN_SPACING for moment in recent)


def _note_call(connection: ChannexConnection, kind: str, now: datetime) -> None:
    name = "availability_calls" if kind == Kind.AVAILABILITY else "restrictions_calls"
    calls = [c for c in getattr(connection, name) or [] if (moment := parse_datetime(c)) and now - moment < timedelta(minutes=1)]
    calls.append(now.isoformat())
    setattr(connection, name, calls[-PER_MINUTE:])
    ChannexConnection.objects.filter(pk=connection.pk).update(**{name: calls[-PER_MINUTE:]})


def _record(connection: ChannexConnection, now: datetime, *, error: str, backoff: bool, pushed: bool = False) -> None:
    if not error:
        ChannexConnection.objects.filter(pk=connection.pk).update(
            last_push_at=now if pushed else connection.last_push_at, last_error="", failing_since=None, retry_at=None, backoff_seconds=0
        )
        return
    changes: dict = {"last_error": error[:300], "last_error_at": now}
    failing_since = connection.failing_since or now
    if backoff:
        seconds = min(LONGEST_BACKOFF, connection.backoff_seconds * 2) if connection.backoff_seconds else FIRST_BACKOFF
        changes.update(backoff_seconds=seconds, retry_at=now + timedelta(seconds=seconds), failing_since=failing_since)
        logger.warning("Channex push failed (%s); next attempt in %d s", error, seconds)
    ChannexConnection.objects.filter(pk=connection.pk).update(**changes)
    if backoff and now - failing_since >= ALERT_AFTER:
        alerts.alert_channex_failing(since=failing_since, error=error, now=now)


def _label(kind: str) -> str:
    return "availability" if kind == Kind.AVAILABILITY else "restrictions"


def _first_warning(warnings: list) -> str:
    first = warnings[0] if warnings else {}
    return str(first.get("warning") if isinstance(first, dict) else first)[:120]


def pending_nights() -> int:
    return ChannexDirtyNight.objects.values("kind", "night").distinct().count()
