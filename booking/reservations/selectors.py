"""Reads of the calendar: which nights are taken, and by what."""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.models import Case, DateTimeField, F, Q, Subquery, Value, When
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from booking.catalog import accepted_terms, pricing
from booking.catalog.models import Property
from booking.catalog.selectors import PROPERTY_VERSION_SQL, cancellation_tiers, hot_query
from booking.errors import NotFound
from booking.reservations.models import DateBlock, Reservation


def accepted_tiers(reservation: Reservation) -> tuple[pricing.RefundTier, ...]:
    """The tiers the guest accepted when booking (copied onto the reservation at hold time)."""
    if reservation.accepted_terms:
        return accepted_terms.tiers(reservation.accepted_terms)
    return cancellation_tiers(reservation.property)  # a reservation written without the copy (raw data)


# What takes a night: the one definition. The ORM selectors below filter by it, and the hot reads'
# SQL is compiled from these same querysets (derived_sql), so no second copy can drift.
BLOCKING_STATUSES = (Reservation.Status.CONFIRMED, Reservation.Status.HELD)


def blocking_reservations(prop: Property | int, start: date, end: date, now=None):
    """Reservations taking any night in [start, end): confirmed, or held and not yet expired.

    A hold past hold_expires_at never blocks, whether or not the expiry job has run. The
    `status IN (confirmed, held)` term repeats what the OR says so that the partial index
    `reservation_taken` (only those rows, by property and check-out) can be used.
    """
    now = now or timezone.now()
    return Reservation.objects.filter(
        Q(status=Reservation.Status.CONFIRMED) | Q(status=Reservation.Status.HELD, hold_expires_at__gt=now),
        property=prop,
        status__in=BLOCKING_STATUSES,
        check_in__lt=end,
        check_out__gt=start,
    )


def blocks_between(prop: Property | int, start: date, end: date):
    return DateBlock.objects.filter(property=prop, start__lt=end, end__gt=start)


def live_holds(reservation_ids, now=None) -> list[Reservation]:
    """Of these reservations, the unpaid holds still taking their dates (a released, paid or lapsed
    one is left out), earliest stay first: the holds a browser made (booking/api/own_holds.py)."""
    if not reservation_ids:
        return []
    now = now or timezone.now()
    return list(Reservation.objects.filter(pk__in=list(reservation_ids), status=Reservation.Status.HELD, hold_expires_at__gt=now).order_by("check_in"))


def _taken_ranges_queryset(prop, start: date, end: date, now):
    """blocking_reservations() and blocks_between() as one list of (first night, end, held until):
    the third column is when an unpaid hold lapses (NULL for stays and blocks that stay put), so an
    agent can be told the nights may free up (`on_hold`, `held_until`)."""
    held_until = Case(When(status=Reservation.Status.HELD, then=F("hold_expires_at")), output_field=DateTimeField())
    stays = blocking_reservations(prop, start, end, now).order_by().annotate(taken_from=F("check_in"), taken_until=F("check_out"), held_until=held_until)
    blocks = blocks_between(prop, start, end).order_by().annotate(taken_from=F("start"), taken_until=F("end"), held_until=Value(None, DateTimeField()))
    columns = ("taken_from", "taken_until", "held_until")
    return stays.values_list(*columns).union(blocks.values_list(*columns), all=True)


def _first_property_id():
    return Subquery(Property.objects.order_by("pk").values("pk")[:1])


@dataclass(frozen=True)
class DerivedSQL:
    """A queryset's SQL compiled once per process, with its inputs as named placeholders."""

    sql: str
    inputs: tuple[str, ...]  # the name of each %s, in order

    def params(self, **values) -> list:
        return [values[name] for name in self.inputs]


# Stand-ins compiled in place of the real inputs, told apart by value (no real stay is in 1900).
_PROPERTY, _START, _END, _NOW = 2_000_000_011, date(1900, 1, 2), date(1900, 1, 3), datetime(1900, 1, 4, tzinfo=UTC)


def derived_sql(queryset, wrap: str = "{}") -> DerivedSQL:
    """The SQL Django compiles for `queryset` (built with the stand-ins above), with each stand-in a named
    placeholder and every other value (the statuses) written into the SQL as a literal: a partial
    index's predicate is matched against literals only (SQLite, and PostgreSQL's generic plans of
    prepared statements)."""
    sql, compiled_params = queryset.query.sql_with_params()
    ops = connection.ops
    names = {
        _PROPERTY: "property",
        ops.adapt_datefield_value(_START): "start",
        ops.adapt_datefield_value(_END): "end",
        ops.adapt_datetimefield_value(_NOW): "now",
    }
    pieces = sql.split("%s")
    if len(pieces) != len(compiled_params) + 1:
        raise ImproperlyConfigured(f"cannot derive the hot SQL from {sql!r}")
    written, inputs = [pieces[0]], []
    for value, piece in zip(compiled_params, pieces[1:], strict=True):
        name = names.get(value) if not isinstance(value, bool) else None
        if name is not None:
            written.append("%s")
            inputs.append(name)
        elif isinstance(value, str) and re.fullmatch(r"[a-z_]+", value):
            written.append(f"'{value}'")
        else:
            raise ImproperlyConfigured(f"unexpected value {value!r} in the hot SQL")
        written.append(piece)
    return DerivedSQL(wrap.format("".join(written)), tuple(inputs))


