"""One lock per property around every change to its calendar.

PostgreSQL: `SELECT … FOR UPDATE` on the property row, taken as the first statement of the
transaction and held until commit. SQLite: every transaction starts with BEGIN IMMEDIATE
(settings.SQLITE_OPTIONS), which already serialises writers; the row lock is a no-op there.
Either way the availability check and the insert that follows it cannot interleave with another
writer's. On PostgreSQL an exclusion constraint on active reservations is the backstop.
"""

from django.db import DatabaseError, OperationalError, connection

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
    except DatabaseError:
        raise
