"""Come back to your own hold (issue 34 item 2): the browser that made a hold on /book (a signed
cookie set by the checkout-link answer to our own page) finds it there with the time it lapses, a
way to continue to payment and a way to release it; everyone else sees the dates on hold until
that time. A released, paid or lapsed hold is no longer shown."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone

from booking.api import own_holds
from booking.formatting import time_with_date
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.conftest import future
from tests.pages.test_booking_page import config_of

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"
ROME = ZoneInfo("Europe/Rome")
SAME_ORIGIN = {"Sec-Fetch-Site": "same-origin"}


def hold_from_the_page(client, offset=40, nights=3) -> Reservation:
    body = {"check_in": str(future(offset)), "check_out": str(future(offset + nights)), "guests": 2}
    answer = client.post(LINK, body, content_type="application/json", headers=SAME_ORIGIN)
    assert answer.status_code == 200, answer.content
    return Reservation.objects.get(pk=answer.json()["reservation_id"])


def own_notice(html: str) -> str:
    found = re.search(r"<div class=\"notice notice-info own-hold\" data-own-hold=\"[^\"]+\">(.*?)</div>", html, flags=re.S)
    return found.group(1) if found else ""


def others_notice(html: str) -> str:
    found = re.search(r"<div class=\"notice notice-info\" data-other-holds>(.*?)</div>", html, flags=re.S)
    return found.group(1) if found else ""


def book_page(client, path="/book") -> str:
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def local_time(reservation: Reservation, language: str = "en") -> str:
    """The time as the page writes it: with its date when the hold lapses after midnight."""
    return time_with_date(reservation.hold_expires_at, language)


def test_the_browser_that_held_the_dates_can_continue_or_release_them(client, site):
    reservation = hold_from_the_page(client)
    cookie = client.cookies[own_holds.COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and 0 < int(cookie["max-age"]) <= 3600
    html = book_page(client)
    notice = own_notice(html)
    assert f"are held for you until {local_time(reservation)}" in notice
    assert f'href="/pay/{reservation.pk}"' in notice and f'data-release-hold="{reservation.pk}"' in notice
    assert others_notice(html) == "", "one's own hold is not another guest's"
    # The calendar says why its nights cannot be chosen: the guest's own hold, not "already booked".
    assert config_of(html)["holds"] == [{"from": str(future(40)), "to": str(future(43)), "until": local_time(reservation), "mine": True}]

    # Continue to payment: the hold's own checkout, the same one (no second way to pay).
    continued = client.get(f"/pay/{reservation.pk}")
    assert continued.status_code == 303 and continued["Location"] == reservation.checkout_url


def test_another_browser_sees_the_dates_on_hold_until_they_lapse(client, site):
    reservation = hold_from_the_page(client)
    html = book_page(Client())
    assert own_notice(html) == ""
    assert f"on hold for another guest until {local_time(reservation)}" in others_notice(html)
    assert config_of(html)["holds"] == [{"from": str(future(40)), "to": str(future(43)), "until": local_time(reservation), "mine": False}]


def test_a_forged_or_foreign_cookie_claims_nothing(client, site):
    reservation = hold_from_the_page(client)
    for value in (reservation.pk, signing.get_cookie_signer(salt="another.purpose").sign(reservation.pk)):
        stranger = Client()
        stranger.cookies[own_holds.COOKIE] = value
        html = book_page(stranger)
        assert own_notice(html) == "" and "on hold for another guest" in others_notice(html)


def test_an_agent_gets_no_cookie(client, site):
    answer = client.post(LINK, {"check_in": str(future(40)), "check_out": str(future(43)), "guests": 2}, content_type="application/json")
    assert answer.status_code == 200 and own_holds.COOKIE not in answer.cookies


def test_a_released_hold_is_shown_no_more_and_the_cookie_forgets_it(client, site):
    reservation = hold_from_the_page(client)
    assert client.delete(f"/api/v1/reservations/{reservation.pk}").status_code == 200
    response = client.get("/book")
    html = response.content.decode()
    assert own_notice(html) == "" and others_notice(html) == ""
    assert response.cookies[own_holds.COOKIE].value == "", "the cookie is deleted"


def test_a_paid_hold_is_shown_no_more(client, site):
    reservation = hold_from_the_page(client)
    confirm_reservation(reservation.pk, actor="test", payer=Payer(email="guest@example.com"), amount_paid=reservation.total)
    html = book_page(client)
    assert own_notice(html) == "" and others_notice(html) == ""


def test_a_lapsed_hold_is_shown_no_more(client, site):
    reservation = hold_from_the_page(client)
    Reservation.objects.filter(pk=reservation.pk).update(hold_expires_at=timezone.now() - timedelta(seconds=1))
    html = book_page(client)
    assert own_notice(html) == "" and others_notice(html) == ""


def test_two_holds_of_one_browser_and_the_words_in_italian(client, site):
    first, second = hold_from_the_page(client, offset=40), hold_from_the_page(client, offset=60)
    html = book_page(client, "/it/book")
    assert html.count("data-own-hold=") == 2
    assert f"sono riservate per te fino alle {local_time(first, 'it')}" in html
    assert "Continua con il pagamento" in html and "Rilasciale" in html
    assert second.pk in html


def test_back_from_a_cancelled_payment_the_hold_being_released_is_not_offered(client, site):
    reservation = hold_from_the_page(client)
    html = book_page(client, f"/book?reservation_id={reservation.pk}")
    assert own_notice(html) == "" and others_notice(html) == ""
