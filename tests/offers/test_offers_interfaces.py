"""Promo codes and extras in every interface: availability, quote, find_stays, reservations,
checkout-link, and the agents' operations (MCP and A2A share discovery/operations.py)."""

from datetime import timedelta
from decimal import Decimal

import pytest

from booking.callers import Caller
from booking.catalog.models import PromoCode
from booking.errors import InvalidInput
from booking.payments.services.date_changes import change_dates
from booking.payments.services.rehold import change_held_stay
from booking.reservations.models import Reservation
from booking.reservations.services.holds import hold_stay
from booking.reservations.services.reservations import Payer, confirm_reservation
from discovery.operations import run_operation
from tests.dates import future

pytestmark = pytest.mark.django_db

TWO_EXTRAS = [{"code": "airport_transfer", "quantity": 1}, {"code": "late_checkout", "quantity": 1}]


def stay(offset=100, nights=3, **more) -> dict:
    return {"check_in": str(future(offset)), "check_out": str(future(offset + nights)), "guests": 2, **more}


def adds_up(b: dict) -> bool:
    return round(b["accommodation"] + b["discount_amount"] + b["cleaning_fee"] + b["city_tax"] + b["extras_total"], 2) == b["total"]


def promo_error(response, location="body") -> dict:
    assert response.status_code == 422, response.content
    [item] = response.json()["detail"]
    assert item["loc"] == [location, "promo_code"] and item["type"] == "promo_code_invalid"
    return item


class TestQuote:
    def test_without_offers_the_breakdown_has_empty_lists(self, api, demo_property):
        body = api.post("/api/v1/quote", stay()).json()
        assert body["discounts"] == [] and body["extras"] == [] and body["extras_total"] == 0 and adds_up(body)

    def test_a_code_and_two_extras(self, api, demo_property):
        plain = api.post("/api/v1/quote", stay()).json()
        body = api.post("/api/v1/quote", stay(promo_code="welcome10", extras=TWO_EXTRAS)).json()
        assert body["discounts"] == [{"label": "Promo code", "percent": 10.0, "amount": round(-plain["accommodation"] * 0.1, 2), "code": "WELCOME10"}]
        assert [(e["code"], e["quantity"], e["amount"]) for e in body["extras"]] == [("airport_transfer", 1, 60.0), ("late_checkout", 1, 40.0)]
        assert body["extras_total"] == 100.0 and adds_up(body) and adds_up(body["price_breakdown"])
        assert body["discount_label"] == "Promo code" and body["discount_percent"] == 10.0

    def test_an_unknown_code_is_a_422_with_the_reason(self, api, demo_property):
        assert "Unknown promo code 'NOPE'" in promo_error(api.post("/api/v1/quote", stay(promo_code="NOPE")))["msg"]

    def test_an_inapplicable_code_is_a_422_never_a_full_price(self, api, demo_property):
        assert "at least 3 nights" in promo_error(api.post("/api/v1/quote", stay(nights=2, promo_code="WELCOME10")))["msg"]
        PromoCode.objects.filter(code="WELCOME10").update(active=False)
        assert "no longer active" in promo_error(api.post("/api/v1/quote", stay(promo_code="WELCOME10")))["msg"]

    def test_unknown_extras_and_quantities_over_the_maximum_are_422(self, api, demo_property):
        response = api.post("/api/v1/quote", stay(extras=[{"code": "spa"}]))
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "extras", 0, "code"]
        response = api.post("/api/v1/quote", stay(extras=[{"code": "baby_cot", "quantity": 2}]))
        assert response.json()["detail"][0]["loc"] == ["body", "extras", 0, "quantity"] and "from 0 to 1" in response.json()["detail"][0]["msg"]
        response = api.post("/api/v1/quote", stay(extras=[{"code": "baby_cot", "colour": "blue"}]))
        assert response.json()["detail"][0]["loc"] == ["body", "extras", 0, "colour"]
        response = api.post("/api/v1/quote", stay(extras=[{"code": "baby_cot"}, {"code": "baby_cot"}]))
        assert response.json()["detail"][0]["loc"] == ["body", "extras", 1, "code"]

    def test_last_minute_is_the_demo_automatic_discount(self, api, demo_property):
        body = api.post("/api/v1/quote", stay(offset=3)).json()
        assert [d["label"] for d in body["discounts"]] == ["Last-minute discount"] and body["discount_percent"] == 10.0


