"""A backup restored over a changed database brings back every reservation."""

import pytest
from django.core.management import call_command

from booking.models import Reservation
from booking.services.holds import hold_stay
from tests.conftest import is_postgresql
from tests.dates import future


@pytest.mark.django_db(transaction=True)
def test_restoring_a_backup_finds_every_reservation(demo_property, tmp_path):
    import shutil

    if is_postgresql() and not shutil.which("pg_dump"):
        pytest.skip("pg_dump is not installed")
    made = {hold_stay(check_in=future(30 + 5 * i), check_out=future(33 + 5 * i), guests=2).pk for i in range(5)}
    call_command("backup", to=str(tmp_path / "backup"))
    Reservation.objects.filter(pk__in=list(made)[:3]).delete()
    hold_stay(check_in=future(100), check_out=future(103), guests=2)  # made after the backup
    call_command("restore", str(tmp_path / "backup"))
    assert set(Reservation.objects.values_list("pk", flat=True)) == made
    assert Reservation.objects.get(pk=next(iter(made))).price_breakdown["total"] > 0
