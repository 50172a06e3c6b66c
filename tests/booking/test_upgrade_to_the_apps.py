"""A database made before the apps split (issue #39) upgrades with `migrate` alone, and loses nothing.

The split moved every model of `booking` to catalog, reservations, payments and outbox with
state-only migrations (their tables keep their names) and one data migration that moves the content
types (booking/migrations/0039_models_moved_to_their_apps.py), so every permission, every group's
and user's grant of it and the admin's history follow the models. Here a database is taken back to
the migrations of the day before, filled through the models of that day (a property, a promo code, a
confirmed stay that used it, two payments, a refund, a security deposit, a check-in with its guest,
an outbound email, the Owner and Staff groups and a user's own permission), then migrated forward.
"""

import json
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from booking.reservations.models import Reservation

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # migrations run outside a test transaction

BEFORE_THE_SPLIT = [
    ("booking", "0038_outboundemail_staff_invitation"),
    ("italy", "0001_check_in_and_police_registration"),
    ("pages", "0003_inquiry_outbound_email"),
    ("partner_sync", "0002_channex_connection"),
]
# Going back there unapplies every migration of the new apps too (their later ones change tables).
UNDO_THE_SPLIT = [*BEFORE_THE_SPLIT, ("catalog", None), ("reservations", None), ("payments", None), ("outbox", None)]
# What the groups were granted before the split, and what the same grants read as after it.
OWNER_GRANTS = {("booking", "change_reservation"), ("booking", "refund_reservation"), ("booking", "view_payment"), ("booking", "change_promocode")}
STAFF_GRANTS = {("booking", "view_reservation"), ("booking", "change_reservation"), ("booking", "refund_reservation"), ("booking", "view_outboundemail")}
NEW_LABEL = {
    "reservation": "reservations",
    "payment": "payments",
    "promocode": "catalog",
    "outboundemail": "outbox",
}
OUR_TABLES = ("booking_", "italy_", "pages_", "partner_sync_")