class TestAvailabilityAndFindStays:
    def test_availability_takes_a_code_in_the_query(self, api, demo_property):
        query = {k: v for k, v in stay(promo_code="WELCOME10").items()}
        body = api.get("/api/v1/availability", **query).json()
        assert body["price_breakdown"]["discounts"][0]["code"] == "WELCOME10"
        promo_error(api.get("/api/v1/availability", **{**query, "promo_code": "NOPE"}), "query")

    def test_find_stays_prices_with_the_code(self, api, demo_property):
        start = str(future(100))
        plain = api.get("/api/v1/stays", nights=3, start=start, end=start).json()
        coded = api.get("/api/v1/stays", nights=3, start=start, end=start, promo_code="WELCOME10").json()
        assert coded["promo_code"] == "WELCOME10" and coded["stays"][0]["promo_code_applied"]
        assert coded["stays"][0]["total"] < plain["stays"][0]["total"]
        promo_error(api.get("/api/v1/stays", nights=2, start=start, promo_code="WELCOME10"), "query")

    def test_a_gap_between_two_stays_is_found_and_marked_on_the_calendar(self, api, demo_property):
        # Taken: nights 120-122 and from 124: the night 123 alone is a gap (the minimum is 2 or more).
        hold_stay(check_in=future(120), check_out=future(123), guests=2)
        hold_stay(check_in=future(124), check_out=future(127), guests=2)
        body = api.get("/api/v1/availability", **stay(offset=123, nights=1)).json()
        assert body["available"] and body["price_breakdown"]["discounts"][0]["label"] == "Gap-night discount"
        found = api.get("/api/v1/stays", nights=1, start=str(future(110)), end=str(future(130))).json()["stays"]
        assert [(s["check_in"], s["gap_nights"]) for s in found] == [(str(future(123)), True)]
        days = {d["date"]: d for d in api.get("/api/v1/calendar", start=str(future(123)), months=2).json()["days"]}
        day = days[str(future(123))]
        assert day["gap_night"] and day["check_in_allowed"] and day["gap_nightly_rate"] == round(day["nightly_rate"] * 0.85, 2)


