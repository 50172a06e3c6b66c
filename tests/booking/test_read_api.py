"""The read side of /api/v1: property, availability, calendar, quote, health — shapes, bounds,
defaults, the 422 contract and the query budgets."""

from datetime import timedelta

import pytest

from booking.reservations.models import DateBlock
from booking.reservations.services import stays
from tests.booking.test_selectors import a_year_of_history
from tests.dates import future, today

pytestmark = pytest.mark.django_db

BREAKDOWN_FIELDS = {
    "nights",
    "nightly_avg",
    "accommodation",
    "discount_label",
    "discount_percent",
    "discount_amount",
    "cleaning_fee",
    "cleaning_fee_label",
    "city_tax",
    "city_tax_note",
    "total",
    "currency",
    "price_source",
}


def assert_adds_up(breakdown):
    total = breakdown["accommodation"] + breakdown["discount_amount"] + breakdown["cleaning_fee"] + breakdown["city_tax"]
    assert breakdown["total"] == pytest.approx(total, abs=0.001)


def validation_items(response):
    assert response.status_code == 422, response.content
    body = response.json()
    assert set(body) == {"detail"}
    for item in body["detail"]:
        assert set(item) == {"loc", "msg", "type"}
        assert isinstance(item["msg"], str) and isinstance(item["type"], str)
    return {tuple(item["loc"]): item["type"] for item in body["detail"]}


class TestProperty:
    def test_property_has_every_group_the_spec_names(self, api, demo_property):
        body = api.get("/api/v1/property").json()
        for group in ["capacity", "amenities", "pricing_rules", "policies", "reviews", "coordinates"]:
            assert group in body
        assert body["capacity"]["max_guests"] == 7
        assert set(body["coordinates"]) == {"latitude", "longitude"}
        assert body["pricing_rules"]["currency"] == "EUR"
        assert body["pricing_rules"]["city_tax"]["per_person_per_night"] == 3.5
        assert body["pricing_rules"]["city_tax"]["max_nights"] == 7
        assert body["reviews"]["count"] >= 3 and 1 <= body["reviews"]["average_rating"] <= 5
        assert body["national_code"]

    def test_payment_terms_are_the_owners_settings_and_the_payment_policy_says_them(self, api, demo_property):
        body = api.get("/api/v1/property").json()
        assert body["payment_terms"] == {
            "deposit_percent": 30,
            "balance_due_days": 30,
            "security_deposit": {"amount": 300.0, "currency": "EUR", "placed_days_before": 1, "released_days_after": 3},
            "currency": "EUR",
        }
        assert body["policies"]["payment_policy"].splitlines() == [
            "You pay a deposit of 30% of the total when you book and the balance 30 days before check-in, charged to the same card.",
            "A stay that begins within 30 days is paid in full when you book.",
            "A refundable security deposit of €300.00 is held on your card 1 day before check-in; it is not part of the total.",
            "The hold is released 3 days after check-out unless there is damage.",
        ]

    def test_an_owner_who_takes_no_deposit_is_said_to_take_the_full_amount(self, api, demo_property):
        demo_property.deposit_percent, demo_property.security_deposit = 0, 0
        demo_property.save()
        body = api.get("/api/v1/property").json()
        assert (body["payment_terms"]["deposit_percent"], body["payment_terms"]["security_deposit"]) == (0, None)
        assert body["policies"]["payment_policy"] == "The full amount is paid when you book."

    def test_the_property_document_is_rebuilt_only_when_something_changes(self, api, demo_property, django_assert_num_queries):
        api.get("/api/v1/property")
        with django_assert_num_queries(1):
            api.get("/api/v1/property")
        review = demo_property.reviews.first()
        review.text = "Changed by the owner"
        review.save()
        assert "Changed by the owner" in [r["text"] for r in api.get("/api/v1/property").json()["reviews"]["items"]]

    def test_demo_data_keeps_the_design_figures(self, api, demo_property):
        rules = api.get("/api/v1/property").json()["pricing_rules"]
        assert rules["min_nights"] <= 3 and all(s["min_nights"] is None or s["min_nights"] <= 3 for s in rules["seasons"])
        assert all(n <= 3 for n in rules["min_nights_by_arrival_day"].values())
        assert rules["closed_to_arrival"] == [] and rules["closed_to_departure"] == []
        assert rules["max_nights"] >= 28
        assert rules["booking_window_days"] >= 548


