"""The hot-path SQL for taken nights answers exactly what the ORM selectors answer, alone or
together with the property's version."""

from datetime import timedelta

import pytest
import time_machine
from django.db import DatabaseError, connection
from django.utils import timezone

from booking.models import DateBlock, Reservation
from booking.selectors import (
    blocking_reservations,
    blocks_between,
    get_property_version,
    hot_query,
    taken_ranges,
    taken_ranges_and_holds,
    version_and_taken_ranges,
)
from tests.dates import future

pytestmark = pytest.mark.django_db


def test_taken_ranges_equal_the_union_of_the_orm_selectors(demo_property):
    now = timezone.now()

    def reservation(offset, nights, status, expires_in_minutes=30):
        Reservation.objects.create(
            property=demo_property,
            check_in=future(offset),
            check_out=future(offset + nights),
            guests=2,
            status=status,
            hold_expires_at=now + timedelta(minutes=expires_in_minutes),
            price_breakdown={},
            total=0,
        )

    reservation(10, 3, "confirmed")
    reservation(15, 2, "held")  # blocks
    reservation(20, 2, "held", expires_in_minutes=-1)  # lapsed: does not block
    reservation(25, 2, "expired")
    reservation(30, 2, "cancelled")
    reservation(8, 2, "confirmed")  # ends on the window's first day: outside
    DateBlock.objects.create(property=demo_property, start=future(35), end=future(37), source="partner", feed_key="airbnb", external_uid="x")
    DateBlock.objects.create(property=demo_property, start=future(38), end=future(45), reason="staff")
    start, end = future(10), future(40)
    with time_machine.travel(now, tick=False):  # one instant for every query below
        assert version_and_taken_ranges(start, end) == (*get_property_version(), sorted(taken_ranges_and_holds(demo_property, start, end, now)))
    expected = sorted(
        list(blocking_reservations(demo_property, start, end, now).values_list("check_in", "check_out"))
        + list(blocks_between(demo_property, start, end).values_list("start", "end"))
    )
    assert sorted(taken_ranges(demo_property, start, end, now)) == expected
    assert sorted(taken_ranges(demo_property.pk, start, end, now)) == [
        (future(10), future(13)),
        (future(15), future(17)),
        (future(35), future(37)),
        (future(38), future(45)),
    ]


def test_with_nothing_taken_the_version_comes_alone(demo_property):
    assert version_and_taken_ranges(future(10), future(20)) == (demo_property.pk, demo_property.rules_version, [])


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="SQLite's hot queries run on the connection itself (its statement cache)")
def test_the_hot_queries_run_on_one_cursor_per_connection(demo_property):
    assert hot_query("SELECT 1", []) == [(1,)]
    cursor = connection.connection._hot_reads_cursor
    assert hot_query("SELECT %s::int", [2]) == [(2,)]
    assert connection.connection._hot_reads_cursor is cursor  # no cursor built per query


def test_a_hot_query_binds_its_values_and_fails_with_django_s_errors(demo_property):
    assert hot_query("SELECT %s + 1, %s", [1, "50%"]) == [(2, "50%")]
    with pytest.raises(DatabaseError):  # Django's exception, not the driver's
        hot_query("SELECT * FROM no_such_table", [])
