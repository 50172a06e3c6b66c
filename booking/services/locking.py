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
from contextlib import contextmanager

from django.db import OperationalError, connection, transaction

from booking.errors import ServiceUnavailable
from booking.models import Property


def lock_property(property_id: int) -> Property:
    """Lock the property row for the rest of the current transaction and return it fresh."""
    if not connection.in_atomic_block:
        raise RuntimeError("lock_property() must run inside transaction.atomic()")
    try:
        return Property.objects.select_for_update().get(pk=property_id)
    except OperationalError as error:  # lock wait timeout, database locked
        raise ServiceUnavailable("The calendar is busy; try again in a moment.") from error


@contextmanager
def sqlite_writer_queue():
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
def calendar_transaction(property_id: int):
    """A transaction holding the property's calendar lock; yields the freshly read property."""
    with sqlite_writer_queue(), transaction.atomic():
        yield lock_property(property_id)
