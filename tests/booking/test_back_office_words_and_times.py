"""The back office in the reader's language, with times on the property's clock and its zone
(issue 34, item 7; docs/back-office.md): a reservation's history, the dashboard's open holds, the
rate calendar's confirmations and the property form's weekdays, and the accountant's CSV."""

import csv
import io
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse

from booking.reservations.models import Reservation, ReservationEvent
from booking.reservations.services.audit import record_event
from booking.reservations.services.holds import GuestDetails, hold_stay
from booking.reservations.services.reservations import edit_by_staff
from tests.booking.test_back_office import CHANGELIST, RATES, change_page, paid, people  # noqa: F401 (fixtures)
from tests.dates import future
from tests.payments.conftest import fake_stripe, stay, stripe_event, webhook  # noqa: F401 (fixtures)

ITALIAN = {"HTTP_ACCEPT_LANGUAGE": "it,en;q=0.5"}
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de,en;q=0.5"}


def history_of(page) -> str:
    """The reservation's history on its admin page (the events inline)."""
    return page.content.decode().split('id="events-group"')[1].split('-group"')[0]


# --- 1. The history reads in the back office's language, on the property's clock -----------------


@pytest.mark.parametrize(
    ("language", "words", "english"),
    [
        (
            ITALIAN,
            ["pagamento riuscito", "confermata", "il webhook Stripe", "bloccata fino al"],
            ["payment succeeded", "held until"],
        ),
        (
            GERMAN,
            ["Zahlung erfolgreich", "bestätigt", "der Stripe-Webhook", "reserviert bis"],
            ["payment succeeded", "held until"],
        ),
    ],
)
def test_the_history_speaks_the_back_office_language(people, paid, language, words, english):  # noqa: F811 (fixtures)
    history = history_of(people["owner"].get(change_page(paid), **language))
    for word in words:
        assert word in history
    for word in english:
        assert word not in history


def test_the_history_shows_local_times_with_the_zone_and_no_utc(people, paid):  # noqa: F811 (fixtures)
    history = history_of(people["owner"].get(change_page(paid), **ITALIAN))
    assert "UTC" not in history and ("CET" in history or "CEST" in history)
    event = paid.events.get(action="hold")
    assert event.message == "held_until" and datetime.fromisoformat(event.params["until"]).utcoffset() is not None


def test_a_line_written_before_the_codes_is_shown_as_written(people, paid):  # noqa: F811 (fixtures)
    ReservationEvent.objects.create(reservation=paid, action="confirm", actor="stripe webhook", note="written in the old days")
    history = history_of(people["owner"].get(change_page(paid), **GERMAN))
    assert "written in the old days" in history


def test_an_email_line_names_the_email_and_its_reader_in_the_readers_language(people, paid):  # noqa: F811 (fixtures)
    event = record_event(paid, action="email", actor="notifications", message="email_sent", params={"email": "confirmation", "recipient": "guest"})
    assert event.note == "booking confirmed emailed to the guest"  # the English note, as before
    history = history_of(people["owner"].get(change_page(paid), **GERMAN))
    assert "Buchung bestätigt: E-Mail gesendet an Gast" in history and "der E-Mail-Ausgang" in history


def test_an_old_line_with_a_fixed_sentence_is_translated_too(people, paid):  # noqa: F811 (fixtures)
    ReservationEvent.objects.create(reservation=paid, action="expire", actor="mcp (Claude)", note="checkout session expired")
    history = history_of(people["owner"].get(change_page(paid), **ITALIAN))
    assert "sessione di pagamento scaduta" in history and "un agente MCP (Claude)" in history and "checkout session expired" not in history


def test_a_staff_edit_names_the_fields_in_the_readers_language(people, paid):  # noqa: F811 (fixtures)
    edit_by_staff(paid.pk, changes={"guest_phone": "+39 055 000000"}, actor="staff olivia")
    event = paid.events.get(action="edit")
    assert event.note == "changed: guest_phone"  # the English note as before
    history = history_of(people["owner"].get(change_page(paid), **ITALIAN))
    assert "staff olivia" in history and "modificato:" in history


# --- 2. The dashboard's open holds name the guest and lapse on the local clock -------------------