class TestAvailability:
    def test_a_free_stay_is_available_with_its_breakdown(self, api, demo_property):
        body = api.get("/api/v1/availability", check_in=future(60), check_out=future(63), guests=3).json()
        assert body["available"] is True and body["unavailable_reason"] is None
        assert (body["check_in"], body["check_out"], body["guests"], body["nights"]) == (str(future(60)), str(future(63)), 3, 3)
        assert BREAKDOWN_FIELDS <= set(body["price_breakdown"])
        assert body["price_breakdown"]["currency"] == "EUR"
        assert_adds_up(body["price_breakdown"])

    def test_guests_default_to_two(self, api, demo_property):
        assert api.get("/api/v1/availability", check_in=future(60), check_out=future(63)).json()["guests"] == 2

    def test_a_blocked_stay_is_unavailable_but_still_priced(self, api, demo_property):
        DateBlock.objects.create(property=demo_property, start=future(61), end=future(62), reason="maintenance")
        body = api.get("/api/v1/availability", check_in=future(60), check_out=future(63)).json()
        assert (body["available"], body["unavailable_reason"]) == (False, "booked")
        assert body["price_breakdown"]["total"] > 0

    def test_rule_refusals_name_their_reason(self, api, demo_property):
        body = api.get("/api/v1/availability", check_in=future(60), check_out=future(61)).json()
        assert (body["available"], body["unavailable_reason"]) == (False, "min_stay")
        far = today() + timedelta(days=demo_property.booking_window_days + 5)
        body = api.get("/api/v1/availability", check_in=far, check_out=far + timedelta(days=3)).json()
        assert body["unavailable_reason"] == "beyond_booking_window"

    @pytest.mark.parametrize("guests", [1, 7])
    def test_guest_bounds_are_inclusive(self, api, demo_property, guests):
        assert api.get("/api/v1/availability", check_in=future(60), check_out=future(63), guests=guests).status_code == 200

    @pytest.mark.parametrize(
        "params, loc, type_",
        [
            ({"check_out": "2030-01-05"}, ("query", "check_in"), "missing"),
            ({"check_in": "2030-01-01"}, ("query", "check_out"), "missing"),
            ({"check_in": "2030-02-30", "check_out": "2030-03-02"}, ("query", "check_in"), "value_error"),
            ({"check_in": "01/02/2030", "check_out": "2030-03-02"}, ("query", "check_in"), "value_error"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-05"}, ("query", "check_out"), "date_order"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-02"}, ("query", "check_out"), "date_order"),
            ({"check_in": "2020-01-05", "check_out": "2020-01-08"}, ("query", "check_in"), "date_in_past"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guests": 0}, ("query", "guests"), "greater_than_equal"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guests": 8}, ("query", "guests"), "less_than_equal"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guests": "two"}, ("query", "guests"), "value_error"),
        ],
    )
    def test_invalid_queries_get_422(self, api, demo_property, params, loc, type_):
        assert validation_items(api.get("/api/v1/availability", **params)).get(loc) == type_

    def test_availability_answers_in_one_query(self, api, demo_property, django_assert_num_queries):
        api.get("/api/v1/availability", check_in=future(60), check_out=future(63))  # rules built once per process
        with django_assert_num_queries(1):  # the property's version with the taken nights
            assert api.get("/api/v1/availability", check_in=future(60), check_out=future(63)).status_code == 200


