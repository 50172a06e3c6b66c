"""The price breakdown a reservation keeps is data (discount kinds with their percent, amount and
code; extra codes and quantities; city-tax terms), never words: its labels are rendered when read,
in the reader's language (pages, emails, the back office) and in English in the JSON API, MCP and
A2A, whatever the language the stay was booked in (issue #39)."""

import importlib

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.utils.translation import override

from booking.catalog.breakdown_words import read_breakdown
from booking.demo import load_offers
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.booking.test_back_office import change_page
from tests.pages.conftest import site  # noqa: F401 (a fixture)
from tests.payments.conftest import sandbox, stay  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sandbox")]

ITALIAN_LINE = {"label": "Codice promozionale", "percent": 10.0, "amount": -50.0, "code": "WELCOME10"}
ENGLISH_NOTE = "3.50 EUR per person per night, for at most 7 nights, included in the total"


@pytest.fixture
def italian_stay(api, site, django_capture_on_commit_callbacks):  # noqa: F811
    """A week booked on /it/ with the weekly discount, the promo code and an airport transfer, confirmed."""
    load_offers(site)
    body = stay(offset=90, nights=7, promo_code="WELCOME10", extras=[{"code": "airport_transfer", "quantity": 1}])
    answer = api.post("/api/v1/payments/checkout-link", body | {"success_url": f"{settings.BASE_URL}/it/thank-you"})
    assert answer.status_code == 200, answer.content
    reservation = Reservation.objects.get(pk=answer.json()["reservation_id"])
    assert reservation.language == "it"
    with django_capture_on_commit_callbacks(execute=True):
        confirm_reservation(reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi", phone=""), amount_paid=reservation.total)
    return Reservation.objects.get(pk=reservation.pk)


def test_the_stored_breakdown_is_data_without_words(italian_stay):
    stored = italian_stay.price_breakdown
    assert [(d["kind"], d["code"]) for d in stored["discounts"]] == [("length_of_stay", None), ("promo", "WELCOME10")]
    assert stored["discounts"][0]["min_nights"] == 7
    assert stored["extras"] == [{"code": "airport_transfer", "quantity": 1, "amount": 60.0}]
    assert stored["city_tax_terms"] == {"rate": "3.50", "currency": "EUR", "max_nights": 7, "exempt_under_age": 12, "taxed": None, "guests": None} or (
        stored["city_tax_terms"]["rate"] == "3.50" and stored["city_tax_terms"]["max_nights"] == 7
    )
    assert not {"discount_label", "cleaning_fee_label", "city_tax_note"} & set(stored)
    assert all("label" not in line for line in stored["discounts"] + stored["extras"])


def test_the_api_answers_an_italian_booking_in_english(api, italian_stay):
    breakdown = api.get(f"/api/v1/reservations/{italian_stay.pk}").json()["price_breakdown"]
    assert breakdown["discount_label"] == "Weekly discount + Promo code"
    assert [d["label"] for d in breakdown["discounts"]] == ["Weekly discount", "Promo code"]
    assert [(e["code"], e["label"], e["quantity"]) for e in breakdown["extras"]] == [("airport_transfer", "Airport transfer", 1)]
    assert breakdown["city_tax_note"].startswith(ENGLISH_NOTE)
    assert breakdown["cleaning_fee_label"] == "Final cleaning, linen and towels"
    assert set(breakdown) >= {"nights", "accommodation", "discount_percent", "discount_amount", "cleaning_fee", "city_tax", "extras_total", "total", "currency"}


def test_the_italian_guests_confirmation_has_italian_labels(italian_stay):
    guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
    [(html, _mimetype)] = guest.alternatives
    for text in (guest.body, html):
        assert "Sconto settimanale" in text and "Codice promozionale" in text and "Transfer dall" in text
        assert "Weekly discount" not in text and "Promo code" not in text and "Airport transfer" not in text
        assert "per person per night" not in text


def test_the_english_back_office_and_the_owners_email_have_english_labels(admin_client, italian_stay):
    page = admin_client.get(change_page(italian_stay), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Weekly discount" in page and "Promo code" in page and "Airport transfer" in page
    assert "Codice promozionale" not in page and "Sconto settimanale" not in page
    owner = next(m for m in mail.outbox if m.to != ["anna@example.com"])
    assert "Extras:      Airport transfer" in owner.body and "Transfer dall" not in owner.body


@pytest.mark.parametrize(
    ("language", "words"),
    [("it", "a persona a notte"), ("de", "pro Person und Nacht"), ("fr", "par personne et par nuit")],
)
def test_the_city_tax_note_is_in_the_readers_language(italian_stay, language, words):
    with override(language):
        note = read_breakdown(italian_stay.price_breakdown, italian_stay.property)["city_tax_note"]
    assert words in note and "per person per night" not in note


def test_a_breakdown_stored_with_italian_words_is_rewritten_as_data(api, italian_stay):
    """Reservations held before the change kept labels in the booking's language and an English note."""
    old = dict(italian_stay.price_breakdown)
    old["discounts"] = [{"label": "Sconto settimanale", "percent": 10.0, "amount": -84.0, "code": None}, ITALIAN_LINE]
    old["extras"] = [{"code": "airport_transfer", "label": "Transfer dall'aeroporto", "quantity": 1, "amount": 60.0}]
    old["discount_label"] = "Sconto settimanale + Codice promozionale"
    old["cleaning_fee_label"] = "Final cleaning, linen and towels"
    old["city_tax_note"] = ENGLISH_NOTE + "; children under 12 are exempt when their ages are given at booking"
    old.pop("city_tax_terms")
    Reservation.objects.filter(pk=italian_stay.pk).update(price_breakdown=old)

    name = "0003_breakdowns_as_data"
    migration = importlib.import_module(f"booking.reservations.migrations.{name}")
    migration.breakdowns_to_data(MigrationLoader(connection).project_state(("reservations", name)).apps, None)

    stored = Reservation.objects.get(pk=italian_stay.pk).price_breakdown
    assert [d["kind"] for d in stored["discounts"]] == ["length_of_stay", "promo"]
    assert stored["city_tax_terms"]["rate"] == "3.50" and stored["city_tax_terms"]["exempt_under_age"] == 12
    breakdown = api.get(f"/api/v1/reservations/{italian_stay.pk}").json()["price_breakdown"]
    assert breakdown["discount_label"] == "Weekly discount + Promo code"
    assert [e["label"] for e in breakdown["extras"]] == ["Airport transfer"]
    assert breakdown["city_tax_note"].startswith(ENGLISH_NOTE)
