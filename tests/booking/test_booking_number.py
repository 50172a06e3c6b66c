"""Booking numbers for people, "FLR-27-0042" (booking/reservations/booking_numbers.py): the
property's prefix, the two-digit year, the place in the year; unique however many stays are made at
once, on SQLite and PostgreSQL; read on the guest's page, in the emails, on the receipt, in the back
office and in the API (where the id stays the credential)."""

import re
import threading
import time
import zlib
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.db import connections, transaction
from django.urls import reverse
from django.utils import timezone, translation

from booking.payments.models import Receipt
from booking.payments.services.receipts import receipt_pdf
from booking.reservations import booking_numbers
from booking.reservations.booking_numbers import format_booking_number, prefix_from_city, with_booking_number
from booking.reservations.models import Reservation
from booking.reservations.services import numbers
from booking.reservations.services.holds import GuestDetails, hold_stay
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.dates import future
from tests.payments.conftest import fake_stripe, stay, stripe_event, webhook  # noqa: F401


def YEAR() -> int:  # noqa: N802
    return timezone.localdate().year % 100


def test_the_number_reads_prefix_year_and_place_in_the_year():
    assert format_booking_number("FLR", 2027, 42) == "FLR-27-0042"
    assert format_booking_number("FLR", 2030, 12345) == "FLR-30-12345"
    assert booking_numbers.looks_like_booking_number("flr-27-0042")


def test_the_default_prefix_is_made_from_the_city():
    assert prefix_from_city("Florence") == "FLR"
    assert prefix_from_city("Venezia") == "VNZ"
    assert prefix_from_city("Śródmieście") == "SRD"
    assert prefix_from_city("") == "BK"


def test_a_subject_names_the_number_once():
    assert with_booking_number("Your stay is confirmed", "FLR-27-0001") == "Your stay is confirmed · FLR-27-0001"
    assert with_booking_number("Refunded: FLR-27-0001", "FLR-27-0001") == "Refunded: FLR-27-0001"
    assert with_booking_number("No number", None) == "No number"


@pytest.mark.django_db
def test_holds_are_numbered_in_order_and_the_owners_prefix_applies_to_new_ones(demo_property):
    first = hold_stay(check_in=future(40), check_out=future(43), guests=2)
    second = hold_stay(check_in=future(50), check_out=future(53), guests=2)
    assert first.booking_number == f"FLR-{YEAR():02d}-0001" and second.booking_number == f"FLR-{YEAR():02d}-0002"
    demo_property.booking_number_prefix = "PEN"
    demo_property.save()
    third = hold_stay(check_in=future(60), check_out=future(63), guests=2)
    assert third.booking_number == f"PEN-{YEAR():02d}-0003"
    first.refresh_from_db()
    assert first.booking_number == f"FLR-{YEAR():02d}-0001"  # a number once given never changes


@pytest.mark.parametrize("language", ["it", "de", "fr"])
def test_the_prefix_is_the_same_whatever_language_the_guest_books_in(demo_property, language):
    """The city is translated ("Firenze" would make "FRN"): the prefix comes from the owner's language."""
    with translation.override(language):
        held = hold_stay(check_in=future(40), check_out=future(43), guests=2)
    assert held.booking_number == f"FLR-{YEAR():02d}-0001"


@pytest.mark.django_db
def test_a_new_year_starts_again_at_one(demo_property, time_machine):
    hold_stay(check_in=future(40), check_out=future(43), guests=2)
    time_machine.move_to(timezone.make_aware(timezone.datetime(timezone.localdate().year + 1, 1, 1, 9)), tick=False)
    next_year = hold_stay(check_in=future(40), check_out=future(43), guests=2)
    assert next_year.booking_number == f"FLR-{YEAR():02d}-0001" and next_year.number_year == timezone.localdate().year


def race(count: int, make) -> list:
    barrier, outcomes, lock = threading.Barrier(count), [], threading.Lock()

    def run(i):
        try:
            barrier.wait(timeout=10)
            outcome = make(i)
        except Exception as error:  # noqa: BLE001 — reported in the assertion
            outcome = error
        finally:
            connections.close_all()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_holds_made_at_once_get_different_numbers(demo_property, settings):
    settings.TEST_RACE_WINDOW_SECONDS = 0.05  # each pauses inside the lock, before its insert
    outcomes = race(6, lambda i: hold_stay(check_in=future(40 + 5 * i), check_out=future(43 + 5 * i), guests=2).booking_number)
    assert all(isinstance(number, str) for number in outcomes), outcomes
    assert sorted(outcomes) == [f"FLR-{YEAR():02d}-{n:04d}" for n in range(1, 7)]


