"""Fixtures for the Channex tests: the local Channex-compatible server (partner_sync/channex_double.py) with the
connection's settings pointing at it."""

from importlib import import_module

import pytest
from django.db import connections

from booking.catalog.selectors import today
from partner_sync.channex import push
from partner_sync.channex_double import FakeChannexServer
from partner_sync.models import ChannexConnection
from tests.conftest import is_postgresql

WEBHOOK_SECRET = "whsec-channex-4f1c2b9e7d"


@pytest.fixture
def channex(settings, demo_property):
    """Connected: the API key, ids and webhook secret of the fake Channex, and its day = ours."""
    with FakeChannexServer() as fake:
        fake.today = today()
        settings.CHANNEX_API_KEY = fake.api_key
        settings.CHANNEX_API_BASE = fake.api_base
        settings.CHANNEX_PROPERTY_ID = fake.property_id
        settings.CHANNEX_ROOM_TYPE_ID = fake.room_type_id
        settings.CHANNEX_RATE_PLAN_ID = fake.rate_plan_id
        settings.CHANNEX_WEBHOOK_SECRET = WEBHOOK_SECRET
        yield fake


@pytest.fixture
def synced(channex):
    """Connected and through its first full sync, with the fake's call log emptied."""
    report = push_now()
    assert not report.error, report
    with channex.lock:
        channex.calls.clear()
    return channex


def push_now() -> push.PushReport:
    """A push as the 6-second job makes it, the spacing of the previous calls forgotten (as if 6 s had passed)."""
    ChannexConnection.objects.filter(pk=ChannexConnection.SINGLETON_PK).update(availability_calls=[], restrictions_calls=[], retry_at=None)
    return push.push_pending()


@pytest.fixture
def current_backstop(db):
    """The no-overlap constraint as the migrations leave it (another test may have re-created the
    older one, without the overbooked exemption)."""
    if is_postgresql():
        migration = import_module("booking.migrations.0035_channel_reservations")
        with connections["default"].cursor() as cursor:
            cursor.execute(migration.CREATE_WITH_OVERBOOKED)
