"""One lock per property around every change to its calendar.

PostgreSQL: `SELECT … FOR UPDATE` on the property row, taken as the first statement of the
transaction and held until commit; waiters queue in the database. SQLite: every transaction starts
with BEGIN IMMEDIATE (settings.SQLITE_OPTIONS), which already serialises writers — but a writer that
finds the database busy polls with growing sleeps (up to 100 ms), so under a burst some requests
starve. An exclusive flock on a file beside the database, taken before BEGIN, makes waiters sleep in
the kernel and wake the moment the lock is released. Either way the availability check and the
insert that follows it cannot interleave with another writer's. On PostgreSQL an exclusion
constraint on active reservations is the backstop.
"""

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import OperationalError, connection, transaction

from booking.catalog.models import Property
from booking.catalog.selectors import hot_query
from booking.errors import NotFound, ServiceUnavailable
from booking.ids import is_reservation_id
from booking.reservations.models import Reservation


def lock_property(property_id: int) -> Property:
    """Lock the property row for the rest of the current transaction and return it fresh."""
    if not connection.in_atomic_block:
        raise RuntimeError("lock_property() must run inside transaction.atomic()")
    try:
        return Property.objects.select_for_update().get(pk=property_id)
    except OperationalError as error:  # lock wait timeout, database locked
        raise ServiceUnavailable("The calendar is busy; try again in a moment.") from error


def lock_calendar(property_id: int) -> int:
    """lock_property() reading one column: the property's rules version (booking/catalog/rules.py keeps the
    rules built per version). The hold path's lock, where building the whole row would be most of
    what a refused hold costs."""
    if not connection.in_atomic_block:
        raise RuntimeError("lock_calendar() must run inside transaction.atomic()")
    sql = LOCK_CALENDAR_SQL + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    try:
        rows = hot_query(sql, [property_id])
    except OperationalError as error:  # lock wait timeout, database locked
        raise ServiceUnavailable("The calendar is busy; try again in a moment.") from error
    if not rows:
        raise NotFound("No property is configured yet: run `manage.py load_demo` or add one in the admin.")
    version: int = rows[0][0]
    return version


LOCK_CALENDAR_SQL = f"SELECT rules_version FROM {Property._meta.db_table} WHERE id = %s"


@contextmanager
def sqlite_writer_queue() -> Iterator[None]:
    """On SQLite, queue writers on a kernel file lock (see the module docstring); elsewhere nothing."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    name = str(connection.settings_dict["NAME"])
    if name == ":memory:" or name.startswith("file:"):
        yield
        return
    fd = os.open(name + ".writer-lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


@contextmanager
def calendar_transaction(property_id: int) -> Iterator[Property]:
    """A transaction holding the property's calendar lock; yields the freshly read property."""
    with sqlite_writer_queue(), transaction.atomic():
        yield lock_property(property_id)


@contextmanager
def calendar_lock(property_id: int) -> Iterator[int]:
    """calendar_transaction() yielding the property's rules version rather than the property."""
    with sqlite_writer_queue(), transaction.atomic():
        yield lock_calendar(property_id)


@contextmanager
def writer_transaction() -> Iterator[None]:
    """A transaction that writes: on SQLite it waits its turn in the writer queue first (see the
    module docstring). Every write path that locks rows starts here or in calendar_transaction."""
    with sqlite_writer_queue(), transaction.atomic():
        yield


def lock_reservation(reservation_id: str) -> Reservation:
    """Inside a writer transaction: lock the reservation's property (the calendar lock every change
    to a stay takes), then re-read the reservation for update."""
    if not connection.in_atomic_block:
        raise RuntimeError("lock_reservation() must run inside a writer transaction")
    if not is_reservation_id(reservation_id):  # not one we issued: no query (booking/ids.py)
        raise NotFound("No reservation with this id.")
    property_id = Reservation.objects.filter(pk=reservation_id).values_list("property_id", flat=True).first()
    if property_id is None:
        raise NotFound(f"No reservation with id {reservation_id!r}.")
    lock_property(property_id)
    return Reservation.objects.select_related("property").select_for_update().get(pk=reservation_id)


@contextmanager
def reservation_transaction(reservation_id: str) -> Iterator[Reservation]:
    """A writer transaction holding the calendar lock of the reservation's property, yielding the
    reservation re-read inside it: the one way services change a reservation."""
    with writer_transaction():
        yield lock_reservation(reservation_id)