class TestCalendar:
    def test_twelve_months_by_default_from_this_month(self, api, demo_property):
        body = api.get("/api/v1/calendar").json()
        assert body["months"] == 12
        assert body["start"] == today().replace(day=1).isoformat()
        assert len(body["days"]) in range(365, 367)
        assert set(body["days"][0]) == {
            "date",
            "available",
            "check_in_allowed",
            "check_out_allowed",
            "min_nights",
            "nightly_rate",
            "gap_night",
            "gap_nightly_rate",
        }

    def test_start_is_a_month_anchor_past_or_future(self, api, demo_property):
        body = api.get("/api/v1/calendar", start="2024-02-17", months=1).json()
        assert (body["start"], body["end"], len(body["days"])) == ("2024-02-01", "2024-02-29", 29)
        assert not any(d["available"] for d in body["days"])  # the past cannot be booked

    def test_taken_nights_are_greyed_out(self, api, demo_property):
        DateBlock.objects.create(property=demo_property, start=future(40), end=future(43))
        days = {d["date"]: d for d in api.get("/api/v1/calendar", start=future(0), months=3).json()["days"]}
        assert not days[str(future(41))]["available"] and not days[str(future(41))]["check_in_allowed"]
        assert days[str(future(43))]["available"]
        assert days[str(future(40))]["check_out_allowed"] is days[str(future(39))]["available"]

    @pytest.mark.parametrize("months", [1, 18])
    def test_month_bounds(self, api, demo_property, months):
        assert api.get("/api/v1/calendar", months=months).json()["months"] == months

    @pytest.mark.parametrize(
        "params, loc, type_",
        [
            ({"months": 0}, ("query", "months"), "greater_than_equal"),
            ({"months": 19}, ("query", "months"), "less_than_equal"),
            ({"months": "x"}, ("query", "months"), "value_error"),
            ({"start": "2026-13-01"}, ("query", "start"), "value_error"),
        ],
    )
    def test_invalid_calendar_queries_get_422(self, api, demo_property, params, loc, type_):
        assert validation_items(api.get("/api/v1/calendar", **params)).get(loc) == type_

    @pytest.mark.parametrize("months", [1, 18])
    def test_the_calendar_costs_the_same_queries_for_one_month_or_eighteen(self, api, demo_property, months, django_assert_num_queries):
        api.get("/api/v1/calendar", months=1)
        with django_assert_num_queries(1):  # the property's version and the taken nights, together
            assert api.get("/api/v1/calendar", months=months).status_code == 200


class TestQuote:
    def test_quote_gives_the_full_breakdown_line_by_line(self, api, demo_property):
        response = api.post("/api/v1/quote", {"check_in": str(future(90)), "check_out": str(future(97)), "guests": 5})
        body = response.json()
        assert response.status_code == 200
        assert BREAKDOWN_FIELDS <= set(body)
        assert body["price_breakdown"]["total"] == body["total"]
        assert len(body["nightly_rates"]) == 7
        assert sum(n["amount"] for n in body["nightly_rates"]) == pytest.approx(body["accommodation"])
        assert body["discount_label"] == "Weekly discount" and body["discount_amount"] < 0
        assert body["city_tax"] == pytest.approx(3.5 * 5 * 7)
        assert_adds_up(body)

    def test_quote_defaults_to_two_guests_in_eur(self, api, demo_property):
        body = api.post("/api/v1/quote", {"check_in": str(future(90)), "check_out": str(future(93))}).json()
        assert (body["guests"], body["currency"], body["exchange_rate"]) == (2, "EUR", 1.0)

    def test_another_currency_converts_the_displayed_amounts(self, api, demo_property):
        eur = api.post("/api/v1/quote", {"check_in": str(future(90)), "check_out": str(future(93))}).json()
        usd = api.post("/api/v1/quote", {"check_in": str(future(90)), "check_out": str(future(93)), "currency": "USD"}).json()
        assert (usd["currency"], usd["exchange_rate"], usd["charge_currency"]) == ("USD", 1.08, "EUR")
        assert usd["accommodation"] == pytest.approx(round(eur["accommodation"] * 1.08, 2))
        assert usd["charge_total"] == eur["total"]
        assert_adds_up(usd)

    @pytest.mark.parametrize(
        "body, loc, type_",
        [
            ({"check_out": "2030-01-05"}, ("body", "check_in"), "missing"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "currency": "XYZ"}, ("body", "currency"), "enum"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guests": 8}, ("body", "guests"), "less_than_equal"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guests": 2.5}, ("body", "guests"), "value_error"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guests": True}, ("body", "guests"), "value_error"),
            ({"check_in": 20300105, "check_out": "2030-01-08"}, ("body", "check_in"), "value_error"),
            ({"check_in": "2030-01-05T10:00:00", "check_out": "2030-01-08"}, ("body", "check_in"), "value_error"),
        ],
    )
    def test_invalid_bodies_get_422(self, api, demo_property, body, loc, type_):
        assert validation_items(api.post("/api/v1/quote", body)).get(loc) == type_

    def test_a_body_that_is_not_a_json_object_gets_422(self, api, demo_property):
        assert validation_items(api.post("/api/v1/quote", [1, 2])) == {("body",): "model_attributes_type"}

    def test_malformed_json_gets_422(self, client, demo_property):
        response = client.post("/api/v1/quote", "{not json", content_type="application/json")
        assert validation_items(response) == {("body",): "json_invalid"}

    def test_quote_answers_in_one_query(self, api, demo_property, django_assert_num_queries):
        api.post("/api/v1/quote", {"check_in": str(future(90)), "check_out": str(future(93))})
        with django_assert_num_queries(1):  # the property's version with the taken nights
            api.post("/api/v1/quote", {"check_in": str(future(90)), "check_out": str(future(93))})


