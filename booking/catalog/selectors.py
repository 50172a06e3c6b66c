"""Reads of the property being sold and of its rules."""

from datetime import date, datetime

from django.db import connection
from django.utils import timezone

from booking.catalog import pricing
from booking.catalog.models import Property
from booking.catalog.rules import rules_for
from booking.errors import NotFound


def get_property() -> Property:
    """The property this service sells (the first one; the schema allows more)."""
    prop = Property.objects.order_by("pk").first()
    if prop is None:
        raise NotFound("No property is configured yet: run `manage.py load_demo` or add one in the admin.")
    return prop


def get_property_version() -> tuple[int, int]:
    """(pk, rules_version) of the property: the one cheap query a hot read needs (see rules.py)."""
    rows = hot_query(PROPERTY_VERSION_SQL, [])  # in SQL: asked on every hot read, no ORM compilation
    if not rows:
        raise NotFound("No property is configured yet: run `manage.py load_demo` or add one in the admin.")
    return rows[0]


PROPERTY_VERSION_SQL = f"SELECT id, rules_version FROM {Property._meta.db_table} ORDER BY id LIMIT 1"


def hot_query(sql: str, params: list) -> list[tuple]:
    """The rows of one of the hot reads' queries (written in SQL: asked on nearly every API call, no
    ORM compilation), through Django's own cursor, so they show in query logs, debug tools and
    APM like any other. On PostgreSQL, with server-side binding on (DATABASES OPTIONS, see
    config/settings.py), psycopg prepares a statement once a connection has run it
    prepare_threshold times."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def cancellation_tiers(prop: Property) -> tuple[pricing.RefundTier, ...]:
    """The property's cancellation tiers as the pricing engine reads them (cached with the rules)."""
    return rules_for(prop).cancellation_tiers


def today() -> date:
    """Today in the property's time zone (settings.TIME_ZONE): stays are plain local dates.

    The default time zone by name, not timezone.localdate()'s current one: it is the property's
    whatever a request activates, and finding the current one (a context-local lookup) cost more
    than the rest of this function, asked several times by every hot read."""
    return datetime.now(timezone.get_default_timezone()).date()