@pytest.mark.django_db(transaction=True)
def test_without_the_calendar_lock_the_unique_constraint_and_retry_still_give_different_numbers(demo_property, monkeypatch):
    """Two creators that do not share the calendar lock (two properties, say) both read the same
    last number: the constraint refuses the second insert and it takes the next number."""
    made = format_booking_number

    def slow(prefix, year, sequence):
        time.sleep(0.05)  # between reading the last number and inserting: every racer reads the same
        return made(prefix, year, sequence)

    monkeypatch.setattr(numbers, "format_booking_number", slow)

    def create(i):
        stay = Reservation(property=demo_property, check_in=future(40 + 5 * i), check_out=future(43 + 5 * i), guests=2, price_breakdown={}, total=100)
        with transaction.atomic():
            return numbers.save_with_number(stay).booking_number

    outcomes = race(4, create)
    assert all(isinstance(number, str) for number in outcomes), outcomes
    assert sorted(outcomes) == [f"FLR-{YEAR():02d}-{n:04d}" for n in range(1, 5)]


@pytest.fixture
def confirmed(demo_property, django_capture_on_commit_callbacks):
    reservation = hold_stay(check_in=future(40), check_out=future(43), guests=2, guest=GuestDetails("Anna", "Rossi", "anna@example.com", ""), language="it")
    with django_capture_on_commit_callbacks(execute=True):
        confirm_reservation(reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi"), payment_intent_id="pi_test")
    reservation.refresh_from_db()
    return reservation


@pytest.mark.django_db
def test_the_guests_page_and_every_email_name_the_number(client, confirmed):
    page = client.get(f"/it/manage/{confirmed.manage_token}").content.decode()
    assert f"<code data-booking-number>{confirmed.booking_number}</code>" in page and "Numero di prenotazione" in page
    assert mail.outbox, "the confirmation was sent"
    for email in mail.outbox:  # the guest's confirmation and the owner's notice
        assert email.subject.endswith(f" · {confirmed.booking_number}"), email.subject
        assert confirmed.booking_number in email.body and confirmed.pk not in email.body


@pytest.mark.django_db
def test_the_receipt_pdf_names_the_number(api, demo_property, fake_stripe, webhook):  # noqa: F811 (the payment tests' fixtures)
    body = api.post("/api/v1/payments/checkout-link", stay(offset=90, nights=3, guests=2)).json()
    session = fake_stripe.complete(body["session_id"], email="guest@example.com")
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    pdf = receipt_pdf(Receipt.objects.get(payment__reservation=reservation))
    text = b"".join(zlib.decompress(stream) for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S) if stream[:1] == b"x")
    assert reservation.booking_number and reservation.booking_number.encode() in text


@pytest.mark.django_db
def test_the_api_returns_the_number_beside_the_id(client, confirmed):
    body = client.get(f"/api/v1/reservations/{confirmed.pk}").json()
    assert body["id"] == confirmed.pk and body["booking_number"] == confirmed.booking_number
    assert client.get(f"/api/v1/reservations/{confirmed.booking_number}").status_code == 404  # not a credential


@pytest.mark.django_db
def test_the_back_office_lists_and_finds_stays_by_number(client, django_user_model, confirmed, demo_property):
    other = hold_stay(check_in=future(60), check_out=future(63), guests=2, guest=GuestDetails("Marco", "Bianchi", "m@example.com", ""))
    user = django_user_model.objects.create_user("giulia", "g@example.com", "a-long-test-password", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_reservation"))
    client.force_login(user)
    listing = client.get(reverse("admin:reservations_reservation_changelist")).content.decode()
    assert confirmed.booking_number in listing and other.booking_number in listing
    found = client.get(reverse("admin:reservations_reservation_changelist"), {"q": confirmed.booking_number}).content.decode()
    assert "Rossi" in found and "Bianchi" not in found


@pytest.mark.django_db
def test_the_migration_numbers_existing_stays_in_creation_order(demo_property):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("booking.reservations.migrations.0006_booking_numbers")
    now = timezone.now()
    made = [hold_stay(check_in=future(40 + 5 * i), check_out=future(43 + 5 * i), guests=2) for i in range(3)]
    for i, reservation in enumerate(made):  # as rows from before numbers: made in reverse order, last year and this
        Reservation.objects.filter(pk=reservation.pk).update(
            booking_number=None, number_year=None, number_sequence=None, created_at=now - timedelta(days=400 if i == 2 else 10 - i)
        )
    migration.number_existing(apps, None)
    numbers_now = dict(Reservation.objects.values_list("pk", "booking_number"))
    last_year = (timezone.localdate() - timedelta(days=400)).year % 100
    assert numbers_now[made[2].pk] == f"FLR-{last_year:02d}-0001"
    assert numbers_now[made[0].pk] == f"FLR-{YEAR():02d}-0001" and numbers_now[made[1].pk] == f"FLR-{YEAR():02d}-0002"


@pytest.mark.django_db
def test_the_thank_you_page_names_the_number(client, confirmed):
    page = client.get("/it/thank-you", {"reservation_id": confirmed.pk}).content.decode()
    assert f"<code data-booking-number>{confirmed.booking_number}</code>" in page and "Numero di prenotazione" in page
