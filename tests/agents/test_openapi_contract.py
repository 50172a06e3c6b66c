"""The OpenAPI document as a contract: valid OpenAPI 3, version 1.0.0, every input-taking endpoint
with its 422 body, every error in one of the two error shapes, examples that match their schemas,
and an API that keeps to it under schemathesis (every phase, every check)."""

import json
import os
import re
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

import pytest
import requests
from openapi_schema_validator import OAS30Validator, OAS31Validator
from openapi_spec_validator import validate

from tests.agents.conftest import TIMEOUT, rest, stay

ROOT = Path(__file__).resolve().parents[2]
METHODS = {"get", "post", "put", "patch", "delete"}
VALIDATION_ERROR_REF = "#/components/schemas/HTTPValidationError"
ERROR_REF = "#/components/schemas/Error"
# Endpoints documented by their own modules without examples yet (booking/payments: checkout-session;
# partner_sync: calendar.ics and partner/status). Reported to their owners; listed so that the test
# notices when they get examples (the list must then shrink) or when another endpoint loses its own.
WITHOUT_EXAMPLES_YET = {"create_checkout_session", "calendar_ics", "partner_status"}


@pytest.fixture
def document(client, db):
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200
    return answer.json()


def operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def response_schema_ref(response) -> str | None:
    return response.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref")


class TestTheDocument:
    def test_no_example_pairs_guests_with_more_children_than_it_allows(self, document):
        for path, method, operation in operations(document):
            examples = {p["name"]: next(iter(p.get("examples", {}).values()), {}).get("value") for p in operation.get("parameters", [])}
            if examples.get("children_ages"):
                ages = [age for age in str(examples["children_ages"]).split(",") if age.strip()]
                assert len(ages) <= examples.get("guests", 2) - 1, (path, method, examples)
            assert "children included" in str(operation).replace("\n", " ") or "guests" not in examples, (path, method)

    def test_it_is_valid_openapi_at_both_addresses_with_version_1_0_0(self, client, document):
        validate(document)
        assert client.get("/.well-known/openapi.json").json() == document
        assert document["openapi"].startswith("3.") and document["info"]["version"] == "1.0.0"
        assert "checkout-link" in document["info"]["description"]

    def test_every_endpoint_taking_input_documents_its_422_and_every_error_has_an_error_shape(self, document):
        for path, method, operation in operations(document):
            responses = operation["responses"]
            takes_input = "requestBody" in operation or any(p["in"] in ("query", "path") for p in operation.get("parameters", []))
            if takes_input:
                assert response_schema_ref(responses.get("422", {})) == VALIDATION_ERROR_REF, (method, path)
            for status, response in responses.items():
                if status.startswith(("4", "5")) and status != "422" and "content" in response:
                    assert response_schema_ref(response) == ERROR_REF, (method, path, status)

    def test_every_endpoint_has_an_example(self, document):
        without = set()
        for _, _, operation in operations(document):
            has_example = (
                any("examples" in media or "example" in media for media in operation.get("requestBody", {}).get("content", {}).values())
                or any("examples" in parameter or "example" in parameter for parameter in operation.get("parameters", []))
                or any("examples" in media for response in operation["responses"].values() for media in response.get("content", {}).values())
            )
            if not has_example:
                without.add(operation["operationId"])
        assert without == WITHOUT_EXAMPLES_YET

    def test_every_response_example_matches_its_schema(self, document):
        checked = 0
        for path, method, operation in operations(document):
            for status, response in operation["responses"].items():
                media = response.get("content", {}).get("application/json", {})
                for name, example in media.get("examples", {}).items():
                    schema = {**media["schema"], "components": document["components"]}
                    validator = OAS31Validator if document["openapi"].startswith("3.1") else OAS30Validator
                    errors = [error.message for error in validator(schema).iter_errors(example["value"])]
                    assert not errors, (method, path, status, name, errors)
                    checked += 1
        assert checked >= 12


@pytest.mark.django_db
def test_a_malformed_return_url_is_refused_not_a_server_error(demo_property):
    from django.test import Client

    answer = Client(raise_request_exception=False).post(
        "/api/v1/payments/checkout-link",
        {**stay(30), "success_url": "https://["},
        content_type="application/json",
    )
    assert answer.status_code == 422