def migrate_to(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    ContentType.objects.clear_cache()
    return MigrationExecutor(connection)  # a fresh loader sees what is applied now


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def old_database(transactional_db):
    """The database at the migrations of the day before the split, filled as a host's would be.
    Put back at the latest migrations afterwards, whatever the test did."""
    executor = migrate_to(UNDO_THE_SPLIT)
    fill(executor.loader.project_state(BEFORE_THE_SPLIT).apps)
    yield
    migrate_to(latest())


def fill(apps) -> None:
    """Through the historical models of booking 0038 and italy 0001."""
    model = apps.get_model
    prop = model("booking", "Property").objects.create(
        name="Casa Upgrade", slug="casa-upgrade", latitude=Decimal("45.4"), longitude=Decimal("11.9"), base_nightly_rate=Decimal("120.00")
    )
    promo = model("booking", "PromoCode").objects.create(property=prop, code="SPRING10", percent=10)
    check_in = date(2026, 6, 10)
    reservation = model("booking", "Reservation").objects.create(
        id="R-UPGRADE1",
        property=prop,
        check_in=check_in,
        check_out=check_in + timedelta(days=3),
        guests=2,
        guest_first_name="Ada",
        guest_last_name="Lovelace",
        guest_email="ada@example.com",
        price_breakdown={"nights": 3, "total": "324.00"},
        total=Decimal("324.00"),
        amount_paid=Decimal("324.00"),
        status="confirmed",
        promo_code=promo,
    )
    Payment = model("booking", "Payment")
    Payment.objects.create(
        reservation=reservation, kind="deposit", amount=Decimal("97.20"), currency="EUR", provider="sandbox", provider_id="pi_upgrade_deposit"
    )
    Payment.objects.create(
        reservation=reservation, kind="balance", amount=Decimal("226.80"), currency="EUR", provider="sandbox", provider_id="pi_upgrade_balance"
    )
    model("booking", "ProviderRefund").objects.create(
        reservation=reservation,
        kind="staff",
        amount=Decimal("50.00"),
        currency="EUR",
        provider="sandbox",
        payment_intent_id="pi_upgrade_balance",
        idempotency_key="refund-upgrade-1",
        actor="staff:owner",
    )
    model("booking", "SecurityDeposit").objects.create(
        reservation=reservation, amount=Decimal("200.00"), currency="EUR", provider="sandbox", placed_on=check_in - timedelta(days=1)
    )
    model("booking", "OutboundEmail").objects.create(reservation=reservation, kind="confirmation", recipient="guest")
    model("booking", "ReservationEvent").objects.create(
        reservation=reservation, at=timezone.now(), from_status="held", to_status="confirmed", action="confirm", actor="stripe webhook"
    )
    check_in_row = model("italy", "CheckIn").objects.create(reservation=reservation)
    model("italy", "Guest").objects.create(
        check_in=check_in_row,
        position=1,
        first_name="Ada",
        last_name="Lovelace",
        sex="F",
        date_of_birth=date(1985, 12, 10),
        citizenship="GB",
        country_of_birth="GB",
    )

    # The accounts' models are the same before and after (auth is no part of the split).
    def permissions(grants):
        return [Permission.objects.get(content_type__app_label=label, codename=codename) for label, codename in grants]

    Group.objects.create(name="Owner").permissions.set(permissions(OWNER_GRANTS))
    Group.objects.create(name="Staff").permissions.set(permissions(STAFF_GRANTS))
    user = get_user_model().objects.create(username="front-desk", is_staff=True)
    user.user_permissions.set(permissions({("booking", "refund_reservation")}))


def our_tables() -> list[str]:
    return sorted(name for name in connection.introspection.table_names() if name.startswith(OUR_TABLES))


# Columns this release's later migrations take away, with what they held moved elsewhere
# (reservations 0002: the attention sentence became attention flags).
DROPPED_LATER = {"booking_reservation": {"needs_attention"}}


def every_row() -> dict[str, list[dict]]:
    """Every row of every table of ours, in primary key order, by column (less those dropped later)."""
    rows = {}
    with connection.cursor() as cursor:
        for table in our_tables():
            key = connection.introspection.get_primary_key_column(cursor, table)
            quoted = connection.ops.quote_name
            cursor.execute(f"SELECT * FROM {quoted(table)} ORDER BY {quoted(key)}")  # noqa: S608 (names from the introspection)
            columns = [column[0] for column in cursor.description]
            dropped = DROPPED_LATER.get(table, set())
            rows[table] = [{c: v for c, v in zip(columns, row, strict=True) if c not in dropped} for row in cursor.fetchall()]
    return rows


def _same(table: str, column: str, old, new) -> bool:
    """Equal, or (a breakdown, which reservations 0003 rewrites as data) the same figures kept, or
    the city tax's collector that reservations 0005 names ("host" for blank)."""
    if old == new:
        return True
    if (table, column) == ("booking_reservation", "city_tax_collected_by"):
        return {old, new} <= {"", "host"}  # reservations 0005 names the host where it was left blank
    if (table, column) == ("booking_reservation", "price_breakdown"):
        old, new = (json.loads(v) if isinstance(v, str) else v for v in (old, new))
        return old.items() <= new.items()
    return False


def differences(before: dict[str, list[dict]], after: dict[str, list[dict]]) -> list[tuple]:
    """(table, row index, column, before, after) for every value that is not the same, in the columns
    both have (a column a later migration adds exists on one side only, holding its default;
    columns_lost() finds one that an upgrade took away)."""
    found = [
        (table, "rows", len(before.get(table, [])), len(after.get(table, [])))
        for table in before.keys() | after.keys()
        if len(before.get(table, [])) != len(after.get(table, []))
    ]
    for table, rows in before.items():
        for index, (old, new) in enumerate(zip(rows, after.get(table, []), strict=False)):
            found += [
                (table, index, column, old.get(column), new.get(column))
                for column in old.keys() & new.keys()
                if not _same(table, column, old.get(column), new.get(column))
            ]
    return found


def columns_lost(before: dict[str, list[dict]], after: dict[str, list[dict]]) -> list[tuple[str, str]]:
    """Columns that held data before an upgrade and are gone after it (DROPPED_LATER left aside)."""
    return sorted((table, column) for table, rows in before.items() if rows for column in rows[0].keys() - (after.get(table) or [{}])[0].keys())


def grants() -> dict[str, set[tuple[str, str, int]]]:
    """Each group's grants (and the user's own) as (app label, codename, permission id)."""
    seen = {group.name: {(p.content_type.app_label, p.codename, p.pk) for p in group.permissions.all()} for group in Group.objects.all()}
    user_permissions = Permission.objects.filter(user__username="front-desk")
    seen["user front-desk"] = {(p.content_type.app_label, p.codename, p.pk) for p in user_permissions}
    return seen


def relabelled(before: dict[str, set[tuple[str, str, int]]]) -> dict[str, set[tuple[str, str, int]]]:
    """The grants as they read after the split: the same permissions, under each model's new app."""
    model_of = {p.pk: p.content_type.model for p in Permission.objects.all()}
    return {who: {(NEW_LABEL.get(model_of[pk], label), codename, pk) for label, codename, pk in held} for who, held in before.items()}


def test_migrate_alone_upgrades_a_database_of_the_day_before_and_keeps_every_row_and_grant(old_database, client):
    rows_before = every_row()
    assert rows_before["booking_reservation"] and rows_before["booking_payment"] and rows_before["italy_guest"]
    grants_before = grants()
    assert {label for held in grants_before.values() for label, _, _ in held} == {"booking"}
    expected = relabelled(grants_before)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # what `manage.py migrate` does
    ContentType.objects.clear_cache()

    assert differences(rows_before, every_row()) == []
    assert columns_lost(rows_before, every_row()) == []
    assert grants() == expected
    assert ("reservations", "change_reservation") in {(label, codename) for label, codename, _ in grants()["Staff"]}
    assert ("payments", "view_payment") in {(label, codename) for label, codename, _ in grants()["Owner"]}
    assert not ContentType.objects.filter(app_label="booking", model__in=NEW_LABEL).exists()

    user = get_user_model().objects.get(username="front-desk")
    assert user.has_perm("reservations.refund_reservation")
    assert not user.has_perm("booking.refund_reservation")

    reservation = Reservation.objects.get(pk="R-UPGRADE1")
    assert (reservation.status, reservation.promo_code.code, reservation.payments.count()) == ("confirmed", "SPRING10", 2)

    # The back office after the upgrade: the roles brought up to date, a member of Staff opens the stay.
    call_command("setup_roles", verbosity=0)
    user.groups.add(Group.objects.get(name="Staff"))
    client.force_login(user)
    answer = client.get(f"/admin/reservations/reservation/{quote(reservation.pk)}/change/")
    assert answer.status_code == 200
    assert b"Lovelace" in answer.content


def test_going_back_before_the_split_and_forward_again_loses_nothing(old_database):
    migrate_to(latest())
    rows, held = every_row(), grants()

    migrate_to(UNDO_THE_SPLIT)
    assert differences(rows, every_row()) == []
    assert {label for who in grants().values() for label, _, _ in who} == {"booking"}

    migrate_to(latest())
    assert differences(rows, every_row()) == []
    assert grants() == held


def test_the_migrate_command_upgrades_the_database(old_database):
    rows, expected = every_row(), relabelled(grants())

    call_command("migrate", verbosity=0)
    ContentType.objects.clear_cache()

    assert differences(rows, every_row()) == []
    assert columns_lost(rows, every_row()) == []
    assert grants() == expected
    assert not MigrationExecutor(connection).migration_plan(latest())
