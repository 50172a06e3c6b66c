"""Florence's short-let rules (docs/italy.md): the CIN on every public page, in the structured
data and in the feeds; the regional authorisation's reminder 60 days before it lapses and the
safety register's 14 days before a check is due, each once; the emergency information with the
arrival instructions and on the booking page once checked in; and the demo carrying all of it."""

import json
import re
import threading
from datetime import date, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection

from booking import demo
from booking.italy.checkin import save_check_in
from booking.italy.guest_mail import queue_check_in_emails
from booking.italy.models import ItalySettings, SafetyCheck
from booking.italy.short_let import remind_owner
from booking.italy.tasks import remind_owner_of_short_let_dates
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_due_emails
from config.celery import app
from tests.conftest import is_postgresql
from tests.italy.conftest import LEAD, party

pytestmark = pytest.mark.django_db
CIN = "IT048017C2PENTFI001"
ARRIVAL = date(2026, 7, 20)


def at(day: date):
    return time_machine.travel(datetime(day.year, day.month, day.day, 9, 0).astimezone(), tick=False)


def owner_emails() -> list[OutboundEmail]:
    return list(OutboundEmail.objects.filter(recipient="owner", kind="owner_alert").order_by("pk"))


@pytest.mark.parametrize("prefix", ["", "/it", "/de", "/fr"])
@pytest.mark.parametrize("page", ["/", "/penthouse-florence", "/book"])
def test_the_cin_is_in_the_footer_of_every_public_page(client, demo_property, prefix, page):
    response = client.get(f"{prefix}{page}" if page != "/" else (f"{prefix}/" if prefix else "/"), follow=True)
    assert response.status_code == 200
    footer = response.content.decode().split('<footer class="site-footer">', 1)[1]
    assert f"CIN: {CIN}" in footer


def test_no_cin_no_line_in_the_footer(client, demo_property):
    demo_property.national_code = ""
    demo_property.save()
    footer = client.get("/").content.decode().split('<footer class="site-footer">', 1)[1]
    assert "CIN" not in footer


def test_the_structured_data_carries_the_cin(client, demo_property):
    page = client.get("/penthouse-florence").content.decode()
    blocks = [json.loads(b) for b in re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)]
    rentals = [b for block in blocks for b in (block if isinstance(block, list) else block.get("@graph", [block])) if b.get("@type") == "VacationRental"]
    assert rentals, "no VacationRental on the property page"
    assert {"@type": "PropertyValue", "propertyID": "CIN", "name": "Codice Identificativo Nazionale", "value": CIN} in rentals[0]["additionalProperty"]


def test_the_calendar_feed_and_llms_txt_carry_the_cin(client, demo_property):
    feed = client.get("/api/v1/calendar.ics")
    assert feed.status_code == 200 and f"X-WR-CALDESC:CIN: {CIN}" in feed.content.decode()
    etag = feed["ETag"]
    demo_property.national_code = "IT048017C2OTHER0002"
    demo_property.save()
    again = client.get("/api/v1/calendar.ics")
    assert "IT048017C2OTHER0002" in again.content.decode() and again["ETag"] != etag  # a platform polling sees the change
    assert "IT048017C2OTHER0002" in client.get("/llms.txt").content.decode()


def authorisation(demo_property, expires: date) -> ItalySettings:
    italy = ItalySettings.for_property(demo_property)
    italy.regional_authorisation_number = "FI/LT/2021/000123"
    italy.regional_authorisation_issued = date(2021, 9, 18)
    italy.regional_authorisation_expires = expires
    italy.save()
    return italy


def test_authorisation_expiring_in_60_days_one_email_to_the_owner_however_often_the_job_runs(demo_property):
    SafetyCheck.objects.all().delete()
    authorisation(demo_property, date(2026, 9, 18))
    with at(date(2026, 7, 19)):  # 61 days before
        assert remind_owner() == 0
    with at(date(2026, 7, 20)):  # 60 days before
        assert remind_owner_of_short_let_dates() == 1
        assert remind_owner_of_short_let_dates() == 0
    with at(date(2026, 7, 21)):
        assert remind_owner() == 0
        deliver_due_emails()
    [email] = owner_emails()
    assert "18/09/2026" in email.subject and "FI/LT/2021/000123" in email.body and email.to_address == "stay@attico-santacroce.example"
    assert [m.subject for m in mail.outbox] == [email.subject]
    # Renewed: the new expiry date is reminded of in its turn.
    authorisation(demo_property, date(2031, 9, 18))
    with at(date(2031, 7, 25)):
        assert remind_owner() == 1