@pytest.mark.live
class TestTheApiKeepsToIt:
    def test_an_absurdly_long_stay_is_refused_at_once(self, live_url):
        # Found by schemathesis: a stay ending in the year 8439 used to keep a worker busy for a
        # minute pricing three million nights. It is absurd input now, like a 201-character id.
        started = time.monotonic()
        answer = rest(live_url, "GET", "/api/v1/availability", {**stay(30), "check_out": "8439-07-21"})
        assert time.monotonic() - started < 2
        assert answer.status_code == 422 and answer.json()["detail"][0]["type"] == "stay_too_long"
        ten_years = rest(live_url, "GET", "/api/v1/availability", {**stay(30), "check_out": stay(30 + 3650)["check_in"]})
        assert ten_years.status_code == 200 and ten_years.json()["available"] is False

    @pytest.mark.slow
    def test_schemathesis_finds_nothing(self, live_url, tmp_path):
        """Every phase (examples, coverage, fuzzing, stateful) and every check, configured by
        schemathesis.toml (its choices are explained there). Run in tmp_path: its caches stay there."""
        command = [
            str(Path(sys.executable).with_name("schemathesis")),
            "--config-file",
            str(ROOT / "schemathesis.toml"),
            "run",
            live_url + "/api/openapi.json",
            "--request-timeout",
            "10",
        ]
        try:
            finished = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=200, env={**os.environ, "NO_COLOR": "1"})
        except subprocess.TimeoutExpired as timeout:
            pytest.fail(f"schemathesis did not finish in time:\n{timeout.stdout}")
        assert finished.returncode == 0, finished.stdout[-8000:] + finished.stderr[-2000:]
        assert "Test cases:" in finished.stdout and " passed" in finished.stdout
        assert requests.get(live_url + "/api/v1/health", timeout=TIMEOUT).json()["status"] == "ok"


class TestTheDocumentAsAgentsRead:
    """What generated clients and agents rely on beyond the shapes: every error an operation can
    give is declared, `loc` items are typed, and the examples can be sent as they are today."""

    @pytest.fixture
    def document(self, client, settings, demo_property):
        settings.BASE_URL = "https://stay.example.org"
        return client.get("/api/openapi.json").json()

    def test_payment_endpoints_declare_413_and_503(self, document):
        for path in ("/api/v1/payments/checkout-link", "/api/v1/payments/checkout-session"):
            responses = document["paths"][path]["post"]["responses"]
            assert {"413", "503"} <= set(responses), path
            assert responses["413"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
        assert "413" not in document["paths"]["/api/v1/property"]["get"]["responses"]  # no body, no 413

    def test_loc_items_are_strings_or_integers_and_errors_carry_the_request_id(self, document):
        schemas = document["components"]["schemas"]
        assert schemas["ValidationError"]["properties"]["loc"]["items"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
        assert "request_id" in schemas["Error"]["properties"] and "request_id" in schemas["HTTPValidationError"]["properties"]

    def test_examples_are_on_this_site_and_in_the_future_on_the_same_weekdays(self, document):
        text = json.dumps(document["paths"])
        assert "https://example.com" not in text and "https://stay.example.org/api/v1/" in text
        from tests.dates import today

        stay_dates = {date.fromisoformat(d) for d in re.findall(r'"(?:check_in|check_out|start|end)": "(20\d\d-\d\d-\d\d)"', text)}
        request_example = document["paths"]["/api/v1/payments/checkout-link"]["post"]["requestBody"]["content"]["application/json"]["examples"]
        [example] = request_example.values()
        check_in = date.fromisoformat(example["value"]["check_in"])
        assert check_in >= today() + timedelta(days=45) and check_in.weekday() == date(2027, 5, 10).weekday()
        assert stay_dates and min(stay_dates) > today()  # (a review's date stays in the past)

    def test_the_request_example_books_as_it_is(self, document, api):
        [example] = document["paths"]["/api/v1/payments/checkout-link"]["post"]["requestBody"]["content"]["application/json"]["examples"].values()
        assert api.post("/api/v1/quote", {k: v for k, v in example["value"].items() if k != "agent_name"}).status_code == 200
