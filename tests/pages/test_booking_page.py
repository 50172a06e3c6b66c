"""The booking page explains what it cannot keep from its link, keeps the stay when the guest comes
back from the payment page without paying, and the emails tell of the children (issue 15 item 3,
issue 16 item 1)."""

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core import mail

from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import build_message
from booking.reservations.models import Reservation
from booking.reservations.services.holds import hold_stay
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.conftest import future

pytestmark = pytest.mark.django_db


def config_of(html: str) -> dict:
    block = re.search(r'<script id="booking-config" type="application/json">(.*?)</script>', html, flags=re.S)
    assert block, "the page carries the booking script's configuration"
    return json.loads(block.group(1))


def notice(html: str, marker: str) -> str:
    found = re.search(rf"<div class=\"notice [^\"]*\" {marker}><p>(.*?)</p>", html, flags=re.S)
    return found.group(1) if found else ""


def link_problem(client, **query) -> str:
    response = client.get("/book", query)
    assert response.status_code == 200
    return notice(response.content.decode(), "data-link-problem")


def min_nights_on(client, day) -> int:
    calendar = client.get("/api/v1/calendar", {"start": str(day), "months": 1}).json()
    return next(d["min_nights"] for d in calendar["days"] if d["date"] == str(day))


def held_stay(offset=40, nights=3, guests=2, children_ages=None) -> Reservation:
    return hold_stay(check_in=future(offset), check_out=future(offset + nights), guests=guests, children_ages=children_ages)


class TestALinkWithDatesThatCannotBeBooked:
    def test_a_bookable_stay_needs_no_words(self, client, site):
        assert link_problem(client, check_in=str(future(40)), check_out=str(future(43)), guests=2) == ""

    def test_no_dates_no_words(self, client, site):
        assert link_problem(client) == "" and link_problem(client, utm_source="newsletter") == ""

    def test_dates_that_cannot_be_read(self, client, site):
        assert "could not be read" in link_problem(client, check_in="next friday", check_out=str(future(43)))

    def test_check_out_before_check_in(self, client, site):
        problem = link_problem(client, check_in=str(future(43)), check_out=str(future(40)))
        assert "is not after the check-in" in problem

    def test_dates_in_the_past(self, client, site):
        assert "are in the past" in link_problem(client, check_in=str(future(-10)), check_out=str(future(-7)))

    def test_below_the_minimum_stay(self, client, site):
        minimum = min_nights_on(client, future(40))
        assert minimum > 1, "the demo asks for more than one night"
        problem = link_problem(client, check_in=str(future(40)), check_out=str(future(41)))
        assert f"last at least {minimum} nights; this link asks for 1" in problem

    def test_too_long_or_too_far_ahead_without_pricing_thousands_of_nights(self, client, site):
        assert "Stays last at most" in link_problem(client, check_in=str(future(40)), check_out="9999-12-31")
        assert "too far ahead" in link_problem(client, check_in="9999-01-01", check_out="9999-01-04")

    def test_nights_already_booked(self, client, site):
        reservation = held_stay()
        confirm_reservation(reservation.pk, actor="test", payer=Payer(email="a@example.com"), amount_paid=reservation.total)
        assert "already booked" in link_problem(client, check_in=str(future(41)), check_out=str(future(44)))

    def test_nights_held_by_someone_paying(self, client, site):
        held_stay()
        assert "held by another guest" in link_problem(client, check_in=str(future(41)), check_out=str(future(44)))

    def test_the_availability_page_explains_too(self, client, site):
        html = client.get("/availability", {"check_in": str(future(-10)), "check_out": str(future(-7))}).content.decode()
        assert "are in the past" in notice(html, "data-link-problem")

    def test_in_the_pages_language(self, client, site):
        html = client.get("/it/book", {"check_in": str(future(43)), "check_out": str(future(40))}).content.decode()
        problem = notice(html, "data-link-problem")
        assert "non è successiva all’arrivo" in problem


