"""The refundable security deposit (demo: 300 EUR, held 1 day before check-in, released 3 days after
check-out): a card authorisation on the saved card, renewed before Stripe's 7-day lapse, released,
or claimed by staff with a reason. Time moves by --as-of dates; the provider is the Stripe fake."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from booking.models import Reservation, SecurityDeposit
from booking.services.security_deposits import place_security_deposits, release_security_deposits
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"


def book(api, fake_stripe, webhook, *, nights=3, card="pm_card_visa") -> Reservation:
    body = api.post(LINK, stay(offset=20, nights=nights, guests=2)).json()  # paid in full (within 30 days)
    session = fake_stripe.complete(body["session_id"], email="guest@example.com", card=card)
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"])


def holds(fake_stripe):
    return [c for c in fake_stripe.calls_to("POST", "/v1/payment_intents") if c.form.get("capture_method") == "manual"]


def test_the_hold_is_placed_the_day_before_arrival_and_released_three_days_after(api, demo_property, fake_stripe, webhook):
    reservation = book(api, fake_stripe, webhook)
    assert reservation.accepted_terms["security_deposit"] == "300.00"
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=2)) == {"not_due": 1}
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=1)) == {"placed": 1}
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=1)) == {"done_today": 1}  # run twice
    [call] = holds(fake_stripe)
    assert (call.form["amount"], call.form["off_session"], call.form["confirm"]) == ("30000", "true", "true")
    [deposit] = reservation.security_deposits.all()
    assert deposit.status == "held" and fake_stripe.payment_intents[deposit.provider_id]["status"] == "requires_capture"
    assert release_security_deposits(as_of=reservation.check_out + timedelta(days=2)) == {}
    assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {"released": 1}
    deposit.refresh_from_db()
    assert deposit.status == "released" and fake_stripe.payment_intents[deposit.provider_id]["status"] == "canceled"
    assert release_security_deposits(as_of=reservation.check_out + timedelta(days=4)) == {}


def test_a_ten_night_stay_is_renewed_before_the_hold_lapses(api, demo_property, fake_stripe, webhook):
    reservation = book(api, fake_stripe, webhook, nights=10)
    day = reservation.check_in - timedelta(days=1)
    release_on = reservation.check_out + timedelta(days=3)
    while day < release_on:
        call_command("place_security_deposits", "--as-of", str(day))
        call_command("release_security_deposits", "--as-of", str(day))
        held = reservation.security_deposits.get(status="held")
        assert (day - held.placed_on).days < SecurityDeposit.LAPSES_AFTER_DAYS  # never relying on a lapsed hold
        day += timedelta(days=1)
    call_command("release_security_deposits", "--as-of", str(release_on))
    statuses = list(reservation.security_deposits.values_list("status", flat=True))
    assert statuses == ["renewed", "renewed", "released"]  # placed, renewed twice over 14 days, released
    assert all(fake_stripe.payment_intents[d.provider_id]["status"] == "canceled" for d in reservation.security_deposits.all())


def test_a_refused_card_flags_the_stay_and_keeps_it(api, demo_property, fake_stripe, webhook):
    reservation = book(api, fake_stripe, webhook, card="pm_card_chargeCustomerFail")
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=1)) == {"failed": 1}
    reservation.refresh_from_db()
    assert reservation.status == "confirmed" and "Security deposit" in reservation.needs_attention


def test_no_hold_when_the_owner_switched_it_off_before_booking(api, demo_property, fake_stripe, webhook):
    demo_property.security_deposit = Decimal("0")
    demo_property.save()
    reservation = book(api, fake_stripe, webhook)
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=1)) == {"not_due": 1}


@pytest.fixture
def staff(client, django_user_model):
    def login(*codenames):
        user = django_user_model.objects.create_user(f"marco{len(codenames)}", "marco@example.com", "a-long-test-password", is_staff=True)
        user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
        client.force_login(user)
        return client

    return login


def test_staff_claim_part_with_a_reason_and_the_guest_is_emailed(api, demo_property, fake_stripe, webhook, staff, django_capture_on_commit_callbacks):
    reservation = book(api, fake_stripe, webhook)
    place_security_deposits(as_of=reservation.check_in - timedelta(days=1))
    deposit = reservation.security_deposits.get()
    url = reverse("admin:booking_securitydeposit_claim", args=[deposit.pk])
    assert staff("view_securitydeposit").post(url, {"amount": "80", "reason": "x"}).status_code == 403  # needs the refund permission
    client = staff("view_securitydeposit", "change_securitydeposit", "refund_reservation")
    assert client.get(url).status_code == 200
    assert client.post(url, {"amount": "300.01", "reason": "too much"}).status_code == 302
    deposit.refresh_from_db()
    assert deposit.status == "held"  # refused: more than is held
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"amount": "80", "reason": "A broken glass table on the terrace."}).status_code == 302
    deposit.refresh_from_db()
    assert (deposit.status, deposit.claimed_amount) == ("claimed", Decimal("80.00"))
    intent = fake_stripe.payment_intents[deposit.provider_id]
    assert (intent["status"], intent["amount_received"]) == ("succeeded", 8000)
    [email] = [m for m in mail.outbox if m.to == ["guest@example.com"] and "Security deposit" in m.subject]
    assert "broken glass table" in email.body and "80" in email.body
    assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {}  # nothing left to release
