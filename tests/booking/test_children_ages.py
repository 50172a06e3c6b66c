"""Party composition (DESIGN.md "Party"): optional `children_ages`; children under the property's
exemption age (demo: 12) pay no city tax; without ages every guest is taxed, as before."""

import pytest

from tests.dates import future

pytestmark = pytest.mark.django_db
TAX = 3.5  # per person per night, demo


def stay(**extra):
    return {"check_in": str(future(40)), "check_out": str(future(43)), **extra}


def test_children_under_twelve_pay_no_city_tax_and_the_note_says_how_many_were_taxed(api, demo_property):
    family = api.post("/api/v1/quote", stay(guests=4, children_ages=[5, 11, 14])).json()
    adults_only = api.post("/api/v1/quote", stay(guests=4)).json()
    assert adults_only["city_tax"] == 4 * 3 * TAX and family["city_tax"] == 2 * 3 * TAX
    assert family["total"] == adults_only["total"] - 2 * 3 * TAX
    assert "2 of 4 guests taxed" in family["city_tax_note"]


def test_availability_takes_them_from_the_query_string(api, demo_property):
    body = api.get("/api/v1/availability", **stay(guests=3, children_ages="5,8")).json()
    assert body["price_breakdown"]["city_tax"] == 1 * 3 * TAX


def test_a_hold_freezes_the_price_with_the_children(api, demo_property):
    held = api.post("/api/v1/reservations", stay(guests=3, children_ages=[2])).json()
    assert held["price_breakdown"]["city_tax"] == 2 * 3 * TAX


def test_find_stays_prices_the_party(api, demo_property):
    with_child = api.get("/api/v1/stays", nights=3, guests=2, children_ages="4", start=str(future(40)), end=str(future(40))).json()["stays"]
    without = api.get("/api/v1/stays", nights=3, guests=2, start=str(future(40)), end=str(future(40))).json()["stays"]
    if with_child:
        assert with_child[0]["total"] == without[0]["total"] - 3 * TAX


@pytest.mark.parametrize(
    ("party", "loc"),
    [
        ({"guests": 2, "children_ages": [5, 6]}, ["body", "children_ages"]),  # nobody left to be the adult
        ({"guests": 3, "children_ages": [18]}, ["body", "children_ages", 0]),
        ({"guests": 3, "children_ages": [-1]}, ["body", "children_ages", 0]),
        ({"guests": 3, "children_ages": ["5"]}, ["body", "children_ages", 0]),
        ({"guests": 3, "children_ages": 5}, ["body", "children_ages"]),
    ],
)
def test_bad_ages_or_too_many_children_are_422(api, demo_property, party, loc):
    response = api.post("/api/v1/quote", stay(**party))
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == loc


@pytest.mark.parametrize(
    ("ages", "loc"), [("5,,14", ["query", "children_ages", 1]), ("5, ", ["query", "children_ages", 1]), ("5,x", ["query", "children_ages", 1])]
)
def test_a_query_keeps_to_the_documented_pattern(api, demo_property, ages, loc):
    """`children_ages` in a query is empty (no children) or ages joined by commas (spaces around them
    allowed), as the OpenAPI pattern says: anything else is a 422 at the part that is wrong (schemathesis found "" accepted
    while the pattern refused it)."""
    response = api.get("/api/v1/availability", **stay(guests=3, children_ages=ages))
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == loc
    for fine in ("", " 5, 14 "):
        assert api.get("/api/v1/availability", **stay(guests=3, children_ages=fine)).status_code == 200


def test_too_many_children_says_that_guests_counts_the_whole_party(api, demo_property):
    """The natural first try of an agent: guests=2 for the two adults, with two children's ages."""
    response = api.post("/api/v1/quote", stay(guests=2, children_ages=[5, 14]))
    assert response.status_code == 422
    message = response.json()["detail"][0]["msg"]
    assert "whole party, children included" in message and "guests=4, children_ages=[5, 14]" in message
    assert api.post("/api/v1/quote", stay(guests=4, children_ages=[5, 14])).status_code == 200