_derived: dict[str, DerivedSQL] = {}


def taken_ranges_sql() -> DerivedSQL:
    """The hottest query of the service (availability, quote, calendar, every hold), compiled from
    _taken_ranges_queryset() once per process: one round trip, no ORM compilation per call."""
    key = f"taken:{connection.vendor}"
    if key not in _derived:
        _derived[key] = derived_sql(_taken_ranges_queryset(_PROPERTY, _START, _END, _NOW))
    return _derived[key]


# The ranges of a window as one text, "first last[ held_until];…": one value to fetch and to key a
# remembered answer by, however many stays and blocks the window holds (a row each would be
# converted to dates on every read, a cost that grows with the calendar). PostgreSQL joins them in
# date order; SQLite in the order its plan reads them (asking it to sort makes it read the blocks
# by their start, all of the past included): the same rows the same way as long as nothing
# changes, which is all a key needs. ranges_from_text() sorts.
_TEXT_OF_RANGES = {
    "sqlite": "SELECT GROUP_CONCAT(t.taken_from || ' ' || t.taken_until || COALESCE(' ' || t.held_until, ''), ';') FROM ({}) t",
    "postgresql": "SELECT STRING_AGG(t.taken_from || ' ' || t.taken_until || COALESCE(' ' || t.held_until, ''), ';'"
    " ORDER BY t.taken_from, t.taken_until, t.held_until) FROM ({}) t",
}


def version_and_taken_ranges_sql() -> DerivedSQL:
    """The property's version and the text of the taken ranges of a window in one round trip (one
    row): availability, quote and calendar need both, and on PostgreSQL each round trip costs more
    than the rest of the read. The ranges are those of the first property (the one get_property()
    sells), filtered on it so the indexes lead with the property; NULL when nothing is taken."""
    key = f"version:{connection.vendor}"
    if key not in _derived:
        taken = _taken_ranges_queryset(_first_property_id(), _START, _END, _NOW)
        text = _TEXT_OF_RANGES[connection.vendor]  # its {} is where the ranges' SQL goes
        _derived[key] = derived_sql(taken, f"SELECT p.id, p.rules_version, ({text}) FROM ({PROPERTY_VERSION_SQL}) p")
    return _derived[key]


def taken_ranges(prop: Property | int, start: date, end: date, now=None) -> list[tuple[date, date]]:
    """Half-open [start, end) ranges of every stay or block overlapping [start, end). One query."""
    return [(first, last) for first, last, _ in taken_ranges_and_holds(prop, start, end, now)]


def _inputs(start: date, end: date, now=None, property_id: int | None = None) -> dict:
    ops = connection.ops
    return {
        "property": property_id,
        "start": ops.adapt_datefield_value(start),
        "end": ops.adapt_datefield_value(end),
        "now": ops.adapt_datetimefield_value(now or timezone.now()),
    }


def taken_ranges_and_holds(prop: Property | int, start: date, end: date, now=None) -> list[tuple[date, date, datetime | None]]:
    """taken_ranges, each with the instant its unpaid hold lapses (None: a stay or block). One query."""
    query = taken_ranges_sql()
    property_id = prop if isinstance(prop, int) else prop.pk
    rows = hot_query(query.sql, query.params(**_inputs(start, end, now, property_id)))
    return [(_as_date(first), _as_date(last), _as_instant(held_until)) for first, last, held_until in rows]


def version_and_taken_text(start: date, end: date) -> tuple[int, int, str | None]:
    """The property's (pk, rules_version) and the taken ranges of [start, end) as one text (None:
    none), to key a remembered answer by; ranges_from_text() reads it. One query."""
    query = version_and_taken_ranges_sql()
    rows = hot_query(query.sql, query.params(**_inputs(start, end)))
    if not rows:
        raise NotFound("No property is configured yet: run `manage.py load_demo` or add one in the admin.")
    return rows[0]


def version_and_taken_ranges(start: date, end: date) -> tuple[int, int, list[tuple[date, date, datetime | None]]]:
    """get_property_version() and taken_ranges_and_holds() of [start, end) together, in date order. One query."""
    property_id, version, text = version_and_taken_text(start, end)
    return property_id, version, list(ranges_from_text(text))


def ranges_from_text(text: str | None) -> tuple[tuple[date, date, datetime | None], ...]:
    """The ranges of version_and_taken_text(), in date order. Read only when a stay check or a
    calendar is worked out (services/stays.py remembers those), so it is not remembered itself."""
    ranges = []
    for item in text.split(";") if text else ():
        first, last, *held_until = item.split(" ", 2)
        ranges.append((date.fromisoformat(first), date.fromisoformat(last), _as_instant(held_until[0]) if held_until else None))
    return tuple(sorted(ranges, key=lambda taken: (taken[0], taken[1])))


def _as_instant(value) -> datetime | None:
    """SQLite hands back the stored text (UTC, naive); PostgreSQL an aware datetime."""
    if value is None or isinstance(value, datetime):
        return value if value is None or timezone.is_aware(value) else timezone.make_aware(value, UTC)
    parsed = parse_datetime(value)
    return timezone.make_aware(parsed, UTC) if parsed is not None and timezone.is_naive(parsed) else parsed


def _as_date(value) -> date:
    return date.fromisoformat(value) if isinstance(value, str) else value
