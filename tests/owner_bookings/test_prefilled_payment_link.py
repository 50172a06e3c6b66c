"""The payment link the owner sends for a booking made for a guest opens a checkout with the
guest's name, email and phone already filled in (booking/payments/guest_prefill.py); /pay/<id>
alone, or with a token that is not this reservation's, shows no personal data."""

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.urls import reverse

from booking.payments import guest_prefill
from booking.reservations.models import Reservation
from tests.dates import future

pytestmark = pytest.mark.django_db
BOOK = reverse("admin:reservations_reservation_book_for_guest")
GUEST = {"first_name": "Anna", "last_name": "Rossi", "email": "anna.rossi@example.com", "phone": "+39 333 1234567"}


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_user("giulia", "giulia@example.com", "a-long-test-password", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_reservation", "change_reservation"]))
    client.force_login(user)
    return client


@pytest.fixture
def booked(staff_client, demo_property, sandbox, django_capture_on_commit_callbacks) -> Reservation:
    data = {"check_in": str(future(90)), "check_out": str(future(93)), "adults": "2", "children_ages": "", "language": "en"}
    data |= {"special_price": "", "hold_hours": "24", "special_requests": "", **GUEST}
    with django_capture_on_commit_callbacks(execute=True):
        assert staff_client.post(BOOK, data).status_code == 302
    staff_client.logout()  # from here on, the guest's browser
    return Reservation.objects.get(guest_email=GUEST["email"])


def emailed_link() -> str:
    return re.search(r"https?://\S+/pay/\S+", mail.outbox[0].body)[0]


def checkout_page(client, pay_path: str) -> str:
    opened = client.get(pay_path)
    assert opened.status_code == 303, opened.content
    page = client.get(opened["Location"])
    assert page.status_code == 200
    return page.content.decode()


def shows_the_guest(html: str) -> bool:
    return all(f'value="{value}"' in html for value in ("anna.rossi@example.com", "Anna Rossi", "+39 333 1234567"))


def shows_nothing_of_the_guest(html: str) -> bool:
    return not any(value in html for value in ("anna.rossi@example.com", "Rossi", "333 1234567"))


def test_the_emailed_link_carries_a_token_and_opens_the_checkout_filled_in(client, booked):
    link = urlsplit(emailed_link())
    assert link.path == f"/pay/{booked.pk}" and link.query.startswith(f"{guest_prefill.QUERY}=")
    assert shows_the_guest(checkout_page(client, f"{link.path}?{link.query}"))


def test_the_pay_page_without_the_token_shows_no_personal_data(client, booked):
    assert shows_nothing_of_the_guest(checkout_page(client, f"/pay/{booked.pk}"))


def test_a_forged_token_or_one_for_another_reservation_fills_nothing_in(client, booked, demo_property):
    from booking.reservations.services.holds import hold_stay

    other = hold_stay(check_in=future(120), check_out=future(123), guests=2)
    link = urlsplit(emailed_link())
    forged = link.query[:-3] + ("abc" if not link.query.endswith("abc") else "xyz")
    assert shows_nothing_of_the_guest(checkout_page(client, f"{link.path}?{forged}"))
    someone_elses = guest_prefill.prefill_token(other.pk)
    assert shows_nothing_of_the_guest(checkout_page(client, f"/pay/{booked.pk}?guest={someone_elses}"))


def test_the_checkout_page_itself_prefills_only_with_this_reservations_token(client, booked):
    checkout_page(client, f"/pay/{booked.pk}")  # opens the checkout
    booked.refresh_from_db()
    page = urlsplit(booked.checkout_url).path
    assert shows_the_guest(client.get(page, {"guest": guest_prefill.prefill_token(booked.pk)}).content.decode())
    assert shows_nothing_of_the_guest(client.get(page).content.decode())
    assert shows_nothing_of_the_guest(client.get(page, {"guest": guest_prefill.prefill_token("res_someoneelse")}).content.decode())


def test_the_token_is_the_reservations_alone_and_the_same_in_every_email(booked):
    token = guest_prefill.prefill_token(booked.pk)
    assert token == guest_prefill.prefill_token(booked.pk) and token not in guest_prefill.prefill_token("res_someoneelse")
    assert guest_prefill.token_opens(token, booked.pk) and not guest_prefill.token_opens(token, "res_someoneelse")
    assert not guest_prefill.token_opens("", booked.pk) and not guest_prefill.token_opens(None, booked.pk)


def test_with_stripe_the_token_gives_the_checkout_the_guests_email_and_only_then(client, demo_property, fake_stripe):
    from booking.reservations.services.holds import GuestDetails, hold_stay

    guest = GuestDetails("Anna", "Rossi", "anna.rossi@example.com", "")
    first = hold_stay(check_in=future(90), check_out=future(93), guests=2, guest=guest)
    second = hold_stay(check_in=future(100), check_out=future(103), guests=2, guest=guest)
    assert client.get(f"/pay/{first.pk}", {"guest": guest_prefill.prefill_token(first.pk)}).status_code == 303
    assert client.get(f"/pay/{second.pk}").status_code == 303
    sent = [call.form for call in fake_stripe.calls_to("POST", "/v1/checkout/sessions")]
    assert [form.get("customer_email") for form in sent] == ["anna.rossi@example.com", None]
