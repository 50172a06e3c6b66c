"""Sending the day's records to Alloggiati Web through the real SOAP client (zeep) against a local
fake of the service: GenerateToken, Test, then Send; a Test failure stops Send; a fault is retried
later; failures are flagged for staff. Also `manage.py alloggiati_file`."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from booking.italy.checkin import save_check_in
from booking.italy.models import PoliceRegistration
from booking.italy.registration import send_due_registrations
from booking.reservations.models import Reservation
from tests.attention import attention
from tests.dates import today
from tests.italy.conftest import LEAD, PARTNER, checked_in_and_seen, party
from tests.italy.fake_alloggiati import FakeAlloggiati

pytestmark = pytest.mark.django_db


@pytest.fixture
def fake(settings):
    service = FakeAlloggiati()
    settings.ALLOGGIATI_USER, settings.ALLOGGIATI_PASSWORD, settings.ALLOGGIATI_WSKEY = "FI0001", "secret", "wskey"
    settings.ALLOGGIATI_URL = service.url
    yield service
    service.close()


@pytest.fixture
def arriving_today(make_stay):
    stay = make_stay(check_in=today(), guests=2)
    checked_in_and_seen(stay, party(LEAD, PARTNER))
    return stay


def test_token_test_then_send_and_the_answer_is_kept(fake, arriving_today):
    assert send_due_registrations() == 1
    assert fake.operations() == ["GenerateToken", "Test", "Send"]
    sent_body = fake.calls[2][1]
    assert "TOKEN-1" in sent_body and sent_body.count("100000100") >= 2
    row = PoliceRegistration.objects.get(reservation=arriving_today)
    assert row.status == "sent" and row.records == 2 and row.answer["send"]["result"]["SchedineValide"] == 2
    assert send_due_registrations() == 0 and len(fake.calls) == 3  # never twice


def test_a_test_failure_stops_send_and_flags_the_stay(fake, arriving_today):
    fake.script["Test"] = ["refuse"]
    assert send_due_registrations() == 0
    assert fake.operations() == ["GenerateToken", "Test"]
    row = PoliceRegistration.objects.get(reservation=arriving_today)
    assert row.status == "failed" and "Comune di nascita errato" in row.last_error
    assert "CA12345AB" not in row.last_error + str(row.answer) + attention(Reservation.objects.get(pk=arriving_today.pk))  # quoted, masked
    assert "refused" in attention(Reservation.objects.get(pk=arriving_today.pk))


def test_a_fault_is_retried_later(fake, arriving_today):
    fake.script["Send"] = ["fault"]
    now = timezone.now()
    assert send_due_registrations(now=now) == 0
    row = PoliceRegistration.objects.get(reservation=arriving_today)
    assert row.status == "pending" and row.attempts == 1 and "Send" in row.last_error
    assert send_due_registrations(now=now + timedelta(minutes=1)) == 0  # not due yet
    assert send_due_registrations(now=now + timedelta(minutes=6)) == 1
    assert PoliceRegistration.objects.get(pk=row.pk).status == "sent"


def test_without_credentials_nothing_is_sent(settings, arriving_today):
    settings.ALLOGGIATI_USER = ""
    assert send_due_registrations() == 0 and not PoliceRegistration.objects.exists()


def test_alloggiati_file_prints_the_records_and_lists_missing_stays(make_stay, arriving_today, capsys):
    call_command("alloggiati_file", "--date", str(today()))
    out = capsys.readouterr().out
    records = out.split("\r\n")[:-1]
    assert [len(r) for r in records] == [168, 168] and records[0].startswith("17") and records[1].startswith("19")
    missing = make_stay(check_in=today() + timedelta(days=10), guests=2)  # one rental: never two arrivals a day
    with pytest.raises(SystemExit) as exit_:
        call_command("alloggiati_file", "--date", str(missing.check_in))
    assert exit_.value.code == 1 and missing.pk in capsys.readouterr().err


def test_the_jobs_are_on_the_beat_schedule():
    from config.celery import app

    schedule = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert {
        "booking.italy.tasks.send_police_registrations",
        "booking.italy.tasks.send_check_in_emails",
        "booking.italy.tasks.erase_guest_documents",
    } <= schedule
    assert "booking.italy.tasks.send_police_registrations" in app.tasks


def test_a_stored_name_the_record_cannot_carry_is_reported_missing_never_dropped(arriving_today, capsys):
    from booking.italy.models import Guest

    Guest.objects.filter(check_in__reservation=arriving_today, position=1).update(first_name="Ωmega")  # stored before the check-in refused it
    with pytest.raises(SystemExit) as exit_:
        call_command("alloggiati_file", "--date", str(today()))
    captured = capsys.readouterr()
    assert exit_.value.code == 1 and arriving_today.pk in captured.err and "guest 2's name" in captured.err
    assert "mega" not in captured.out


def test_a_check_in_changed_after_the_registration_was_sent_flags_the_stay_with_what_changed(fake, arriving_today):
    from django.utils import translation

    from booking.reservations.event_messages import render
    from booking.reservations.models import ReservationEvent

    assert send_due_registrations() == 1
    changed = dict(PARTNER, last_name="Mueller", date_of_birth="1982-11-21")
    save_check_in(arriving_today, party(dict(LEAD, document=dict(LEAD["document"], number="CA99999ZZ")), changed))
    stay = Reservation.objects.get(pk=arriving_today.pk)
    assert attention(stay).startswith("The check-in was changed after the police registration was sent")
    assert "Lead guest: Document number; Guest 2: Last name, Date of birth" in attention(stay)
    assert "correct the registration on the portal" in attention(stay) and "CA99999ZZ" not in attention(stay)
    event = ReservationEvent.objects.filter(reservation=stay, action="flag").get()
    with translation.override("de"):
        assert "Nachname" in render(event.message, event.params)
    assert send_due_registrations() == 0 and len(fake.calls) == 3  # never a second record


def test_a_check_in_saved_again_unchanged_or_before_sending_is_not_flagged(fake, arriving_today):
    checked_in_and_seen(arriving_today, party(LEAD, dict(PARTNER, first_name="Jörg")))  # not sent yet: just corrected
    assert send_due_registrations() == 1
    checked_in_and_seen(arriving_today, party(LEAD, dict(PARTNER, first_name="Jörg")))  # the same again
    assert attention(Reservation.objects.get(pk=arriving_today.pk)) == ""
