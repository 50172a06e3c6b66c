"""UCP helpers for the tests: the pinned JSON schemas (ucp_schemas/, see its README) and requests.

Every UCP answer a test reads goes through `booking_body`, `error_body`, `profile_body` or
`any_body`, which validate it against the pinned schemas (draft 2020-12, formats checked) before the
test looks at it; the tests' clients pass every answer through `any_body` as it arrives.
"""

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from tests.dates import future

SCHEMAS = Path(__file__).parent / "ucp_schemas"
BASE = "https://ucp.dev/schemas/"


@cache
def registry() -> Registry:
    resources = []
    for path in SCHEMAS.rglob("*.json"):
        document = json.loads(path.read_text())
        resources.append((document.get("$id") or BASE + path.relative_to(SCHEMAS).as_posix(), Resource.from_contents(document)))
    return Registry().with_resources(resources)


@cache
def validator(uri: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": uri}, registry=registry(), format_checker=Draft202012Validator.FORMAT_CHECKER)


def assert_valid(body: dict, uri: str) -> dict:
    errors = sorted(validator(uri).iter_errors(body), key=lambda error: list(error.path))
    assert not errors, "\n".join(f"{list(error.path)}: {error.message}" for error in errors[:10])
    return body


def booking_body(body: dict) -> dict:
    """A booking session, valid as a booking with the cancellation-policy and payment-terms extensions."""
    assert_valid(body, BASE + "lodging/booking.json")
    assert_valid(body, BASE + "lodging/policy_cancellation.json#/$defs/dev.ucp.lodging.booking")
    assert_valid(body.get("payment", {}), BASE + "common/payment_terms.json#/$defs/payment")
    non_total = sum(entry["amount"] for entry in body["totals"] if entry["type"] != "total")
    [total] = [entry["amount"] for entry in body["totals"] if entry["type"] == "total"]
    assert non_total == total, body["totals"]
    for entry in body["totals"]:
        if entry.get("lines"):
            assert sum(line["amount"] for line in entry["lines"]) == entry["amount"], entry
    for term in body["payment"]["terms"]:
        assert sum(schedule["amount"] for schedule in term["schedules"]) == total
    return body


def any_body(body: dict) -> dict:
    """Whatever a UCP operation answered, validated as what it says it is: an error envelope or a session."""
    return error_body(body) if body.get("ucp", {}).get("status") == "error" else booking_body(body)


def error_body(body: dict) -> dict:
    return assert_valid(body, BASE + "common/types/error_response.json")


def profile_body(body: dict) -> dict:
    return assert_valid(body, BASE + "profile.json#/$defs/business_schema")


def session_request(offset: int = 40, nights: int = 3, *, adults: int = 2, child_ages: list[int] | None = None, prop: str = "penthouse-florence") -> dict:
    occupancy = {"adults": adults, "total": adults + len(child_ages or [])}
    if child_ages:
        occupancy |= {"children": len(child_ages), "child_ages": child_ages}
    return {
        "property": {"id": prop},
        "stays": [
            {
                "accommodation_type": {"id": "whole_home"},
                "rate_plan": {"id": "standard"},
                "occupancy": occupancy,
                "stay_dates": {"start_date": str(future(offset)), "end_date": str(future(offset + nights))},
            }
        ],
    }
