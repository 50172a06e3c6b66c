"""The price breakdown's computed words follow the reader's language: the cleaning-fee label (the
owner's translated field) and the city-tax note (one catalogue source, money the local way) on the
pages, the manage page and the emails; the JSON API keeps them English."""

import pytest
from django.core import mail

from booking.catalog import rules
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.payments.conftest import sandbox, stay  # noqa: F401 - sandbox is a fixture

pytestmark = pytest.mark.django_db

WORDS = {
    "it": ("Pulizia finale, biancheria e asciugamani", "3,50\xa0€ a persona a notte, per al massimo 7 notti, compresa nel totale"),
    "de": ("Endreinigung, Bettwäsche und Handtücher", "3,50\xa0€ pro Person und Nacht, für höchstens 7 Nächte, im Gesamtpreis enthalten"),
    "fr": ("Ménage final, linge de lit et serviettes", "par personne et par nuit, pour 7 nuits au plus, comprise dans le total"),
}
ENGLISH = ("Final cleaning, linen and towels", "3.50 EUR per person per night")


def confirmed_stay(api, language: str, django_capture_on_commit_callbacks) -> Reservation:
    from django.conf import settings

    body = api.post("/api/v1/payments/checkout-link", stay(offset=50, nights=3, success_url=f"{settings.BASE_URL}/{language}/thank-you")).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    assert reservation.language == language
    with django_capture_on_commit_callbacks(execute=True):
        confirm_reservation(reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi", phone=""), amount_paid=reservation.total)
    return Reservation.objects.get(pk=reservation.pk)


@pytest.mark.usefixtures("sandbox")
@pytest.mark.parametrize("language", ["it", "de", "fr"])
def test_the_confirmation_email_and_the_manage_page_say_them_in_the_guests_language(client, api, site, language, django_capture_on_commit_callbacks):
    reservation = confirmed_stay(api, language, django_capture_on_commit_callbacks)
    label, note = WORDS[language]
    guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
    [(html, _mimetype)] = guest.alternatives
    for text in (guest.body, html, client.get(f"/{language}/manage/{reservation.manage_token}").content.decode()):
        assert label in text and note in text
        assert ENGLISH[0] not in text and ENGLISH[1] not in text


@pytest.mark.parametrize("language", ["it", "de", "fr"])
def test_the_policies_and_prices_pages_say_them_in_the_pages_language(client, site, language):
    label, note = WORDS[language]
    for path in ("/booking-policies", "/availability"):
        page = client.get(f"/{language}{path}").content.decode()
        assert label in page and note in page, path
        assert "3.50 EUR" not in page and ENGLISH[0] not in page


def test_english_pages_write_the_tax_with_its_symbol_like_the_other_amounts(client, site):
    page = client.get("/booking-policies").content.decode()
    assert "€3.50 per person per night, for at most 7 nights, included in the total" in page and ENGLISH[0] in page


def test_the_api_stays_english_whichever_language_built_the_cached_rules(client, api, site):
    rules._cache.clear()
    assert client.get("/it/availability").status_code == 200  # the rules are built under Italian
    quote = api.post("/api/v1/quote", stay(offset=90, nights=7, guests=2)).json()
    assert quote["cleaning_fee_label"] == ENGLISH[0]
    assert quote["city_tax_note"].startswith(ENGLISH[1])
    listing = api.get("/api/v1/property").json()
    assert listing["pricing_rules"]["cleaning_fee_label"] == ENGLISH[0]
    assert [d["label"] for d in listing["pricing_rules"]["length_of_stay_discounts"]] == ["Weekly discount", "Monthly discount"]


def test_a_weekly_discount_reads_in_the_guests_language(api, site, django_capture_on_commit_callbacks, settings):
    settings.STRIPE_SECRET_KEY = ""
    body = api.post("/api/v1/payments/checkout-link", stay(offset=90, nights=7, success_url=f"{settings.BASE_URL}/it/thank-you")).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    with django_capture_on_commit_callbacks(execute=True):
        confirm_reservation(reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi", phone=""), amount_paid=reservation.total)
    guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
    assert "Sconto settimanale" in guest.body and "Weekly discount" not in guest.body
    assert api.get(f"/api/v1/reservations/{reservation.pk}").json()["price_breakdown"]["discount_label"] == "Weekly discount", "the API answers English"
