"""The hot-path SQL for taken nights answers exactly what the ORM selectors answer, alone or
together with the property's version, and reads through the indexes of what can take a night:
its cost follows the stays and blocks still to come, not the whole history."""

from datetime import timedelta

import pytest
import time_machine
from django.db import DatabaseError, connection
from django.utils import timezone

from booking.catalog.selectors import get_property_version, hot_query
from booking.reservations.models import DateBlock, Reservation
from booking.reservations.selectors import (
    blocking_reservations,
    blocks_between,
    taken_ranges,
    taken_ranges_and_holds,
    taken_ranges_sql,
    version_and_taken_ranges,
    version_and_taken_ranges_sql,
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


def a_year_of_history(prop):
    """What a year of use leaves: mostly released and lapsed holds and past stays, a few live
    holds, blocks from a partner calendar (bulk-written: only the rows matter to a plan)."""
    now = timezone.now()
    rows = []
    for n in range(600):
        status = ("cancelled", "expired", "confirmed")[n % 3]
        rows.append(Reservation(property=prop, check_in=future(n - 650), check_out=future(n - 649), guests=2, status=status, price_breakdown={}, total=0))
    for n in range(40):
        rows.append(
            Reservation(
                property=prop,
                check_in=future(30 + 3 * n),
                check_out=future(31 + 3 * n),
                guests=2,
                status="held",
                hold_expires_at=now + timedelta(minutes=20),
                price_breakdown={},
                total=0,
            )
        )
    Reservation.objects.bulk_create(rows)
    DateBlock.objects.bulk_create(
        DateBlock(property=prop, start=future(2 * n - 150), end=future(2 * n - 149), source="partner", feed_key="f", external_uid=str(n)) for n in range(150)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def query_plan(sql: str, params: list) -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("EXPLAIN " + sql, params)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return "\n".join(str(row[-1]) for row in cursor.fetchall())


@pytest.mark.parametrize("derived", [taken_ranges_sql, version_and_taken_ranges_sql], ids=["taken ranges", "version and taken ranges"])
def test_the_hot_reads_use_the_indexes_of_what_takes_a_night_not_a_scan_of_the_history(demo_property, derived):
    """Availability, quote, calendar and holds read reservation_taken (a partial index: confirmed and
    held rows only, by property and check-out) and block_upcoming; never every reservation written."""
    a_year_of_history(demo_property)
    query = derived()
    inputs = {"property": demo_property.pk, "start": future(60), "end": future(64), "now": timezone.now()}
    ops = connection.ops
    values = {**inputs, "start": ops.adapt_datefield_value(inputs["start"]), "end": ops.adapt_datefield_value(inputs["end"])}
    values["now"] = ops.adapt_datetimefield_value(inputs["now"])
    plan = query_plan(query.sql, query.params(**values))
    assert "reservation_taken" in plan, plan
    if connection.vendor == "postgresql":
        assert "Seq Scan on booking_reservation" not in plan, plan
        # 150 blocks fit in two pages, which PostgreSQL rightly reads whole; the index still serves
        # the query's conditions once the table outgrows that.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
        plan = query_plan(query.sql, query.params(**values))
    else:
        assert "SCAN booking_reservation" not in plan.replace("SEARCH booking_reservation", ""), plan
    assert "block_upcoming" in plan, plan


def test_the_hot_sql_is_compiled_from_the_orm_definition_with_the_statuses_as_literals():
    """One definition of what blocks a night (blocking_reservations, blocks_between): the hot SQL is
    Django's own compilation of it, with the statuses written as the partial index's predicate is."""
    for query in (taken_ranges_sql(), version_and_taken_ranges_sql()):
        assert "IN ('confirmed', 'held')" in query.sql
        assert set(query.inputs) <= {"property", "start", "end", "now"}