def test_a_safety_check_due_in_14_days_one_email_to_the_owner(demo_property):
    SafetyCheck.objects.all().delete()
    ItalySettings.objects.update(regional_authorisation_expires=None)
    check = SafetyCheck.objects.create(
        property=demo_property, kind="extinguisher", location="kitchen", checked_on=date(2026, 1, 31), checked_by="Antincendio srl"
    )
    detector = SafetyCheck.objects.create(property=demo_property, kind="co_detector", location="boiler", checked_on=date(2026, 1, 31), checked_by="Giulia")
    assert check.next_due == date(2026, 7, 31)  # six months for an extinguisher
    assert detector.next_due == date(2027, 1, 31)  # twelve for a detector unless set
    with at(date(2026, 7, 16)):
        assert remind_owner() == 0
    with at(date(2026, 7, 17)):  # 14 days before
        assert remind_owner() == 1
        assert remind_owner() == 0
    [email] = owner_emails()
    assert "31/07/2026" in email.subject and "Fire extinguisher" in email.subject and "Antincendio srl" in email.body
    # Checked again: the old check is no longer due, the new one in six months.
    SafetyCheck.objects.create(property=demo_property, kind="extinguisher", location="kitchen", checked_on=date(2026, 7, 25), checked_by="Antincendio srl")
    with at(date(2026, 7, 28)):
        assert remind_owner() == 0


@pytest.mark.timeout(60)
def test_two_workers_racing_send_each_reminder_once(transactional_db, demo_property):
    if not is_postgresql():
        pytest.skip("two workers at once need PostgreSQL's row locks (SQLite serialises every writer anyway)")
    SafetyCheck.objects.all().delete()
    authorisation(demo_property, date(2026, 9, 18))
    SafetyCheck.objects.create(property=demo_property, kind="extinguisher", location="kitchen", checked_on=date(2026, 3, 1), checked_by="Antincendio srl")
    barrier, outcomes = threading.Barrier(2), []

    def worker():
        try:
            barrier.wait(timeout=10)
            outcomes.append(remind_owner(today=date(2026, 8, 20)))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sum(outcomes) == 2 and len(owner_emails()) == 2  # the authorisation's and the extinguisher's, once each


EMERGENCY_IT = "Emergenze: chiamate il 112"


@pytest.fixture
def stay(make_stay, demo_property):
    return make_stay(check_in=ARRIVAL, guests=1, language="it")


def test_the_italian_arrival_email_carries_the_emergency_information_in_italian(stay):
    with at(ARRIVAL - timedelta(days=1)):
        save_check_in(stay, party(LEAD))
        queue_check_in_emails()
    email = OutboundEmail.objects.get(reservation=stay, kind="arrival_info")
    assert EMERGENCY_IT in email.body and "Contatto 24 ore su 24" in email.body and "Raccolta differenziata" in email.body
    assert "Emergencies: call 112" not in email.body
    assert "Emergenze, contatto 24 ore su 24 e regole della casa" in email.body


def test_the_booking_page_shows_the_emergency_information_once_checked_in_not_before(client, stay):
    page = f"/it/manage/{stay.manage_token}"
    with at(ARRIVAL - timedelta(days=5)):
        assert EMERGENCY_IT not in client.get(page).content.decode()
        save_check_in(stay, party(LEAD))
        shown = client.get(page).content.decode()
    assert EMERGENCY_IT in shown and "data-emergency-info" in shown
    with at(ARRIVAL - timedelta(days=5)):
        assert "Emergencies: call 112" in client.get(f"/manage/{stay.manage_token}").content.decode()


def test_the_demo_fills_the_short_let_rules(demo_property):
    italy = ItalySettings.objects.get(property=demo_property)
    assert italy.regional_authorisation_number and italy.regional_authorisation_issued < italy.regional_authorisation_expires
    for language, words in (("en", "Emergencies"), ("it", "Emergenze"), ("de", "Notfälle"), ("fr", "Urgences")):
        assert getattr(italy, f"emergency_info_{language}").startswith(words)
    assert {c.kind for c in demo_property.safety_checks.all()} == {"extinguisher", "gas_detector", "co_detector"}
    assert demo.load() is False  # loaded once: an owner's edits are never replaced


def test_the_back_office_shows_the_authorisation_and_the_register(admin_client, demo_property):
    italy = authorisation(demo_property, date.today() + timedelta(days=30))
    page = admin_client.get(f"/admin/italy/italysettings/{italy.pk}/change/").content.decode()
    assert "renew it soon" in page
    register = admin_client.get("/admin/italy/safetycheck/").content.decode()
    assert "Fire extinguisher" in register and "Due soon" in register and "Checked again since" not in register
    SafetyCheck.objects.create(property=demo_property, kind="extinguisher", location="Kitchen", checked_on=date.today(), checked_by="Antincendio srl")
    register = admin_client.get("/admin/italy/safetycheck/").content.decode()
    assert "Checked again since" in register and "Up to date" in register


def test_the_reminder_job_is_on_the_beat_schedule():
    [entry] = [e for e in app.conf.beat_schedule.values() if e["task"] == "booking.italy.tasks.remind_owner_of_short_let_dates"]
    assert entry["schedule"] <= timedelta(days=1)
