"""A backup restored over a changed database brings back every reservation."""

import pytest
from django.core.management import call_command

from booking.reservations.models import Reservation
from booking.reservations.services.holds import hold_stay
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


@pytest.mark.django_db
def test_the_generated_secret_key_travels_with_the_backup(settings, tmp_path, monkeypatch):
    """A restore on a new machine keeps every signed link (manage links, sealed MCP states) valid."""
    import shutil
    import stat

    if is_postgresql() and not shutil.which("pg_dump"):
        pytest.skip("pg_dump is not installed")
    old_machine, new_machine = tmp_path / "old", tmp_path / "new"
    old_machine.mkdir()
    (old_machine / "secret_key").write_text("the-key-signed-links-were-made-with")
    settings.DATA_DIR = old_machine
    call_command("backup", to=str(tmp_path / "backup"))
    kept = tmp_path / "backup" / "secret_key"
    assert kept.read_text() == "the-key-signed-links-were-made-with"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    settings.DATA_DIR = new_machine
    call_command("restore", str(tmp_path / "backup"))
    assert (new_machine / "secret_key").read_text() == "the-key-signed-links-were-made-with"
    assert stat.S_IMODE((new_machine / "secret_key").stat().st_mode) == 0o600
