"""Upgrading names who collects each existing stay's city tax: the setting moves from the Channex
connection to the property's Italian settings, a direct stay is the host's, a platform's stay
follows that setting, and a stay already marked keeps its mark."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from booking.italy.models import ItalySettings
from booking.reservations.models import Reservation
from tests.dates import future

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # migrations run outside a test transaction

BEFORE = [
    ("reservations", "0004_staff_note"),
    ("italy", "0003_florence_short_let_rules"),
    ("partner_sync", "0003_reservations_moved_to_their_app"),
]


def test_existing_stays_name_their_collector_by_the_connections_old_setting(demo_property):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    old.get_model("partner_sync", "ChannexConnection").objects.create(
        pk=1, api_base="https://app.channex.io/api/v1", channels_collecting_city_tax=["booking_com"]
    )
    OldReservation = old.get_model("reservations", "Reservation")

    def stay(offset: int, source: str, collected_by: str = "") -> str:
        check_in = future(offset)
        row = OldReservation.objects.create(
            property_id=demo_property.pk,
            status="confirmed",
            source=source,
            check_in=check_in,
            check_out=check_in + timedelta(days=2),
            guests=2,
            price_breakdown={},
            total="500.00",
            city_tax_collected_by=collected_by,
        )
        return row.pk

    direct, by_booking_com, by_airbnb, marked = stay(30, "web"), stay(40, "booking_com"), stay(50, "airbnb"), stay(60, "airbnb", "airbnb")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert ItalySettings.objects.get(property=demo_property).city_tax_collecting_channels == ["booking_com"]
    collected_by = dict(Reservation.objects.values_list("pk", "city_tax_collected_by"))
    assert [collected_by[pk] for pk in (direct, by_booking_com, by_airbnb, marked)] == ["host", "booking_com", "host", "airbnb"]
