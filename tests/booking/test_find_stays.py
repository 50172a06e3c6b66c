"""Finding stays (DESIGN.md "Finding stays"): the cheapest bookable stays of exactly N nights
arriving in a window, cheapest first, each with the total a quote of it would give; computed from
one read of the calendar, not N quotes."""

from datetime import timedelta

import pytest

from booking.reservations.models import DateBlock
from tests.dates import future

pytestmark = pytest.mark.django_db


def find(api, **params):
    return api.get("/api/v1/stays", **params)


def test_the_cheapest_first_each_priced_as_a_quote_prices_it(api, demo_property):
    body = find(api, nights=3, guests=2, start=str(future(30)), end=str(future(90))).json()
    assert body["nights"] == 3 and body["currency"] == "EUR" and 1 <= len(body["stays"]) <= 10
    totals = [s["total"] for s in body["stays"]]
    assert totals == sorted(totals)
    for found in body["stays"]:
        quote = api.post("/api/v1/quote", {"check_in": found["check_in"], "check_out": found["check_out"], "guests": 2}).json()
        assert quote["available"] is True and quote["total"] == found["total"]
        assert found["nights"] == 3 and str(future(30)) <= found["check_in"] <= str(future(90))


def test_taken_nights_are_never_offered(api, demo_property):
    DateBlock.objects.create(property=demo_property, start=future(30), end=future(60), reason="renovation")
    body = find(api, nights=2, start=str(future(30)), end=str(future(58))).json()
    assert body["stays"] == []
    found = find(api, nights=2, start=str(future(55)), end=str(future(70))).json()["stays"]
    assert found and all(s["check_in"] >= str(future(60)) for s in found)


def test_the_window_defaults_to_the_next_60_days(api, demo_property):
    body = find(api, nights=3).json()
    from datetime import date

    start = date.fromisoformat(body["start"])
    assert date.fromisoformat(body["end"]) - start == timedelta(days=60)


def test_two_queries_whatever_the_window(api, demo_property, django_assert_max_num_queries):
    find(api, nights=3)  # warm the rules cache
    with django_assert_max_num_queries(2):
        find(api, nights=7, start=str(future(1)), end=str(future(500)))


@pytest.mark.parametrize(
    ("params", "loc"),
    [
        ({}, ["query", "nights"]),
        ({"nights": 0}, ["query", "nights"]),
        ({"nights": 3, "guests": 9}, ["query", "guests"]),
        ({"nights": 3, "start": "2020-01-01"}, ["query", "start"]),
        ({"nights": 3, "start": str(future(10)), "end": str(future(5))}, ["query", "end"]),
        ({"nights": 3, "start": str(future(1)), "end": str(future(700))}, ["query", "end"]),
    ],
)
def test_bad_input_is_422(api, demo_property, params, loc):
    response = find(api, **params)
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == loc