class TestHolds:
    def test_a_reservation_keeps_its_code_and_extras(self, api, demo_property):
        response = api.post("/api/v1/reservations", stay(promo_code="WELCOME10", extras=TWO_EXTRAS))
        assert response.status_code == 201, response.content
        reservation = Reservation.objects.get(pk=response.json()["reservation_id"])
        assert reservation.promo_code.code == "WELCOME10"
        assert reservation.price_breakdown["extras_total"] == 100.0 and adds_up(reservation.price_breakdown)
        assert reservation.total == Decimal(str(reservation.price_breakdown["total"]))

    def test_checkout_link_charges_the_extras(self, api, demo_property, settings):
        settings.STRIPE_SECRET_KEY = ""
        response = api.post("/api/v1/payments/checkout-link", stay(promo_code="WELCOME10", extras=TWO_EXTRAS))
        assert response.status_code == 200, response.content
        reservation = Reservation.objects.get(pk=response.json()["reservation_id"])
        assert reservation.promo_code_id and reservation.price_breakdown["extras_total"] == 100.0
        promo_error(api.post("/api/v1/payments/checkout-link", stay(offset=140, promo_code="NOPE")))

    def test_maximum_uses_count_live_holds_and_confirmed_stays(self, demo_property):
        code = PromoCode.objects.create(property=demo_property, code="ONCE", percent=Decimal("5"), max_uses=1)
        first = hold_stay(check_in=future(100), check_out=future(103), guests=2, promo_code="once")
        with pytest.raises(InvalidInput) as refused:
            hold_stay(check_in=future(110), check_out=future(113), guests=2, promo_code="ONCE")
        assert refused.value.errors[0]["type"] == "promo_code_invalid" and "used up" in refused.value.errors[0]["msg"]
        # The hold lapses unpaid: the use is free again.
        Reservation.objects.filter(pk=first.pk).update(hold_expires_at=first.created_at - timedelta(minutes=1))
        second = hold_stay(check_in=future(110), check_out=future(113), guests=2, promo_code="ONCE")
        confirm_reservation(second.pk, actor="test", payer=Payer(email="a@example.com", name="A", phone=""), amount_paid=second.total)
        assert Reservation.objects.get(pk=second.pk).status == Reservation.Status.CONFIRMED and second.promo_code == code
        with pytest.raises(InvalidInput):
            hold_stay(check_in=future(120), check_out=future(123), guests=2, promo_code="ONCE")

    def test_a_hold_changed_in_place_keeps_the_last_use_it_took(self, demo_property):
        """Maximum uses never count the hold being changed against itself (services/rehold.py)."""
        PromoCode.objects.create(property=demo_property, code="ONCE", percent=Decimal("5"), max_uses=1)
        held = hold_stay(check_in=future(100), check_out=future(103), guests=2, promo_code="ONCE")
        longer = change_held_stay(held.pk, check_in=future(100), check_out=future(104), guests=2, children_ages=None, actor="test", promo_code="ONCE")
        assert (longer.check_out, longer.promo_code.code) == (future(104), "ONCE")
        with pytest.raises(InvalidInput) as refused:  # another hold still cannot take it
            hold_stay(check_in=future(110), check_out=future(113), guests=2, promo_code="ONCE")
        assert "used up" in refused.value.errors[0]["msg"]

    def test_a_staff_date_change_keeps_the_code_of_a_stay_that_used_its_last_use(self, demo_property):
        PromoCode.objects.create(property=demo_property, code="ONCE", percent=Decimal("5"), max_uses=1)
        held = hold_stay(check_in=future(100), check_out=future(103), guests=2, promo_code="ONCE")
        confirm_reservation(held.pk, actor="test", payer=Payer(email="a@example.com", name="A", phone=""), amount_paid=held.total)
        moved = change_dates(held.pk, future(100), future(104), actor="staff test", by_guest=False).reservation
        assert moved.promo_code.code == "ONCE" and [d["code"] for d in moved.price_breakdown["discounts"]] == ["ONCE"]


class TestAgents:
    def test_quote_and_checkout_link_as_an_agent_with_a_code_and_extras(self, demo_property, settings):
        settings.STRIPE_SECRET_KEY = ""
        caller = Caller(Reservation.Source.MCP)
        body = run_operation("get_quote", stay(promo_code="WELCOME10", extras=TWO_EXTRAS), caller)
        assert body["price_breakdown"]["discounts"][0]["code"] == "WELCOME10" and body["price_breakdown"]["extras_total"] == 100.0
        link = run_operation("create_checkout_link", stay(offset=130, promo_code="WELCOME10", extras=TWO_EXTRAS), caller)
        assert Reservation.objects.get(pk=link["reservation_id"]).price_breakdown["extras_total"] == 100.0
        with pytest.raises(InvalidInput) as refused:
            run_operation("create_reservation", stay(offset=150, promo_code="NOPE"), caller)
        assert refused.value.errors[0]["loc"] == ["body", "promo_code"]
        with pytest.raises(InvalidInput) as refused:
            run_operation("check_availability", stay(promo_code="NOPE"), caller)
        assert refused.value.errors[0]["loc"] == ["query", "promo_code"]

    def test_the_property_document_lists_the_offers(self, api, demo_property):
        rules = api.get("/api/v1/property").json()["pricing_rules"]
        assert rules["last_minute"] == {"days": 7, "percent": 10.0} and rules["gap_nights"] == {"percent": 15.0}
        assert [e["code"] for e in rules["extras"]] == ["airport_transfer", "late_checkout", "baby_cot"]
