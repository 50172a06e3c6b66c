"""Several bad fields are reported together (issue 31, item 3): DRF runs the stay's own checks only
once every field is valid, so `guests: 9` with inverted dates used to report only the guests."""

import pytest

from tests.dates import future


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), [("post", "/api/v1/quote"), ("post", "/api/v1/reservations"), ("get", "/api/v1/availability")])
def test_too_many_guests_and_inverted_dates_are_both_reported(api, demo_property, method, path):
    stay = {"check_in": str(future(40)), "check_out": str(future(38)), "guests": 9}
    response = api.post(path, stay) if method == "post" else api.get(path, **stay)
    assert response.status_code == 422
    assert sorted((item["loc"][-1], item["type"]) for item in response.json()["detail"]) == [("check_out", "date_order"), ("guests", "less_than_equal")]


@pytest.mark.django_db
def test_a_ucp_session_reports_both_as_recoverable_messages(api, demo_property):
    from tests.agents.ucp import error_body, session_request

    request = session_request(40, adults=9)
    request["stays"][0]["stay_dates"] = {"start_date": str(future(40)), "end_date": str(future(38))}
    body = error_body(api.post("/ucp/v1/booking-sessions", request).json())
    assert sorted(message["path"] for message in body["messages"]) == ["$.stays[0].occupancy.total", "$.stays[0].stay_dates.end_date"]
