"""The API under odd input: no input yields a 500, every answer is JSON in the error shape, types are
strict, and a short phone number is masked whole."""

import pytest

from tests.dates import future

pytestmark = pytest.mark.django_db


class TestNoInputYieldsA500:
    def test_too_many_query_parameters_is_422(self, client, demo_property):
        query = "&".join(f"p{i}=1" for i in range(1500))
        response = client.get(f"/api/v1/availability?{query}&check_in={future(30)}&check_out={future(33)}")
        assert response.status_code == 422 and response.json()["detail"][0]["type"] == "too_many_fields"

    @pytest.mark.parametrize("start", ["9999-01-01", "9999-12-01", "0001-01-01"])
    def test_calendar_anchors_at_the_ends_of_time_are_422(self, api, demo_property, start):
        response = api.get("/api/v1/calendar", start=start, months=1)
        assert response.status_code == 422
        assert response.json()["detail"][0] == {**response.json()["detail"][0], "loc": ["query", "start"], "type": "date_out_of_range"}

    def test_far_but_representable_anchors_still_answer(self, api, demo_property):
        assert api.get("/api/v1/calendar", start="9997-12-31", months=18).status_code == 200
        assert api.get("/api/v1/calendar", start="1900-01-01", months=1).status_code == 200


class TestJsonEverywhereOnTheApi:
    def test_the_openapi_document_is_plain_json(self, client, db):
        for path in ["/api/openapi.json", "/.well-known/openapi.json"]:
            assert client.get(path)["Content-Type"] == "application/json"

    def test_accept_text_html_still_gets_json(self, client, demo_property):
        response = client.get("/api/v1/property", HTTP_ACCEPT="text/html")
        assert response.status_code == 200 and response["Content-Type"] == "application/json"
        assert client.get("/api/v1/health", {"format": "xml"}).status_code == 200

    @pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
    def test_wrong_methods_on_the_webhook_get_the_error_shape(self, client, db, method):
        response = getattr(client, method)("/api/v1/payments/webhook")
        assert response.status_code == 405
        assert response.json()["code"] == "method_not_allowed" and "POST" in response["Allow"]

    def test_a_bad_host_on_an_api_path_gets_the_error_shape(self, client, db):
        response = client.get("/api/v1/health", HTTP_HOST="evil.example")
        assert response.status_code == 400 and response.json()["code"] == "bad_request"

    def test_the_api_root_says_where_to_go(self, api, db):
        for path in ["/api/v1", "/api/v1/"]:
            body = api.get(path).json()
            assert body["openapi"].endswith("/api/openapi.json") and body["version"] == "1.0.0"

    def test_the_a2a_endpoint_explains_itself_to_a_get(self, api, db):
        assert api.get("/a2a").json()["agent_card"].endswith("/.well-known/agent-card.json")


class TestStrictTypes:
    @pytest.mark.parametrize("guests", ["3", 3.0, True, [3]])
    def test_guests_in_a_body_must_be_a_json_integer(self, api, demo_property, guests):
        response = api.post("/api/v1/quote", {"check_in": str(future(30)), "check_out": str(future(33)), "guests": guests})
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "guests"]

    @pytest.mark.parametrize("guests", ["2.0", "+3", "\u0663", " "])
    def test_guests_in_a_query_are_plain_digits(self, api, demo_property, guests):
        assert api.get("/api/v1/availability", check_in=future(30), check_out=future(33), guests=guests).status_code == 422

    def test_dates_are_ascii(self, api, demo_property):
        assert api.get("/api/v1/availability", check_in="\uff12\uff10\uff12\uff17-01-10", check_out="2027-01-14").status_code == 422


def test_a_short_phone_number_is_masked_whole(api, demo_property):
    created = api.post("/api/v1/reservations", {"check_in": str(future(30)), "check_out": str(future(33)), "guest": {"phone": "123"}}).json()
    assert api.get(f"/api/v1/reservations/{created['id']}").json()["guest"]["phone"] == "***"