class TestBackFromThePaymentPageWithoutPaying:
    def checkout(self, api, **party) -> dict:
        body = {"check_in": str(future(40)), "check_out": str(future(43)), "guests": 3, "children_ages": [5], **party}
        book_query = "check_in={check_in}&check_out={check_out}&guests={guests}&children_ages=5".format(**body)
        body["cancel_url"] = f"http://127.0.0.1:8000/book?{book_query}"
        answer = api.post("/api/v1/payments/checkout-link", body, **{"Idempotency-Key": "web-test-cancel"})
        assert answer.status_code in (200, 201), answer.content
        return answer.json()

    def test_the_sandbox_cancel_returns_to_book_with_the_stay_and_the_party(self, client, api, site):
        link = self.checkout(api)
        session_id = link["session_id"]
        response = client.post(f"/api/v1/payments/sandbox/{session_id}", {"action": "cancel"})
        assert response.status_code == 303
        target = urlsplit(response["Location"])
        assert target.path == "/book"
        query = parse_qs(target.query)
        assert query["check_in"] == [str(future(40))] and query["children_ages"] == ["5"] and query["reservation_id"] == [link["reservation_id"]]

        html = client.get(f"{target.path}?{target.query}").content.decode()
        assert "payment was cancelled and nothing was charged" in notice(html, "data-checkout-cancelled")
        config = config_of(html)
        assert config["initial"] | {"currency": ""} == {
            "check_in": str(future(40)),
            "check_out": str(future(43)),
            "guests": "3",
            "children_ages": "5",
            "currency": "",
            "promo_code": "",
            "extras": "",
        }
        assert config["releaseHold"] is None, "the sandbox cancel already let the dates go"
        assert notice(html, "data-link-problem") == "", "the guest's own (released) hold is no reason to complain"

    def test_a_hold_still_running_is_released_by_the_page(self, client, site):
        """With Stripe the hold outlives the cancelled payment page; the page lets it go."""
        reservation = held_stay()
        html = client.get("/book", {"reservation_id": reservation.pk}).content.decode()
        assert "nothing was charged" in notice(html, "data-checkout-cancelled")
        config = config_of(html)
        assert config["releaseHold"] == reservation.pk
        assert (config["initial"]["check_in"], config["initial"]["check_out"], config["initial"]["guests"]) == (str(future(40)), str(future(43)), "2")

    def test_a_paid_stay_or_an_unknown_id_is_no_cancelled_payment(self, client, site):
        reservation = held_stay()
        confirm_reservation(reservation.pk, actor="test", payer=Payer(email="a@example.com"), amount_paid=reservation.total)
        for reservation_id in (reservation.pk, "res_unknown"):
            html = client.get("/book", {"reservation_id": reservation_id}).content.decode()
            assert notice(html, "data-checkout-cancelled") == ""
            assert config_of(html)["releaseHold"] is None

    def test_in_the_pages_language(self, client, site):
        reservation = held_stay()
        html = client.get("/it/book", {"reservation_id": reservation.pk}).content.decode()
        message = notice(html, "data-checkout-cancelled")
        assert message and "nothing was charged" not in message

    def test_the_page_builds_its_way_back_in_its_language(self, client, site):
        assert config_of(client.get("/de/book").content.decode())["cancelUrl"].endswith("/de/book")
        assert config_of(client.get("/book").content.decode())["cancelUrl"].endswith("/book")


class TestThePartyOnThePage:
    def test_the_new_words_of_the_script_come_in_the_pages_language(self, client, site):
        text = config_of(client.get("/it/book").content.decode())["text"]
        assert text["{amount} total"] == "{amount} in totale"
        assert text["Age of child {n}"] == "Età del bambino {n}"

    def test_a_children_picker_and_the_owners_currencies(self, client, site):
        html = client.get("/book").content.decode()
        assert 'id="children"' in html and 'id="currency"' in html
        currencies = config_of(html)["currencies"]
        assert currencies["EUR"] == 1 and {"USD", "GBP", "CHF"} <= set(currencies)
        assert "you always pay in EUR" in html


def emails_of(reservation: Reservation) -> dict[str, str]:
    mail.outbox.clear()
    bodies = {}
    for row in OutboundEmail.objects.filter(reservation=reservation, kind=OutboundEmail.Kind.CONFIRMATION):
        message = build_message(row)
        assert message is not None
        bodies[row.recipient] = message.body
    return bodies


class TestEmailsTellOfTheChildren:
    def confirmed(self, **party) -> Reservation:
        reservation = held_stay(**party)
        return confirm_reservation(reservation.pk, actor="test", payer=Payer(email="guest@example.com", name="Ada Guest"), amount_paid=reservation.total)

    def test_how_many_were_taxed(self, site):
        bodies = emails_of(self.confirmed(guests=3, children_ages=[5, 14]))
        assert set(bodies) == {"guest", "owner"}
        for body in bodies.values():
            assert "2 of 3 guests taxed" in body

    def test_the_childrens_ages_kept_by_the_hold(self, site):
        reservation = self.confirmed(guests=3, children_ages=[5, 14])
        assert reservation.children_ages == [5, 14]
        bodies = emails_of(reservation)
        assert "including 2 children aged 5, 14" in bodies["guest"]
        assert "(2 children, aged 5, 14)" in bodies["owner"]

    def test_no_children_no_words(self, site):
        bodies = emails_of(self.confirmed(guests=2))
        assert "child" not in bodies["guest"].lower() or "children under" in bodies["guest"]
        assert "aged" not in bodies["owner"] and "including" not in bodies["guest"]