def test_after_a_year_of_history_each_read_is_still_one_query_and_remembered(api, demo_property, django_assert_num_queries):
    """Released and lapsed holds, past stays and a partner calendar do not add queries, and a read
    asked again under the same taken nights is the remembered answer (keyed by their text)."""
    a_year_of_history(demo_property)
    stay = {"check_in": str(future(60)), "check_out": str(future(63))}
    api.get("/api/v1/calendar", months=18)
    api.get("/api/v1/availability", **stay)
    api.post("/api/v1/quote", stay)
    remembered = stays.calendar_months(start=None, months=18)
    with django_assert_num_queries(3):  # one each: the property's version with the taken nights
        assert api.get("/api/v1/calendar", months=18).status_code == 200
        assert api.get("/api/v1/availability", **stay).status_code == 200
        assert api.post("/api/v1/quote", stay).status_code == 200
    assert stays.calendar_months(start=None, months=18) is remembered


class TestRulesFollowTheAdmin:
    def test_an_edited_rate_is_priced_at_once(self, api, demo_property):
        before = api.post("/api/v1/quote", {"check_in": "2027-02-08", "check_out": "2027-02-10"}).json()
        season = demo_property.seasons.get(name="Low season")
        season.nightly_rate += 10
        season.save()
        after = api.post("/api/v1/quote", {"check_in": "2027-02-08", "check_out": "2027-02-10"}).json()
        assert after["accommodation"] == before["accommodation"] + 20


class TestHealthAndErrors:
    def test_health_checks_the_database(self, api, db):
        assert api.get("/api/v1/health").json()["database"] == "ok"

    def test_health_is_503_when_the_database_is_down(self, api, db, monkeypatch):
        def broken(*args, **kwargs):
            from django.db import OperationalError

            raise OperationalError("connection refused")

        # Its query fails as on a lost connection (tests/booking/test_database_and_cache_outages.py
        # stops a real database under a live server).
        monkeypatch.setattr("booking.api.views.hot_query", broken)
        response = api.get("/api/v1/health")
        assert response.status_code == 503 and response.json()["status"] == "error"

    def test_unknown_api_paths_are_json_404(self, api, db):
        response = api.get("/api/v1/nothing-here")
        assert response.status_code == 404 and response.json()["code"] == "not_found"

    def test_non_json_bodies_are_refused(self, client, demo_property):
        response = client.post("/api/v1/quote", "check_in=2030-01-01", content_type="application/x-www-form-urlencoded")
        assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"

    def test_oversized_bodies_are_413(self, client, demo_property):
        response = client.post("/api/v1/quote", '{"x": "' + "a" * (1024 * 1024 + 10) + '"}', content_type="application/json")
        assert response.status_code == 413 and response.json()["code"] == "payload_too_large"


def test_the_openapi_document_is_valid_and_versioned(api, db):
    from openapi_spec_validator import validate

    document = api.get("/.well-known/openapi.json").json()
    validate(document)
    assert document["info"]["version"] == "1.0.0"
    assert api.get("/api/openapi.json").json() == document
    for path in ["/api/v1/availability", "/api/v1/calendar", "/api/v1/quote", "/api/v1/reservations"]:
        operation = next(iter(document["paths"][path].values()))
        assert "422" in operation["responses"], path
    assert "HTTPValidationError" in document["components"]["schemas"]


def test_demo_loading_is_idempotent_and_keeps_owner_edits(db):
    from booking import demo
    from booking.catalog.models import Property

    assert demo.load() is True
    Property.objects.update(name="Renamed by the owner")
    assert demo.load() is False
    assert Property.objects.get().name == "Renamed by the owner"


def test_the_document_links_each_answer_to_the_next_call_of_the_booking_flow(api, db):
    paths = api.get("/api/openapi.json").json()["paths"]
    hold_links = paths["/api/v1/reservations"]["post"]["responses"]["201"]["links"]
    assert hold_links["GetReservation"] == {
        **hold_links["GetReservation"],
        "operationId": "get_reservation",
        "parameters": {"reservation_id": "$response.body#/id"},
    }
    assert hold_links["PayReservation"]["operationId"] == "create_checkout_session"
    assert paths["/api/v1/payments/checkout-link"]["post"]["responses"]["200"]["links"]["GetReservation"]["parameters"] == {
        "reservation_id": "$response.body#/reservation_id"
    }
