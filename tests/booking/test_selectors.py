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


def test_the_hot_queries_go_through_django_s_cursor_and_show_in_its_query_log(demo_property, django_assert_num_queries):
    with django_assert_num_queries(1) as captured:
        version_and_taken_ranges(future(10), future(20))
    assert "booking_reservation" in captured.captured_queries[0]["sql"]


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="prepared statements are PostgreSQL's")
def test_a_hot_query_is_prepared_on_the_server_after_a_few_runs(demo_property):
    """server_side_binding and prepare_threshold (DATABASES OPTIONS): psycopg prepares a statement
    a connection has run prepare_threshold times; Django's own cursor runs it."""
    for _ in range(6):
        version_and_taken_ranges(future(10), future(20))
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("booking_reservation" in statement for statement in prepared), prepared


def test_a_hot_query_binds_its_values_and_fails_with_django_s_errors(demo_property):
    assert hot_query("SELECT %s + 1, %s", [1, "50%"]) == [(2, "50%")]
    with pytest.raises(DatabaseError):  # Django's exception, not the driver's
        hot_query("SELECT * FROM no_such_table", [])
