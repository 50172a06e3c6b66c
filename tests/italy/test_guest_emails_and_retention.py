"""Check-in reminders 7 and 2 days before arrival while incomplete, the arrival instructions once
complete and due, each once and in the guest's language, never with the document number; and the
documents erased `document_retention_days` after check-out, by the clock."""

from datetime import date, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from booking.italy.checkin import save_check_in
from booking.italy.guest_mail import erase_documents, queue_check_in_emails
from booking.italy.models import CheckIn, Guest, ItalySettings, PoliceRegistration
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_due_emails
from tests.italy.conftest import LEAD, party

pytestmark = pytest.mark.django_db
ARRIVAL = date(2026, 7, 20)


def at(day: date):
    return time_machine.travel(datetime(day.year, day.month, day.day, 9, 0).astimezone(), tick=False)


@pytest.fixture
def stay(make_stay, demo_property):
    italy = ItalySettings.for_property(demo_property)
    italy.arrival_instructions_en, italy.arrival_instructions_it = "Door code 4321.", "Codice della porta 4321."
    italy.save()
    return make_stay(check_in=ARRIVAL, guests=1, language="it")


def kinds(stay) -> list[str]:
    return list(OutboundEmail.objects.filter(reservation=stay, recipient="guest").order_by("created_at").values_list("kind", flat=True))


def test_reminders_7_and_2_days_before_then_arrival_instructions_once(stay):
    for days_before in (10, 7, 6, 2, 1):
        with at(ARRIVAL - timedelta(days=days_before)):
            queue_check_in_emails()
    assert kinds(stay) == ["check_in_reminder_7", "check_in_reminder_2"]
    reminder = OutboundEmail.objects.filter(reservation=stay, kind="check_in_reminder_2").get()
    assert reminder.subject.startswith("Per favore") and f"/it/manage/{stay.manage_token}/check-in" in reminder.body
    with at(ARRIVAL - timedelta(days=1)):
        save_check_in(stay, party(LEAD))
        queue_check_in_emails()
        queue_check_in_emails()
        deliver_due_emails()
    assert kinds(stay) == ["check_in_reminder_7", "check_in_reminder_2", "arrival_info"]
    arrival = [m for m in mail.outbox if "4321" in m.body]
    assert len(arrival) == 1 and "Codice della porta 4321." in arrival[0].body and "CA12345AB" not in arrival[0].body


def test_no_arrival_instructions_before_the_days_set(stay):
    with at(ARRIVAL - timedelta(days=5)):
        save_check_in(stay, party(LEAD))
        queue_check_in_emails()
    assert kinds(stay) == []


def test_documents_erased_after_the_retention_days_police_answer_kept(stay):
    with at(ARRIVAL - timedelta(days=3)):
        save_check_in(stay, party(LEAD))
    PoliceRegistration.objects.create(reservation=stay, status="sent", answer={"send": {"result": {"SchedineValide": 1}}})
    with at(stay.check_out + timedelta(days=29)):
        assert erase_documents() == 0
    with at(stay.check_out + timedelta(days=30)):
        assert erase_documents() == 1
        assert erase_documents() == 0
    guest = Guest.objects.get(check_in__reservation=stay)
    assert (guest.document_number, guest.document_type, guest.document_issued_in) == ("", "", "") and guest.last_name == "Neri"
    assert CheckIn.objects.get(reservation=stay).documents_erased_at is not None
    assert PoliceRegistration.objects.get(reservation=stay).answer["send"]["result"]["SchedineValide"] == 1


def test_documents_erased_with_the_default_retention_when_the_owner_never_saved_settings(make_stay):
    ItalySettings.objects.all().delete()  # the demo loader saves some (its short-let rules): as if it never had
    stay = make_stay(check_in=ARRIVAL, guests=1)
    with at(ARRIVAL - timedelta(days=3)):
        save_check_in(stay, party(LEAD))
    assert not ItalySettings.objects.exists()
    with at(stay.check_out + timedelta(days=29)):
        assert erase_documents() == 0
    with at(stay.check_out + timedelta(days=30)):
        assert erase_documents() == 1
    assert Guest.objects.get(check_in__reservation=stay).document_number == ""
