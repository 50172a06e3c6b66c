"""Bookings made by the owner (docs/owner-bookings.md): staff hold a stay for a guest who phoned,
through the same hold service as every booking; the guest is emailed a payment link that works as
long as the hold, and pays on the ordinary (sandbox) checkout page."""

import re
from datetime import timedelta
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
import time_machine
from django.contrib.admin.utils import quote
from django.contrib.auth.models import Permission
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.payments.models import SandboxCheckout
from booking.reservations.models import Reservation, ReservationEvent
from booking.reservations.services import holds
from booking.reservations.services.holds import hold_stay
from tests.dates import future
from tests.payments.conftest import stripe_event

pytestmark = pytest.mark.django_db

BOOK = reverse("admin:reservations_reservation_book_for_guest")
PAYER = {"email": "anna.rossi@example.com", "name": "Anna Rossi", "phone": "+39 333 1234567"}


@pytest.fixture
def staff_client(client, django_user_model):
    """A Staff-role user: may view and change reservations (not a superuser)."""
    user = django_user_model.objects.create_user("giulia", "giulia@example.com", "a-long-test-password", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_reservation", "change_reservation"]))
    client.force_login(user)
    return client


def form(offset: int = 90, nights: int = 3, **changes) -> dict:
    data = {
        "check_in": str(future(offset)),
        "check_out": str(future(offset + nights)),
        "adults": "2",
        "children_ages": "",
        "first_name": "Anna",
        "last_name": "Rossi",
        "email": "anna.rossi@example.com",
        "phone": "+39 333 1234567",
        "language": "en",
        "special_price": "",
        "hold_hours": "24",
        "special_requests": "",
    }
    return {**data, **changes}


def book(client, django_capture_on_commit_callbacks, **changes):
    with django_capture_on_commit_callbacks(execute=True):  # the outbox delivers after commit
        return client.post(BOOK, form(**changes))


def money(value) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


def pay_through_the_link(client, reservation: Reservation, django_capture_on_commit_callbacks):
    """Follow the emailed link to the sandbox page and pay there, as the guest would."""
    link = re.search(r"https?://\S+/pay/\S+", mail.outbox[0].body)[0]
    opened = client.get(urlsplit(link).path)
    assert opened.status_code == 303, opened.content
    page = urlsplit(opened["Location"]).path
    assert client.get(page).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        paid = client.post(page, {**PAYER, "action": "pay"})
    assert paid.status_code == 303, paid.content
    reservation.refresh_from_db()
    return reservation


class TestBookingForAGuest:
    def test_the_list_offers_the_button_and_the_form_renders(self, staff_client, demo_property):
        assert BOOK in staff_client.get(reverse("admin:reservations_reservation_changelist")).content.decode()
        page = staff_client.get(BOOK)
        assert page.status_code == 200 and 'name="special_price"' in page.content.decode()

    def test_a_booking_holds_the_dates_emails_the_link_and_the_guest_pays_the_deposit(
        self, client, staff_client, demo_property, sandbox, django_capture_on_commit_callbacks
    ):
        response = book(staff_client, django_capture_on_commit_callbacks, children_ages="5, 14", adults="2")
        reservation = Reservation.objects.get()
        assert response.status_code == 302 and response["Location"] == reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)])
        assert (reservation.status, reservation.source, reservation.guests, reservation.children_ages) == ("held", "owner", 4, [5, 14])
        assert (reservation.guest_first_name, reservation.guest_email, reservation.language) == ("Anna", "anna.rossi@example.com", "en")
        assert abs(reservation.hold_expires_at - (timezone.now() + timedelta(hours=24))) < timedelta(minutes=1)
        # Who made it, in the reservation's history.
        hold = reservation.events.get(action="hold")
        assert hold.actor == "staff giulia"
        assert reservation.events.get(action="owner_booking").actor == "staff giulia"
        # The priced stay is the one a guest would get: 30 % now, the balance 30 days before arrival.
        deposit, balance = (money(entry["amount"]) for entry in reservation.payment_schedule)
        assert deposit + balance == reservation.total and deposit == money(reservation.total * Decimal("0.3"))
        [email] = mail.outbox
        assert email.to == ["anna.rossi@example.com"] and email.subject.startswith("[TEST] Your stay at")
        assert f"/pay/{reservation.pk}" in email.body
        assert f"{deposit:.2f} EUR" in email.body and f"{reservation.total:.2f} EUR" in email.body
        assert f"{balance:.2f} EUR" in email.body and "2 adults, 2 children aged 5, 14" in email.body
        assert OutboundEmail.objects.get().kind == OutboundEmail.Kind.PAYMENT_LINK

        paid = pay_through_the_link(client, reservation, django_capture_on_commit_callbacks)
        assert paid.status == "confirmed" and paid.amount_paid == deposit and paid.total == reservation.total
        assert paid.guest_phone == "+39 333 1234567" and paid.guest_last_name == "Rossi"  # given by the owner, kept
        assert any(m.subject.startswith("[TEST] Your stay at") and "confirmed" in m.subject for m in mail.outbox)

    def test_a_special_price_is_a_breakdown_line_the_city_tax_stays_and_the_guest_pays_it(
        self, client, staff_client, demo_property, sandbox, django_capture_on_commit_callbacks
    ):
        # A near stay is paid in full at once.
        book(staff_client, django_capture_on_commit_callbacks, offset=20, special_price="500.00", language="it")
        reservation = Reservation.objects.get()
        breakdown = reservation.price_breakdown
        city_tax = money(breakdown["city_tax"])
        assert city_tax == money(3.5 * 2 * 3)  # the law's tax, untouched
        assert reservation.total == Decimal("500.00") + city_tax
        [line] = breakdown["discounts"]
        assert line["kind"] == "host_price" and "label" not in line and line["percent"] is None  # data: its label is rendered when read
        lines = money(breakdown["accommodation"]) + money(breakdown["discount_amount"]) + money(breakdown["cleaning_fee"]) + city_tax
        assert lines == money(breakdown["total"]) == reservation.total
        assert money(line["amount"]) == Decimal("500.00") - money(breakdown["accommodation"]) - money(breakdown["cleaning_fee"])
        [email] = mail.outbox
        assert "Prezzo speciale dell’host" in email.body and "Paga qui:" in email.body

        paid = pay_through_the_link(client, reservation, django_capture_on_commit_callbacks)
        assert paid.status == "confirmed" and paid.amount_paid == paid.total == Decimal("500.00") + city_tax

    def test_dates_already_held_are_refused_and_nothing_is_left_behind(self, staff_client, demo_property, django_capture_on_commit_callbacks):
        taken = hold_stay(check_in=future(90), check_out=future(93), guests=2)
        events = ReservationEvent.objects.count()
        response = book(staff_client, django_capture_on_commit_callbacks, offset=91, nights=4)
        assert response.status_code == 200
        assert "holds some of these nights" in response.content.decode()
        assert list(Reservation.objects.all()) == [taken] and ReservationEvent.objects.count() == events
        assert not OutboundEmail.objects.exists() and not mail.outbox

    @pytest.mark.parametrize(
        "changes, message",
        [
            ({"adults": "9"}, "larger than the property sleeps"),
            ({"check_out": str(future(89))}, "departure must be after the arrival"),
            ({"children_ages": "5, 19"}, "from 0 to 17"),
            ({"email": "not-an-address"}, "valid email"),
            ({"hold_hours": "48"}, "less than or equal to 24"),
            ({"check_in": "9999-12-30", "check_out": "9999-12-31"}, "beyond the booking window"),  # was a 500 (OverflowError)
            ({"check_out": "9999-12-31"}, "at most 3660 nights"),
        ],
    )
    def test_the_party_and_the_form_are_checked_as_for_guests(self, staff_client, demo_property, changes, message):
        response = staff_client.post(BOOK, form(**changes))
        assert response.status_code == 200 and message in response.content.decode()
        assert not Reservation.objects.exists() and not OutboundEmail.objects.exists()

    @pytest.mark.parametrize(
        "price, message",
        [
            ("0", "greater than or equal to 0.01"),
            ("-10", "greater than or equal to 0.01"),
            ("abc", "Enter a number"),
            ("99999.00", "can only lower the price"),
            ("10.00", "must at least cover the cleaning fee"),
        ],
    )
    def test_a_special_price_is_validated_with_clear_form_errors(self, staff_client, demo_property, price, message):
        response = staff_client.post(BOOK, form(special_price=price))
        assert response.status_code == 200 and message in response.content.decode()
        assert not Reservation.objects.exists() and not OutboundEmail.objects.exists()


