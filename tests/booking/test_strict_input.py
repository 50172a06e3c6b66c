"""Strict input (DESIGN.md "Party, strict input, releasing holds"): a JSON body with a field the
operation does not know is refused with 422 `extra_forbidden` naming the field and listing the
accepted ones, instead of silently pricing 2 guests for `{"adults": 6}`. REST query strings stay
lenient (links carry tracking parameters); MCP and A2A arguments are strict (tests/agents)."""

import pytest

from tests.dates import future

pytestmark = pytest.mark.django_db


def stay(**extra):
    return {"check_in": str(future(40)), "check_out": str(future(43)), **extra}


@pytest.mark.parametrize("path", ["/api/v1/quote", "/api/v1/reservations", "/api/v1/payments/checkout-link"])
def test_an_unknown_body_field_is_422_extra_forbidden_naming_it(api, demo_property, path):
    response = api.post(path, stay(adults=6, children=1))
    assert response.status_code == 422
    errors = response.json()["detail"]
    assert {tuple(e["loc"]) for e in errors} == {("body", "adults"), ("body", "children")}
    assert all(e["type"] == "extra_forbidden" and "guests" in e["msg"] for e in errors)


def test_an_unknown_nested_field_is_named_with_its_path(api, demo_property):
    response = api.post("/api/v1/reservations", stay(guest={"email": "a@example.com", "nickname": "Al"}))
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "guest", "nickname"]


def test_nothing_is_held_when_a_field_is_refused(api, demo_property):
    from booking.reservations.models import Reservation

    api.post("/api/v1/reservations", stay(adults=2))
    assert not Reservation.objects.exists()


def test_query_strings_may_carry_other_parameters(api, demo_property):
    assert api.get("/api/v1/availability", **stay(utm_source="newsletter")).status_code == 200
