"""A numbered receipt (per calendar year) for every payment: a PDF on the guest's page, attached to
the payment's email, in the guest's language, with the city tax on its own line."""

import re
import zlib
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from booking.formatting import format_money
from booking.payments.models import Receipt
from booking.payments.receipt_pdf import ReceiptDocument, render
from booking.payments.services.balance_charges import charge_due_balances
from booking.payments.services.receipts import receipt_document
from booking.reservations.models import Reservation
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"


def book(api, fake_stripe, webhook, *, offset=90, language_prefix="") -> Reservation:
    body = api.post(f"{language_prefix}{LINK}", stay(offset=offset, nights=3, guests=2)).json()
    session = fake_stripe.complete(body["session_id"], email="guest@example.com")
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"])


def test_deposit_and_balance_each_get_the_next_number_of_the_year(api, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        reservation = book(api, fake_stripe, webhook)
    year = timezone.localdate().year
    [deposit] = Receipt.objects.all()
    assert deposit.number == f"{year}/0001" and deposit.payment.kind == "deposit"
    [confirmation] = [m for m in mail.outbox if m.to == ["guest@example.com"] and "confirmed" in m.subject]
    [(name, pdf, kind)] = [a for a in confirmation.attachments if a[0].endswith(".pdf")]  # beside stay.ics
    assert (name, kind) == (f"receipt-{year}-0001.pdf", "application/pdf") and pdf.startswith(b"%PDF")
    due = reservation.check_in - timedelta(days=30)
    with time_machine.travel(timezone.make_aware(timezone.datetime.combine(due, timezone.datetime.min.time())) + timedelta(hours=9), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            assert charge_due_balances() == {"charged": 1}
    balance = Receipt.objects.get(payment__kind="balance")
    assert (balance.year, balance.sequence) == (due.year, 1 if due.year != year else 2)
    [paid_email] = [m for m in mail.outbox if "Payment received" in m.subject]
    assert paid_email.attachments[0][0] == f"receipt-{balance.year}-{balance.sequence:04d}.pdf"


def test_the_pdf_is_on_the_guests_page_and_nowhere_else(api, client, demo_property, fake_stripe, webhook):
    reservation = book(api, fake_stripe, webhook)
    receipt = Receipt.objects.get()
    url = f"/manage/{reservation.manage_token}/receipts/{receipt.year}/{receipt.sequence:04d}.pdf"
    assert url in client.get(f"/manage/{reservation.manage_token}").content.decode()
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf" and answer.content.startswith(b"%PDF")
    assert answer["Referrer-Policy"] == "no-referrer" and "no-store" in answer["Cache-Control"]
    other = book(api, fake_stripe, webhook, offset=120)
    assert client.get(f"/manage/{other.manage_token}/receipts/{receipt.year}/{receipt.sequence:04d}.pdf").status_code == 404


def test_the_receipt_lines_city_tax_and_stamp_duty(api, demo_property, fake_stripe, webhook):
    demo_property.receipt_stamp_duty = True
    demo_property.receipt_tax_code = "RSSMRA80A01D612X"
    demo_property.receipt_host_address = "Via dei Pepi 42\n50122 Firenze"
    demo_property.save()
    reservation = book(api, fake_stripe, webhook)
    document = receipt_document(Receipt.objects.get())
    labels = [label for label, _ in document.price_lines]
    assert any(label.startswith("City tax, collected on behalf of the municipality of Florence") for label in labels)
    assert "Tax code: RSSMRA80A01D612X" in document.host_lines
    assert any("Stamp duty" in note for note in document.notes)  # the deposit is over 77.47 EUR
    kind_line, paid_line, due_line = document.payment_lines
    assert kind_line[0].startswith("Deposit paid on") and due_line[0] == "Still due"
    assert reservation.guest_email in document.guest_lines


def test_in_the_guests_language(api, demo_property, fake_stripe, webhook):
    reservation = book(api, fake_stripe, webhook)
    Reservation.objects.filter(pk=reservation.pk).update(language="it")
    from booking.payments.services.receipts import receipt_pdf

    receipt = Receipt.objects.get()
    from django.utils import translation

    with translation.override("it"):
        document = receipt_document(receipt)
    assert document.title.startswith("Ricevuta")
    assert receipt_pdf(receipt).startswith(b"%PDF")


def test_extras_have_their_own_lines(api, demo_property, fake_stripe, webhook):
    body = api.post(LINK, {**stay(offset=90, nights=3, guests=2), "extras": [{"code": "airport_transfer", "quantity": 2}]}).json()
    session = fake_stripe.complete(body["session_id"], email="guest@example.com")
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    document = receipt_document(Receipt.objects.get())
    [extra] = [(label, amount) for label, amount in document.price_lines if label.endswith("× 2")]
    assert extra[0].startswith("Airport transfer") and "120" in extra[1]


@pytest.mark.parametrize(("language", "amount"), [("en", "€1,234.50"), ("it", "1.234,50\u00a0€"), ("de", "1.234,50\u00a0€"), ("fr", "1\u202f234,50\u00a0€")])
def test_amounts_are_written_with_the_euro_sign_as_in_the_guests_other_documents(language, amount):
    written = format_money(Decimal("1234.50"), "EUR", language)
    assert written.replace("\u202f", "\u00a0") == amount.replace("\u202f", "\u00a0")
    document = ReceiptDocument("Receipt 2027/0001", "1 May 2027", ["Host"], ["Guest"], ["Stay"], [("Total", written)], [("This payment", written)], [])
    pdf = render(document)
    text = b"".join(zlib.decompress(stream) for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S) if stream[:1] == b"x")
    shown = written.replace("\u202f", "\u00a0").encode("cp1252")
    assert shown in text and b"EUR" not in text  # "\x80" is the euro sign in WinAnsiEncoding
