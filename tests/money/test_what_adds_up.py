"""Money adds up where the guest pays (DESIGN "Finishing what a guest and an owner see"): the
payment page's lines are the whole breakdown, extras included, they sum to the stay's total, and
the page names what is paid now beside it ("Deposit 30 % of …: …; balance … on …"). Stripe gets
one line item of exactly the amount charged, named so, whose description lists the lines."""

import re
from decimal import Decimal

import pytest
from django.utils import translation

from booking.catalog.payment_schedule import DEFERRED
from booking.formatting import format_date
from booking.payments.money_lines import checkout_item
from booking.reservations.models import Reservation
from tests.payments.conftest import stay

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"
OFFERS = {"guests": 2, "promo_code": "WELCOME10", "extras": [{"code": "airport_transfer", "quantity": 1}]}


def amounts(text: str, currency: str = "EUR") -> list[Decimal]:
    """ "720.00 EUR" and "-72.00 EUR" as written in English."""
    return [Decimal(found.replace(",", "")) for found in re.findall(rf"(-?[\d,]+\.\d\d) {currency}", text)]


def euro_amounts(text: str) -> list[Decimal]:
    """ "720,00 €", "−72,00 €" as written in German (a narrow no-break space may stand before €)."""
    found = re.findall(r"(−?[\d.]+,\d\d)\s*€", text)
    return [Decimal(value.replace("−", "-").replace(".", "").replace(",", ".")) for value in found]


def deferred(reservation: Reservation) -> dict:
    return next(entry for entry in reservation.payment_schedule if entry["type"] == DEFERRED)


def test_stripe_gets_one_line_of_the_amount_charged_naming_the_deposit_and_listing_every_line(api, demo_property, fake_stripe):
    body = api.post(LINK, stay(offset=90, **OFFERS)).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    [create] = fake_stripe.calls_to("POST", "/v1/checkout/sessions")
    form = create.form
    assert "line_items[1][quantity]" not in form  # one line: Stripe sums its lines into what it charges
    charged = Decimal(form["line_items[0][price_data][unit_amount]"]) / 100
    balance = deferred(reservation)
    assert charged == Decimal(str(body["amount"])) < reservation.total
    assert charged + Decimal(str(balance["amount"])) == reservation.total
    name = form["line_items[0][price_data][product_data][name]"]
    when = format_date(reservation.check_in.__class__.fromisoformat(balance["due_date"]), "j M Y", "en")
    assert name == f"Deposit 30 % of {reservation.total:.2f} EUR: {charged:.2f} EUR; balance {Decimal(str(balance['amount'])):.2f} EUR on {when}"
    description = form["line_items[0][price_data][product_data][description]"]
    assert "Airport transfer 60.00 EUR" in description and "Promo code" in description
    *lines, total = amounts(description)
    assert sum(lines) == total == reservation.total  # the lines add up to the stay, extras included
    assert form["locale"] == "en"


def test_the_sandbox_page_lists_every_line_summing_to_the_total_and_names_the_deposit_in_german(api, client, demo_property, sandbox):
    body = api.post(LINK, stay(offset=90, **OFFERS)).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    Reservation.objects.filter(pk=reservation.pk).update(language="de")
    html = client.get(body["checkout_url"].replace("http://testserver", "")).content.decode()
    table = html[html.index("<table") : html.index("</table>")]
    cells = re.findall(r"<td>([^<]*)</td><td class=\"amount\">([^<]*)</td>", table)
    labels = [label for label, _ in cells]
    assert "Flughafentransfer" in labels and "Endreinigung, Bettwäsche und Handtücher" in labels and "Kurtaxe" in labels
    values = euro_amounts(" ".join(value for _, value in cells))
    *lines, stay_total, paid_now = values
    assert sum(lines) == stay_total == reservation.total
    assert paid_now == Decimal(str(body["amount"]))
    balance = deferred(reservation)
    when = format_date(reservation.check_in.__class__.fromisoformat(balance["due_date"]), "j M Y", "de")
    sentence = re.search(r"data-paid-now>([^<]*)<", html)[1]
    with translation.override("de"):
        assert sentence.startswith("Anzahlung 30 % von ") and sentence.endswith(f" am {when}")
    assert euro_amounts(sentence) == [reservation.total, paid_now, Decimal(str(balance["amount"]))]
    assert "TESTZAHLUNG — es wird kein Geld bewegt" in html and "TEST PAYMENT" not in html and "no money moves" not in html
    assert "Final cleaning" not in html and "Total (test)" not in html


def test_the_words_of_stripes_line_follow_the_guests_language(api, demo_property, sandbox):
    body = api.post(LINK, stay(offset=90, **OFFERS)).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    reservation.language = "it"
    name, description = checkout_item(reservation, Decimal(str(body["amount"])))
    assert name.startswith("Acconto del 30 % su ") and "saldo" in name
    assert "Transfer dall'aeroporto" in description or "aeroporto" in description.lower()
    assert "Totale" in description


def test_the_english_sandbox_page_writes_the_sentence_as_its_lines(api, client, demo_property, sandbox):
    body = api.post(LINK, stay(offset=90, **OFFERS)).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    html = client.get(body["checkout_url"].replace("http://testserver", "")).content.decode()
    sentence = re.search(r"data-paid-now>([^<]*)<", html)[1]
    balance = deferred(reservation)
    when = format_date(reservation.check_in.__class__.fromisoformat(balance["due_date"]), "j M Y", "en")
    paid_now = Decimal(str(body["amount"]))
    assert sentence == f"Deposit 30 % of €{reservation.total:,.2f}: €{paid_now:,.2f}; balance €{Decimal(str(balance['amount'])):,.2f} on {when}"
    assert "Airport transfer" in html and f"€{reservation.total:,.2f}" in html and "Paid now (test)" in html
