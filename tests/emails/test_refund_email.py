"""Emails tell what happened to money (DESIGN "Finishing what a guest and an owner see"): the
confirmation of a deposit booking names what was paid, the balance and its charge date, and the
online check-in link; every refund staff make is emailed to the guest with its amount and what
stays paid; a later cancellation tells the earlier refund apart from its own; the owner's copy is
in the owner's language, extras included."""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.core import mail

from booking.catalog.payment_schedule import DEFERRED
from booking.formatting import format_date
from booking.payments.models import ProviderRefund
from booking.payments.services import refunds
from booking.payments.services.cancellation import cancel_stay
from booking.reservations.models import Reservation
from tests.money.test_refunds_follow_payments import paid_in_two
from tests.payments.conftest import fake_stripe, sandbox, stay, webhook  # noqa: F401

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"
PAYER = {"action": "pay", "email": "greta@example.com", "name": "Greta Weber", "phone": "+49 30 1234567"}
OFFERS = {"guests": 2, "promo_code": "WELCOME10", "extras": [{"code": "airport_transfer", "quantity": 1}]}


@pytest.fixture
def paid_deposit(api, client, demo_property, sandbox, django_capture_on_commit_callbacks):  # noqa: F811
    body = api.post(LINK, stay(offset=90, **OFFERS)).json()
    Reservation.objects.filter(pk=body["reservation_id"]).update(language="de")
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(body["checkout_url"].replace("http://testserver", ""), PAYER).status_code == 303
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    assert reservation.status == "confirmed" and reservation.amount_paid < reservation.total
    return reservation


def guest_mails(reservation):
    return [m for m in mail.outbox if m.to == [reservation.guest_email]]


def test_the_confirmation_names_the_amount_paid_the_balance_its_date_and_the_check_in_link(paid_deposit):
    reservation = paid_deposit
    [confirmation] = [m for m in guest_mails(reservation) if "bestätigt" in m.subject]
    balance = next(entry for entry in reservation.payment_schedule if entry["type"] == DEFERRED)
    owed = reservation.total - reservation.amount_paid
    assert Decimal(str(balance["amount"])) == owed
    when = format_date(date.fromisoformat(balance["due_date"]), "j M Y", "de")
    owed_words = f"{owed:.2f}".replace(".", ",")
    body = confirmation.body
    assert re.search(rf"Restbetrag: {owed_words}\s*€, am {re.escape(when)} von der Karte abgebucht", body), body
    assert f"{reservation.amount_paid:.2f}".replace(".", ",") in body
    assert f"/de/manage/{reservation.manage_token}/check-in" in body
    html = confirmation.alternatives[0][0]
    assert "data-balance" in html and when in html and f"/manage/{reservation.manage_token}/check-in" in html


def test_a_staff_refund_is_emailed_with_its_amount_and_what_stays_paid(paid_deposit, django_capture_on_commit_callbacks):
    reservation = paid_deposit
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        refunds.refund_payment(reservation.pk, actor="staff anna", amount=Decimal("50.00"), reason="Goodwill: the lift was out")
    [refund_mail] = guest_mails(reservation)
    still = reservation.amount_paid - Decimal("50.00")
    assert "50,00" in refund_mail.subject and refund_mail.subject.startswith("[TEST]")
    body = refund_mail.body
    assert "wir haben 50,00" in body and "Goodwill: the lift was out" in body
    assert re.search(rf"Bleibt bezahlt:\s+{f'{still:.2f}'.replace('.', ',')}\s*€", body), body
    # A second refund is a second email.
    with django_capture_on_commit_callbacks(execute=True):
        refunds.refund_payment(reservation.pk, actor="staff anna", amount=Decimal("10.00"))
    assert len(guest_mails(reservation)) == 2


def test_a_cancellation_after_a_staff_refund_tells_the_two_apart(paid_deposit, client, django_capture_on_commit_callbacks):
    reservation = paid_deposit
    with django_capture_on_commit_callbacks(execute=True):
        refunds.refund_payment(reservation.pk, actor="staff anna", amount=Decimal("50.00"))
    page = client.get(f"/de/manage/{reservation.manage_token}/cancel").content.decode()
    assert "Bereits erstattet: 50,00" in page and "diese Stornierung erstattet" in page
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        cancel_stay(reservation.pk, actor="guest (manage link)", by_guest=True)
    after = Reservation.objects.get(pk=reservation.pk)
    by_cancellation = after.amount_refunded - Decimal("50.00")
    [cancelled] = [m for m in guest_mails(after) if "storniert" in m.subject]
    assert "Vor der Stornierung erstattet: 50,00" in cancelled.body
    assert f"Erstattet:    {by_cancellation:.2f}".replace(".", ",") in cancelled.body
    page = client.get(f"/de/manage/{reservation.manage_token}?cancelled=1").content.decode()
    assert "bereits 50,00" in page and f"{after.amount_refunded:.2f}".replace(".", ",") + "\u00a0€ wurden" not in page


def test_the_owners_copy_is_in_the_owners_language_extras_too(paid_deposit, settings):
    owner = [m for m in mail.outbox if m.to != [paid_deposit.guest_email]]
    assert owner and all("Flughafentransfer" not in m.body for m in owner)
    assert any("Extras:      Airport transfer" in m.body for m in owner)


def test_a_refund_spread_over_the_deposit_and_the_balance_is_one_email(api, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks):  # noqa: F811
    reservation, _, balance_intent = paid_in_two(api, fake_stripe, webhook)
    balance_paid = reservation.payments.get(provider_id=balance_intent).amount
    amount = balance_paid + Decimal("10.00")  # more than the newest payment: two provider refunds
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        refunds.refund_payment(reservation.pk, actor="staff anna", amount=amount)
    assert ProviderRefund.objects.filter(reservation=reservation, status="succeeded").count() == 2
    [refund_mail] = [m for m in guest_mails(reservation) if "refund" in m.subject]
    assert f"we have refunded {amount:.2f} EUR" in refund_mail.body
    assert re.search(rf"Still paid:\s+{reservation.total - amount:.2f} EUR", refund_mail.body), refund_mail.body