def test_open_holds_show_the_guest_and_the_local_expiry_with_its_zone(client, django_user_model, demo_property, settings):
    settings.HOLD_MINUTES = 30
    now = datetime(2031, 3, 9, 23, 30, tzinfo=UTC)
    with time_machine.travel(now, tick=False):
        hold_stay(check_in=date(2031, 4, 7), check_out=date(2031, 4, 10), guests=2, guest=GuestDetails(email="ada@example.com"))
        hold_stay(
            check_in=date(2031, 4, 12),
            check_out=date(2031, 4, 15),
            guests=2,
            guest=GuestDetails(first_name="Bruno", last_name="Neri", email="bruno@example.com"),
        )
        client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
        page = client.get("/admin/", **ITALIAN).content.decode()
    holds = page.split('id="dashboard-holds"')[1].split("</section>")[0]
    assert "ada@example.com" in holds and "Bruno Neri" in holds and "bruno@example.com" in holds
    assert "10 Mar 2031 01:00 CET" in holds  # 00:00 UTC is 01:00 in Rome, with the zone


# --- 3. Rate calendar confirmations and weekday names in the back office's language --------------


def test_a_rate_calendar_confirmation_is_in_italian(people, demo_property):  # noqa: F811 (fixtures)
    night = future(days=40)
    page = people["owner"].post(
        RATES, {"first_night": night, "last_night": night + timedelta(days=1), "what": "price", "nightly_rate": "333.00"}, follow=True, **ITALIAN
    )
    [message] = [str(m) for m in page.context["messages"]]
    assert "2 notti" in message and "prezzo" in message.lower() and "a night" not in message and "price" not in message


def test_a_minimum_stay_confirmation_is_in_german(people, demo_property):  # noqa: F811 (fixtures)
    night = future(days=40)
    page = people["owner"].post(RATES, {"first_night": night, "last_night": night, "what": "min_nights", "min_nights": "3"}, follow=True, **GERMAN)
    [message] = [str(m) for m in page.context["messages"]]
    assert "1 Nacht" in message and "Mindestaufenthalt" in message and "minimum stay" not in message


@pytest.mark.parametrize(("language", "monday", "sunday"), [(ITALIAN, "Lunedì", "Domenica"), (GERMAN, "Montag", "Sonntag")])
def test_the_property_form_names_the_weekdays_in_the_back_office_language(people, demo_property, language, monday, sunday):  # noqa: F811 (fixtures)
    page = people["owner"].get(reverse("admin:catalog_property_change", args=[demo_property.pk]), **language).content.decode()
    assert monday in page and sunday in page and "Monday" not in page


def test_the_rate_calendar_weekday_headings_are_django_s_own(people, demo_property):  # noqa: F811 (fixtures)
    page = people["owner"].get(RATES, **ITALIAN).content.decode()
    calendar = page.split('id="rate-calendar"')[1].split("</thead>")[0]
    assert "Lun" in calendar and "Dom" in calendar and "Mon" not in calendar


# --- 4. The CSV: one date format, and no city tax for a cancelled stay ------------------------------


def export(client, *reservations) -> list[dict[str, str]]:
    response = client.post(CHANGELIST, {"action": "export_csv", "_selected_action": [r.pk for r in reservations]}, **ITALIAN)
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_csv_writes_dates_as_iso_and_instants_with_their_offset(people, paid):  # noqa: F811 (fixtures)
    [row] = export(people["staff"], paid)
    assert row["check_in"] == paid.check_in.isoformat() and row["check_out"] == paid.check_out.isoformat()
    created = datetime.fromisoformat(row["created"])
    assert created.utcoffset() in (timedelta(hours=1), timedelta(hours=2)) and created == paid.created_at.replace(microsecond=0)
    assert datetime.fromisoformat(row["confirmed"]) == paid.confirmed_at.replace(microsecond=0) and row["cancelled"] == ""
    assert Decimal(row["city_tax"]) == Decimal(str(paid.price_breakdown["city_tax"])) > 0


def test_a_cancelled_stay_owes_no_city_tax_and_keeps_its_money(people, paid):  # noqa: F811 (fixtures)
    Reservation.objects.filter(pk=paid.pk).update(status="cancelled", cancelled_at=paid.confirmed_at, amount_refunded=paid.total - Decimal("525.00"))
    [row] = export(people["staff"], Reservation.objects.get(pk=paid.pk))
    assert Decimal(row["city_tax"]) == 0 and Decimal(row["kept"]) == Decimal("525.00")
    assert datetime.fromisoformat(row["cancelled"]).utcoffset() is not None


def test_the_payments_list_shows_when_each_was_paid_on_the_local_clock(people, paid):  # noqa: F811 (fixtures)
    page = people["owner"].get(reverse("admin:payments_payment_changelist"), **ITALIAN).content.decode()
    rows = page.split('id="result_list"')[1]
    assert "pagato il" in page.lower() and (" CET" in rows or " CEST" in rows)