class TestWhoMayBook:
    def test_a_user_without_the_permission_is_refused(self, client, django_user_model, demo_property):
        user = django_user_model.objects.create_user("marco", "m@example.com", "a-long-test-password", is_staff=True)
        user.user_permissions.add(Permission.objects.get(codename="view_reservation"))
        client.force_login(user)
        assert BOOK not in client.get(reverse("admin:reservations_reservation_changelist")).content.decode()
        assert client.get(BOOK).status_code == 403
        assert client.post(BOOK, form()).status_code == 403
        assert not Reservation.objects.exists()

    def test_someone_not_logged_in_is_sent_to_the_login(self, client, demo_property):
        response = client.post(BOOK, form())
        assert response.status_code == 302 and "login" in response["Location"]
        assert not Reservation.objects.exists()


class TestTheLinkExpiresWithTheHold:
    def test_the_checkout_closes_when_the_hold_ends_and_afterwards_the_link_no_longer_pays(
        self, client, staff_client, demo_property, sandbox, django_capture_on_commit_callbacks
    ):
        book(staff_client, django_capture_on_commit_callbacks, hold_hours="3")
        reservation = Reservation.objects.get()
        held_until = reservation.hold_expires_at
        assert abs(held_until - (timezone.now() + timedelta(hours=3))) < timedelta(minutes=1)
        local = timezone.localtime(held_until)
        assert f"{local:%H:%M}" in mail.outbox[0].body and f"{local:%H:%M}" in mail.outbox[0].subject
        link = f"/pay/{reservation.pk}"
        with time_machine.travel(timezone.now() + timedelta(hours=1)):  # the guest opens it later
            assert client.get(link).status_code == 303
            [checkout] = SandboxCheckout.objects.all()
            assert abs(checkout.expires_at - held_until) < timedelta(seconds=1)
        reservation.refresh_from_db()
        assert reservation.hold_expires_at == held_until  # opening the page did not stretch the hold
        with time_machine.travel(held_until + timedelta(seconds=1)):
            gone = client.get(link)
            assert gone.status_code == 303 and gone["Location"].startswith("/thank-you")
            assert client.post(f"/api/v1/payments/sandbox/{checkout.pk}", {**PAYER, "action": "pay"}).status_code == 409
        assert Reservation.objects.get().status != "confirmed"


class TestInTheOwnersLanguage:
    @pytest.mark.parametrize(
        "language, title, refusal",
        [
            ("it", "Prenota per un ospite", "Un prezzo speciale può solo abbassare il prezzo"),
            ("de", "Für einen Gast buchen", "Ein Sonderpreis kann den Preis nur senken"),
            ("fr", "Réserver pour un client", "Un prix spécial ne peut que baisser le prix"),
        ],
    )
    def test_the_screen_and_its_errors_follow_the_back_office_language(self, staff_client, demo_property, language, title, refusal):
        assert title in staff_client.get(BOOK, headers={"accept-language": language}).content.decode()
        refused = staff_client.post(BOOK, form(special_price="99999"), headers={"accept-language": language})
        assert refusal in refused.content.decode() and not Reservation.objects.exists()


class TestWithStripe:
    def test_the_link_opens_a_stripe_checkout_for_the_deposit_that_closes_with_the_hold_and_paying_confirms(
        self, client, staff_client, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks
    ):
        book(staff_client, django_capture_on_commit_callbacks, special_price="600.00")
        reservation = Reservation.objects.get()
        assert not mail.outbox[0].subject.startswith("[TEST]") and "TEST PAYMENT" not in mail.outbox[0].body
        with time_machine.travel(timezone.now() + timedelta(hours=2)):
            opened = client.get(f"/pay/{reservation.pk}")
        assert opened.status_code == 303
        [session] = fake_stripe.sessions.values()
        assert opened["Location"] == session["url"]
        deposit = money(reservation.payment_schedule[0]["amount"])
        assert session["amount_total"] == int(deposit * 100) and session["metadata"]["reservation_id"] == reservation.pk
        assert abs(session["expires_at"] - reservation.hold_expires_at.timestamp()) < 1
        completed = fake_stripe.complete(session["id"])
        with django_capture_on_commit_callbacks(execute=True):
            assert webhook(stripe_event("checkout.session.completed", completed)).status_code == 200
        reservation.refresh_from_db()
        assert reservation.status == "confirmed" and reservation.amount_paid == deposit
        assert reservation.total == Decimal("600.00") + money(reservation.price_breakdown["city_tax"])


class TestOneHoldPath:
    def test_the_booking_is_made_by_hold_stay_under_the_calendar_lock(self, staff_client, demo_property, monkeypatch, django_capture_on_commit_callbacks):
        locked, hooks = [], []
        real_lock = holds.calendar_lock

        def spying_lock(property_id):
            locked.append(property_id)
            return real_lock(property_id)

        monkeypatch.setattr(holds, "calendar_lock", spying_lock)
        monkeypatch.setattr(holds, "_before_hold", [lambda: hooks.append("refreshed")])
        book(staff_client, django_capture_on_commit_callbacks)
        assert locked == [demo_property.pk] and hooks == ["refreshed"]
        assert Reservation.objects.get().status == "held"
